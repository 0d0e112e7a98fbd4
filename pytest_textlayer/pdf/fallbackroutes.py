"""Routes to Unicode outside the specification's that readers take anyway.

A font the specification gives no route may still give its text: its
embedded program's Unicode ``cmap`` or its ``post`` or charset glyph names
(*recoverable*, design/taxonomy.md), a symbolic TrueType's codes read as
ASCII characters, glyph names poppler reads as numbers. Owns what each of
these offers a font; the analyses (:mod:`.simplefonts`, :mod:`.cidfonts`)
decide when it counts, and :meth:`.fontinfo.FontInfo.recover` asks for a
Type0 font's program route on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..model import FontStatus
from ..patterns import on_first_use
from .encodings import name_to_unicode
from .fontprogram import Program, cid_to_gid_map, pdf_name, stream_program
from .rankcheck import MIN_WIDTH_RANK, letter_widths, width_correlation
from .tounicode import is_pua


def symbolic_cmap_text(prog: Program) -> dict[int, str]:
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
        if low < 0x100 and text and not is_pua(text):
            out.setdefault(low, text)
    return out


#: Share of the codes a symbolic TrueType's Unicode cmap names on which it must agree with the
#: codes read as ASCII before the readers' reading of the codes counts as the font's own.
MIN_CODES_AGREE = 0.9


def codes_as_text(prog: Program, recovered: Mapping[int, str],
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

def sfnt_detail(prog: Program) -> str:
    parts = []
    if not prog.cmap:
        subt = "/".join(f"({p},{e})" for p, e in prog.cmap_kinds) or "no"
        parts.append(f"{subt} cmap" if prog.cmap_kinds else "no cmap")
    if prog.post_format not in (1.0, 2.0):
        parts.append("no post" if prog.post_format is None else f"post format {prog.post_format:g}")
    return f", embedded {prog.kind} has {' and '.join(parts)}" if parts else ""


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
    prog = stream_program(kind, stream)
    cid_to_gid = cid_to_gid_map(cidfont.get("/CIDToGIDMap"))
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
            if text and not is_pua(text):
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
            f"{lead}{sfnt_detail(prog)}"
            if sfnt_detail(prog)
            else (f"{lead}, embedded {what} has no usable cmap or post names")
        )
    else:
        problem = f"{lead}, embedded {what} gives no characters"
    if pdf_name(cidfont.get("/Subtype")) == "CIDFontType0" and kind == "TrueType":
        problem += " (CIDFontType0 holds a TrueType program)"
    status = FontStatus.RECOVERABLE if recovered else FontStatus.SEVERED
    return status, route, problem, recovered


#: A glyph name poppler reads as a number: up to two letters, then decimal digits (``MT51``,
#: ``a65``, ``G3``), trailing punctuation aside; or, in a font that names glyphs in hex, two hex
#: digits with an optional letter before them (``G3F``, ``1a``).
_DECIMAL_NAME = on_first_use(r"[A-Za-z]{0,2}(\d+)[^A-Za-z0-9]*")
_HEX_NAME = on_first_use(r"[A-Za-z]?([0-9A-Fa-f]{2})[^A-Za-z0-9]*")
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
    pattern = _HEX_NAME() if hexa else _DECIMAL_NAME()
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


def _by_cid(gid_to_text: dict[int, str], cid_to_gid: list[int] | None) -> dict[int, str]:
    """Re-key a GID → text map by CID (codes equal CIDs for Identity encodings)."""
    if cid_to_gid is None:
        return dict(gid_to_text)
    return {cid: gid_to_text[gid] for cid, gid in enumerate(cid_to_gid) if gid in gid_to_text}
