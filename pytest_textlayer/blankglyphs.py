"""Codes whose glyph draws nothing: the spaces of a font whose program names no character.

OCR cannot read a space, and PDFium leaves out of its character list many
glyphs that draw nothing, so glyph OCR never gets a reading for the space
of a severed font. The font program still tells: a TrueType glyph with no
contours (and a CFF glyph with no path) that advances the pen is a space.
That is the font's own drawing, not a guess from another font, and without
it a page of prose keeps one unmapped glyph in six.

Composite fonts reach the glyph through the CIDToGIDMap; a simple symbolic
TrueType (LibreOffice's subsets) through its (3,0) or (1,0) cmap, the code
or U+F000 plus the code (ISO 32000 §9.6.6.4).
"""

from __future__ import annotations

from typing import Any

from .fonts import cid_widths, simple_widths
from .recover import FontUsage, _descendant, _gid_codes, _load_truetype, _program_glyphs


def blank_codes(usage: FontUsage) -> set[int]:
    """Codes of ``usage`` whose glyph in the embedded TrueType has no outline and a width."""
    program = _program_glyphs(usage)
    if program is None:
        return _simple_blank_codes(usage)
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


def _simple_blank_codes(usage: FontUsage) -> set[int]:
    """The same for a simple TrueType that selects its glyphs by code through a symbol cmap."""
    import pikepdf

    font = usage.font
    if font.get("/Subtype") != pikepdf.Name.TrueType:
        return set()
    desc = font.get("/FontDescriptor")
    stream = desc.get("/FontFile2") if isinstance(desc, pikepdf.Dictionary) else None
    if not isinstance(stream, pikepdf.Stream):
        return set()
    try:
        tt = _load_truetype(bytes(stream.read_bytes()))
        if "glyf" not in tt or "cmap" not in tt:
            return set()
        tables = [t for t in tt["cmap"].tables if t.platformID in (1, 3) and t.platEncID == 0]
        if not tables:
            return set()
        glyf = tt["glyf"]
        widths = simple_widths(font)
        out: set[int] = set()
        for code in usage.codes():
            name = next((n for t in tables for c in (code, 0xF000 + code)
                         if (n := t.cmap.get(c)) not in (None, ".notdef")), None)
            if name is None or name not in glyf:
                continue
            if getattr(glyf[name], "numberOfContours", 1) == 0 and widths.get(code, 0) > 0:
                out.add(code)
        return out
    except Exception:  # noqa: BLE001 - a program fontTools cannot read shows no spaces
        return set()
