"""One language's letter pairs: their counts, smoothed probabilities and threshold.

A language of the built-in reference, or the pages a model was fitted on,
is a table of letter-pair counts; :mod:`.langmodel` puts languages together
into a model and judges text with it. Here one table scores pairs. A letter
the language has (almost) never seen becomes the *unseen-letter class of its
script* (``<CYRILLIC>``, ``<HAN>``...), never one global out-of-vocabulary
class: unknown Cyrillic letters must not look like unknown Han characters. A
letter whose diacritic no language of the model uses is read as its base
letter instead (Maltese ħ → h).
"""

from __future__ import annotations

import functools
import math
import operator
import unicodedata
from array import array
from bisect import bisect_left
from collections.abc import Collection, ItemsView, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .scripts import SCRIPT_CLASS, group_of, is_class, script_of, unseen_class
from .textsymbols import BOUNDARY

#: Pair log-probabilities one language keeps computed (about 100 bytes each).
LOGPROB_CACHE = 50_000
#: Add-one smoothing constant.
ALPHA = 1.0


@functools.cache
def _base_letter(sym: str) -> str:
    """The letter under a letter's diacritics (é → e), or the symbol itself."""
    if is_class(sym):
        return sym
    return unicodedata.normalize("NFD", sym)[0]



#: Bits of a code point: a pair's code is its first symbol's above its second's.
_CODE_BITS = 21


def _pair_code(key: str) -> int:
    """A two-symbol key as one integer whose order is the key's."""
    return ord(key[0]) << _CODE_BITS | ord(key[1])


class PairCounts(Mapping[str, float]):
    """A language's pair counts as two sorted arrays: 16 bytes a pair instead of about 120.

    The reference's 55 languages hold 42,738 pairs. As dictionaries of strings and floats
    they were 5.3 MiB of every process that judges a page's language, most of a check's
    memory after qpdf's; a lookup is a binary search, made only when a language's
    log-probability cache meets a pair for the first time. Keys are read back in sorted order.
    """

    __slots__ = ("_codes", "_counts")

    def __init__(self, pairs: Mapping[str, float]) -> None:
        if any(len(key) != 2 for key in pairs):
            raise ValueError("pair keys must be two symbols")
        items = sorted(pairs.items())
        self._codes = array("Q", [_pair_code(key) for key, _n in items])
        self._counts = array("d", [n for _key, n in items])

    @classmethod
    def _from_arrays(cls, codes: array[int], counts: array[float]) -> PairCounts:
        made = cls.__new__(cls)
        made._codes, made._counts = codes, counts
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return PairCounts._from_arrays, (self._codes, self._counts)

    def _find(self, key: str) -> int:
        """The key's position, or -1."""
        if len(key) != 2:
            return -1
        code = _pair_code(key)
        at = bisect_left(self._codes, code)
        return at if at < len(self._codes) and self._codes[at] == code else -1

    def __getitem__(self, key: str) -> float:
        at = self._find(key)
        if at < 0:
            raise KeyError(key)
        return self._counts[at]

    def get(self, key: str, default: Any = None) -> Any:
        at = self._find(key)
        return default if at < 0 else self._counts[at]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._find(key) >= 0

    def __iter__(self) -> Iterator[str]:
        mask = (1 << _CODE_BITS) - 1
        return (chr(code >> _CODE_BITS) + chr(code & mask) for code in self._codes)

    def __len__(self) -> int:
        return len(self._codes)

    def items(self) -> _PairItems:
        return _PairItems(self)

    def first_totals(self) -> dict[str, float]:
        """How often each symbol starts a pair: one sum per run of the sorted codes."""
        codes, counts = self._codes, self._counts
        totals: dict[str, float] = {}
        at, end = 0, len(codes)
        while at < end:
            first = codes[at] >> _CODE_BITS
            stop = bisect_left(codes, (first + 1) << _CODE_BITS, at)
            totals[chr(first)] = sum(counts[at:stop])
            at = stop
        return totals


