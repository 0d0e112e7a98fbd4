"""Pair counts kept as sorted arrays must read back exactly as the mapping they were built from."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_textlayer.lang.langmodel import reference_model
from pytest_textlayer.lang.onelanguage import LanguageModel, PairCounts

_symbol = st.characters(min_codepoint=1, max_codepoint=0x10FFFF, exclude_categories=("Cs",))
_pairs = st.dictionaries(st.text(_symbol, min_size=2, max_size=2),
                         st.floats(min_value=0.0, max_value=1e6), max_size=60)


@given(_pairs, st.text(_symbol, min_size=0, max_size=3))
def test_pair_counts_read_back_as_the_mapping_they_were_built_from(
        pairs: dict[str, float], probe: str) -> None:
    counts = PairCounts(pairs)
    assert len(counts) == len(pairs)
    assert list(counts) == sorted(pairs)
    assert list(counts.items()) == sorted(pairs.items())
    assert counts == pairs
    assert (probe in counts) == (probe in pairs)
    assert counts.get(probe, -1.0) == pairs.get(probe, -1.0)
    for key, n in pairs.items():
        assert counts[key] == n
    starts: dict[str, float] = {}
    for key, n in pairs.items():
        starts[key[0]] = starts.get(key[0], 0.0) + n
    assert counts.first_totals() == pytest.approx(starts)
    again = pickle.loads(pickle.dumps(counts))
    assert isinstance(again, PairCounts) and again == pairs


def test_a_missing_pair_is_a_key_error() -> None:
    counts = PairCounts({"ab": 1.0})
    with pytest.raises(KeyError):
        counts["ba"]
    assert 3 not in counts  # type: ignore[operator]


def test_keys_that_are_not_two_symbols_are_refused() -> None:
    with pytest.raises(ValueError, match="two symbols"):
        PairCounts({"abc": 1.0})


def test_a_language_model_keeps_its_pairs_compact_and_judges_as_before() -> None:
    plain = {"th": 5.0, "he": 4.0, "e ": 6.0, " t": 3.0, "an": 2.0, "nd": 2.0, "d ": 2.0}
    model = LanguageModel("xx", dict(plain), threshold=-3.0)
    assert isinstance(model.pairs, PairCounts) and model.pairs == plain
    rebuilt = LanguageModel("xx", PairCounts(plain), threshold=-3.0)
    for a, b in ("th", "hx", "q ", "  "):
        assert rebuilt.logprob(a, b) == model.logprob(a, b)


def test_the_reference_languages_hold_compact_pairs() -> None:
    model = reference_model()
    assert all(isinstance(lm.pairs, PairCounts) and len(lm.pairs) > 0
               for lm in model.languages.values())


@given(st.lists(st.text(_symbol, min_size=2, max_size=2), min_size=1, max_size=40))
def test_log_probabilities_learned_in_one_loop_are_logprob_exactly(keys: list[str]) -> None:
    model = reference_model()
    for lm in (model.languages["en"], model.languages["ru"], model.languages["zh-cn"]):
        lm.lp.clear()
        counts = list(range(1, len(keys) + 1))
        expected = sum(n * lm.logprob(key[0], key[1]) for key, n in zip(keys, counts, strict=True))
        assert lm.total(keys, counts) == expected
        assert all(lm.lp[key] == lm.logprob(key[0], key[1]) for key in keys)
