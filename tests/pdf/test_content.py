"""The content walk on real PDFs: forms, annotations, images, invisible text, ActualText, Type3.

Fixtures are drawn with reportlab and edited with pikepdf; every count is
checked against what was drawn. The labelled real corpus, when present, is
checked for broad agreement between the static facts and the labels.
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from _paths import REAL_CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf.content import scan_page
from pytest_textlayer.pdf.fontinfo import FontInfo
from pytest_textlayer.pdf.pagecontent import PageContent

CORPUS = REAL_CORPUS


def _save(c: Any) -> bytes:
    c.save()
    return bytes(c._filename.getvalue())


def canvas() -> Any:
    from reportlab.pdfgen import canvas as rl

    return rl.Canvas(io.BytesIO(), pagesize=(612, 792))


def scan(data: bytes, index: int = 0) -> PageContent:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return scan_page(pdf, index, {})


def test_blank_page_draws_nothing() -> None:
    c = canvas()
    c.showPage()
    page = scan(_save(c))
    assert (page.glyphs, page.images, page.image_coverage) == (0, 0, 0.0)


def test_glyphs_in_form_xobjects_count_each_time_the_form_is_drawn() -> None:
    c = canvas()
    c.beginForm("header")
    c.setFont("Helvetica", 10)
    c.drawString(10, 10, "Header")
    c.endForm()
    c.doForm("header")
    c.translate(0, 300)
    c.doForm("header")
    c.setFont("Helvetica", 12)
    c.drawString(72, 72, "Body")
    page = scan(_save(c))
    assert page.glyphs == 2 * len("Header") + len("Body")
    assert page.bad_glyphs == 0


def _with_annotation(flags: int) -> bytes:
    c = canvas()
    c.showPage()
    pdf = pikepdf.open(io.BytesIO(_save(c)))
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name.Helvetica,
            Encoding=pikepdf.Name.WinAnsiEncoding,
        )
    )
    appearance = pdf.make_stream(
        b"BT /Helv 12 Tf 2 4 Td (This page is intentionally left blank) Tj ET",
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Form,
        BBox=[0, 0, 300, 20],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(Helv=font)),
    )
    annot = pikepdf.Dictionary(
        Type=pikepdf.Name.Annot,
        Subtype=pikepdf.Name.FreeText,
        Rect=[100, 400, 400, 420],
        F=flags,
        AP=pikepdf.Dictionary(N=appearance),
        DA="/Helv 12 Tf 0 g",
    )
    pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(annot)]))
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_freetext_annotation_can_be_the_only_text() -> None:
    page = scan(_with_annotation(flags=4))
    n = len("This page is intentionally left blank")
    assert page.glyphs == page.annotation_glyphs == n
    assert scan(_with_annotation(flags=2)).glyphs == 0  # hidden


def _image(width: int, height: int) -> Any:
    from PIL import Image

    return Image.new("L", (width, height), 200)


def test_full_page_scan_covers_the_page_and_small_icons_do_not_count() -> None:
    from reportlab.lib.utils import ImageReader

    c = canvas()
    c.drawImage(ImageReader(_image(1275, 1650)), 0, 0, 612, 792)
    c.showPage()
    c.drawImage(ImageReader(_image(8, 8)), 10, 10, 8, 8)
    c.drawImage(ImageReader(_image(400, 300)), 0, 0, 306, 396)
    c.drawInlineImage(_image(200, 100), 400, 600, 100, 50)
    data = _save(c)
    first, second = scan(data, 0), scan(data, 1)
    assert (first.images, first.glyphs) == (1, 0)
    assert first.image_coverage == pytest.approx(1.0)
    assert second.images == 2 and second.small_images == 1
    expected = (306 * 396 + 100 * 50) / (612 * 792)
    assert second.image_coverage == pytest.approx(expected, abs=0.03)


def test_image_off_the_cropbox_is_clipped() -> None:
    from reportlab.lib.utils import ImageReader

    c = canvas()
    c.drawImage(ImageReader(_image(600, 800)), 0, 0, 306, 792)
    pdf = pikepdf.open(io.BytesIO(_save(c)))
    pdf.pages[0].CropBox = [306, 0, 612, 792]  # the image lies on the cropped-away half
    out = io.BytesIO()
    pdf.save(out)
    page = scan(out.getvalue())
    assert page.images == 1 and page.image_coverage == 0.0


def test_invisible_ocr_text_is_counted_apart() -> None:
    c = canvas()
    c.saveState()  # Tr is graphics state: it outlives ET
    text = c.beginText(72, 700)
    text.setFont("Helvetica", 12)
    text.setTextRenderMode(3)
    text.textLine("hidden words")
    c.drawText(text)
    c.restoreState()
    c.setFont("Helvetica", 12)
    c.drawString(72, 600, "seen")
    page = scan(_save(c))
    assert (page.glyphs, page.invisible_glyphs) == (16, 12)


def _broken_font_page(content: bytes) -> bytes:
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type1,
        BaseFont=pikepdf.Name.Helvetica,
        Encoding=pikepdf.Dictionary(Differences=[65, pikepdf.Name("/g1"), pikepdf.Name("/g2")]),
    )
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_actual_text_makes_covered_glyphs_good() -> None:
    plain = scan(_broken_font_page(b"BT /F1 12 Tf 72 700 Td (ABAB) Tj ET"))
    covered = scan(
        _broken_font_page(
            b"/Span <</ActualText (fifi)>> BDC BT /F1 12 Tf 72 700 Td (ABAB) Tj ET EMC "
            b"BT /F1 12 Tf 72 600 Td (A) Tj ET"
        )
    )
    assert (plain.glyphs, plain.bad_glyphs) == (4, 4)
    assert (covered.glyphs, covered.bad_glyphs, covered.actual_text_glyphs) == (5, 1, 4)


def test_actual_text_is_what_the_page_reads_as_in_every_reader() -> None:
    """Chromium draws one glyph shared by U+2044 and U+2215 under an ActualText span giving
    the second: the span's text stands for its glyphs, once, as PDFium prints it."""
    from pytest_textlayer.pdf.readers import pdfium_page_text

    data = _broken_font_page(
        b"BT /F1 12 Tf 72 700 Td (CD) Tj ET "
        b"/Span <</ActualText <FEFF2215>>> BDC BT /F1 12 Tf 90 700 Td (C) Tj (D) Tj ET EMC "
        b"BT /F1 12 Tf 110 700 Td (DC) Tj ET"
    )
    page = scan(data)
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(data)
    try:
        theirs = pdfium_page_text(doc, 0)
    finally:
        doc.close()
    assert "".join(page.text.split()) == "CD\u2215DC" == "".join(theirs.split())


