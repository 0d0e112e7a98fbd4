"""The classifier against real third-party PDFs, labelled page by page.

The corpus lives outside the repository (`../shared/corpus/real`, or
`TEXTLAYER_REAL_CORPUS`); these tests skip when it is absent. The figures are
the project's targets: at least 99 % of broken pages flagged, at most 1 % of
readable pages flagged. Pages whose accepted verdicts disagree on OK-ness
count for neither figure, as in the project's scorer.
"""

from __future__ import annotations

import csv
import re

import pytest
from _paths import REAL_CORPUS

from pytest_textlayer import classify

ROOT = REAL_CORPUS
OK = {"readable", "blank"}

pytestmark = pytest.mark.skipif(not (ROOT / "MANIFEST.tsv").exists(),
                                reason=f"real corpus not found at {ROOT}")


def _labels(spec: str, pages: int) -> list[str]:
    if ":" not in spec:
        return [spec] * pages
    out = [""] * pages
    for part in spec.split(";"):
        span, label = part.split(":")
        lo, _, hi = span.partition("-")
        for n in range(int(lo), int(hi or lo) + 1):
            out[n - 1] = label
    return out


@pytest.fixture(scope="module")
def outcomes() -> list[tuple[str, int, str, str | None, str]]:
    """(file, page, label, alt, verdict) for every labelled page."""
    with (ROOT / "MANIFEST.tsv").open(newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    found = []
    for row in rows:
        alt_match = re.search(r"alt=(\w+)", row["notes"])
        alt = alt_match.group(1) if alt_match else None
        report = classify(ROOT / row["file"])
        assert report.error is None, f"{row['file']}: {report.error}"
        verdicts = [p.verdict.value for p in report.pages]
        for n, label in enumerate(_labels(row["label"], int(row["pages"])), 1):
            found.append((row["file"], n, label, alt, verdicts[n - 1]))
    return found


def test_broken_pages_are_flagged(outcomes: list[tuple[str, int, str, str | None, str]]) -> None:
    counted = [o for o in outcomes if o[2] not in OK and not (o[3] and o[3] in OK)]
    missed = [f"{f} p{n}: {label} -> {got}" for f, n, label, _, got in counted if got in OK]
    recall = 1 - len(missed) / len(counted)
    assert recall >= 0.99, "\n".join(missed)


def test_readable_pages_are_not_flagged(
    outcomes: list[tuple[str, int, str, str | None, str]],
) -> None:
    counted = [o for o in outcomes if o[2] in OK and not (o[3] and o[3] not in OK)]
    alarms = [f"{f} p{n}: {label} -> {got}" for f, n, label, _, got in counted if got not in OK]
    assert len(alarms) / len(counted) <= 0.01, "\n".join(alarms)


def test_exact_verdicts_for_unambiguous_families(
    outcomes: list[tuple[str, int, str, str | None, str]],
) -> None:
    """Scans are absent and empty pages blank: no judgement is involved in those labels."""
    wrong = [f"{f} p{n}: {label} -> {got}" for f, n, label, alt, got in outcomes
             if label in ("absent", "blank") and got not in (label, alt)]
    assert not wrong, "\n".join(wrong)
