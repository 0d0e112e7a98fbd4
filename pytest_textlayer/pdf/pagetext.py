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

import codecs
import functools
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .fontinfo import ONE_BYTE, FontInfo, split_codes
from .fontprogram import pdf_numbers, pdf_width_items

_textshow: Any
try:  # the compiled text assembly (_textshow.c); absent, TextSink.show does it in Python
    from . import _textshow
except ImportError:  # pragma: no cover - depends on the build
    _textshow = None

#: Characters collected per page; the language rung reads fewer than this.
TEXT_BUDGET = 6000
#: Characters a lean walk collects: the report's sample (400) with room (see
#: PageContent.text_cut).
LEAN_BUDGET = 1000
#: A TJ adjustment moving right by more than this (thousandths of an em) is a word break.
TJ_SPACE = 180
#: A gap wider than this share of the font size between two strings is a word break.
GAP_SPACE = 0.3
#: A vertical move larger than this share of the font size is a line break.
LINE_BREAK = 0.5
#: Mean glyph width (in ems) assumed when a font gives none.
DEFAULT_WIDTH = 0.5

@dataclass(frozen=True)
class TextFont:
    """What the text collection needs of one font, worked out once per font (not per string)."""

    #: Turns one shown string's bytes into the text the font's declared route gives.
    decode: Callable[[bytes], str]
    #: False when the font's codes need tables we do not ship (CJK collections).
    complete: bool
    #: Mean glyph advance in ems.
    width: float


_fonts: weakref.WeakKeyDictionary[FontInfo, TextFont] = weakref.WeakKeyDictionary()


def remember_width(info: FontInfo, font: Any) -> None:
    """Measure a font's mean glyph width once, when it is first analysed."""
    _fonts[info] = text_font(info, mean_width(font))


def text_font(info: FontInfo, width: float | None = None) -> TextFont:
    """The font's :class:`TextFont` (made with `width`, or the remembered one, when new)."""
    found = _fonts.get(info)
    if found is None or width is not None and width != found.width:
        found = TextFont(_decoder(info), decodes_fully(info),
                         DEFAULT_WIDTH if width is None else width)
        _fonts[info] = found
    return found


def _table(info: FontInfo, unicode: Mapping[int, str]) -> dict[int, str]:
    """What `str.translate` needs to decode the font's codes (`unicode`: their texts): a
    one-byte font's codes whose text is not their own character; a wider font's map as it is
    (an entry giving a code's own character translates to itself, and a CJK font's map has
    thousands to sift)."""
    if info.code_width == 1:
        return {code: text for code, text in unicode.items()
                if code < 256 and (len(text) != 1 or ord(text) != code)}
    return unicode if type(unicode) is dict else dict(unicode)


def decodes_fully(info: FontInfo) -> bool:
    """Can this font's codes be turned into the text readers give, without external tables?"""
    return (bool(info.unicode) or bool(info.bad) or info.missing is not None
            or info.codes_are_utf16 or bool(builtin_symbol_text(info)))


def builtin_symbol_text(info: FontInfo) -> dict[int, str]:
    """Text of a standard Symbol or ZapfDingbats font, not embedded, by its built-in encoding.

    Such a font has no encoding in the file and every code is fine (readers
    use the standard font's own encoding, PDF 32000 Annex D.5 and D.6), but
    the font analysis keeps no text for it; without this, one alpha in a
    page of prose sent the whole page to PDFium.
    """
    plain = info.name.split("+", 1)[-1]
    if (info.embedded or info.unicode or info.missing is not None or info.codes_are_utf16
            or info.code_ranges != ONE_BYTE or not plain.startswith(("Symbol", "ZapfDingbats"))):
        return {}
    return _symbol_table(plain.startswith("ZapfDingbats"))


