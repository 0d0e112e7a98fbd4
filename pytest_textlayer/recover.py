"""Find what a broken font's codes mean, from the best source that works.

Sources, tried in this order because each is less certain than the one before:

a. the embedded program's own tables — a Unicode ``cmap`` subtable inverted
   (through CIDToGIDMap for composite fonts), ``post`` glyph names, CFF
   charset names — read through the Adobe Glyph List (``program``);
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
    return str(base)[1:] if base is not None else "(unnamed)"


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

    if op in ("Tj", "'"):
        yield bytes(operands[0])
    elif op == '"':
        yield bytes(operands[2])
    elif op == "TJ":
        part = b""
        for item in operands[0]:
            if isinstance(item, pikepdf.String):
                part += bytes(item)
            elif float(item) < -TJ_WORD_GAP and part:
                yield part
                part = b""
        if part:
            yield part


def _walk(
    pdf: Any,
    stream: Any,
    resources: Any,
    page_index: int,
    usages: dict[tuple[int, int], FontUsage],
    depth: int = 0,
) -> None:
    """Record codes drawn in ``stream`` (page or Form XObject), following nested forms."""
    import pikepdf

    if depth > 12:
        return
    try:
        instructions = pikepdf.parse_content_stream(stream)
    except pikepdf.PdfError:
        return
    fonts = resources.get("/Font", {}) if resources is not None else {}
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    current: FontUsage | None = None
    stack: list[FontUsage | None] = []
    for instr in instructions:
        if isinstance(instr, pikepdf.ContentStreamInlineImage):
            continue
        op = str(instr.operator)
        operands = list(instr.operands)
        if op == "q":
            stack.append(current)
        elif op == "Q":
            current = stack.pop() if stack else current
        elif op == "Tf" and operands:
            font = fonts.get(str(operands[0])) if hasattr(fonts, "get") else None
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
            for part in _shown_parts(operands, op):
                codes = _split(part, current.width)
                if codes:
                    runs.append(codes)
        elif op == "Do" and operands and hasattr(xobjects, "get"):
            xobj = xobjects.get(str(operands[0]))
            if isinstance(xobj, pikepdf.Stream) and xobj.get("/Subtype") == pikepdf.Name.Form:
                _walk(pdf, xobj, xobj.get("/Resources", resources), page_index, usages, depth + 1)


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
    #: cmap | post | charset | offset | mac-standard | ocr-glyphs
    source: str
    #: Glyphs drawn with the font that the map gives text for.
    covered: int
    glyphs: int
    detail: str = ""
    #: For ocr-glyphs: every reading of every code, voted or not (evidence against a map).
    readings: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

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


def _unicode_by_glyph(tt: Any) -> dict[str, str]:
    """Glyph name -> best character of the font's Unicode cmap subtables (no PUA)."""
    out: dict[str, str] = {}
    if "cmap" not in tt:
        return out
    for table in tt["cmap"].tables:
        if not table.isUnicode():
            continue
        for cp, name in table.cmap.items():
            ch = chr(cp)
            if not usable_text(ch):
                continue
            old = out.get(name)
            # Prefer the lowest code point: U+0020 over U+00A0 for the one space glyph.
            if old is None or cp < ord(old):
                out[name] = ch
    return out


#: AGL names mapped to two code points, where fontTools picks the symbol over the Greek letter
#: that fonts almost always mean (a Greek Ω drawn by the glyph "Omega" is not the ohm sign).
_AGL_LETTERS = {"Omega": "\u03a9", "Delta": "\u0394"}


