"""Repair decisions taken for the whole document: a font too small to judge alone.

Real PDFs written by reportlab (DejaVu TrueType subsets with a ToUnicode each), broken
by the real breakers of :mod:`pytest_textlayer.generators.breakers`, repaired, and read
back by poppler.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_repair_pdfs import DEJAVU, DEJAVU_SERIF, needs_poppler, poppler

from pytest_textlayer.generators.breakers import break_pdf
from pytest_textlayer.repairs.repairer import repair

pytestmark = [
    pytest.mark.skipif(not DEJAVU_SERIF.exists(), reason="fonts-dejavu-core is not installed"),
    needs_poppler,
]

BODY = (
    "The committee met on Tuesday to discuss the budget for the coming year.\n"
    "Members agreed that the library should stay open longer in the evening,\n"
    "and that the reading room needs new chairs and better lighting for winter.\n"
    "The treasurer will present a revised plan at the next meeting in March."
)


DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")


def _two_font_page(heading: str, heading_font: Path = DEJAVU) -> bytes:
    """A short heading (DejaVu Sans by default) over a paragraph in DejaVu Serif."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont(heading_font.stem, str(heading_font)))
    pdfmetrics.registerFont(TTFont("DejaVuSerif", str(DEJAVU_SERIF)))
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.setFont(heading_font.stem, 18)
    c.drawString(50, 740, heading)
    c.setFont("DejaVuSerif", 11)
    for i, line in enumerate(BODY.split("\n")):
        c.drawString(50, 700 - 16 * i, line)
    c.showPage()
    c.save()
    return buf.getvalue()


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    "heading", ["Release 2.1", "www.example.com", "Über uns", "Q3 2023", "Notes", "Ärger"]
)
def test_a_heading_too_short_to_judge_takes_the_bodys_offset(tmp_path: Path, heading: str) -> None:
    """Both fonts' ToUnicode shifted by -29: the heading's few letters cannot choose an
    offset (nor condemn their own: 'ZZZ\x11H[DPSOH\x11FRP' even passes), the body's offset
    is taken for it too."""
    original = _two_font_page(heading)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(break_pdf(original, "shift", select="all").pdf)
    assert heading not in poppler(broken)
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    source = tmp_path / "original.pdf"
    source.write_bytes(original)
    assert _words(poppler(fixed)) == _words(poppler(source))


@pytest.mark.parametrize(
    "heading", ["Annual Report 2024", "Appendix B", "Москва 2020", "1.2.3", "R&D", "H2O", "פרק 3"]
)
def test_a_correct_heading_is_not_moved_by_the_bodys_offset(tmp_path: Path, heading: str) -> None:
    """Only the body font shifted: the heading reads fine and must keep its text (moved by
    +29, 'Annual Report' is half symbols, half unmoved letters, and passes as Welsh)."""
    original = _two_font_page(heading)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(break_pdf(original, "shift", select="main").pdf)
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    source = tmp_path / "original.pdf"
    source.write_bytes(original)
    assert _words(poppler(fixed)) == _words(poppler(source))


@pytest.mark.skipif(not DROID.exists(), reason="fonts-droid-fallback is not installed")
@pytest.mark.parametrize("heading", ["運転ランプ（緑色）", "快適自動運転とは", "目次", "参考文献"])
@pytest.mark.parametrize("select", ["all", "main"])
def test_a_cjk_heading_moves_only_from_rare_ideographs_to_common_ones(
    tmp_path: Path, heading: str, select: str
) -> None:
    """The letter-pair model cannot compare a few ideographs: a correct heading may score
    below its own +29 soup. Soup is drawn in rare ideographs: a CJK heading takes the
    body's offset only when that turns rare ideographs into common ones, and never moves
    when only the body was shifted. (目次 and its soup are both common: it stays shifted.)"""
    original = _two_font_page(heading, DROID)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(break_pdf(original, "shift", select=select).pdf)
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    got = _words(poppler(fixed))
    if select == "main" or heading != "目次":
        assert got.startswith(heading + " The committee")


