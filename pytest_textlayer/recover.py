"""Find what a broken font's codes mean, from the best source that works.

Sources, tried in this order because each is less certain than the one before:

a. the embedded program's own tables — a Unicode ``cmap`` subtable inverted
   (through CIDToGIDMap for composite fonts), ``post`` glyph names, CFF
   charset names, a Type1 program's built-in encoding — read through the
   Adobe Glyph List; or, for a font without a program, the glyph names of
   its encoding, which select what the viewer draws (``program``);
b. an order hypothesis — a constant offset, or the Macintosh standard glyph
   order — accepted only when the document's text under it passes the
   letter-pair model (``order``);
c. the glyphs themselves, recognised by Tesseract on a PDFium render and
   voted across every occurrence (``glyphs``, in :mod:`.glyphocr`).

Every source returns a :class:`Recovery`: the ``{code: text}`` map it could
vouch for and how much of the drawn text that covers. Codes a source cannot
vouch for stay unmapped, never guessed.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .pagetext import TJ_SPACE

#: Glyph drawn but not worth a ToUnicode entry: control characters and noncharacters.
_BAD_TEXT = {"\x00", "\ufeff", "\ufffe", "\uffff", "\ufffd"}
#: Offsets tried by the order source. −29/−31/−32/+3 are the ones met in the wild
#: (taxonomy.md); the window around them is tried too and the model decides.
OFFSET_WINDOW = range(-96, 97)
#: A hypothesis must cover this share of the font's drawn glyphs to be considered.
MIN_ORDER_COVERAGE = 0.9
#: Fewest letters of text a model verdict is taken on.
MIN_VERIFY_LETTERS = 12


def is_pua(ch: str) -> bool:
    cp = ord(ch)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0x10FFFF


def usable_text(text: str | None) -> bool:
    """Text a ToUnicode may carry: not empty, no control characters, no PUA, no U+FFFD."""
    if not text:
        return False
    for ch in text:
        if (
            ch in _BAD_TEXT
            or is_pua(ch)
            or (ord(ch) < 0x20 and ch not in "\t")
            or 0x7F <= ord(ch) < 0xA0
        ):
            return False
    return True


# --------------------------------------------------------------------------- fonts in use


@dataclass
class FontUsage:
    """One font object of the document and every code it draws, in drawing order."""

    key: tuple[int, int]
    font: Any
    name: str
    subtype: str
    width: int
    #: page index -> runs of codes, one run per text-showing operator, in content order.
    pages: dict[int, list[list[int]]] = field(default_factory=dict)
    #: The pikepdf document the font belongs to, kept alive as long as the font is used.
    owner: Any = field(default=None, repr=False, compare=False)
    #: page index -> for each run of :attr:`pages`, its place among every font's runs on the
    #: page (content order): a fallback font's letters sit between the main font's runs.
    places: dict[int, list[int]] = field(default_factory=dict, repr=False, compare=False)

    def codes(self) -> Counter[int]:
        counts: Counter[int] = Counter()
        for runs in self.pages.values():
            for run in runs:
                counts.update(run)
        return counts

    @property
    def glyphs(self) -> int:
        return sum(len(run) for runs in self.pages.values() for run in runs)

    def text(self, mapping: Mapping[int, str], *, missing: str = "") -> str:
        """The font's drawn text under ``mapping``, one line per run."""
        return "\n".join(
            "".join(mapping.get(c, missing) for c in run)
            for _, runs in sorted(self.pages.items())
            for run in runs
        )


def font_key(font: Any) -> tuple[int, int]:
    """Identity of a font dictionary: its object number, or the Python id for a direct one."""
    objgen = tuple(font.objgen)
    return (objgen[0], objgen[1]) if objgen != (0, 0) else (-id(font), 0)


def font_name(font: Any) -> str:
    base = font.get("/BaseFont")
    if base is None:
        return "(unnamed)"
    try:
        return str(base)[1:]
    except UnicodeDecodeError:  # a damaged name: its bytes as Latin-1
        return bytes(base.unparse()).decode("latin-1")[1:]


def _width(font: Any) -> int | None:
    """Bytes per code, or None for composite fonts whose CMap this module does not read."""
    import pikepdf

    if font.get("/Subtype") != pikepdf.Name.Type0:
        return 1
    enc = font.get("/Encoding")
    if isinstance(enc, pikepdf.Name) and str(enc) in ("/Identity-H", "/Identity-V"):
        return 2
    return None


def _split(data: bytes, width: int) -> list[int]:
    if width == 1:
        return list(data)
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data) - 1, 2)]


#: A TJ displacement (thousandths of text space) wider than this reads as a word break: the
#: classifier's own threshold, since a Times word space is itself only 250.
TJ_WORD_GAP = TJ_SPACE


def _shown_parts(operands: list[Any], op: str) -> Iterator[bytes]:
    """The strings one text operator shows, cut where a TJ gap reads as a space."""
    import pikepdf

    # A damaged stream may give any operand (null, a name, too few): it shows nothing then.
    where = {"Tj": 0, "'": 0, '"': 2}.get(op)
    if where is not None:
        if len(operands) > where and isinstance(operands[where], pikepdf.String):
            yield bytes(operands[where])
    elif op == "TJ" and operands and isinstance(operands[0], pikepdf.Array):
        part = b""
        for item in operands[0]:
            if isinstance(item, pikepdf.String):
                part += bytes(item)
            elif isinstance(item, (int, float, Decimal)) and float(item) < -TJ_WORD_GAP and part:
                yield part
                part = b""
        if part:
            yield part


def _resource_name(obj: Any) -> str | None:
    """The resource a name operand names (None: not a name, or one no dictionary key spells)."""
    import pikepdf

    if not isinstance(obj, pikepdf.Name):
        return None
    try:
        return str(obj)
    except UnicodeDecodeError:
        return None


