"""A real name-keyed CFF program for the font tests (fontTools' FontBuilder writes it)."""

from __future__ import annotations


def cff_program(names: tuple[str, ...]) -> bytes:
    """A real name-keyed CFF font (square glyphs) built with fontTools' FontBuilder."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    order = [".notdef", *names]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap({})
    charstrings = {}
    for name in order:
        pen = T2CharStringPen(600, None)
        pen.moveTo((50, 0))
        pen.lineTo((550, 0))
        pen.lineTo((550, 700))
        pen.lineTo((50, 700))
        pen.closePath()
        charstrings[name] = pen.getCharString()
    builder.setupCFF("TestCFF", {"FullName": "TestCFF"}, charstrings, {})
    builder.setupHorizontalMetrics({name: (600, 50) for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    return bytes(builder.font.getTableData("CFF "))
