"""Every generator family gets its expected verdict, in every generated language.

The corpus is written once per session by the fixture factory; the truth
comes from the generators, and the check runs through both the Python API
and the command line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_textlayer import classify
from pytest_textlayer.cli import main
from pytest_textlayer.generators import write_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("family-corpus")
    truth_path = write_corpus(root)
    return root, json.loads(Path(truth_path).read_text())["files"]


def _cases() -> list[str]:
    # Names are only known once the corpus is written; parametrize over families instead.
    from pytest_textlayer.generators import FAMILIES

    return sorted(FAMILIES)


@pytest.mark.parametrize("family", _cases())
def test_family_verdicts_through_the_api(family: str, corpus: tuple[Path, dict[str, Any]]) -> None:
    root, files = corpus
    names = sorted(n for n, t in files.items() if t["family"] == family)
    assert names, f"the corpus has no file of family {family}"
    wrong = []
    for name in names:
        report = classify(root / name)
        assert report.error is None, report.error
        expected = [p["verdict"] for p in files[name]["pages"]]
        got = [p.verdict.value for p in report.pages]
        if got != expected:
            wrong.append(f"{name}: expected {expected}, got {got}: {report.render()}")
    assert not wrong, "\n".join(wrong)


def test_family_verdicts_through_the_command_line(
    corpus: tuple[Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, files = corpus
    code = main(["check", "--json", str(root)])
    documents = json.loads(capsys.readouterr().out)["documents"]
    assert len(documents) == len(files)
    wrong = []
    for doc in documents:
        expected = [p["verdict"] for p in files[Path(doc["path"]).name]["pages"]]
        got = [p["verdict"] for p in doc["pages"]]
        if got != expected:
            wrong.append(f"{doc['path']}: expected {expected}, got {got}")
    assert not wrong, "\n".join(wrong)
    assert code == 1  # the corpus holds broken pages


def test_short_scrambled_pages_are_judged_with_the_fonts_earlier_text() -> None:
    """Slides of a dozen words in a scrambled monospaced font (no glyph names to check, no
    widths to rank): one page is too little for the language judge, the font's text over
    the pages so far is not."""
    from pytest_textlayer.generators import generate
    from pytest_textlayer.generators.texts import default_text
    from pytest_textlayer.model import Verdict

    mono = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
    if not mono.exists():
        pytest.skip("needs fonts-dejavu-core")
    short = " ".join(default_text("de").split()[:12])
    pages = classify(generate("scrambled", short, lang="de", pages=3, seed=1, font=mono).pdf).pages
    assert [p.verdict for p in pages[1:]] == [Verdict.GARBLED] * 2, [p.evidence for p in pages]
    assert "on this and earlier pages" in pages[-1].evidence[0]
    readable = classify(generate("readable", short, lang="de", pages=3, producer="type0",
                                 font=mono).pdf)
    assert [p.verdict for p in readable.pages] == [Verdict.READABLE] * 3


def test_a_new_document_forgets_the_readings_of_the_last() -> None:
    """A reading that repaired one document's shifted text never decides the next one's."""
    from pytest_textlayer.generators import generate
    from pytest_textlayer.lang import textrepair

    classify(generate("shifted").pdf)  # loads the shift search and leaves its reading
    remembered = ("offset", 12345)
    textrepair._RECENT.insert(0, remembered)
    classify(generate("readable").pdf)
    assert remembered not in textrepair._RECENT