def _walk(
    pdf: Any,
    stream: Any,
    resources: Any,
    page_index: int,
    usages: dict[tuple[int, int], FontUsage],
    depth: int = 0,
    counter: list[int] | None = None,
) -> None:
    """Record codes drawn in ``stream`` (page or Form XObject), following nested forms."""
    import pikepdf

    if depth > 12:
        return
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Unexpected end of stream": what is there counts
            instructions = pikepdf.parse_content_stream(stream)
    except (pikepdf.PdfError, TypeError, ValueError):  # damaged: objects no stream may hold
        return
    fonts = resources.get("/Font", {}) if resources is not None else {}
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    counter = [0] if counter is None else counter
    current: FontUsage | None = None
    stack: list[FontUsage | None] = []
    for instr in instructions:
        if isinstance(instr, pikepdf.ContentStreamInlineImage):
            continue
        op = bytes(instr.operator.unparse()).decode("latin-1")  # damaged: not UTF-8
        operands = list(instr.operands)
        if op == "q":
            stack.append(current)
        elif op == "Q":
            current = stack.pop() if stack else current
        elif op == "Tf" and operands:
            name = _resource_name(operands[0])
            font = fonts.get(name) if name and hasattr(fonts, "get") else None
            current = None
            if isinstance(font, pikepdf.Dictionary):
                width = _width(font)
                if width is not None:
                    key = font_key(font)
                    current = usages.get(key)
                    if current is None:
                        subtype = str(font.get("/Subtype", "/?"))[1:]
                        current = FontUsage(key, font, font_name(font), subtype, width, owner=pdf)
                        usages[key] = current
        elif op in ("Tj", "TJ", "'", '"') and current is not None:
            runs = current.pages.setdefault(page_index, [])
            places = current.places.setdefault(page_index, [])
            for part in _shown_parts(operands, op):
                codes = _split(part, current.width)
                if codes:
                    runs.append(codes)
                    places.append(counter[0])
                    counter[0] += 1
        elif op == "Do" and operands and hasattr(xobjects, "get"):
            name = _resource_name(operands[0])
            xobj = xobjects.get(name) if name else None
            if isinstance(xobj, pikepdf.Stream) and xobj.get("/Subtype") == pikepdf.Name.Form:
                _walk(pdf, xobj, xobj.get("/Resources", resources), page_index, usages,
                      depth + 1, counter)


def collect_fonts(pdf: Any, pages: Iterable[int] | None = None) -> dict[tuple[int, int], FontUsage]:
    """Every font drawing text on the given pages (0-based; all by default), with its codes."""
    usages: dict[tuple[int, int], FontUsage] = {}
    indices = range(len(pdf.pages)) if pages is None else pages
    for index in indices:
        page = pdf.pages[index]
        _walk(pdf, page.obj, page.obj.get("/Resources"), index, usages)
    return usages


# --------------------------------------------------------------------------- recoveries


@dataclass(frozen=True)
class Recovery:
    """A map for one font and where it came from."""

    mapping: dict[int, str]
    #: cmap | post | charset | encoding | offset | mac-standard | codes | ocr-glyphs
    source: str
    #: Glyphs drawn with the font that the map gives text for.
    covered: int
    glyphs: int
    detail: str = ""
    #: For ocr-glyphs: every reading of every code, voted or not (evidence against a map).
    readings: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    #: For offset: the constant the codes or ToUnicode values were moved by.
    offset: int | None = None
    #: The glyph name that gave a code its text, for codes read by name (post, charset,
    #: encoding; not cmap): readers show some names otherwise than the AGL (``fi``).
    named: Mapping[int, str] = field(default_factory=dict)
    #: For codes read through a cmap: every text the cmap reaches the code's glyph by (one
    #: glyph for U+064A and U+06CC, for U+0020 and U+00A0); the map picked one of them.
    choices: Mapping[int, frozenset[str]] = field(default_factory=dict)

    @property
    def coverage(self) -> float:
        return self.covered / self.glyphs if self.glyphs else 0.0


def coverage(usage: FontUsage, mapping: Mapping[int, str]) -> int:
    return sum(n for code, n in usage.codes().items() if code in mapping)


def _descendant(font: Any) -> Any:
    desc = font.get("/DescendantFonts")
    if desc is None or len(desc) == 0:
        return None
    return desc[0]


def _descriptor(font: Any) -> Any:
    import pikepdf

    target = _descendant(font) if font.get("/Subtype") == pikepdf.Name.Type0 else font
    return None if target is None else target.get("/FontDescriptor")


def _load_truetype(data: bytes) -> Any:
    from fontTools.ttLib import TTFont

    return TTFont(io.BytesIO(data), lazy=None, fontNumber=0, recalcBBoxes=False)


#: Arabic presentation forms (U+FB50-FDFF, U+FE70-FEFC): contextual forms and ligatures. A
#: font program maps its positional glyphs to them; the text they show is the letters.
#: (Latin ligatures stay: producers write U+FB01 as often as "fi", and so does poppler.)
_PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufefc]")


def plain_text(text: str) -> str:
    """``text`` with Arabic presentation forms written as the letters they show (ﺗ -> ت).

    Producers' ToUnicode maps give the letters, and searching or copying text
    needs them; a glyph's contextual form is only how it is drawn.
    """
    import unicodedata

    if not _PRESENTATION.search(text):
        return text
    return _PRESENTATION.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def _unicode_by_glyph(tt: Any) -> dict[str, str]:
    """Glyph name -> best character of the font's Unicode cmap subtables (no PUA).

    Presentation forms come back as their letters (:func:`plain_text`).
    """
    best: dict[str, tuple[int, int, str]] = {}
    for cp, name, text in _unicode_entries(tt):
        # Prefer the lowest code point: U+0020 over U+00A0 for the one space glyph. Forms
        # are ranked by their letters: the medial form shared by Arabic yeh and Farsi yeh
        # (U+FEF4, U+FBFF) is the basic letter's, U+064A.
        key = (ord(text[0]), cp, text)
        if name not in best or key < best[name]:
            best[name] = key
    return {name: key[2] for name, key in best.items()}


