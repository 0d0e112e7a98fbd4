"""`assert_text_layer_readable` on PDFs from a real producer, without running pytest inside."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _paths import ROOT

from pytest_textlayer import assert_text_layer_readable
from pytest_textlayer.assertion import listening, missing_strings
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.model import DocumentReport

EXAMPLE = ROOT / "examples" / "invoice_project"

pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)


def _invoice() -> Any:
    if str(EXAMPLE) not in sys.path:
        sys.path.insert(0, str(EXAMPLE))
    import invoice.render

    return invoice.render


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    render = _invoice()
    path: Path = render.write_invoice(
        render.SAMPLE, tmp_path_factory.mktemp("a") / "good.pdf", broken_fonts=False
    )
    return path


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> Path:
    render = _invoice()
    path: Path = render.write_invoice(
        render.SAMPLE, tmp_path_factory.mktemp("a") / "bad.pdf", broken_fonts=True
    )
    return path


def test_importing_the_assertion_does_not_import_pytest() -> None:
    code = "import pytest_textlayer.assertion, sys; assert 'pytest' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_readable_pdf_passes_and_returns_its_report(good: Path) -> None:
    report = assert_text_layer_readable(good, contains=["Total due", "Société Générale"])
    assert isinstance(report, DocumentReport)
    assert report.ok and [p.number for p in report.pages] == [1]


def test_the_message_is_the_reports_story(bad: Path) -> None:
    with pytest.raises(AssertionError) as info:
        assert_text_layer_readable(bad)
    expected = classify(bad)
    assert str(info.value) == expected.render()
    lines = str(info.value).splitlines()
    assert lines[0] == f"PDF text layer is not readable: {bad} (1 of 1 pages bad)"
    assert lines[1].startswith(f"  page 1: {expected.pages[0].verdict.value} — ")
    assert lines[-1].startswith(f"  next: textlayer repair {bad} -o fixed.pdf")


def test_allow_accepts_the_verdict(bad: Path) -> None:
    verdict = classify(bad).pages[0].verdict
    assert_text_layer_readable(bad, allow=[verdict])
    assert_text_layer_readable(bad, allow=verdict.value)


def test_bytes_and_file_objects(good: Path, bad: Path) -> None:
    data = good.read_bytes()
    assert assert_text_layer_readable(data, name="memory.pdf").path == "memory.pdf"
    with good.open("rb") as fh:
        assert assert_text_layer_readable(fh).path == str(good)
    with pytest.raises(AssertionError, match=r"^PDF text layer is not readable: <bytes>"):
        assert_text_layer_readable(bad.read_bytes())
    assert assert_text_layer_readable(io.BytesIO(data), pages="1").ok


def test_contains_checks_what_a_reader_extracts(good: Path, bad: Path) -> None:
    with pytest.raises(AssertionError) as info:
        assert_text_layer_readable(good, contains=["Total due", "Net 60 days"])
    lines = str(info.value).splitlines()
    assert lines[0] == f"PDF text layer lacks the expected text: {good}"
    assert "  not extractable: 'Net 60 days'" in lines
    assert not any("'Total due'" in line for line in lines)
    assert lines[-1].startswith("  page 1 extracts as: 'Invoice 2026-0042")
    # On a broken file both stories are told: the verdict, then the missing words.
    verdict = classify(bad).pages[0].verdict
    with pytest.raises(AssertionError) as info:
        assert_text_layer_readable(bad, allow=[verdict], contains="Total due")
    assert "  not extractable: 'Total due'" in str(info.value).splitlines()


def test_missing_strings_ignores_line_breaks_and_compatibility_forms() -> None:
    pages = ["Total\r\ndue 12 EUR", "ﬁnal notice"]
    assert missing_strings(pages, ["Total due", "final notice", "12EUR", "absent"]) == ["absent"]


def test_an_unreadable_file_fails_in_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "notes.pdf"
    junk.write_text("meeting notes\n")
    with pytest.raises(AssertionError) as info:
        assert_text_layer_readable(junk, contains="notes")
    assert str(info.value) == f"PDF could not be read: {junk}: not a PDF (no %PDF- header)"


def test_pages_beyond_the_document_are_an_error(good: Path) -> None:
    with pytest.raises(AssertionError, match=r"PDF could not be read: .*no page 3"):
        assert_text_layer_readable(good, pages=[3])


def test_listeners_see_every_report(good: Path, bad: Path) -> None:
    seen: list[DocumentReport] = []
    with listening(seen.append):
        assert_text_layer_readable(good)
        with pytest.raises(AssertionError):
            assert_text_layer_readable(bad)
    assert_text_layer_readable(good)
    assert [r.ok for r in seen] == [True, False]