@functools.lru_cache(maxsize=2)
def _symbol_table(zapf: bool) -> dict[int, str]:
    """The built-in encoding's text (shared by every such font: callers copy what they keep)."""
    from .encodings import name_to_unicode

    if zapf:
        from reportlab.pdfbase._fontdata_enc_zapfdingbats import ZapfDingbatsEncoding as names
    else:
        from reportlab.pdfbase._fontdata_enc_symbol import SymbolEncoding as names
    table = {code: name_to_unicode(name, zapf) for code, name in enumerate(names) if name}
    return {code: text for code, text in table.items() if text}


def _decoder(info: FontInfo) -> Callable[[bytes], str]:
    """The cheapest exact decoding for the font (codes without a value stay as that character).

    The decoder holds the font's tables, never the font: it is the value of a
    weak dictionary keyed by the font, which must be free to die.
    """
    ranges = info.code_ranges
    unicode = info.unicode or builtin_symbol_text(info)
    if (info.code_width == 1 and not info.codes_are_utf16
            and set(map(len, unicode.values())) <= {1}):
        # The font's 256 characters laid over latin-1's, each code's text (one character) in
        # its place, decoded by C charmap decoding (as translate would decode them; U+FFFE
        # would mark its byte undefined there, failing the string: translate keeps it), or
        # latin-1's own when nothing differs.
        laid = _LATIN1.translate(unicode)
        if laid == _LATIN1:
            return _latin1
        if "\ufffe" not in laid:
            return functools.partial(_charmap, laid)
    table = None if info.codes_are_utf16 else _table(info, unicode)
    if info.code_width == 2:
        return functools.partial(_two_byte_text, table)
    return functools.partial(_codes_text, ranges, table)


_LATIN1 = bytes(range(256)).decode("latin-1")


def _latin1(raw: bytes) -> str:
    return raw.decode("latin-1")


def _charmap(chars: str, raw: bytes) -> str:
    return codecs.charmap_decode(raw, "strict", chars)[0]


def _codes_text(
    ranges: tuple[tuple[int, int, int], ...], table: dict[int, str] | None, raw: bytes
) -> str:
    """Codes read through the codespace, each as the character with its number, then mapped."""
    if ranges == ONE_BYTE:
        chars = raw.decode("latin-1")
    else:
        chars = "".join(map(chr, split_codes(raw, ranges)))
    return chars if table is None else chars.translate(table)


def _two_byte_text(table: dict[int, str] | None, raw: bytes) -> str:
    """:func:`_codes_text` for a codespace of two-byte codes (Identity-H and most CID fonts).

    The codec is called directly: ``bytes.decode("utf-16-be")`` looks the codec up by name
    on every call, which cost three times the decoding itself (strings are a few codes).
    Surrogates pass as the codes they are; a trailing odd byte is no code.
    """
    chars = _utf16(raw[: len(raw) - 1] if len(raw) & 1 else raw, "surrogatepass", True)[0]
    return chars if table is None else chars.translate(table)