def _unicode_entries(tt: Any) -> Iterator[tuple[int, str, str]]:
    """(code point, glyph name, its text) of the Unicode cmap subtables, usable texts only."""
    if "cmap" not in tt:
        return
    for table in tt["cmap"].tables:
        if not table.isUnicode():
            continue
        for cp, name in table.cmap.items():
            text = plain_text(chr(cp))
            if usable_text(text):
                yield cp, name, text


def unicode_choices(tt: Any) -> dict[str, frozenset[str]]:
    """Glyph name -> every text the font's Unicode cmap subtables reach it by (no PUA)."""
    found: dict[str, set[str]] = {}
    for _cp, name, text in _unicode_entries(tt):
        found.setdefault(name, set()).add(text)
    return {name: frozenset(texts) for name, texts in found.items() if len(texts) > 1}


#: AGL names mapped to two code points, where fontTools picks the symbol over the Greek letter
#: that fonts almost always mean (a Greek Ω drawn by the glyph "Omega" is not the ohm sign).
_AGL_LETTERS = {"Omega": "\u03a9", "Delta": "\u0394"}


def _agl(name: str, *, plain: bool = True) -> str:
    """The text a glyph name stands for through the AGL ('' when none or unusable).

    ``plain``: Arabic presentation forms as their letters, the text a ToUnicode should carry;
    without it the code point the name gives, to find a glyph by.
    """
    from fontTools.agl import toUnicode

    if not name or name.startswith(".") or name in ("notdef",):
        return ""
    base = name.split(".")[0]  # "Omega.1" is a variant of "Omega"
    if base in _AGL_LETTERS:
        return _AGL_LETTERS[base]
    try:
        text = str(toUnicode(name))
    except Exception:  # noqa: BLE001 - a malformed name resolves to nothing
        return ""
    if plain:
        text = plain_text(text)
    return text if usable_text(text) else ""


def _post_names_are_real(tt: Any) -> bool:
    """A post table of format 2 (or 1) carries names; format 3 names are made up by fontTools."""
    post = tt.get("post") if hasattr(tt, "get") else None
    return post is not None and float(post.formatType) in (1.0, 2.0, 2.5)


def _name_text(name: str, by_glyph: Mapping[str, str], post_ok: bool) -> tuple[str, str]:
    """Text of one glyph name and the table that gave it ('' when none)."""
    if name in by_glyph:
        return by_glyph[name], "cmap"
    if post_ok:
        text = _agl(name)
        if text:
            return text, "post"
    return "", ""


def _cid_to_gid(cidfont: Any) -> Any:
    """A function CID -> GID from /CIDToGIDMap (Identity when absent or a name)."""
    import pikepdf

    mapping = cidfont.get("/CIDToGIDMap")
    if isinstance(mapping, pikepdf.Stream):
        data = mapping.read_bytes()

        def lookup(cid: int) -> int | None:
            i = 2 * cid
            return int.from_bytes(data[i : i + 2], "big") if i + 2 <= len(data) else None

        return lookup
    return lambda cid: cid


def _best_source(tally: Counter[str], default: str) -> str:
    return tally.most_common(1)[0][0] if tally else default


def _from_truetype_composite(usage: FontUsage, cidfont: Any, data: bytes) -> Recovery | None:
    tt = _load_truetype(data)
    order = tt.getGlyphOrder()
    by_glyph = _unicode_by_glyph(tt)
    post_ok = _post_names_are_real(tt)
    if not by_glyph and not post_ok:
        return None
    to_gid = _cid_to_gid(cidfont)
    mapping: dict[int, str] = {}
    named: dict[int, str] = {}
    choices: dict[int, frozenset[str]] = {}
    alternatives = unicode_choices(tt)
    tally: Counter[str] = Counter()
    for code in usage.codes():
        gid = to_gid(code)
        if gid is None or not 0 < gid < len(order):
            continue
        text, how = _name_text(order[gid], by_glyph, post_ok)
        if text:
            mapping[code] = text
            tally[how] += 1
            if how == "post":
                named[code] = str(order[gid])
            elif order[gid] in alternatives:
                choices[code] = alternatives[order[gid]]
    if not mapping:
        return None
    return Recovery(
        mapping,
        _best_source(tally, "cmap"),
        coverage(usage, mapping),
        usage.glyphs,
        "embedded TrueType " + " and ".join(sorted(tally)),
        named=named,
        choices=choices,
    )


def _cff(data: bytes, subtype: str) -> Any:
    """The CFF font set of a FontFile3 (bare CFF) or an OpenType-wrapped one."""
    if subtype == "/OpenType":
        tt = _load_truetype(data)
        return tt["CFF "].cff if "CFF " in tt else None
    from fontTools.cffLib import CFFFontSet

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(data), None)
    return cff


def _from_cff_composite(
    usage: FontUsage, cidfont: Any, data: bytes, subtype: str
) -> Recovery | None:
    cff = _cff(data, subtype)
    if cff is None:
        return None
    top = cff[cff.fontNames[0]]
    if hasattr(top, "ROS"):
        return _from_collection(usage, top.ROS)
    charset = list(top.charset)
    to_gid = _cid_to_gid(cidfont)
    mapping: dict[int, str] = {}
    named: dict[int, str] = {}
    for code in usage.codes():
        gid = to_gid(code)
        if gid is not None and 0 < gid < len(charset):
            text = _agl(charset[gid])
            if text:
                mapping[code] = text
                named[code] = str(charset[gid])
    if not mapping:
        return None
    return Recovery(
        mapping, "charset", coverage(usage, mapping), usage.glyphs, "embedded CFF charset",
        named=named,
    )


