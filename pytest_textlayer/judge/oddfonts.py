"""Fonts judged alone, on a page whose text reads well as a whole.

A font with a shifted or scrambled map can draw a third of a page while the
other fonts carry the page-level judgement: its own words (on this page, or
pooled with what it drew on earlier ones), or the frequencies of a
right-to-left font's letters, give it away. Part of the language rung;
also owns how a font's text is cleaned for judging (bad codes blanked
within the allowed share), which the page-level judgement shares.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from ..lang.textshape import not_running_words
from ..model import Verdict
from ..settings import CheckSettings
from .decision import STRAY, Decision, needs_text, shift_found
from .fonttrust import FontTrust

if TYPE_CHECKING:
    from ..lang.langmodel import LetterPairModel
    from ..pdf.pagecontent import FontUse, PageContent


def bad_within_limit(content: PageContent, settings: CheckSettings) -> bool:
    """Does the page draw bad glyphs, no more than the share the contract allows?"""
    bad = sum(use.bad_glyphs for use in content.fonts)
    return 0 < bad <= settings.max_bad_glyphs * content.glyphs


def _font_words(use: FontUse, blank_bad: bool) -> str:
    """The text a font drew, stray characters made spaces; with `blank_bad` (the page's bad
    glyphs within the limit), its bad codes' characters blanked too (see bad_codes_blanked)."""
    return STRAY.sub(" ", bad_codes_blanked(use) if blank_bad and use.bad_glyphs else use.text)


def bad_codes_blanked(use: FontUse) -> str:
    """The font's text with the characters its bad codes decode to made spaces.

    A character a good code of the same font also gives is kept: only what
    nothing but a bad code prints is blanked, so no good letter is lost.
    """
    font = use.font
    bad: set[str] = set()
    good: set[str] = set()
    for code in use.codes:
        if code > 0x10FFFF:
            continue
        chars = font.unicode.get(code, chr(code))
        (bad if font.is_bad_code(code) else good).add(chars)
    blanks = {ord(c): " " for c in bad - good if len(c) == 1}
    text = use.text.translate(blanks)
    for chars in bad - good:
        if len(chars) > 1:
            text = text.replace(chars, " ")
    return text


