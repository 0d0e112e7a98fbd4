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

from .recover import FontUsage, usable_text

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
) -> dict[int, str]:
    """Codes of ``usage`` not in ``mapping`` that the words they sit in settle: code -> text."""
    from . import langmodel

    found: dict[int, str] = {}
    for code, seen in readings.items():
        if code in mapping:
            continue
        tally = Counter(unicodedata.normalize("NFKC", t) for t, _ in seen)
        cands = [t for t, _ in tally.most_common(MAX_CANDIDATES) if usable_text(t.strip())]
        if len(cands) < 2 and not (cands and len(seen) == 1):
            continue
        words = _words_with(usage, mapping, code)
        if not words:
            continue
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
            continue
        rival = scored[1] if len(scored) > 1 else None
        if rival is None or rival[0] < pairs or best - rival[1] >= MIN_LEAD:
            found[code] = text
    return found


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
