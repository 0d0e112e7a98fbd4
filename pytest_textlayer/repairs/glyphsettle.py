"""Settle the codes glyph OCR's vote left open, by the words they are drawn in.

A code read two ways as often (``I`` and ``|``, ``l`` and ``1``), or read
once by a box that drifted, is not guessed by the vote. Its readings are
still the only candidates: each is put into every word of the document
that draws the code, with the rest of the font's map as voted, and the
letter-pair model scores those words. The candidate that makes more
letter pairs (a letter where another reading saw a symbol), else reads
clearly best (by :data:`MIN_LEAD`), is taken, if the words then read as
language; a tie stays unmapped. The model only
chooses among what OCR saw on the page, never invents a character.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .fontusage import FontUsage
from .recover import usable_text

#: The best candidate's score (mean log probability per letter pair) must lead by this much.
MIN_LEAD = 0.3
#: Candidates tried per code: the readings seen most often.
MAX_CANDIDATES = 3
#: Words (of the font's text) a candidate is judged on, at most.
MAX_WORDS = 60


def settle(
    usage: FontUsage,
    mapping: Mapping[int, str],
    readings: Mapping[int, Sequence[tuple[str, float]]],
    model: Any = None,
    lang: str | None = None,
    choices: Mapping[int, Counter[str]] | None = None,
) -> dict[int, str]:
    """Codes the words they sit in settle: code -> text.

    Two kinds: codes not in ``mapping`` that were read (the vote found no
    majority), and codes mapped on one reading to a symbol (a lone ``|``
    where Tesseract also weighed ``I``). Candidates are the readings and
    the characters Tesseract weighed next (``choices``).
    """
    found: dict[int, str] = {}
    for code, seen in readings.items():
        # Compatibility forms are one candidate (µ micro sign and μ mu): the model folds them.
        weighed = list(dict.fromkeys(
            unicodedata.normalize("NFKC", t)
            for t, w in (choices or {}).get(code, Counter()).most_common(MAX_CANDIDATES)
            if w > 0
        ))
        if code in mapping:
            now = mapping[code]
            if len(seen) != 1 or len(now) != 1 or now.isalnum() or not now.strip():
                continue
            cands = [now] + [t for t in weighed if t != now and t.isalnum()]
        else:
            tally = Counter(unicodedata.normalize("NFKC", t) for t, _ in seen)
            cands = [t for t, _ in tally.most_common(MAX_CANDIDATES)]
            cands += [t for t in weighed if t not in cands]
        if len(seen) == 1:
            # Two characters read from one box once are a ligature (ﬁ) only if the words
            # can vouch for them: letters. Marks the model skips (";:" for a ";" opening a
            # line) are more often invented than drawn.
            cands = [t for t in cands if len(t) == 1 or t.isalpha()]
        # A subset draws each character with one glyph: a text another code has is no candidate.
        taken = {t for c, t in mapping.items() if c != code}
        usable = [t for t in cands if usable_text(t.strip())]
        cands = [t for t in usable if t not in taken]
        # One candidate left is enough when the others were other codes' characters (Τ read
        # as τ once, where τ has its own glyph) or when it is all that was read.
        alone = len(usable) > len(cands) or (len(seen) == 1 and code not in mapping)
        if not cands or (len(cands) < 2 and not alone):
            continue
        words = _words_with(usage, mapping, code)
        if not words:
            continue
        chosen = (
            _by_case(cands[:2], words, mapping)
            or _by_accent(cands[:2], seen)
            or _by_words(cands, words, model, lang)
        )
        if chosen is not None and chosen != mapping.get(code):
            found[code] = chosen
    return found


def _by_case(cands: Sequence[str], words: Sequence[str], mapping: Mapping[int, str]) -> str | None:
    """Of two readings that differ only in case, the small letter when the code follows a small
    letter inside a word (a lone "o" read as "O" has no line to take its case from)."""
    if len(cands) != 2 or cands[0] == cands[1] or cands[0].lower() != cands[1].lower():
        return None
    small = cands[0] if cands[0].islower() else cands[1]
    if any(w.index("\x00") > 0 and w[w.index("\x00") - 1].islower() for w in words):
        return small
    return None


def _by_accent(cands: Sequence[str], seen: Sequence[tuple[str, float]]) -> str | None:
    """Of two readings of one base letter (ύ, ὕ: the model folds accents and breathings), the
    one read more often, when one was."""
    if len(cands) != 2:
        return None
    bases = {unicodedata.normalize("NFD", c)[:1] for c in cands}
    if len(bases) != 1 or not next(iter(bases)).isalpha():
        return None
    tally = Counter(unicodedata.normalize("NFKC", t) for t, _ in seen)
    a, b = tally.get(cands[0], 0), tally.get(cands[1], 0)
    if a == b:
        return None
    return cands[0] if a > b else cands[1]


def _by_words(cands: Sequence[str], words: Sequence[str], model: Any, lang: str | None
              ) -> str | None:
    """The candidate whose words read best: more letter pairs, else a clearly better score."""
    from ..lang import langmodel

    scored = []
    for cand in cands:
        text = " ".join(w.replace("\x00", cand) for w in words)
        verdict = langmodel.judge(text, model, lang=lang, min_pairs=2)
        # Letter pairs first: the model skips symbols, so "|l" would score as "l"
        # alone; a reading that makes the word whole has more pairs to show.
        scored.append((verdict.pairs, verdict.score, verdict.passes, cand))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    pairs, best, passes, text = scored[0]
    if passes is not True or best != best:  # too little text, no language, or NaN
        return None
    rival = scored[1] if len(scored) > 1 else None
    if rival is None or rival[0] < pairs or best - rival[1] >= MIN_LEAD:
        return text
    # Too close to call by the model: inside words of letters, the one letter among the
    # contenders (I against | and 1 in "Il"), when there is exactly one.
    close = [c for p, sc, _, c in scored if p == pairs and best - sc < MIN_LEAD]
    letters = [c for c in close if c.isalpha()]
    if len(letters) == 1 and all(_among_letters(w) for w in words):
        return letters[0]
    return None


def _among_letters(word: str) -> bool:
    """The code (NUL) touches a letter in this word."""
    i = word.index("\x00")
    return any(0 <= j < len(word) and word[j].isalpha() for j in (i - 1, i + 1))


def _words_with(usage: FontUsage, mapping: Mapping[int, str], code: int) -> list[str]:
    """The font's words that draw ``code`` (marked by NUL), under ``mapping``; unmapped codes
    elsewhere cut the word, since they would read as nothing.

    A font that draws its own spaces has its runs joined as they are (a
    justifying producer places every glyph on its own); one without spaces
    breaks words between runs.
    """
    out: list[str] = []
    joiner = "" if " " in mapping.values() else " "
    text = joiner.join(
        "".join("\x00" if c == code else mapping.get(c, " ") for c in run)
        for _, runs in sorted(usage.pages.items())
        for run in runs
    )
    for word in text.split():
        if "\x00" in word and len(word) > 1:
            out.append(word)
            if len(out) >= MAX_WORDS:
                break
    return out


#: Mean confidence per reading Tesseract must have given a code's second candidate for it to
#: replace a reading two codes share (a genuine second glyph of one letter gets about 0).
MIN_TWIN_CHOICE = 25.0


def split_twins(
    mapping: Mapping[int, str],
    readings: Mapping[int, Sequence[tuple[str, float]]],
    choices: Mapping[int, Counter[str]],
) -> dict[int, str]:
    """Codes that read as the same text as another code of the font, read again.

    A subset holds each glyph once, so two codes read as one character mostly
    means one was misread: ё read as е (Russian print often drops the
    dots), a Latin o read as a Cyrillic о. The code read so most surely
    keeps the text; the other takes the candidate Tesseract weighed next for
    it in its words, when that candidate had real weight and no other code
    has it. Otherwise both stay as read.
    """
    by_text: dict[str, list[int]] = {}
    for code, text in mapping.items():
        if text.strip() and code in readings:
            by_text.setdefault(text, []).append(code)
    taken = set(mapping.values())
    out: dict[int, str] = {}
    for text, codes in by_text.items():
        if len(codes) < 2:
            continue

        for code in sorted(codes, key=lambda c: _strength(readings[c], text), reverse=True)[1:]:
            tally = choices.get(code)
            n = len(readings[code])
            if not tally or not n:
                continue
            for cand, weight in tally.most_common():
                if cand == text or not usable_text(cand.strip()):
                    continue
                if weight / n >= MIN_TWIN_CHOICE and cand not in taken:
                    out[code] = cand
                    taken.add(cand)
                break
    return out


def _strength(seen: Sequence[tuple[str, float]], text: str) -> tuple[int, float]:
    """How surely a code reads as ``text``: how often, then how confidently on average."""
    same = [c for t, c in seen if unicodedata.normalize("NFKC", t) == text]
    return len(same), sum(same) / len(same) if same else 0.0
