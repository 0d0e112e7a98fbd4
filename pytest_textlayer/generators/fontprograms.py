"""Embedded font programs (TrueType, OpenType): cut off their route to Unicode, or ask if
they still hold one.

The `sever` breaker drops a Type0 font's program's ``cmap`` and ``post``
tables (the glyph outlines stay, so the page renders as before); a broken
page's truth then says which route, if any, a repair can still read text
from (:func:`program_route`).
"""

from __future__ import annotations

import io
from typing import Any


def _drop_tables_raw(data: bytes, tags: set[bytes]) -> bytes:
    """Remove tables from an sfnt by rewriting its directory (when fontTools cannot read it)."""
    import struct

    version, count = struct.unpack(">IH", data[:6])
    entries = [struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i]) for i in range(count)]
    kept = [e for e in entries if e[0] not in tags]
    n = len(kept)
    power = 1 << (n.bit_length() - 1) if n else 0
    head = struct.pack(">IHHHH", version, n, power * 16, (power.bit_length() - 1) if n else 0,
                       n * 16 - power * 16)
    offset = 12 + 16 * n
    directory, body = [], []
    for tag, checksum, start, length in kept:
        chunk = data[start:start + length]
        directory.append(struct.pack(">4sIII", tag, checksum, offset, length))
        chunk += b"\0" * (-len(chunk) % 4)
        body.append(chunk)
        offset += len(chunk)
    return head + b"".join(directory) + b"".join(body)


def drop_cmap_and_post(data: bytes) -> bytes:
    """The font program without its Unicode cmap and its glyph names (glyph outlines kept)."""
    try:
        from fontTools.ttLib import TTFont
    except ImportError:  # pragma: no cover - a declared dependency
        from ..errors import MissingDependency

        raise MissingDependency("fontTools", "pip install fonttools") from None
    try:
        font = TTFont(io.BytesIO(data), recalcBBoxes=False, recalcTimestamp=False, lazy=True)
        for tag in ("cmap", "post"):
            if tag in font:
                del font[tag]
        out = io.BytesIO()
        font.save(out, reorderTables=False)
        return out.getvalue()
    except Exception:  # noqa: BLE001 - fontTools raises many kinds on odd subsets
        return _drop_tables_raw(data, {b"cmap", b"post"})


def sever_program(font: Any, done: set[tuple[int, int]]) -> None:
    import pikepdf

    desc = font.get("/DescendantFonts")
    cid = desc[0] if desc is not None and len(desc) else None
    fd = cid.get("/FontDescriptor") if cid is not None else None
    if fd is None:
        return
    for key in ("/FontFile2", "/FontFile3"):
        stream = fd.get(key)
        if not isinstance(stream, pikepdf.Stream):
            continue
        if key == "/FontFile3" and stream.get("/Subtype") != pikepdf.Name.OpenType:
            continue  # a bare CID-keyed CFF has no cmap and no glyph names to drop
        objgen = tuple(stream.objgen)
        if objgen in done and objgen != (0, 0):
            continue
        done.add((objgen[0], objgen[1]))
        data = bytes(stream.read_bytes())
        if data[:4] not in (b"\0\1\0\0", b"true", b"OTTO"):
            continue
        new = drop_cmap_and_post(data)
        stream.write(new)
        if key == "/FontFile2":
            stream[pikepdf.Name.Length1] = len(new)


def _mostly_text(cmap: dict[int, str]) -> bool:
    """A Unicode cmap that says what the glyphs are: most code points are characters, or
    symbol-font codes U+F020 and up (U+F000 + a character code, as the PDF's own codes).

    Ghostscript re-encodes the TrueType subsets it writes through a symbol
    (3,0) cmap at U+F001, U+F002... in order of first use: a table fontTools
    calls Unicode, which numbers glyphs (its first codes are control
    positions) and says nothing of the text.
    """
    from ..repairs.recover import is_pua

    if any(0xF001 <= cp <= 0xF01F for cp in cmap):
        return False
    said = sum(not is_pua(chr(cp)) or 0xF020 <= cp <= 0xF0FF for cp in cmap)
    return bool(cmap) and said * 2 > len(cmap)


def _mostly_named(order: list[str]) -> bool:
    """Most glyph names stand for characters through the AGL (not 'glyph00004', 'uniF001')."""
    from ..repairs.recover import agl

    names = [n for n in order if n != ".notdef"]
    return bool(names) and sum(bool(agl(n)) for n in names) * 2 > len(names)


def program_route(font: Any) -> str | None:
    """What the font's embedded program holds that a repair can read text from, if anything."""
    import pikepdf

    if font.get("/Subtype") == pikepdf.Name.Type0:
        desc = font.get("/DescendantFonts")
        font = desc[0] if desc is not None and len(desc) else None
        if font is None:
            return None
    fd = font.get("/FontDescriptor")
    if not isinstance(fd, pikepdf.Dictionary):
        return None
    ff3 = fd.get("/FontFile3")
    if isinstance(ff3, pikepdf.Stream) and ff3.get("/Subtype") == pikepdf.Name.Type1C:
        return "charset"  # a simple CFF font names its glyphs
    stream = fd.get("/FontFile2")
    if stream is None and isinstance(ff3, pikepdf.Stream) \
            and ff3.get("/Subtype") == pikepdf.Name.OpenType:
        stream = ff3
    if not isinstance(stream, pikepdf.Stream):
        return None
    import logging

    log = logging.getLogger("fontTools")
    level = log.level
    log.setLevel(logging.CRITICAL)  # sloppy subsets make fontTools chatty ("extra bytes in post")
    try:
        from fontTools.ttLib import TTFont

        tt = TTFont(io.BytesIO(bytes(stream.read_bytes())), lazy=True)
        if "cmap" in tt and any(t.isUnicode() and _mostly_text(t.cmap) for t in tt["cmap"].tables):
            return "cmap"
        if "post" in tt and tt["post"].formatType == 2 and _mostly_named(tt.getGlyphOrder()):
            return "post"
    except Exception:  # noqa: BLE001 - a program fontTools cannot read holds nothing usable
        return None
    finally:
        log.setLevel(level)
    return None