def _from_collection(usage: FontUsage, ros: Any) -> Recovery | None:
    """A CID-keyed CFF of an Adobe character collection: each code (an Identity CID) is
    the collection's character, by poppler-data's CID -> Unicode table when installed."""
    from .crosscheck import collection_table

    registry, ordering = str(ros[0]), str(ros[1])
    if registry != "Adobe":
        return None
    table = collection_table(ordering)
    mapping = {}
    for code in usage.codes():
        text = plain_text(table.get(code, ""))
        if usable_text(text):
            mapping[code] = text
    if not mapping:
        return None
    return Recovery(
        mapping,
        "charset",
        coverage(usage, mapping),
        usage.glyphs,
        f"embedded CID-keyed CFF: {registry}-{ordering} CIDs through the collection's table",
    )


def _differences(font: Any) -> dict[int, str]:
    import pikepdf

    enc = font.get("/Encoding")
    out: dict[int, str] = {}
    if isinstance(enc, pikepdf.Dictionary):
        code = 0
        for item in enc.get("/Differences", []):
            if isinstance(item, pikepdf.Name):
                out[code] = str(item)[1:]
                code += 1
            else:
                code = int(item)
    return out


#: Differences names that only number a glyph: g12, gid00043, glyph45, index45, cid123.
_INDEX_NAME = re.compile(r"(?:g|gid|glyph|index|cid)0*(\d+)")


def _named_encoding(name: str) -> dict[int, str]:
    from .encodings import encoding_table

    try:
        return encoding_table(name)
    except KeyError:
        return {}


def _explicit_encoding(font: Any) -> dict[int, str] | None:
    """Code -> glyph name of the encoding a simple font names (/Encoding or /BaseEncoding)."""
    import pikepdf

    enc = font.get("/Encoding")
    if isinstance(enc, pikepdf.Dictionary):
        enc = enc.get("/BaseEncoding")
    return _named_encoding(str(enc)[1:]) if isinstance(enc, pikepdf.Name) else None


def _base_encoding(font: Any) -> dict[int, str]:
    """Code -> glyph name of a simple TrueType's base encoding (/Encoding or its /BaseEncoding).

    A font flagged non-symbolic without one uses StandardEncoding (PDF 9.6.6.1); a
    symbolic one has only its program's built-in encoding, which this does not read.
    """
    explicit = _explicit_encoding(font)
    if explicit is not None:
        return explicit
    desc = font.get("/FontDescriptor")
    flags = int(desc.get("/Flags", 0)) if desc is not None else 0
    return {} if flags & 4 else _named_encoding("StandardEncoding")


_TYPE1_DUP = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]{}()<>]+)\s+put")


def type1_encoding(data: bytes) -> dict[int, str]:
    """Code -> glyph name of a Type1 program's built-in encoding (its clear-text part).

    ``/Encoding StandardEncoding def`` gives the standard table; otherwise
    the ``dup <code> /<name> put`` entries before ``eexec`` do.
    """
    clear = data.split(b"eexec", 1)[0]
    start = clear.find(b"/Encoding")
    if start < 0:
        return {}
    head = clear[start : start + 40]
    if b"StandardEncoding" in head:
        return _named_encoding("StandardEncoding")
    return {int(code): name.decode("latin-1") for code, name in _TYPE1_DUP.findall(clear[start:])
            if int(code) < 256}


def _simple_truetype_glyph(
    tt: Any, code: int, diffs: Mapping[int, str], base: Mapping[int, str] | None = None
) -> str | None:
    """Glyph name for ``code`` of a simple TrueType font, the way viewers look it up.

    A /Differences name the font does not know but which numbers a glyph
    (``g12``) is read as that glyph id, as pdf.js does; the program's own
    cmap or post table then says what the glyph is. A code with a glyph
    name (Differences, else the base encoding) selects, through the name's
    Unicode value, the glyph of the (3,1) Unicode cmap (PDF 9.6.6.4): the
    glyph drawn is that character's.
    """
    order = tt.getGlyphOrder()
    name = diffs.get(code)
    if name and name in tt.getReverseGlyphMap():
        return name
    match = _INDEX_NAME.fullmatch(name) if name else None
    if match and 0 < int(match.group(1)) < len(order):
        return str(order[int(match.group(1))])
    if "cmap" in tt:
        for pid, eid, probe in ((3, 0, 0xF000 + code), (3, 0, code)):
            table = tt["cmap"].getcmap(pid, eid)
            if table is not None and probe in table.cmap:
                return str(table.cmap[probe])
        unicode_table = tt["cmap"].getcmap(3, 1)
        named = name or (base or {}).get(code)
        text = _agl(named, plain=False) if named and unicode_table is not None else ""
        if len(text) == 1 and ord(text) in unicode_table.cmap:
            return str(unicode_table.cmap[ord(text)])
        table = tt["cmap"].getcmap(1, 0)
        if table is not None and code in table.cmap:
            return str(table.cmap[code])
    # A subset written with codes = glyph ids (some Word exports): no table says so, so no guess.
    return None


def _names_to_text(
    usage: FontUsage,
    diffs: Mapping[int, str],
    base: Mapping[int, str],
    mapping: dict[int, str],
    tally: Counter[str],
    named: dict[int, str] | None = None,
) -> None:
    """Text of each drawn code of a font that selects glyphs by name: Differences, else base.

    Names outside the AGL that carry a code point in hex (:func:`hex_names`) count too.
    ``named`` collects the glyph name of each code so read.
    """
    hexed = hex_names(diffs)
    for code in usage.codes():
        name = diffs.get(code) or base.get(code)
        text = (_agl(name) if name else "") or hexed.get(code, "")
        if text:
            mapping[code] = text
            tally["charset"] += 1
            if named is not None and name:
                named[code] = name


