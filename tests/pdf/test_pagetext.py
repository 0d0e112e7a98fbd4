"""The text the content walk collects through the fonts' declared routes (pagetext).

Pages are real PDFs: content streams written with pikepdf around real font
dictionaries, reportlab documents, and the fixture factory's generators.
Each test states the text a spec-following reader gives and checks that
the collected text has it (word and line breaks included), or that the
text says it is incomplete when only a real reader can decode it.
"""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.generators import generate
from pytest_textlayer.pdf.content import scan_page
from pytest_textlayer.pdf.pagecontent import PageContent
from pytest_textlayer.pdf.pagetext import TEXT_BUDGET, TextSink, text_font

HELVETICA = {"/Type": "/Font", "/Subtype": "/Type1", "/BaseFont": "/Helvetica",
             "/Encoding": "/WinAnsiEncoding"}


def _font(pdf: pikepdf.Pdf, spec: dict[str, Any]) -> Any:
    def obj(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("/"):
            return pikepdf.Name(value)
        if isinstance(value, dict):
            return pikepdf.Dictionary({k: obj(v) for k, v in value.items()})
        if isinstance(value, list):
            return pikepdf.Array([obj(v) for v in value])
        return value

    return pdf.make_indirect(obj(spec))


def page_pdf(content: bytes, fonts: dict[str, dict[str, Any]] | None = None) -> bytes:
    """One Letter page drawing `content` with the named fonts (Helvetica as /F1 by default)."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(612, 792))
    page = pdf.pages[0]
    specs = fonts if fonts is not None else {"/F1": HELVETICA}
    page.obj.Resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary({name: _font(pdf, spec) for name, spec in specs.items()})
    )
    page.obj.Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def scan(data: bytes, index: int = 0) -> PageContent:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return scan_page(pdf, index, {})


def text_of(content: bytes, fonts: dict[str, dict[str, Any]] | None = None) -> str:
    page = scan(page_pdf(content, fonts))
    assert page.text_complete
    return page.text


# -- word breaks --------------------------------------------------------------------------------


def test_a_tj_adjustment_wider_than_a_word_gap_is_a_space() -> None:
    assert text_of(b"BT /F1 12 Tf 72 700 Td [(Hello) -300 (world)] TJ ET") == "Hello world"


def test_kerning_inside_a_word_is_not_a_space() -> None:
    assert text_of(b"BT /F1 12 Tf 72 700 Td [(Wa) 80 (ter) -20 (fall)] TJ ET") == "Waterfall"


def test_a_gap_between_two_strings_on_a_line_is_a_space() -> None:
    # Helvetica has no /Widths here: half an em per glyph, so "Hello" ends 30 pt after 72.
    far = text_of(b"BT /F1 12 Tf 72 700 Td (Hello) Tj 40 0 Td (world) Tj ET")
    near = text_of(b"BT /F1 12 Tf 72 700 Td (Hello) Tj 30 0 Td (world) Tj ET")
    assert (far, near) == ("Hello world", "Helloworld")


def test_strings_shown_one_after_another_continue_where_the_last_ended() -> None:
    """Tj, TJ, ' and " move the text position past what they show: a word split over two
    strings with no move between them is one word, as PDFium and poppler read it."""
    assert text_of(b"BT /F1 12 Tf 72 700 Td (Internationa) Tj (l) Tj ( Council) Tj ET") == (
        "International Council")
    assert text_of(b"BT /F1 12 Tf 72 700 Td [(Super) 20 (cali)] TJ [(fragi)] TJ (listic) Tj ET"
                   ) == "Supercalifragilistic"
    assert text_of(b"BT /F1 12 Tf 14 TL 72 700 Td (one) Tj (line) ' (s) Tj ET") == "one\nlines"


def _numeric_font(start: int, names: list[str]) -> dict[str, dict[str, Any]]:
    return {"/F1": {"/Type": "/Font", "/Subtype": "/Type1", "/BaseFont": "/DMFKEG+Quorum",
                    "/Encoding": {"/Type": "/Encoding", "/Differences": [start, *names]}}}


def test_glyph_names_that_are_numbers_read_as_poppler_reads_them(tmp_path: Any) -> None:
    """Differences runs from code 5 or below whose every name is a number (``MT51``): poppler
    reads each as the character of its number. Our text agrees; the route is no
    specification's, so it stays unverified (judged by language when it is prose)."""
    from pytest_textlayer.judge.classifier import classify
    from pytest_textlayer.pdf.readers import poppler_text

    fonts = _numeric_font(2, ["/MT51", "/MT48", "/MT32", "/MT85", "/MT47", "/MT109", "/MT108"])
    data = page_pdf(b"BT /F1 12 Tf 72 700 Td (\x02\x03\x04\x05\x06\x07\x08) Tj ET", fonts)
    assert scan(data).text == "30 U/ml"
    path = tmp_path / "numeric.pdf"
    path.write_bytes(data)
    assert "".join(poppler_text(str(path)).split()) == "30U/ml"  # poppler places by widths
    font = classify(data).pages[0].fonts[0]
    assert (font.route, font.unmapped) == ("numeric", 0)


def test_numbered_glyph_names_from_a_high_code_stay_unmapped() -> None:
    """poppler reads names as numbers only when every run starts at code 5 or below: ``g258``
    from code 18 is a glyph index, and the page has no route to its text. Nor do names that
    number the codes themselves (``g33`` at code 33: glyphs numbered as first used)."""
    from pytest_textlayer.judge.classifier import classify

    fonts = _numeric_font(18, ["/g258", "/g437", "/g300", "/g301"])
    data = page_pdf(b"BT /F1 12 Tf 72 700 Td (\x12\x13\x14\x15\x12\x13) Tj ET", fonts)
    assert classify(data).pages[0].verdict.value == "undecodable"
    fonts = _numeric_font(1, [f"/g{n}" for n in range(1, 60)])
    data = page_pdf(b"BT /F1 12 Tf 72 700 Td (0123456) Tj ET", fonts)
    page = classify(data).pages[0]
    assert (page.verdict.value, page.fonts[0].route) == ("undecodable", "agl"), page.evidence


def test_a_string_that_starts_with_a_space_gets_no_second_one() -> None:
    assert text_of(b"BT /F1 12 Tf 72 700 Td (Hello) Tj 60 0 Td ( world) Tj ET") == "Hello world"


def test_a_move_back_to_the_left_on_the_same_line_is_a_space() -> None:
    # Right-to-left or reordered drawing: the next string starts left of where the last ended.
    assert text_of(b"BT /F1 12 Tf 300 700 Td (second) Tj -200 0 Td (first) Tj ET") == (
        "second first"
    )


# -- line breaks --------------------------------------------------------------------------------


def test_a_move_down_by_a_line_is_a_line_break() -> None:
    text = text_of(b"BT /F1 12 Tf 14 TL 72 700 Td (first line) Tj T* (second line) Tj "
                   b"0 -14 Td (third) ' ET")
    assert text == "first line\nsecond line\nthird"


def test_superscripts_and_small_shifts_stay_on_the_line() -> None:
    # A rise of a quarter em is a superscript, not a new line.
    assert text_of(b"BT /F1 12 Tf 72 700 Td (E = mc) Tj 3 Ts 36 0 Td (2) Tj ET") == "E = mc2"


def test_the_text_matrix_and_the_ctm_place_strings_in_user_space() -> None:
    # Same baseline reached two ways: through Tm, and through a cm around the text object.
    text = text_of(b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (one) Tj ET "
                   b"q 1 0 0 1 128 -100 cm BT /F1 12 Tf 72 800 Td (two) Tj ET Q "
                   b"BT /F1 12 Tf 1 0 0 1 72 600 Tm (three) Tj ET")
    assert text == "one two\nthree"


# -- codes and control characters ---------------------------------------------------------------


def test_control_characters_are_kept() -> None:
    # A shifted map lands on controls; PDFium drops them, the shift test needs them.
    text = text_of(b"BT /F1 12 Tf 72 700 Td (\\003ab\\003cd) Tj ET")
    assert text == "\x03ab\x03cd"


def _with_tounicode(content: bytes, bfchars: bytes, count: int) -> PageContent:
    """`content` shown in Helvetica whose ToUnicode maps the one-byte `bfchars` entries."""
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
            b"1 begincodespacerange <00> <FF> endcodespacerange "
            + str(count).encode() + b" beginbfchar " + bfchars + b" endbfchar "
            b"endcmap CMapName currentdict /CMap defineresource pop end end")
    with pikepdf.open(io.BytesIO(page_pdf(content))) as pdf:
        font = pdf.pages[0].Resources.Font.F1
        font.ToUnicode = pdf.make_stream(cmap)
        return scan_page(pdf, 0, {})


