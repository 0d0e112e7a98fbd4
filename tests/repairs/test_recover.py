"""Sources of a broken font's map: program tables, verified orders, voted OCR readings."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from test_repair_pdfs import DEJAVU, severed_pdf

from pytest_textlayer.repairs import (
    fontusage,
    glyphocr,
    glyphreading,
    ordermaps,
    pageglyphs,
    programmaps,
    recover,
)

pytestmark = pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")

TEXT = (
    "Le cœur a ses raisons que la raison ne connaît point.\n"
    "On le sent en mille choses. Je dis que le cœur aime l’être universel naturellement."
)


def _usage(data: bytes) -> fontusage.FontUsage:
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    usages = list(fontusage.collect_fonts(pdf).values())
    assert len(usages) == 1
    return usages[0]


@pytest.mark.parametrize(("keep", "source"), [("cmap", "cmap"), ("post", "post")])
@pytest.mark.parametrize("order", ["mac-standard", "first-use"])
def test_program_tables_give_the_drawn_text(order: str, keep: str, source: str) -> None:
    usage = _usage(severed_pdf([TEXT], order=order, keep=keep))
    found = programmaps.from_program(usage)
    assert found is not None
    assert found.source == source
    assert found.coverage == 1.0
    assert usage.text(found.mapping) == TEXT


def test_program_without_cmap_or_post_says_nothing() -> None:
    assert programmaps.from_program(_usage(severed_pdf([TEXT], keep="none"))) is None


def test_mac_standard_order_is_verified_and_maps_accents() -> None:
    usage = _usage(severed_pdf([TEXT], order="mac-standard", keep="none"))
    found = ordermaps.from_order(usage)
    assert found is not None
    assert found.source == "mac-standard"
    assert usage.text(found.mapping) == TEXT  # œ, î, ê come through, which −29 cannot give


def test_first_use_order_is_not_guessed() -> None:
    """Glyph ids in order of first use make letter soup under many offsets: none is believed."""
    usage = _usage(severed_pdf([TEXT], order="first-use", keep="none"))
    assert ordermaps.from_order(usage) is None


def test_offset_map_and_wordlike() -> None:
    usage = _usage(severed_pdf(["Hello world"], order="mac-standard", keep="none"))
    assert usage.text(ordermaps.offset_map(usage, 29)) == "Hello world"
    assert ordermaps.wordlike("Hello, world: (l’ami) 12,5 %") == 1.0
    assert ordermaps.wordlike("9:;<=>?@ABCDEFG") == 0.0
    assert ordermaps.wordlike("¦a¤ď¶³a¢a´") < 0.5


def test_a_shifted_ligature_value_moves_back_character_by_character() -> None:
    usage = _usage(severed_pdf(["Hello world"], order="mac-standard", keep="none"))
    codes = sorted(usage.codes())
    down = {code: "".join(chr(ord(ch) - 29) for ch in text)
            for code, text in zip(codes, ["fi", "a", "\ufb01"], strict=False)}
    back = ordermaps.offset_map(usage, 29, base=down)
    assert [back[c] for c in codes[:3]] == ["fi", "a", "\ufb01"]


def test_presentation_forms_read_as_letters() -> None:
    assert recover.plain_text("\ufe97\ufea4\ufeb4\ufbff\ufee6") == "تحسین"
    assert recover.plain_text("\ufef7") == "لأ"
    assert recover.plain_text("\ufb01 Ｏ") == "\ufb01 Ｏ"  # Latin ligatures, fullwidth kept


def test_votes_need_numbers_and_agreement() -> None:
    readings = {
        1: [("a", 99.0), ("a", 98.0), ("o", 60.0), ("a", 97.0)],  # 3 of 4 agree: mapped
        2: [("l", 95.0), ("I", 95.0)],  # split: stays unmapped
        3: [("q", 96.0)],  # drawn once, read confidently: mapped
        4: [("z", 96.0)],  # drawn twice, read once inside its word, surely: believed
        9: [("k", 80.0)],  # drawn twice, read once by position only: too few votes
        10: [("x", 99.0), ("e", 80.0)],  # a word's reading outranks a drifted box's
        5: [("x", 40.0)],  # drawn once, read unsurely
        6: [(" ", 100.0), (" ", 100.0)],
        7: [("mi", 99.0)],  # drawn once, two letters in one box: a swallowed neighbour
        8: [("µ", 95.0), ("μ", 96.0)],  # micro sign and mu are one reading
    }
    counts = {1: 4, 2: 2, 3: 1, 4: 2, 5: 1, 6: 2, 7: 1, 8: 2, 9: 2, 10: 2}
    assert glyphocr.vote(readings, counts) == {1: "a", 3: "q", 4: "z", 6: " ", 8: "μ", 10: "x"}


def test_usable_text_rejects_what_a_tounicode_must_not_carry() -> None:
    assert recover.usable_text("fi")
    for bad in ("", "\x03", "\ufffd", "\ue001", "\ufeff", "a\x00"):
        assert not recover.usable_text(bad)


def test_collect_fonts_follows_form_xobjects_and_splits_tj_gaps() -> None:
    import pikepdf

    data = severed_pdf(["Hello world"], order="mac-standard", keep="none")
    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[0]
    font = page.obj.Resources.Font.F1
    form = pdf.make_stream(b"BT /F1 12 Tf 10 10 Td [<002B0048> -600 <004F>] TJ ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 100, 100]
    form.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.obj.Resources.XObject = pikepdf.Dictionary(X1=form)
    page.obj.Contents = pdf.make_stream(page.obj.Contents.read_bytes() + b"\nq /X1 Do Q")
    usage = list(fontusage.collect_fonts(pdf).values())[0]
    assert usage.pages[0][-2:] == [[0x2B, 0x48], [0x4F]]


def _glyph(code: int, x0: float, x1: float, blank: bool = False) -> pageglyphs.Glyph:
    return pageglyphs.Glyph(code, (x0, 100.0, x1, 140.0), blank)


def test_glyphs_pair_with_a_recognised_word_letter_by_letter() -> None:
    """Tesseract's character boxes are sloppy (the A spills over the N); its word text is not."""
    from pytest_textlayer.repairs.ocr import OcrChar

    glyphs = [_glyph(1, 0, 30), _glyph(2, 30, 60), _glyph(3, 60, 90), _glyph(4, 90, 100, True)]
    glyphs += [_glyph(5, 100, 130), _glyph(6, 130, 160)]
    chars = [
        OcrChar("N", (2, 104, 28, 138), 99.0, 1, 1),
        OcrChar("A", (20, 104, 75, 138), 98.0, 1, 1),  # box far off its glyph
        OcrChar("P", (64, 104, 88, 138), 99.0, 1, 1),
        OcrChar("o", (103, 110, 127, 138), 97.0, 2, 1),
        OcrChar("n", (133, 110, 157, 138), 97.0, 2, 1),
    ]
    got = {g.code: text for g, (text, _) in glyphreading.read_glyphs(glyphs, chars)}
    assert got == {1: "N", 2: "A", 3: "P", 4: " ", 5: "o", 6: "n"}


