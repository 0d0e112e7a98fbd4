"""A specimen sheet cut into its head and the rest: every word in exactly one part, in its
place, the other part's words painted out.

Synthetic glyphs (black boxes on a white page): what is checked is geometry,
not reading.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from pytest_textlayer.repairs import specimen
from pytest_textlayer.repairs.glyphocr import page_glyphs
from pytest_textlayer.repairs.pageglyphs import Glyph, PageGlyphs


def _page(lines: int = 6, words_per_line: int = 8) -> tuple[Image.Image, list[list[Glyph]]]:
    """A page of words of three to seven 20x30 px glyphs, each glyph its own code."""
    image = Image.new("L", (2000, 80 * lines + 100), 255)
    draw = ImageDraw.Draw(image)
    words: list[list[Glyph]] = []
    code = 0
    for line in range(lines):
        x, y = 50.0, 60.0 + 80 * line
        for w in range(words_per_line):
            word = []
            for _ in range(3 + (line + w) % 5):
                box = (x, y, x + 20, y + 30)
                draw.rectangle(box, fill=0)
                word.append(Glyph(code, box, False, base=y + 30))
                code += 1
                x += 24
            words.append(word)
            x += 30
    return image, words


def _sheet() -> specimen.Sheet:
    image, words = _page()
    codes = [[(1, g.code) for g in w] for w in words]
    # Half the page's words: each code drawn once, so every word is wanted; the sheet
    # is built against twice the glyphs (as on a page where other fonts draw too).
    half = words[::2]
    sheet = specimen.build(image, half, [[(1, g.code) for g in w] for w in half],
                           2 * sum(len(w) for w in words), {})
    assert sheet is not None and codes
    return sheet


def test_a_place_belongs_to_its_word() -> None:
    """``places[i]`` is where ``words[i]`` went: the same width, whatever row it is on."""
    sheet = _sheet()
    assert len(sheet.places) == len(sheet.words)
    for (x0, _, x1, _, _, _), word in zip(sheet.places, sheet.words, strict=True):
        left = min(g.box[0] for g in word) - specimen.PAD
        right = max(g.box[2] for g in word) + specimen.PAD
        assert abs((x1 - x0) - (int(right) + 1 - int(left))) <= 1


def test_the_head_is_the_first_words_and_the_rest_the_others() -> None:
    sheet = _sheet()
    parts = sheet.split(0.25)
    assert parts is not None
    head, rest = parts
    total = sum(len(w) for w in sheet.words)
    shown = sum(len(w) for w in head.words)
    assert 0.25 * total <= shown < 0.5 * total
    # Every word in exactly one part, with its own place.
    together = [id(w) for w in head.words] + [id(w) for w in rest.words]
    assert sorted(together) == sorted(id(w) for w in sheet.words)
    where = {id(w): p for w, p in zip(sheet.words, sheet.places, strict=True)}
    for part in (head, rest):
        assert all(where[id(w)] == p for w, p in zip(part.words, part.places, strict=True))
    # The head is the top of the sheet; its words' ink is there, the rest's is not.
    assert head.image.width == sheet.image.width and head.image.height < sheet.image.height
    assert rest.image.size == sheet.image.size

    def inked(image: Image.Image, place: tuple[float, ...]) -> bool:
        x0, y0, x1, y1 = (int(v) for v in place[:4])
        return image.crop((x0, y0, x1, y1)).getextrema()[0] < 128

    assert all(inked(head.image, p) for p in head.places)
    assert all(inked(rest.image, p) for p in rest.places)
    assert not any(inked(rest.image, p) for p in head.places)
    assert not any(inked(head.image, p) for p in rest.places if p[3] <= head.image.height)


def test_a_one_word_sheet_is_not_cut() -> None:
    image, words = _page(lines=1, words_per_line=1)
    sheet = specimen.Sheet(image, [(0.0, 0.0, 10.0, 10.0, 0.0, 0.0)], words)
    assert sheet.split(0.25) is None


def test_a_reading_of_the_whole_page_counts_every_fonts_glyphs() -> None:
    """An italic phrase severed among fonts that were repaired otherwise is a few words of
    the page: whether a sheet saves reading is weighed against all the page draws."""
    glyphs = PageGlyphs({(1, 0): [Glyph(1, (0, 0, 1, 1), False)] * 30})
    glyphs.drawn = 900
    assert page_glyphs(glyphs) == 900
    assert page_glyphs({(1, 0): [Glyph(1, (0, 0, 1, 1), False)] * 30}) == 30


def test_a_short_word_stays_with_the_word_after_it() -> None:
    """build shows a word of one or two glyphs with its neighbour (alone it has no line to
    take case or kind from): the head does not end between them."""
    image = Image.new("L", (1200, 100), 255)
    lengths = [4, 4, 1, 5, 5, 5]
    words, places, x = [], [], 10.0
    for n in lengths:
        words.append([Glyph(i, (x + 20 * i, 30, x + 20 * i + 18, 60), False) for i in range(n)])
        places.append((x, 30.0, x + 20 * n, 60.0, 0.0, 0.0))
        x += 20 * n + 15
    parts = specimen.Sheet(image, places, words).split(0.35)
    assert parts is not None
    assert [len(w) for w in parts[0].words] == [4, 4, 1, 5]


def test_a_right_to_left_word_is_turned_but_its_numbers_are_not() -> None:
    from types import SimpleNamespace

    from pytest_textlayer.repairs.glyphreading import right_to_left, visual_order

    def turned(text: str) -> str:
        return "".join(c.text for c in visual_order([SimpleNamespace(text=t) for t in text]))

    assert turned("שלום") == "םולש"
    assert turned("ה-50") == "50-ה"
    assert turned("ה-3.5") == "3.5-ה"
    assert right_to_left([SimpleNamespace(text=t) for t in "ה-50"])
    assert not right_to_left([SimpleNamespace(text=t) for t in "2024"])
    assert not right_to_left([SimpleNamespace(text=t) for t in "word"])