def test_the_declared_map_gives_the_text() -> None:
    page = _with_tounicode(b"BT /F1 12 Tf 72 700 Td (ABC) Tj ET", b"<41> <0042> <42> <FB01>", 2)
    assert page.text == "B\ufb01C"


def test_a_code_mapped_to_a_noncharacter_does_not_lose_the_string() -> None:
    """U+FFFE marks an undefined byte in a charmap table: a code mapped to it must still
    decode (and keep its neighbours) rather than fail the whole string."""
    page = _with_tounicode(b"BT /F1 12 Tf 72 700 Td (Hello) Tj (BAB) Tj (world) Tj ET",
                           b"<41> <FFFE>", 1)
    assert page.text == "HelloB\ufffeBworld" and page.glyphs == 13


def test_a_shifted_fixture_keeps_its_control_characters() -> None:
    fixture = generate("shifted", "HELLO WORLD")
    page = scan(fixture.pdf)
    assert page.text_complete
    # Every letter moved by the same offset: the space lands on a control character.
    assert any(ord(c) < 0x20 and c not in "\n\t" for c in page.text)
    assert "HELLO" not in page.text


# -- the budget ---------------------------------------------------------------------------------


def test_the_budget_bounds_the_text() -> None:
    line = b"(" + b"lorem ipsum dolor sit amet " * 3 + b") Tj T* "
    content = b"BT /F1 6 Tf 7 TL 20 780 Td " + line * 400 + b"ET"
    page = scan(page_pdf(content))
    longest = 3 * len("lorem ipsum dolor sit amet ") + 1
    assert page.glyphs > 2 * TEXT_BUDGET
    assert TEXT_BUDGET <= len(page.text) <= TEXT_BUDGET + longest
    assert page.text.startswith("lorem ipsum")


