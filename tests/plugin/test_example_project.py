"""The example invoicing project, run with its font step fine and broken, gate off and on."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pikepdf  # noqa: F401  (loaded once here: it cannot be re-imported in one process)
import pypdfium2  # noqa: F401
import pytest
from _paths import ROOT

EXAMPLE = ROOT / "examples" / "invoice_project"
BUILT = "build/invoice-2026-0042.pdf"

pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copytree(
        EXAMPLE,
        pytester.path,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns("__pycache__", "build", ".pytest_cache"),
    )
    return pytester


@pytest.fixture(autouse=True)
def _quiet_inner_runs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest")


def _build(project: pytest.Pytester) -> None:
    done = project.run(sys.executable, "-m", "invoice", "build")
    assert done.ret == 0, done.stderr.str()
    assert (project.path / BUILT).is_file()


def test_fine_fonts_pass_with_and_without_the_gate(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("INVOICE_BROKEN_FONTS", raising=False)
    _build(project)
    off = project.runpytest()
    assert off.ret == pytest.ExitCode.OK
    off.assert_outcomes(passed=3)
    off.stdout.fnmatch_lines(["3 PDF(s) checked, 3 page(s): 3 readable"])  # header only with -v

    on = project.runpytest("--textlayer", "-v")
    assert on.ret == pytest.ExitCode.OK
    on.assert_outcomes(passed=4)
    on.stdout.fnmatch_lines(
        [f"{BUILT}::textlayer PASSED*", "4 PDF(s) checked, 4 page(s): 4 readable"]
    )


def test_broken_fonts_fail_the_gate(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INVOICE_BROKEN_FONTS", "1")
    _build(project)

    off = project.runpytest("-rf")
    # Without --textlayer only the explicit assertion fails; the rest is reported.
    assert off.ret == pytest.ExitCode.TESTS_FAILED
    off.assert_outcomes(passed=2, failed=1)
    off.stdout.fnmatch_lines(
        [
            "E       AssertionError: PDF text layer is not readable: */invoice.pdf (1 of 1 *",
            "E         not extractable: 'Total due'",
        ]
    )
    off.stdout.fnmatch_lines(["  not enforced: run with --textlayer to fail these tests"])
    off.stdout.fnmatch_lines(["FAILED tests/test_invoice.py::test_customer_name_can_be_copied - *"])

    # A fresh interpreter, so the plugin is loaded through its pytest11 entry point.
    on = project.runpytest_subprocess("--textlayer", "-rf")
    assert on.ret == pytest.ExitCode.TESTS_FAILED
    on.assert_outcomes(failed=4)
    on.stdout.fnmatch_lines(
        [
            f"PDF text layer is not readable: {BUILT} (1 of 1 pages bad)",
            "  page 1: undecodable — *",
            f"  next: textlayer repair {BUILT} -o fixed.pdf*",
        ]
    )
    for failed in (
        f"{BUILT}::textlayer - *",
        "tests/test_invoice.py::test_invoice_is_written - *",
        "tests/test_invoice.py::test_totals_are_searchable - *",
        "tests/test_invoice.py::test_customer_name_can_be_copied - *",
    ):
        on.stdout.fnmatch_lines([f"FAILED {failed}"])
