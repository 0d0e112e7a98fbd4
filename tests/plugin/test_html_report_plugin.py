"""``pytest --textlayer-html=DIR``: the session's checks rendered as the HTML report.

Runs pytest for real through pytester on generated fixture PDFs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify

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


def test_the_report_puts_bad_documents_first_and_names_the_tests_that_checked_them(
    pytester: pytest.Pytester, pdfs: tuple[Path, Path]
) -> None:
    """Two tests that check one file alike share its row, both named; the good document,
    checked first, is listed after the bad one. Under xdist the workers' checks are merged."""
    good, bad = pdfs
    _copy(pytester, good, "data/good.pdf")
    _copy(pytester, bad, "data/bad.pdf")
    pytester.makepyfile(test_docs="""
        def test_a_good_one(textlayer):
            textlayer.check("data/good.pdf")

        def test_first_look(textlayer):
            textlayer.check("data/bad.pdf")

        def test_second_look(textlayer):
            textlayer.check("data/bad.pdf")
    """)
    for extra in ((), ("-n", "2")):
        result = pytester.runpytest_subprocess("--textlayer-html=report", *extra)
        result.assert_outcomes(passed=3)
        html = (pytester.path / "report" / "index.html").read_text(encoding="utf-8")
        table = html[html.index('<table class="docs">'):html.index("</table>")]
        assert table.index("data/bad.pdf") < table.index("data/good.pdf"), extra
        bad_row = table[table.index("data/bad.pdf"):table.index("data/good.pdf")]
        assert "not OK" in bad_row
        assert "test_docs.py::test_first_look" in bad_row
        assert "test_docs.py::test_second_look" in bad_row
        assert "test_docs.py::test_a_good_one" in table[table.index("data/good.pdf"):]
        assert html.count('<article class="page"') == 1  # one file, drawn once