def test_a_full_sink_ignores_further_strings() -> None:
    data = page_pdf(b"BT /F1 12 Tf 72 700 Td (x) Tj ET")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = scan_page(pdf, 0, {})
        font = page.fonts[0].font
    sink = TextSink(budget=10)
    for n in range(5):
        sink.show(text_font(font), (b"abcdef",), (72.0, 700.0 - 20 * n), 12.0)
    assert sink.text() == "abcdef\nabcdef"
    assert sink.full


# -- fonts only a real reader can decode --------------------------------------------------------


def test_a_cjk_font_without_tables_marks_the_text_incomplete() -> None:
    japanese = {
        "/Type": "/Font", "/Subtype": "/Type0", "/BaseFont": "/HeiseiMin-W3",
        "/Encoding": "/90ms-RKSJ-H",
        "/DescendantFonts": [{
            "/Type": "/Font", "/Subtype": "/CIDFontType0", "/BaseFont": "/HeiseiMin-W3",
            "/CIDSystemInfo": {"/Registry": pikepdf.String("Adobe"),
                               "/Ordering": pikepdf.String("Japan1"), "/Supplement": 2},
            "/FontDescriptor": {"/Type": "/FontDescriptor", "/FontName": "/HeiseiMin-W3",
                                "/Flags": 6, "/FontBBox": [0, -120, 1000, 880],
                                "/ItalicAngle": 0, "/Ascent": 880, "/Descent": -120,
                                "/CapHeight": 700, "/StemV": 80},
        }],
    }
    data = page_pdf(b"BT /F1 12 Tf 72 700 Td <93fa967b> Tj ET "
                    b"BT /F2 12 Tf 72 600 Td (Latin) Tj ET",
                    {"/F1": japanese, "/F2": HELVETICA})
    page = scan(data)
    assert page.glyphs == 2 + 5
    assert not page.text_complete


