"""Our own decoding of a page agrees with the real readers.

The classifier judges the text its own content walk decodes (`scan_page`).
Where that text differs from what PDFium or poppler extract, ours is the
suspect: a page must never be condemned for text no real reader produces.
So on every page where PDFium reports no map error, our text must hold the
same characters as PDFium's, up to whitespace, reading order and what no
reader shows (`readers.same_text`), or as poppler's where PDFium leaves text
out (annotation and form-field appearances). Pages are made here by real
producers (reportlab, fpdf2, headless Chromium) and, when the labelled corpus
sits beside the checkout, taken from real third-party PDFs; every disagreement
is printed with where the two texts part.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from _paths import REAL_CORPUS
from _producers import CHROMIUM, DEJAVU, SENTENCES, print_with_chromium

from pytest_textlayer.pdf.content import scan_page
from pytest_textlayer.pdf.pagetext import TEXT_BUDGET
from pytest_textlayer.pdf.readers import (
    pdfium_char_counts,
    poppler_text,
    same_text,
    text_difference,
)

#: Text that is not prose beside the sentences: notation, numbers, words split over strings.
EXTRA = [
    "r=0.786, p<0.0001; I=false, K=true; x_i in [0, 1]",
    "Total due: 1,234.56 EUR (VAT 20 %) - invoice #2024-0042",
    "co-operation, well-known, state-of-the-art; e-mail: info@example.org",
]


def disagreements(path: Path) -> tuple[int, list[str]]:
    """(pages compared, the pages whose text no reader shares with ours, with the difference)."""
    compared, found = 0, []
    poppler: list[str] | None = None
    with pikepdf.open(path) as pdf:
        doc = pdfium.PdfDocument(str(path))
        try:
            for index in range(min(len(pdf.pages), len(doc))):
                page = scan_page(pdf, index, {})
                if not page.glyphs or not page.text_complete:
                    continue
                pdfium_page = doc[index]
                textpage = pdfium_page.get_textpage()
                try:
                    theirs = textpage.get_text_range()
                    errors = pdfium_char_counts(textpage)[2]
                finally:
                    textpage.close()
                    pdfium_page.close()
                if errors:
                    continue  # PDFium itself cannot map the page: no reference to agree with
                compared += 1
                cut = len(page.text) >= TEXT_BUDGET  # ours stops at the budget: a part of theirs
                if same_text(page.text, theirs, cut):
                    continue
                if poppler is None:
                    poppler = poppler_text(str(path)).split("\f")
                if index < len(poppler) and same_text(page.text, poppler[index], cut):
                    continue
                found.append(f"{path.name} p{index + 1}: {text_difference(page.text, theirs)}")
        finally:
            doc.close()
    return compared, found


def _reportlab(path: Path, font: str) -> Path:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), invariant=1)
    if font == "DejaVuSans":
        pdfmetrics.registerFont(TTFont(font, str(DEJAVU / "DejaVuSans.ttf")))
        lines = [*SENTENCES.values(), *EXTRA]
    else:
        lines = [SENTENCES[lang] for lang in ("en", "fr", "de")] + EXTRA
    y = 800
    for line in lines:
        pdf.setFont(font, 9)
        # Each line drawn in pieces with no move between them, as typesetters emit kerned runs.
        text = pdf.beginText(30, y)
        for start in range(0, len(line), 7):
            text.textOut(line[start:start + 7])
        pdf.drawText(text)
        y -= 40
    pdf.save()
    return path


@pytest.mark.parametrize("font", ["Helvetica", "Times-Roman", "DejaVuSans"])
def test_reportlab_pages_read_as_the_readers_read_them(tmp_path: Path, font: str) -> None:
    compared, found = disagreements(_reportlab(tmp_path / "page.pdf", font))
    assert compared == 1 and not found, found


def test_fpdf2_pages_read_as_the_readers_read_them(tmp_path: Path) -> None:
    fpdf = pytest.importorskip("fpdf")
    doc = fpdf.FPDF()
    doc.add_font("DejaVuSans", fname=str(DEJAVU / "DejaVuSans.ttf"))
    for lang in ("en", "pl", "ru", "el", "vi"):
        doc.add_page()
        doc.set_font("DejaVuSans", size=11)
        doc.multi_cell(0, 6, "\n".join([SENTENCES[lang], *EXTRA]))
    path = tmp_path / "fpdf2.pdf"
    path.write_bytes(bytes(doc.output()))
    compared, found = disagreements(path)
    assert compared == 5 and not found, found


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (./dev installs it)")
def test_chromium_pages_read_as_the_readers_read_them(tmp_path: Path) -> None:
    body = "".join(f"<p lang='{lang}'>{text}</p>" for lang, text in SENTENCES.items())
    body += "".join(f"<p><code>{line}</code></p>" for line in EXTRA)
    page = tmp_path / "page.html"
    page.write_text(f"<!doctype html><meta charset='utf-8'><body>{body}</body>", "utf-8")
    target = tmp_path / "chromium.pdf"
    assert print_with_chromium(page, target)
    compared, found = disagreements(target)
    assert compared >= 1 and not found, found


def test_the_measure_sees_a_wrong_map() -> None:
    """The agreement test can fail: text moved by one code point is no agreement."""
    assert same_text("Total due 12", "Total\ndue  12")
    assert not same_text("Total due 12", "Uqubm evf 23")


@pytest.mark.skipif(not REAL_CORPUS.is_dir(), reason="the labelled corpus is not beside the "
                    "checkout (../shared/corpus/real)")
def test_real_pdfs_read_as_the_readers_read_them(capsys: pytest.CaptureFixture[str]) -> None:
    """Real third-party PDFs: the share of pages where our text is some reader's, printed with
    every disagreement. Form-field appearances neither reader extracts stay ours alone."""
    compared, found = 0, []
    for path in sorted(REAL_CORPUS.glob("*.pdf")):
        try:
            n, bad = disagreements(path)
        except pikepdf.PdfError:
            continue  # damaged on purpose: the reader tests cover it
        compared += n
        found += bad
    rate = 1 - len(found) / max(compared, 1)
    with capsys.disabled():
        print(f"\nreader agreement on {compared} real pages: {rate:.1%}")
        for line in found:
            print("  " + line)
    assert compared >= 40
    assert rate >= 0.95, found
