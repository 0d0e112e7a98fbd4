"""A font's ToUnicode against the font's own evidence: the names and cmap of the glyphs it draws.

A ToUnicode is a claim about what each code draws; the font usually holds a
second, independent account: the glyph names its encoding selects (simple
Type1, CFF and TrueType fonts: WinAnsi, MacRoman, /Differences, a built-in
encoding), or, for a Type0 font, the Unicode ``cmap`` subtable, ``post``
glyph names or CFF charset names of the glyph each CID selects. When the two
accounts agree on the letters, nothing is said. When most letters the program
names are given as *other* letters by the ToUnicode (a permuted map), or the
ToUnicode sits a constant distance from the program's letters (a shifted
map), the ToUnicode is wrong: readers print ordinary characters that are not
the ones drawn, which no count of unmapped codes can see and a language
judge misses on short pages.

Only letters are compared, within one script, after NFKC and case folding (small capitals,
ligatures and alternates such as ``a.sc``, ``f_i`` or ``g.alt`` fold to their
letters through the Adobe Glyph List), and a code agrees when its value is
any of the characters the program gives its glyph (a glyph shared by Latin
``A`` and Cyrillic ``А`` is both). A letter given in another script is not
counted (legacy 8-bit fonts keep Cyrillic or Greek glyphs under Latin names,
and their ToUnicode is the truth), nor is a symbol given for a letter (symbol
fonts legitimately name non-letters after letters). Names that mean nothing
(``g12``, ``glyph7``, ``uni0003``) give no evidence.

The check runs once per font object, on first need (see
:attr:`pytest_textlayer.pdf.fonts.FontInfo.contradiction`); fonts without an
embedded program or without names cost one dictionary lookup.
"""

from __future__ import annotations

import functools
import os
import unicodedata
from collections import Counter
from collections.abc import Collection, Container, Mapping
from dataclasses import dataclass
from itertools import compress
from operator import eq
from typing import Any

#: Letters (codes) both accounts must name before a disagreement means anything.
MIN_LETTERS = 6
#: Share of the compared letters that must disagree before the ToUnicode is called wrong.
MIN_DISAGREE = 0.5
#: Characters one glyph may be given before the program's account of it proves nothing.
MAX_SHARED = 4
#: A shifted map may give non-letters for letters only this close to them (code points).
MAX_NEAR = 0x80


@dataclass(frozen=True)
class Contradiction:
    """Where a ToUnicode and the font's own glyph names or cmap disagree, code by code.

    Kept per font; whether it condemns a page is decided on the codes the page
    draws (:meth:`weigh`): a scrambled subset permutes only the letters it
    draws, so most of a 224-code WinAnsi map may still agree.
    """

    #: Where the program's account came from: "glyph names", "cmap", "post names", "charset".
    source: str
    #: Codes both accounts give, where the program's glyph is a letter.
    compared: frozenset[int]
    #: Of those, codes whose ToUnicode value is another letter or sits at the common offset.
    codes: frozenset[int]
    #: The constant distance from the program's letters to the ToUnicode's, when there is one.
    offset: int | None
    #: (ToUnicode value, program's value) of each contradicted code, for the evidence.
    pairs: Mapping[int, tuple[str, str]]

    def weigh(self, drawn: Mapping[int, int]) -> tuple[int, int, int]:
        """(glyphs compared, glyphs contradicted, distinct codes contradicted) among `drawn`."""
        compared = wrong = distinct = 0
        for code, n in drawn.items():
            if code in self.compared:
                compared += n
                if code in self.codes:
                    wrong += n
                    distinct += 1
        return compared, wrong, distinct

    def describe(self, drawn: Mapping[int, int] | None = None) -> str:
        codes = sorted(self.codes if drawn is None else self.codes & drawn.keys(),
                       key=lambda c: -(drawn or {}).get(c, 0))
        shown = ", ".join(f"{self.pairs[c][0]!r} for {self.pairs[c][1]!r}" for c in codes[:4])
        how = f"moved by {self.offset:+d}" if self.offset is not None else "other letters"
        return (f"its ToUnicode contradicts the font's own {self.source}: letters given as "
                f"{how} ({shown})")


