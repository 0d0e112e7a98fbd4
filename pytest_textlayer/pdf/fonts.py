"""Static analysis of one PDF font: its route to Unicode, and which of its codes have none.

Follows the taxonomy (design/taxonomy.md, "How a glyph reaches Unicode"): the specification's three
routes (a sane ToUnicode, a named encoding or AGL glyph names, a CJK
collection) make a font *usable*; an embedded ``cmap``/``post``/charset that
only some readers use makes it *recoverable*; nothing at all makes it
*severed*; a route that leads to PUA, U+FFFD or one collapsed value makes it
*wrong*. Badness is also judged per code, because a page is condemned by the
glyphs it draws, not by the font's worst corner: :meth:`FontInfo.judge_use`
turns the codes a page draws into the status and evidence for that page.

The caller caches :func:`analyse_font` per font object (its objgen); the font
program is parsed with fontTools lazily and only when no specified route
exists or a charset check needs it.

This module is the entry: it tells simple fonts (:mod:`.simplefonts`) from
Type0 fonts (:mod:`.cidfonts`) and names symbol fonts. The record both give
is :class:`.fontinfo.FontInfo`; the ToUnicode is judged in :mod:`.tounicode`,
the embedded program read in :mod:`.fontprogram`, the routes outside the
specification worked out in :mod:`.fallbackroutes`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..model import FontStatus
from .cidfonts import analyse_type0
from .fontinfo import FontInfo
from .fontprogram import pdf_name, pdf_text
from .simplefonts import analyse_simple

if TYPE_CHECKING:
    import pikepdf


# -- the analysis ------------------------------------------------------------------------------
#: Fonts whose glyphs are symbols by name: the standard 14's Symbol and ZapfDingbats, their
#: URW clones that Ghostscript and every Linux system substitute (Standard Symbols PS,
#: D050000L), and Microsoft's Wingdings, Webdings, Marlett and MT Extra.
SYMBOL_FONT_NAME = re.compile(r"symbol|wingding|webding|dingbat|marlett|mt ?extra|d050000l",
                              re.IGNORECASE)


def analyse_font(font: pikepdf.Dictionary) -> FontInfo:
    """Decide the font's route to Unicode by the taxonomy; never raises on a malformed font."""
    import pikepdf

    subtype = pdf_name(font.get("/Subtype")) or "Unknown"
    base = pdf_name(font.get("/BaseFont")) or pdf_text(font.get("/Name", ""))[1:] or "(unnamed)"
    try:
        info = analyse_type0(font, base) if subtype == "Type0" else \
            analyse_simple(font, base, subtype)
        if SYMBOL_FONT_NAME.search(base) or any(
                SYMBOL_FONT_NAME.search(name) for name in _described_names(font)):
            object.__setattr__(info, "symbol_font", True)
        return info
    except (pikepdf.PdfError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return FontInfo(
            base,
            subtype,
            None,
            "severed",
            FontStatus.SEVERED,
            f"font dictionary is malformed ({type(exc).__name__})",
            missing="font",
        )


def _described_names(font: Any) -> list[str]:
    """The FontName and FontFamily of a font's descriptor (a Type3 font has no other name)."""
    import pikepdf

    descriptor = font.get("/FontDescriptor")
    if descriptor is None and isinstance(font.get("/DescendantFonts"), pikepdf.Array):
        descriptor = font.DescendantFonts[0].get("/FontDescriptor")
    if not isinstance(descriptor, pikepdf.Dictionary):
        return []
    return [pdf_name(descriptor.get("/FontName")) or "",
            pdf_text(descriptor.get("/FontFamily", ""))]
