"""Codes whose glyph draws nothing: the spaces of a font whose program names no character.

OCR cannot read a space, and PDFium leaves out of its character list many
glyphs that draw nothing, so glyph OCR never gets a reading for the space
of a severed font. The font program still tells: a TrueType glyph with no
contours (and a CFF glyph with no path) that advances the pen is a space.
That is the font's own drawing, not a guess from another font, and without
it a page of prose keeps one unmapped glyph in six.
"""

from __future__ import annotations

from typing import Any

from ..pdf.cidfonts import cid_widths
from .fontusage import FontUsage
from .fontusage import descendant as _descendant
from .fontusage import gid_codes as _gid_codes
from .fontusage import program_glyphs as _program_glyphs


def blank_codes(usage: FontUsage) -> set[int]:
    """Codes of ``usage`` whose glyph in the embedded TrueType has no outline and a width."""
    program = _program_glyphs(usage)
    if program is None:
        return set()
    glyf, order = program
    cidfont = _descendant(usage.font)
    widths = cid_widths(cidfont) if cidfont is not None else {}
    default = float(cidfont.get("/DW", 1000)) if cidfont is not None else 0.0
    out: set[int] = set()
    for code, gid in _gid_codes(usage).items():
        if not 0 < gid < len(order):  # glyph 0 is .notdef: a box in most fonts, never a space
            continue
        try:
            glyph: Any = glyf[order[gid]]
        except (KeyError, IndexError, ValueError):
            continue
        if getattr(glyph, "numberOfContours", 1) == 0 and widths.get(code, default) > 0:
            out.add(code)
    return out