def _fold(text: str) -> str:
    # A soft hyphen is the hyphen glyph's other name (Latin-1 put one where WinAnsi has none).
    return unicodedata.normalize("NFKC", text).casefold().replace("\xad", "-")


#: Cyrillic and Greek letters (case-folded) drawn like a Latin one in either case: a font may
#: draw both with one glyph and give it either name, so such a Latin letter agrees with it.
_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
    "ν": "nv", "ο": "o", "ρ": "p", "τ": "t", "υ": "yu", "χ": "x",
}


def _lookalike(given: str, named: str) -> bool:
    return len(given) == 1 and given in _LOOKALIKES.get(named, "")


def _script(text: str) -> str:
    """The script of a text's first character, as the first word of its Unicode name (kana
    count with the ideographs: Japanese writes them together, and a map permutes them
    together)."""
    word = unicodedata.name(text[0], "?").split(" ", 1)[0]
    return "CJK" if word in ("HIRAGANA", "KATAKANA") else word


def _letters(text: str) -> bool:
    return bool(text) and all(c.isalpha() for c in text)


def compare(
    tounicode: Mapping[int, str], own: Mapping[int, frozenset[str]], source: str
) -> Contradiction | None:
    """Where a ToUnicode contradicts the program's texts per code; None when it never does.

    A code contradicts when the program names a letter and the ToUnicode gives
    another letter (a permuted map), or when the ToUnicode sits at the offset
    most letters sit at (a shifted map, whose values are often punctuation).
    Letters named and symbols given are a symbol font's way, not a contradiction.
    """
    compared: set[int] = set()
    pairs: dict[int, tuple[str, str]] = {}
    letter_wrong: set[int] = set()
    distances: dict[int, int] = {}
    for code, value in tounicode.items():
        texts = own.get(code)
        if not texts or not value:
            continue
        letters = [t for t in texts if _letters(_fold(t))]
        if not letters:
            continue
        folded = _fold(value)
        if any(_fold(t) == folded for t in texts):
            compared.add(code)
            continue
        named = _fold(letters[0])
        if _lookalike(folded, named):
            compared.add(code)
            continue
        if _letters(folded) and _script(named) == "LATIN" != _script(folded):
            # A legacy font's Latin-named slots holding Cyrillic or Greek letters: the names
            # lie there. A glyph named as a Cyrillic or Greek letter and mapped to a Latin one
            # is no such font: a map that lost its codes' high byte ("т" read as "F").
            continue
        compared.add(code)
        pairs[code] = (value, letters[0])
        if _letters(folded):
            letter_wrong.add(code)
        if len(value) == 1 and len(letters[0]) == 1:
            distance = ord(value) - ord(letters[0])
            # A letter of the same script, or a character near the letter (a glyph-order shift
            # gives punctuation); a symbol far away is a dingbat font's way, not a shift.
            if _letters(folded) or abs(distance) < MAX_NEAR:
                distances[code] = distance
    if len(compared) < MIN_LETTERS or len(pairs) < MIN_LETTERS:
        return None
    offset: int | None = None
    counts = Counter(distances.values())
    if counts:
        best, n = counts.most_common(1)[0]
        if n >= MIN_DISAGREE * len(pairs) and n >= MIN_LETTERS:
            offset = best
    codes = letter_wrong if offset is None else {c for c, d in distances.items() if d == offset}
    if len(codes) < MIN_LETTERS:
        return None
    return Contradiction(source, frozenset(compared), frozenset(codes), offset,
                         {c: pairs[c] for c in codes})


def confirmed(
    tounicode: Mapping[int, str], own: Mapping[int, frozenset[str]], drawn: Mapping[int, int]
) -> tuple[int, int]:
    """(glyphs whose ToUnicode value the program's own account gives too, glyphs it accounts
    for) among `drawn`: how far the font program vouches for the map on one page.

    Unlike :func:`compare`, every kind of character counts (digits, punctuation and spaces
    are named too), so a table of figures is vouched for as well as prose.
    """
    agree = covered = 0
    for code, n in drawn.items():
        texts = own.get(code)
        value = tounicode.get(code)
        if not texts or not value or len(texts) > MAX_SHARED:
            continue  # a glyph given many characters (a glyphless OCR font's) vouches for none
        covered += n
        folded = _fold(value)
        if any(_fold(t) == folded or _lookalike(folded, _fold(t)) for t in texts):
            agree += n
    return agree, covered


def name_texts(names: Mapping[int, str], zapf: bool = False) -> dict[int, frozenset[str]]:
    """Code → text of the glyph names an encoding selects (names that mean nothing left out)."""
    from .encodings import is_index_name, name_to_unicode

    out: dict[int, frozenset[str]] = {}
    for code, name in names.items():
        if is_index_name(name) or _index_uni(name):
            continue
        text = name_to_unicode(name, zapf)
        if text:
            out[code] = frozenset((text,))
    return out


def _index_uni(name: str) -> bool:
    """``uni0003``-style names that give a control character: a glyph index, not a character."""
    if name.startswith("uni") and len(name) == 7:
        try:
            return int(name[3:], 16) < 0x20
        except ValueError:
            return False
    return False


#: Where poppler-data keeps the CID → Unicode tables of Adobe's character collections.
CID_TABLE_DIRS = ("/usr/share/poppler/cidToUnicode", "/usr/local/share/poppler/cidToUnicode",
                  "/opt/homebrew/share/poppler/cidToUnicode")
_COLLECTIONS = frozenset({"GB1", "CNS1", "Japan1", "Korea1", "KR"})


@functools.lru_cache(maxsize=8)
def collection_table(ordering: str) -> dict[int, str]:
    """CID → text of an Adobe collection from poppler-data's table (one hex value per line,
    line N for CID N); empty when the table is not installed."""
    if ordering not in _COLLECTIONS:
        return {}
    for folder in CID_TABLE_DIRS:
        path = os.path.join(folder, f"Adobe-{ordering}")
        try:
            with open(path, encoding="ascii") as fh:
                lines = fh.read().split()
        except OSError:
            continue
        out: dict[int, str] = {}
        for cid, value in enumerate(lines):
            try:
                code = int(value, 16)
            except ValueError:
                continue
            if 0x20 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                out[cid] = chr(code)
        return out
    return {}


def _glyph_texts(cmap: Mapping[int, int], gids: Collection[int] | None = None
                 ) -> dict[int, set[str]]:
    """GID → every code point a Unicode cmap gives it; empty when the cmap looks made up.

    Some writers fill a subset's Unicode subtable with glyph indices (code
    point = GID) or with control characters: such a table says nothing about
    the glyphs, and comparing with it would condemn a right ToUnicode.
    `gids`, when given, keeps only those glyphs.
    """
    if not _cmap_usable(cmap):
        return {}
    by_gid: dict[int, set[str]] = {}
    # A whole CJK font maps tens of thousands of code points; the glyphs asked for are picked
    # out without a Python step per entry.
    pairs = cmap.items() if gids is None else compress(cmap.items(),
                                                       map(gids.__contains__, cmap.values()))
    for uni, gid in pairs:
        by_gid.setdefault(gid, set()).add(chr(uni))
    return by_gid


def _cmap_usable(cmap: Mapping[int, int]) -> bool:
    """Does a Unicode cmap give glyphs texts (not glyph indices or control characters)?"""
    if not cmap:
        return False
    # Entries whose code point is their glyph id, and the other ones below U+0020 (counted
    # without a Python step per entry: whole CJK fonts map tens of thousands).
    indices: int = sum(map(eq, cmap.keys(), cmap.values()))
    indices += sum(1 for uni in range(0x20) if uni in cmap and cmap[uni] != uni)
    return indices * 2 <= len(cmap)


