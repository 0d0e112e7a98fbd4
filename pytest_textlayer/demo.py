"""`textlayer demo`: the whole story on built-in examples, in one run.

Build one fixture per defect family, show what three real readers extract
from it next to the text the page shows, classify it, then repair every
broken one and show what poppler reads afterwards. A newcomer sees in a
minute why the project exists, what it says about each PDF and what it can
fix.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, TextIO

from .errors import ExitCode
from .model import shorten

#: (family, options) shown by the demo, in the order of the story.
DEMO_CASES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("readable", {}),
    ("severed", {"order": "mac-standard"}),
    ("severed", {"order": "first-use"}),
    ("severed-recoverable", {"keep": "cmap"}),
    ("shifted", {"offset": 29}),
    ("pua", {}),
    ("scrambled", {}),
    ("collapsed", {"to": "fffd"}),
    ("type3-unnamed", {}),
    ("differences-unnamed", {}),
    ("image-only", {}),
    ("blank", {}),
)


def run_demo(directory: Path, *, out: TextIO) -> int:
    from . import generators
    from .judge.classifier import classify
    from .pdf.readers import pdfium_text_of, poppler_text, pypdf_text

    directory.mkdir(parents=True, exist_ok=True)
    right = 0
    for family, options in DEMO_CASES:
        fixture = generators.generate(family, **options)
        label = family + "".join(f" {k}={v}" for k, v in options.items())
        stem = "-".join([family, *(str(v) for v in options.values())])
        path = fixture.write(directory / f"{stem}.pdf")
        report = classify(path)
        truth = fixture.pages[0]
        got = report.pages[0].verdict if report.pages else None
        right += got == truth.verdict
        mark = "ok " if got == truth.verdict else "MISS"
        print(f"\n[{mark}] {label}: expected {truth.verdict.value}, "
              f"textlayer says {got.value if got else report.error}", file=out)
        print(f"    page shows : {shorten(truth.text, 60)}", file=out)
        print(f"    pdftotext  : {shorten(poppler_text(str(path)), 60)}", file=out)
        print(f"    PDFium     : {shorten(pdfium_text_of(fixture.pdf)[0], 60)}", file=out)
        if importlib.util.find_spec("pypdf") is not None:  # an optional reader (the dev extra)
            print(f"    pypdf      : {shorten(pypdf_text(fixture.pdf)[0], 60)}", file=out)
        if report.pages and report.pages[0].evidence:
            print(f"    evidence   : {report.pages[0].evidence[0]}", file=out)
    total = len(DEMO_CASES)
    print(f"\n{right} of {total} fixtures got the expected verdict; PDFs in {directory}/", file=out)
    repaired = _repair_all(directory, out)
    command = _command()
    print(f"next: {command} check {directory}   |   {command} repair "
          f"{directory}/shifted-29.pdf -o fixed.pdf", file=out)
    return int(ExitCode.OK if right == total and repaired else ExitCode.BAD_PAGES)


def _command() -> str:
    """How to run textlayer from here: its name when it is on PATH, else its path (`./dev demo`
    runs it from the project's virtual environment, which no shell has activated)."""
    import shutil
    import sys

    if shutil.which("textlayer"):
        return "textlayer"
    beside = Path(sys.executable).with_name("textlayer")
    return str(beside) if beside.exists() else f"{sys.executable} -m pytest_textlayer"


def _repair_all(directory: Path, out: TextIO) -> bool:
    """Repair every broken fixture into directory/repaired/ and show what poppler reads then."""
    from .errors import MissingOCR
    from .judge.classifier import classify
    from .pdf.readers import poppler_text
    from .repairs.repairer import repair

    target = directory / "repaired"
    target.mkdir(exist_ok=True)
    print("\nRepair (a /ToUnicode from the file's own evidence; OCR only what it cannot fix):",
          file=out)
    written = True
    for path in sorted(directory.glob("*.pdf")):
        if classify(path).ok:
            continue
        fixed = target / path.name
        try:
            report = repair(path, fixed, ocr="auto")
        except MissingOCR as exc:
            print(f"  {path.name}: OCR unavailable ({exc}); repairing without it", file=out)
            report = repair(path, fixed, ocr="never")
        page = report.pages[0]
        how = page.action + (f" ({'+'.join(page.sources)})" if page.sources else "")
        written = written and report.written
        print(f"  {path.name:28} {page.before.value:11} -> {page.after.value:9} by {how}",
              file=out)
        print(f"  {'':28} pdftotext now: {shorten(poppler_text(str(fixed)), 50)}", file=out)
    return written
