#!/usr/bin/env python3
"""`textlayer check` against pdftotext and PDFium on real documents, per kind and overall.

    python benchmarks/check_real_vs_pdftotext.py [--pairs 5] [--max-pages 200]
                                                 [--kind NAME ...] [--keep DIR]

The synthetic benchmark (check_vs_pdftotext.py: one font, dense prose) says
little about documents with many fonts, CID-keyed CJK fonts, Form XObjects
and images. This one builds one long document per kind of real PDF, so the
cost per page is measured with the fonts and streams real producers write:

* ``manuals``: the PDF manuals Debian packages ship (``/usr/share/doc``);
* ``dev``: the labelled development corpus (``../shared/corpus/real``):
  office, TeX, slides, forms, CJK, right-to-left, several producers;
* ``camelot``, ``pdfcpu``, ``qpdf``, ``pikepdf``: the wild corpus
  (``../shared/corpus/wild``), by the project whose test suite holds them:
  reports and tables, PDF 2.0 and form files, hand-made edge cases.

Each kind's files are joined with ``qpdf --empty --pages`` (files qpdf cannot
join are left out), up to --max-pages pages, into a temporary folder; nothing
is copied into the repository. A kind whose source is absent is skipped with
a message.

Last, ``mixed`` joins an equal share of every kind's pages into one document
of about --max-pages pages: one process then pays its start-up once for many
kinds, as a user's long document does, where the overall line pays it once a
kind. It is reported on its own, not added to the overall line.

Every command runs as its own process; the commands of one kind take turns
(A B C D, A B C D, ...) after one warm-up round, so a ratio compares runs
made at the same moment on a shared machine. Printed per kind and overall:
the median wall and CPU time of each command, the median of the paired
ratios to pdftotext, and the peak resident memory (wait4's, the largest of
the process and its children). ``check`` is `textlayer check` as installed
(one worker; the page helper on a long document when a second core is
free), ``one process`` the same with TEXTLAYER_PAGE_HELPER=0, and
``pdfium`` extracts every page's text through pypdfium2 in a fresh Python
process (its start-up counted, as ours is).
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpus"
WILD_PROJECTS = ("camelot", "pdfcpu", "qpdf", "pikepdf")
PDFIUM_SCRIPT = (
    "import sys, pypdfium2 as p\n"
    "d = p.PdfDocument(sys.argv[1])\n"
    "for i in range(len(d)):\n"
    "    pg = d[i]; tp = pg.get_textpage(); tp.get_text_range(); tp.close(); pg.close()\n"
)


def sources() -> dict[str, list[Path]]:
    """The input files of each kind (empty when the folder is absent)."""
    kinds: dict[str, list[Path]] = {}
    docs = Path("/usr/share/doc")
    kinds["manuals"] = sorted(docs.rglob("*.pdf")) if docs.is_dir() else []
    real = SHARED / "real"
    kinds["dev"] = sorted(real.glob("*.pdf")) if real.is_dir() else []
    wild = SHARED / "wild"
    for project in WILD_PROJECTS:
        kinds[project] = sorted(wild.glob(f"{project}__*.pdf")) if wild.is_dir() else []
    return kinds


def page_count(path: Path) -> int | None:
    """Pages qpdf sees in `path`, or None when qpdf cannot read it cleanly enough to join."""
    found = subprocess.run(["qpdf", "--show-npages", str(path)], capture_output=True, text=True)
    if found.returncode not in (0, 3):  # 3: warnings only
        return None
    try:
        return int(found.stdout.split()[0])
    except (IndexError, ValueError):
        return None


def build_kind(files: list[Path], out: Path, max_pages: int) -> int:
    """Join `files` into `out` up to `max_pages` pages; the number of pages written (0: none)."""
    chosen: list[str] = []
    total = 0
    for path in files:
        pages = page_count(path)
        if not pages:
            continue
        take = min(pages, max_pages - total)
        chosen += [str(path), f"1-{take}"]
        total += take
        if total >= max_pages:
            break
    if not chosen:
        return 0
    cmd = ["qpdf", "--warning-exit-0", "--no-warn", "--empty", "--pages", *chosen, "--", str(out)]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        # One file qpdf reads but cannot join spoils the whole call: join them one at a time.
        total = _build_one_by_one(chosen, out)
    return total


def build_mixed(kinds: list[tuple[Path, int]], out: Path, max_pages: int) -> int:
    """Join an equal share of each built kind document (path, pages) into `out`."""
    share = max(1, max_pages // max(1, len(kinds)))
    chosen: list[str] = []
    for path, pages in kinds:
        chosen += [str(path), f"1-{min(pages, share)}"]
    cmd = ["qpdf", "--warning-exit-0", "--no-warn", "--empty", "--pages", *chosen, "--", str(out)]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        return _build_one_by_one(chosen, out)
    return sum(min(pages, share) for _, pages in kinds)


def _build_one_by_one(chosen: list[str], out: Path) -> int:
    total = 0
    pairs = list(zip(chosen[::2], chosen[1::2], strict=True))
    for name, pages in pairs:
        trial = out.with_suffix(".try.pdf")
        base = [str(out), "--pages", str(out), "1-z"] if out.exists() else ["--empty", "--pages"]
        cmd = ["qpdf", "--warning-exit-0", "--no-warn", *base, name, pages, "--", str(trial)]
        if subprocess.run(cmd, capture_output=True).returncode == 0:
            trial.replace(out)
            total += int(pages.split("-")[1])
    return total


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, children included) and peak RSS (KiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed with status {code}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def commands(pdf: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    check = [sys.executable, "-m", "pytest_textlayer", "check", str(pdf)]
    pdftotext = shutil.which("pdftotext") or "pdftotext"
    return {
        "pdftotext": ([pdftotext, "-q", str(pdf), os.devnull], env),
        "pdfium": ([sys.executable, "-c", PDFIUM_SCRIPT, str(pdf)], env),
        "check": (check, env),
        "one process": (check, {**env, "TEXTLAYER_PAGE_HELPER": "0"}),
    }


Runs = dict[str, list[tuple[float, float, int]]]


def measure(pdf: Path, pairs: int) -> Runs:
    cmds = commands(pdf)
    for cmd, env in cmds.values():  # warm-up: page cache, bytecode cache
        run(cmd, env)
    runs: Runs = {name: [] for name in cmds}
    for _ in range(pairs):
        for name, (cmd, env) in cmds.items():
            runs[name].append(run(cmd, env))
    return runs


def report(label: str, pages: int, runs: Runs) -> None:
    ref = runs["pdftotext"]
    print(f"{label} ({pages} pages)")
    for name, got in runs.items():
        wall = statistics.median(r[0] for r in got)
        cpu = statistics.median(r[1] for r in got)
        peak = max(r[2] for r in got) / 1024
        line = f"  {name:<12} {wall:7.3f}s wall {cpu:7.3f}s cpu {peak:5.0f} MiB"
        if name != "pdftotext":
            rw = statistics.median(a[0] / b[0] for a, b in zip(got, ref, strict=True))
            rc = statistics.median(a[1] / max(b[1], 1e-3) for a, b in zip(got, ref, strict=True))
            line += f" | {rw:5.2f}x wall {rc:5.2f}x cpu"
        print(line, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=5, help="rounds of paired runs (default 5)")
    ap.add_argument("--max-pages", type=int, default=200, help="pages per kind (default 200)")
    ap.add_argument("--kind", action="append", help="only these kinds (repeatable)")
    ap.add_argument("--keep", type=Path, help="build the documents here and keep them")
    args = ap.parse_args()
    for tool in ("qpdf", "pdftotext"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is missing: apt-get install qpdf poppler-utils")
    # An installed package has its bytecode; a checkout run with PYTHONDONTWRITEBYTECODE=1
    # would compile every changed module again in every timed run.
    compileall.compile_dir(ROOT / "pytest_textlayer", quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        totals: Runs = {}
        total_pages = 0
        built: list[tuple[Path, int]] = []
        for kind, files in sources().items():
            if args.kind and kind not in args.kind:
                continue
            if not files:
                print(f"{kind}: skipped, no source files found")
                continue
            pdf = folder / f"{kind}.pdf"
            pdf.unlink(missing_ok=True)
            pages = build_kind(files, pdf, args.max_pages)
            if not pages:
                print(f"{kind}: skipped, qpdf could join none of {len(files)} files")
                continue
            built.append((pdf, pages))
            runs = measure(pdf, args.pairs)
            report(f"{kind}: {len(files)} source files", pages, runs)
            total_pages += pages
            for name, got in runs.items():
                old = totals.setdefault(name, [(0.0, 0.0, 0)] * len(got))
                totals[name] = [(a[0] + b[0], a[1] + b[1], max(a[2], b[2]))
                                for a, b in zip(old, got, strict=True)]
        if totals:
            report("overall: every kind, pair by pair", total_pages, totals)
        if len(built) > 1:
            mixed = folder / "mixed.pdf"
            mixed.unlink(missing_ok=True)
            pages = build_mixed(built, mixed, args.max_pages)
            if pages:
                report(f"mixed: an equal share of {len(built)} kinds in one document", pages,
                       measure(mixed, args.pairs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
