#!/usr/bin/env python3
"""Wall time and peak memory of `textlayer check` against `pdftotext`, same file, same run.

    python benchmarks/check_vs_pdftotext.py [--pages 300] [--kind prose|typeset] [--repeat 3]
                                            [PDF ...]

Without PDF arguments it builds a long born-digital document:

* ``prose`` (default): reportlab, one embedded TrueType font shared by every
  page, dense prose (~5,400 characters a page), so that the cost per page
  with a shared font is what is measured;
* ``typeset``: troff prose with bold, italic, monospace and Symbol words,
  printed by groff to PostScript and distilled by Ghostscript, as a
  typesetting system does it: five fonts, a string and a move per word
  fragment (needs groff and gs).

Each command runs as its own process; wall and CPU time are the best of
--repeat runs after one warm-up run, peak memory the largest resident set of
the process and its children. Prints pdftotext's figures, then two lines per
file with both ratios: `textlayer check` as installed (on a long document
it walks every other page in a helper process when a second core is free,
see pytest_textlayer/pdf/pagescan.py), and the same in one process
(TEXTLAYER_PAGE_HELPER=0). CPU time counts both processes. On a busy
machine the CPU ratio is the steadier one, and the helper gains nothing.
Python runs with its bytecode cache on, as an installed package does:
PYTHONDONTWRITEBYTECODE would charge the compilation of every module to
every run.
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


def build_typeset(path: Path, pages: int) -> Path:
    """About `pages` pages of troff prose, through groff -Tps and Ghostscript's pdfwrite."""
    import random

    groff, gs = shutil.which("groff"), shutil.which("gs")
    if groff is None or gs is None:
        raise SystemExit("--kind typeset needs groff and ghostscript (apt-get install groff gs)")
    rng = random.Random(1)
    words = PROSE.replace(",", "").replace(".", "").split()
    lines = [".ll 6.5i", ".ps 10", ".vs 12", ".po 1i", ".pl 11i", ".de NP", "'bp", ".sp 0.7i",
             "..", ".wh -0.8i NP", ".sp 0.7i"]
    for para in range(pages * 12):
        sentence = []
        for _ in range(60):
            word, roll = rng.choice(words), rng.random()
            if roll < 0.04:
                word = rf"\fB{word}\fP"
            elif roll < 0.08:
                word = rf"\fI{word}\fP"
            elif roll < 0.09:
                word = rf"\f(CR{word}\fP"
            elif roll < 0.095:
                word = rf"\(*a\(*b={rng.randint(1, 99)}"
            sentence.append(word)
        lines += [".sp 0.5", " ".join(sentence) + "."]
        if para % 6 == 0:
            lines += [".sp", rf"\fB\s+2Section {para // 6 + 1}\s0\fP", ".br"]
    troff = path.with_suffix(".tr")
    troff.write_text("\n".join(lines) + "\n")
    postscript = path.with_suffix(".ps")
    with open(postscript, "wb") as out:
        subprocess.run([groff, "-Tps", str(troff)], stdout=out, check=True)
    subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pdfwrite",
                    f"-sOutputFile={path}", str(postscript)], check=True)
    return path


def run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (KiB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} failed with status {proc.returncode}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def best(cmd: list[str], repeat: int, env: dict[str, str] | None = None
         ) -> tuple[float, float, int]:
    run(cmd, env)  # warm-up: page cache, bytecode cache
    runs = [run(cmd, env) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("pdfs", nargs="*", type=Path)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--kind", choices=("prose", "typeset"), default="prose")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--build-only", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    build = build_typeset if args.kind == "typeset" else build_document
    if args.build_only:
        build(args.build_only, args.pages)
        return 0
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        raise SystemExit("pdftotext is missing: apt-get install poppler-utils")
    textlayer = [sys.executable, "-m", "pytest_textlayer", "check"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        pdfs = args.pdfs
        if not pdfs:
            # Built by a child: a child forked from a parent that built it with reportlab
            # starts with the parent's memory, and its peak would count it.
            pdfs = [Path(tmp) / f"long-{args.kind}.pdf"]
            subprocess.run([sys.executable, __file__, "--kind", args.kind, "--pages",
                            str(args.pages), "--build-only", str(pdfs[0])], check=True)
        alone = {**env, "TEXTLAYER_PAGE_HELPER": "0"}
        for pdf in pdfs:
            ref_t, ref_c, ref_m = best([pdftotext, "-q", str(pdf), os.devnull], args.repeat)
            print(f"{pdf.name}: pdftotext {ref_t:.3f}s wall {ref_c:.3f}s cpu "
                  f"{ref_m / 1024:.0f} MiB")
            for label, how in (("textlayer check", env), ("in one process", alone)):
                our_t, our_c, our_m = best([*textlayer, str(pdf)], args.repeat, how)
                print(f"  {label:<17} {our_t:.3f}s wall {our_c:.3f}s cpu {our_m / 1024:.0f} MiB"
                      f" | ratio {our_t / ref_t:.2f}x wall, {our_c / max(ref_c, 1e-3):.2f}x cpu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