def test_a_unicode_cmap_cjk_font_is_decoded_without_tables() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    out = io.BytesIO()
    c = canvas.Canvas(out)
    c.setFont("HeiseiMin-W3", 12)
    c.drawString(72, 700, "日本語のテキスト")
    c.save()
    page = scan(out.getvalue())
    assert page.text_complete
    assert page.text == "日本語のテキスト"


def test_a_standard_symbol_font_is_read_by_its_builtin_encoding() -> None:
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out)
    c.setFont("Helvetica", 12)
    c.drawString(72, 700, "angle")
    c.setFont("Symbol", 12)
    c.drawString(110, 700, "\u03b1\u03b2\u03b3")
    c.save()
    page = scan(out.getvalue())
    assert page.text_complete
    assert page.text == "angle \u03b1\u03b2\u03b3"


@pytest.mark.parametrize(
    "family",
    ["readable", "partial", "pua", "severed", "shifted", "scrambled", "collapsed",
     "type3-unnamed", "symbolic-truetype", "differences-unnamed"],
)
def test_generated_fixtures_give_the_text_a_standard_reader_extracts(family: str) -> None:
    """The fixture's truth says what readers extract; the collected text is the same."""
    fixture = generate(family, "The quick brown fox jumps over the lazy dog")
    page = scan(fixture.pdf)
    truth = fixture.pages[0].extracted
    assert truth is not None and page.text_complete
    assert " ".join(page.text.split()) == " ".join(truth.split())


def test_a_fonts_text_record_does_not_keep_the_font_alive() -> None:
    """Long runs over many files must not keep every font (and its PDF objects) in memory."""
    import gc
    import weakref

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
    out = io.BytesIO()
    c = canvas.Canvas(out)
    c.setFont("HeiseiMin-W3", 12)
    c.drawString(72, 700, "日本語")
    c.setFont("Helvetica", 12)
    c.drawString(72, 600, "Latin")
    c.save()
    with pikepdf.open(io.BytesIO(out.getvalue())) as pdf:
        page = scan_page(pdf, 0, {})
    fonts = [weakref.ref(use.font) for use in page.fonts]
    assert len(fonts) == 2 and page.text == "日本語\nLatin"
    del page
    gc.collect()
    assert [ref() for ref in fonts] == [None, None]


def _tj_page(array: bytes) -> str:
    """The text the walk collects from one TJ array shown in Helvetica."""
    import pikepdf

    from pytest_textlayer.pdf.content import scan_page

    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
        Encoding=pikepdf.Name.WinAnsiEncoding))
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td " + array + b" TJ ET")
    return scan_page(pdf, 0, {}).text


def test_word_gaps_in_a_tj_array_of_words_stay_spaces() -> None:
    """pdfTeX writes one string per word with the same gap between them: each is a space."""
    text = _tj_page(b"[(Note:)-333(The)-333(sections)-333(were)-333(moved)-333(here)]")
    assert text == "Note: The sections were moved here"


def test_letter_spacing_of_single_glyphs_is_not_a_word_gap() -> None:
    """cairo spaces every monospace glyph by the same adjustment; only the larger gap splits."""
    text = _tj_page(b"[(W)-308(o)-308(r)-308(d)-308(s)-1200(h)-308(e)-308(r)-308(e)]")
    assert text == "Words here"