def _agl(name: str) -> str:
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
    tally: Counter[str] = Counter()
    for code in usage.codes():
        gid = to_gid(code)
        if gid is None or not 0 < gid < len(order):
            continue
        text, how = _name_text(order[gid], by_glyph, post_ok)
        if text:
            mapping[code] = text
            tally[how] += 1
    if not mapping:
        return None
    return Recovery(
        mapping,
        _best_source(tally, "cmap"),
        coverage(usage, mapping),
        usage.glyphs,
        "embedded TrueType " + " and ".join(sorted(tally)),
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
        return None  # CID-keyed: the charset names are CIDs, nothing more
    charset = list(top.charset)
    to_gid = _cid_to_gid(cidfont)
    mapping: dict[int, str] = {}
    for code in usage.codes():
        gid = to_gid(code)
        if gid is not None and 0 < gid < len(charset):
            text = _agl(charset[gid])
            if text:
                mapping[code] = text
    if not mapping:
        return None
    return Recovery(
        mapping, "charset", coverage(usage, mapping), usage.glyphs, "embedded CFF charset"
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


def _simple_truetype_glyph(tt: Any, code: int, diffs: Mapping[int, str]) -> str | None:
    """Glyph name for ``code`` of a simple TrueType font, the way viewers look it up.

    A /Differences name the font does not know but which numbers a glyph
    (``g12``) is read as that glyph id, as pdf.js does; the program's own
    cmap or post table then says what the glyph is.
    """
    order = tt.getGlyphOrder()
    name = diffs.get(code)
    if name and name in tt.getReverseGlyphMap():
        return name
    match = _INDEX_NAME.fullmatch(name) if name else None
    if match and 0 < int(match.group(1)) < len(order):
        return str(order[int(match.group(1))])
    if "cmap" in tt:
        for pid, eid, probe in ((3, 0, 0xF000 + code), (3, 0, code), (1, 0, code)):
            table = tt["cmap"].getcmap(pid, eid)
            if table is not None and probe in table.cmap:
                return str(table.cmap[probe])
    # A subset written with codes = glyph ids (some Word exports): no table says so, so no guess.
    return None


def _from_simple(usage: FontUsage, font: Any) -> Recovery | None:
    desc = font.get("/FontDescriptor")
    if desc is None:
        return None
    diffs = _differences(font)
    mapping: dict[int, str] = {}
    tally: Counter[str] = Counter()
    if "/FontFile2" in desc:
        tt = _load_truetype(desc["/FontFile2"].read_bytes())
        by_glyph = _unicode_by_glyph(tt)
        post_ok = _post_names_are_real(tt)
        for code in usage.codes():
            name = _simple_truetype_glyph(tt, code, diffs)
            if name is None:
                continue
            text, how = _name_text(name, by_glyph, post_ok)
            if text:
                mapping[code] = text
                tally[how] += 1
        detail = "embedded TrueType"
    elif "/FontFile3" in desc:
        stream = desc["/FontFile3"]
        cff = _cff(stream.read_bytes(), str(stream.get("/Subtype", "/Type1C")))
        if cff is None:
            return None
        top = cff[cff.fontNames[0]]
        encoding = getattr(top, "Encoding", None)
        builtin = encoding if isinstance(encoding, list) else []
        for code in usage.codes():
            name = diffs.get(code) or (builtin[code] if code < len(builtin) else None)
            text = _agl(name) if name else ""
            if text:
                mapping[code] = text
                tally["charset"] += 1
        detail = "embedded CFF"
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
            return None
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
    usage: FontUsage, offset: int, base: Mapping[int, str] | None = None
) -> dict[int, str]:
    """code -> chr(glyph id + offset), for glyph ids that land on usable characters.

    With ``base`` (the text the font's own route gives, one character per
    code), the offset moves those characters instead: a ToUnicode whose
    destinations were all shifted.
    """
    out: dict[int, str] = {}
    if base is None:
        numbers = _gid_codes(usage)
    else:
        drawn = usage.codes()
        numbers = {c: ord(t) for c, t in base.items() if len(t) == 1 and c in drawn}
    for code, number in numbers.items():
        cp = number + offset
        if 0x20 <= cp < 0x110000:
            ch = chr(cp)
            if usable_text(ch) and not 0xD800 <= cp <= 0xDFFF:
                out[code] = ch
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
    candidates += [("offset", k, offset_map(usage, k, base)) for k in OFFSET_WINDOW if k != 0]
    out: list[Hypothesis] = []
    for source, offset, mapping in candidates:
        if not glyphs or coverage(usage, mapping) < MIN_ORDER_COVERAGE * glyphs:
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
    # nor soup: it does not count either way.
    tokens = [t for t in text.split() if len(t) > 1 or t.isalnum()]
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
    )


# --------------------------------------------------------------------------- the glyphs themselves

#: Votes a code needs before OCR's reading of it is believed.
MIN_VOTES = 2
#: Share of a code's votes the winning reading must have; below it the code stays unmapped.
MIN_AGREEMENT = 0.7
#: Confidence given at most to a reading whose boxes do not agree with the glyph's.
FALLBACK_CONF = 80.0
#: Share of the smaller box that the glyph's box and the OCR box must share to agree.
MIN_BOX_OVERLAP = 0.6
#: A code drawn once in the whole document is believed on one vote only above this confidence.
SINGLE_VOTE_CONF = 90.0


