"""Source a of :mod:`.recover`: a broken font's map read from its own program's tables.

The most certain source, tried first: a Unicode ``cmap`` subtable inverted
(through CIDToGIDMap for composite fonts), ``post`` glyph names, CFF charset
names or a CID-keyed CFF's character collection, a Type1 program's built-in
encoding, read through the Adobe Glyph List; for a font without a program,
the glyph names of its encoding, which select what the viewer draws. What
the tables say needs neither the text nor its language; what they do not
say stays unmapped.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from .fontusage import FontUsage, cid_to_gid, descendant, font_name, load_truetype
from .recover import Recovery, agl, coverage, named_encoding, plain_text, usable_text


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


def _post_names_are_real(tt: Any) -> bool:
    """A post table of format 2 (or 1) carries names; format 3 names are made up by fontTools."""
    post = tt.get("post") if hasattr(tt, "get") else None
    return post is not None and float(post.formatType) in (1.0, 2.0, 2.5)


def _name_text(name: str, by_glyph: Mapping[str, str], post_ok: bool) -> tuple[str, str]:
    """Text of one glyph name and the table that gave it ('' when none)."""
    if name in by_glyph:
        return by_glyph[name], "cmap"
    if post_ok:
        text = agl(name)
        if text:
            return text, "post"
    return "", ""


def _best_source(tally: Counter[str], default: str) -> str:
    return tally.most_common(1)[0][0] if tally else default


def _from_truetype_composite(usage: FontUsage, cidfont: Any, data: bytes) -> Recovery | None:
    tt = load_truetype(data)
    order = tt.getGlyphOrder()
    by_glyph = _unicode_by_glyph(tt)
    post_ok = _post_names_are_real(tt)
    if not by_glyph and not post_ok:
        return None
    to_gid = cid_to_gid(cidfont)
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
        tt = load_truetype(data)
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
    to_gid = cid_to_gid(cidfont)
    mapping: dict[int, str] = {}
    named: dict[int, str] = {}
    for code in usage.codes():
        gid = to_gid(code)
        if gid is not None and 0 < gid < len(charset):
            text = agl(charset[gid])
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
    from ..pdf.crosscheck import collection_table

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


def _explicit_encoding(font: Any) -> dict[int, str] | None:
    """Code -> glyph name of the encoding a simple font names (/Encoding or /BaseEncoding)."""
    import pikepdf

    enc = font.get("/Encoding")
    if isinstance(enc, pikepdf.Dictionary):
        enc = enc.get("/BaseEncoding")
    return named_encoding(str(enc)[1:]) if isinstance(enc, pikepdf.Name) else None


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
    return {} if flags & 4 else named_encoding("StandardEncoding")


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
        return named_encoding("StandardEncoding")
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
        text = agl(named, plain=False) if named and unicode_table is not None else ""
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
        text = (agl(name) if name else "") or hexed.get(code, "")
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
        encoding = named_encoding("StandardEncoding") if standard else {}
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
        tt = load_truetype(desc["/FontFile2"].read_bytes())
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
            builtin = named_encoding(str(encoding)) if encoding else {}
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
            cidfont = descendant(font)
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
