"""Codes whose glyph draws nothing: the spaces of a font whose program names no character.

OCR cannot read a space, and PDFium leaves out of its character list many
glyphs that draw nothing, so glyph OCR never gets a reading for the space
of a severed font. The font program still tells: a TrueType glyph with no
contours that advances the pen is a space. That is the font's own drawing,
not a guess from another font, and without it a page of prose keeps one
unmapped glyph in six.

Composite fonts reach the glyph through the CIDToGIDMap; a simple symbolic
TrueType (LibreOffice's subsets) through its (3,0) or (1,0) cmap, the code
or U+F000 plus the code (ISO 32000 §9.6.6.4).

Only ``loca`` and the first two bytes of each glyph drawn are read (an
empty glyph has no data, or a header of zero contours), not the outlines,
and each program once: the order hypotheses, the language's first pass
and glyph OCR all ask.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from ..pdf.cidfonts import cid_widths
from ..pdf.simplefonts import simple_widths
from .fontusage import FontUsage, descendant, gid_codes

#: What each program read says, by its digest: (is the glyph id empty, the glyph id its
#: (3,0)/(1,0) cmap gives a code, or None).
_Program = tuple[Callable[[int], bool], Callable[[int], "int | None"]]
_PROGRAMS: dict[str, _Program | None] = {}
_KEEP = 16


def blank_codes(usage: FontUsage) -> set[int]:
    """Codes of ``usage`` whose glyph in the embedded TrueType has no outline and a width."""
    import pikepdf

    font = usage.font
    if font.get("/Subtype") == pikepdf.Name.Type0:
        cidfont = descendant(font)
        desc = cidfont.get("/FontDescriptor") if cidfont is not None else None
        program = _program(desc)
        if program is None or cidfont is None:
            return set()
        empty, _ = program
        widths = cid_widths(cidfont)
        default = float(cidfont.get("/DW", 1000))
        # Glyph 0 is .notdef: a box in most fonts, never a space.
        return {code for code, gid in gid_codes(usage).items()
                if gid > 0 and empty(gid) and widths.get(code, default) > 0}
    if font.get("/Subtype") != pikepdf.Name.TrueType:
        return set()
    program = _program(font.get("/FontDescriptor"))
    if program is None:
        return set()
    empty, symbol_gid = program
    widths = simple_widths(font)
    out: set[int] = set()
    for code in usage.codes():
        gid = symbol_gid(code) or symbol_gid(0xF000 + code)
        if gid and empty(gid) and widths.get(code, 0) > 0:
            out.add(code)
    return out


def _program(desc: Any) -> _Program | None:
    """The empty-glyph test of a descriptor's embedded TrueType, read once per program."""
    import pikepdf

    stream = desc.get("/FontFile2") if isinstance(desc, pikepdf.Dictionary) else None
    if not isinstance(stream, pikepdf.Stream):
        return None
    try:
        data = bytes(stream.read_bytes())
    except pikepdf.PdfError:
        return None
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _PROGRAMS:
        while len(_PROGRAMS) >= _KEEP:
            _PROGRAMS.pop(next(iter(_PROGRAMS)))
        _PROGRAMS[digest] = _read(data)
    return _PROGRAMS[digest]


def _read(data: bytes) -> _Program | None:
    import io

    from fontTools.ttLib import TTFont

    try:
        tt = TTFont(io.BytesIO(data), lazy=True, fontNumber=0, recalcBBoxes=False)
        if "loca" not in tt or "glyf" not in tt.reader:
            return None
        offsets = list(tt["loca"])
        glyf = tt.reader["glyf"]
        symbol: dict[int, int] = {}
        if "cmap" in tt:
            for table in tt["cmap"].tables:
                if table.platformID in (1, 3) and table.platEncID == 0:
                    for code, name in table.cmap.items():
                        if name != ".notdef":
                            symbol.setdefault(code, tt.getGlyphID(name))
    except Exception:  # noqa: BLE001 - a program fontTools cannot read shows no spaces
        return None

    def empty(gid: int) -> bool:
        if not 0 <= gid < len(offsets) - 1:
            return False
        start, end = offsets[gid], offsets[gid + 1]
        # No data, or a header whose numberOfContours is 0.
        return bool(end <= start or glyf[start:start + 2] == b"\0\0")

    return empty, symbol.get