#: Words (runs of three or more letters) a font must draw before its text is judged alone:
#: fewer, and it is a math italic's variables or a symbol font's bullets, not prose.
MIN_FONT_WORDS = 4
WORD = re.compile(r"[^\W\d_]{3,}")
_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def odd_font(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> Decision | None:
    """A font whose own text reads as no language, on a page that reads well as a whole.

    A heading font with a shifted or scrambled map can draw a third of a page,
    or half of it, while the other fonts carry the page-level judgement;
    judged alone, its words give it away. Only fonts above the bad-glyph
    threshold that draw enough words are judged, so math variables and
    symbol fonts stay out.
    """
    if len(content.fonts) < 2 or not content.glyphs:
        return None
    from ..lang.langmodel import judge

    allowed = bad_within_limit(content, settings)
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        share = use.glyphs / content.glyphs
        if share <= settings.max_bad_glyphs or use.sound:
            continue  # too small to matter, or its route is sound
        words = _font_words(use, allowed)
        if len(WORD.findall(words)) < MIN_FONT_WORDS:
            continue
        alone = judge(words, model=model, lang=settings.lang)
        # Too few letters to decide, from a map that also gives control characters (a
        # shifted map moves capitals and spaces below U+0020): the shift search may decide.
        declared_shift = (alone.passes is None and use.bad_glyphs > 0
                          and _CONTROLS.search(use.text) is not None)
        if alone.passes is not False and not declared_shift or not_running_words(words):
            continue
        name = f"font {use.font.name} ({share:.0%} of the glyphs drawn)"
        from ..lang.textrepair import find_shift

        shift = find_shift(use.text, model)
        if shift is None and declared_shift:
            continue
        if shift is not None:
            return shift_found(f"{name} reads as language only once", shift, alone.score)
        return Decision(
            Verdict.GARBLED,
            (f"{name}: its text is mapped but reads as no language ({alone.reason})",
             f"its text: {use.text[:60]!r}"),
            "language", score=alone.score,
        )
    return None


#: How far above its language's threshold (nats per pair) a font's own text must read for its
#: letter pairs to outweigh letters drawn at odd frequencies: real right-to-left text measured
#: 0.8 or more, permuted maps that passed 0.6 at most.
FLUENT_MARGIN = 0.7


def rare_letters(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> Decision | None:
    """Fonts of a right-to-left script whose most drawn letters are not the language's frequent
    ones (see :mod:`letterfreq`): a permuted map the letter pairs, read both ways, let pass.

    The frequencies come from the codes drawn and the fonts' maps. Fonts whose program or
    names already vouched for their map (the crosscheck rung) are not asked, nor a font whose
    own text reads fluently (a table of names draws letters at odd frequencies, and still reads
    as language); the fonts found wrong are weighed like bad glyphs, under the one limit.
    """
    if not content.glyphs:
        return None
    from ..lang.langmodel import judge
    from .letterfreq import agreement, letter_counts, may_check

    wrong = 0
    lines: list[str] = []
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        font = use.font
        if font.has_account or use.sound or not may_check(font):
            continue
        found = agreement(letter_counts(use.codes, font.unicode))
        if found is None or found.agrees:
            continue
        needs_text(content)
        alone = judge(STRAY.sub(" ", use.text), model=model, lang=settings.lang)
        if alone.passes and alone.margin >= FLUENT_MARGIN:
            continue
        wrong += use.glyphs
        lines.append(f"font {font.name} ({use.glyphs / content.glyphs:.0%} of the glyphs "
                     f"drawn): {found.describe()}")
    if not wrong or (wrong + content.bad_glyphs) / content.glyphs <= settings.max_bad_glyphs:
        return None
    return Decision(Verdict.GARBLED, tuple(lines), "language")


#: Below this many words of its own on a page, a font's text is judged together with what it
#: drew on earlier pages: a scrambled map is the same on every page, and a slide's or a form's
#: few words can read as some language by chance.
POOL_WORDS = 40


def _has_words(text: str, count: int) -> bool:
    """Does `text` hold at least `count` words? Stops reading at the count (long pages)."""
    return sum(1 for _ in itertools.islice(WORD.finditer(text), count)) >= count


def pooled_font(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None,
    trust: FontTrust, earlier: dict[Any, str],
) -> Decision | None:
    """A font drawing a thin share of words here whose text over the document reads as no
    language (see :meth:`FontTrust.pooled`)."""
    if not earlier or not content.glyphs:
        return None
    from ..lang.langmodel import judge

    allowed = bad_within_limit(content, settings)
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        before = earlier.get(use.font)
        share = use.glyphs / content.glyphs
        if before is None or share <= settings.max_bad_glyphs or use.sound:
            continue
        if _has_words(use.text, POOL_WORDS):
            continue  # enough words to have been judged on this page alone (a cheap look)
        words = STRAY.sub(" ", before) + "\n" + _font_words(use, allowed)
        if len(WORD.findall(words)) < MIN_FONT_WORDS:
            continue
        pooled = judge(words, model=model, lang=settings.lang)
        if pooled.passes is not False or not_running_words(words):
            if pooled.passes and len(words) >= FontTrust.POOL_CHARS:
                trust.pool_reads(use.font)
            continue
        from ..lang.textrepair import find_shift

        name = f"font {use.font.name} ({share:.0%} of the glyphs drawn)"
        shift = find_shift(before + "\n" + use.text, model)
        if shift is not None:
            return shift_found(
                f"{name}: its text on this and earlier pages reads as language only once",
                shift, pooled.score)
        return Decision(
            Verdict.GARBLED,
            (f"{name}: its text on this and earlier pages is mapped but reads as no language "
             f"({pooled.reason})", f"its text here: {use.text[:60]!r}"),
            "language", score=pooled.score,
        )
    return None
