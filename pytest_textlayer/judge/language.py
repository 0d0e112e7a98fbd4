"""Rungs 4 and 5, language and shift: does the page's text read as some language?

Pages whose routes are all verified are not judged by language (unless
`--lang` asks for one); the others are judged on a sample of their text,
allowing minor fonts the contract's bad-glyph share, then font by font
(see oddfonts), and an invisible OCR layer must read well, not just pass.
Text that reads as no language is searched for a shift that repairs it
(`shifted`), else it is `garbled`. What earlier pages proved about the same
fonts may stand in for the judgement (see fonttrust).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..lang.textshape import not_running_words
from ..model import Verdict
from ..settings import CheckSettings
from .decision import ALL_ROUTES, LANGUAGE_SAMPLE, STRAY, Decision, needs_text, shift_found
from .fonttrust import NO_LANGUAGE, READS
from .oddfonts import bad_codes_blanked, bad_within_limit, odd_font, pooled_font, rare_letters

if TYPE_CHECKING:
    from ..lang.langmodel import LanguageJudgement, LetterPairModel
    from ..pdf.pagecontent import FontUse, PageContent
    from .fonttrust import FontTrust


def language(
    text: str,
    content: PageContent,
    settings: CheckSettings,
    model: LetterPairModel | None,
    trust: FontTrust | None = None,
    number: int = 0,
) -> Decision:
    readable = Decision(Verdict.READABLE, (ALL_ROUTES,),
                         "fonts")
    if content.glyphs < settings.min_glyphs:
        return readable
    sound = [use for use in content.fonts if use.glyphs and use.sound]
    unsound = content.glyphs - sum(use.glyphs for use in sound)
    if sound and unsound <= settings.max_bad_glyphs * content.glyphs:
        if settings.lang is not None:
            return _expected_language(text, content, settings, model)
        if trust is not None:
            trust.vouched_last = True  # the next page likely needs no more text either
        return Decision(Verdict.READABLE, (*readable.evidence, _sound_line(sound, content)),
                         "fonts")
    if sound and content.text_complete:
        # The language rung reads only the glyphs whose route cannot be verified.
        text = "\n".join(use.text for use in content.fonts if not use.sound)
    known = trust.vouch(content) if trust is not None else None
    if known is not None:
        outcome, line = known
        if outcome == READS:
            return Decision(Verdict.READABLE, (*readable.evidence, line), "language")
        return Decision(Verdict.GARBLED, (line,), "language")
    needs_text(content)
    from ..lang.langmodel import (
        judge,  # not before: a page of sound routes is judged by no language
    )

    # Stray controls and U+FFFD were weighed by the reader-signal rung; judge the words.
    words = STRAY.sub(" ", language_sample(text))
    verdict = judge(words, model=model, lang=settings.lang)
    if verdict.passes is False:
        verdict = (_without_minor_bad_fonts(content, settings, model)
                   or _without_minor_failing_fonts(content, settings, model) or verdict)
    shape = not_running_words(words) if verdict.passes is False else None
    if shape is not None:
        return Decision(Verdict.READABLE, (*readable.evidence, _shape_line(shape)), "language",
                         score=verdict.score)
    weak = _weak_ocr_layer(content, verdict, text)
    if weak is not None:
        return weak
    if trust is not None:
        earlier = trust.pooled(content)  # before this page joins the pool
        trust.remember(content)
    if verdict.passes is None or verdict.passes:
        odd = odd_font(content, settings, model) or (
            pooled_font(content, settings, model, trust, earlier) if trust is not None else None
        ) or rare_letters(content, settings, model)
        if odd is not None:
            return odd
        detail = f"text reads as {verdict.lang}" if verdict.passes and verdict.lang else None
        evidence = readable.evidence + ((detail,) if detail else ())
        if verdict.passes and verdict.lang and trust is not None:
            trust.credit(content, READS, verdict.lang, number)
        return Decision(Verdict.READABLE, evidence, "language", score=verdict.score)
    from ..lang.textrepair import find_shift  # only a failed judgement needs the shift search

    shift = find_shift(text, model)
    if shift is not None:
        return shift_found("the text reads as language once", shift, verdict.score)
    if trust is not None:
        trust.credit(content, NO_LANGUAGE, verdict.reason, number)
    return Decision(
        Verdict.GARBLED,
        (f"text is mapped but reads as no language the model knows ({verdict.reason})",),
        "language", score=verdict.score,
    )


def _expected_language(
    text: str, content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> Decision:
    """`--lang`: a page whose routes are sound still fails when its running words are in
    another language, as asked; no shift is searched for (its map is sound)."""
    from ..lang.langcodes import speaks
    from ..lang.langmodel import judge

    needs_text(content)
    words = STRAY.sub(" ", language_sample(text))
    assert settings.lang is not None
    verdict = judge(words, model=model, lang=settings.lang)
    best = judge(words, model=model)
    other = verdict.passes is False or (best.passes is True and not speaks(best.lang,
                                                                          settings.lang))
    if other and not_running_words(words) is None:
        return Decision(
            Verdict.GARBLED,
            (f"the text does not read as {settings.lang}, the language asked for "
             f"({best.reason if verdict.passes else verdict.reason})",),
            "language", score=verdict.score)
    return Decision(Verdict.READABLE, (ALL_ROUTES,), "language", score=verdict.score)


def _shape_line(shape: str) -> str:
    """The evidence of text that reads as no language and is no prose either."""
    return (f"its text is not running words ({shape}): reading as no language is no evidence "
            "against its map")


def _sound_line(sound: list[FontUse], content: PageContent) -> str:
    """The evidence of a page the language rung does not judge."""
    from ..pdf.soundroute import sound_reason

    reasons = sorted({sound_reason(use.font) for use in sound})
    share = sum(use.glyphs for use in sound) / content.glyphs
    return (f"{share:.0%} of the glyphs drawn reach Unicode by a verified route "
            f"({'; '.join(reasons)}): not judged by language")


def _without_minor_bad_fonts(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> LanguageJudgement | None:
    """The page's judgement without the fonts whose glyphs the font rung already counted bad,
    when together they draw no more than the bad-glyph share: a heading font with a broken
    map is allowed on a page of good body text (the contract's 10 % rule), so its letters
    must not fail the page through the language rung instead.

    When the bad fonts draw more than that share but their bad glyphs do not, the page is
    judged again with those glyphs blanked out of the text; only a pass counts then."""
    from ..lang.langmodel import judge

    if not bad_within_limit(content, settings):
        return None
    bad = [use for use in content.fonts if use.bad_glyphs]
    if sum(u.glyphs for u in bad) <= settings.max_bad_glyphs * content.glyphs:
        rest = "\n".join(use.text for use in content.fonts if not use.bad_glyphs)
        again = judge(STRAY.sub(" ", language_sample(rest)), model=model, lang=settings.lang)
        if again.passes is not False:
            return again
    # The bad glyphs of a font that draws most of the page (MuPDF's ToUnicode omits the glyphs
    # HarfBuzz substituted: lam forms inside Arabic words): readers print those codes as the
    # characters with their numbers, letters of another alphabet inside the words. They were
    # counted by the font rung; the words are judged without them.
    blanked = "\n".join(bad_codes_blanked(use) if use.bad_glyphs else use.text
                         for use in content.fonts)
    again = judge(STRAY.sub(" ", language_sample(blanked)), model=model, lang=settings.lang)
    return again if again.passes is True else None


def _without_minor_failing_fonts(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> LanguageJudgement | None:
    """The page's judgement without the unverified fonts whose own text reads as no language,
    when together they draw no more than the bad-glyph share.

    A minor font with a wrong map (a heading, a word a re-print mangled: `Фа@и?ия`) gives
    ordinary characters, so the font rung counts none of its glyphs bad; judged with the
    rest, its letters fail the whole page. The contract's 10 % rule allows such a font, as it
    allows one with unmapped glyphs: the rest of the page decides (the font is still judged
    alone, with its share, by the odd-font rung)."""
    from ..lang.langmodel import judge

    limit = settings.max_bad_glyphs * content.glyphs
    judged = [use for use in content.fonts if use.glyphs and not use.sound]
    minor: list[FontUse] = []
    drawn = 0
    for use in sorted(judged, key=lambda u: u.glyphs):
        if drawn + use.glyphs > limit:
            break
        if judge(STRAY.sub(" ", use.text), model=model, lang=settings.lang).passes is False:
            minor.append(use)
            drawn += use.glyphs
    if not minor or len(minor) == len(judged):
        return None
    rest = "\n".join(use.text for use in judged if use not in minor)
    again = judge(STRAY.sub(" ", language_sample(rest)), model=model, lang=settings.lang)
    return again if again.passes is not False else None


#: How far above its language's threshold an invisible OCR layer must score. OCR of the right
#: language scores like typed text (0.8 nats or more above it, noisy memos included); OCR run
#: in the wrong script or language only just clears it.
OCR_MARGIN = 0.4


#: Share of an OCR layer's words that may mix letters with digits or symbols ('гемеме4',
#: '{Не') before a layer that reads only moderately well is called OCR in the wrong script:
#: glyph shapes the OCR language lacks come out as digits and brackets. Right-language OCR,
#: even of a poor typewritten memo, has a few (e-mail addresses, OCR slips).
OCR_MIXED_WORDS = 0.25
#: Words an OCR layer must have before their mix is counted.
OCR_MIN_WORDS = 20
_OCR_TOKEN = re.compile(r"\S+")
_OCR_MIXED = re.compile(r"[^\W\d_][\d{}|\\$*@#%^&=+~<>\[\]]+[^\W\d_]"
                        r"|[^\W\d_]{2}[\d{}|\\$*@#%^&=+~<>\[\]]+$"
                        r"|^[\d{}|\\$*@#%^&=+~<>\[\]]+[^\W\d_]{2}")


def _mixed_ocr_words(text: str) -> tuple[int, int, list[str]]:
    """(words of two letters or more, those mixing letters with digits or symbols, examples)."""
    words = [t for t in _OCR_TOKEN.findall(text[:LANGUAGE_SAMPLE])
             if sum(ch.isalpha() for ch in t) >= 2]
    mixed = [t for t in words if _OCR_MIXED.search(t)]
    return len(words), len(mixed), mixed[:3]


def _weak_ocr_layer(
    content: PageContent, verdict: LanguageJudgement, text: str = ""
) -> Decision | None:
    """An OCR layer (mostly invisible text) that barely reads: the wrong language was OCR'd."""
    if not verdict.passes or verdict.lang is None or content.invisible_glyphs * 2 <= content.glyphs:
        return None  # no OCR layer, or none with letters to judge (numbers only)
    if verdict.score >= verdict.threshold + OCR_MARGIN:
        if verdict.score >= verdict.threshold + 2 * OCR_MARGIN:
            return None
        words, mixed, examples = _mixed_ocr_words(text)
        if words < OCR_MIN_WORDS or mixed <= OCR_MIXED_WORDS * words:
            return None
        return Decision(
            Verdict.GARBLED,
            (f"{mixed} of {words} words of the invisible OCR layer mix letters with digits or "
             f"symbols ({', '.join(map(repr, examples))}) and it reads only moderately as "
             f"{verdict.lang} ({verdict.score:.2f} nats per pair): OCR run in the wrong script, "
             "whose missing letter shapes came out as digits and brackets",),
            "language", score=verdict.score,
        )
    return Decision(
        Verdict.GARBLED,
        (f"the invisible OCR layer reads only weakly as {verdict.lang} ({verdict.score:.2f} "
         f"nats per pair, {verdict.threshold + OCR_MARGIN:.2f} wanted of an OCR layer): OCR "
         "run in the wrong script or language",),
        "language", score=verdict.score,
    )


def language_sample(text: str, limit: int = LANGUAGE_SAMPLE) -> str:
    """Up to `limit` characters from the start, middle and end of a long page, cut at spaces."""
    if len(text) <= limit:
        return text
    third = limit // 3
    middle = len(text) // 2 - third // 2
    parts = (text[:third], text[middle:middle + third], text[-third:])
    return "\n".join(_trim_to_words(p) for p in parts)


def _trim_to_words(part: str) -> str:
    first, last = part.find(" "), part.rfind(" ")
    return part[first + 1:last] if 0 <= first < last else part
