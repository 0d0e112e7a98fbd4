"""The record of one font's route to Unicode, and its judgement of the codes a page draws.

Owns :class:`FontInfo`, what the analysis (:mod:`.fonts`) finds: the
route, its status and each code's badness, with the font's own account of
its glyphs, its widths and its .notdef glyph read on first need; the
reasons a code is bad (:data:`REASONS`); and splitting a shown string into
codes through a codespace. The content walk, the page text and the judge
read fonts through this record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..model import FontStatus
from .crosscheck import Contradiction, compare
from .fallbackroutes import program_route
from .rankcheck import letter_widths
from .sfntcmap import big_endian_array

#: The codespace of simple fonts: every code is one byte.
ONE_BYTE: tuple[tuple[int, int, int], ...] = ((1, 0, 0xFF),)
#: Every one-byte code, to take a font's bad codes from.
_BYTE_CODES = frozenset(range(256))

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


@dataclass(frozen=True, eq=False)
class FontInfo:
    """One font's route to Unicode, with per-code badness (see :mod:`.fonts`)."""

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
    #: Code -> whether the account vouches for its mapped value (None: says nothing), as
    #: pages ask (see soundroute).
    vouching: dict[int, bool | None] = field(default_factory=dict, repr=False, compare=False)
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
        program gives no account of its glyphs (see rankcheck.width_correlation)."""
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
    def code_width(self) -> int:
        """Bytes per code when every code has the same (1 for simple fonts, 2 for Identity-H
        and most CID fonts), 0 for a codespace of mixed widths: the walk and the text
        collection take their shortcuts by it, as :func:`split_codes` does."""
        return self.code_ranges[0][0] if len(self.code_ranges) == 1 else 0

    @cached_property
    def good_bytes(self) -> bytes:
        """The one-byte codes that are not bad (to delete with bytes.translate, leaving the bad):
        :meth:`is_bad_code`'s test, for all 256 at once."""
        bad, unicode = self.bad, self.unicode
        if self.missing is None:
            return bytes(sorted(_BYTE_CODES.difference(bad)))
        return bytes([code for code in range(256) if code in unicode and code not in bad])

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
        if width == 2:  # Identity-H and most CID fonts: one C call, not a step per code
            return big_endian_array("H", data).tolist()
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
