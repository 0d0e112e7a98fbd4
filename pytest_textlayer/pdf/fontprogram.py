"""A font's embedded program: where its descriptor keeps it, and what the program says.

Owns finding the program (FontFile, FontFile2, or FontFile3 and its
subtype), reading its stream, and parsing it into a :class:`Program`: glyph
names by code (a built-in encoding) and by glyph id (a charset, ``post``
names), the Unicode and symbol ``cmap`` subtables, the ``post`` format, a
CID-keyed CFF's collection. fontTools parses TrueType and OpenType, except
where a whole CJK font would make it slow or its import is all it would
cost: the table directory of a usual TrueType is read by :mod:`.sfnttables`,
the ``post`` format here and the ``cmap`` subtables by :mod:`.sfntcmap`,
each failing where fontTools fails; a CFF
program (bare, or an OpenType font's ``CFF`` table) is read by
:mod:`.cffprogram`, whose few structures do not justify fontTools' 70 ms
import. Also the small readers of
pikepdf objects (names, text, streams, the CIDToGIDMap) that every font
module needs.

A module of its own because both the analysis of a font (:mod:`.fonts`)
and the check of its ToUnicode against its program (:mod:`.crosscheck`)
read programs, and the analysis uses the check.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .encodings import encoding_table
from .sfntcmap import CodeRuns, big_endian_array, cmap_subtables
from .sfnttables import PlainSfnt, post_format
from .streamguard import read_bytes


# -- helpers over pikepdf objects --------------------------------------------------------------
def pdf_name(obj: Any) -> str | None:
    import pikepdf

    if isinstance(obj, pikepdf.Name):
        return str(obj)[1:]
    return None


def pdf_text(obj: Any) -> str:
    try:
        return str(obj)
    except Exception:
        return ""


def is_stream(obj: Any) -> bool:
    import pikepdf

    return isinstance(obj, pikepdf.Stream)


def read(stream: Any) -> bytes:
    """A font's stream decoded (b"" when qpdf cannot), measured first (:mod:`.streamguard`)."""
    try:
        return read_bytes(stream)
    except Exception:
        return b""


def pdf_numbers(array: Any) -> list[float]:
    """The numbers of a flat array of numbers, read from its text in one step (a font's
    /Widths: reading hundreds of qpdf objects one at a time costs more than the font).

    Anything else (an indirect item, a nested array) is read item by item, and an item
    that is no number raises as ``float()`` of it does."""
    text = array.unparse(resolved=True)  # the array's own text, not "8 0 R"
    if text[:1] == b"[" and text[-1:] == b"]":
        try:
            return list(map(float, text[1:-1].split()))
        except ValueError:  # an indirect item or a nested array: qpdf reads each item
            pass
    return [float(w) for w in array]


def pdf_width_items(array: Any) -> list[Any]:
    """The items of a CIDFont's /W (numbers, and arrays of numbers), read from its text in one
    step as :func:`pdf_numbers` reads a flat array: a CJK font's /W holds thousands.

    The numbers come as floats, the inner arrays as lists of floats; anything
    else (an indirect item, a name) gives qpdf's own items, read one at a time.
    """
    text = array.unparse(resolved=True)
    if text[:1] == b"[" and text[-1:] == b"]":
        items: list[Any] = []
        inner: list[float] | None = None
        try:
            for token in text[1:-1].replace(b"[", b" [ ").replace(b"]", b" ] ").split():
                if token == b"[":
                    if inner is not None:
                        raise ValueError("nested deeper than /W nests")
                    inner = []
                elif token == b"]":
                    if inner is None:
                        raise ValueError("unbalanced")
                    items.append(inner)
                    inner = None
                elif inner is not None:
                    inner.append(float(token))
                else:
                    items.append(float(token))
            if inner is None:
                return items
        except ValueError:  # an indirect item, a name: qpdf reads each item
            pass
    return list(array)


def font_program(descriptor: Any) -> tuple[str | None, Any]:
    """(kind, stream) of the embedded program: TrueType, Type1, CFF, CIDCFF, OpenType."""
    import pikepdf

    if not isinstance(descriptor, pikepdf.Dictionary):
        return None, None
    for key, kind in (("/FontFile2", "TrueType"), ("/FontFile", "Type1"), ("/FontFile3", None)):
        stream = descriptor.get(key)
        if is_stream(stream):
            if kind is None and stream is not None:
                sub = pdf_name(stream.get("/Subtype")) or ""
                kind = {"Type1C": "CFF", "CIDFontType0C": "CIDCFF", "OpenType": "OpenType"}.get(
                    sub, "CFF"
                )
            return kind, stream  # read only when a route needs the program
    return None, None