_HEX_NAME = re.compile(r"(.*?)([0-9A-Fa-f]{4,6})")
#: Printable ASCII codes whose hex-suffixed name must give the code itself before such names
#: are read as code points.
MIN_HEX_WITNESSES = 8


def hex_names(names: Mapping[int, str]) -> dict[int, str]:
    """Code -> text for fonts whose glyph names are one prefix and a code point in hex.

    Some producers name glyphs ``iSQP05EA`` (a tag, then U+05EA). The scheme
    is believed only when every name has the same prefix and, for at least
    :data:`MIN_HEX_WITNESSES` printable ASCII codes and with no exception,
    the hex number is the code itself (``iSQP0041`` for code 65).
    """
    parts = {code: _HEX_NAME.fullmatch(name) for code, name in names.items()}
    if not parts or any(m is None for m in parts.values()):
        return {}
    found = {code: m for code, m in parts.items() if m is not None}
    if len({m.group(1) for m in found.values()}) != 1:
        return {}
    values = {code: int(m.group(2), 16) for code, m in found.items()}
    ascii_codes = [code for code in values if 0x21 <= code <= 0x7E]
    if len(ascii_codes) < MIN_HEX_WITNESSES or any(values[c] != c for c in ascii_codes):
        return {}
    out = {}
    for code, value in values.items():
        text = chr(value) if value < 0x110000 and not 0xD800 <= value <= 0xDFFF else ""
        if usable_text(text):
            out[code] = plain_text(text)
    return out


#: The standard 14 fonts that are not symbolic: without an /Encoding they use StandardEncoding.
_STANDARD_TEXT_FONTS = re.compile(r"(Times|Helvetica|Courier)(-[A-Za-z]+)?")


def _from_names(usage: FontUsage, font: Any, *, base: bool = True) -> Recovery | None:
    """A font without a program: each code's glyph name (Differences, else the base encoding).

    The viewer draws that named glyph from a font of its own, so the name is
    what the page shows. (``base=False``: the Differences only.)
    """
    diffs = _differences(font)
    encoding = _explicit_encoding(font) if base else {}
    if encoding is None:
        # Without an /Encoding, a standard Latin font, or one its descriptor flags as
        # non-symbolic, uses StandardEncoding (PDF 9.6.6.1).
        plain = re.sub(r"^[A-Z]{6}\+", "", font_name(font))
        desc = font.get("/FontDescriptor")
        flags = int(desc.get("/Flags", 0)) if desc is not None else 0
        standard = _STANDARD_TEXT_FONTS.fullmatch(plain.split(",")[0]) or (
            flags & 32 and not flags & 4
        )
        encoding = _named_encoding("StandardEncoding") if standard else {}
    mapping: dict[int, str] = {}
    named: dict[int, str] = {}
    tally: Counter[str] = Counter()
    _names_to_text(usage, diffs, encoding, mapping, tally, named)
    if not mapping:
        return None
    return Recovery(
        mapping, "encoding", coverage(usage, mapping), usage.glyphs, "glyph names of the encoding",
        named=named,
    )


def _from_simple(usage: FontUsage, font: Any) -> Recovery | None:
    desc = font.get("/FontDescriptor")
    if desc is None or not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
        return _from_names(usage, font)
    diffs = _differences(font)
    mapping: dict[int, str] = {}
    named: dict[int, str] = {}
    choices: dict[int, frozenset[str]] = {}
    tally: Counter[str] = Counter()
    if "/FontFile2" in desc:
        tt = _load_truetype(desc["/FontFile2"].read_bytes())
        by_glyph = _unicode_by_glyph(tt)
        alternatives = unicode_choices(tt)
        post_ok = _post_names_are_real(tt)
        base = _base_encoding(font)
        for code in usage.codes():
            name = _simple_truetype_glyph(tt, code, diffs, base)
            if name is None:
                continue
            text, how = _name_text(name, by_glyph, post_ok)
            if text:
                mapping[code] = text
                tally[how] += 1
                if how == "post":
                    named[code] = name
                elif name in alternatives:
                    choices[code] = alternatives[name]
        detail = "embedded TrueType"
    elif "/FontFile3" in desc:
        stream = desc["/FontFile3"]
        cff = _cff(stream.read_bytes(), str(stream.get("/Subtype", "/Type1C")))
        if cff is None:
            return None
        top = cff[cff.fontNames[0]]
        encoding = getattr(top, "Encoding", None)
        if isinstance(encoding, list):
            builtin = dict(enumerate(encoding))
        else:
            builtin = _named_encoding(str(encoding)) if encoding else {}
        explicit = _explicit_encoding(font)
        _names_to_text(usage, diffs, builtin if explicit is None else explicit, mapping, tally,
                       named)
        detail = "embedded CFF"
    elif "/FontFile" in desc:
        stream = desc["/FontFile"]
        data = stream.read_bytes()
        clear = int(stream.get("/Length1", len(data)))
        explicit = _explicit_encoding(font)
        names = type1_encoding(data[: clear or len(data)]) if explicit is None else explicit
        _names_to_text(usage, diffs, names, mapping, tally, named)
        detail = "embedded Type1"
    else:
        return None
    if not mapping:
        return None
    return Recovery(
        mapping,
        _best_source(tally, "cmap"),
        coverage(usage, mapping),
        usage.glyphs,
        detail + " " + " and ".join(sorted(tally)),
        named=named,
        choices=choices,
    )


def from_program(usage: FontUsage) -> Recovery | None:
    """Source a: the embedded font program's own tables, or None when they say nothing."""
    import pikepdf

    font = usage.font
    try:
        if font.get("/Subtype") == pikepdf.Name.Type0:
            cidfont = _descendant(font)
            desc = cidfont.get("/FontDescriptor") if cidfont is not None else None
            if desc is None:
                return None
            if "/FontFile2" in desc:
                return _from_truetype_composite(usage, cidfont, desc["/FontFile2"].read_bytes())
            if "/FontFile3" in desc:
                stream = desc["/FontFile3"]
                return _from_cff_composite(
                    usage,
                    cidfont,
                    stream.read_bytes(),
                    str(stream.get("/Subtype", "/CIDFontType0C")),
                )
            return None
        if font.get("/Subtype") == pikepdf.Name.Type3:
            # Its glyphs are procedures: only their names (AGL or hex code points) can say.
            found = _from_names(usage, font, base=False)
            return None if found is None else Recovery(
                found.mapping, "charset", found.covered, found.glyphs, "Type3 glyph names",
                named=found.named,
            )
        return _from_simple(usage, font)
    except Exception:  # noqa: BLE001 - a damaged program is a source that says nothing
        return None


# --------------------------------------------------------------------------- order hypotheses


def _gid_codes(usage: FontUsage) -> dict[int, int]:
    """code -> glyph id, when codes are glyph ids (Identity composite fonts, or simple fonts)."""
    import pikepdf

    codes = usage.codes()
    if usage.font.get("/Subtype") == pikepdf.Name.Type0:
        cidfont = _descendant(usage.font)
        if cidfont is None:
            return {}
        to_gid = _cid_to_gid(cidfont)
        return {c: g for c in codes if (g := to_gid(c)) is not None}
    return {c: c for c in codes}


def codes_map(usage: FontUsage) -> dict[int, str]:
    """code -> the WinAnsi character of a simple font's one-byte code.

    A symbolic TrueType subset reaches its glyphs through a (3,0) cmap at
    U+F000 plus the code, and its glyphs may be named 'glyph00004': the
    program says nothing of the text. Many producers (Ghostscript among
    them) still wrote the codes of the text they drew, so the codes
    themselves may be the text; the letter-pair model says whether they are.
    """
    if usage.width != 1:
        return {}
    table = _named_encoding("WinAnsiEncoding")
    out: dict[int, str] = {}
    for code in usage.codes():
        text = _agl(table.get(code, ""))
        # Codes WinAnsi leaves undefined draw a bullet (Annex D): no text said that.
        if text and (text != "\u2022" or code == 0x95):
            out[code] = text
    return out


def mac_standard_map(usage: FontUsage) -> dict[int, str]:
    """code -> text reading glyph ids through the 258-name Macintosh standard order."""
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    out: dict[int, str] = {}
    for code, gid in _gid_codes(usage).items():
        if 0 < gid < len(standardGlyphOrder):
            text = _agl(standardGlyphOrder[gid])
            if text:
                out[code] = text
    return out


def _program_glyphs(usage: FontUsage) -> tuple[Any, Any] | None:
    """(glyf table, glyph order) of a composite font's embedded TrueType, when it has outlines."""
    import pikepdf

    if usage.font.get("/Subtype") != pikepdf.Name.Type0:
        return None
    cidfont = _descendant(usage.font)
    desc = cidfont.get("/FontDescriptor") if cidfont is not None else None
    if desc is None or "/FontFile2" not in desc:
        return None
    try:
        tt = _load_truetype(desc["/FontFile2"].read_bytes())
        return (tt["glyf"], tt.getGlyphOrder()) if "glyf" in tt else None
    except Exception:  # noqa: BLE001 - no outlines to check against
        return None


#: Characters past ASCII that prose in any language uses and an order hypothesis may give.
_PROSE_EXTRA = frozenset("’‘“”„–—…«»•°€£§¿¡\u00a0")


def _foreign_letters(
    usage: FontUsage, mapping: Mapping[int, str], model: Any, lang: str | None
) -> set[int]:
    """Codes past ASCII that the order reads as characters the text's language never uses.

    The Macintosh order is shared by many fonts for ASCII only; past it, a
    font in its designer's order reads as stray symbols (``m‹ssen``,
    ``schlieølich``) that the letter-pair model hardly notices among so many
    right letters. A letter must be in the alphabet of the language the text
    reads as; other characters must be ordinary prose punctuation.
    """
    from . import langmodel

    model = model if model is not None else langmodel.reference_model()
    verdict = langmodel.judge(usage.text(mapping, missing=" ")[:VERIFY_CHARS], model, lang=lang)
    names = (verdict.lang or "").split("+")
    alphabet: set[str] = set()
    for name in names:
        found = model.languages.get(name)
        if found is not None:
            alphabet |= set(found.alphabet)
    out: set[int] = set()
    for code, text in mapping.items():
        if all(ord(ch) < 0x80 for ch in text):
            continue
        fits = all(
            ch.lower() in alphabet if ch.isalpha() else ch in _PROSE_EXTRA
            for ch in text
            if ord(ch) >= 0x80
        )
        if not fits:
            out.add(code)
    return out


_DOTLESS = {"\u0131": "i", "\u0237": "j"}


def _contradicted_accents(usage: FontUsage, mapping: Mapping[int, str]) -> set[int]:
    """Codes read as an accented letter whose glyph is built on a different letter.

    An accented glyph is usually a composite of its base letter and the
    accent. Under the Macintosh order the base's glyph id says which letter
    it is too; when the composite's parts read as another letter (a font in
    its designer's order, which matches the Mac order for ASCII only), the
    accented reading is wrong. Glyphs that are not composites cannot be
    checked and keep their reading.
    """
    import unicodedata

    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    program = _program_glyphs(usage)
    if program is None:
        return set()
    glyf, order = program
    index = {name: i for i, name in enumerate(order)}
    gids = _gid_codes(usage)
    out: set[int] = set()
    for code, text in mapping.items():
        base = unicodedata.normalize("NFD", text)[:1]
        gid = gids.get(code)
        if len(text) != 1 or base == text or not base.isalpha() or gid is None:
            continue
        if not 0 <= gid < len(order):
            continue
        glyph = glyf[order[gid]]
        if not glyph.isComposite():
            continue
        parts = []
        for component in glyph.components:
            part = index.get(component.glyphName)
            if part is not None and 0 < part < len(standardGlyphOrder):
                parts.append(_agl(standardGlyphOrder[part]))
        # î is built on the dotless ı, and ĵ on ȷ: the same letter for this purpose.
        if parts and base not in {_DOTLESS.get(p, p) for p in parts}:
            out.add(code)
    return out


def offset_map(
    usage: FontUsage,
    offset: int,
    base: Mapping[int, str] | None = None,
    *,
    gids: Mapping[int, int] | None = None,
) -> dict[int, str]:
    """code -> chr(glyph id + offset), for glyph ids that land on usable characters.

    With ``base`` (the text the font's own route gives, one character per
    code), the offset moves those characters instead: a ToUnicode whose
    destinations were all shifted.
    """
    out: dict[int, str] = {}
    values: dict[int, tuple[int, ...]]
    if base is None:
        values = {c: (g,) for c, g in (_gid_codes(usage) if gids is None else gids).items()}
    else:
        # A ligature's value ("fi") was shifted character by character: so it moves back.
        drawn = usage.codes()
        values = {
            c: tuple(map(ord, t)) for c, t in base.items() if 0 < len(t) <= 4 and c in drawn
        }
    for code, numbers in values.items():
        moved = [number + offset for number in numbers]
        if all(0x20 <= cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF for cp in moved):
            text = "".join(map(chr, moved))
            if usable_text(text):
                out[code] = text
    return out


@dataclass(frozen=True)
class Hypothesis:
    source: str
    offset: int | None
    mapping: dict[int, str]
    #: Letter-pair score minus the model's threshold for the text this map gives.
    margin: float
    passes: bool


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


#: Mean letters per word above which a text in a spaced script is letter soup, not prose.
MAX_MEAN_WORD = 14.0
#: Scripts written without spaces between words (by the first word of the Unicode name).
_UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN")


def _spaced(text: str) -> bool:
    """Prose in a script that separates words has words of ordinary length.

    Under a wrong order the space glyph turns into a letter and every line
    becomes one long word, which a letter-pair model alone may still accept.
    """
    import unicodedata

    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    unspaced = sum(unicodedata.name(ch, "").startswith(_UNSPACED) for ch in letters)
    if unspaced > len(letters) / 2:
        return True
    words = [w for w in text.split() if any(ch.isalpha() for ch in w)]
    return bool(words) and len(letters) / len(words) <= MAX_MEAN_WORD


#: Characters of a font's text the model judges an order hypothesis on (enough to be sure, fast).
VERIFY_CHARS = 20000


def order_hypotheses(
    usage: FontUsage,
    model: Any = None,
    lang: str | None = None,
    base: Mapping[int, str] | None = None,
) -> list[Hypothesis]:
    """Mac-standard and constant-offset maps for a font, best margin first.

    Without ``base`` the codes are read as glyph ids; with it, the
    characters ``base`` gives are shifted. Only hypotheses covering most of
    the drawn glyphs are judged, by the letter-pair model
    (:func:`.langmodel.judge`) on the font's text across the whole document.
    """
    from . import langmodel

    glyphs = usage.glyphs
    candidates: list[tuple[str, int | None, dict[int, str]]] = []
    if base is None:
        candidates.append(("mac-standard", None, mac_standard_map(usage)))
        candidates.append(("codes", None, codes_map(usage)))
    # Counted once: some two hundred hypotheses are weighed against the same codes.
    gids = _gid_codes(usage) if base is None else None
    counts = usage.codes()
    # A glyph with no outline that advances the pen is a space: an order that reads it as
    # anything else is contradicted by the program itself (gid 3 + 75 is "N", not a letter).
    from .blankglyphs import blank_codes

    blanks = blank_codes(usage) if base is None else set()
    # Offsets that move a space onto a letter are not built at all (all but one or two).
    on_blanks = {c: g for c, g in (gids or {}).items() if c in blanks}
    candidates += [
        ("offset", k, offset_map(usage, k, base, gids=gids)) for k in OFFSET_WINDOW
        if k != 0 and all(t.isspace() for t in offset_map(usage, k, gids=on_blanks).values())
    ]
    out: list[Hypothesis] = []
    for source, offset, mapping in candidates:
        if any(not mapping.get(c, " ").isspace() for c in blanks):
            continue
        covered = sum(n for code, n in counts.items() if code in mapping)
        if not glyphs or covered < MIN_ORDER_COVERAGE * glyphs:
            continue
        text = usage.text(mapping, missing=" ")[:VERIFY_CHARS]
        if _letters(text) < MIN_VERIFY_LETTERS or wordlike(text) < MIN_WORDLIKE:
            continue
        if not _spaced(text):
            continue
        verdict = langmodel.judge(text, model, lang=lang)
        if verdict.passes is None:
            continue
        out.append(Hypothesis(source, offset, mapping, verdict.margin, bool(verdict.passes)))
    out.sort(key=lambda h: -h.margin)
    return out


#: Mac-standard wins over a constant offset within this margin: it also maps accented letters.
MAC_PREFERENCE = 0.25
#: Share of the visible characters of a hypothesis' text that must be letters or digits.
MIN_WORDLIKE = 0.8
_WORD = re.compile(
    r"[\"'(\[«“‘¿¡]*"
    r"(?:[^\W\d_]+(?:['’\-.·_][^\W\d_]+)*|[+\-−]?\d+(?:[.,:/\-]\d+)*%?)"
    r"[\"')\]»”’.,;:!?]*"
)


#: The marks CJK prose is punctuated with: ideographic comma and full stop, brackets and
#: quotes, the middle dot, full-width and half-width sentence punctuation. (Not the
#: full-width symbols ／＄＋: full-width Latin shifted by a wrong offset gives those.)
_CJK_MARKS = re.compile("[、。〃〈〉《》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟・"
                        "（）！？：；，．［］｛｝｡｢｣､･]")
