"""A quick fuzz budget in every test run; `benchmarks/fuzz.py` is the long run.

Hypothesis picks a seed PDF (generator fixtures, and small real PDFs when the
shared corpus is present), one to three attacks and their randomness; the
mutated file goes through the same guarded worker as `textlayer check`.
Whatever comes in must end in a report or a one-line error: never a
traceback, never a crashed reader, never past the time limit.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from _paths import REAL_CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_textlayer.generators.fuzz import MUTATIONS, mutate, seed_pdfs
from pytest_textlayer.run.limits import MIB, Limits
from pytest_textlayer.run.workers import INPUT, REPORT, TIMEOUT, run_guarded
from pytest_textlayer.settings import CheckSettings

REAL = REAL_CORPUS
if not REAL.is_dir():
    REAL = Path("/work/shared/corpus/real")
SEEDS = seed_pdfs(str(REAL) if REAL.is_dir() else None, max_real_bytes=60_000)
#: Examples per run; FUZZ_EXAMPLES raises it locally without editing the test.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
#: Generous: the budget is for catching hangs, not for timing a loaded CI machine.
LIMITS = Limits(timeout=60, max_memory=1024 * MIB)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, len(SEEDS) - 1),
       attacks=st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3, unique=True),
       salt=st.integers(0, 2**32 - 1))
def test_mutated_pdfs_end_in_a_report_or_one_line(seed: int, attacks: list[str],
                                                  salt: int) -> None:
    name, data = SEEDS[seed]
    _, hostile = mutate(data, random.Random(salt), attacks)
    [outcome] = run_guarded([(hostile, f"{name}+{'+'.join(attacks)}")], CheckSettings(),
                            limits=LIMITS)
    # A timeout is the limit doing its job; it is still one line, never a hang.
    assert outcome.kind in (REPORT, INPUT, TIMEOUT), (outcome.report.error, outcome.detail)
    error = outcome.report.error
    if error is not None:
        assert "\n" not in error and len(error) < 400
        assert outcome.report.pages == ()
    else:
        assert outcome.report.pages


def test_seeds_cover_generators_and_parse() -> None:
    import io

    import pikepdf

    assert len(SEEDS) >= 16
    for name, data in SEEDS:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            assert len(pdf.pages) >= 1, name


@pytest.mark.parametrize("attack", sorted(MUTATIONS))
def test_every_attack_changes_some_seed(attack: str) -> None:
    """An attack that never changes anything would fuzz nothing."""
    rng = random.Random(7)
    changed = sum(mutate(data, rng, [attack])[1] != data for _, data in SEEDS[:16])
    assert changed >= 4
