"""Static analysis of one PDF font: its route to Unicode, and which of its codes have none.

Follows the taxonomy (design/taxonomy.md, "How a glyph reaches Unicode"): the specification's three
routes (a sane ToUnicode, a named encoding or AGL glyph names, a CJK
collection) make a font *usable*; an embedded ``cmap``/``post``/charset that
only some readers use makes it *recoverable*; nothing at all makes it
*severed*; a route that leads to PUA, U+FFFD or one collapsed value makes it
*wrong*. Badness is also judged per code, because a page is condemned by the
glyphs it draws, not by the font's worst corner: :meth:`FontInfo.judge_use`
turns the codes a page draws into the status and evidence for that page.

The caller caches :func:`analyse_font` per font object (its objgen); the font
program is parsed with fontTools lazily and only when no specified route
exists or a charset check needs it.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from .cmaps import CMap, parse_cmap
from .crosscheck import (
    MIN_WIDTH_RANK,
    Contradiction,
    compare,
    letter_widths,
    name_texts,
    program_texts,
    symbolic_texts,
    width_correlation,
)
from .encodings import NAMED_ENCODINGS, encoding_table, is_index_name, name_to_unicode
from .model import FontStatus

if TYPE_CHECKING:
    import pikepdf

#: Orderings whose CIDs the Adobe-<ordering>-UCS2 tables decode (PDF 2.0 adds KR).
CJK_ORDERINGS = frozenset({"GB1", "CNS1", "Japan1", "Korea1", "KR"})
#: The codespace of simple fonts: every code is one byte.
ONE_BYTE: tuple[tuple[int, int, int], ...] = ((1, 0, 0xFF),)
#: Values that carry no information in a ToUnicode map (veraPDF forbids the first three).
NULL_VALUES = frozenset("\x00\ufeff\ufffe\ufffd\uffff")

# Why a code is bad: the status it gives a page, the route name, and the phrase for the evidence.
REASONS: dict[str, tuple[FontStatus, str, str]] = {
    "unmapped": (FontStatus.SEVERED, "partial", "ToUnicode has no entry"),
    "null": (
        FontStatus.SEVERED,
        "null",
        "ToUnicode maps to a null value (U+0000/FFFD/FEFF/FFFE/FFFF)",
    ),
    # A route to the wrong characters, not a missing one: constant-offset ToUnicode maps and
    # glyph-id maps land on control characters (the shift rung may still read them).
    "control": (FontStatus.WRONG, "control", "ToUnicode maps to control characters"),
    "pua": (FontStatus.WRONG, "pua", "the route leads into the Private Use Area"),
    "collapsed": (FontStatus.WRONG, "collapsed", "ToUnicode maps many codes onto one value"),
    "nocode": (FontStatus.SEVERED, "encoding", "the encoding defines no glyph for the code"),
    "nonagl": (FontStatus.SEVERED, "agl", "glyph names outside the Adobe Glyph List"),
    "noascii": (
        FontStatus.SEVERED,
        "code",
        "no route but the code itself, and the code is no printable ASCII character",
    ),
    "notinfont": (
        FontStatus.WRONG,
        "encoding",
        "the encoding's glyph name is not in the embedded font",
    ),
}


_PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")


def _is_pua(text: str) -> bool:
    """Does `text` hold a Private Use character (U+E000-U+F8FF, planes 15 and 16)?"""
    return _PUA.search(text) is not None


#: Controls that are white space: a glyph mapped to them draws no letter that could be lost.
_WHITESPACE = frozenset("\t\n\r\x0b\x0c")


def value_reason(text: str) -> str | None:
    """Why a mapped value is useless (``null``, ``control``, ``pua``), or None when it is fine."""
    if not text or all(c in NULL_VALUES for c in text):
        return "null"
    if all(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text):
        return "control"
    if _is_pua(text):
        return "pua"
    return None


@dataclass(frozen=True, eq=False)
class FontInfo:
    """One font's route to Unicode, with per-code badness (see the module docstring)."""

    name: str
    subtype: str
    encoding: str | None
    route: str
    status: FontStatus
    problem: str | None
    #: ``(width, low, high)`` codespace ranges used to split shown strings into codes.
    code_ranges: tuple[tuple[int, int, int], ...] = ONE_BYTE
    #: The text the specification's route gives per code (bad values included).
    unicode: Mapping[int, str] = field(default_factory=dict, repr=False)
    #: Codes known to be bad, with the reason key (see :data:`REASONS`).
    bad: Mapping[int, str] = field(default_factory=dict, repr=False)
    #: Reason key for codes neither in ``unicode`` nor in ``bad``; None when such codes are fine.
    missing: str | None = None
    #: Text recoverable from the embedded program outside the spec's routes (cmap, post, charset).
    recovered: Mapping[int, str] = field(default_factory=dict, repr=False)
    embedded: bool = False
    #: The kind of embedded program: TrueType, CFF, CIDCFF, Type1, OpenType, or None.
    program: str | None = None
    #: Glyph names per code of a simple font (encoding plus Differences), for evidence and repair.
    glyph_names: Mapping[int, str] = field(default_factory=dict, repr=False)
    #: The encoding CMap is a Uni*-UCS2/UTF16 one: each code is its own UTF-16 text.
    codes_are_utf16: bool = False
    #: (kind, stream, cidfont) to compute ``recovered`` on first use (Type0 with a ToUnicode).
    lazy_program: Any = field(default=None, repr=False)
    #: (ToUnicode map, zero-argument callable giving the font's own texts per code and their
    #: source, optional second opinion) for :attr:`contradiction`; None without a ToUnicode.
    own_account: Any = field(default=None, repr=False)
    #: (ToUnicode map, zero-argument callable giving advance widths per code) for
    #: :attr:`letter_widths`; None without a ToUnicode or when codes are not width keys.
    width_account: Any = field(default=None, repr=False)
    #: Set by :attr:`contradiction`: the font's program or names gave an account of its glyphs
    #: (so its widths need not be measured).
    has_account: bool = field(default=False, repr=False)
    #: Set by :attr:`contradiction`: the program's own texts per code (see crosscheck.confirmed).
    account_texts: Mapping[int, frozenset[str]] = field(default_factory=dict, repr=False)
    #: The font has a ToUnicode stream (its route is the producer's claim, to be vouched for).
    tounicode: bool = False
    #: Flag 3 of the descriptor without flag 6: the font selects glyphs by code, not by name.
    symbolic: bool = False
    #: Named as a symbol font (see SYMBOL_FONT_NAME): its glyphs are symbols, not letters.
    symbol_font: bool = False
    #: Zero-argument callable giving the glyph names an embedded Type1/CFF program holds, for
    #: a simple font that selects glyphs by the names of a stock encoding (see soundroute).
    held_names: Any = field(default=None, repr=False)
    #: Zero-argument callable giving a test of whether a code selects glyph 0 (.notdef) of the
    #: embedded program, for :meth:`draws_notdef`; None when the font cannot tell.
    notdef_account: Any = field(default=None, repr=False)

    # -- codes -------------------------------------------------------------------------------
    def split_codes(self, data: bytes) -> list[int]:
        """The character codes of one shown string, read through the font's codespace."""
        return split_codes(data, self.code_ranges)

    def is_bad_code(self, code: int) -> bool:
        """True when this code has no usable route to Unicode."""
        if code in self.bad:
            return True
        if code in self.unicode:
            return False
        return self.missing is not None

    def why(self, code: int) -> str | None:
        """The reason key why ``code`` is bad, or None."""
        reason = self.bad.get(code)
        if reason is not None:
            return reason
        return None if code in self.unicode else self.missing

    def to_unicode(self, code: int) -> str | None:
        """The text the spec's route gives for ``code`` (even a bad one), None when none.

        Collection fonts need Adobe's UCS2 tables, which are not bundled: None,
        except for the Uni*-UCS2/UTF16 CMaps whose codes are UTF-16 themselves.
        """
        text = self.unicode.get(code)
        if text is None and self.codes_are_utf16:
            if code > 0xFFFF:  # a surrogate pair read as one 4-byte code
                text = code.to_bytes(4, "big").decode("utf-16-be", "replace")
            elif not 0xD800 <= code <= 0xDFFF:
                text = chr(code)
        return text

    def recover(self, code: int) -> str | None:
        """Text for ``code`` from the embedded program (cmap inversion, post or charset names).

        For a Type0 font with a ToUnicode the program is read on the first call
        only (the repairer needs it for the codes the ToUnicode misses or spoils),
        so it must happen while the PDF is open.
        """
        if self.lazy_program is not None:
            kind, stream, cidfont = self.lazy_program
            object.__setattr__(self, "lazy_program", None)
            try:
                found = program_route(kind, stream, cidfont)[3]
            except Exception:  # the PDF was closed or the program is broken: nothing to offer
                found = {}
            object.__setattr__(self, "recovered", {**found, **self.recovered})
        return self.recovered.get(code)

    @cached_property
    def _notdef_test(self) -> Callable[[int], bool] | None:
        if self.notdef_account is None:
            return None
        try:
            test: Callable[[int], bool] | None = self.notdef_account()
        except Exception:  # noqa: BLE001 - the PDF was closed or the program is broken
            test = None
        object.__setattr__(self, "notdef_account", None)
        return test

    def draws_notdef(self, code: int) -> bool:
        """Does ``code`` select the program's glyph 0, the missing-glyph box (first use only)?

        A producer that draws a character its font lacks draws .notdef, and a
        map that gives no character for it (U+0000, nothing) loses no letter:
        the box is no character. Read while the PDF is open.
        """
        test = self._notdef_test
        return test is not None and test(code)

    @cached_property
    def contradiction(self) -> Contradiction | None:
        """Where the ToUnicode contradicts the font's own glyph names or cmap (first use only).

        Read while the PDF is open; a program that cannot be read says nothing.
        A contradiction found by names a TrueType may not use is checked again
        against the program's own tables.
        """
        if self.own_account is None:
            return None
        tounicode, account, recheck = self.own_account
        object.__setattr__(self, "own_account", None)
        try:
            # (texts per code, their source[, whether the program names anything at all]):
            # a Type0 program's texts are kept to the codes the ToUnicode maps.
            own, source, *whole = account()
            object.__setattr__(self, "has_account", whole[0] if whole else bool(own))
            object.__setattr__(self, "account_texts", own)
            found = compare(tounicode, own, source) if own else None
            if found is not None and recheck is not None:
                again = recheck()
                if again is not None:
                    found = compare(tounicode, *again) if again[0] else None
        except Exception:  # noqa: BLE001 - the PDF was closed or the program is broken
            return None
        return found

    @cached_property
    def letter_widths(self) -> dict[int, tuple[str, float]]:
        """Code → (Latin-1 letter the ToUnicode gives, advance width), for fonts whose
        program gives no account of its glyphs (see crosscheck.width_correlation)."""
        if self.width_account is None:
            return {}
        tounicode, widths = self.width_account
        object.__setattr__(self, "width_account", None)
        try:
            return letter_widths(tounicode, widths())
        except Exception:  # noqa: BLE001 - malformed widths say nothing
            return {}

    # -- judging a page's use of the font -----------------------------------------------------
    @property
    def can_be_bad(self) -> bool:
        """Can any code of this font be bad? When not, a page's use is judged by its count alone."""
        return bool(self.bad) or self.missing is not None

    @cached_property
    def good_bytes(self) -> bytes:
        """The one-byte codes that are not bad (to delete with bytes.translate, leaving the bad)."""
        return bytes(code for code in range(256) if not self.is_bad_code(code))

    def judge_clean(self, total: int) -> tuple[FontStatus, str, str | None]:
        """Status, route and evidence for `total` glyphs drawn, none of them bad."""
        if self.status is FontStatus.USABLE or not total:
            return self.status, self.route, self.problem
        return FontStatus.USABLE, self.route, None

    def judge_use(self, codes: Mapping[int, int]) -> tuple[FontStatus, str, str | None]:
        """Status, route and evidence for the glyphs one page draws with this font.

        A font that is fine for the codes drawn is usable on that page even if
        other codes are bad; a whole-font failure keeps the font's own words.
        """
        total = sum(codes.values())
        reasons: Counter[str] = Counter()
        for code, n in codes.items():
            why = self.why(code)
            if why is not None:
                reasons[why] += n
        bad = sum(reasons.values())
        if not bad:
            return self.judge_clean(total)
        drawn = f"{bad} of {total} glyphs drawn"
        key, _ = reasons.most_common(1)[0]
        if self.status is not FontStatus.USABLE and (
            key == "font" or REASONS[key][1] == self.route
        ):
            return self.status, self.route, f"{self.problem} ({drawn})"
        status, route, phrase = REASONS[key]
        if key == "unmapped":
            problem = f"ToUnicode covers {total - bad} of {total} glyphs drawn"
        else:
            problem = f"{phrase} for {drawn}"
        if key == "nonagl":
            names = sorted(
                {self.glyph_names.get(c, "") for c in codes if self.why(c) == "nonagl"} - {""}
            )
            if names:
                problem += f" (e.g. {', '.join(names[:3])})"
        return status, route, problem


