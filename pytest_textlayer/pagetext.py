"""A page's text as the fonts' declared routes give it, collected during the content walk.

The classifier reads this instead of asking PDFium to lay out every page:
it costs a translate per shown string, it keeps the control characters that
a shifted map produces (PDFium drops them, and with them the word breaks the
shift test needs), and it stops after a bounded number of characters. Word
and line breaks are inferred from where strings start, with each font's mean
glyph width standing in for the string's advance.

Codes without a declared value come out as the character with that number,
as poppler prints them. Fonts whose codes need tables we do not ship (CJK
collections) make the text `complete = False`, and the classifier falls back
to a real reader.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

from .fonts import ONE_BYTE, FontInfo

#: Characters collected per page; the language rung reads fewer than this.
TEXT_BUDGET = 6000
#: A TJ adjustment moving right by more than this (thousandths of an em) is a word break.
TJ_SPACE = 180
#: A gap wider than this share of the font size between two strings is a word break.
GAP_SPACE = 0.3
#: A vertical move larger than this share of the font size is a line break.
LINE_BREAK = 0.5
#: Mean glyph width (in ems) assumed when a font gives none.
DEFAULT_WIDTH = 0.5

_tables: weakref.WeakKeyDictionary[FontInfo, dict[int, str]] = weakref.WeakKeyDictionary()
_widths: weakref.WeakKeyDictionary[FontInfo, float] = weakref.WeakKeyDictionary()


def remember_width(info: FontInfo, font: Any) -> None:
    """Measure a font's mean glyph width once, when it is first analysed."""
    _widths[info] = mean_width(font)


def width_of(info: FontInfo) -> float:
    return _widths.get(info, DEFAULT_WIDTH)


def _table(info: FontInfo) -> dict[int, str]:
    table = _tables.get(info)
    if table is None:
        table = {code: text for code, text in info.unicode.items() if len(text) != 1
                 or ord(text) != code}
        _tables[info] = table
    return table


def decodes_fully(info: FontInfo) -> bool:
    """Can this font's codes be turned into the text readers give, without external tables?"""
    return bool(info.unicode) or info.missing is not None or info.codes_are_utf16


def mean_width(font: Any) -> float:
    """The font's mean advance width in ems, from /Widths or a CIDFont's /W and /DW."""
    import pikepdf

    try:
        widths: list[float] = []
        if font.get("/Subtype") == pikepdf.Name.Type0:
            descendant = font["/DescendantFonts"][0]
            default = float(descendant.get("/DW", 1000))
            spec = descendant.get("/W")
            if isinstance(spec, pikepdf.Array):
                items = list(spec)
                i = 0
                while i + 1 < len(items):
                    if isinstance(items[i + 1], pikepdf.Array):
                        widths.extend(float(w) for w in items[i + 1])
                        i += 2
                    elif i + 2 < len(items):
                        widths.extend([float(items[i + 2])] * min(
                            int(items[i + 1]) - int(items[i]) + 1, 256))
                        i += 3
                    else:
                        break
            if not widths:
                return default / 1000
        else:
            spec = font.get("/Widths")
            if isinstance(spec, pikepdf.Array):
                widths = [float(w) for w in spec if float(w) > 0]
        scale = 1000.0
        if font.get("/Subtype") == pikepdf.Name.Type3:
            matrix = font.get("/FontMatrix")
            scale = 1 / float(matrix[0]) if matrix is not None and float(matrix[0]) else 1000.0
        good = [w for w in widths if w > 0]
        return sum(good) / len(good) / scale if good else DEFAULT_WIDTH
    except Exception:
        return DEFAULT_WIDTH


class TextSink:
    """Collects one page's text, bounded, with inferred word and line breaks."""

    def __init__(self, budget: int = TEXT_BUDGET) -> None:
        self.budget = budget
        self.parts: list[str] = []
        self.size = 0
        self.complete = True
        self._last: tuple[float, float, float] | None = None  # (end x, y, em) in user space

    @property
    def full(self) -> bool:
        return self.size >= self.budget

    def text(self) -> str:
        return "".join(self.parts)

    def show(
        self,
        info: FontInfo,
        items: Iterable[Any],
        origin: tuple[float, float],
        em: float,
        width: float,
    ) -> None:
        """One text-showing operator: `items` are strings and TJ numbers, in order.

        `origin` is where the string starts in user space and `em` the font
        size there; `width` the font's mean glyph width in ems.
        """
        if self.full:
            return
        if not decodes_fully(info):
            self.complete = False
        import pikepdf

        pieces: list[str] = []
        advance = 0.0
        for item in items:
            if isinstance(item, pikepdf.String):
                text = _decode(info, bytes(item))
                pieces.append(text)
                advance += len(text) * width
            else:
                try:
                    shift = float(item)
                except (TypeError, ValueError):
                    continue
                if shift < -TJ_SPACE and pieces and not pieces[-1].endswith(" "):
                    pieces.append(" ")
                advance -= shift / 1000
        body = "".join(pieces)
        if not body:
            return
        x, y = origin
        em = abs(em) or 1.0
        last = self._last
        if last is not None:
            end, last_y, last_em = last
            step = max(em, last_em)
            if abs(y - last_y) > LINE_BREAK * step:
                self._add("\n")
            elif (x - end > GAP_SPACE * step or x < end - 2 * step) and not body.startswith(" "):
                self._add(" ")
        self._add(body)
        self._last = (x + advance * em, y, em)

    def _add(self, text: str) -> None:
        if self.parts and text in (" ", "\n") and self.parts[-1].endswith((" ", "\n")):
            return
        self.parts.append(text)
        self.size += len(text)


def _decode(info: FontInfo, raw: bytes) -> str:
    ranges = info.code_ranges
    if ranges == ONE_BYTE:
        chars = raw.decode("latin-1")
    elif len(ranges) == 1 and ranges[0][0] == 2:
        chars = raw[: len(raw) // 2 * 2].decode("utf-16-be", errors="surrogatepass")
    else:
        chars = "".join(map(chr, info.split_codes(raw)))
    if info.codes_are_utf16:
        return chars
    return chars.translate(_table(info))
