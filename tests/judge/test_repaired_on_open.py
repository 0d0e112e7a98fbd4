"""A second reader is asked about a file qpdf had to repair, not one whose page tree it only
put in order.

qpdf repairs a damaged file as it opens it (a lost cross-reference table is
rebuilt by scanning, a truncated file loses pages): PDFium then decides
whether the file can be read at all. A page without /Resources is no damage:
qpdf gives it an empty dictionary as it lists the pages, warns, and the file
is read as written; PDFium is not opened for that.
"""

from __future__ import annotations

import io

import pikepdf

from pytest_textlayer import classify
from pytest_textlayer.pdf.source import repaired_on_open


def _pdf(page: bytes, startxref_shift: int = 0) -> bytes:
    """One page whose dictionary is `page`, drawing a rectangle, with a correct xref table
    (moved by `startxref_shift`: a damaged file qpdf rebuilds)."""
    content = b"0 0 m 100 100 l S"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page,
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref + startxref_shift)
    return bytes(out)


_NO_RESOURCES = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>"
_WITH_RESOURCES = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << >> "
                   b"/Contents 4 0 R >>")


def _opened_pdfium(report: object) -> bool:
    return any(reader.startswith("PDFium") for reader in report.readers)  # type: ignore[attr-defined]


def test_a_page_without_resources_is_put_in_order_not_repaired() -> None:
    data = _pdf(_NO_RESOURCES)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        warnings = pdf.get_warnings()
    assert len(warnings) == 1 and "Resources is missing or invalid" in warnings[0]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert not repaired_on_open(pdf)
    report = classify(data)
    assert report.error is None
    assert [p.verdict.value for p in report.pages] == ["blank"]
    assert not _opened_pdfium(report)


def test_a_file_whose_cross_reference_table_is_rebuilt_asks_pdfium() -> None:
    for page in (_NO_RESOURCES, _WITH_RESOURCES):
        data = _pdf(page, startxref_shift=7)
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert repaired_on_open(pdf)
        report = classify(data)
        assert report.error is None
        assert [p.verdict.value for p in report.pages] == ["blank"]
        assert _opened_pdfium(report)


def test_a_sound_file_opens_without_warnings() -> None:
    with pikepdf.open(io.BytesIO(_pdf(_WITH_RESOURCES))) as pdf:
        assert pdf.get_warnings() == [] and not repaired_on_open(pdf)
