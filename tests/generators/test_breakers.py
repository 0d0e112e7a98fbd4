"""Breakers, proven with real readers: each one changes what poppler and PDFium extract, as it says.

The sources are sound PDFs the generators build with two producers (a Type0
Identity-H font with a ToUnicode, and reportlab's simple TrueType subset),
plus a two-font page built here with reportlab; the broken copies are read
by pdftotext and PDFium, and their font programs by fontTools.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from _ligatures import named_ligature_page

from pytest_textlayer.errors import InputError, UsageError
from pytest_textlayer.generators import generate
from pytest_textlayer.generators.breakers import (
    BREAKERS,
    break_file,
    break_pdf,
    pdfium_pages,
    poppler_pages,
)
from pytest_textlayer.model import Verdict

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")

_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


def ink(text: str) -> str:
    """The characters that show: no whitespace, no control characters (readers differ there)."""
    return _INVISIBLE.sub("", text)


@pytest.fixture(scope="session")
def sources() -> dict[str, bytes]:
    return {
        "type0": generate("readable", producer="type0").pdf,
        "ttf": generate("readable", producer="ttf").pdf,
        "type0-ru": generate("readable", producer="type0", lang="ru").pdf,
    }


def _heading_over_body(heading: str, body: str, lines: int) -> bytes:
    """A Helvetica-Bold heading over `lines` lines of `body` in embedded DejaVu Sans."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not font.exists():
        pytest.skip("needs fonts-dejavu-core")
    pdfmetrics.registerFont(TTFont("BreakerBody", str(font)))
    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, 780, heading)
    c.setFont("BreakerBody", 10)
    for i in range(lines):
        c.drawString(72, 740 - 16 * i, body)
    c.showPage()
    c.save()
    return out.getvalue()


@pytest.fixture(scope="session")
def two_fonts() -> bytes:
    """A heading in Helvetica-Bold (8 glyphs) over a body in embedded DejaVu Sans (~600 glyphs)."""
    return _heading_over_body(
        "Overview", "The committee reviews the annual report and the auditors notes on revenue.", 8)


@pytest.fixture(scope="session")
def broken(sources: dict[str, bytes]) -> dict[tuple[str, str], object]:
    return {(s, b): break_pdf(data, b) for s, data in sources.items() for b in BREAKERS}


def _variant(broken: dict[tuple[str, str], object], source: str, breaker: str):  # type: ignore[no-untyped-def]
    return broken[(source, breaker)]


@pytest.mark.parametrize("source", ["type0", "ttf", "type0-ru"])
def test_shift_moves_every_character_by_the_offset(broken, source):  # type: ignore[no-untyped-def]
    v = _variant(broken, source, "shift")
    truth = ink(v.truth[0])
    for text in (poppler_pages(v.pdf)[0], pdfium_pages(v.pdf)[0]):
        got = ink(text)
        assert got != truth
        # Punctuation and spaces land on control characters, which readers treat differently.
        assert got == ink("".join(chr(ord(ch) - 29) for ch in truth))
    assert [p.expected for p in v.pages] == [Verdict.SHIFTED]


@pytest.mark.parametrize("source", ["type0", "ttf", "type0-ru"])
def test_scramble_is_a_consistent_letter_permutation(broken, source):  # type: ignore[no-untyped-def]
    v = _variant(broken, source, "scramble")
    truth = ink(v.truth[0])
    got = ink(poppler_pages(v.pdf)[0])
    assert len(got) == len(truth)
    pairs = set(zip(truth, got, strict=True))
    forward = dict(pairs)
    assert len(forward) == len(pairs)  # one reading per true character
    assert len(set(forward.values())) == len(forward)  # and one true character per reading
    letters = [(a, b) for a, b in zip(truth, got, strict=True) if a.isalpha()]
    assert all(b.isalpha() and unicodedata.category(a) == unicodedata.category(b)
               for a, b in letters)
    assert sum(a != b for a, b in letters) == len(letters)  # a derangement: no letter stays
    assert all(a == b for a, b in zip(truth, got, strict=True) if not a.isalpha())
    assert v.pages[0].expected is Verdict.GARBLED


