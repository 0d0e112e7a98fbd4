"""``pytest --textlayer-html=DIR``: the session's checks rendered as the HTML report.

Runs pytest for real through pytester on generated fixture PDFs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_textlayer.classifier import classify
from pytest_textlayer.generators import generate

pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("plugin-html")
    good, bad = root / "good.pdf", root / "bad.pdf"
    generate("readable").write(good)
    generate("mixed", families=["readable", "severed", "readable"]).write(bad)
    classify(good)  # load the core once in this process (pytester's runs are in-process)
    return good, bad


@pytest.fixture(autouse=True)
def _quiet_inner_runs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest")


def _copy(pytester: pytest.Pytester, src: Path, name: str) -> None:
    dest = pytester.path / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def test_help_lists_the_option(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(["*--textlayer-html=DIR*"])


def test_collected_pdfs_are_drawn_into_the_report(
    pytester: pytest.Pytester, pdfs: tuple[Path, Path]
) -> None:
    good, bad = pdfs
    _copy(pytester, good, "out/good.pdf")
    _copy(pytester, bad, "out/bad.pdf")
    result = pytester.runpytest("--textlayer", "out", "--textlayer-html=build/report")
    result.assert_outcomes(passed=1, failed=1)
    index = pytester.path / "build" / "report" / "index.html"
    result.stdout.fnmatch_lines([f"textlayer HTML report written to {index}"])
    html = index.read_text(encoding="utf-8")
    # Both documents are listed; only page 2 of bad.pdf is drawn.
    assert "out/good.pdf" in html and "out/bad.pdf" in html
    assert html.count('<article class="page"') == 1
    assert html.count("data:image/jpeg;base64,") == 1
    assert 'id="d1p2"' in html or 'id="d2p2"' in html


def test_an_unwritable_report_fails_the_run_and_says_why(
    pytester: pytest.Pytester, pdfs: tuple[Path, Path]
) -> None:
    _copy(pytester, pdfs[0], "out/good.pdf")
    (pytester.path / "taken").write_text("a file, not a folder")
    result = pytester.runpytest("--textlayer", "out", "--textlayer-html=taken")
    result.stdout.fnmatch_lines(["textlayer HTML report NOT written: *taken: *is a file"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR
