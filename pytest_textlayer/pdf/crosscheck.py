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
:attr:`pytest_textlayer.pdf.fontinfo.FontInfo.contradiction`); fonts without an
embedded program or without names cost one dictionary lookup.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from collections.abc import Collection, Container, ItemsView, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import compress
from operator import eq
from pathlib import Path
from typing import Any

from .fontprogram import cid_to_gid_map, stream_program
from .sfntcmap import CodeRuns

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


@functools.lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    # Memoized: a long document's maps give the same few hundred characters again and again.
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


@functools.lru_cache(maxsize=8192)
def _account(texts: frozenset[str]) -> tuple[frozenset[str], str | None]:
    """A glyph's texts folded, and the letter it is named as (None when no text is a letter).

    Memoized by the set itself: most glyphs' accounts are the one-text sets every font shares
    (:func:`one_text`). The letter is the least of several, so the choice never depends on a
    set's iteration order.
    """
    letters = [t for t in texts if _letters(_fold(t))]
    return frozenset(map(_fold, texts)), (min(letters) if letters else None)


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
        folds, letter = _account(texts)
        if letter is None:
            continue
        folded = _fold(value)
        if folded in folds:
            compared.add(code)
            continue
        named = _fold(letter)
        if _lookalike(folded, named):
            compared.add(code)
            continue
        if _letters(folded) and _script(named) == "LATIN" != _script(folded):
            # A legacy font's Latin-named slots holding Cyrillic or Greek letters: the names
            # lie there. A glyph named as a Cyrillic or Greek letter and mapped to a Latin one
            # is no such font: a map that lost its codes' high byte ("т" read as "F").
            continue
        compared.add(code)
        pairs[code] = (value, letter)
        if _letters(folded):
            letter_wrong.add(code)
        if len(value) == 1 and len(letter) == 1:
            distance = ord(value) - ord(letter)
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


#: A code :func:`confirmed` has not asked its memo about yet.
_UNASKED: Any = object()


def confirmed(
    tounicode: Mapping[int, str], own: Mapping[int, frozenset[str]], drawn: Mapping[int, int],
    memo: dict[int, bool | None] | None = None,
) -> tuple[int, int]:
    """(glyphs whose ToUnicode value the program's own account gives too, glyphs it accounts
    for) among `drawn`: how far the font program vouches for the map on one page.

    Unlike :func:`compare`, every kind of character counts (digits, punctuation and spaces
    are named too), so a table of figures is vouched for as well as prose. `memo` keeps
    each code's answer for the font's next pages (its map and account do not change).
    """
    agree = covered = 0
    for code, n in drawn.items():
        found = memo.get(code, _UNASKED) if memo is not None else _UNASKED
        if found is _UNASKED:
            found = _agrees(tounicode.get(code), own.get(code))
            if memo is not None:
                memo[code] = found
        if found is None:
            continue
        covered += n
        if found:
            agree += n
    return agree, covered


def _agrees(value: str | None, texts: frozenset[str] | None) -> bool | None:
    """Whether the account gives the map's value; None when it says nothing of the glyph."""
    if not texts or not value or len(texts) > MAX_SHARED:
        return None  # a glyph given many characters (a glyphless OCR font's) vouches for none
    folded = _fold(value)
    folds = _account(texts)[0]
    return folded in folds or any(_lookalike(folded, t) for t in folds)


@functools.lru_cache(maxsize=8192)
def one_text(text: str) -> frozenset[str]:
    """The account of a glyph with one text, shared: every font's ``a`` is the same set
    (a long document's fonts otherwise keep a set per glyph each)."""
    return frozenset((text,))


def name_texts(names: Mapping[int, str], zapf: bool = False) -> dict[int, frozenset[str]]:
    """Code → text of the glyph names an encoding selects (names that mean nothing left out)."""
    out: dict[int, frozenset[str]] = {}
    for code, name in names.items():
        texts = _name_text(name, zapf)
        if texts is not None:
            out[code] = texts
    return out


@functools.lru_cache(maxsize=8192)
def _name_text(name: str, zapf: bool) -> frozenset[str] | None:
    """One name's account, or None when it means nothing: a font's encoding names the same
    few hundred glyphs as every other font's, and testing a name costs ten lookups of it."""
    from .encodings import is_index_name, name_to_unicode

    if is_index_name(name) or _index_uni(name):
        return None
    text = name_to_unicode(name, zapf)
    return one_text(text) if text else None


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
#: Orderings of Adobe's CJK character collections, whose CIDs the collection tables
#: decode (PDF 2.0 adds KR).
CJK_ORDERINGS = frozenset({"GB1", "CNS1", "Japan1", "Korea1", "KR"})


class CollectionTable(Mapping[int, str]):
    """CID → character of one collection, held as one string indexed by CID (NUL where the
    table gives no character: it never gives NUL).

    A dictionary of Japan1's 16,876 characters held 2.3 MiB for the rest of the process,
    one string object per CID; the string holds a twentieth of that.
    """

    __slots__ = ("_chars", "_count")

    def __init__(self, chars: str) -> None:
        self._chars = chars
        self._count = len(chars) - chars.count("\0")

    def __getitem__(self, cid: int) -> str:
        char = self._chars[cid] if type(cid) is int and 0 <= cid < len(self._chars) else "\0"
        if char == "\0":
            raise KeyError(cid)
        return char

    def __contains__(self, cid: object) -> bool:
        return (type(cid) is int and 0 <= cid < len(self._chars)
                and self._chars[cid] != "\0")

    def __iter__(self) -> Iterator[int]:
        return (cid for cid, char in enumerate(self._chars) if char != "\0")

    def __len__(self) -> int:
        return self._count

    def items(self) -> ItemsView[int, str]:
        return _CollectionItems(self)