# -- font programs -----------------------------------------------------------------------------
@dataclass
class Program:
    """What the embedded font program offers: names by code or GID, and its unicode cmap."""

    kind: str | None
    builtin: dict[int, str] = field(
        default_factory=dict
    )  # code -> name (Type1/CFF built-in encoding)
    glyph_names: Sequence[str] | None = None  # GID -> name (CFF charset, TrueType post 1/2)
    #: unicode -> GID (a whole font's as :class:`CodeRuns`)
    cmap: Mapping[int, int] = field(default_factory=dict)
    cmap_kinds: tuple[tuple[int, int], ...] = ()
    #: code -> GID from (3,0)/(1,0)
    symbol_cmap: Mapping[int, int] = field(default_factory=dict)
    post_format: float | None = None
    cid_keyed: bool = False
    #: (registry, ordering) of a CID-keyed CFF: which collection its CIDs belong to.
    ros: tuple[str, str] | None = None
    error: str | None = None

    @property
    def names(self) -> set[str]:
        return set(self.glyph_names or ())


def _load_cff(data: bytes) -> Program:
    from .cffprogram import read_cff

    facts = read_cff(data)
    prog = Program("CIDCFF" if facts.cid_keyed else "CFF", cid_keyed=facts.cid_keyed,
                   ros=facts.ros)
    if facts.cid_keyed:
        return prog
    prog.glyph_names = facts.charset
    if isinstance(facts.encoding, dict):
        prog.builtin = facts.encoding
    elif facts.encoding == "StandardEncoding":
        prog.builtin = dict(encoding_table("StandardEncoding"))
    return prog


_T1_ENC = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]{}()<>]+)\s+put")


def _load_type1(data: bytes, length1: int) -> Program:
    prog = Program("Type1")
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


def _load_sfnt(data: bytes, kind: str) -> Program:
    prog = Program(kind)
    plain = PlainSfnt.of(data)  # most programs: their directory read without fontTools
    if plain is None:
        from fontTools.ttLib import TTFont

        font: Any = TTFont(io.BytesIO(data), lazy=True, fontNumber=0)
    else:
        font = plain
    if "CFF " in font:  # the glyph order is the CFF charset: read as fontTools reads it
        return _load_sfnt_cff(font if plain is None else plain.ttfont(), prog)
    if "cmap" in font:
        raw = font.getTableData("cmap")
        decoded = cmap_subtables(raw)
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
        if _take_subtables(prog, subtables) and decoded is not None:
            ids.asked = True  # fontTools would have named the glyphs of the maps read
        if decoded is not None and ids.asked:
            _check_glyph_order(font, None)  # where fontTools, naming the glyphs, would fail
    if "post" in font:
        prog.post_format = _post_format(font)
        if prog.post_format in (1.0, 2.0):
            prog.glyph_names = _LazyNames(font)
    return prog


def _load_sfnt_cff(font: Any, prog: Program) -> Program:
    from .cffprogram import read_cff

    facts = read_cff(font.getTableData("CFF "))
    if facts.charset:  # the glyph order, which fontTools would read by decompiling all the CFF
        font.setGlyphOrder(list(facts.charset))
    if "cmap" in font:
        decoded = cmap_subtables(font.getTableData("cmap")) if facts.charset else None
        if decoded is not None:  # glyph ids straight from the table: no names to turn back
            _take_subtables(prog, decoded)
        else:  # anything unusual: fontTools reads the table, naming glyphs turned back into ids
            _take_subtables(prog, [(t.platformID, t.platEncID, t) for t in font["cmap"].tables],
                            lambda found: _glyph_ids(font, found))
    if "post" in font:
        post = font["post"]
        prog.post_format = float(post.formatType)
        if prog.post_format in (1.0, 2.0):
            prog.glyph_names = list(font.getGlyphOrder())
    prog.cid_keyed = facts.cid_keyed
    prog.ros = facts.ros
    prog.glyph_names = prog.glyph_names or (None if facts.cid_keyed else facts.charset)
    return prog


def _own(cmap: Mapping[int, int]) -> Mapping[int, int]:
    return cmap if isinstance(cmap, CodeRuns) else dict(cmap)


