"""Judging one reading of a font's text against another.

Whether a font's text reads better under another map is asked by several
steps of the repair (:mod:`.choice` weighs these comparisons as the evidence
for a candidate reading); the measures they use live here: junk characters,
the letter-pair model's verdicts, the shape of words when there are too few
letter pairs, the text around a fallback font's letters, how common the CJK
ideographs are, and how far two independent readings agree.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from .plan import Plan

#: A font's text under another reading must beat its present text by this many nats per
#: letter pair (the prior is the other fonts or the program; the font's text only has to agree).
SHIFT_GAIN = 0.0
#: Fewest letter pairs of each reading their scores are compared on.
MIN_COMPARE_PAIRS = 6
#: Fewest letters a reading judged by the shape of its words must have.
MIN_WORD_LETTERS = 4
#: When both readings pass, the other must lead by this much to replace the present one.
PASSING_LEAD = 0.5


def junk(text: str) -> int:
    """Characters no text shows: controls, private use, unassigned, U+FFFD."""
    import unicodedata

    return sum(
        ch not in "\n\t"
        and (unicodedata.category(ch) in ("Cc", "Co", "Cn", "Cs") or ch == "\ufffd")
        for ch in text
    )


def reads_better(now: str, then: str, model: Any, lang: str | None, *, shifted: bool) -> bool:
    """Does ``then`` (another reading of a font) read better than ``now`` (its present one)?

    It must not fail the letter-pair model nor add junk. Less junk than the
    present text (a shifted space or digit is a control character) decides,
    even if that text passes (two stray controls do not fail a heading). A
    font whose present text passes keeps it, unless the other passes too and
    either reads far better (a scramble within each case keeps enough letter
    pairs to pass) or the font was itself shifted back by another offset (two
    passing readings: the document's offset decides). Otherwise letters
    where there were none, or a better score decide. Passing alone does not:
    on a heading, symbol soup with more letter pairs may pass where the
    words, too few to judge, score better.
    """
    from ..lang import langmodel

    after = langmodel.judge(then, model, lang=lang)
    junk_now, junk_then = junk(now), junk(then)
    if after.passes is False or junk_then > junk_now:
        return False
    if junk_now > junk_then:
        return True
    before = langmodel.judge(now, model, lang=lang)
    if unspaced(now) or unspaced(then):
        # A few ideographs or kana score no better than another few: a correct CJK heading
        # may score below its own +29 soup. Soup draws rare ideographs, text common ones.
        if shifted and before.passes and after.passes:
            return True
        return more_common_han(now, then)
    if before.passes:
        return bool(after.passes) and (shifted or after.margin >= before.margin + PASSING_LEAD)
    if min(after.pairs, before.pairs or after.pairs) < MIN_COMPARE_PAIRS:
        # A score on a few letter pairs is noise ('פרק 3' scores below its soup); the shape
        # of the words is not: '1RWHV' and '§UJHU' are no words, 'Notes' and 'Ärger' are
        # (but 'oCa' from 'R&D' is not: too short, and a capital inside a word).
        from .ordermaps import wordlike

        letters = sum(ch.isalpha() for ch in then)
        camel = any(a.islower() and b.isupper() for a, b in zip(then, then[1:], strict=False))
        return (
            letters >= MIN_WORD_LETTERS
            and not camel
            and wordlike(then) == 1.0
            and wordlike(now) < 0.5
        )
    if not before.pairs:
        return after.margin > 0
    return after.margin > before.margin + SHIFT_GAIN


#: Runs of a font whose context is read (each with the runs drawn just before and after it).
CONTEXT_RUNS = 200


#: Share of a font's runs that must sit between two runs of one other font for its letters
#: to be read inside that font's words.
SANDWICHED = 0.5


class PageRuns:
    """Every planned font's runs on each page, in content order, and where each font's own
    runs stand in them (built once, on first use: a long book is walked once, not per font)."""

    def __init__(self, plans: list[Plan]) -> None:
        self.plans = plans
        self.by_page: dict[int, list[tuple[int, int, Plan, list[int]]]] = {}
        self.positions: dict[int, list[tuple[int, int]]] | None = None

    def of(self, target: Plan) -> list[tuple[list[tuple[int, int, Plan, list[int]]], int]]:
        """(the page's runs, the index of one of ``target``'s runs in them), in page order."""
        if self.positions is None:
            self.positions = {}
            for index, plan in enumerate(self.plans):
                if plan.info is None:
                    continue
                for number, runs in plan.usage.pages.items():
                    places = plan.usage.places.get(number, ())
                    self.by_page.setdefault(number, []).extend(
                        (place, index, plan, run) for place, run in zip(places, runs, strict=False)
                    )
            for number, drawn in self.by_page.items():
                drawn.sort(key=lambda item: (item[0], item[1]))
                for i, (_, _, plan, _) in enumerate(drawn):
                    self.positions.setdefault(id(plan), []).append((number, i))
        return [(self.by_page[page], i) for page, i in self.positions.get(id(target), [])]


def _in_context(
    page_runs: PageRuns, target: Plan, then: Mapping[int, str]
) -> tuple[str, str]:
    """The target font's runs between the runs drawn just before and after them on their
    page, under the target's present map and under ``then`` ('', '' unless most of its runs
    sit between two runs of one other font).

    A fallback font draws one accented letter at a time inside the main font's
    words ('Ng' 'ọ' 'n'): its own text is a list of letters no model can
    judge, its context is words. A heading over a body is no such thing: it
    has no run of the body's font before it, and its last letter and the
    body's first are no letter pair.
    """
    maps: dict[int, dict[int, str]] = {}

    def present(plan: Plan) -> dict[int, str]:
        if id(plan) not in maps:
            maps[id(plan)] = {**plan.drawn(), **plan.mapping}
        return maps[id(plan)]

    now_parts: list[str] = []
    then_parts: list[str] = []
    runs = 0
    for drawn_runs, i in page_runs.of(target):
        runs += 1
        window = drawn_runs[max(0, i - 1): i + 2]
        if len(window) < 3 or window[0][2] is not window[2][2] or window[0][2] is target:
            continue
        for parts, own in ((now_parts, present(target)),
                           (then_parts, {**present(target), **then})):
            parts.append("".join(
                (own if other is target else present(other)).get(c, "")
                for _, _, other, run in window for c in run
            ))
        if len(now_parts) >= CONTEXT_RUNS:
            break
    if len(now_parts) < SANDWICHED * runs:
        return "", ""
    return "\n".join(now_parts), "\n".join(then_parts)


def reads_better_in_context(
    page_runs: PageRuns, plan: Plan, then: Mapping[int, str], model: Any, lang: str | None
) -> bool:
    """Around the font's runs, the page reads better under ``then``: it passes, adds no junk,
    and scores higher (the neighbours' text is the same under both, so the font's letters
    decide)."""
    from ..lang import langmodel

    now_text, then_text = _in_context(page_runs, plan, then)
    if now_text == then_text or junk(then_text) > junk(now_text):
        return False
    after = langmodel.judge(then_text, model, lang=lang)
    before = langmodel.judge(now_text, model, lang=lang)
    return bool(after.passes) and after.pairs >= MIN_COMPARE_PAIRS and (
        not before.passes or after.margin > before.margin
    )


def unspaced(text: str) -> bool:
    """Most letters are of a script written without spaces (CJK, kana, Thai...)."""
    import unicodedata

    from .ordermaps import UNSPACED

    letters = [ch for ch in text if ch.isalpha()]
    unspaced = sum(unicodedata.name(ch, "").startswith(UNSPACED) for ch in letters)
    return bool(letters) and unspaced > len(letters) / 2


#: Share of a text's Han characters that must be commonly used ones for it to read as text...
COMMON_HAN = 0.9
#: ...and at most this share for the text it replaces to read as soup.
SOUP_HAN = 0.75


def _is_han(ch: str) -> bool:
    return ("\u3400" <= ch <= "\u9fff" and not "\u4dc0" <= ch <= "\u4dff") or \
        "\uf900" <= ch <= "\ufaff"


#: A model whose alphabet holds this many ideographs writes in them (its own frequent ones).
MIN_MODEL_HAN = 10
#: The punctuation CJK text is written with (a shifted map gives the block's rarer marks).
_CJK_PUNCTUATION = frozenset(
    "、。〃々〆〇〈〉《》「」『』【】〔〕〜・ー（）！？：；，．％＆＋－＝～／［］｛｝＜＞　"
)


def _ordinary_cjk(ch: str) -> bool:
    """Kana, Hangul syllables, full-width letters and digits, and the usual CJK punctuation."""
    return (
        "\u3041" <= ch <= "\u3096" or "\u30a1" <= ch <= "\u30fa" or "\uac00" <= ch <= "\ud7a3"
        or "\uff10" <= ch <= "\uff19" or "\uff21" <= ch <= "\uff3a" or "\uff41" <= ch <= "\uff5a"
        or ch in _CJK_PUNCTUATION
    )


@functools.cache
def _common_han() -> frozenset[str]:
    """The commonly used Han characters: the reference profiles' groups, and the ideographs
    the CJK models keep as letters of their own (the most frequent, 年 and 的, are in no
    group)."""
    from ..lang import langmodel, textsymbols

    model = langmodel.reference_model()  # the groups come with the reference profiles
    own: set[str] = set()
    for language in model.languages.values():
        han = {s for s in language.alphabet if len(s) == 1 and _is_han(s)}
        if len(han) >= MIN_MODEL_HAN:
            own |= han
    return textsymbols.han_characters() | own


def han_share(text: str) -> tuple[int, float]:
    """(characters of the CJK blocks in ``text``, share of them that are ordinary ones).

    Ordinary: commonly used Han characters, kana, Hangul syllables, the
    usual punctuation. A map shifted within these blocks gives rare
    ideographs, hexagrams, radicals, iteration and tone marks.
    """
    common = _common_han()
    cjk = [ch for ch in text if ord(ch) >= 0x2E80 and not 0xE000 <= ord(ch) <= 0xF8FF]
    ordinary = sum(ch in common or _ordinary_cjk(ch) for ch in cjk)
    return len(cjk), (ordinary / len(cjk) if cjk else 0.0)


def more_common_han(now: str, then: str) -> bool:
    """``then`` is written in commonly used Han characters where ``now`` is not."""
    (n_now, s_now), (n_then, s_then) = han_share(now), han_share(then)
    return n_now >= 2 and n_then >= 2 and s_then >= COMMON_HAN and s_now <= SOUP_HAN


def compatible(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", text)


#: Share of the glyphs two readings of a font must agree on to confirm each other.
CONFIRM_SHARE = 0.9


def agreement(counts: Mapping[int, int], a: Mapping[int, str],
               b: Mapping[int, str]) -> tuple[int, int]:
    """(glyphs drawn by codes both readings give alike, glyphs drawn by codes both give)."""
    both = [c for c in counts if c in a and c in b]
    return sum(counts[c] for c in both if a[c] == b[c]), sum(counts[c] for c in both)


def confirms(usage: Any, a: Mapping[int, str], b: Mapping[int, str]) -> bool:
    """Two independent readings give the same text for nearly every glyph both cover."""
    counts = usage.codes()
    same, shared = agreement(counts, a, b)
    if shared < 0.5 * sum(counts.values()):
        return False
    return same >= CONFIRM_SHARE * shared


def program_reads_as_well(now: str, then: str, model: Any, lang: str | None) -> bool:
    """Under a document whose programs overrule its ToUnicode maps: the program's reading
    neither fails, nor adds junk, nor reads worse than the present text."""
    from ..lang import langmodel

    after = langmodel.judge(then, model, lang=lang)
    if after.passes is False or junk(then) > junk(now):
        return False
    before = langmodel.judge(now, model, lang=lang)
    if before.passes and not after.passes:
        return False
    return not (before.passes and after.margin < before.margin)