def test_malformed_content_is_skipped_not_raised() -> None:
    page = scan(
        _broken_font_page(b"BT /F1 12 Tf 72 700 Td (A) Tj /F9 3 Tf (B) Tj 1 2 Tz q Q Q ET ] >>")
    )
    assert page.glyphs >= 1
    assert any("F9" in e for e in page.errors)


def test_a_form_that_draws_itself_is_not_followed_forever() -> None:
    pdf = pikepdf.new()
    form = pdf.make_stream(
        b"/Fm0 Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 10, 10]
    )
    form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=form))
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fm0=form))
    page.Contents = pdf.make_stream(b"/Fm0 Do")
    result = scan_page(pdf, 0, {})
    assert result.glyphs == 0 and any("draws itself" in e for e in result.errors)


def test_missing_page_is_a_one_line_value_error() -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    with pytest.raises(ValueError, match="page 5"):
        scan_page(pdf, 4, {})


def test_type3_glyph_procedures_draw_images_not_text() -> None:
    pdf = pikepdf.new()
    proc = pdf.make_stream(
        b"1000 0 0 0 1000 1000 d1 q 1000 0 0 1000 0 0 cm BI /W 100 /H 100 /CS /G /BPC 8 ID "
        + bytes(10000)
        + b" EI Q BT /F1 1 Tf (x) Tj ET"
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type3,
        FontBBox=[0, 0, 1000, 1000],
        FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
        CharProcs=pikepdf.Dictionary(A=proc),
        Encoding=pikepdf.Dictionary(Differences=[65, pikepdf.Name("/A")]),
        FirstChar=65,
        LastChar=65,
        Widths=[1000],
    )
    page = pdf.add_blank_page(page_size=(612, 792))
    font_ref = pdf.make_indirect(font)
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(T3=font_ref, F1=font_ref))
    page.Contents = pdf.make_stream(b"BT /T3 100 Tf 10 10 Td (AA) Tj ET")
    result = scan_page(pdf, 0, {})
    assert result.glyphs == 2  # the two Type3 glyphs, not the text inside the procedure
    assert result.images == 1  # the procedure is walked once per code, its image is 100 pt wide


# -- the labelled real corpus ------------------------------------------------------------------
def _labels(spec: str, pages: int) -> dict[int, str]:
    out: dict[int, str] = {}
    for part in spec.split(";"):
        if ":" in part:
            span, label = part.split(":")
            lo, _, hi = span.partition("-")
            out.update({p: label for p in range(int(lo), int(hi or lo) + 1)})
        else:
            out.update({p: part for p in range(1, pages + 1)})
    return out