_utf16 = codecs.utf_16_be_decode


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
                items = pdf_width_items(spec)
                i = 0
                while i + 1 < len(items):
                    if isinstance(items[i + 1], (list, pikepdf.Array)):
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
                widths = [w for w in pdf_numbers(spec) if w > 0]
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
        #: Per font (keyed by the caller's object): its strings, for judging one font alone.
        self._by_font: dict[Any, list[str]] = {}

    def font_text(self, key: Any) -> str:
        """The text one font drew on this page, its strings joined by spaces."""
        return " ".join(self._by_font.get(key, ()))

    @property
    def full(self) -> bool:
        return self.size >= self.budget

    def text(self) -> str:
        return "".join(self.parts)

    def show(
        self,
        font: TextFont,
        items: Sequence[Any],
        origin: tuple[float, float],
        em: float,
        scale: float = 1.0,
        key: Any = None,
        instead: str | None = None,
    ) -> float:
        """One text-showing operator: `items` are strings (bytes) and TJ numbers, in order.

        `origin` is where the string starts in user space, `em` the font size
        there and `scale` the horizontal scaling (Tz) as a factor; `key`
        files the text under its font as well (see :meth:`font_text`).
        `instead` is the text that stands for these glyphs (an ActualText span):
        they are placed as drawn, but it is what is read.

        Returns how far the string moves the text position, in ems (by the
        font's mean width): the walk moves its text matrix so, and the next
        string shown without a move starts where this one ends, as in every
        reader (not back at this one's origin, which read as a word break).
        """
        if self.size >= self.budget:
            return 0.0
        if not font.complete:
            self.complete = False
        width = font.width * scale
        if len(items) == 1 and type(items[0]) is bytes:
            body = font.decode(items[0])
            advance = len(body) * width
        else:
            body, advance = _pieces(font, items, width)
        if instead is not None:
            body = instead
        if not body:
            return advance
        if key is not None:
            self._by_font.setdefault(key, []).append(body)
        x, y = origin
        em = abs(em) or 1.0
        last = self._last
        parts = self.parts
        if last is not None:
            end, last_y, last_em = last
            step = max(em, last_em)
            if abs(y - last_y) > LINE_BREAK * step:
                self._add("\n")
            elif (x - end > GAP_SPACE * step or x < end - 2 * step) and not body.startswith(" "):
                self._add(" ")
        if body == " " or body == "\n":
            self._add(body)
        else:
            parts.append(body)
            self.size += len(body)
        self._last = (x + advance * em, y, em)
        return advance

    def _add(self, text: str) -> None:
        if self.parts and text in (" ", "\n") and self.parts[-1].endswith((" ", "\n")):
            return
        self.parts.append(text)
        self.size += len(text)


def _usual_adjustment(items: list[Any]) -> float:
    """The adjustment every glyph gets when the array spaces glyphs one by one, else 0.

    Only an array of single-glyph strings (cairo's monospace output) has such
    letter spacing; in an array of words (pdfTeX) the common adjustment is
    the word gap itself and must stay a space.
    """
    shifts: list[float] = []
    strings = single = 0
    for item in items:
        if isinstance(item, bytes):
            strings += 1
            single += len(item) <= 2  # one code of a one- or two-byte font
            continue
        try:
            shifts.append(float(item))
        except (TypeError, ValueError):
            continue
    if len(shifts) < 4 or single * 5 < strings * 4 or len(shifts) * 2 < strings:
        return 0.0
    shifts.sort()
    middle = shifts[len(shifts) // 2]
    return middle if middle < 0 else 0.0


def _pieces(font: TextFont, items: Iterable[Any], width: float) -> tuple[str, float]:
    """A TJ array's text, with a space where an adjustment moves right by a word gap.

    A gap is measured from the array's usual adjustment, not from zero: some
    producers (cairo with monospace fonts) space every glyph with the same
    large adjustment, which is letter spacing, not a word break each time.
    """
    items = list(items)
    usual = _usual_adjustment(items)
    pieces: list[str] = []
    advance = 0.0
    for item in items:
        if isinstance(item, bytes):
            text = font.decode(item)
            pieces.append(text)
            advance += len(text) * width
        else:
            try:
                shift = float(item)
            except (TypeError, ValueError):
                continue
            if shift - usual < -TJ_SPACE and pieces and not pieces[-1].endswith(" "):
                pieces.append(" ")
            advance -= shift / 1000
    return "".join(pieces), advance


if _textshow is not None:
    # The thresholds are defined here only: the extension is given them, not a copy.
    _textshow.rules(TJ_SPACE, GAP_SPACE, LINE_BREAK)

#: :meth:`TextSink.show` as the walk calls it, ``show_text(sink, font, items, ...)``: the
#: compiled one when the extension is built (a string's assembly cost more in the Python
#: frames and bookkeeping than in its decoding), else the method itself. Same results.
show_text: Callable[..., float] = TextSink.show if _textshow is None else _textshow.show
