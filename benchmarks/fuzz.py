#!/usr/bin/env python3
"""Long mutation-fuzz run of `textlayer check`: how many hostile inputs, how many failed.

    python benchmarks/fuzz.py [--count 5000] [--seconds 0] [--seed 1] [-j 2]
                              [--timeout 10] [--max-memory 1024] [--real DIR ...] [--slow]
                              [--save DIR]

Seeds are one fixture of every generator family plus the PDFs under 120 kB of
each --real folder (repeatable; default: the labelled real corpus and the
wild corpus of other projects' test suites beside the checkout, those present).
Each case applies one to three mutations of `pytest_textlayer.generators.fuzz` and runs
through the same guarded workers as `textlayer check`, under the given limits.

Every case must end in a report or a one-line error. Printed at the end:
inputs run, crashes (a reader died, or an exception of ours: a traceback),
hangs (the time limit fired), memory-limit refusals, multi-line errors, and
the peak resident memory of any worker. --save DIR writes each failing input
and its traceback there, for a bug report. Exit 1 when anything failed.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from pytest_textlayer.generators.fuzz import MUTATIONS, SLOW_MUTATIONS, mutate, seed_pdfs
from pytest_textlayer.run.limits import MIB, Limits
from pytest_textlayer.run.workers import CRASHED, INTERNAL, MEMORY, TIMEOUT, run_guarded
from pytest_textlayer.settings import CheckSettings

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpus"
REAL_SEEDS = [str(CORPORA / name) for name in ("real", "wild") if (CORPORA / name).is_dir()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=2000, help="inputs to run (default 2000)")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long instead")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds per document; longer counts as a hang (default 30)")
    ap.add_argument("--slow-after", type=float, default=5.0,
                    help="count inputs slower than this as slow (default 5 s)")
    ap.add_argument("--max-memory", type=int, default=1024, help="MiB per worker")
    ap.add_argument("--real", action="append", metavar="DIR",
                    help="a folder of real seed PDFs (repeatable)")
    ap.add_argument("--slow", action="store_true", help="include decompression bombs")
    ap.add_argument("--save", type=Path, help="write failing inputs here")
    args = ap.parse_args()

    seeds = seed_pdfs(args.real or REAL_SEEDS)
    names = list(MUTATIONS) + (list(SLOW_MUTATIONS) if args.slow else [])
    rng = random.Random(args.seed)
    cases: dict[int, tuple[str, list[str], bytes]] = {}
    deadline = time.monotonic() + args.seconds if args.seconds else None

    def generate() -> Iterator[tuple[bytes, str]]:
        n = 0
        while (deadline is None and n < args.count) or (
                deadline is not None and time.monotonic() < deadline):
            seed_name, seed = seeds[rng.randrange(len(seeds))]
            applied, data = mutate(seed, rng, names)
            cases[n] = (seed_name, applied, data)
            yield data, f"case{n}"
            n += 1

    limits = Limits(timeout=args.timeout, max_memory=args.max_memory * MIB)
    counts: collections.Counter[str] = collections.Counter()
    by_mutation: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    peak = 0
    slowest = (0.0, "")
    slow: list[str] = []
    start = time.monotonic()
    for outcome in run_guarded(generate(), CheckSettings(), jobs=args.jobs, limits=limits):
        seed_name, applied, data = cases.pop(outcome.index)
        counts[outcome.kind] += 1
        peak = max(peak, outcome.peak_rss)
        if outcome.seconds > args.slow_after and outcome.kind != TIMEOUT:
            slow.append(f"case{outcome.index} {outcome.seconds:.1f} s {seed_name} "
                        f"{'+'.join(applied)}")
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"slow{outcome.index}.pdf").write_bytes(data)
        if outcome.seconds > slowest[0]:
            slowest = (outcome.seconds, f"{seed_name} {'+'.join(applied)}")
        error = outcome.report.error or ""
        multiline = "\n" in error
        counts["multiline"] += multiline
        if outcome.kind in (CRASHED, INTERNAL, TIMEOUT) or multiline:
            for name in applied:
                by_mutation[name] += 1
            line = f"case{outcome.index} [{outcome.kind}] {seed_name} {'+'.join(applied)}: {error}"
            failures.append(line)
            print(line, file=sys.stderr)
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"case{outcome.index}.pdf").write_bytes(data)
                (args.save / f"case{outcome.index}.txt").write_text(
                    f"{line}\n{outcome.detail}", encoding="utf-8")
    elapsed = time.monotonic() - start
    total = sum(v for k, v in counts.items() if k != "multiline")
    crashes = counts[CRASHED] + counts[INTERNAL]
    print(f"fuzz: {total} inputs from {len(seeds)} seeds in {elapsed:.1f} s "
          f"({total / max(elapsed, 1e-9):.1f}/s, -j {args.jobs})")
    print(f"  ended in a report: {counts['report']}, one-line input error: {counts['input']}")
    print(f"  crashes: {crashes} (reader died {counts[CRASHED]}, traceback {counts[INTERNAL]})")
    print(f"  hangs (over {args.timeout:g} s): {counts[TIMEOUT]}")
    print(f"  slow (over {args.slow_after:g} s, finished): {len(slow)}"
          + (f", e.g. {slow[0]}" if slow else ""))
    print(f"  memory-limit refusals (cap {args.max_memory} MiB): {counts[MEMORY]}")
    print(f"  multi-line errors: {counts['multiline']}")
    print(f"  peak worker memory: {peak / MIB:.0f} MiB; slowest input {slowest[0]:.2f} s "
          f"({slowest[1]})")
    if by_mutation:
        print("  failures by mutation: " + ", ".join(f"{k} {v}" for k, v in
                                                    by_mutation.most_common()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