@pytest.mark.parametrize("source", ["type0", "ttf"])
def test_pua_and_collapse(broken, source):  # type: ignore[no-untyped-def]
    pua = _variant(broken, source, "pua")
    for text in (poppler_pages(pua.pdf)[0], pdfium_pages(pua.pdf)[0]):
        shown = ink(text)
        assert shown and all(0xE000 <= ord(ch) <= 0xF8FF for ch in shown)
    collapse = _variant(broken, source, "collapse")
    for text in (poppler_pages(collapse.pdf)[0], pdfium_pages(collapse.pdf)[0]):
        shown = ink(text)
        assert len(shown) >= len(ink(collapse.truth[0])) - 1
        assert set(shown) == {"\ufffd"}
    assert pua.pages[0].expected is Verdict.GARBLED
    assert collapse.pages[0].expected is Verdict.UNDECODABLE


def test_sever_drops_tounicode_cmap_and_post_and_keeps_the_drawing(broken, sources):  # type: ignore[no-untyped-def]
    import pikepdf
    import pypdfium2
    from fontTools.ttLib import TTFont

    v = _variant(broken, "type0", "sever")
    assert v.applies and v.pages[0].expected is Verdict.UNDECODABLE
    letters = {ch for ch in ink(v.truth[0]) if ch.isalpha()}
    for text in (poppler_pages(v.pdf)[0], pdfium_pages(v.pdf)[0]):
        assert not letters & set(text)  # not one letter of the text survives
    with pikepdf.open(io.BytesIO(v.pdf)) as pdf, pikepdf.open(io.BytesIO(sources["type0"])) as src:
        font = next(iter(pdf.pages[0].Resources.Font.values()))
        assert "/ToUnicode" not in font
        program = font.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()
        tt = TTFont(io.BytesIO(program))
        assert "cmap" not in tt and "post" not in tt
        before = next(iter(src.pages[0].Resources.Font.values()))
        old = TTFont(io.BytesIO(before.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()))
        assert set(tt.keys()) == set(old.keys()) - {"cmap", "post"}
        assert tt["maxp"].numGlyphs == old["maxp"].numGlyphs

    def pixels(data: bytes) -> bytes:
        doc = pypdfium2.PdfDocument(data)
        try:
            return bytes(doc[0].render(scale=1).buffer)
        finally:
            doc.close()

    assert pixels(v.pdf) == pixels(sources["type0"])  # readers lose the text, not the picture


def test_tounicode_name_is_a_name_and_readers_lose_the_text(broken):  # type: ignore[no-untyped-def]
    import pikepdf

    v = _variant(broken, "type0", "tounicode-name")
    with pikepdf.open(io.BytesIO(v.pdf)) as pdf:
        font = next(iter(pdf.pages[0].Resources.Font.values()))
        assert font.ToUnicode == pikepdf.Name("/Identity-H")
    assert ink(poppler_pages(v.pdf)[0]) != ink(v.truth[0])
    assert v.pages[0].expected is Verdict.UNDECODABLE


def test_identity_breakers_do_not_apply_to_simple_fonts(broken):  # type: ignore[no-untyped-def]
    for name in ("sever", "tounicode-name"):
        v = _variant(broken, "ttf", name)
        assert not v.applies
        assert [p.expected for p in v.pages] == [Verdict.READABLE]
        assert ink(poppler_pages(v.pdf)[0]) == ink(v.truth[0])


def test_truth_is_the_original_text(broken, sources):  # type: ignore[no-untyped-def]
    fx = generate("readable", producer="type0")
    v = _variant(broken, "type0", "pua")
    assert ink(v.truth[0]) == ink(fx.pages[0].text)
    assert ink(v.truth_pdfium[0]) == ink(fx.pages[0].text)


def test_minor_font_stays_under_the_ten_percent_rule(two_fonts):  # type: ignore[no-untyped-def]
    minor = break_pdf(two_fonts, "shift", select="minor")
    assert [f.name for f in minor.fonts] == ["Helvetica-Bold"]
    page = minor.pages[0]
    assert page.broken == 8 and page.share < 0.10 and page.expected is Verdict.READABLE
    text = poppler_pages(minor.pdf)[0]
    assert "Overview" not in text and "The committee reviews" in text
    assert "2YHUYLHZ" in text  # the heading, 29 below

    main = break_pdf(two_fonts, "shift", select="main")
    assert [f.name for f in main.fonts] != ["Helvetica-Bold"]
    assert main.pages[0].expected is Verdict.SHIFTED
    text = poppler_pages(main.pdf)[0]
    assert "Overview" in text and "committee" not in text


