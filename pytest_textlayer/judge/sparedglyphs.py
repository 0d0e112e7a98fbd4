"""Glyphs the static-font rung counts bad by their route that still read right.

A route can be missing or odd while nothing is lost: codes that draw the
font's .notdef box, letters of a shaped cluster whose text another glyph
carries, Private Use symbols standing alone (bullets, icons, a symbol
font's area), and fonts without a route whose codes are the characters.
These cases are decided on what readers print or what is drawn, so they
live apart from the rung that weighs routes.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from ..model import FontStatus
from ..patterns import on_first_use
from ..settings import CheckSettings
from .decision import STRAY
from .oddfonts import MIN_FONT_WORDS, WORD

if TYPE_CHECKING:
    from ..lang.langmodel import LetterPairModel
    from ..pdf.pagecontent import FontUse, PageContent


#: Private Use code points where symbol fonts' codes are mapped (Microsoft's convention):
#: a bullet drawn alone there is a bullet, not a lost letter.
SYMBOL_AREA = re.compile("(?<![^\\s])[\uf000-\uf0ff](?![^\\s])")
#: Any Private Use character standing alone: an icon or a font's own unencoded glyph.
_PUA_ALONE = on_first_use("(?<![^\\s])[\ue000-\uf8ff\U000f0000-\U0010fffd](?![^\\s])")


def readable_anyway(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> tuple[int, list[str]]:
    """Bad glyphs that still reach readers as the right text, with the reason for each font.

    Four cases, decided on what readers print or what is drawn, not on the route:
    a font without a route whose codes nevertheless are the characters
    (Ghostscript re-distils subsets as symbolic TrueType with ASCII codes, and
    every reader prints the text right), judged by reading that font's text;
    Private Use symbols standing alone (Word's and PowerPoint's bullets, icons),
    which are symbols, not letters lost; codes that select the font's .notdef
    glyph, the box drawn for a character the font lacks; and the glyphs of a
    shaped cluster whose text another glyph carries.
    """
    from ..lang.langmodel import judge

    spared = 0
    notes: list[str] = []
    for use in content.fonts:
        if not use.bad_glyphs:
            continue
        notdef = 0  # glyphs that lose no character, whatever their map says
        for count, what in ((_notdef_glyphs(use), "draw the font's missing-glyph box "
                             "(.notdef)"),
                            (_cluster_parts(use), "are letters of shaped clusters whose text "
                             "another glyph carries")):
            if count:
                notdef += count
                notes.append(f"{count} glyph(s) of font {use.font.name} {what}: no character "
                             "is lost")
        spared += notdef
        if notdef and notdef >= use.bad_glyphs:
            continue
        status, route, _ = use.judge()  # one judgement; the properties each judge again
        if status is FontStatus.WRONG and route == "pua":
            # Where the font's map gives most glyphs real characters, a Private Use value is
            # the font's own code point for a glyph Unicode has none for (DejaVu's tone
            # letters, an icon); where it gives most glyphs Private Use values, only
            # Microsoft's symbol area is taken as symbols.
            area = SYMBOL_AREA if use.font.route == "pua" else _PUA_ALONE()
            alone = min(use.bad_glyphs - notdef, len(area.findall(use.text)))
            symbols = _symbol_font_glyphs(use)
            if symbols > alone:
                spared += symbols
                notes.append(f"{symbols} glyph(s) of symbol font {use.font.name} map to "
                             "Microsoft's symbol area (U+F020-F0FF), as symbol fonts do: "
                             "symbols, not letters lost")
                continue
            if alone:
                spared += alone
                notes.append(f"{alone} glyph(s) of font {use.font.name} are symbols standing "
                             "alone in the Private Use Area (bullets, icons), not letters")
            continue
        if status not in (FontStatus.SEVERED, FontStatus.RECOVERABLE) or route == "null":
            continue
        # Readers must print text, not control characters with a few runs of letters between
        # them (a subset numbered in order of first use prints 'AB CD EFGH' among controls,
        # which can pass as some language): no more strays than the bad-glyph share, and
        # enough distinct words.
        printed = len("".join(use.text.split()))
        strays = len(STRAY.findall(use.text))
        if strays > settings.max_bad_glyphs * printed:
            continue
        words = STRAY.sub(" ", use.text)
        if len(set(WORD.findall(words))) < MIN_FONT_WORDS:
            continue
        verdict = judge(words, model=model, lang=settings.lang)
        if verdict.passes is True:
            spared += use.bad_glyphs - notdef
            notes.append(f"font {use.font.name} has no route by the specification, but its "
                         f"codes are the characters: readers print text that reads as "
                         f"{verdict.lang}")
    return spared, notes


def _notdef_glyphs(use: FontUse) -> int:
    """Bad glyphs whose codes select the program's .notdef: the box drawn for a character
    the font lacks, which no map can give a letter for."""
    font = use.font
    return sum(n for code, n in use.codes.items()
               if font.why(code) is not None and font.draws_notdef(code))


def _cluster_parts(use: FontUse) -> int:
    """Unmapped glyphs of a shaped cluster whose text another glyph carries.

    A producer that shapes Bengali, Devanagari or Khmer maps a cluster's whole
    text (``মি``, consonant and vowel sign) to one of its glyphs and leaves the
    others unmapped; readers print the cluster once, and nothing is lost. Such
    a glyph is known by its own letter (the program's cmap) standing inside a
    cluster value, one holding a combining mark, of a code drawn on the page.
    A ligature's value (``fi``) holds no mark: a lost ``f`` still counts.
    """
    font = use.font
    if not font.tounicode or not font.embedded:
        return 0
    clusters = "".join(value for code in use.codes
                       if len(value := font.unicode.get(code, "")) > 1
                       and any(unicodedata.category(c).startswith("M") for c in value))
    if not clusters:
        return 0
    parts = 0
    for code, n in use.codes.items():
        if font.why(code) == "unmapped":
            own = font.recover(code)
            if own is not None and len(own) == 1 and own in clusters:
                parts += n
    return parts


def _symbol_font_glyphs(use: FontUse) -> int:
    """Glyphs a symbol font draws that its map gives in the symbol area (U+F020-F0FF), where
    Microsoft's convention maps them."""
    if not use.font.symbol_font:
        return 0
    unicode = use.font.unicode
    return sum(n for code, n in use.codes.items()
               if len(value := unicode.get(code, "")) == 1 and 0xF020 <= ord(value) <= 0xF0FF)
