#!/usr/bin/env python3
"""Wall time and peak memory of `textlayer check` against `pdftotext`, same file, same run.

    python benchmarks/check_vs_pdftotext.py [--pages 300] [--repeat 3] [PDF ...]

Without PDF arguments it builds a long born-digital document with reportlab
(one embedded TrueType font shared by every page, dense prose) so that the
cost per page with a shared font is what is measured. Each command runs as
its own process; wall time is the best of --repeat runs, peak memory the
process's maximum resident set. Prints one line per file and the ratio.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROSE = (
    "The quick brown fox jumps over the lazy dog while the committee reviews the annual "
    "report, its appendices and the auditors' notes on revenue recognition. "
)


def build_document(path: Path, pages: int) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    name = "Helvetica"
    if os.path.exists(font):
        pdfmetrics.registerFont(TTFont("DejaVuSans", font))
        name = "DejaVuSans"
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for n in range(pages):
        c.setFont(name, 9)
        y = 800.0
        words = (PROSE * 40).split()
        line: list[str] = []
        for word in words:
            line.append(word)
            if len(line) == 14:
                c.drawString(40, y, " ".join(line))
                line = []
                y -= 12
                if y < 60:
                    break
        c.drawString(280, 30, f"page {n + 1}")
        c.showPage()
    c.save()
    return path


def run(cmd: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} failed with status {proc.returncode}")
    return elapsed, usage.ru_maxrss


def best(cmd: list[str], repeat: int) -> tuple[float, int]:
    runs = [run(cmd) for _ in range(repeat)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        raise SystemExit("pdftotext is missing: apt-get install poppler-utils")
    textlayer = [sys.executable, "-m", "pytest_textlayer", "check"]
    with tempfile.TemporaryDirectory() as tmp:
        pdfs = args.pdfs or [build_document(Path(tmp) / "long.pdf", args.pages)]
        for pdf in pdfs:
            ref_t, ref_m = best([pdftotext, "-q", str(pdf), os.devnull], args.repeat)
            our_t, our_m = best([*textlayer, str(pdf)], args.repeat)
            print(f"{pdf.name}: pdftotext {ref_t:.3f}s {ref_m / 1024:.0f} MiB | "
                  f"textlayer check {our_t:.3f}s {our_m / 1024:.0f} MiB | "
                  f"time ratio {our_t / ref_t:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
