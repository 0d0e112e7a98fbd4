"""Do a font's most drawn letters follow its language's letter frequencies?

A permuted ToUnicode (every code still maps to an ordinary letter of the
same script, only the wrong one) keeps the letters a font maps but detaches
them from how often each code is drawn: the letters a page draws most are
no longer the language's frequent ones. Letter pairs see that in most
scripts, but a right-to-left script is judged in both reading orders (some
producers store it visually), which lets a permuted Arabic, Persian or
Hebrew map read as language. How often each letter occurs does not depend
on the reading order.

The test is an agreement: across the distinct letters a font draws on a
page, the correlation between how often each is drawn and how often the
language uses it (the 1-gram counts of the built-in reference, the same
openly licensed profiles the letter pairs come from). Under a permuted map
the counts are a random shuffle over the letters, and the correlation
times the square root of the letters' count less one is about a standard
normal variable; real text scores far above it. (Raw counts against shares
separated real from permuted maps better than their logarithms or ranks:
the frequent letters carry the evidence.)
"""

from __future__ import annotations

import functools
import math
import unicodedata
import weakref
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Scripts the letter-pair model reads in either direction (see langmodel.judge), the ones
#: where a permuted map can pass it and the letter frequencies must speak.
CHECKED_SCRIPTS = frozenset({"ARABIC", "HEBREW", "SYRIAC", "THAANA"})
#: Distinct letters and letters drawn a font needs on a page before its frequencies are judged.
MIN_LETTERS = 15
MIN_GLYPHS = 100
#: Share of the letters drawn a reference language must know for its frequencies to be asked:
#: real Arabic, Persian and Hebrew text is wholly known (a permutation keeps the letters);
#: Kurdish, Uyghur or Yiddish write letters, or use them at rates, no reference language
#: has, and are left alone.
MIN_KNOWN = 0.95
#: Agreement (the correlation scaled to a standard normal variable under a permuted map)
#: below which a font's letters are not the language's. Real text measured 3.2 or more in
#: every Arabic, Persian and Hebrew font of the corpora; permuted maps 0.5 at the median and
#: under 1.8 nine times in ten.
MIN_AGREEMENT = 2.0


@dataclass(frozen=True)
class Agreement:
    """How well one font's letter counts follow a language's letter frequencies."""

    script: str
    lang: str
    #: The correlation times sqrt(letters - 1): about N(0, 1) when the map is permuted.
    z: float
    letters: int
    glyphs: int

    @property
    def agrees(self) -> bool:
        return self.z >= MIN_AGREEMENT

    def describe(self) -> str:
        return (f"its {self.letters} letters ({self.glyphs} drawn) are not drawn as often as "
                f"{self.lang} uses them (agreement {self.z:.1f}, {MIN_AGREEMENT:.1f} "
                "wanted): the map gives the wrong letters")


@functools.cache
def _frequencies() -> dict[str, tuple[dict[str, float], float]]:
    """Per reference language: the share of each letter symbol, and that of an unseen one."""
    from ..lang.langmodel import reference_model

    out: dict[str, tuple[dict[str, float], float]] = {}
    for lang, lm in reference_model().languages.items():
        rows = {s: n for s, n in (lm.rows or {}).items() if s.strip()}
        total = sum(rows.values())
        if total <= 0:
            continue
        out[lang] = ({s: n / total for s, n in rows.items()}, 0.5 / total)
    return out


def letter_counts(codes: Mapping[int, int], unicode: Mapping[int, str]) -> Counter[str]:
    """Glyphs drawn per letter: codes mapped to one letter, normalised like the reference."""
    out: Counter[str] = Counter()
    for code, n in codes.items():
        text = unicode.get(code)
        if text is None or len(text) != 1 or not text.isalpha():
            continue
        letter = unicodedata.normalize("NFKC", text).lower()
        if len(letter) == 1:
            out[letter] += n
    return out


def agreement(counts: Mapping[str, int]) -> Agreement | None:
    """The best agreement of the font's main script's letters with a language of that script.

    None when the script is not checked or the font draws too few letters to tell.
    """
    from ..lang.langmodel import symbols
    from ..lang.scripts import script_of

    by_script: Counter[str] = Counter()
    for letter, n in counts.items():
        by_script[script_of(letter)] += n
    if not by_script:
        return None
    script, _ = by_script.most_common(1)[0]
    if script not in CHECKED_SCRIPTS:
        return None
    letters = {c: n for c, n in counts.items() if script_of(c) == script}
    glyphs = sum(letters.values())
    if len(letters) < MIN_LETTERS or glyphs < MIN_GLYPHS:
        return None
    keys = {c: symbols(c).strip() for c in letters}
    xs = [float(n) for n in letters.values()]
    best: Agreement | None = None
    for lang, (shares, unseen) in _frequencies().items():
        known = sum(n for c, n in letters.items() if keys[c] in shares)
        if known < MIN_KNOWN * glyphs:
            continue  # a language of another script, or one without these letters
        ys = [shares.get(keys[c], unseen) for c in letters]
        z = _scaled_correlation(xs, ys)
        if best is None or z > best.z:
            best = Agreement(script, lang, z, len(letters), glyphs)
    return best


def _scaled_correlation(xs: list[float], ys: list[float]) -> float:
    from ..pdf.rankcheck import pearson

    r = pearson(xs, ys)
    if r is None:
        return math.inf  # every letter drawn as often: nothing to disagree with
    return r * math.sqrt(len(xs) - 1)


_CHECKABLE: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()


def may_check(font: Any) -> bool:
    """Does the font map enough letters of a checked script to be judged at all? (once a font)"""
    known = _CHECKABLE.get(font)
    if known is None:
        from ..lang.scripts import script_of

        letters = {t for t in font.unicode.values() if len(t) == 1 and t.isalpha()}
        known = sum(1 for t in letters if script_of(t) in CHECKED_SCRIPTS) >= MIN_LETTERS
        _CHECKABLE[font] = known
    return known