def split_codes(data: bytes, ranges: tuple[tuple[int, int, int], ...]) -> list[int]:
    """The character codes of one shown string, read through the codespace `ranges`."""
    if len(ranges) == 1:
        width = ranges[0][0]
        if width == 1:
            return list(data)
        if width == 2:
            n = len(data) // 2
            return [data[2 * i] << 8 | data[2 * i + 1] for i in range(n)]
    return _split_mixed(data, ranges)


def _split_mixed(data: bytes, ranges: tuple[tuple[int, int, int], ...]) -> list[int]:
    """Codespace matching of PDF 9.7.6.2: the shortest width whose range holds the bytes read."""
    widths = sorted({w for w, _, _ in ranges})
    out: list[int] = []
    i, n = 0, len(data)
    while i < n:
        for width in widths:
            if i + width > n:
                break
            value = int.from_bytes(data[i : i + width], "big")
            if any(w == width and lo <= value <= hi for w, lo, hi in ranges):
                out.append(value)
                i += width
                break
        else:
            # No range matches: consume the shortest width (as Acrobat does) and go on.
            width = min(widths[0], n - i)
            out.append(int.from_bytes(data[i : i + width], "big"))
            i += width
    return out


# -- predefined CMaps --------------------------------------------------------------------------
#: EUC and GBK: ASCII in one byte, a lead byte 0x81-0xFE starts a two-byte code.
_ONE_TWO_EUC = ((1, 0x00, 0x80), (2, 0x8140, 0xFEFE))
_RKSJ = ((1, 0x00, 0x80), (1, 0xA0, 0xDF), (2, 0x8140, 0x9FFC), (2, 0xE040, 0xFCFC))
_BIG5 = ((1, 0x00, 0x80), (2, 0xA140, 0xFEFE))
_UHC = ((1, 0x00, 0x80), (2, 0x8141, 0xFEFE))
_TWO = ((2, 0x0000, 0xFFFF),)


def predefined_ranges(name: str) -> tuple[tuple[int, int, int], ...]:
    """Codespace of a predefined CMap by name (sane defaults; exact for the common ones)."""
    if "RKSJ" in name:
        return _RKSJ
    if "EUC" in name or name.startswith(("GBK-", "GBKp-", "GBK2K-")):
        return _ONE_TWO_EUC
    if "B5" in name:
        return _BIG5
    if "UHC" in name:
        return _UHC
    if "UTF16" in name:
        return ((2, 0x0000, 0xD7FF), (2, 0xE000, 0xFFFF), (4, 0xD800DC00, 0xDBFFDFFF))
    if "UTF32" in name:
        return ((4, 0, 0x10FFFF),)
    if "UTF8" in name:
        return (
            (1, 0x00, 0x7F),
            (2, 0xC080, 0xDFBF),
            (3, 0xE08080, 0xEFBFBF),
            (4, 0xF0808080, 0xF4BFBFBF),
        )
    return _TWO


# -- helpers over pikepdf objects --------------------------------------------------------------
def _name(obj: Any) -> str | None:
    import pikepdf

    if isinstance(obj, pikepdf.Name):
        return str(obj)[1:]
    return None


def _text(obj: Any) -> str:
    try:
        return str(obj)
    except Exception:
        return ""


def _is_stream(obj: Any) -> bool:
    import pikepdf

    return isinstance(obj, pikepdf.Stream)


def _read(stream: Any) -> bytes:
    try:
        return bytes(stream.read_bytes())
    except Exception:
        return b""


def _font_program(descriptor: Any) -> tuple[str | None, Any]:
    """(kind, stream) of the embedded program: TrueType, Type1, CFF, CIDCFF, OpenType."""
    import pikepdf

    if not isinstance(descriptor, pikepdf.Dictionary):
        return None, None
    for key, kind in (("/FontFile2", "TrueType"), ("/FontFile", "Type1"), ("/FontFile3", None)):
        stream = descriptor.get(key)
        if _is_stream(stream):
            if kind is None and stream is not None:
                sub = _name(stream.get("/Subtype")) or ""
                kind = {"Type1C": "CFF", "CIDFontType0C": "CIDCFF", "OpenType": "OpenType"}.get(
                    sub, "CFF"
                )
            return kind, stream  # read only when a route needs the program
    return None, None


