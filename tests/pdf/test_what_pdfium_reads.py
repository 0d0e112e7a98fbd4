"""Files and pages qpdf refuses that PDFium reads are judged, page by page, on PDFium's text.

A page tree that loops, built here, and real files from other projects' test
suites (``../shared/corpus/wild``; those tests skip when it is absent): a
file whose /Root qpdf cannot find, files
encrypted with a crypt filter qpdf will not undo and PDFium opens with the
empty password, and a document one of whose content streams qpdf cannot
decode, which costs that page, not the document. A file neither reader
opens is still refused in one line.
"""

from __future__ import annotations

import pytest
from _paths import WILD_CORPUS

from pytest_textlayer import classify
from pytest_textlayer.cli import main

needs_wild = pytest.mark.skipif(not WILD_CORPUS.is_dir(), reason="../shared/corpus/wild absent")


def test_a_page_tree_that_loops_is_read_by_pdfium() -> None:
    """qpdf refuses a /Pages node listed among its own kids ("Loop detected"); PDFium reads
    the page the tree leads to."""
    import io

    import pikepdf

    from pytest_textlayer.generators import generate

    pdf = pikepdf.open(io.BytesIO(generate("readable").pdf))
    pdf.Root.Pages.Kids.append(pdf.Root.Pages)
    out = io.BytesIO()
    pdf.save(out)
    report = classify(out.getvalue())
    assert report.error is None
    (page,) = report.pages
    assert page.verdict.value == "readable" and page.decided_by == "readers"
    assert "Loop detected" in page.evidence[0]
    assert page.sample.startswith("UNITED STATES DISTRICT COURT")


@needs_wild
@pytest.mark.parametrize("name", [
    "camelot__tests_files_agstat.pdf",
    "qpdf__qpdf_qtest_qpdf_unfilterable-with-crypt.pdf",
    "qpdf__qpdf_qtest_qpdf_nontrivial-crypt-filter.pdf",
])
def test_a_file_qpdf_cannot_open_is_judged_on_pdfiums_text(name: str) -> None:
    report = classify(WILD_CORPUS / name)
    assert report.error is None and report.pages
    for page in report.pages:
        assert page.decided_by == "readers"
        assert page.evidence[0].startswith("qpdf cannot open the file (")
        assert "judged on PDFium's text alone" in page.evidence[0]
    assert report.pages[0].verdict.value == "readable" and report.pages[0].sample
    assert any("PDFium" in reader for reader in report.readers)


@needs_wild
def test_a_page_qpdf_cannot_decode_costs_that_page_only() -> None:
    report = classify(WILD_CORPUS / "qpdf__qpdf_qtest_qpdf_shared-images-errors.pdf")
    assert report.error is None and len(report.pages) == 10
    assert all(p.verdict.value in ("readable", "blank", "absent", "undecodable")
               for p in report.pages)
    judged = [p for p in report.pages if p.decided_by == "readers"]
    assert judged and all(p.evidence[0].startswith("qpdf cannot read this page (") for p in judged)


@needs_wild
def test_a_file_neither_reader_opens_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = WILD_CORPUS / "qpdf__qpdf_qtest_qpdf_issue-99.pdf"
    assert main(["check", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"textlayer: error: {path}: damaged PDF: ")


@needs_wild
@pytest.mark.parametrize("name", ["pikepdf__tests_resources_fuzz_378014596.pdf",
                                  "qpdf__qpdf_qtest_qpdf_deep-pages.pdf"])
def test_a_file_whose_pages_pdfium_cannot_load_either_is_refused(name: str) -> None:
    """PDFium counts the pages of these but loads none: the file is qpdf's refusal."""
    report = classify(WILD_CORPUS / name)
    assert report.error is not None and report.error.startswith("damaged PDF: ")
    assert not report.pages


@needs_wild
def test_the_page_limit_holds_for_a_file_only_pdfium_opens(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The limits are vetted on the document the classifier opens; one qpdf cannot open is
    counted by PDFium (30 pages here), and refused in one line all the same."""
    path = WILD_CORPUS / "qpdf__qpdf_qtest_qpdf_unfilterable-with-crypt.pdf"
    assert main(["check", "--max-pages", "10", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"textlayer: error: {path}: has 30 pages, over the limit of 10 (--max-pages)"
    assert main(["check", "--max-pages", "30", "-q", str(path)]) == 0