def pdfium_font_name(name: str) -> str:
    """A font name as both sides can compare it: no subset tag (PDFium drops it for some
    fonts), empty for an unnamed font."""
    if name == "(unnamed)":
        return ""
    return re.sub(r"^[A-Z]{6}\+", "", name)


@dataclass
class _Char:
    """One character as PDFium reports it, in pixels."""

    unicode: int
    box: tuple[float, float, float, float]
    blank: bool
    error: bool
    origin: tuple[float, float]
    #: The box was made from origins, not given by PDFium.
    cell: bool = False


def _cells(chars: list[_Char]) -> list[_Char]:
    """Narrow boxes that overlap their neighbours to the advance between origins.

    PDFium boxes a Type3 glyph (and a glyph of a font with a bad bounding
    box) with the whole font box, so neighbours overlap and a box holds
    several recognised letters. The advance from one origin to the next on
    the same line is then the glyph's own cell.
    """
    out = list(chars)
    narrowed: list[float] = []
    for i, ch in enumerate(chars[:-1]):
        nxt = chars[i + 1]
        x0, y0, x1, y1 = ch.box
        same_line = abs(nxt.origin[1] - ch.origin[1]) < 0.2 * max(1.0, y1 - y0)
        advance = nxt.origin[0] - ch.origin[0]
        if same_line and advance > 0 and (x1 - x0) > 1.5 * advance:
            out[i] = _Char(
                ch.unicode, (ch.origin[0], y0, nxt.origin[0], y1), False, ch.error, ch.origin, True
            )
            narrowed.append(advance)
    if narrowed:
        # The last glyph of a line has no next origin: give it a generous typical advance.
        typical = 1.6 * sorted(narrowed)[len(narrowed) // 2]
        for i, ch in enumerate(out):
            x0, y0, x1, y1 = ch.box
            if x1 - x0 > 2 * typical:
                right = ch.origin[0] + typical
                out[i] = _Char(
                    ch.unicode, (ch.origin[0], y0, right, y1), False, ch.error, ch.origin, True
                )
    return out


@dataclass
class _Glyph:
    code: int
    box: tuple[float, float, float, float]  # pixels, top-left origin
    blank: bool
    cell: bool = False


def _pdfium_glyphs(
    page: Any, names: Mapping[str, FontUsage], page_index: int, scale: float
) -> dict[tuple[int, int], list[_Glyph]]:
    """Glyphs PDFium sees on the page for the given fonts, with their codes and pixel boxes.

    PDFium's characters come in content order, one per glyph; they are paired
    with the codes this module read from the content stream when the counts
    agree, else (for unmapped glyphs) through PDFium's own code-as-character.
    """
    import ctypes

    import pypdfium2.raw as raw

    textpage = page.get_textpage()
    left, bottom, _, top = page.get_cropbox()
    per_font: dict[str, list[_Char]] = {}
    buf = ctypes.create_string_buffer(512)
    for i in range(raw.FPDFText_CountChars(textpage)):
        if raw.FPDFText_IsGenerated(textpage, i):
            continue
        obj = raw.FPDFText_GetTextObject(textpage, i)
        font = raw.FPDFTextObj_GetFont(obj) if obj else None
        if not font:
            continue
        size = raw.FPDFFont_GetBaseFontName(font, buf, len(buf))
        name = pdfium_font_name(buf.value.decode("latin-1") if size else "")
        if name not in names:
            continue
        lft, rgt, bot, tp = (ctypes.c_double() for _ in range(4))
        raw.FPDFText_GetCharBox(textpage, i, lft, rgt, bot, tp)
        box = (
            (lft.value - left) * scale,
            (top - tp.value) * scale,
            (rgt.value - left) * scale,
            (top - bot.value) * scale,
        )
        blank = (tp.value - bot.value) < 0.1 or (rgt.value - lft.value) < 0.1
        ox, oy = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(textpage, i, ox, oy)
        per_font.setdefault(name, []).append(
            _Char(
                raw.FPDFText_GetUnicode(textpage, i),
                box,
                blank,
                bool(raw.FPDFText_HasUnicodeMapError(textpage, i)),
                ((ox.value - left) * scale, (top - oy.value) * scale),
            )
        )
    textpage.close()
    out: dict[tuple[int, int], list[_Glyph]] = {}
    for name, found in per_font.items():
        usage = names[name]
        chars = _cells(found)
        codes = [c for run in usage.pages.get(page_index, []) for c in run]
        if len(codes) == len(chars):
            out[usage.key] = [
                _Glyph(code, c.box, c.blank, c.cell) for code, c in zip(codes, chars, strict=True)
            ]
        elif all(c.error for c in chars):
            out[usage.key] = [_Glyph(c.unicode, c.box, c.blank, c.cell) for c in chars]
        else:
            aligned = _align(usage, codes, chars)
            if len(aligned) >= MIN_ALIGNED * len(codes):
                out[usage.key] = aligned
    return out


#: Share of a font's glyphs on a page that must align with PDFium's characters to be used.
MIN_ALIGNED = 0.8


def _align(usage: FontUsage, codes: list[int], chars: list[_Char]) -> list[_Glyph]:
    """Pair codes with PDFium's characters when their counts differ (PDFium merged or dropped one).

    What PDFium should show for each code is known: the font's own text for a
    mapped code, the code itself for an unmapped one. The two sequences are
    aligned and only matching stretches are paired.
    """
    import difflib

    from . import fonts

    try:
        info: Any = fonts.analyse_font(usage.font)
    except Exception:  # noqa: BLE001 - without the font's text only unmapped codes can align
        info = None

    def shown(code: int) -> str:
        text = info.to_unicode(code) if info is not None else None
        if info is None or info.is_bad_code(code) or not text or len(text) != 1:
            return chr(code) if code < 0x110000 else "\x00"
        return str(text)

    expected = [shown(c) for c in codes]
    got = [chr(c.unicode) if 0 <= c.unicode < 0x110000 else "\x00" for c in chars]
    matcher = difflib.SequenceMatcher(None, expected, got, autojunk=False)
    out: list[_Glyph] = []
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            ch = chars[b + k]
            out.append(_Glyph(codes[a + k], ch.box, ch.blank, ch.cell))
    return out


#: A glyph cell whose darkest pixel is lighter than this (0 black, 255 white) draws nothing.
INKLESS = 200


def _mark_inkless(items: list[_Glyph], image: Any) -> None:
    """Glyphs whose cell on the render holds no ink are spaces, whatever their box says.

    PDFium boxes a Type3 space with the whole font box; the render shows the truth.
    """
    width, height = image.size
    for glyph in items:
        if glyph.blank:
            continue
        bx0, by0, bx1, by1 = glyph.box
        # The inner part only: a neighbour's overhang (the hook of a J) may reach the edges.
        inset = 0.2 * (bx1 - bx0)
        x0, y0, x1, y1 = (int(round(v)) for v in (bx0 + inset, by0, bx1 - inset, by1))
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(width, x1), min(height, y1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        darkest, _ = image.crop((x0, y0, x1, y1)).getextrema()
        if darkest > INKLESS:
            glyph.blank = True
            continue
        if glyph.cell:
            # A cell made from origins is wider than the glyph: shrink it to the ink, so
            # its centre sits on the letter (a period at the end of a line).
            cx0, cy0 = max(0, int(bx0)), max(0, int(by0))
            cx1, cy1 = min(width, int(bx1) + 1), min(height, int(by1) + 1)
            mask = image.crop((cx0, cy0, cx1, cy1)).point(lambda v: 255 if v <= INKLESS else 0)
            ink = mask.getbbox()
            if ink:
                # Sideways only: the cell is as tall as the font box and reaches other lines.
                glyph.box = (cx0 + ink[0], by0, cx0 + ink[2], by1)


def _union(boxes: Iterable[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    xs0, ys0, xs1, ys1 = zip(*boxes, strict=True)
    return min(xs0), min(ys0), max(xs1), max(ys1)


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _glyph_words(items: list[_Glyph]) -> Iterator[list[_Glyph]]:
    """Runs of inked glyphs between blank ones (or a jump to another line)."""
    word: list[_Glyph] = []
    for glyph in items:
        if glyph.blank:
            if word:
                yield word
            word = []
            continue
        if word:
            last = word[-1].box
            height = max(1.0, last[3] - last[1])
            if (
                abs((glyph.box[1] + glyph.box[3]) - (last[1] + last[3])) / 2 > height
                or glyph.box[0] < last[0] - height
            ):
                yield word
                word = []
        word.append(glyph)
    if word:
        yield word


def read_glyphs(
    items: list[_Glyph], chars: list[Any]
) -> Iterator[tuple[_Glyph, tuple[str, float]]]:
    """Pair glyphs with what Tesseract read there.

    Tesseract's word text is far more reliable than its character boxes, so
    pairing goes by word first: either a word of glyphs (between blank
    glyphs) that overlaps one recognised word, or the inked glyphs whose
    centres fall inside one recognised word's box; when the counts agree,
    letters pair in order. Other glyphs fall back to the characters inside
    their own box, or read as a space when they sit in the gap between two
    words. Blank glyphs read as a space.
    """
    words: dict[int, list[Any]] = {}
    for ch in chars:
        words.setdefault(ch.word, []).append(ch)
    boxes = {w: _union(c.box for c in cs) for w, cs in words.items()}
    done: set[int] = set()
    for glyph in items:
        if glyph.blank:
            done.add(id(glyph))
            yield glyph, (" ", 100.0)
    pairs: list[tuple[list[_Glyph], list[Any]]] = []
    for word in _glyph_words(items):
        box = _union(g.box for g in word)
        best = max(boxes, key=lambda w: _iou(box, boxes[w]), default=None)
        if best is not None and _iou(box, boxes[best]) >= 0.5 and len(words[best]) == len(word):
            pairs.append((word, words[best]))
    for w, box in boxes.items():
        inside = [
            g
            for g in items
            if not g.blank
            and box[0] <= (g.box[0] + g.box[2]) / 2 <= box[2]
            and g.box[1] <= (box[1] + box[3]) / 2 <= g.box[3]
        ]
        if inside and len(inside) == len(words[w]):
            pairs.append((sorted(inside, key=lambda g: g.box[0]), words[w]))
    for word, found in pairs:
        if any(id(g) in done for g in word):
            continue
        for glyph, ch in zip(word, sorted(found, key=lambda c: c.box[0]), strict=True):
            done.add(id(glyph))
            yield glyph, (ch.text, ch.conf)
    for glyph in items:
        if id(glyph) not in done:
            got = _reading(glyph, chars) or _gap(glyph, boxes)
            if got is not None:
                yield glyph, got


def _gap(
    glyph: _Glyph, words: Mapping[int, tuple[float, float, float, float]]
) -> tuple[str, float] | None:
    """A glyph where OCR saw nothing, between two recognised words of one line: a space."""
    x0, y0, x1, y1 = glyph.box
    cx = (x0 + x1) / 2
    line = [b for b in words.values() if y0 <= (b[1] + b[3]) / 2 <= y1]
    left = any(b[2] <= cx and b[2] >= x0 - (x1 - x0) for b in line)
    right = any(b[0] >= cx and b[0] <= x1 + (x1 - x0) for b in line)
    return (" ", 80.0) if left and right else None


def _reading(glyph: _Glyph, chars: list[Any]) -> tuple[str, float] | None:
    """What OCR read inside one glyph's box: the characters centred in it, left to right."""
    if glyph.blank:
        return " ", 100.0
    x0, y0, x1, y1 = glyph.box
    padx, pady = 0.15 * (x1 - x0) + 1, 0.15 * (y1 - y0) + 1
    pad = max(padx, pady)

    def centred(px: float, py: float) -> list[Any]:
        return [
            c
            for c in chars
            if x0 - px <= (c.box[0] + c.box[2]) / 2 <= x1 + px
            and y0 - py <= (c.box[1] + c.box[3]) / 2 <= y1 + py
        ]

    # Strictly inside first; the margin only when nothing is, so a neighbour is not swallowed.
    inside = centred(0.0, 0.0) or centred(padx, pady)
    if not inside:
        # A small mark (a period) may be boxed a little off: take the character mostly inside.
        def share(c: Any) -> float:
            w = max(0.0, min(x1 + pad, c.box[2]) - max(x0 - pad, c.box[0]))
            h = max(0.0, min(y1 + pad, c.box[3]) - max(y0 - pad, c.box[1]))
            area = max(1.0, (c.box[2] - c.box[0]) * (c.box[3] - c.box[1]))
            return float(w * h / area)

        best = max(chars, key=share, default=None)
        if best is None or share(best) < 0.5:
            return None
        inside = [best]
    inside.sort(key=lambda c: c.box[0])
    conf = min(c.conf for c in inside)
    # Boxes that agree (the glyph's own outline and what OCR boxed) keep their confidence;
    # otherwise the reading is a guess from proximity and never enough on its own.
    if _overlap(glyph.box, _union(c.box for c in inside)) < MIN_BOX_OVERLAP:
        conf = min(conf, FALLBACK_CONF)
    return "".join(c.text for c in inside), conf


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over the smaller box."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / small if small > 0 else 0.0


def vote(
    readings: Mapping[int, list[tuple[str, float]]], counts: Mapping[int, int]
) -> dict[int, str]:
    """The reading each code gets: enough votes that agree, or nothing."""
    import unicodedata

    out: dict[int, str] = {}
    for code, seen in readings.items():
        # Readings that differ only in compatibility form (µ and μ, ﬁ and fi) are one
        # reading, written in its compatibility-decomposed form (μ, fi).
        tally = Counter(unicodedata.normalize("NFKC", text) for text, _ in seen)
        key, n = tally.most_common(1)[0]
        forms = Counter(t for t, _ in seen if unicodedata.normalize("NFKC", t) == key)
        text = key
        if n / len(seen) < MIN_AGREEMENT or not usable_text(text.strip() or text):
            continue
        confident = max(c for t, c in seen if t in forms) >= SINGLE_VOTE_CONF
        # One reading of a glyph drawn once is believed only for a single character:
        # two letters from one box are more often a neighbour swallowed than a ligature.
        single = counts.get(code, 0) == 1 and confident and len(text) == 1
        if n >= MIN_VOTES or single:
            out[code] = text
    return out


#: Readings after which a code is settled and pages drawing only settled codes are not OCR'd.
SETTLED_VOTES = 5


def _settled(seen: list[tuple[str, float]]) -> bool:
    """Enough agreeing readings; or so many that more would not change the outcome."""
    if len(seen) < SETTLED_VOTES:
        return False
    if len(seen) >= 3 * SETTLED_VOTES:
        return True
    top = Counter(t for t, _ in seen).most_common(1)[0][1]
    return top / len(seen) >= 0.9


def from_glyphs(
    data: bytes, usages: Iterable[FontUsage], lang: str, *, dpi: int = 300
) -> dict[tuple[int, int], Recovery]:
    """Source c: read the glyphs with Tesseract and vote per code across the whole document.

    ``data`` is the PDF the usages were collected from. Pages turned by
    /Rotate are left out (their boxes would need turning too); fonts whose
    glyphs cannot be paired with PDFium's characters get no votes.
    """
    import pypdfium2

    from . import ocr

    wanted = list(usages)
    readings: dict[tuple[int, int], dict[int, list[tuple[str, float]]]] = {
        u.key: {} for u in wanted
    }
    pages = sorted({p for u in wanted for p in u.pages})
    looked: dict[tuple[tuple[int, int], int], int] = {}
    doc = pypdfium2.PdfDocument(data)
    try:
        for index in pages:
            drawn = {(u.key, c) for u in wanted for run in u.pages.get(index, []) for c in run}
            if all(
                _settled(readings[k].get(c, [])) or looked.get((k, c), 0) >= SETTLED_VOTES
                for k, c in drawn
            ):
                # Every code here is read often enough, or was looked at on enough pages
                # that more would not help: save an OCR run.
                continue
            page = doc[index]
            if page.get_rotation() % 360:
                continue
            names: dict[str, FontUsage] = {}
            dupes: set[str] = set()
            for u in wanted:
                if index in u.pages:
                    key = pdfium_font_name(u.name)
                    (dupes.add(key) if key in names else names.__setitem__(key, u))
            for name in dupes:
                names.pop(name, None)
            if not names:
                continue
            scale = dpi / 72
            glyphs = _pdfium_glyphs(page, names, index, scale)
            if not glyphs:
                continue
            image = page.render(scale=scale).to_pil().convert("L")
            chars = ocr.recognise(image, lang)
            for pair in drawn:
                looked[pair] = looked.get(pair, 0) + 1
            for usage_key, items in glyphs.items():
                _mark_inkless(items, image)
                for glyph, got in read_glyphs(items, chars):
                    readings[usage_key].setdefault(glyph.code, []).append(got)
    finally:
        doc.close()
    out: dict[tuple[int, int], Recovery] = {}
    for usage in wanted:
        mapping = vote(readings[usage.key], usage.codes())
        seen = {c: tuple(t for t, _ in r) for c, r in readings[usage.key].items()}
        if mapping or seen:
            out[usage.key] = Recovery(
                mapping,
                "ocr-glyphs",
                coverage(usage, mapping),
                usage.glyphs,
                f"Tesseract ({lang}) read {len(mapping)} of {len(usage.codes())} codes",
                seen,
            )
    return out