#: Tokens of their own in prose: dashes, percent and section signs, bullets.
_DASHES = set("-–—%§•·&/*+=")


def wordlike(text: str) -> float:
    """Share of the visible characters that stand in word-shaped tokens.

    A token is a word (letters, with inner apostrophes or hyphens) or a
    number, with quotes and punctuation only at its ends; a lone
    punctuation mark is left out of the count. The letter-pair
    model scores letters; this keeps a wrong offset's symbol soup
    (``¦a¤¶³``, ``9:;<=>?@AB``) from passing on its few letter pairs.
    """
    # A lone punctuation mark (a table of contents' dot leaders, a bullet) is neither a word
    # nor soup: it does not count either way. Scripts written without spaces punctuate
    # inside what split() calls one token ('検討し、来年度'): their marks part words too.
    tokens = [t for t in _CJK_MARKS.sub(" ", text).split() if len(t) > 1 or t.isalnum()]
    total = sum(len(t) for t in tokens)
    if not total:
        return 0.0
    good = sum(
        len(t)
        for t in tokens
        if _WORD.fullmatch(t) or (len(t) <= 2 and all(c in _DASHES for c in t))
    )
    return good / total


#: An order hypothesis must clear the model's threshold by this much (real ones clear it by 1-2).
MIN_MARGIN = 0.3
#: The winning hypothesis must beat every hypothesis that reads the text differently by this much.
MIN_LEAD = 0.5


def _disagree(usage: FontUsage, a: Mapping[int, str], b: Mapping[int, str]) -> float:
    counts = usage.codes()
    total = sum(counts.values())
    return sum(n for c, n in counts.items() if a.get(c) != b.get(c)) / total if total else 0.0


def _settle_case(hyps: list[Hypothesis], usage: FontUsage) -> list[Hypothesis]:
    """Of two readings with the same letters in another case, keep the one cased like prose.

    The letter-pair model reads 'layout' and 'LAYOUT' alike, and offsets 32
    apart turn one into the other, so both pass and would rival each other;
    capitals inside words are what tells the wrong one.
    """
    kept: list[Hypothesis] = []
    for h in hyps:
        twin = next((k for k in kept if _same_letters(usage, k.mapping, h.mapping)), None)
        if twin is None:
            kept.append(h)
        elif _inner_capitals(usage.text(h.mapping)) < _inner_capitals(usage.text(twin.mapping)):
            kept[kept.index(twin)] = h
    return kept


def _same_letters(usage: FontUsage, a: Mapping[int, str], b: Mapping[int, str]) -> bool:
    counts = usage.codes()
    total = sum(counts.values())
    same = sum(n for c, n in counts.items()
               if a.get(c, "").casefold() == b.get(c, "").casefold())
    return bool(total) and same >= CASE_TWINS * total and _disagree(usage, a, b) > 0.2


#: Share of the drawn glyphs two readings must agree on, case aside, to be the same letters:
#: capitals 32 codes down land on digits and punctuation, so the rest differ.
CASE_TWINS = 0.85
_INNER_CAPITAL = re.compile(r"(?<=[^\W\d_])[^\W\d_]")


def _inner_capitals(text: str) -> float:
    """Share of the letters after a letter that are capitals (about 0.02 in prose)."""
    inner = _INNER_CAPITAL.findall(text)
    return sum(ch.isupper() for ch in inner) / len(inner) if inner else 0.0


def from_order(
    usage: FontUsage,
    model: Any = None,
    lang: str | None = None,
    base: Mapping[int, str] | None = None,
) -> Recovery | None:
    """Source b: the best order hypothesis, when the model accepts it and nothing rivals it.

    A hypothesis is only believed when it stands out: if another one that
    reads the glyphs differently also passes within :data:`MIN_LEAD`, the
    codes are not identifiable from their order (letter soup passes the
    model under many offsets) and the font is left to OCR.
    """
    hyps = _settle_case([
        h for h in order_hypotheses(usage, model, lang, base) if h.passes and h.margin >= MIN_MARGIN
    ], usage)
    if not hyps:
        return None
    best = hyps[0]
    mac = next((h for h in hyps if h.source == "mac-standard"), None)
    if mac is not None and mac.margin >= best.margin - MAC_PREFERENCE:
        best = mac
    rivals = [h for h in hyps if h is not best and _disagree(usage, h.mapping, best.mapping) > 0.2]
    if rivals and max(h.margin for h in rivals) > best.margin - MIN_LEAD:
        return None
    mapping = best.mapping
    if best.source == "mac-standard":
        detail = "glyph ids read through the Macintosh standard order"
        dropped = _contradicted_accents(usage, mapping) | _foreign_letters(
            usage, mapping, model, lang
        )
        if dropped:
            # One contradiction shows the font follows the Mac order for ASCII only: nothing
            # past ASCII can be trusted then, punctuation included.
            kept = {c: t for c, t in mapping.items() if t.isascii()}
            detail += (
                f"; {len(mapping) - len(kept)} code(s) past ASCII left out: the language does"
                " not use what the order says there, or an outline is built on another letter"
            )
            mapping = kept
    elif best.source == "codes":
        detail = "character codes read as WinAnsi characters"
    elif base is None:
        # A glyph-id offset says where ASCII sits in the font; past ASCII it is a coincidence.
        mapping = {c: t for c, t in mapping.items() if " " <= t <= "~"}
        detail = f"glyph ids shifted by {best.offset:+d} (ASCII only)"
    else:
        detail = f"ToUnicode values shifted back by {best.offset:+d}"
    best = Hypothesis(best.source, best.offset, mapping, best.margin, best.passes)
    return Recovery(
        best.mapping,
        best.source,
        coverage(usage, best.mapping),
        usage.glyphs,
        f"{detail}, accepted by the letter-pair model (margin {best.margin:+.2f})",
        offset=best.offset,
    )