def _boxed(code: int, box: tuple[float, float, float, float]) -> pageglyphs.Glyph:
    return pageglyphs.Glyph(code, box, False)


@pytest.mark.parametrize(("glyphs", "letters", "known", "want"), [
    # An italic "ﬁnes" (WeasyPrint, DejaVu Sans Oblique, 300 dpi): the i's box lies as
    # near the n as the ﬁ.
    ([_boxed(4735, (364, 919, 390, 954)), _boxed(81, (392, 928, 416, 954)),
      _boxed(72, (422, 928, 446, 955)), _boxed(86, (448, 928, 471, 955))],
     [("f", (364, 919, 390, 954)), ("i", (378, 919, 404, 955)), ("n", (392, 928, 416, 954)),
      ("e", (422, 928, 446, 955)), ("s", (448, 928, 471, 955))],
     {81: "n", 72: "e", 86: "s"}, ["fi", "n", "e", "s"]),
    # "scaﬀali" (DejaVu Serif): the first f's box lies nearer the a than the ﬀ.
    ([_boxed(86, (915, 970, 934, 996)), _boxed(70, (938, 970, 960, 996)),
      _boxed(68, (964, 970, 988, 996)), _boxed(3314, (991, 960, 1024, 995)),
      _boxed(68, (1024, 970, 1048, 996)), _boxed(79, (1050, 960, 1062, 995)),
      _boxed(76, (1065, 961, 1077, 995))],
     [("s", (915, 971, 934, 996)), ("c", (939, 971, 960, 996)), ("a", (964, 971, 988, 996)),
      ("f", (981, 960, 1005, 996)), ("f", (991, 960, 1025, 995)), ("a", (1024, 971, 1048, 996)),
      ("l", (1051, 960, 1063, 995)), ("i", (1066, 961, 1078, 995))],
     {86: "s", 70: "c", 68: "a", 79: "l", 76: "i"}, ["s", "c", "a", "ff", "a", "l", "i"]),
], ids=["fines", "scaffali"])
def test_a_ligature_gets_the_letters_its_neighbours_were_not_read_as(
        glyphs: list[pageglyphs.Glyph], letters: list[tuple[str, tuple[float, ...]]],
        known: dict[int, str], want: list[str]) -> None:
    """Where a word has more letters than glyphs, the letters are cut into runs so that the
    glyphs read alone elsewhere keep what they read there; by position alone the stray
    letter went to the wrong side of the ligature."""
    from pytest_textlayer.repairs.ocr import OcrChar

    chars = [OcrChar(t, box, 96.0, 1, 1) for t, box in letters]  # type: ignore[arg-type]
    word = [(g.code, text) for g, (text, _) in glyphreading.read_glyphs(glyphs, chars,
                                                                         known=known)]
    assert [text for _, text in word] == want
    unknown = [text for _, text in glyphreading.read_glyphs(glyphs, chars)]
    assert unknown != want


