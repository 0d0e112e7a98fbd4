"""`textlayer demo`: the whole story on built-in examples, in one run.

Build one fixture per defect family, show what three real readers extract
from it next to the text the page shows, then classify it. A newcomer sees
in a minute why the project exists and what it says about each PDF.
"""

from __future__ import annotations

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
    from .classifier import classify
    from .readers import pdfium_text_of, poppler_text, pypdf_text

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
        print(f"    pypdf      : {shorten(pypdf_text(fixture.pdf)[0], 60)}", file=out)
        if report.pages and report.pages[0].evidence:
            print(f"    evidence   : {report.pages[0].evidence[0]}", file=out)
    total = len(DEMO_CASES)
    print(f"\n{right} of {total} fixtures got the expected verdict; PDFs in {directory}/", file=out)
    print(f"next: textlayer check {directory}   |   textlayer repair "
          f"{directory}/shifted-29.pdf -o fixed.pdf", file=out)
    return int(ExitCode.OK if right == total else ExitCode.BAD_PAGES)