def program_texts(kind: str | None, stream: Any, cidfont: Any,
                  wanted: Collection[int] | None = None) -> tuple[
        dict[int, frozenset[str]], str, bool]:
    """CID → texts the embedded program of a CIDFont gives its glyph, the source's name, and
    whether it gives any CID a text.

    Every code point of the Unicode cmap that selects the glyph, else its
    ``post`` or charset glyph name; CIDs go to glyphs through CIDToGIDMap.
    `wanted` (the codes a ToUnicode maps: the only ones compared) keeps the
    texts of those CIDs only, since a whole CJK font names tens of thousands of
    glyphs no page draws; the flag still speaks for every CID.
    """
    from .fonts import _cid_to_gid, _read, load_program

    if kind is None or stream is None:
        return {}, "", False
    prog = load_program(kind, _read(stream))
    if prog.error:
        return {}, "", False
    if prog.cid_keyed and prog.ros is not None and prog.ros[0] == "Adobe":
        # A CID-keyed CFF numbers its glyphs by a character collection's CIDs: the
        # collection's own table says what each CID is (codes are CIDs: Identity only).
        table = collection_table(prog.ros[1])
        return {cid: frozenset((text,)) for cid, text in table.items()
                if wanted is None or cid in wanted}, (
            f"Adobe-{prog.ros[1]} CIDs" if table else ""), bool(table)
    names = "" if prog.cid_keyed else (
        "post names" if prog.post_format in (1.0, 2.0) else "charset names")
    cid_to_gid = _cid_to_gid(cidfont.get("/CIDToGIDMap")) if cidfont is not None else None
    gids: Collection[int] | None = None
    if wanted is not None:
        gids = set(wanted) if cid_to_gid is None else {
            cid_to_gid[cid] for cid in wanted if 0 <= cid < len(cid_to_gid)}
    by_gid, source, whole = _texts_by_glyph(prog, names, gids)
    if not whole:
        return {}, "", False
    if cid_to_gid is None:
        return {gid: frozenset(t) for gid, t in by_gid.items()}, source, True
    if wanted is None:
        own = {cid: frozenset(by_gid[gid]) for cid, gid in enumerate(cid_to_gid)
               if gid in by_gid}
        return own, source, bool(own)
    own = {cid: frozenset(by_gid[cid_to_gid[cid]]) for cid in sorted(wanted)
           if 0 <= cid < len(cid_to_gid) and cid_to_gid[cid] in by_gid}
    return own, source, bool(own) or any(map(whole.__contains__, cid_to_gid))


class _Named:
    """Which glyphs a program's names give a text, each name read once and only when asked."""

    def __init__(self, glyph_names: list[str]) -> None:
        self.glyph_names = glyph_names
        self.seen: dict[int, str | None] = {}

    def text(self, gid: int) -> str | None:
        from .encodings import name_to_unicode

        if gid in self.seen:
            return self.seen[gid]
        found = None
        if 0 <= gid < len(self.glyph_names):
            name = self.glyph_names[gid]
            text = name_to_unicode(name)
            found = text if text and not _index_uni(name) else None
        self.seen[gid] = found
        return found

    def __contains__(self, gid: object) -> bool:
        return type(gid) is int and self.text(gid) is not None

    def __bool__(self) -> bool:
        return any(self.text(gid) is not None for gid in range(len(self.glyph_names)))


def _texts_by_glyph(prog: Any, names: str, gids: Collection[int] | None = None) -> tuple[
        dict[int, set[str]], str, Container[int]]:
    """Glyph id → texts from the program's Unicode cmap, else from its glyph names.

    `names` is how the names are reported ("post names", "charset names"); empty when the
    names are not to be trusted for this font. Returns the texts (of `gids` only, when
    given), their source, and the glyphs with a text among all (``in``; false when none).
    """
    if _cmap_usable(prog.cmap):
        return _glyph_texts(prog.cmap, gids), "cmap", set(prog.cmap.values())
    if not (names and prog.glyph_names):
        return {}, "", set()
    named = _Named(prog.glyph_names)
    by_gid: dict[int, set[str]] = {}
    for gid in range(len(prog.glyph_names)) if gids is None else sorted(gids):
        text = named.text(gid)
        if text is not None:
            by_gid[gid] = {text}
    return by_gid, names, named