class _CollectionItems(ItemsView[int, str]):
    """A whole table's items in one pass over its string, not a lookup a CID."""

    _mapping: CollectionTable

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return ((cid, char) for cid, char in enumerate(self._mapping._chars) if char != "\0")


@functools.lru_cache(maxsize=8)
def collection_table(ordering: str) -> Mapping[int, str]:
    """CID → text of an Adobe collection from poppler-data's table (one hex value per line,
    line N for CID N); empty when the table is not installed.

    Reading a table's 17,000-30,000 lines takes about 11 ms, in every process
    that meets a CJK font: the characters are kept in the per-user cache.
    """
    from ..usercache import cached

    if ordering not in CJK_ORDERINGS:
        return {}
    for folder in CID_TABLE_DIRS:
        path = Path(folder) / f"Adobe-{ordering}"
        try:
            chars = cached(f"collection-{ordering}", (path, Path(__file__)),
                           functools.partial(_collection_chars, path))
        except OSError:
            continue
        return CollectionTable(chars)
    return {}


def _collection_chars(path: Path) -> str:
    """A collection table's characters, CID N at position N (NUL for none)."""
    with path.open(encoding="ascii") as fh:
        return "".join(map(_collection_char, fh.read().split()))


def _collection_char(value: str) -> str:
    """The character of one line of a collection table; NUL for none."""
    try:
        code = int(value, 16)
    except ValueError:
        return "\0"
    return chr(code) if 0x20 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\0"


def _glyph_texts(cmap: Mapping[int, int], gids: Collection[int] | None) -> dict[int, set[str]]:
    """GID → every code point a Unicode cmap gives it (`gids`, when given: those glyphs only)."""
    by_gid: dict[int, set[str]] = {}
    # A whole CJK font maps tens of thousands of code points; the glyphs asked for are picked
    # out without a Python step per entry (per run of a whole font's table).
    pairs: Iterable[tuple[int, int]]
    if gids is None:
        pairs = cmap.items()
    elif isinstance(cmap, CodeRuns):
        pairs = cmap.codes_of(gids)
    else:
        pairs = compress(cmap.items(), map(gids.__contains__, cmap.values()))
    for uni, gid in pairs:
        by_gid.setdefault(gid, set()).add(chr(uni))
    return by_gid


def _cmap_usable(cmap: Mapping[int, int]) -> bool:
    """Does a Unicode cmap give glyphs texts (not glyph indices or control characters)?

    Some writers fill a subset's Unicode subtable with glyph indices (code
    point = GID) or with control characters: such a table says nothing about
    the glyphs, and comparing with it would condemn a right ToUnicode.
    """
    if not cmap:
        return False
    # Entries whose code point is their glyph id, and the other ones below U+0020 (counted
    # without a Python step per entry: whole CJK fonts map tens of thousands).
    indices: int = cmap.fixed_points() if isinstance(cmap, CodeRuns) else sum(
        map(eq, cmap.keys(), cmap.values()))
    indices += sum(1 for uni in range(0x20) if uni in cmap and cmap[uni] != uni)
    return indices * 2 <= len(cmap)


class _Selected:
    """The glyphs a cmap selects (``in``), their set built only when first asked: the
    cross-check of a ToUnicode asks only when none of its codes has a text."""

    def __init__(self, cmap: Mapping[int, int]) -> None:
        self._cmap = cmap
        self._gids: set[int] | None = None

    def __contains__(self, gid: object) -> bool:
        if self._gids is None:
            self._gids = set(self._cmap.values())
        return gid in self._gids

    def __bool__(self) -> bool:
        return bool(self._cmap)


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
    if kind is None or stream is None:
        return {}, "", False
    prog = stream_program(kind, stream)
    if prog.error:
        return {}, "", False
    if prog.cid_keyed and prog.ros is not None and prog.ros[0] == "Adobe":
        # A CID-keyed CFF numbers its glyphs by a character collection's CIDs: the
        # collection's own table says what each CID is (codes are CIDs: Identity only).
        # A ToUnicode maps hundreds of the collection's 20,000 CIDs: those are looked up.
        table = collection_table(prog.ros[1])
        own = {cid: one_text(text) for cid, text in table.items()} if wanted is None else {
            cid: one_text(table[cid]) for cid in sorted(wanted) if cid in table}
        return own, (
            f"Adobe-{prog.ros[1]} CIDs" if table else ""), bool(table)
    names = "" if prog.cid_keyed else (
        "post names" if prog.post_format in (1.0, 2.0) else "charset names")
    cid_to_gid = cid_to_gid_map(cidfont.get("/CIDToGIDMap")) if cidfont is not None else None
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
        return _glyph_texts(prog.cmap, gids), "cmap", _Selected(prog.cmap)
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