def test_deterministic_valid_and_input_untouched(sources, tmp_path):  # type: ignore[no-untyped-def]
    data = sources["type0"]
    copy = bytes(data)
    a = break_pdf(data, "scramble", seed=7)
    b = break_pdf(data, "scramble", seed=7)
    c = break_pdf(data, "scramble", seed=8)
    assert a.pdf == b.pdf and a.pdf != c.pdf
    assert data == copy
    src = tmp_path / "in.pdf"
    src.write_bytes(data)
    out = tmp_path / "out.pdf"
    break_file(src, out, "sever")
    assert src.read_bytes() == copy
    if shutil.which("qpdf"):
        for name in BREAKERS:
            out.write_bytes(break_pdf(data, name, truth=(), truth_pdfium=()).pdf)
            done = subprocess.run(["qpdf", "--check", str(out)], capture_output=True, text=True)
            assert done.returncode == 0, (name, done.stdout, done.stderr)
    with pytest.raises(UsageError, match="overwrite the input"):
        break_file(src, src, "shift")
    assert src.read_bytes() == copy


def test_bad_arguments_are_one_line_errors(sources):  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match="unknown breaker 'melt'"):
        break_pdf(sources["type0"], "melt")
    with pytest.raises(UsageError, match="select must be one of"):
        break_pdf(sources["type0"], "shift", select="some")
    with pytest.raises(UsageError, match="offset must be a non-zero"):
        break_pdf(sources["type0"], "shift", offset=0)
    with pytest.raises(InputError, match="junk.pdf: not a readable PDF"):
        break_pdf(b"%PDF-1.4 nothing here", "shift", name="junk.pdf")


@pytest.mark.parametrize("how", ["fonttools", "raw"])
def test_dropping_cmap_and_post_keeps_every_other_table(how):  # type: ignore[no-untyped-def]
    from fontTools.ttLib import TTFont

    from pytest_textlayer.generators.fontprograms import _drop_tables_raw, drop_cmap_and_post

    path = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not path.exists():
        pytest.skip("needs fonts-dejavu-core")
    data = path.read_bytes()
    new = drop_cmap_and_post(data) if how == "fonttools" else _drop_tables_raw(
        data, {b"cmap", b"post"})
    old, tt = TTFont(io.BytesIO(data)), TTFont(io.BytesIO(new))
    assert {"cmap", "post"} <= set(old.keys())
    assert set(tt.keys()) == set(old.keys()) - {"cmap", "post"}
    assert tt.reader["glyf"] == old.reader["glyf"]
    assert drop_cmap_and_post(data) == drop_cmap_and_post(data)  # deterministic


@pytest.mark.parametrize("source", ["type0", "ttf", "type0-ru"])
def test_classifier_calls_every_broken_copy_not_ok(broken, source):  # type: ignore[no-untyped-def]
    from pytest_textlayer import classify

    for name in BREAKERS:
        v = _variant(broken, source, name)
        if not v.applies:
            continue
        page = classify(v.pdf, name=f"{source}.{name}.pdf").pages[0]
        assert not page.ok, (source, name, page.evidence)


@pytest.fixture(scope="session")
def heading_over_body() -> bytes:
    """A 22-glyph Helvetica-Bold heading over four lines of embedded DejaVu Sans (~240 glyphs)."""
    return _heading_over_body(
        "Cython Reference Guide", "Stefan Behnel, Robert Bradshaw, William Stein, Gary Furnish", 4)


def test_pua_heading_under_ten_percent_is_readable(heading_over_body):  # type: ignore[no-untyped-def]
    from pytest_textlayer import classify

    v = break_pdf(heading_over_body, "pua", select="minor", truth=(), truth_pdfium=())
    assert 0 < v.pages[0].share < 0.10 and v.pages[0].expected is Verdict.READABLE
    page = classify(v.pdf).pages[0]
    assert page.ok, (page.verdict, page.evidence)


# Six scrambled words are too few for the language model to condemn alone; the heading
# font's glyph names (WinAnsi) contradict its ToUnicode, and that decides.
@pytest.mark.parametrize("breaker", ["shift", "scramble"])
def test_broken_heading_over_ten_percent_is_caught(breaker):  # type: ignore[no-untyped-def]
    from reportlab.pdfgen import canvas

    from pytest_textlayer import classify

    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, 780, "Perfect hash functions in general applications")
    c.setFont("Times-Roman", 10)
    c.drawString(72, 740, "Stefan Behnel, Robert Bradshaw, William Stein, Gary Furnish")
    c.showPage()
    c.save()
    v = break_pdf(out.getvalue(), breaker, select="minor", truth=(), truth_pdfium=())
    assert [f.name for f in v.fonts] == ["Helvetica-Bold"]
    assert v.pages[0].share > 0.3 and v.pages[0].expected is not Verdict.READABLE
    page = classify(v.pdf).pages[0]
    assert not page.ok, (page.verdict, page.evidence)