def symbolic_texts(prog: Any) -> tuple[dict[int, frozenset[str]], str]:
    """Code → texts for a simple TrueType without encoding names, from its own tables.

    The code selects a glyph through the (3,0)/(1,0) subtable (a symbolic
    font's codes, possibly at U+F0xx) or, without one, through the Unicode
    subtable directly; the glyph's texts are every code point of the Unicode
    subtable that selects it, else its ``post`` name.
    """

    if prog is None or prog.error:
        return {}, ""
    by_gid, source, _ = _texts_by_glyph(
        prog, "post names" if prog.post_format in (1.0, 2.0) else "")
    if not by_gid:
        return {}, ""
    if prog.symbol_cmap:
        code_gid: dict[int, int] = {}
        for code, gid in prog.symbol_cmap.items():
            low = code & 0xFF if code >= 0xF000 else code
            if low < 0x100:
                code_gid.setdefault(low, gid)
    elif prog.cmap:
        code_gid = {c: g for c, g in prog.cmap.items() if c < 0x100}
    else:
        return {}, ""
    return {c: frozenset(by_gid[g]) for c, g in code_gid.items() if g in by_gid}, source


# -- widths ------------------------------------------------------------------------------------
#: Distinct lower-case letters a page must draw with a font before its widths are compared.
MIN_WIDTH_LETTERS = 8
#: Below this rank correlation between a font's widths and the letters its map gives, the map is
#: permuted. Per page with 8 letters or more, the proportional fonts of the real corpus, its
#: Ghostscript and cairo re-distillations and 24 Chromium prints give 0.72 or more (264
#: font-pages), their scrambled copies under 0.3 for 32 of 33.
MAX_WIDTH_CORRELATION = 0.3
#: Rank correlation of widths with letters that vouches for a map (real fonts: 0.6 and more).
MIN_WIDTH_RANK = 0.7