class _PairItems(ItemsView[str, float]):
    """(key, count) without a binary search per key."""

    _mapping: PairCounts

    def __iter__(self) -> Iterator[tuple[str, float]]:
        return zip(iter(self._mapping), self._mapping._counts, strict=True)


@dataclass
class LanguageModel:
    """Letter-pair counts of one language (or one user's training pages) and its threshold.

    `rows` gives, for a symbol, how often it occurs as the first of a pair
    when that is more than the pairs listed (the reference profiles drop
    rare pairs): the missing mass is spread evenly over every continuation,
    so a language whose pairs are mostly rare (Chinese) does not condemn
    every unlisted pair.
    """

    lang: str
    #: Kept as :class:`PairCounts` (any mapping is taken).
    pairs: Mapping[str, float]
    threshold: float
    name: str = ""
    #: Score the model gives its own training distribution (reference models only).
    expected: float | None = None
    rows: dict[str, float] | None = None
    alphabet: frozenset[str] = field(init=False)
    groups: frozenset[str] = field(init=False)
    _rows: dict[str, float] = field(init=False, repr=False)
    _spread: dict[str, float] = field(init=False, repr=False)
    _vocab: int = field(init=False, repr=False)
    #: Log P(b | a) by pair, learnt as texts meet pairs (see :meth:`total`).
    lp: dict[str, float] = field(init=False, repr=False)
    #: Letters of every language of the model this one belongs to (set by the model).
    shared: frozenset[str] = field(init=False, repr=False, default=frozenset())

    def __post_init__(self) -> None:
        rows: dict[str, float] = {}
        alphabet: set[str] = set()
        letter_mass: dict[str, float] = {}
        for key, n in self.pairs.items():
            rows[key[0]] = rows.get(key[0], 0.0) + n
            for sym in key:
                if sym != BOUNDARY:
                    alphabet.add(sym)
            if key[0] != BOUNDARY:
                g = group_of(key[0])
                letter_mass[g] = letter_mass.get(g, 0.0) + n
        self._vocab = len(alphabet | set(SCRIPT_CLASS.values())) + 1
        spread: dict[str, float] = {}
        for sym, total in (self.rows or {}).items():
            if total > rows.get(sym, 0.0):
                spread[sym] = (total - rows.get(sym, 0.0)) / self._vocab
                rows[sym] = total
                if sym != BOUNDARY:
                    alphabet.add(sym)
        self._rows = rows
        self._spread = spread
        self.alphabet = frozenset(alphabet)
        total = sum(letter_mass.values()) or 1.0
        self.groups = frozenset(g for g, n in letter_mass.items() if n >= 0.08 * total)
        if not isinstance(self.pairs, PairCounts):
            self.pairs = PairCounts(self.pairs)
        self.lp = {}

    @property
    def _table(self) -> PairCounts:
        pairs = self.pairs
        assert isinstance(pairs, PairCounts)  # made so by __post_init__
        return pairs

    def listed_mass(self) -> dict[str, float]:
        """How often each symbol starts a listed pair (the pruned mass of `rows` left out)."""
        return self._table.first_totals()

    def expected_score(self) -> float:
        """Mean log-probability per pair of the model's own counts (pruned mass included)."""
        total = sum(self._rows.values())
        acc = math.fsum(n * self.logprob(k[0], k[1]) for k, n in self.pairs.items())
        for sym, each in self._spread.items():
            acc += each * self._vocab * math.log((each + ALPHA)
                                                 / (self._rows[sym] + ALPHA * self._vocab))
        return acc / total

    def map_symbol(self, sym: str) -> str:
        """The symbol itself, its base letter when only that is known, or its script's class.

        A letter with a diacritic that no language of the model uses (Maltese ħ,
        Hawaiian ā in most models) is read as its base letter: still the letter
        of a word, not a letter from nowhere. A letter some other language uses
        (ö in a Croatian model) stays foreign, or ciphers would hide behind it.
        """
        if sym == BOUNDARY or sym in self.alphabet:
            return sym
        if sym not in self.shared:  # a letter another language uses is that language's letter
            base = _base_letter(sym)
            if base in self.alphabet:
                return base
        return unseen_class(script_of(sym))

    def logprob(self, a: str, b: str) -> float:
        """Smoothed log P(b | a) with add-one smoothing over the model's symbols."""
        return next(self._log_probs((a + b,)))

    def total(self, keys: Collection[str], counts: Collection[int]) -> float:
        """Sum of count × log-probability over pair keys (fast path for scoring).

        Most calls find every pair learnt already: they pay one pass over the
        keys. A miss costs that pass, learning the missing pairs in one loop,
        and a second pass.
        """
        lp = self.lp
        try:
            total: float = sum(map(operator.mul, counts, map(lp.__getitem__, keys)))
        except KeyError:
            self._learn([key for key in keys if key not in lp])
            total = sum(map(operator.mul, counts, map(lp.__getitem__, keys)))
        return total

    def _learn(self, keys: list[str]) -> None:
        """The log-probability of each key into the cache, in one loop.

        Garbled text meets hundreds of pairs no cache holds yet, in every
        language its script has: one call per pair was most of a shift
        search.
        """
        lp = self.lp
        if len(lp) + len(keys) > LOGPROB_CACHE:  # bounded memory over very long runs
            lp.clear()
        lp.update(zip(keys, self._log_probs(keys), strict=True))

    def _log_probs(self, keys: Iterable[str]) -> Iterator[float]:
        """log P(b | a) of each two-symbol key, smoothed: the one definition, for one key
        (:meth:`logprob`) or many (:meth:`_learn`), with the lookups bound once."""
        table = self._table
        codes, counts, end = table._codes, table._counts, len(table._codes)
        alphabet, spread, rows = self.alphabet, self._spread, self._rows
        smoothing, known, log = ALPHA * self._vocab, self.map_symbol, math.log
        for key in keys:
            a, b = key[0], key[1]
            if a != BOUNDARY and a not in alphabet:  # map_symbol's own first test, inline
                a = known(a)
            if b != BOUNDARY and b not in alphabet:
                b = known(b)
            code = ord(a) << _CODE_BITS | ord(b)
            at = bisect_left(codes, code)
            count = (counts[at] if at < end and codes[at] == code else 0.0) + spread.get(a, 0.0)
            yield log((count + ALPHA) / (rows.get(a, 0.0) + smoothing))

    def score_counts(self, counts: Mapping[str, int]) -> float:
        n = sum(counts.values())
        if n == 0:
            return -math.inf
        return self.total(counts.keys(), counts.values()) / n

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "lang": self.lang,
            "name": self.name,
            "threshold": round(self.threshold, 4),
            "pairs": {k: round(v, 2) for k, v in sorted(self.pairs.items())},
        }
        if self.expected is not None:
            data["expected"] = round(self.expected, 4)
        if self.rows:
            data["rows"] = {k: round(v, 2) for k, v in sorted(self.rows.items())}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, trusted: bool = False) -> LanguageModel:
        pairs = data["pairs"]
        if not isinstance(pairs, dict) or not trusted and not all(
            isinstance(k, str) and len(k) == 2 and isinstance(v, (int, float)) and v >= 0
            for k, v in pairs.items()
        ):
            raise ValueError("'pairs' must map two-symbol strings to counts")
        expected = data.get("expected")
        rows = data.get("rows")
        if rows is not None and not trusted and not (isinstance(rows, dict) and all(
                isinstance(k, str) and len(k) == 1 and isinstance(v, (int, float))
                for k, v in rows.items())):
            raise ValueError("'rows' must map symbols to counts")
        return cls(
            lang=str(data["lang"]),
            pairs=pairs if trusted else {k: float(v) for k, v in pairs.items()},
            threshold=float(data["threshold"]),
            name=str(data.get("name", "")),
            expected=None if expected is None else float(expected),
            rows=None if rows is None else rows if trusted else {
                k: float(v) for k, v in rows.items()},
        )