def _flags(descriptor: Any) -> int:
    try:
        return int(descriptor.get("/Flags", 0))
    except Exception:
        return 0


# -- font programs -----------------------------------------------------------------------------
@dataclass
class _Program:
    """What the embedded font program offers: names by code or GID, and its unicode cmap."""

    kind: str | None
    builtin: dict[int, str] = field(
        default_factory=dict
    )  # code -> name (Type1/CFF built-in encoding)
    glyph_names: Sequence[str] | None = None  # GID -> name (CFF charset, TrueType post 1/2)
    cmap: dict[int, int] = field(default_factory=dict)  # unicode -> GID
    cmap_kinds: tuple[tuple[int, int], ...] = ()
    symbol_cmap: dict[int, int] = field(default_factory=dict)  # code -> GID from (3,0)/(1,0)
    post_format: float | None = None
    cid_keyed: bool = False
    #: (registry, ordering) of a CID-keyed CFF: which collection its CIDs belong to.
    ros: tuple[str, str] | None = None
    error: str | None = None

    @property
    def names(self) -> set[str]:
        return set(self.glyph_names or ())


def _load_cff(data: bytes) -> _Program:
    from fontTools.cffLib import CFFFontSet

    prog = _Program("CFF")
    cff = CFFFontSet()
    cff.decompile(io.BytesIO(data), None)
    top = cff[cff.fontNames[0]]
    prog.cid_keyed = hasattr(top, "ROS")
    if prog.cid_keyed:
        try:
            registry, ordering, _ = top.ROS
            prog.ros = (str(registry), str(ordering))
        except (TypeError, ValueError):
            prog.ros = None
    charset = list(top.charset or [])
    if prog.cid_keyed:
        prog.kind = "CIDCFF"
        return prog
    prog.glyph_names = charset
    enc = getattr(top, "Encoding", "StandardEncoding")
    if isinstance(enc, str):
        prog.builtin = dict(encoding_table("StandardEncoding")) if enc == "StandardEncoding" else {}
    else:
        prog.builtin = {c: n for c, n in enumerate(enc) if n and n != ".notdef"}
    return prog


_T1_ENC = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]{}()<>]+)\s+put")


def _load_type1(data: bytes, length1: int) -> _Program:
    prog = _Program("Type1")
    clear = data[: length1 or len(data)]
    start = clear.find(b"/Encoding")
    if start < 0:
        return prog
    head = clear[start : start + 64]
    if b"StandardEncoding" in head:
        prog.builtin = dict(encoding_table("StandardEncoding"))
    else:
        end = clear.find(b"readonly def", start)
        chunk = clear[start : end if end > 0 else len(clear)]
        prog.builtin = {
            int(c): n.decode("latin-1") for c, n in _T1_ENC.findall(chunk) if int(c) < 256
        }
    return prog


def _load_sfnt(data: bytes, kind: str) -> _Program:
    from fontTools.ttLib import TTFont

    prog = _Program(kind)
    font = TTFont(io.BytesIO(data), lazy=True, fontNumber=0)
    if "CFF " in font:  # the glyph order is the CFF charset: read as fontTools reads it
        return _load_sfnt_cff(font, prog)
    kinds: list[tuple[int, int]] = []
    if "cmap" in font:
        raw = font.getTableData("cmap")
        decoded = _cmap_subtables(raw)
        subtables: list[tuple[int, int, Any]]
        if decoded is None:  # anything unusual: fontTools reads the table
            from fontTools.ttLib.tables._c_m_a_p import table__c_m_a_p

            ids = _GlyphIds(lambda: _check_glyph_order(font, raw))
            cmap = table__c_m_a_p("cmap")
            cmap.decompile(raw, ids)
            subtables = [(t.platformID, t.platEncID, t) for t in cmap.tables]
        else:
            ids = _GlyphIds()
            subtables = list(decoded)
            # fontTools decodes a subtable (naming its glyphs) when another record shares it,
            # or when its map is first read below.
            ids.asked = any(table.shared for _, _, table in decoded)
        best: dict[int, int] | None = None
        for platform, encoding, table in subtables:
            kinds.append((platform, encoding))
            unicode = platform == 0 or (platform == 3 and encoding in (1, 10))
            if unicode and (best is None or len(table.cmap) > len(best)):
                best = table.cmap
            elif platform in (1, 3) and encoding == 0 and not prog.symbol_cmap:
                prog.symbol_cmap = dict(table.cmap)
            else:
                continue
            if decoded is not None:
                ids.asked = True
        if decoded is not None and any(
                platform == 0 or (platform == 3 and encoding in (1, 10))
                for platform, encoding, _ in decoded):
            ids.asked = True  # every Unicode subtable's map is read (above, to be compared)
        if best:
            prog.cmap = dict(best)
        if decoded is not None and ids.asked:
            _check_glyph_order(font, None)  # where fontTools, naming the glyphs, would fail
    prog.cmap_kinds = tuple(kinds)
    if "post" in font:
        prog.post_format = _post_format(font)
        if prog.post_format in (1.0, 2.0):
            prog.glyph_names = _LazyNames(font)
    return prog


def _load_sfnt_cff(font: Any, prog: _Program) -> _Program:
    kinds: list[tuple[int, int]] = []
    if "cmap" in font:
        best: dict[int, str] | None = None
        for table in font["cmap"].tables:
            kinds.append((table.platformID, table.platEncID))
            unicode = table.platformID == 0 or (
                table.platformID == 3 and table.platEncID in (1, 10)
            )
            if unicode and (best is None or len(table.cmap) > len(best)):
                best = table.cmap
            elif table.platformID in (1, 3) and table.platEncID == 0 and not prog.symbol_cmap:
                prog.symbol_cmap = _glyph_ids(font, table.cmap)
        if best:
            prog.cmap = _glyph_ids(font, best)
    prog.cmap_kinds = tuple(kinds)
    if "post" in font:
        post = font["post"]
        prog.post_format = float(post.formatType)
        if prog.post_format in (1.0, 2.0):
            prog.glyph_names = list(font.getGlyphOrder())
    cff = _load_cff(font.getTableData("CFF "))
    prog.cid_keyed = cff.cid_keyed
    prog.ros = cff.ros
    prog.glyph_names = prog.glyph_names or cff.glyph_names
    return prog


class _GlyphIds:
    """Stands in for the font while fontTools decodes a cmap: glyph ids stay ids.

    fontTools names every glyph a subtable selects (reading the whole ``post``
    table: 65,000 names in a CJK font) only for us to turn the names back into
    ids; the ids are the same without the names. `check` runs where fontTools
    would first have named the glyphs, so a font it fails on fails here too.
    """

    lazy = True

    def __init__(self, check: Callable[[], None] | None = None) -> None:
        self.asked = False
        self._check = check

    def _ask(self) -> None:
        if not self.asked:
            self.asked = True
            if self._check is not None:
                self._check()

    def getGlyphNameMany(self, gids: list[int]) -> list[int]:  # noqa: N802 (fontTools' API)
        self._ask()
        return list(gids)

    def getGlyphName(self, gid: int) -> int:  # noqa: N802
        self._ask()
        return gid


@dataclass
class _Decoded:
    """A subtable decoded here: code → glyph id; `shared` when another record points at it."""

    cmap: dict[int, int]
    shared: bool = False


def _cmap_subtables(raw: bytes) -> list[tuple[int, int, _Decoded]] | None:
    """A ``cmap`` table's subtables (formats 0, 4, 6 and 12) as fontTools reads them, without
    a Python step per code where it can; None when anything is unusual (fontTools decides).

    fontTools decodes a whole CJK font's cmap (tens of thousands of codes) one code at a
    time; here a run of codes with consecutive glyph ids is one C-level dictionary update.
    """
    import struct

    try:
        if len(raw) < 4:
            return None
        _, count = struct.unpack(">HH", raw[:4])
        found: list[tuple[int, int, _Decoded]] = []
        seen: dict[int, _Decoded] = {}
        for i in range(count):
            entry = raw[4 + i * 8 : 12 + i * 8]
            if len(entry) < 8:
                return None
            platform, encoding, offset = struct.unpack(">HHL", entry)
            if offset + 4 > len(raw):
                return None
            form, length = struct.unpack(">HH", raw[offset : offset + 4])
            if form == 12:
                if offset + 8 > len(raw):
                    return None
                form, _, length = struct.unpack(">HHL", raw[offset : offset + 8])
            if form not in (0, 4, 6, 12) or not length:
                return None
            if length < (16 if form == 12 else 6) or offset + length > len(raw):
                return None
            if offset in seen:
                seen[offset].shared = True
                found.append((platform, encoding, _Decoded(seen[offset].cmap, True)))
                continue
            cmap = _decode_subtable(form, raw[offset : offset + length])
            if cmap is None:
                return None
            seen[offset] = table = _Decoded(cmap)
            found.append((platform, encoding, table))
        return found
    except (struct.error, ValueError, IndexError, OverflowError):
        return None