#: Advance widths (1/1000 em) of the Latin-1, Greek and Cyrillic letters. Latin: the mean of
#: Helvetica's and Times-Roman's, from Adobe's Core 14 AFM metrics (as reportlab ships them).
_REFERENCE_WIDTHS: dict[str, float] = {
    "a": 500, "b": 528, "c": 472, "d": 528, "e": 500, "f": 305.5, "g": 528, "h": 528, "i": 250,
    "j": 250, "k": 500, "l": 250, "m": 805.5, "n": 528, "o": 528, "p": 528, "q": 528, "r": 333,
    "s": 444.5, "t": 278, "u": 528, "v": 500, "w": 722, "x": 500, "y": 500, "z": 472,
    "ß": 555.5, "à": 500, "á": 500, "â": 500, "ã": 500, "ä": 500, "å": 500, "æ": 778, "ç": 472,
    "è": 500, "é": 500, "ê": 500, "ë": 500, "ì": 278, "í": 278, "î": 278, "ï": 278, "ð": 528,
    "ñ": 528, "ò": 528, "ó": 528, "ô": 528, "õ": 528, "ö": 528, "ø": 555.5, "ù": 528, "ú": 528,
    "û": 528, "ü": 528, "ý": 500, "þ": 528, "ÿ": 500,
    "A": 694.5, "B": 667, "C": 694.5, "D": 722, "E": 639, "F": 583.5, "G": 750, "H": 722,
    "I": 305.5, "J": 444.5, "K": 694.5, "L": 583.5, "M": 861, "N": 722, "O": 750, "P": 611.5,
    "Q": 750, "R": 694.5, "S": 611.5, "T": 611, "U": 722, "V": 694.5, "W": 944, "X": 694.5,
    "Y": 694.5, "Z": 611, "À": 694.5, "Á": 694.5, "Â": 694.5, "Ã": 694.5, "Ä": 694.5,
    "Å": 694.5, "Æ": 944.5, "Ç": 694.5, "È": 639, "É": 639, "Ê": 639, "Ë": 639, "Ì": 305.5,
    "Í": 305.5, "Î": 305.5, "Ï": 305.5, "Ð": 722, "Ñ": 722, "Ò": 750, "Ó": 750, "Ô": 750,
    "Õ": 750, "Ö": 750, "Ø": 750, "Ù": 722, "Ú": 722, "Û": 722, "Ü": 722, "Ý": 694.5,
    "Þ": 611.5,
    # Greek and Cyrillic: the mean of Liberation Sans's and Liberation Serif's (SIL OFL), whose
    # metrics are Arial's and Times New Roman's.
    "α": 551, "β": 542, "γ": 470.9, "δ": 513.9, "ε": 432.9, "ζ": 427.5, "η": 539.6, "θ": 517.6,
    "ι": 245.6, "κ": 502, "λ": 492.4, "μ": 556.2, "ν": 476.1, "ξ": 446.8, "ο": 528.1, "π": 597.4,
    "ρ": 533.9, "ς": 439, "σ": 578.1, "τ": 398.4, "υ": 521, "φ": 612.8, "χ": 484.4, "ψ": 669.4,
    "ω": 719.5, "Α": 694.6, "Β": 667, "Γ": 564.5, "Δ": 655.5, "Ε": 638.9, "Ζ": 610.8, "Η": 722.2,
    "Θ": 750, "Ι": 305.4, "Κ": 694.6, "Λ": 696.5, "Μ": 861.1, "Ν": 722.2, "Ξ": 646.5, "Ο": 750,
    "Π": 722.2, "Ρ": 611.6, "Σ": 600.1, "Τ": 610.8, "Υ": 694.6, "Φ": 764.4, "Χ": 694.6,
    "Ψ": 786.6, "Ω": 745.4, "а": 500, "б": 540.8, "в": 501.7, "г": 387.5, "д": 546.1, "е": 500,
    "ж": 679.9, "з": 426.8, "и": 546.9, "й": 546.9, "к": 461.7, "л": 541.3, "м": 660.2,
    "н": 543.7, "о": 528.1, "п": 538.3, "р": 528.1, "с": 471.9, "т": 447.5, "у": 500, "ф": 735.4,
    "х": 500, "ц": 554, "ч": 512, "ш": 786.1, "щ": 796.4, "ъ": 571, "ы": 695.3, "ь": 488.5,
    "э": 469.7, "ю": 748.5, "я": 500.7, "А": 694.6, "Б": 615.2, "В": 667, "Г": 559.8, "Д": 679.7,
    "Е": 638.9, "Ж": 909.7, "З": 552.5, "И": 720.5, "Й": 720.5, "К": 624.8, "Л": 667.2,
    "М": 861.1, "Н": 722.2, "О": 750, "П": 720.5, "Р": 611.6, "С": 694.6, "Т": 610.8, "У": 671.6,
    "Ф": 775.1, "Х": 694.6, "Ц": 731, "Ч": 658.2, "Ш": 962.6, "Щ": 973.1, "Ъ": 748.8, "Ы": 878.7,
    "Ь": 615.2, "Э": 689.5, "Ю": 1019, "Я": 694.6,
}


def reference_widths() -> dict[str, float]:
    """Standard advance widths of the Latin-1, Greek and Cyrillic letters (_REFERENCE_WIDTHS)."""
    return _REFERENCE_WIDTHS


def letter_widths(tounicode: Mapping[int, str], widths: Mapping[int, float]) -> dict[
        int, tuple[str, float]]:
    """Code → (Latin, Greek or Cyrillic letter its map gives, its advance width)."""
    ref = reference_widths()
    return {code: (text, widths[code]) for code, text in tounicode.items()
            if text in ref and widths.get(code, 0) > 0}