def test_a_glyph_between_two_words_where_ocr_saw_nothing_is_a_space() -> None:
    from pytest_textlayer.repairs.ocr import OcrChar

    glyphs = [_glyph(1, 0, 30), _glyph(9, 30, 45), _glyph(2, 45, 75)]
    chars = [
        OcrChar("a", (3, 110, 27, 138), 99.0, 1, 1),
        OcrChar("b", (48, 104, 72, 138), 99.0, 2, 1),
    ]
    got = {g.code: text for g, (text, _) in glyphreading.read_glyphs(glyphs, chars)}
    assert got == {1: "a", 9: " ", 2: "b"}


def test_overlapping_type3_boxes_become_cells_between_origins() -> None:
    font_box = (0.0, 50.0, 300.0, 150.0)
    chars = [
        pageglyphs._Char(1, font_box, False, True, (10.0, 140.0)),
        pageglyphs._Char(2, font_box, False, True, (40.0, 140.0)),
        pageglyphs._Char(3, font_box, False, True, (65.0, 140.0)),
    ]
    cells = pageglyphs._cells(chars)
    assert [c.box[0] for c in cells] == [10.0, 40.0, 65.0]
    assert [c.box[2] for c in cells[:2]] == [40.0, 65.0]
    assert cells[2].box[2] - cells[2].box[0] < 60  # the last one gets a typical advance
    assert all(c.cell for c in cells)