def _decode_subtable(form: int, data: bytes) -> dict[int, int] | None:
    """Code → glyph id (glyph 0 left out) of one subtable, as fontTools decodes it."""
    import array
    import struct
    import sys

    out: dict[int, int] = {}
    if form == 0:
        if len(data) != 262:
            return None
        return {code: gid for code, gid in enumerate(data[6:]) if gid}
    if form == 6:
        first, entries = struct.unpack(">HH", data[6:10])
        body = data[10 : 10 + 2 * entries]
        if len(body) % 2:
            return None
        gids = array.array("H")
        gids.frombytes(body)
        if sys.byteorder != "big":
            gids.byteswap()
        return {code: gid for code, gid in zip(range(first, first + len(gids)), gids, strict=True)
                if gid}
    if form == 12:
        groups_count = struct.unpack(">L", data[12:16])[0]
        if len(data) != 16 + groups_count * 12:
            return None
        groups = array.array("I")
        if groups.itemsize != 4:
            return None
        groups.frombytes(data[16:])
        if sys.byteorder != "big":
            groups.byteswap()
        last_end = 0
        for start, end, gid in zip(*[iter(groups)] * 3, strict=True):
            end = min(end, 0x10FFFF)
            if start > end or start < last_end:
                continue  # fontTools skips unsorted and overlapping groups
            last_end = end
            if gid == 0:  # the missing glyph maps only the group's first code
                start += 1
                gid += 1
            out.update(zip(range(start, end + 1), range(gid, gid + end - start + 1), strict=True))
        return out
    # Format 4: segments of codes, each its glyphs by a delta or through the glyph id array.
    if len(data) < 14 or len(data) % 2:
        return None
    seg_count = struct.unpack(">H", data[6:8])[0] // 2
    codes = array.array("H")
    codes.frombytes(data[14:])
    if sys.byteorder != "big":
        codes.byteswap()
    ends = codes[:seg_count]
    rest = codes[seg_count + 1 :]
    starts = rest[:seg_count]
    rest = rest[seg_count:]
    deltas = rest[:seg_count]
    rest = rest[seg_count:]
    range_offsets = rest[:seg_count]
    glyph_ids = rest[seg_count:]
    for i in range(len(starts) - 1):  # the last segment (0xFFFF) is not read
        first, last, delta, range_offset = starts[i], ends[i], deltas[i], range_offsets[i]
        if range_offset == 0:
            # gid = (code + delta) mod 65536: consecutive ids, wrapping once past 0xFFFF;
            # glyph 0 (the missing glyph) maps nothing and erases no earlier mapping.
            wrap = 0x10000 - delta
            for low, high, step in ((first, min(last, wrap - 1), delta),
                                    (max(first, wrap), last, delta - 0x10000)):
                if low <= high and low + step == 0:
                    low += 1
                if low <= high:
                    out.update(zip(range(low, high + 1), range(low + step, high + step + 1),
                                   strict=True))
            continue
        partial = range_offset // 2 - first + i - len(range_offsets)
        for code in range(first, last + 1):
            index = code + partial
            if not 0 <= index < len(glyph_ids):
                return None  # fontTools refuses the table
            gid = glyph_ids[index]
            gid = (gid + delta) & 0xFFFF if gid else 0
            if gid:
                out[code] = gid
    return out


def _post_fixed(raw: bytes) -> float:
    return int.from_bytes(raw[:4], "big", signed=True) / 65536


def _post_format(font: Any) -> float:
    """The ``post`` table's format, raising where fontTools' reading of the table raises."""
    raw = font.getTableData("post")
    if len(raw) < 32:
        raise ValueError("post table is truncated")
    form = _post_fixed(raw)
    if form not in (1.0, 2.0, 3.0, 4.0):
        raise ValueError(f"post table format {form:g} not supported")
    if form != 3.0:
        count = font.getGlyphCount()
        if form == 2.0:
            if len(raw) < 34:
                raise ValueError("post table is truncated")
            wanted = min(int.from_bytes(raw[32:34], "big"), count)
            if len(raw) - 34 < 2 * wanted:
                raise IndexError("post table is truncated")
        elif form == 4.0 and len(raw) % 2:
            raise ValueError("post table is truncated")
    return form


def _check_glyph_order(font: Any, raw_cmap: bytes | None) -> None:
    """Raise where fontTools' glyph order of a TrueType raises: its ``post`` names, else
    names made from its Unicode cmap subtables (`raw_cmap`: the cmap to decode again for
    that; None when every subtable is known to decode)."""
    if "post" in font:
        form = _post_format(font)
        from_cmap = form == 3.0 or (form == 1.0 and font.getGlyphCount() > 258)
    else:
        from_cmap = True
    if not from_cmap:
        return
    font.getGlyphCount()
    if "DMAP" in font:
        font.getGlyphOrder()  # rare: as fontTools does it
    elif raw_cmap is not None:
        from fontTools.ttLib.tables._c_m_a_p import table__c_m_a_p

        fresh = table__c_m_a_p("cmap")
        fresh.decompile(raw_cmap, _GlyphIds())
        for table in fresh.tables:
            if table.isUnicode():
                _ = table.cmap


class _LazyNames(Sequence[str]):
    """A TrueType's glyph names (GID → name), read from ``post`` only when first asked for."""

    def __init__(self, font: Any) -> None:
        self._font: Any = font
        self._names: list[str] | None = None

    def _load(self) -> list[str]:
        if self._names is None:
            try:
                self._names = list(self._font.getGlyphOrder())
            except Exception:  # checked when the program was read: not expected
                self._names = []
            self._font = None
        return self._names

    def __len__(self) -> int:
        return len(self._load())

    def __getitem__(self, index: Any) -> Any:
        return self._load()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())


def _glyph_ids(font: Any, cmap: Mapping[int, str]) -> dict[int, int]:
    """A fontTools cmap (code → glyph name) as code → glyph id: one dictionary lookup per
    code (a whole CJK font maps tens of thousands), fontTools' own rule for the rest."""
    ids = font.getReverseGlyphMap()
    get_id = font.getGlyphID
    return {c: ids[n] if n in ids else get_id(n) for c, n in cmap.items()}


def load_program(kind: str | None, data: bytes, length1: int = 0) -> _Program:
    """Parse an embedded program; a broken one gives an empty program with ``error`` set."""
    import logging

    if kind is None or not data:
        return _Program(None)
    logger = logging.getLogger("fontTools")
    level = logger.level
    logger.setLevel(logging.ERROR)  # subset fonts trip many harmless warnings
    try:
        if kind in ("CFF", "CIDCFF"):
            prog = _load_cff(data)
        elif kind == "Type1":
            prog = _load_type1(data, length1)
        else:
            prog = _load_sfnt(data, kind)
    except Exception as exc:  # a broken program is evidence, not a crash
        prog = _Program(kind, error=f"{type(exc).__name__}")
    finally:
        logger.setLevel(level)
    return prog


# -- the analysis ------------------------------------------------------------------------------
#: Fonts whose glyphs are symbols by name: the standard 14's Symbol and ZapfDingbats, their
#: URW clones that Ghostscript and every Linux system substitute (Standard Symbols PS,
#: D050000L), and Microsoft's Wingdings, Webdings, Marlett and MT Extra.
SYMBOL_FONT_NAME = re.compile(r"symbol|wingding|webding|dingbat|marlett|mt ?extra|d050000l",
                              re.IGNORECASE)


