"""One odd character never costs a run: a ToUnicode mapping to a lone UTF-16 surrogate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from pytest_textlayer import classify
from pytest_textlayer.model import DocumentReport, PageReport, Verdict, printable
from pytest_textlayer.settings import CheckSettings

EXE = Path(sys.executable).with_name("textlayer")
CMD = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "pytest_textlayer"]

_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Lone def 1 begincodespacerange <0000> <FFFF> endcodespacerange
2 beginbfchar <0041> <0041> <0042> <0042> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""


def _surrogate_pdf(path: Path) -> Path:
    """An Identity-H page drawing code 0xDE1D, which its ToUnicode leaves out: our own text
    gives such a code as the character with its number, a lone surrogate."""
    pdf = pikepdf.new()
    cidfont = pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name.Sub,
        CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0))
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name.Sub,
        Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cidfont)],
        ToUnicode=pdf.make_stream(_CMAP)))
    page = pdf.add_blank_page(page_size=(300, 200))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.Contents = pdf.make_stream(
        b"BT /F1 12 Tf 20 100 Td <00410042DE1D00410042DE1D0041> Tj ET")
    pdf.save(path)
    return path


def test_printable_replaces_only_lone_surrogates() -> None:
    assert printable("a\ude1db\ud800") == "a\ufffdb\ufffd"
    assert printable("emoji \U0001f600 stays") == "emoji \U0001f600 stays"


def test_reports_hold_no_lone_surrogate(tmp_path: Path) -> None:
    # Accepted pages keep our own text as their sample (bad ones show PDFium's).
    allow = CheckSettings(ok_verdicts=frozenset(Verdict))
    report = classify(_surrogate_pdf(tmp_path / "lone.pdf"), settings=allow)
    text = json.dumps(report.to_dict(), ensure_ascii=False)
    text.encode("utf-8")  # raises on a lone surrogate
    assert "\ufffd" in report.pages[0].sample
    page = PageReport(number=1, verdict=Verdict.READABLE, ok=True, sample="x\udcff",
                      evidence=("y\ud800",))
    assert page.sample == "x\ufffd" and page.evidence == ("y\ufffd",)
    assert DocumentReport(path="f\udcff.pdf").path == "f\ufffd.pdf"


@pytest.mark.parametrize("output", ["--json", "--jsonl=-", "-v"])
def test_every_output_survives_a_lone_surrogate(tmp_path: Path, output: str) -> None:
    bad = _surrogate_pdf(tmp_path / "lone.pdf")
    allow = [f"--allow={v}" for v in ("undecodable", "garbled", "shifted")]
    done = subprocess.run([*CMD, "check", str(bad), output, *allow], capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "lone.pdf" in done.stdout
    if output != "-v":
        record = json.loads(done.stdout.splitlines()[0] if "jsonl" in output else done.stdout)
        assert record.get("documents", [record])[0]["pages"][0]["verdict"]