def test_a_non_embedded_non_symbolic_font_reads_through_standard_encoding(tmp_path: Path) -> None:
    """A font the viewer substitutes (not embedded, flagged non-symbolic, no /Encoding) draws
    each code's StandardEncoding glyph: with its ToUnicode mapped into the PUA, those names
    are the text."""
    import pikepdf
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.setFont("Helvetica", 12)
    for i, line in enumerate(BODY.split("\n")):
        c.drawString(50, 700 - 16 * i, line)
    c.showPage()
    c.save()
    pdf = pikepdf.open(io.BytesIO(buf.getvalue()))
    font = next(iter(pdf.pages[0].Resources.Font.values()))
    font.BaseFont = pikepdf.Name("/Verdana")
    del font["/Encoding"]
    font.FontDescriptor = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Verdana"), Flags=32,
        FontBBox=[0, -200, 1000, 900], ItalicAngle=0, Ascent=900, Descent=-200,
        CapHeight=700, StemV=80,
    ))
    entries = "\n".join(f"<{c:02X}> <{0xE000 + c:04X}>" for c in range(32, 127))
    font.ToUnicode = pdf.make_stream((
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"95 beginbfchar\n{entries}\nendbfchar\nendcmap CMapName currentdict /CMap defineresource"
        " pop end end\n"
    ).encode())
    broken = tmp_path / "broken.pdf"
    pdf.save(broken)
    fixed = tmp_path / "fixed.pdf"
    report = repair(broken, fixed, ocr="never")
    assert _words(poppler(fixed)) == _words(BODY)
    assert report.fonts[0].source == "encoding"


def test_a_short_heading_read_by_glyph_order_takes_the_documents_offset(tmp_path: Path) -> None:
    """PyMuPDF's Story writes a 30-letter Turkish heading in its own DejaVu Serif Bold subset.
    Shifted, the heading alone picks the Mac-standard glyph order, which cannot give Ü or ı;
    the document's offset (+29, from the body fonts) agrees with that reading on every letter
    it gives, so the offset wins and the heading reads whole."""
    pymupdf = pytest.importorskip("pymupdf")
    liberation = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")
    if not liberation.exists():
        pytest.skip("fonts-liberation is needed")
    body = ("Komite yıllık raporu inceledi ve gelecek yılın bütçesinin yeni bir inşaata başlamadan "
            "önce mevcut binaların bakımına öncelik vermesi gerektiği konusunda anlaştı. ")
    heading = "Üyeler ayrıca saymanın hesapları açıklamasını istedi"
    archive = pymupdf.Archive(str(DEJAVU.parent))
    archive.add(pymupdf.Archive(str(liberation.parent)), "")
    css = ("@font-face {font-family: DV; src: url(DejaVuSans.ttf)} "
           "@font-face {font-family: DVS; src: url(DejaVuSerif-Bold.ttf)} "
           "@font-face {font-family: LS; src: url(LiberationSans-Regular.ttf)} "
           "body {font-family: DV} h1 {font-family: DVS}")
    doc = pymupdf.open()
    for html in (f"<h1>{body[:30]}</h1><p>{body * 6}</p>", f"<p>{body * 4}</p>",
                 f"<h2 style='font-family:DVS'>{heading[:30]}</h2>"
                 f"<p style='font-family:LS'>{heading}. {body}</p>"):
        doc.new_page().insert_htmlbox(pymupdf.Rect(56, 56, 540, 780), html, css=css,
                                      archive=archive)
    doc.subset_fonts()
    variant = break_pdf(bytes(doc.tobytes(garbage=3, deflate=True)), "shift")
    broken, out = tmp_path / "broken.pdf", tmp_path / "fixed.pdf"
    broken.write_bytes(variant.pdf)
    repair(broken, out, ocr="never")
    third = poppler(out).split("\f")[2]
    assert heading[:30] in variant.truth[2]
    assert " ".join(third.split()) == " ".join(variant.truth[2].split())