def test_parse_hocr_reads_characters_words_and_lines() -> None:
    from pytest_textlayer.repairs.ocr import chars_text, parse_hocr

    hocr = """<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><body>
<div class='ocr_page' title='bbox 0 0 500 200'>
<span class='ocr_line' title='bbox 10 10 200 40'>
<span class='ocrx_word' title='bbox 10 10 60 40; x_wconf 96'>
<span class='ocrx_cinfo' title='x_bboxes 10 10 30 40; x_conf 97.5'>L</span>
<span class='ocrx_cinfo' title='x_bboxes 32 18 60 40; x_conf 96.1'>e</span></span>
<span class='ocrx_word' title='bbox 70 10 120 40; x_wconf 95'>
<span class='ocrx_cinfo' title='x_bboxes 70 18 120 40; x_conf 95.0'>œ</span></span>
</span></div></body></html>"""
    chars = parse_hocr(hocr)
    assert [c.text for c in chars] == ["L", "e", "œ"]
    assert chars[0].box == (10.0, 10.0, 30.0, 40.0) and chars[0].conf == 97.5
    assert chars[0].word == chars[1].word != chars[2].word
    assert chars_text(chars) == "Le œ"


def test_hex_suffixed_glyph_names_are_code_points_only_when_ascii_codes_agree() -> None:
    names = {c: f"iSQP{c:04X}" for c in range(0x41, 0x5B)} | {229: "iSQP05EA", 32: "iSQP0020"}
    got = programmaps.hex_names(names)
    assert got[0x41] == "A" and got[229] == "\u05ea" and got[32] == " "
    shifted = {c: f"iSQP{c + 1:04X}" for c in range(0x41, 0x5B)}
    assert programmaps.hex_names(shifted) == {}  # the hex is not the code: a glyph index
    mixed = names | {0x30: "zero"}
    assert programmaps.hex_names(mixed) == {}  # one scheme for every name, or none
    assert programmaps.hex_names({c: f"g{c:04X}" for c in range(0x41, 0x45)}) == {}  # too few


def test_a_code_read_two_ways_is_settled_by_the_words_it_sits_in() -> None:
    """"Il" read as "|l" once: the reading that makes the word whole wins; a tie stays open."""
    from pytest_textlayer.repairs.fontusage import FontUsage
    from pytest_textlayer.repairs.glyphsettle import settle

    text = "Il libro e il comune: Il disagio"
    letters = sorted(set(text))
    code = {ch: i + 1 for i, ch in enumerate(letters)}
    usage = FontUsage((1, 0), None, "F", "/Type0", 2, pages={0: [[code[ch] for ch in text]]})
    mapping = {c: ch for ch, c in code.items() if ch != "I"}
    readings = {code["I"]: [("I", 97.0), ("|", 96.0)]}
    assert settle(usage, mapping, readings, lang="it") == {code["I"]: "I"}
    # Two letters the words cannot tell apart in so little text stay unmapped.
    tie = {code["I"]: [("I", 97.0), ("l", 96.0)]}
    assert settle(usage, mapping, tie, lang="it") in ({}, {code["I"]: "I"})


def test_two_characters_read_once_from_one_glyph_are_not_settled() -> None:
    """A ";" opening a line read once as ";:": the vote leaves it open, and so must the words
    (the model skips punctuation, so nothing contradicts the extra mark). LibreOffice sets
    French's space before ";" by moving the pen, so the word is "vendredi;"."""
    from pytest_textlayer.repairs.fontusage import FontUsage
    from pytest_textlayer.repairs.glyphsettle import settle

    text = "chaque mardi et vendredi; la mairie s'excuse de la gêne occasionnée"
    code = {ch: i + 1 for i, ch in enumerate(sorted(set(text)))}
    usage = FontUsage((1, 0), None, "F", "/Type0", 2, pages={0: [[code[ch] for ch in text]]})
    mapping = {c: ch for ch, c in code.items() if ch != ";"}
    assert settle(usage, mapping, {code[";"]: [(";:", 80.0)]}, lang="fr") == {}
    # Letters are another matter: the words vouch for a ligature glyph read once as "fi".
    words = "Questions about fines or reservations can be sent by email"
    code = {ch: i + 1 for i, ch in enumerate(sorted(set(words)))}
    lig = max(code.values()) + 1
    drawn = [lig if words[i:i + 2] == "fi" else code[ch] for i, ch in enumerate(words)
             if words[i - 1:i + 1] != "fi"]
    usage = FontUsage((1, 0), None, "F", "/Type0", 2, pages={0: [drawn]})
    mapping = {c: ch for ch, c in code.items()}
    assert settle(usage, mapping, {lig: [("fi", 80.0)]}, lang="en") == {lig: "fi"}


