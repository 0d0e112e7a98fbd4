"""The PDF's named simple-font encodings and glyph-name resolution through the Adobe Glyph List.

Kept apart from :mod:`fonts` so the tables are built once, lazily, and can be
shared with the repairer (which writes ToUnicode maps from the same names).
"""

from __future__ import annotations

import functools
import re

#: Names the PDF specification gives to simple-font encodings (Annex D).
NAMED_ENCODINGS = ("StandardEncoding", "WinAnsiEncoding", "MacRomanEncoding", "MacExpertEncoding")
#: Ligature glyph names poppler and PDFium show as their letters where the AGL gives
#: U+FB00-U+FB04 (pdfTeX's glyphtounicode.tex writes them as letters too).
LIGATURE_LETTER_NAMES = frozenset({"ff", "fi", "fl", "ffi", "ffl"})

#: Glyph-name shapes that carry an index, not a character (LibreOffice, Ghostscript, dvips).
_INDEX_NAME = re.compile(
    r"^(?:g|gid|glyph|index|cid|c|G|C|MT|T3_\d+_|sym|a|char|orn|ch|uni_|x)_?\d+$|^#\d+$", re.I
)


def is_index_name(name: str) -> bool:
    """`g123`, `gid00043`, `glyph45`, `index45`, `cid123`, `c65`, `MT65`, `T3_0_65`, `sym000`."""
    return bool(_INDEX_NAME.match(name))


@functools.lru_cache(maxsize=8192)
def name_to_unicode(name: str, zapf: bool = False) -> str:
    """The AGL specification's mapping of a glyph name ('' when the name means nothing)."""
    if not name or name == ".notdef":
        return ""
    if zapf:
        from fontTools import agl

        return str(agl.toUnicode(name, isZapfDingbats=True))
    known = _standard()[1]
    found = known.get(name)
    if found is not None:
        return found
    # The AGL specification's mapping (fontTools.agl.toUnicode's steps), over the list kept
    # in the user cache: importing fontTools.agl to read it costs about 15 ms a process.
    return "".join([_component(part, known) for part in name.split(".", 1)[0].split("_")])


_UNI_NAME = re.compile("^uni([0-9A-F]+)$")
_U_NAME = re.compile("^u([0-9A-F]{4,6})$")


def _component(part: str, known: dict[str, str]) -> str:
    """One ``_``-separated component of a glyph name: the list, ``uniXXXX``, ``uXXXX[XX]``."""
    found = known.get(part)
    if found:
        return found
    uni = _UNI_NAME.match(part)
    if uni is not None and len(uni.group(1)) % 4 == 0:
        digits = uni.group(1)
        values = [int(digits[i:i + 4], 16) for i in range(0, len(digits), 4)]
        if not any(0xD800 <= value <= 0xDFFF for value in values):
            return "".join(map(chr, values))
    single = _U_NAME.match(part)
    if single is not None:
        value = int(single.group(1), 16)
        if value <= 0xD7FF or 0xE000 <= value <= 0x10FFFF:
            return chr(value)
    return ""


def encoding_table(name: str) -> dict[int, str]:
    """Code → glyph name for a named encoding (codes the encoding leaves undefined are absent)."""
    if name not in NAMED_ENCODINGS:
        raise KeyError(name)
    return _standard()[0][name]


_STANDARD: list[tuple[dict[str, dict[int, str]], dict[str, str]]] = []


def _standard() -> tuple[dict[str, dict[int, str]], dict[str, str]]:
    """The named encodings' tables and what glyph names mean, kept in the user cache.

    What names mean: every name of the Adobe Glyph List and of these
    encodings. Reading the list (importing fontTools.agl) costs about 15 ms a
    process; the answers do not change until this module or fontTools' list
    does.
    """
    if not _STANDARD:
        from pathlib import Path

        from ..usercache import cached, package_files

        shaped_by = [Path(__file__), *package_files("fontTools", "agl.py")]
        _STANDARD.append(cached("encodings", shaped_by, _build_standard))
    return _STANDARD[0]


def _build_standard() -> tuple[dict[str, dict[int, str]], dict[str, str]]:
    from fontTools import agl

    tables = {name: _build_table(name) for name in NAMED_ENCODINGS}
    names = {glyph for table in tables.values() for glyph in table.values()}
    known = {glyph: "".join(map(chr, values)) for glyph, values in agl.LEGACY_AGL2UV.items()}
    known.update((glyph, str(agl.toUnicode(glyph))) for glyph in sorted(names))
    return tables, known


def _build_table(name: str) -> dict[int, str]:
    from fontTools import agl

    table: dict[int, str] = {}
    if name == "StandardEncoding":
        from fontTools.encodings.StandardEncoding import StandardEncoding

        return {c: n for c, n in enumerate(StandardEncoding) if n != ".notdef"}
    if name == "WinAnsiEncoding":
        for code in range(0x20, 0x100):
            try:
                char = bytes([code]).decode("cp1252")
            except UnicodeDecodeError:
                char = "\u2022"  # Annex D: unused WinAnsi codes above 0o40 draw a bullet
            if code == 0x7F:
                char = "\u2022"
            table[code] = agl.UV2AGL.get(ord(char), f"uni{ord(char):04X}")
        table[0xA0] = "space"
        table[0xAD] = "hyphen"
        return table
    if name == "MacRomanEncoding":
        for code in range(0x20, 0x100):
            if code == 0x7F:
                continue
            char = bytes([code]).decode("mac_roman")
            if code == 0xDB:
                char = "\u00a4"  # the PDF's MacRomanEncoding keeps 'currency' here
            table[code] = agl.UV2AGL.get(ord(char), f"uni{ord(char):04X}")
        table[0xCA] = "space"
        table[0xDE], table[0xDF] = "fi", "fl"  # Annex D names them (the codec: uniFB01, uniFB02)
        return table
    if name == "MacExpertEncoding":
        return dict(_mac_expert())
    raise KeyError(name)


def _mac_expert() -> list[tuple[int, str]]:
    """MacExpertEncoding (Annex D.4), in part: small capitals and figures (PUA in the AGL)."""
    names = [
        "space",
        "exclamsmall",
        "Hungarumlautsmall",
        "centoldstyle",
        "dollaroldstyle",
        "dollarsuperior",
        "ampersandsmall",
        "Acutesmall",
        "parenleftsuperior",
        "parenrightsuperior",
        "twodotenleader",
        "onedotenleader",
        "comma",
        "hyphen",
        "period",
        "fraction",
        "zerooldstyle",
        "oneoldstyle",
        "twooldstyle",
        "threeoldstyle",
        "fouroldstyle",
        "fiveoldstyle",
        "sixoldstyle",
        "sevenoldstyle",
        "eightoldstyle",
        "nineoldstyle",
        "colon",
        "semicolon",
    ]
    out = [(0x20 + i, n) for i, n in enumerate(names)]
    out += [(0x61 + i, f"{chr(0x41 + i)}small") for i in range(26)]
    return out