def analyse_font(font: pikepdf.Dictionary) -> FontInfo:
    """Decide the font's route to Unicode by the taxonomy; never raises on a malformed font."""
    import pikepdf

    subtype = _name(font.get("/Subtype")) or "Unknown"
    base = _name(font.get("/BaseFont")) or _text(font.get("/Name", ""))[1:] or "(unnamed)"
    try:
        info = _analyse_type0(font, base) if subtype == "Type0" else \
            _analyse_simple(font, base, subtype)
        if SYMBOL_FONT_NAME.search(base) or any(
                SYMBOL_FONT_NAME.search(name) for name in _described_names(font)):
            object.__setattr__(info, "symbol_font", True)
        return info
    except (pikepdf.PdfError, KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return FontInfo(
            base,
            subtype,
            None,
            "severed",
            FontStatus.SEVERED,
            f"font dictionary is malformed ({type(exc).__name__})",
            missing="font",
        )


def _described_names(font: Any) -> list[str]:
    """The FontName and FontFamily of a font's descriptor (a Type3 font has no other name)."""
    import pikepdf

    descriptor = font.get("/FontDescriptor")
    if descriptor is None and isinstance(font.get("/DescendantFonts"), pikepdf.Array):
        descriptor = font.DescendantFonts[0].get("/FontDescriptor")
    if not isinstance(descriptor, pikepdf.Dictionary):
        return []
    return [_name(descriptor.get("/FontName")) or "", _text(descriptor.get("/FontFamily", ""))]


def _tounicode(font: Any) -> tuple[CMap | None, str | None, str | None]:
    """(parsed CMap, name when given as a name, problem when the stream is unusable)."""
    entry = font.get("/ToUnicode")
    if entry is None:
        return None, None, None
    name = _name(entry)
    if name is not None:
        return None, name, None
    if not _is_stream(entry):
        return None, None, "ToUnicode is neither a stream nor a name"
    data = _read(entry)
    if not data.strip():
        return None, None, "ToUnicode stream is empty"
    try:
        cmap = parse_cmap(data)
    except ValueError as exc:
        return None, None, f"ToUnicode is unreadable ({exc})"
    if not cmap.unicode:
        return None, None, "ToUnicode maps no codes"
    return cmap, None, None


@dataclass
class _Judged:
    bad: dict[int, str]
    route: str
    status: FontStatus
    problem: str | None


def _judge_tounicode(cmap: CMap, code_width: int) -> _Judged:
    """Font-level sanity of a ToUnicode map: null, PUA, collapsed, odd tokens, width."""
    values = cmap.unicode
    n = len(values)
    bad: dict[int, str] = {}
    for code, text in values.items():
        if len(text) == 1:  # the common case, inlined: OCR layers map all 65 536 codes
            o = ord(text)
            if o < 0x20 or 0x7F <= o < 0xA0:
                bad[code] = "control" if o else "null"
            elif 0xE000 <= o <= 0xF8FF or o >= 0xF0000:
                bad[code] = "pua"
            elif text in NULL_VALUES:
                bad[code] = "null"
            continue
        why = value_reason(text)
        if why is not None:
            bad[code] = why
    white = [c for c in bad if values[c] in _WHITESPACE]
    if len(white) == sum(1 for r in bad.values() if r == "control"):
        # Only white space among the controls: a space glyph given as TAB, a controlLF glyph
        # as line feed, no letter lost. Beside other controls it is a shifted map's too.
        for code in white:
            del bad[code]
    counts = Counter(t for c, t in values.items() if c not in bad)
    # Stylistic alternates and Arabic positional forms legitimately share a value; only a map
    # where most codes land on a few values is collapsed, and only then are those codes bad.
    collapsed = {t for t, k in counts.items() if k >= 3 and k >= 0.2 * n and t.strip()}
    if sum(counts[t] for t in collapsed) * 2 > n:
        for code, text in values.items():
            if text in collapsed:
                bad[code] = "collapsed"
    else:
        collapsed = set()
    kinds = Counter(bad.values())
    null = kinds["null"]
    if (null + kinds["control"]) * 2 > n:
        sample = Counter(t for c, t in values.items() if bad.get(c) in ("null", "control"))
        shown = ", ".join(
            f"U+{ord(t[0]):04X}" if t else "nothing" for t, _ in sample.most_common(2)
        )
        if null >= kinds["control"]:
            return _Judged(
                bad, "null", FontStatus.SEVERED, f"ToUnicode maps {null} of {n} codes to {shown}"
            )
        return _Judged(
            bad,
            "control",
            FontStatus.WRONG,
            f"ToUnicode maps {kinds['control']} of {n} codes to control characters ({shown}…)",
        )
    if kinds["pua"] * 2 > n:
        return _Judged(
            bad,
            "pua",
            FontStatus.WRONG,
            f"ToUnicode maps {kinds['pua']} of {n} codes into the Private Use Area",
        )
    if kinds["collapsed"] * 2 > n and n >= 4:
        top, k = counts.most_common(1)[0]
        return _Judged(
            bad,
            "collapsed",
            FontStatus.WRONG,
            f"ToUnicode maps {kinds['collapsed']} of {n} codes onto "
            f"{len(collapsed)} value(s) (e.g. {k} onto {top!r})",
        )
    if cmap.odd_tokens and cmap.odd_tokens * 2 >= n:
        return _Judged(
            bad,
            "tounicode",
            FontStatus.WRONG,
            f"ToUnicode has {cmap.odd_tokens} odd-length hex codes",
        )
    problem = None
    widths = cmap.widths
    if widths and code_width not in widths:
        problem = (
            f"ToUnicode codespace is {'/'.join(map(str, sorted(widths)))} byte(s) but the font's "
            f"codes are {code_width}"
        )
    return _Judged(bad, "tounicode", FontStatus.USABLE, problem)


def _analyse_simple(font: Any, base: str, subtype: str) -> FontInfo:
    import pikepdf

    descriptor = font.get("/FontDescriptor")
    flags = _flags(descriptor) if descriptor is not None else 0
    symbolic = bool(flags & 4) and not flags & 32
    kind, data = _font_program(descriptor)
    embedded = kind is not None
    plain = base.split("+", 1)[-1]
    cmap, tu_name, tu_problem = _tounicode(font)

    # The encoding: a name, or a dictionary with BaseEncoding and Differences.
    enc_obj = font.get("/Encoding")
    enc_label: str | None = None
    base_enc: str | None = None
    differences: dict[int, str] = {}
    if _name(enc_obj) is not None:
        base_enc = _name(enc_obj)
        enc_label = base_enc
    elif isinstance(enc_obj, pikepdf.Dictionary):
        base_enc = _name(enc_obj.get("/BaseEncoding"))
        diffs = enc_obj.get("/Differences")
        if isinstance(diffs, pikepdf.Array):
            code = 0
            for item in diffs:
                if isinstance(item, pikepdf.Name):
                    if 0 <= code < 256:
                        differences[code] = str(item)[1:]
                    code += 1
                else:
                    try:
                        code = int(item)
                    except (TypeError, ValueError):
                        continue
        enc_label = "custom" if differences else base_enc
    if base_enc not in NAMED_ENCODINGS:
        base_enc = None

    # Program is parsed only when it is needed: built-in encoding, symbolic TrueType, charset check.
    program: _Program | None = None

    def get_program() -> _Program:
        nonlocal program
        if program is None:
            length1 = 0
            try:
                stream = descriptor.get("/FontFile")
                length1 = int(stream.get("/Length1", 0)) if stream is not None else 0
            except Exception:
                length1 = 0
            program = load_program(kind, _read(data) if data is not None else b"", length1)
        return program

    names: dict[int, str] = {}
    source = "encoding"
    if base_enc is not None:
        names.update(encoding_table(base_enc))
    elif subtype == "Type3":
        source = "Differences"
    elif kind in ("Type1", "CFF") or (kind == "OpenType" and subtype != "TrueType"):
        # An embedded Type1/CFF program's own encoding is the base (Table 114), symbolic or not.
        prog = get_program()
        if prog.builtin:
            names.update(prog.builtin)
            source = "built-in encoding"
        elif not symbolic:
            names.update(encoding_table("StandardEncoding"))
    elif subtype == "TrueType" and symbolic and not differences and kind and cmap is None:
        # Without ToUnicode or encoding only the program can name the glyphs (post names).
        prog = get_program()
        if prog.post_format in (1.0, 2.0) and prog.symbol_cmap and prog.glyph_names:
            gnames = prog.glyph_names
            for code, gid in prog.symbol_cmap.items():
                low = code & 0xFF if code >= 0xF000 else code
                if 0 <= low < 256 and gid < len(gnames):
                    names[low] = gnames[gid]
            source = "post"
    elif plain in ("Symbol", "ZapfDingbats") or plain.startswith(
        ("Symbol", "ZapfDingbats", "Wingdings")
    ):
        source = "builtin-symbol"
    elif not symbolic:
        names.update(encoding_table("StandardEncoding"))
    names.update(differences)

    zapf = plain.startswith("ZapfDingbats")
    numeric = numeric_names(enc_obj, names, zapf)
    unicode: dict[int, str] = {}
    bad: dict[int, str] = {}
    for code, glyph in names.items():
        text = name_to_unicode(glyph, zapf) or numeric.get(code, "")
        if not text:
            bad[code] = "nonagl"
            continue
        unicode[code] = text
        if _is_pua(text):
            bad[code] = "pua"

    # A Type1/CFF program selects glyphs by name: a name it does not hold draws something else.
    # Checked only for Differences: stock encodings name stock glyphs, and parsing every
    # embedded program would cost more than the whole content walk.
    uncovered = cmap is None or any(c not in cmap.unicode for c in differences)
    if kind == "CFF" and differences and uncovered:
        prog = get_program()
        held = prog.names
        if held:
            for code, glyph in differences.items():
                if glyph not in held and code not in bad and glyph != "space":
                    bad[code] = "notinfont"

    # A code the encoding gives no glyph name selects .notdef. In a font that is not embedded
    # (the standard 14, system fonts, Type3 procedures) that draws nothing: a line feed inside a
    # string, a NUL padding a form field. Nothing legible is lost, so such codes are not bad. An
    # embedded program may still draw a letter there by code (viewers fall back so), unmapped.
    missing: str | None = "nocode" if embedded else None
    # Names read as numbers are poppler's guess, not the specification's route: their text is
    # given, but judged by language like any unverified map (soundroute).
    route = "numeric" if numeric else "agl" if differences else "encoding"
    status = FontStatus.USABLE
    problem: str | None = None
    enc_text = enc_label or ("built-in" if source == "built-in encoding" else None)

    if source == "builtin-symbol" and not embedded:
        route, missing = "encoding", None
    elif source == "post":
        # Simple TrueType: poppler, pdf.js and pdfminer read post names as its built-in encoding.
        route, enc_text = "post", enc_text or "built-in"
    elif cmap is None and not names and program and program.glyph_names and not program.builtin:
        # A built-in encoding we cannot read (CFF ExpertEncoding): judge by the program's names.
        named = [g for g in program.glyph_names if g != ".notdef"]
        pua = [g for g in named if _is_pua(name_to_unicode(g))]
        if named and len(pua) * 2 > len(named):
            return FontInfo(
                base,
                subtype,
                enc_text or "built-in",
                "pua",
                FontStatus.WRONG,
                f"no ToUnicode, {len(pua)} of {len(named)} glyph names of the embedded font "
                f"map into the Private Use Area (e.g. {', '.join(pua[:3])})",
                missing="pua",
                embedded=embedded,
                program=kind,
            )
        route, status, missing = "severed", FontStatus.SEVERED, "font"
        problem = "no ToUnicode, the embedded font's built-in encoding could not be read"
    elif not names:
        why = "symbolic TrueType" if subtype == "TrueType" else f"{subtype} font"
        detail = ""
        if subtype == "TrueType" and program is not None and cmap is None:
            detail = _sfnt_detail(program)
            recovered = _symbolic_cmap_text(program)
            widths = cache(lambda: simple_widths(font))  # read once, here or for letter_widths
            by_code = _codes_as_text(program, recovered, widths)
            if by_code is not None:
                return FontInfo(
                    base, subtype, enc_text, "code", FontStatus.USABLE, None,
                    unicode=by_code, missing="noascii", embedded=embedded, program=kind,
                    recovered=recovered, symbolic=symbolic, width_account=(by_code, widths),
                )
            if recovered:
                problem = (
                    f"no ToUnicode, {why} without encoding; its Unicode cmap gives the "
                    "characters (recoverable, not by the spec)"
                )
                return FontInfo(
                    base,
                    subtype,
                    enc_text,
                    "cmap",
                    FontStatus.RECOVERABLE,
                    problem,
                    missing="font",
                    recovered=recovered,
                    embedded=embedded,
                    program=kind,
                )
        route, status = "severed", FontStatus.SEVERED
        problem = f"no ToUnicode, {why} without encoding{detail}"
        missing = "font"
    else:
        # The producer's own choices (Differences) decide the font; the base encoding is stock.
        scope = differences or names
        kinds = Counter(bad[c] for c in scope if c in bad)
        n = len(scope)
        if kinds["nonagl"] * 2 > n:
            samples = sorted(g for c, g in scope.items() if bad.get(c) == "nonagl")[:3]
            route, status = "agl", FontStatus.SEVERED
            index = " (index-like)" if samples and all(is_index_name(s) for s in samples) else ""
            problem = (
                f"no ToUnicode, {kinds['nonagl']} of {n} glyph names outside the AGL{index}: "
                + ", ".join(samples)
            )
        elif kinds["pua"] * 2 > n:
            route, status = "pua", FontStatus.WRONG
            problem = (
                f"no ToUnicode, {kinds['pua']} of {n} glyph names map into the Private Use Area"
            )
        elif kinds["notinfont"] * 2 > n:
            route, status = "encoding", FontStatus.WRONG
            problem = (
                f"no ToUnicode, {kinds['notinfont']} of {n} encoded glyph names are not in the font"
            )

    if cmap is not None:
        judged = _judge_tounicode(cmap, 1)
        merged = dict(unicode)
        merged_bad = {c: r for c, r in bad.items() if c not in cmap.unicode}
        merged.update(cmap.unicode)
        merged_bad.update(judged.bad)
        # Codes the ToUnicode misses fall back to the encoding (what readers do for simple fonts).
        return FontInfo(
            base,
            subtype,
            enc_text,
            judged.route,
            judged.status,
            judged.problem,
            unicode=merged,
            bad=merged_bad,
            missing=missing if names else "unmapped",
            embedded=embedded,
            program=kind,
            glyph_names=names,
            tounicode=True,
            symbolic=symbolic,
            own_account=(cmap.unicode, *_simple_account(names, zapf, subtype, symbolic, kind,
                                                        get_program)),
            width_account=(cmap.unicode, lambda: simple_widths(font)),
            notdef_account=_simple_notdef(kind, subtype, names, get_program),
        )
    extra = tu_problem or (f"ToUnicode is the name /{tu_name}" if tu_name else None)
    if extra:
        problem = f"{extra}; {problem}" if problem else extra
    return FontInfo(
        base,
        subtype,
        enc_text,
        route,
        status,
        problem,
        unicode=unicode,
        bad=bad,
        missing=missing,
        embedded=embedded,
        program=kind,
        glyph_names=names,
        symbolic=symbolic,
        held_names=(lambda: get_program().names) if kind in ("Type1", "CFF", "OpenType") else None,
        notdef_account=_simple_notdef(kind, subtype, names, get_program),
    )


def _simple_account(
    names: dict[int, str], zapf: bool, subtype: str, symbolic: bool, kind: str | None,
    get_program: Any,
) -> Any:
    """The zero-argument callable giving a simple font's own texts per code (see crosscheck).

    The glyph names its encoding selects, where they select the glyph: always
    for Type1 and CFF programs (and the standard fonts), for a TrueType only
    through a Unicode cmap. A symbolic TrueType, or one without a Unicode cmap,
    selects glyphs by code, so its own tables speak for it instead. Type3
    glyph names are only keys of its procedures: no account.
    """

    truetype = subtype == "TrueType" and kind in ("TrueType", "OpenType")

    def account() -> tuple[dict[int, frozenset[str]], str]:
        if subtype == "Type3":
            return {}, ""
        if truetype and (symbolic or not names):
            return symbolic_texts(get_program())
        return name_texts(names, zapf), "glyph names"

    def recheck() -> tuple[dict[int, frozenset[str]], str] | None:
        """Names that contradict the map select a TrueType's glyphs only through a Unicode
        cmap: read the program (only now, so clean fonts never pay for it)."""
        prog = get_program()
        return None if prog.cmap else symbolic_texts(prog)

    return account, (recheck if truetype else None)


def simple_widths(font: Any) -> dict[int, float]:
    """Advance width per code of a simple font, from /FirstChar and /Widths."""
    import pikepdf

    spec = font.get("/Widths")
    if not isinstance(spec, pikepdf.Array):
        return {}
    first = int(font.get("/FirstChar", 0))
    return {first + i: float(w) for i, w in enumerate(spec)}


def cid_widths(cidfont: Any) -> dict[int, float]:
    """Advance width per CID of a CIDFont, from /W (ranges bounded) and /DW."""
    import pikepdf

    out: dict[int, float] = {}
    spec = cidfont.get("/W")
    if not isinstance(spec, pikepdf.Array):
        return out
    items = list(spec)
    i = 0
    while i + 1 < len(items):
        if isinstance(items[i + 1], pikepdf.Array):
            start = int(items[i])
            for k, w in enumerate(items[i + 1]):
                out[start + k] = float(w)
            i += 2
        elif i + 2 < len(items):
            first, last = int(items[i]), int(items[i + 1])
            for cid in range(first, min(last, first + 0xFFFF) + 1):
                out[cid] = float(items[i + 2])
            i += 3
        else:
            break
    return out


def _symbolic_cmap_text(prog: _Program) -> dict[int, str]:
    """Code → text for a symbolic TrueType without encoding, through its Unicode cmap.

    The code selects a glyph through the (3,0)/(1,0) subtable (or, without one,
    through the Unicode subtable directly); the Unicode subtable names that glyph.
    """
    if not prog.cmap:
        return {}
    inverse: dict[int, str] = {}
    for uni, gid in sorted(prog.cmap.items(), reverse=True):
        inverse[gid] = chr(uni)
    if not prog.symbol_cmap:
        return {c: chr(c) for c in range(0x20, 0x100) if c in prog.cmap}
    out: dict[int, str] = {}
    for code, gid in prog.symbol_cmap.items():
        low = code & 0xFF if code >= 0xF000 else code
        text = inverse.get(gid)
        if low < 0x100 and text and not _is_pua(text):
            out.setdefault(low, text)
    return out


#: Share of the codes a symbolic TrueType's Unicode cmap names on which it must agree with the
#: codes read as ASCII before the readers' reading of the codes counts as the font's own.
MIN_CODES_AGREE = 0.9


def _codes_as_text(prog: _Program, recovered: Mapping[int, str],
                   widths: Callable[[], Mapping[int, float]]) -> dict[int, str] | None:
    """The readers' route for a symbolic TrueType with no encoding: the code as the character.

    poppler, PDFium (which reports no map error for them), pypdf and
    pdfminer.six all emit such a font's printable ASCII codes as those
    characters; Ghostscript's re-distilled subsets (the (3,1) cmap and the post
    names gone) keep the text's own ASCII codes, and every reader gets the text
    back. That reading is the font's only where nothing in the font says
    otherwise: a Unicode cmap that names the glyphs otherwise, or advance widths
    that do not rank like the letters the codes would be (a subset numbered in
    order of first use, whose codes are foreign), leave the font without a
    route. Codes outside printable ASCII stay bad. Text read so is then judged
    like any route that cannot be verified (language, on text shaped like words).
    """
    if _numbered_by_use(prog.symbol_cmap):
        return None
    # The code selects a glyph through the (3,0)/(1,0) subtable, else through the Unicode one.
    codes = {code & 0xFF if code >= 0xF000 else code for code in prog.symbol_cmap or prog.cmap}
    ascii_codes = {c: chr(c) for c in sorted(codes) if 0x20 <= c < 0x7F}
    if not ascii_codes:
        return None
    if recovered:
        agree = sum(1 for c, t in recovered.items() if ascii_codes.get(c) == t)
        return ascii_codes if agree >= MIN_CODES_AGREE * len(recovered) else None
    try:
        letters = letter_widths(ascii_codes, widths())
    except Exception:  # noqa: BLE001 - malformed widths say nothing
        letters = {}
    found = width_correlation(letters, dict.fromkeys(ascii_codes, 1)) if letters else None
    if found is not None and found[0] < MIN_WIDTH_RANK:  # the widths say the codes are foreign
        return None
    return ascii_codes


def _numbered_by_use(symbol_cmap: Mapping[int, Any]) -> bool:
    """The subset's codes are 1, 2, 3 ... without a gap, past the control codes: glyphs
    numbered in order of first use (LibreOffice's subsets), so no code is its character.

    Text in its own codes never draws glyphs at every control code.
    """
    codes = sorted(c for c, g in symbol_cmap.items() if g not in (0, ".notdef"))
    return bool(codes) and codes[0] <= 1 and codes[-1] >= 0x20 \
        and codes[-1] - codes[0] + 1 == len(codes)


def _sfnt_detail(prog: _Program) -> str:
    parts = []
    if not prog.cmap:
        subt = "/".join(f"({p},{e})" for p, e in prog.cmap_kinds) or "no"
        parts.append(f"{subt} cmap" if prog.cmap_kinds else "no cmap")
    if prog.post_format not in (1.0, 2.0):
        parts.append("no post" if prog.post_format is None else f"post format {prog.post_format:g}")
    return f", embedded {prog.kind} has {' and '.join(parts)}" if parts else ""


def _analyse_type0(font: Any, base: str) -> FontInfo:
    import pikepdf

    enc_obj = font.get("/Encoding")
    descendants = font.get("/DescendantFonts")
    cidfont = (
        descendants[0] if isinstance(descendants, pikepdf.Array) and len(descendants) else None
    )
    if not isinstance(cidfont, pikepdf.Dictionary):
        return FontInfo(
            base,
            "Type0",
            None,
            "severed",
            FontStatus.SEVERED,
            "Type0 font has no descendant CIDFont",
            missing="font",
        )
    info = cidfont.get("/CIDSystemInfo")
    ordering = _text(info.get("/Ordering", "")) if isinstance(info, pikepdf.Dictionary) else ""
    registry = _text(info.get("/Registry", "")) if isinstance(info, pikepdf.Dictionary) else ""

    enc_name = _name(enc_obj)
    ranges: tuple[tuple[int, int, int], ...] = _TWO
    predefined = enc_name is not None and enc_name not in ("Identity-H", "Identity-V")
    label: str | None = enc_name
    code_to_cid: dict[int, int] | None = None  # None: codes are CIDs (Identity)
    if enc_name is not None:
        ranges = predefined_ranges(enc_name)
    elif _is_stream(enc_obj):
        # An embedded encoding CMap: its codespace splits the strings; its own CIDSystemInfo
        # names the collection when the CIDFont's is missing.
        label = _name(enc_obj.get("/CMapName")) or "embedded CMap"
        sysinfo = enc_obj.get("/CIDSystemInfo")
        if isinstance(sysinfo, pikepdf.Dictionary) and not ordering:
            ordering = _text(sysinfo.get("/Ordering", ""))
            registry = _text(sysinfo.get("/Registry", ""))
        try:
            parsed = parse_cmap(_read(enc_obj))
        except ValueError:
            parsed = None
        if parsed is not None and parsed.codespace:
            ranges = tuple(sorted(set(parsed.codespace)))
        elif parsed is not None and parsed.usecmap:
            ranges = predefined_ranges(parsed.usecmap)
        if parsed is not None and any(c != v for c, v in parsed.cids.items()):
            code_to_cid = parsed.cids
    cmap_name = enc_name or ""
    utf16 = cmap_name.startswith("Uni") and ("UCS2" in cmap_name or "UTF16" in cmap_name)
    # The spec's third route: a predefined CMap, or a CIDFont in an Adobe CJK collection.
    collection = (registry == "Adobe" and ordering in CJK_ORDERINGS) or (
        predefined and ordering != "Identity"
    )
    code_width = max(w for w, _, _ in ranges)

    descriptor = cidfont.get("/FontDescriptor")
    kind, data = _font_program(descriptor)
    subtype = "Type0"
    cmap, tu_name, tu_problem = _tounicode(font)

    fallback_missing = None if collection else "unmapped"
    if cmap is not None:
        judged = _judge_tounicode(cmap, code_width)
        return FontInfo(
            base,
            subtype,
            label,
            judged.route,
            judged.status,
            judged.problem,
            code_ranges=ranges,
            unicode=dict(cmap.unicode),
            bad=judged.bad,
            missing=fallback_missing,
            embedded=kind is not None,
            program=kind,
            tounicode=True,
            lazy_program=(kind, data, cidfont) if kind is not None else None,
            own_account=(
                (cmap.unicode, lambda: program_texts(kind, data, cidfont, cmap.unicode), None)
                if kind is not None and code_to_cid is None and not predefined
                else None
            ),
            width_account=(
                (cmap.unicode, lambda: cid_widths(cidfont))
                if code_to_cid is None and not predefined else None
            ),
            notdef_account=_cid_notdef(kind, cidfont, code_to_cid, predefined),
        )
    if collection:
        problem = None
        if tu_problem or tu_name:
            problem = tu_problem or f"ToUnicode is the name /{tu_name}"
        return FontInfo(
            base,
            subtype,
            label,
            "collection",
            FontStatus.USABLE,
            problem,
            code_ranges=ranges,
            missing=None,
            embedded=kind is not None,
            program=kind,
            codes_are_utf16=utf16,
        )
    # Identity ordering (or unknown) without a usable ToUnicode.
    lead = "no ToUnicode"
    route_if_severed = "severed"
    if tu_name:
        lead, route_if_severed = f"ToUnicode is the name /{tu_name}, not a CMap stream", "name"
    elif tu_problem:
        lead = tu_problem
    if kind is None:
        return FontInfo(
            base,
            subtype,
            label,
            route_if_severed,
            FontStatus.SEVERED,
            f"{lead}, Identity-ordered font is not embedded",
            code_ranges=ranges,
            missing="font",
        )
    status, route, problem, recovered = program_route(kind, data, cidfont, lead, route_if_severed)
    if code_to_cid is not None:  # an embedded CMap that maps codes to other CIDs
        recovered = {c: recovered[cid] for c, cid in code_to_cid.items() if cid in recovered}
    return FontInfo(
        base,
        subtype,
        label,
        route,
        status,
        problem,
        code_ranges=ranges,
        missing="font",
        recovered=recovered,
        embedded=True,
        program=kind,
        notdef_account=_cid_notdef(kind, cidfont, code_to_cid, predefined),
    )


def program_route(
    kind: str | None,
    stream: Any,
    cidfont: Any,
    lead: str = "no ToUnicode",
    severed: str = "severed",
) -> tuple[FontStatus, str, str, dict[int, str]]:
    """What a CIDFont's embedded program offers without a ToUnicode: (status, route, problem,
    CID → text). A Unicode cmap inverted through CIDToGIDMap, else AGL post/charset names."""
    if kind is None:
        return FontStatus.SEVERED, severed, f"{lead}, font is not embedded", {}
    prog = load_program(kind, _read(stream))
    cid_to_gid = _cid_to_gid(cidfont.get("/CIDToGIDMap"))
    recovered: dict[int, str] = {}
    route = severed
    what = {"CIDCFF": "CID-keyed CFF"}.get(kind, kind)
    if prog.error:
        problem = f"{lead}, embedded {what} program is unreadable ({prog.error})"
    elif prog.cmap:
        gid_to_text: dict[int, str] = {}
        for uni, gid in sorted(prog.cmap.items(), reverse=True):
            gid_to_text[gid] = chr(uni)  # lowest code point wins
        recovered = _by_cid(gid_to_text, cid_to_gid)
        route = "cmap"
        problem = f"{lead}; the embedded {what} has a Unicode cmap (recoverable, not by the spec)"
    elif prog.glyph_names and not prog.cid_keyed:
        gid_to_text = {}
        for gid, gname in enumerate(prog.glyph_names):
            text = name_to_unicode(gname)
            if text and not _is_pua(text):
                gid_to_text[gid] = text
        if len(gid_to_text) * 2 > max(1, len(prog.glyph_names) - 1):
            recovered = _by_cid(gid_to_text, cid_to_gid)
            route = "post" if prog.post_format in (1.0, 2.0) else "charset"
            source = "post glyph names" if route == "post" else "charset glyph names"
            problem = f"{lead}; the embedded {what} has {source} (recoverable, not by the spec)"
        else:
            problem = f"{lead}, embedded {what} glyph names are not in the AGL"
    elif kind == "CIDCFF" or prog.cid_keyed:
        problem = f"{lead}, embedded font is a CID-keyed CFF (no glyph names)"
    elif kind in ("TrueType", "OpenType"):
        problem = (
            f"{lead}{_sfnt_detail(prog)}"
            if _sfnt_detail(prog)
            else (f"{lead}, embedded {what} has no usable cmap or post names")
        )
    else:
        problem = f"{lead}, embedded {what} gives no characters"
    if _name(cidfont.get("/Subtype")) == "CIDFontType0" and kind == "TrueType":
        problem += " (CIDFontType0 holds a TrueType program)"
    status = FontStatus.RECOVERABLE if recovered else FontStatus.SEVERED
    return status, route, problem, recovered


#: A glyph name poppler reads as a number: up to two letters, then decimal digits (``MT51``,
#: ``a65``, ``G3``), trailing punctuation aside; or, in a font that names glyphs in hex, two hex
#: digits with an optional letter before them (``G3F``, ``1a``).
_DECIMAL_NAME = re.compile(r"[A-Za-z]{0,2}(\d+)[^A-Za-z0-9]*")
_HEX_NAME = re.compile(r"[A-Za-z]?([0-9A-Fa-f]{2})[^A-Za-z0-9]*")
_HEX_LETTERS = frozenset("abcdefABCDEF")


def _looks_hex(name: str) -> bool:
    """poppler's sign that a font names glyphs in hex: ``Axx`` with a hex letter among the
    two digits, or ``xx`` whose second digit is a hex letter (``a0`` stays decimal)."""
    digits = "0123456789abcdefABCDEF"
    if len(name) == 3 and name[0].isalpha() and name[1] in digits and name[2] in digits:
        return bool(_HEX_LETTERS & set(name[1:]))
    return len(name) == 2 and name[0] in digits and name[1] in _HEX_LETTERS


def numeric_names(encoding: Any, names: Mapping[int, str], zapf: bool = False) -> dict[int, str]:
    """Text for glyph names that only read as numbers, as poppler reads them (its
    ``testForNumericNames``): when every run of the Differences starts at code 5 or
    below and every name there parses as a number, each name outside the AGL is the
    character of that number (``MT51`` is '3' in some Type1 subsets). Empty otherwise,
    and where the numbers are mostly the codes themselves (``g1`` at code 1: glyphs
    numbered as first used, which tells no more than the code).
    """
    import pikepdf

    diffs = encoding.get("/Differences") if isinstance(encoding, pikepdf.Dictionary) else None
    if not isinstance(diffs, pikepdf.Array) or not len(diffs):
        return {}
    unread = [g for g in names.values() if g != ".notdef" and not name_to_unicode(g, zapf)]
    if not unread:
        return {}
    hexa = any(_looks_hex(g) for g in unread)
    pattern = _HEX_NAME if hexa else _DECIMAL_NAME
    at = named = 0
    numbered = 0  # Differences names whose number is their code
    for item in diffs:
        if isinstance(item, pikepdf.Name):
            match = pattern.fullmatch(str(item)[1:])
            if match is None:
                return {}
            numbered += int(match.group(1), 16 if hexa else 10) == at
            at += 1
            named += 1
        elif not isinstance(item, int) or int(item) > 5:
            return {}
        else:
            at = int(item)
    if numbered * 2 >= named:
        return {}  # names that number the codes (g1 at code 1) say no more than the codes do
    found: dict[int, str] = {}
    for code, glyph in names.items():
        match = pattern.fullmatch(glyph)
        if match is None or name_to_unicode(glyph, zapf):
            continue
        value = int(match.group(1), 16 if hexa else 10)
        if 0x20 <= value < 0x110000 and not 0xD800 <= value <= 0xDFFF and value != 0x7F:
            found[code] = chr(value)
    return found


def _simple_notdef(kind: str | None, subtype: str, names: Mapping[int, str],
                   get_program: Callable[[], _Program]) -> Callable[[], Any] | None:
    """For an embedded TrueType program: which codes select glyph 0, looked up as viewers do
    (the (3,0) or (1,0) subtable by code, then the Unicode subtable by the encoding's names)."""
    if subtype != "TrueType" or kind not in ("TrueType", "OpenType"):
        return None

    def account() -> Callable[[int], bool] | None:
        prog = get_program()
        if prog.error or not prog.cmap_kinds:
            return None  # no subtable: viewers take the code as the glyph id, unknown here

        def selects_notdef(code: int) -> bool:
            for key in (code, 0xF000 | code, 0xF100 | code, 0xF200 | code):
                if prog.symbol_cmap.get(key):
                    return False
            text = name_to_unicode(names[code]) if code in names else ""
            return not (len(text) == 1 and prog.cmap.get(ord(text)))

        return selects_notdef

    return account


def _cid_notdef(kind: str | None, cidfont: Any, code_to_cid: Mapping[int, int] | None,
                predefined: bool) -> Callable[[], Any] | None:
    """For an embedded CIDFont whose codes are CIDs (Identity or an embedded CMap): which codes
    select glyph 0, through the CIDToGIDMap (CIDFontType2) or as CID 0 (CID-keyed CFF)."""
    if kind is None or predefined:
        return None

    def account() -> Callable[[int], bool]:
        truetype = _name(cidfont.get("/Subtype")) == "CIDFontType2"
        to_gid = _cid_to_gid(cidfont.get("/CIDToGIDMap")) if truetype else None

        def selects_notdef(code: int) -> bool:
            cid = code if code_to_cid is None else code_to_cid.get(code, code)
            if to_gid is None:
                return cid == 0
            return cid >= len(to_gid) or to_gid[cid] == 0

        return selects_notdef

    return account


def _cid_to_gid(obj: Any) -> list[int] | None:
    """CIDToGIDMap as a list (None for Identity or absent)."""
    if obj is None or not _is_stream(obj):
        return None
    raw = _read(obj)
    return [raw[i] << 8 | raw[i + 1] for i in range(0, len(raw) - 1, 2)]


def _by_cid(gid_to_text: dict[int, str], cid_to_gid: list[int] | None) -> dict[int, str]:
    """Re-key a GID → text map by CID (codes equal CIDs for Identity encodings)."""
    if cid_to_gid is None:
        return dict(gid_to_text)
    return {cid: gid_to_text[gid] for cid, gid in enumerate(cid_to_gid) if gid in gid_to_text}
