#!/usr/bin/env python3
"""Corpus-scale figures: documents per second per core, and an interrupted run resumed.

    python benchmarks/corpus_rate.py rate   [--files 2000] [-j 2]
    python benchmarks/corpus_rate.py resume [--files 2000] [-j 2]
    python benchmarks/corpus_rate.py pytest [--files 800]  [-n 2]

`rate` builds a tree of small generated PDFs (every generator family, copied
round-robin into nested folders of a temporary directory) and times
`textlayer check -j N --jsonl`; it prints documents/s and documents/s/core.

`resume` runs the same check, interrupts it (SIGINT) once half the files are
in the JSON Lines file, resumes with `--resume`, and verifies that every file
is reported exactly once and that the second run checked only the rest.

`pytest` copies the real third-party corpus (/work/shared/corpus/real, or
--real DIR) into a temporary folder until it holds --files PDFs, then times
`pytest --textlayer DIR -n 2 -p no:cacheprovider` and `textlayer check -j 2`
on the same folder. Nothing is written inside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
TEXTLAYER = str(BIN / "textlayer") if (BIN / "textlayer").exists() else "textlayer"
REAL = Path("/work/shared/corpus/real")


def build_tree(root: Path, files: int, sources: list[Path], per_folder: int = 100) -> list[Path]:
    """`files` PDFs copied round-robin from `sources` into root/dNNN/ folders."""
    made = []
    for i in range(files):
        src = sources[i % len(sources)]
        folder = root / f"d{i // per_folder:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        dst = folder / f"{i:05d}-{src.name}"
        shutil.copyfile(src, dst)
        made.append(dst)
    return made


def generated_sources(folder: Path) -> list[Path]:
    from pytest_textlayer.generators import FAMILIES, generate

    folder.mkdir(parents=True, exist_ok=True)
    return [generate(name).write(folder / f"{name}.pdf") for name in FAMILIES]


def count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def run_rate(args: argparse.Namespace, tmp: Path) -> None:
    tree = tmp / "tree"
    build_tree(tree, args.files, generated_sources(tmp / "src"))
    out = tmp / "run.jsonl"
    start = time.monotonic()
    done = subprocess.run([TEXTLAYER, "check", str(tree), "-j", str(args.jobs), "--jsonl",
                           str(out)], capture_output=True, text=True)
    elapsed = time.monotonic() - start
    lines = count_lines(out)
    rate = lines / elapsed
    print(f"rate: {lines} generated PDFs, -j {args.jobs}: {elapsed:.1f} s, {rate:.0f} docs/s, "
          f"{rate / args.jobs:.0f} docs/s/core (exit {done.returncode})")


def run_resume(args: argparse.Namespace, tmp: Path) -> int:
    tree = tmp / "tree"
    paths = build_tree(tree, args.files, generated_sources(tmp / "src"))
    out = tmp / "run.jsonl"
    cmd = [TEXTLAYER, "check", str(tree), "-j", str(args.jobs)]
    start = time.monotonic()
    first = subprocess.Popen([*cmd, "--jsonl", str(out)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    while count_lines(out) < args.files // 2 and first.poll() is None:
        time.sleep(0.01)
    first.send_signal(signal.SIGINT)
    _, err = first.communicate()
    t1 = time.monotonic() - start
    after_first = count_lines(out)
    start = time.monotonic()
    second = subprocess.run([*cmd, "--resume", str(out)], capture_output=True, text=True)
    t2 = time.monotonic() - start
    records = [json.loads(line) for line in out.read_text().splitlines()]
    seen = [r["path"] for r in records]
    expected = {str(p) for p in paths}
    ok = (first.returncode == 130 and len(seen) == len(set(seen)) == len(paths)
          and set(seen) == expected)
    print(f"resume: {args.files} files, -j {args.jobs}; first run interrupted after {t1:.1f} s "
          f"with {after_first} documents written (exit {first.returncode}, {err.strip()!r}); "
          f"resumed run checked {len(seen) - after_first} more in {t2:.1f} s "
          f"(exit {second.returncode}); every file exactly once: {ok}")
    return 0 if ok else 1


def run_pytest(args: argparse.Namespace, tmp: Path) -> None:
    real = sorted(Path(args.real).glob("*.pdf"))
    if not real:
        sys.exit(f"no PDFs in {args.real}")
    folder = tmp / "real"
    build_tree(folder, args.files, real)
    pages = 0
    start = time.monotonic()
    test = subprocess.run([str(BIN / "python"), "-m", "pytest", "--textlayer", str(folder), "-n",
                           str(args.jobs), "-p", "no:cacheprovider", "-q", "--rootdir", str(tmp)],
                          capture_output=True, text=True, cwd=tmp)
    t_pytest = time.monotonic() - start
    start = time.monotonic()
    check = subprocess.run([TEXTLAYER, "check", "--json", str(folder), "-j", str(args.jobs)],
                           capture_output=True, text=True)
    t_check = time.monotonic() - start
    docs = json.loads(check.stdout)["documents"]
    pages = sum(len(d["pages"]) for d in docs)
    tail = test.stdout.strip().splitlines()[-1] if test.stdout.strip() else test.stderr[-200:]
    print(f"pytest --textlayer: {args.files} real PDFs ({pages} pages), -n {args.jobs}: "
          f"{t_pytest:.1f} s ({args.files / t_pytest:.0f} files/s) — {tail}")
    print(f"textlayer check -j {args.jobs}: same folder: {t_check:.1f} s "
          f"({args.files / t_check:.0f} files/s, {pages / t_check:.0f} pages/s, "
          f"{args.files / t_check / args.jobs:.0f} files/s/core)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("rate", "resume", "pytest"))
    ap.add_argument("--files", type=int)
    ap.add_argument("-j", "-n", "--jobs", type=int, default=2)
    ap.add_argument("--real", default=str(REAL))
    args = ap.parse_args()
    args.files = args.files or (800 if args.mode == "pytest" else 2000)
    with tempfile.TemporaryDirectory(prefix="textlayer-bench-") as tmp:
        if args.mode == "rate":
            run_rate(args, Path(tmp))
        elif args.mode == "resume":
            return run_resume(args, Path(tmp))
        else:
            run_pytest(args, Path(tmp))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
