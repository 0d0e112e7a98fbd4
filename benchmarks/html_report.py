#!/usr/bin/env python3
"""Size and write time of the HTML report for a long document with a few bad pages.

    python benchmarks/html_report.py [--pages 200] [--bad 3] [--repeat 3] [--keep DIR] [PDF ...]

Without PDF arguments it builds a document of --pages dense pages (prose at
10 pt, a full A5 page each) from the fixture generators: readable pages, and
--bad pages spread through it taken in turn from the severed, shifted and
private-use families. Each document is classified once; then the report is
written --repeat times and the best wall time is printed, with the file
size, the pages drawn, the glyph boxes and the bytes per drawn page.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

PROSE = (
    "The quick brown fox jumps over the lazy dog while the committee reviews the annual "
    "report, its appendices and the auditors' notes on revenue recognition. "
)
BAD_FAMILIES = ("severed", "shifted", "pua")


def one_page(family: str) -> bytes:
    """A single dense page of *family* (the text trimmed until it fits one page)."""
    from pytest_textlayer.generators import generate

    text = PROSE * 16
    while True:
        fixture = generate(family, text=text, size=10.0)
        if len(fixture.pages) == 1:
            return fixture.pdf
        text = text[: int(len(text) * 0.9)]


def build_document(path: Path, pages: int, bad: int) -> list[int]:
    """Write the document; return the 1-based numbers of its bad pages."""
    import pikepdf

    good = pikepdf.open(io.BytesIO(one_page("readable")))
    broken = [pikepdf.open(io.BytesIO(one_page(f))) for f in BAD_FAMILIES]
    where = {round((i + 1) * pages / (bad + 1)): i for i in range(bad)}
    out = pikepdf.new()
    for number in range(1, pages + 1):
        if number in where:
            out.pages.append(broken[where[number] % len(broken)].pages[0])
        else:
            out.pages.append(good.pages[0])
    out.save(path)
    for doc in (good, *broken):
        doc.close()
    return sorted(where)


def measure(pdf: Path, out_dir: Path, repeat: int) -> None:
    from pytest_textlayer.judge.classifier import classify
    from pytest_textlayer.report.html_report import write_html

    start = time.perf_counter()
    report = classify(pdf)
    classify_s = time.perf_counter() - start
    best = float("inf")
    html = out_dir / "index.html"
    for _ in range(repeat):
        start = time.perf_counter()
        html = write_html([report], out_dir)
        best = min(best, time.perf_counter() - start)
    text = html.read_text(encoding="utf-8")
    drawn = text.count('<article class="page"')
    boxes = text.count("<rect ")
    size = html.stat().st_size
    bad = len(report.bad_pages)
    print(
        f"{pdf.name}: {len(report.pages)} pages ({bad} bad), classify {classify_s:.2f} s; "
        f"HTML written in {best:.3f} s (best of {repeat}), {size / 1e6:.2f} MB, "
        f"{drawn} page(s) drawn, {boxes} glyph boxes, "
        f"{size / max(drawn, 1) / 1e3:.0f} kB per drawn page -> {html}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--bad", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the reports here (default: a temp dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        pdfs = list(args.pdfs)
        if not pdfs:
            built = root / f"long-{args.pages}p-{args.bad}bad.pdf"
            start = time.perf_counter()
            numbers = build_document(built, args.pages, args.bad)
            print(f"built {built.name} in {time.perf_counter() - start:.1f} s; "
                  f"bad pages {numbers}")
            pdfs = [built]
        for i, pdf in enumerate(pdfs):
            measure(pdf, root / f"report-{i}", args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
