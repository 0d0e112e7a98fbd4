"""A plain TrueType's tables, read as fontTools reads them, without importing fontTools.

Importing fontTools' TrueType reader costs about 45 ms, a tenth of checking
a short document, and the check only asks a TrueType program which tables
it has, their bytes, its glyph count and, for a font without a Unicode cmap,
its glyph names (see fontprogram._load_sfnt). A program of the usual shape
(an sfnt version of TrueType, a table directory and the tables it asks for
within the data, a well-formed ``maxp``, ``post`` names of format 1 or 2)
is answered here. Anything else goes to fontTools' own TTFont, made when
first needed, so every program is read, and fails, as fontTools reads it.
"""

from __future__ import annotations

import io
from typing import Any

from ._cffstrings import MAC_STANDARD_ORDER

#: The sfnt versions of a TrueType program (an OpenType ``OTTO`` holds CFF: fontTools').
_TRUETYPE = (b"\x00\x01\x00\x00", b"true")


class PlainSfnt:
    """The TTFont questions of fontprogram._load_sfnt, for a program of the usual shape."""

    def __init__(self, data: bytes, tables: dict[str, tuple[int, int]]) -> None:
        self._data = data
        self._tables = tables
        self._font: Any = None

    @classmethod
    def of(cls, data: bytes) -> PlainSfnt | None:
        """The program's directory, or None when fontTools must read it (a collection, WOFF,
        OpenType CFF, a directory past the data)."""
        if len(data) < 12 or data[:4] not in _TRUETYPE:
            return None
        count = int.from_bytes(data[4:6], "big")
        if len(data) < 12 + 16 * count:
            return None
        tables: dict[str, tuple[int, int]] = {}
        for at in range(12, 12 + 16 * count, 16):  # a tag given twice: the last, as fontTools
            tag = data[at:at + 4].decode("latin-1")
            tables[tag] = (int.from_bytes(data[at + 8:at + 12], "big"),
                           int.from_bytes(data[at + 12:at + 16], "big"))
        return cls(data, tables)

    def __contains__(self, tag: str) -> bool:
        return tag in self._tables or tag == "GlyphOrder"  # as TTFont.has_key

    def getTableData(self, tag: str) -> bytes:  # noqa: N802 - TTFont's name
        """The table's bytes; fontTools raises for a table past the data (or absent)."""
        found = self._tables.get(tag)
        if found is not None and found[0] + found[1] <= len(self._data):
            return self._data[found[0]:found[0] + found[1]]
        data: bytes = self.ttfont().getTableData(tag)
        return data

    def getGlyphCount(self) -> int:  # noqa: N802 - TTFont's name
        """``maxp``'s glyph count, where the table is one fontTools decodes without a fault."""
        count = self._glyph_count()
        if count is None:
            count = int(self.ttfont().getGlyphCount())
        return count

    def getGlyphOrder(self) -> list[str]:  # noqa: N802 - TTFont's name
        """The glyph names: a ``post`` table of format 1 or 2 that names every glyph is read
        here, as fontTools reads it; any other way to the names is fontTools'."""
        names = self._post_names()
        if names is not None:
            return names
        order: list[str] = self.ttfont().getGlyphOrder()
        return order

    def _post_names(self) -> list[str] | None:
        found = self._tables.get("post")
        if found is None or "CFF " in self._tables or sum(found) > len(self._data):
            return None
        offset, length = found
        raw = self._data[offset:offset + length]
        count = self._glyph_count()
        if length < 32 or count is None:
            return None
        form = post_format(raw)
        if form == 1.0:  # the standard order; past its 258 names fontTools asks the cmap
            return list(MAC_STANDARD_ORDER[:count]) if count <= len(MAC_STANDARD_ORDER) else None
        if form != 2.0 or length < 34:
            return None
        named = min(int.from_bytes(raw[32:34], "big"), count)
        if length < 34 + 2 * named:
            return None  # fontTools' decoding faults: its own route says what follows
        indices = [int.from_bytes(raw[at:at + 2], "big") for at in range(34, 34 + 2 * named, 2)]
        extra = _pascal_strings(raw[34 + 2 * named:], max(indices, default=0) - 257)
        order = [""] * count
        for gid, index in enumerate(indices):  # extra holds a name for every index up to the last
            order[gid] = extra[index - 258] if index > 257 else MAC_STANDARD_ORDER[index]
        return _unique_names(order)

    def _glyph_count(self) -> int | None:
        found = self._tables.get("maxp")
        if "MAXP" not in self._tables and found is not None and sum(found) <= len(self._data):
            offset, length = found
            version = int.from_bytes(self._data[offset:offset + 4], "big")
            if (length == 6 and version == 0x00005000) or (length == 32 and version != 0x00005000):
                return int.from_bytes(self._data[offset + 4:offset + 6], "big")
        return None

    def ttfont(self) -> Any:
        """fontTools' TTFont of the program, made once, for what this does not answer."""
        if self._font is None:
            from fontTools.ttLib import TTFont

            self._font = TTFont(io.BytesIO(self._data), lazy=True, fontNumber=0)
        return self._font


def post_format(raw: bytes) -> float:
    """A ``post`` table's format, a 16.16 fixed-point number (2.0, 2.5 is 0x00028000)."""
    return int.from_bytes(raw[:4], "big", signed=True) / 65536


def _pascal_strings(data: bytes, n: int) -> list[str]:
    """fontTools' unpackPStrings: `n` length-prefixed names, "" where the data runs out."""
    strings = []
    index = 0
    for _ in range(n):
        length = data[index] if index < len(data) else 0
        index += 1
        strings.append("" if len(data) <= index + length - 1
                       else data[index:index + length].decode("latin-1"))
        index += length
    return strings


def _unique_names(order: list[str]) -> list[str]:
    """fontTools' build_psNameMapping: a nameless glyph is ``glyphNNNNN``, a name given again
    gets ``.1``, ``.2``... (skipping names the font itself uses)."""
    given = set(order)
    seen: dict[str, int] = {}
    for gid, name in enumerate(order):
        unique = name or f"glyph{gid:05d}"
        if unique in seen:
            n = seen[unique]
            while f"{unique}.{n}" in given:
                n += 1
            seen[unique] = n + 1
            unique = f"{unique}.{n}"
        seen[unique] = 1
        order[gid] = unique
    return order