def test_widths_read_in_one_step_equal_reading_each_item() -> None:
    """A font's /Widths is read from its text; an indirect array, an indirect item or a
    non-number falls back to qpdf's items (an indirect /Widths once read as "8 0 R")."""
    import pikepdf

    from pytest_textlayer.pdf.fontprogram import pdf_numbers

    pdf = pikepdf.new()
    plain = pikepdf.Array([250, 333.5, 0, -1])
    shared = pdf.make_indirect(pikepdf.Array([278, 556, 500.25]))
    holder = pdf.make_indirect(pikepdf.Dictionary(Widths=shared))
    with_item = pikepdf.Array([500, pdf.make_indirect(600)])
    for array in (plain, holder.Widths, with_item, pikepdf.Array([])):
        assert pdf_numbers(array) == [float(w) for w in array]
    assert holder.Widths.unparse().endswith(b" R")  # what the one-step read must not parse
    assert pdf_numbers(holder.Widths) == [278.0, 556.0, 500.25]


def test_cid_widths_read_in_one_step_equal_reading_each_item() -> None:
    """A CIDFont's /W is read from its text too: numbers and inner arrays as floats, and
    qpdf's own items where the text holds anything else (an indirect item, a name, an
    array nested deeper than /W nests), so both readings give the same widths."""
    import pikepdf

    from pytest_textlayer.pdf.cidfonts import cid_widths
    from pytest_textlayer.pdf.fontprogram import pdf_width_items

    pdf = pikepdf.new()
    shared = pdf.make_indirect(pikepdf.Array([1, pikepdf.Array([500, 600.5]), 5, 10, 300]))
    holder = pdf.make_indirect(pikepdf.Dictionary(W=shared))
    fallbacks = (
        pikepdf.Array([1, pdf.make_indirect(pikepdf.Array([7, 8])), 2]),
        pikepdf.Array([1, pikepdf.Name.a, 2]),
        pikepdf.Array([1, pikepdf.Array([2, pikepdf.Array([3])]), 4]),
    )

    assert pdf_width_items(holder.W) == [1.0, [500.0, 600.5], 5.0, 10.0, 300.0]
    assert pdf_width_items(pikepdf.Array([2.5, pikepdf.Array([])])) == [2.5, []]
    assert pdf_width_items(pikepdf.Array([])) == []
    for array in fallbacks:
        assert pdf_width_items(array) == list(array)  # qpdf's items, as read before
    cidfont = pikepdf.Dictionary(W=holder.W)
    assert cid_widths(cidfont) == {1: 500.0, 2: 600.5, 5: 300.0, 6: 300.0, 7: 300.0, 8: 300.0,
                                   9: 300.0, 10: 300.0}


_TEXTS = ["a", "b", "é", "fi", "", "\ufffe", "\x00", "ſt", "A", "\u2019", "ab", "\ud800"]


@settings(max_examples=300, deadline=None)
@given(unicode=st.dictionaries(st.integers(-3, 300), st.sampled_from(_TEXTS) | st.builds(
           chr, st.integers(0, 255)), max_size=40),
       raw=st.binary(max_size=24))
def test_a_one_byte_font_decodes_as_translate_would(unicode: dict[int, str], raw: bytes) -> None:
    """Whichever decoder a one-byte font is given (latin-1's, a charmap, translate), its text
    is the bytes read as latin-1 and translated by the font's map."""
    from pytest_textlayer.model import FontStatus
    from pytest_textlayer.pdf.fontinfo import FontInfo

    info = FontInfo("X", "Type1", None, "encoding", FontStatus.USABLE, None, unicode=unicode)
    table = {code: text for code, text in unicode.items() if 0 <= code < 256}
    raw += bytes(range(256))  # every code shown once at least
    assert text_font(info).decode(raw) == raw.decode("latin-1").translate(table)
