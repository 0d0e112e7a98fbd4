#!/usr/bin/env python3
"""The classifier on real PDFs broken on purpose: recall per breaker, false alarms, every miss.

    python benchmarks/broken_real.py [CORPUS] [--breakers shift,sever] [--select all,main,minor]
                                     [--limit N] [--json FILE]

CORPUS is a folder of real third-party PDFs with a MANIFEST.tsv (columns
``file``, ``pages``, ``label``; labels like ``readable`` or
``1-2:readable;3:shifted``), by default ``../shared/corpus/real`` beside the
repository. Only pages labelled readable are used: their text in the
original is the truth. Every breaker of :mod:`pytest_textlayer.generators.breakers`
that changes at least one glyph of the file is applied, to all its fonts
(``all``), to the font drawing the most glyphs (``main``: the body, with the
headings intact) and to the one drawing the fewest (``minor``: a heading or
a footer, where the 10 % rule decides), and the broken copy is classified.
A selection that gives the same bytes as an earlier one is counted once.

Reported per breaker and selection:

* recall: broken pages (more than 10 % of their glyphs changed) called not OK;
* exact: broken pages given the breaker's own verdict;
* false alarms: pages of the copy the breaker left readable (untouched, or
  under 10 %) called not OK, beside the false alarms on the originals;
* every miss with file, page, verdict, share of glyphs broken and evidence.

Broken copies live in memory and, when written (``--keep``), only in a
temporary folder: nothing built from the corpus enters the repository.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "real"


def readable_pages(label: str, pages: int) -> set[int]:
    """1-based pages a MANIFEST label calls readable (``readable`` alone means all of them)."""
    label = label.strip()
    if ":" not in label:
        return set(range(1, pages + 1)) if label == "readable" else set()
    out: set[int] = set()
    for part in label.split(";"):
        span, _, verdict = part.partition(":")
        if verdict.strip() != "readable":
            continue
        for piece in span.split(","):
            lo, _, hi = piece.partition("-")
            out.update(range(int(lo), int(hi or lo) + 1))
    return out


def manifest(corpus: Path) -> list[tuple[Path, set[int]]]:
    """(PDF path, readable pages) for every file of the corpus with at least one readable page."""
    path = corpus / "MANIFEST.tsv"
    if not path.exists():
        raise SystemExit(f"{path}: no MANIFEST.tsv (pass the corpus folder)")
    out = []
    with path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            pages = readable_pages(row["label"], int(row["pages"]))
            pdf = corpus / row["file"]
            if pages and pdf.exists():
                out.append((pdf, pages))
    return out


@dataclass
class Case:
    """One broken copy of one corpus file."""

    file: Path
    breaker: str
    select: str
    variant: Any  # pytest_textlayer.generators.breakers.Variant
    readable: set[int]


def variants(
    corpus: Path, breakers: list[str], selects: list[str], limit: int | None = None
) -> Iterator[Case]:
    """Every applicable (file, breaker, selection) of the corpus, truth extracted once per file."""
    from pytest_textlayer.generators.breakers import break_pdf, pdfium_pages, poppler_pages

    for pdf, pages in manifest(corpus)[:limit]:
        data = pdf.read_bytes()
        truth, truth_pdfium = poppler_pages(data), pdfium_pages(data)
        seen: set[bytes] = set()
        for breaker in breakers:
            for select in selects:
                v = break_pdf(data, breaker, select=select, name=pdf.name, truth=truth,
                              truth_pdfium=truth_pdfium)
                if not v.applies or v.pdf in seen:  # one font: main and minor are all
                    continue
                seen.add(v.pdf)
                yield Case(pdf, breaker, select, v, pages)


@dataclass
class Tally:
    variants: int = 0
    broken: int = 0
    caught: int = 0
    exact: int = 0
    untouched: int = 0
    alarms: int = 0
    seconds: float = 0.0
    verdicts: dict[str, int] = field(default_factory=dict)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from pytest_textlayer import classify
    from pytest_textlayer.generators.breakers import BREAKERS

    corpus = Path(args.corpus)
    breakers = args.breakers.split(",") if args.breakers else list(BREAKERS)
    selects = args.select.split(",")
    tallies: dict[tuple[str, str], Tally] = {}
    misses: list[dict[str, Any]] = []
    alarms: list[dict[str, Any]] = []
    original_alarms: list[dict[str, Any]] = []
    originals: dict[Path, Any] = {}
    keep = Path(tempfile.mkdtemp(prefix="broken-real-")) if args.keep else None
    for case in variants(corpus, breakers, selects, args.limit):
        if case.file not in originals:
            report = classify(case.file)
            originals[case.file] = report
            for page in report.pages:
                if page.number in case.readable and not page.ok:
                    original_alarms.append({"file": case.file.name, "page": page.number,
                                            "verdict": page.verdict.value,
                                            "evidence": list(page.evidence[:2])})
        start = time.perf_counter()
        name = f"{case.file.stem}.{case.breaker}.{case.select}.pdf"
        report = classify(case.variant.pdf, name=name)
        tally = tallies.setdefault((case.breaker, case.select), Tally())
        tally.seconds += time.perf_counter() - start
        tally.variants += 1
        if keep is not None:
            (keep / name).write_bytes(case.variant.pdf)
        before = {p.number: p.ok for p in originals[case.file].pages}
        for page, truth in zip(report.pages, case.variant.pages, strict=True):
            if page.number not in case.readable:
                continue
            row = {"file": case.file.name, "page": page.number, "breaker": case.breaker,
                   "select": case.select, "expected": truth.expected.value,
                   "share": round(truth.share, 3), "verdict": page.verdict.value,
                   "decided_by": page.decided_by, "evidence": list(page.evidence[:2])}
            if truth.expected.value != "readable":
                tally.broken += 1
                tally.verdicts[page.verdict.value] = tally.verdicts.get(page.verdict.value, 0) + 1
                if not page.ok:
                    tally.caught += 1
                    tally.exact += page.verdict is truth.expected
                else:
                    misses.append(row)
            else:
                tally.untouched += 1
                if not page.ok and before.get(page.number, True):
                    tally.alarms += 1
                    alarms.append(row)
    print(f"corpus: {corpus} ({len(originals)} files with readable pages)")
    print(f"{'breaker':<15}{'select':<7}{'copies':>7}{'broken':>7}{'recall':>8}{'exact':>8}"
          f"{'intact':>7}{'alarms':>7}{'ms/copy':>9}  verdicts of broken pages")
    total = Tally()
    for (breaker, select), t in sorted(tallies.items()):
        recall = t.caught / t.broken if t.broken else float("nan")
        exact = t.exact / t.broken if t.broken else float("nan")
        spread = ", ".join(f"{k} {v}" for k, v in sorted(t.verdicts.items()))
        print(f"{breaker:<15}{select:<7}{t.variants:>7}{t.broken:>7}{recall:>8.1%}{exact:>8.1%}"
              f"{t.untouched:>7}{t.alarms:>7}{1000 * t.seconds / max(t.variants, 1):>9.0f}  "
              f"{spread}")
        for name in ("variants", "broken", "caught", "exact", "untouched", "alarms"):
            setattr(total, name, getattr(total, name) + getattr(t, name))
    if total.broken:
        print(f"{'all':<22}{total.variants:>7}{total.broken:>7}{total.caught / total.broken:>8.1%}"
              f"{total.exact / total.broken:>8.1%}{total.untouched:>7}{total.alarms:>7}")
    print(f"\nfalse alarms on the originals (pages labelled readable, not OK): "
          f"{len(original_alarms)}")
    for a in original_alarms:
        print(f"  {a['file']} p{a['page']}: {a['verdict']} | {' / '.join(a['evidence'])[:160]}")
    print(f"\nmisses (broken page called OK): {len(misses)}")
    for m in misses:
        print(f"  {m['file']} p{m['page']} {m['breaker']}/{m['select']} "
              f"({m['share']:.0%} of glyphs broken, expected {m['expected']}): {m['verdict']} "
              f"by {m['decided_by'] or '?'} | {' / '.join(m['evidence'])[:160]}")
    print(f"\nfalse alarms on pages the breaker left readable: {len(alarms)}")
    for a in alarms:
        print(f"  {a['file']} p{a['page']} {a['breaker']}/{a['select']} "
              f"({a['share']:.0%} broken): {a['verdict']} | {' / '.join(a['evidence'])[:160]}")
    if keep is not None:
        print(f"\nbroken copies kept in {keep}")
    result = {
        "tallies": {f"{b}/{s}": vars(t) for (b, s), t in sorted(tallies.items())},
        "misses": misses, "alarms": alarms, "original_alarms": original_alarms,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    parser.add_argument("--breakers", default="", help="comma list (default: all)")
    parser.add_argument("--select", default="all,main,minor", help="all,main,minor")
    parser.add_argument("--limit", type=int, default=None, help="first N files")
    parser.add_argument("--keep", action="store_true", help="write the copies to a temp folder")
    parser.add_argument("--json", default="", help="write the figures and misses to FILE")
    args = parser.parse_args(argv)
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