def _take_subtables(prog: Program, subtables: Sequence[tuple[int, int, Any]],
                    glyph_ids: Callable[[Any], Mapping[int, int]] = _own) -> bool:
    """Set the program's cmaps from its subtables (``.cmap`` each): the longest Unicode one,
    the first symbol (1,0) or (3,0) one, and every subtable's kind. True when a map was read
    (every Unicode subtable's is, to be compared; `glyph_ids` turns a map into ids, else it
    is kept: a dictionary copied, :class:`CodeRuns` as they are, since copying them would
    build the dictionary of every code they spare)."""
    kinds: list[tuple[int, int]] = []
    best: Any = None
    read = False
    for platform, encoding, table in subtables:
        kinds.append((platform, encoding))
        if platform == 0 or (platform == 3 and encoding in (1, 10)):
            read = True
            if best is None or len(table.cmap) > len(best):
                best = table.cmap
        elif platform in (1, 3) and encoding == 0 and not prog.symbol_cmap:
            read = True
            prog.symbol_cmap = glyph_ids(table.cmap)
    if best:
        prog.cmap = glyph_ids(best)
    prog.cmap_kinds = tuple(kinds)
    return read


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


def _post_format(font: Any) -> float:
    """The ``post`` table's format, raising where fontTools' reading of the table raises."""
    raw = font.getTableData("post")
    if len(raw) < 32:
        raise ValueError("post table is truncated")
    form = post_format(raw)
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
                with _fonttools_quiet():
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


def load_program(kind: str | None, data: bytes, length1: int = 0) -> Program:
    """Parse an embedded program; a broken one gives an empty program with ``error`` set."""
    if kind is None or not data:
        return Program(None)
    try:
        with _fonttools_quiet():
            if kind in ("CFF", "CIDCFF"):
                prog = _load_cff(data)
            elif kind == "Type1":
                prog = _load_type1(data, length1)
            else:
                prog = _load_sfnt(data, kind)
    except Exception as exc:  # a broken program is evidence, not a crash
        prog = Program(kind, error=f"{type(exc).__name__}")
    return prog


#: Program streams whose parse is kept (see :func:`stream_program`): the few fonts that share
#: one are usually drawn on neighbouring pages.
RECENT_PROGRAMS = 4
_recent: dict[tuple[Any, str | None, int], tuple[Any, Program]] = {}


def stream_program(kind: str | None, stream: Any, length1: int = 0) -> Program:
    """:func:`load_program` of a program stream's decoded bytes, kept for the last few streams.

    Fonts of one document often share a program: a Type0 font per slide over one
    embedded CJK font, one face under two encodings. Each read and parsed it
    again: a whole CJK program is milliseconds to inflate and parse. A Program
    is not changed once made; the stream is known by its object number and its
    document (another document's object of the same number is read anew).
    :func:`forget_programs` lets the last ones, and their documents, go.
    """
    if kind is None or stream is None:
        return load_program(kind, b"", length1)
    objgen = getattr(stream, "objgen", (0, 0))
    if objgen == (0, 0):  # a direct object: nothing else can name it
        return load_program(kind, read(stream), length1)
    key = (objgen, kind, length1)
    found = _recent.get(key)
    if found is not None:
        try:
            if found[0].same_owner_as(stream):
                return found[1]
        except Exception:  # noqa: BLE001 - the kept one's document is closed: not this one
            pass
    program = load_program(kind, read(stream), length1)
    if key not in _recent and len(_recent) >= RECENT_PROGRAMS:
        del _recent[next(iter(_recent))]  # the oldest
    _recent[key] = (stream, program)
    return program


def forget_programs() -> None:
    """Let go of the programs :func:`stream_program` kept (and of their documents)."""
    _recent.clear()


@contextlib.contextmanager
def _fonttools_quiet() -> Iterator[None]:
    """fontTools' warnings held back: subset fonts trip many harmless ones ("3 extra bytes in
    post.stringData array"), which a library must not print into its caller's output."""
    import logging

    logger = logging.getLogger("fontTools")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def cid_to_gid_map(obj: Any) -> list[int] | None:
    """CIDToGIDMap as a list (None for Identity or absent)."""
    if obj is None or not is_stream(obj):
        return None
    return big_endian_array("H", read(obj)).tolist()  # a whole CJK map is 64 K glyph ids
