"""Rung 2, contradicted maps: ToUnicode values the font itself contradicts.

A permuted or shifted map gives ordinary characters that are not the ones
drawn, so no route looks bad; the font program's glyph names or cmap, its
widths, or the order of its glyph ids give it away (see pdf.crosscheck).
Contradicted glyphs are weighed like unmapped ones, under the one limit.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from ..model import Verdict
from ..settings import CheckSettings
from .decision import SAMPLE_LIMIT, Decision, needs_text

if TYPE_CHECKING:
    from ..lang.langmodel import LetterPairModel
    from ..pdf.fontinfo import FontInfo
    from ..pdf.pagecontent import FontUse, PageContent


#: Distinct codes of one font a page must draw against its program's account before they count,
#: unless every letter the page draws with it is contradicted (a folio 'ii'): one or two odd
#: glyphs among right ones are a producer's quirk, not a wrong map.
MIN_CONTRADICTED_CODES = 3


def contradicted(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None = None
) -> Decision | None:
    """Glyphs whose ToUnicode contradicts their font's own glyph names or cmap (crosscheck).

    A permuted or shifted ToUnicode gives ordinary characters that are not the
    ones drawn; the font program usually names its glyphs, and when most of
    the letters a page draws with a font are named one thing and mapped to
    another, those glyphs are wrong whatever the language judge makes of
    them. Weighed like unmapped glyphs: more than the bad-glyph share of the
    page condemns it. The check is cached per font; clean fonts cost nothing.
    """
    if not content.glyphs:
        return None
    wrong_total = 0
    lines: list[str] = []
    offsets: set[int | None] = set()
    repaired: list[str] = []
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        found = use.font.contradiction
        if found is None:
            if use.invisible_glyphs * 2 <= use.glyphs:  # OCR fonts' widths mean nothing
                wrong = _width_contradiction(use, lines)
                if wrong:
                    needs_text(content)
                    wrong_total += wrong
                    # Widths say the map is wrong, not how: a shifted map reads once shifted.
                    from ..lang.textrepair import find_shift

                    moved = find_shift(use.text, model)
                    if moved is not None and moved.method == "offset" and moved.offset:
                        offsets.add(-moved.offset)
                        repaired.append(moved.text)
                    else:
                        offsets.add(None)
                else:
                    wrong = _order_contradiction(use, lines)
                    wrong_total += wrong
                    if wrong:
                        offsets.add(None)
            continue
        drawn = use.codes
        compared, wrong, distinct = found.weigh(drawn)
        if wrong * 2 <= compared or (distinct < MIN_CONTRADICTED_CODES and wrong < compared):
            continue
        needs_text(content)
        wrong_total += wrong
        offsets.add(found.offset)
        lines.append(f"font {use.font.name} ({use.font.subtype}): {found.describe(drawn)}; "
                     f"{wrong} of {use.glyphs} glyphs drawn")
        if found.offset is not None:
            from ..lang.textshift import shift

            repaired.append(shift(use.text, -found.offset))
    # The glyphs other routes already count bad (a shifted map's digits and spaces land on
    # control characters) join the contradicted letters under the one bad-glyph limit.
    if not wrong_total or (wrong_total + content.bad_glyphs) / content.glyphs <= \
            settings.max_bad_glyphs:
        return None
    share = wrong_total / content.glyphs
    summary = (f"{wrong_total} of {content.glyphs} glyphs drawn ({share:.0%}) read as other "
               "characters than their fonts name")
    if content.bad_glyphs:
        summary += f", besides {content.bad_glyphs} with no usable route"
    if len(offsets) == 1 and None not in offsets:
        offset = -next(iter(o for o in offsets if o is not None))
        sample = " ".join(" ".join(r.split()) for r in repaired)
        return Decision(
            Verdict.SHIFTED,
            (*lines, summary, f"the declared map reads right once shifted by {offset:+d} code "
             f"points", f"repaired sample: {sample[:60]!r}"),
            "fonts", offset=offset, repaired_sample=sample[:SAMPLE_LIMIT],
        )
    return Decision(Verdict.GARBLED, (*lines, summary), "fonts")


def _width_contradiction(use: FontUse, lines: list[str]) -> int:
    """Glyphs of a font without its own account whose widths do not follow their letters.

    Narrow letters are narrow and wide ones wide in every proportional Latin
    font: when the widths of the letters a page draws with a font do not rank
    like the letters its ToUnicode gives them (each case apart), the map is
    permuted, or shifted (lower-case glyphs given as capitals). Only fonts
    whose program names nothing are measured (the names decide the others),
    once per page, on eight distinct letters of one case at least;
    a font whose widths followed its letters on one page is trusted after.
    """
    from ..pdf.rankcheck import MAX_WIDTH_CORRELATION, symbol_face, width_correlation

    font = use.font
    if font.has_account or font in _WIDTHS_AGREE:
        return 0  # its names or cmap agreed with its map (read by the caller first)
    if font.symbol_font:
        return 0  # symbols rank like no letters: 'A' typed in Dingbats draws a scissors
    letters = font.letter_widths
    if not letters:
        return 0
    drawn = use.codes
    found = width_correlation(letters, drawn)
    if found is None:
        return 0
    rho, n = found
    if rho >= MAX_WIDTH_CORRELATION:
        if rho >= 2 * MAX_WIDTH_CORRELATION:
            _WIDTHS_AGREE.add(font)
        return 0
    if symbol_face(letters, drawn) is not None:
        _WIDTHS_AGREE.add(font)  # a symbol face that lost its name: what was typed, as named
        return 0
    wrong = sum(k for code, k in drawn.items() if code in letters)
    lines.append(f"font {font.name} ({font.subtype}): the widths of its glyphs do not follow "
                 f"the letters its ToUnicode gives them (rank correlation {rho:.2f} over {n} "
                 f"letters of one case; proportional fonts give 0.6 or more): a wrong map; "
                 f"{wrong} of {use.glyphs} glyphs drawn")
    return wrong


def _order_contradiction(use: FontUse, lines: list[str]) -> int:
    """Glyphs of an Identity font without its own account whose glyph ids do not follow the
    Unicode order of their letters (see rankcheck.code_order_correlation).

    CJK widths are all equal and a subset keeps neither cmap nor post names, so neither names
    nor widths can contradict a permuted map over ideographs; the glyph order can. Only
    TrueType and OpenType programs, whose codes are glyph ids: a CID-keyed CFF's CIDs follow a
    character collection's order, not Unicode's. Subsets numbered again (from 1, or in order of
    first use) and fonts in a legacy East Asian encoding's order (GBK, Big5, Shift-JIS, EUC-KR)
    are left alone.
    """
    from ..pdf.rankcheck import MIN_ORDER_CORRELATION, code_order_correlation

    font = use.font
    if (font.has_account or font.subtype != "Type0" or font.program not in ("TrueType", "OpenType")
            or font.encoding not in ("Identity-H", "Identity-V")):
        return 0
    drawn = use.codes
    found = code_order_correlation(font.unicode, drawn)
    if found is None or found[0] >= MIN_ORDER_CORRELATION:
        return 0
    rho, n = found
    wrong = sum(k for code, k in drawn.items()
                if len(text := font.unicode.get(code, "")) == 1 and text.isalpha())
    lines.append(f"font {font.name} ({font.subtype}): the glyph ids of its letters do not follow "
                 f"the Unicode order of the letters its ToUnicode gives them (rank correlation "
                 f"{rho:.2f} over {n} letters; fonts lay glyphs out near Unicode order, 0.33 or "
                 f"more): a permuted map; {wrong} of {use.glyphs} glyphs drawn")
    return wrong


#: Fonts whose widths followed their letters on a page: not measured again.
_WIDTHS_AGREE: weakref.WeakSet[FontInfo] = weakref.WeakSet()
