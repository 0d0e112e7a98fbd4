"""The broken pipeline step: re-embed simple TrueType fonts as Identity-H CID fonts.

Many real producers do this (it lifts the 256-glyph limit of simple fonts)
and some get it half right: the glyphs are drawn by glyph index, no
/ToUnicode map is written, and the font program's cmap table is dropped as
"unused". Every viewer still shows the right shapes; no reader can tell
which characters they are.
"""

from __future__ import annotations

import io
from typing import Any


def embed_as_identity_cid(data: bytes) -> bytes:
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    converted: dict[Any, dict[int, int]] = {}
    for page in pdf.pages:
        fonts = page.Resources.get("/Font", {})
        names: dict[str, dict[int, int]] = {}
        for name, font in list(fonts.items()):
            key = font.objgen
            if key not in converted:
                if font.get("/Subtype") != "/TrueType" or "/FontDescriptor" not in font:
                    continue
                converted[key] = _convert(pdf, font)
            names[name] = converted[key]
        if names:
            _rewrite_content(pdf, page, names)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def _convert(pdf: Any, font: Any) -> dict[int, int]:
    """Turn one simple TrueType font into Type0/Identity-H in place; return code → glyph id."""
    import pikepdf
    from fontTools.ttLib import TTFont

    descriptor = font.FontDescriptor
    program = TTFont(io.BytesIO(descriptor.FontFile2.read_bytes()))
    cmap = program["cmap"].getcmap(1, 0) or program["cmap"].getcmap(3, 0)
    code_to_gid = {code: program.getGlyphID(glyph) for code, glyph in cmap.cmap.items()}
    first = int(font.get("/FirstChar", 0))
    widths = [float(w) for w in font.get("/Widths", [])]
    w_array: list[Any] = []
    for code, gid in sorted(code_to_gid.items(), key=lambda item: item[1]):
        if first <= code < first + len(widths):
            w_array += [gid, pikepdf.Array([widths[code - first]])]
    del program["cmap"]  # "unused" once glyphs are addressed by index
    buffer = io.BytesIO()
    program.save(buffer)
    descriptor.FontFile2 = pikepdf.Stream(pdf, buffer.getvalue())
    descendant = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.CIDFontType2,
            BaseFont=font.BaseFont,
            CIDSystemInfo=pikepdf.Dictionary(
                Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
            ),
            FontDescriptor=descriptor,
            CIDToGIDMap=pikepdf.Name.Identity,
            W=pikepdf.Array(w_array),
        )
    )
    for key in ("/FirstChar", "/LastChar", "/Widths", "/ToUnicode", "/Name"):
        if key in font:
            del font[key]
    font.Subtype = pikepdf.Name.Type0
    font.Encoding = pikepdf.Name("/Identity-H")
    font.DescendantFonts = pikepdf.Array([descendant])
    return code_to_gid


def _two_bytes(data: bytes, code_to_gid: dict[int, int]) -> bytes:
    return b"".join(code_to_gid.get(b, 0).to_bytes(2, "big") for b in data)


def _rewrite_content(pdf: Any, page: Any, fonts: dict[str, dict[int, int]]) -> None:
    import pikepdf

    current: dict[int, int] | None = None
    out = []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "Tf":
            current = fonts.get(str(operands[0]))
        elif current is not None and op in ("Tj", "'", '"'):
            operands = [*operands[:-1], pikepdf.String(_two_bytes(bytes(operands[-1]), current))]
        elif current is not None and op == "TJ":
            parts = [
                pikepdf.String(_two_bytes(bytes(p), current))
                if isinstance(p, pikepdf.String)
                else p
                for p in operands[0]
            ]
            operands = [pikepdf.Array(parts)]
        out.append(pikepdf.ContentStreamInstruction(operands, operator))
    page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(out))
