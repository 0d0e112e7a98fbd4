"""A plain TrueType's table directory, read as fontTools reads it, without importing fontTools.

Importing fontTools' TrueType reader costs about 45 ms, a tenth of checking
a short document, and the check only asks a TrueType program which tables
it has, their bytes and its glyph count (see fontprogram._load_sfnt). A
program of the usual shape (an sfnt version of TrueType, a table directory
and the tables it asks for within the data, a well-formed ``maxp``) is
answered here. Anything else, and every question beyond those (the glyph
order), goes to fontTools' own TTFont, made when first needed, so every
program is read, and fails, as fontTools reads it.
"""

from __future__ import annotations

import io
from typing import Any

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
        found = self._tables.get("maxp")
        if "MAXP" not in self._tables and found is not None and sum(found) <= len(self._data):
            offset, length = found
            version = int.from_bytes(self._data[offset:offset + 4], "big")
            if (length == 6 and version == 0x00005000) or (length == 32 and version != 0x00005000):
                return int.from_bytes(self._data[offset + 4:offset + 6], "big")
        count: int = self.ttfont().getGlyphCount()
        return count

    def getGlyphOrder(self) -> list[str]:  # noqa: N802 - TTFont's name
        order: list[str] = self.ttfont().getGlyphOrder()
        return order

    def ttfont(self) -> Any:
        """fontTools' TTFont of the program, made once, for what this does not answer."""
        if self._font is None:
            from fontTools.ttLib import TTFont

            self._font = TTFont(io.BytesIO(self._data), lazy=True, fontNumber=0)
        return self._font