#: Share of the letters drawn whose widths must be a symbol face's (one scale for all of them).
MIN_FACE_MATCH = 0.9
#: How far one width may be from the face's, as a share of it.
FACE_TOLERANCE = 0.02


def symbol_face(letters: Mapping[int, tuple[str, float]], drawn: Mapping[int, int]) -> str | None:
    """The standard symbol face (Symbol, ZapfDingbats) whose glyphs a font draws for the
    letters typed, told by their advance widths; None when the widths are no such face's.

    Letters typed in the Symbol face draw Greek (``a`` draws alpha), in ZapfDingbats
    ornaments: a map that gives the letters typed is the author's text, as with a font
    named so (fonts.SYMBOL_FONT_NAME). A re-print that loses the name (cairo and
    Ghostscript make such faces unnamed Type3 fonts) keeps the widths: each letter's
    width is the width of the face's glyph at that letter's code, at one scale.
    """
    pairs = {found for code in drawn if (found := letters.get(code)) is not None
             and len(found[0]) == 1 and ord(found[0]) < 256}
    if len({letter for letter, _ in pairs}) < MIN_WIDTH_LETTERS:
        return None
    for face, widths in _face_widths().items():
        ratios = sorted(width / widths[letter] for letter, width in pairs
                        if widths.get(letter, 0) > 0)
        if len(ratios) < MIN_FACE_MATCH * len(pairs):
            continue
        scale = ratios[len(ratios) // 2]
        close = sum(1 for r in ratios if abs(r - scale) <= FACE_TOLERANCE * scale)
        if close >= MIN_FACE_MATCH * len(pairs):
            return face
    return None


@functools.cache
def _face_widths() -> dict[str, dict[str, float]]:
    """Width of each standard symbol face's glyph per Latin-1 character code (Adobe's core
    metrics, as reportlab ships them)."""
    from reportlab.pdfbase import (
        _fontdata_enc_symbol,
        _fontdata_enc_zapfdingbats,
        _fontdata_widths_symbol,
        _fontdata_widths_zapfdingbats,
    )

    faces = {"Symbol": (_fontdata_enc_symbol.SymbolEncoding, _fontdata_widths_symbol.widths),
             "ZapfDingbats": (_fontdata_enc_zapfdingbats.ZapfDingbatsEncoding,
                              _fontdata_widths_zapfdingbats.widths)}
    return {face: {chr(code): float(widths[name]) for code, name in enumerate(encoding)
                   if name and name in widths}
            for face, (encoding, widths) in faces.items()}


def width_correlation(letters: Mapping[int, tuple[str, float]],
                      drawn: Mapping[int, int]) -> tuple[float, int] | None:
    """Rank correlation between the widths of the letters drawn and the standard widths of the
    letters the map gives them, and how many distinct letters it rests on; None when too few
    letters are drawn or the font is monospaced (no order to compare).

    Lower- and upper-case letters are ranked apart (capitals are wider in every font, which
    would make a permutation within each case look ordered); the worse case decides.
    """
    ref = reference_widths()
    groups: dict[bool, dict[str, float]] = {True: {}, False: {}}
    for code in drawn:
        found = letters.get(code)
        if found is not None:
            groups[found[0].islower()].setdefault(found[0], found[1])
    worst: tuple[float, int] | None = None
    for pairs in groups.values():
        if len(pairs) < MIN_WIDTH_LETTERS:
            continue
        keys = sorted(pairs)
        rho = _spearman([pairs[k] for k in keys], [ref[k] for k in keys])
        if rho is not None and (worst is None or rho < worst[0]):
            worst = (rho, len(keys))
    return worst


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def _spearman(a: list[float], b: list[float]) -> float | None:
    return pearson(_ranks(a), _ranks(b))


def pearson(a: list[float], b: list[float]) -> float | None:
    """The correlation of two series (None when either does not vary)."""
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    if va <= 0 or vb <= 0:
        return None
    return float(cov / (va * vb) ** 0.5)


# -- code order --------------------------------------------------------------------------------
#: Distinct letters a page must draw with a font before the order of its codes is compared.
MIN_ORDER_LETTERS = 12
#: Below this rank correlation between the glyph ids a font's letters are drawn with and the
#: Unicode values its map gives them, the map is permuted. Fonts lay their glyphs out roughly in
#: Unicode order (each script's block after the other); a scrambled map breaks that order. On
#: 392 original font-pages (the real corpus, Skia and the producer review: Latin, CJK, Hebrew,
#: Arabic, Korean) the lowest was 0.33; 321 of their 392 scrambled copies fell below 0.2.
MIN_ORDER_CORRELATION = 0.2
#: Only codes that are the font's own glyph ids are compared: the largest letter code a page
#: draws must be at least this many times the number of its letter codes, and at least 256 (a
#: subset numbered again from 1 has an order of its own) ...
ORDER_SPREAD = 4
#: ... and the codes, in the order the page first draws them, must not rise with it this well
#: (a subset numbered in order of first use over a long document).
FIRST_USE_CORRELATION = 0.5
#: A font whose glyph ids follow a legacy encoding's order at least this well keeps that order:
#: no permuted map (a permuted one follows none of them; the real fonts follow theirs closely).
LEGACY_ORDER_CORRELATION = 0.5
#: Legacy encodings whose code order East Asian fonts may keep for their glyphs (SimSun's glyphs
#: follow GBK, MingLiU's Big5, MS Mincho's Shift-JIS): GB2312 and JIS order their first-level
#: ideographs by reading, which has nothing to do with Unicode's radical order.
_LEGACY_ORDERS = ("gbk", "big5", "shift_jis", "euc_kr")


def _legacy_code(ch: str, encoding: str) -> int | None:
    try:
        return int.from_bytes(ch.encode(encoding), "big")
    except UnicodeEncodeError:
        return None


def code_order_correlation(tounicode: Mapping[int, str],
                           drawn: Mapping[int, int]) -> tuple[float, int] | None:
    """Rank correlation between the codes drawn (glyph ids of an Identity font) and the order of
    the letters the map gives them, with how many distinct letters it rests on; None when too
    few letters are drawn or the codes do not look like the font's own glyph ids.

    The order is Unicode's; when the codes do not follow it and the letters are ideographs or
    kana, a legacy East Asian encoding's order that they follow closely is given instead (a
    font in GBK order is no permuted map)."""
    pairs: dict[int, str] = {}
    for code in drawn:
        text = tounicode.get(code)
        if text is not None and len(text) == 1 and text.isalpha():
            pairs[code] = text
    letters = len(set(pairs.values()))
    if letters < MIN_ORDER_LETTERS:
        return None
    top = max(pairs)
    if top < 256 or top < ORDER_SPREAD * len(pairs):
        return None
    # Codes numbered in order of first use (fpdf2, cairo) rise as the page first draws them
    # (its mapping iterates in that order): an order of the producer's, not of the font.
    first = [float(code) for code in drawn]
    rising = _spearman([float(i) for i in range(len(first))], first)
    if rising is None or rising >= FIRST_USE_CORRELATION:
        return None
    codes = sorted(pairs)
    rho = _spearman([float(c) for c in codes], [float(ord(pairs[c])) for c in codes])
    if rho is None or rho >= MIN_ORDER_CORRELATION:
        return None if rho is None else (rho, letters)
    if any(ord(ch) >= 0x2E80 for ch in pairs.values()):
        for encoding in _LEGACY_ORDERS:
            legacy = {c: v for c in codes if (v := _legacy_code(pairs[c], encoding)) is not None}
            if len(set(legacy.values())) < MIN_ORDER_LETTERS:
                continue
            keys = sorted(legacy)
            other = _spearman([float(c) for c in keys], [float(legacy[c]) for c in keys])
            if other is not None and other >= LEGACY_ORDER_CORRELATION:
                return other, letters
    return rho, letters
