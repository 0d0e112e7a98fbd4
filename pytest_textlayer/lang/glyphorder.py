"""The Macintosh standard glyph order as a code → text table.

TrueType fonts built in this order (258 names: 0 `.notdef`, 3 `space`,
36 `A`, … 98 `Adieresis`, …) and embedded as Identity-H without a ToUnicode
make readers emit the glyph index as the character. A constant offset of 29
repairs printable ASCII; this table also repairs the accented letters, which
sit elsewhere in the same order.
"""

from __future__ import annotations

import functools


@functools.cache
def mac_standard_table() -> dict[int, str]:
    """Glyph index → Unicode text through the glyph's standard name (fontTools' AGL), kept in
    the user cache: importing fontTools' glyph list and its ``ttLib`` to make it costs more
    than the shift search that asks for it."""
    from pathlib import Path

    from ..usercache import cached, package_files

    shaped_by = [Path(__file__), *package_files("fontTools", "agl.py",
                                                "ttLib/standardGlyphOrder.py")]
    return cached("mac-standard", shaped_by, _build)


def _build() -> dict[int, str]:
    from fontTools import agl
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    table: dict[int, str] = {}
    for index, name in enumerate(standardGlyphOrder):
        if name in (".notdef", ".null", "nonmarkingreturn"):
            table[index] = ""
            continue
        text = agl.toUnicode(name)
        if text:
            table[index] = text
    return table
