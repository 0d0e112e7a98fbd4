"""The session record: what crosses from xdist workers, the summary lines, the JSON file.

Reports here are built by classifying real PDFs (reportlab, with and without
the example project's broken font step), then sent through the same
to_dict/merge path the plugin uses between processes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from _paths import ROOT

from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.model import DocumentReport
from pytest_textlayer.plugin.record import MAX_WORST_SHOWN, SessionRecord, reader_versions

EXAMPLE = ROOT / "examples" / "invoice_project"

pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)


def _render() -> Any:
    if str(EXAMPLE) not in sys.path:
        sys.path.insert(0, str(EXAMPLE))
    import invoice.render

    return invoice.render


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, DocumentReport]:
    render = _render()
    root = tmp_path_factory.mktemp("r")
    good = render.write_invoice(render.SAMPLE, root / "good.pdf", broken_fonts=False)
    bad = render.write_invoice(render.SAMPLE, root / "bad.pdf", broken_fonts=True)
    junk = root / "junk.pdf"
    junk.write_bytes(b"not a pdf")
    return {
        "good": classify(good, name="good.pdf"),
        "bad": classify(bad, name="bad.pdf"),
        "junk": classify(junk, name="junk.pdf"),
    }


def test_worker_payload_round_trips(reports: dict[str, DocumentReport]) -> None:
    worker = SessionRecord()
    worker.add("t.py::test_bad", reports["bad"])
    worker.add("t.py::test_good", reports["good"])
    payload = json.loads(json.dumps(worker.payload()))  # what execnet would carry
    controller = SessionRecord()
    controller.merge(payload)
    assert len(controller) == 2
    by_test = {c.nodeid: c.report for c in controller.ordered()}
    assert by_test["t.py::test_bad"].to_dict() == reports["bad"].to_dict()
    assert by_test["t.py::test_bad"].render() == reports["bad"].render()


def test_the_same_check_twice_in_one_test_counts_once(reports: dict[str, DocumentReport]) -> None:
    record = SessionRecord()
    record.add("t.py::a", reports["good"])
    record.add("t.py::a", reports["good"])
    record.add("t.py::b", reports["good"])
    assert len(record) == 2


def test_summary_lines(reports: dict[str, DocumentReport]) -> None:
    record = SessionRecord()
    record.add("t.py::test_good", reports["good"])
    record.add("t.py::test_bad", reports["bad"])
    record.add("junk.pdf::textlayer", reports["junk"])
    verdict = reports["bad"].pages[0].verdict.value
    lines = record.summary_lines(enforcing=False)
    assert lines[0].startswith("3 PDF(s) checked, 2 page(s): ")
    assert lines[0].endswith("; 1 unreadable file(s)")
    # Unreadable files first, then by bad pages.
    assert lines[1] == (
        "  junk.pdf: unreadable: not a PDF (no %PDF- header)  [junk.pdf::textlayer]"
    )
    assert lines[2] == f"  bad.pdf: 1 of 1 page(s) bad (1 {verdict})  [t.py::test_bad]"
    assert lines[-1] == "  not enforced: run with --textlayer to fail these tests"
    assert record.summary_lines(enforcing=True)[-1] == lines[2]


def test_summary_names_at_most_a_few_documents(reports: dict[str, DocumentReport]) -> None:
    record = SessionRecord()
    for i in range(MAX_WORST_SHOWN + 3):
        record.add(f"t.py::test_{i}", reports["bad"])
    lines = record.summary_lines(enforcing=True)
    assert len(lines) == 1 + MAX_WORST_SHOWN + 1
    assert lines[-1] == "  … and 3 more bad PDF(s)"


def test_empty_session() -> None:
    assert SessionRecord().summary_lines(enforcing=True) == ["no PDF checked"]


def test_json_file(tmp_path: Path, reports: dict[str, DocumentReport]) -> None:
    record = SessionRecord()
    record.add("t.py::test_bad", reports["bad"])
    record.add("t.py::test_good", reports["good"])
    out = tmp_path / "deep" / "report.json"
    record.write_json(out)
    data = json.loads(out.read_text())
    assert [d["path"] for d in data["documents"]] == ["bad.pdf", "good.pdf"]
    first = data["documents"][0]
    assert first["test"] == "t.py::test_bad"
    assert first["ok"] is False and first["error"] is None
    page = first["pages"][0]
    assert page["number"] == 1 and page["ok"] is False and page["evidence"]
    assert not list(out.parent.glob("*.tmp"))


def test_reader_versions_without_loading_names_the_packages() -> None:
    lines = reader_versions(load=False)
    assert lines[0].startswith("pypdfium2 ") and lines[1].startswith("pikepdf ")
    loaded = reader_versions(load=True)
    assert "(PDFium " in loaded[0] and "(qpdf " in loaded[1]
