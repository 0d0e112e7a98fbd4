"""Presence asks PDFium for a page's text only where the content walk cannot rule text out.

A page whose whole content our tokenizers read, and which shows no string,
has nothing any reader could extract: PDFium is not opened for it. Where the
walk is unsure (a stream only qpdf's parser read, a string shown without a
font), PDFium still has the last word.
"""

from __future__ import annotations

import io

import pikepdf
import pytest

from pytest_textlayer import classify
from pytest_textlayer.generators import generate


def _opened_pdfium(report: object) -> bool:
    return any(reader.startswith("PDFium") for reader in report.readers)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("family", "verdict"), [("blank", "blank"), ("image-only", "absent")])
def test_a_page_that_shows_no_string_is_judged_without_pdfium(family: str, verdict: str) -> None:
    report = classify(generate(family).pdf)
    assert [(p.verdict.value, p.decided_by) for p in report.pages] == [(verdict, "presence")]
    assert not _opened_pdfium(report)


def _with_content(data: bytes, content: bytes) -> bytes:
    pdf = pikepdf.open(io.BytesIO(data))
    pdf.pages[0].Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_text_only_pdfium_finds_behind_a_stray_inline_image_operator_is_not_blank() -> None:
    """A stray ``ID`` sends the stream to qpdf's parser, which then reads no text; PDFium
    reads on and finds the string: the page is not blank."""
    data = generate("readable").pdf
    with pikepdf.open(io.BytesIO(data)) as pdf:
        shown = pdf.pages[0].Contents.read_bytes()
    report = classify(_with_content(data, b"ID\n" + shown))
    (page,) = report.pages
    assert page.glyphs == 0 and page.verdict.value == "readable"
    assert _opened_pdfium(report)


def test_a_string_shown_without_a_font_still_asks_pdfium() -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    out = io.BytesIO()
    pdf.save(out)
    report = classify(_with_content(out.getvalue(), b"BT 72 720 Td (Hello) Tj ET"))
    assert [p.verdict.value for p in report.pages] == ["blank"]  # PDFium shows nothing either
    assert _opened_pdfium(report)
