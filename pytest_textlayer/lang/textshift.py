"""The readings a text repair tries: codes moved by a constant offset, or read in Mac order.

A reading turns the codes of a text into other characters: every code
moved by one offset (:func:`shift`), or each code read as an index of the
Macintosh standard glyph order (:func:`mac_standard`). The offsets worth
trying come from the text's character histogram: those that send several of
its most frequent characters to frequent letters of some reference language
(:func:`candidate_offsets`). Whether a reading wins is for
:mod:`.textrepair` to decide.
"""

from __future__ import annotations

import heapq
from collections import Counter

from . import scripts, textsymbols
from .langmodel import LetterPairModel

#: Most frequent characters of the text used to propose offsets.
TOP_SOURCES = 8
#: Characters of ideographic text an offset is ranked on.
WIDE_SOURCES = 40
#: Offsets screened at most.
MAX_CANDIDATES = 12
#: Most frequent letters per reference language used as targets.
TOP_TARGETS = 6
#: Share of a text's characters the Mac standard order must cover to be tried.
MAC_COVERAGE = 0.9

_WHITESPACE = frozenset(" \t\n\r\x0b\x0c\x85\u2028\u2029\u00a0")


def shift(text: str, offset: int) -> str:
    """Every non-whitespace character moved by `offset` code points (U+FFFD when out of range).

    Whitespace is left alone: readers insert spaces and line breaks from the
    layout, so they were never glyph codes.
    """
    table: dict[int, str] = {}
    for ch in set(text):
        if ch in _WHITESPACE:
            continue
        target = ord(ch) + offset
        table[ord(ch)] = chr(target) if 0 <= target < 0x110000 else "\ufffd"
    return text.translate(table)


def mac_standard(text: str) -> str | None:
    """`text` read as Mac standard glyph indices, or None when too few codes are in that order."""
    from .glyphorder import mac_standard_table

    table = mac_standard_table()
    counts = Counter(ch for ch in text if ch not in _WHITESPACE)
    total = sum(counts.values())
    covered = sum(n for ch, n in counts.items() if ord(ch) in table)
    if total == 0 or covered < MAC_COVERAGE * total:
        return None
    return text.translate({ord(ch): table[ord(ch)] for ch in counts if ord(ch) in table})


_TARGETS: dict[int, tuple[LetterPairModel, tuple[int, ...]]] = {}


def _targets(model: LetterPairModel) -> tuple[int, ...]:
    """Code points of the most frequent letters of every language of a model, and the space."""
    cached = _TARGETS.get(id(model))
    if cached is not None and cached[0] is model:
        return cached[1]
    letters: set[str] = {" "}
    for lm in model.languages.values():
        # most frequent first, ties by symbol: plain tuples compare without a key function
        ranked = [(-v, sym) for sym, v in lm.listed_mass().items()
                  if sym != textsymbols.BOUNDARY and not scripts.is_class(sym)]
        # ideographic languages spread their text over many more characters
        top = TOP_TARGETS * 8 if lm.groups & {"CJK", "HANGUL"} else TOP_TARGETS
        for _minus, sym in heapq.nsmallest(top, ranked):
            letters.add(sym)
            upper = sym.upper()
            if len(upper) == 1:
                letters.add(upper)
    targets = tuple(sorted(ord(c) for c in letters))
    _TARGETS[id(model)] = (model, targets)
    return targets


def candidate_offsets(text: str, model: LetterPairModel) -> list[int]:
    """Offsets that send several of the text's most frequent characters to frequent letters."""
    targets = _targets(model)
    counts = Counter(ch for ch in text if ch not in _WHITESPACE or ch == "\x03")
    top = counts.most_common(TOP_SOURCES)
    votes: Counter[int] = Counter()
    for rank, (ch, _n) in enumerate(top):
        weight = TOP_SOURCES - rank
        src = ord(ch)
        for t in targets:
            k = t - src
            if k:
                votes[k] += weight
    # an offset must be backed by at least three frequent characters
    need = _min_votes(len(top))
    ranked = [k for k, v in votes.most_common() if v >= need][:MAX_CANDIDATES]
    if any(ord(ch) >= 0x1000 for ch, _n in top[:4]):  # past the alphabets: maybe ideographs
        wide = _ideographic_offsets(text, model)
        ranked = wide + [k for k in ranked if k not in wide]
    return ranked


_BIG_TARGETS: dict[int, tuple[LetterPairModel, frozenset[int]]] = {}


def _ideographic_offsets(text: str, model: LetterPairModel) -> list[int]:
    """Offsets under which the text's characters are characters some language uses.

    Ideographic text spreads over thousands of characters, too many to pair
    with the most frequent ones. Offsets that land two frequent characters on
    known characters are proposed, and ranked by how much of the text (its
    WIDE_SOURCES most frequent characters, by count) they land on known ones.
    """
    cached = _BIG_TARGETS.get(id(model))
    if cached is None or cached[0] is not model:
        known = {ord(c) for c in model.known if len(c) == 1 and not scripts.is_class(c)}
        known |= {ord(c) for c in textsymbols.han_characters()}
        known |= set(range(0x3041, 0x30FB))  # kana: the profiles fold them into one symbol each
        cached = (model, frozenset(known))
        _BIG_TARGETS[id(model)] = cached
    targets = cached[1]
    counts = Counter(ch for ch in text if ch not in _WHITESPACE)
    sources = [(ord(ch), n) for ch, n in counts.most_common(WIDE_SOURCES)]
    heads = [s for s, _n in sources[:4]]
    proposed: set[int] = set()
    for i in range(len(heads)):
        for j in range(i + 1, len(heads)):
            proposed |= {t - heads[i] for t in targets} & {t - heads[j] for t in targets}
    proposed.discard(0)
    hits = {k: sum(n for s, n in sources if s + k in targets) for k in proposed}
    return sorted(proposed, key=lambda k: (-hits[k], abs(k)))[:MAX_CANDIDATES]


def _min_votes(sources: int) -> int:
    """Votes an offset needs: about a third of the weight of the frequent characters."""
    total = sources * (sources + 1) // 2
    return max(3, total // 3)