@pytest.mark.skipif(not (CORPUS / "MANIFEST.tsv").exists(), reason="real corpus is absent")
def test_static_facts_agree_with_the_labelled_corpus() -> None:
    """Undecodable pages have >10 % bad glyphs; readable ones do not; absent and blank pages
    draw no glyphs, and only absent ones carry a page-sized image. (Shifted and garbled pages
    need the language rungs and are not judged here.)"""
    disagreements = []
    with open(CORPUS / "MANIFEST.tsv", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    for row in rows:
        with pikepdf.open(CORPUS / row["file"]) as pdf:
            cache: dict[object, FontInfo] = {}
            labels = _labels(row["label"], len(pdf.pages))
            for index in range(len(pdf.pages)):
                page = scan_page(pdf, index, cache)
                label = labels.get(index + 1)
                ok = {
                    "undecodable": page.glyphs > 0 and page.bad_share > 0.10,
                    "readable": page.glyphs > 0 and page.bad_share <= 0.10,
                    "absent": page.glyphs == 0 and page.image_coverage > 0.5,
                    "blank": page.glyphs == 0 and page.images == 0,
                }.get(label or "", True)
                if not ok:
                    disagreements.append(
                        f"{row['file']} p{index + 1} {label}: {page.bad_share:.0%}"
                    )
    assert disagreements == []


_OPS = st.sampled_from(
    [
        b"BT",
        b"ET",
        b"q",
        b"Q",
        b"/F1 12 Tf",
        b"/F9 1 Tf",
        b"(AB) Tj",
        b"[(A) 5 (B)] TJ",
        b"3 Tr",
        b"1 0 0 1 5 5 cm",
        b"cm",
        b"/Im Do",
        b"/Nope Do",
        b"/Span <</ActualText (x)>> BDC",
        b"EMC",
        b"Tj",
        b"(",
        b"]",
        b"<4",
        b"1 2 Td",
        b"T*",
        b"'",
        b"BI /W 2 /H 2 ID xxxx EI",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_OPS, max_size=30).map(b" ".join))
def test_scan_page_survives_any_content(content: bytes) -> None:
    data = _broken_font_page(content)
    try:
        page = scan(data)
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    assert 0 <= page.bad_glyphs <= page.glyphs
    assert 0.0 <= page.image_coverage <= 1.0


def test_one_unreadable_content_part_does_not_hide_the_others() -> None:
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
    )
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    good = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET")
    bad = pdf.make_stream(b"this is not deflated data")
    bad.Filter = pikepdf.Name.FlateDecode
    page.Contents = pikepdf.Array([good, bad])
    result = scan_page(pdf, 0, {})
    assert result.glyphs == 5 and len(result.errors) == 1
    page.Contents = bad
    with pytest.raises(ValueError, match="^page 1: content stream is malformed") as caught:
        scan_page(pdf, 0, {})
    assert "\n" not in str(caught.value)


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
def test_tesseract_ocr_pdf_is_an_image_with_invisible_usable_text(tmp_path: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (1700, 400), 255)
    draw = ImageDraw.Draw(image)
    face = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 60)
    draw.text((50, 50), "The quick brown fox jumps", font=face, fill=0)
    draw.text((50, 200), "over the lazy dog", font=face, fill=0)
    image.save(tmp_path / "scan.png", dpi=(300, 300))
    subprocess.run(
        ["tesseract", str(tmp_path / "scan.png"), str(tmp_path / "ocr"), "-l", "eng", "pdf"],
        check=True,
        capture_output=True,
    )
    with pikepdf.open(tmp_path / "ocr.pdf") as pdf:
        page = scan_page(pdf, 0, {})
    assert page.images == 1 and page.image_coverage == pytest.approx(1.0)
    assert page.glyphs >= 30 and page.invisible_glyphs == page.glyphs
    assert page.bad_glyphs == 0 and page.fonts[0].font.route == "tounicode"


def test_text_outside_the_cropbox_is_counted_and_flagged() -> None:
    c = canvas()
    c.setFont("Helvetica", 12)
    c.drawString(72, 700, "left half")
    c.drawString(400, 700, "right")
    pdf = pikepdf.open(io.BytesIO(_save(c)))
    pdf.pages[0].CropBox = [306, 0, 612, 792]
    out = io.BytesIO()
    pdf.save(out)
    page = scan(out.getvalue())
    assert (page.glyphs, page.offpage_glyphs) == (14, 9)


def test_content_in_a_layer_that_is_off_is_not_shown() -> None:
    from reportlab.lib.utils import ImageReader

    c = canvas()
    c.drawImage(ImageReader(_image(600, 800)), 0, 0, 612, 792)
    pdf = pikepdf.open(io.BytesIO(_save(c)))
    page = pdf.pages[0]
    hidden = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name="Draft"))
    shown = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name="Final"))
    pdf.Root.OCProperties = pikepdf.Dictionary(
        OCGs=[hidden, shown], D=pikepdf.Dictionary(ON=[shown], OFF=[hidden])
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
    )
    page.Resources.Font = pikepdf.Dictionary(F1=font)
    page.Resources.Properties = pikepdf.Dictionary(Off=hidden, On=shown)
    for name in list(page.Resources.XObject):
        page.Resources.XObject[name].OC = hidden  # the scan sits in the hidden layer
    page.Contents = pdf.make_stream(
        page.Contents.read_bytes()
        + b" /OC /Off BDC BT /F1 12 Tf 72 700 Td (draft) Tj ET EMC"
        + b" /OC /On BDC BT /F1 12 Tf 72 600 Td (final) Tj ET EMC"
    )
    out = io.BytesIO()
    pdf.save(out)
    result = scan(out.getvalue())
    assert (result.glyphs, result.invisible_glyphs) == (10, 5)
    assert (result.images, result.image_coverage) == (0, 0.0)
