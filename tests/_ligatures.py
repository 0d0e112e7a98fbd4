"""A page whose font names its ligature glyphs (shared by the breaker and repair tests)."""

from __future__ import annotations

import io

#: Codes of the named-ligature page: the glyph names a Differences array gives them.
LIGATURE_CODES = {1: "fi", 2: "fl", 3: "ffi", 4: "uniFB01"}


def named_ligature_page(lines: list[str]) -> bytes:
    """Times-Roman, not embedded, no ToUnicode, its Differences naming the ligature glyphs
    ``fi fl ffi`` (and one ``uniFB01``): the text of old producers and TeX's dvips route.

    In ``lines`` the characters U+0001-U+0004 stand for the four codes.
    """
    import pikepdf

    pdf = pikepdf.new()
    names = [pikepdf.Name("/" + LIGATURE_CODES[c]) for c in sorted(LIGATURE_CODES)]
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/Times-Roman"),
        Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                    BaseEncoding=pikepdf.Name.WinAnsiEncoding,
                                    Differences=[1, *names])))
    ops = [b"BT /F1 11 Tf 14 TL 72 760 Td"]
    for line in lines:
        ops.append(pikepdf.String(line.encode("latin-1")).unparse() + b" Tj T*")
    ops.append(b"ET")
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.Contents = pdf.make_stream(b"\n".join(ops))
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)
    return out.getvalue()