def test_a_specimen_sheet_shows_every_code_a_few_times_in_few_words() -> None:
    from pytest_textlayer.repairs.specimen import TARGET, choose

    words = [list("the"), list("cat"), list("the"), list("sat"), list("on"), list("the"),
             list("mat"), list("the"), list("zoo")]
    picked = choose(words, {})
    shown = Counter(c for i in picked for c in words[i])
    drawn = Counter(c for w in words for c in w)
    assert all(shown[c] >= min(TARGET, n) for c, n in drawn.items())
    assert len(picked) < len(words)
    # Codes already read on earlier pages need no word of this one.
    assert choose(words, dict.fromkeys(drawn, TARGET)) == []


def test_a_specimen_sheet_shows_each_code_as_often_as_the_vote_needs() -> None:
    """Two readings of a code are what the vote needs; a third would only cost Tesseract time."""
    from pytest_textlayer.repairs.glyphocr import MIN_VOTES
    from pytest_textlayer.repairs.specimen import choose

    words = [["a"]] * 5 + [["b"]] + [["c"]] * 3
    shown = Counter(words[i][0] for i in choose(words, {}))
    assert shown == {"a": MIN_VOTES, "b": 1, "c": MIN_VOTES}


def test_a_code_whose_readings_disagree_is_shown_again_on_a_later_page() -> None:
    """What earlier pages read counts towards a sheet by how far its confident readings lean
    one way: a code read "a" and "o" is wanted as if unread, one read "e" twice is not, and
    a reading placed by position only (capped confidence) counts for nothing."""
    from pytest_textlayer.repairs.glyphocr import confident_tallies, readings_had
    from pytest_textlayer.repairs.glyphreading import FALLBACK_CONF
    from pytest_textlayer.repairs.specimen import wanting

    key = (1, 0)
    readings = {key: {1: [("a", 99.0), ("o", 97.0)], 2: [("e", 99.0), ("e", 96.0)],
                      3: [("i", FALLBACK_CONF), ("i", FALLBACK_CONF)],
                      4: [("n", 99.0), ("n", 98.0), ("m", 91.0)]}}
    had = readings_had(confident_tallies(readings))
    assert had == {(key, 1): 0, (key, 2): 2, (key, 3): 0, (key, 4): 1}
    drawn = {(key, code): 5 for code in (1, 2, 3, 4)}
    assert wanting(drawn, had) == {(key, 1): 2, (key, 3): 2, (key, 4): 1}


def test_accents_and_a_reading_another_glyph_owns_settle_a_split_vote() -> None:
    """ύ twice and ὕ once: the model folds breathings, the majority decides; Τ read once as τ,
    where τ has its own glyph: Τ."""
    from pytest_textlayer.repairs.fontusage import FontUsage
    from pytest_textlayer.repairs.glyphsettle import settle

    text = "οδού ύστερα Τρίτη τα Τα"
    code = {ch: i + 1 for i, ch in enumerate(sorted(set(text)))}
    usage = FontUsage((1, 0), None, "F", "/Type0", 2, pages={0: [[code[ch] for ch in text]]})
    mapping = {c: ch for ch, c in code.items() if ch not in "ύΤ"}
    readings = {code["ύ"]: [("ύ", 99.0), ("ὕ", 91.0), ("ύ", 98.0)],
                code["Τ"]: [("Τ", 99.0), ("τ", 97.0)]}
    assert settle(usage, mapping, readings, lang="el") == {code["ύ"]: "ύ", code["Τ"]: "Τ"}