def test_short_shifted_heading_without_glyph_names_is_shifted() -> None:
    """A two-line heading in a reportlab TrueType subset (no glyph names, no Unicode cmap to
    check against) shifted by -29: too few letters for the language judge, but its map also
    gives control characters (capitals and spaces fall below U+0020), so the shift decides."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    from pytest_textlayer import classify

    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not font.exists():
        pytest.skip("needs fonts-dejavu-core")
    pdfmetrics.registerFont(TTFont("BreakerHeading", str(font)))
    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    c.setFont("BreakerHeading", 18)
    c.drawString(72, 780, "Test Table Slide")
    c.drawString(72, 756, "With footnote")
    c.setFont("Helvetica", 10)
    for i, row in enumerate(("Class1 Class2", "A merged with B", "R1 True False False True")):
        c.drawString(72, 720 - 16 * i, row)
    c.showPage()
    c.save()
    v = break_pdf(out.getvalue(), "shift", select="minor", truth=(), truth_pdfium=())
    assert [f.name for f in v.fonts][0].endswith("DejaVuSans")
    assert v.pages[0].expected is Verdict.SHIFTED
    page = classify(v.pdf).pages[0]
    assert page.verdict is Verdict.SHIFTED, (page.verdict, page.evidence)
    assert page.offset == 29


def test_glyphs_under_actual_text_are_not_counted_broken() -> None:
    """Readers take the text of an /ActualText span from the span (Chromium tags its shaped
    and fallback runs so): breaking the map of the font drawn there changes nothing read."""
    import pikepdf
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    c.setFont("Helvetica-Bold", 16)
    c.drawString(72, 780, "Annual report")
    c.setFont("Times-Roman", 10)
    c.drawString(72, 740, "The committee reviewed the annual report.")
    c.showPage()
    c.save()
    with pikepdf.open(io.BytesIO(out.getvalue())) as pdf:
        page = pdf.pages[0]
        body = b"".join(s.read_bytes() for s in (
            [page.Contents] if isinstance(page.Contents, pikepdf.Stream) else page.Contents))
        heading, rest = body.split(b"Annual report", 1)
        start = heading.rindex(b"BT")
        body = (heading[:start] + b"/Span <</ActualText (Annual report)>> BDC "
                + heading[start:] + b"Annual report" + rest.replace(b"ET", b"ET EMC", 1))
        page.Contents = pdf.make_stream(body)
        tagged = io.BytesIO()
        pdf.save(tagged)
    v = break_pdf(tagged.getvalue(), "pua", select="main", truth=(), truth_pdfium=())
    assert [f.name for f in v.fonts] == ["Times-Roman"]
    v = break_pdf(tagged.getvalue(), "pua", select="minor", truth=(), truth_pdfium=())
    assert [f.name for f in v.fonts] == ["Helvetica-Bold"]
    assert v.pages[0].broken == 0 and v.pages[0].expected is Verdict.READABLE
    assert "Annual report" in " ".join(pdfium_pages(v.pdf)[0].split())


def test_a_ligature_glyph_name_breaks_as_the_letters_readers_show() -> None:
    """poppler (the truth) and PDFium show a glyph named fi/fl/ffi as its letters, where the AGL
    says U+FB01-U+FB03; the broken map must stand for that text, so a shifted map keeps two
    characters for "fi" (a repair can then tell), and ``uniFB01`` stays one character."""
    import pikepdf

    data = named_ligature_page(["The \x01nal \x02ow of the o\x03ce, \x04rst."])
    truth = poppler_pages(data)[0]
    assert "The final flow of the office, \ufb01rst." in truth
    assert "The final flow of the office" in pdfium_pages(data)[0]
    variant = break_pdf(data, "shift")
    with pikepdf.open(io.BytesIO(variant.pdf)) as pdf:
        font = pdf.pages[0].Resources.Font.F1
        cmap = font.ToUnicode.read_bytes().decode("ascii")
    moved = {code: "".join(chr(ord(ch) - 29) for ch in text)
             for code, text in {1: "fi", 2: "fl", 3: "ffi", 4: "\ufb01"}.items()}
    for code, text in moved.items():
        dest = text.encode("utf-16-be").hex().upper()
        assert f"<{code:02X}> <{dest}>" in cmap
