"""The route to Unicode of a Type0 (composite) font: its encoding CMap, CIDFont and ToUnicode.

Owns the analysis of a font whose codes select CIDs: the codespace of its
encoding CMap (predefined or embedded) to split strings by, an Adobe
character collection, a ToUnicode, else what its embedded program offers;
and the CIDFont's advance widths and the codes that select .notdef, which
:class:`.fontinfo.FontInfo` reads on first need.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..model import FontStatus
from .cmaps import parse_cmap
from .crosscheck import CJK_ORDERINGS, program_texts
from .fallbackroutes import program_route
from .fontinfo import FontInfo
from .fontprogram import (
    cid_to_gid_map,
    font_program,
    is_stream,
    pdf_name,
    pdf_text,
    pdf_width_items,
    read,
)
from .tounicode import judge_tounicode, tounicode

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


def cid_widths(cidfont: Any) -> dict[int, float]:
    """Advance width per CID of a CIDFont, from /W (ranges bounded) and /DW."""
    import pikepdf

    out: dict[int, float] = {}
    spec = cidfont.get("/W")
    if not isinstance(spec, pikepdf.Array):
        return out
    items = pdf_width_items(spec)
    i = 0
    while i + 1 < len(items):
        if isinstance(items[i + 1], (list, pikepdf.Array)):
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


def analyse_type0(font: Any, base: str) -> FontInfo:
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
    ordering = pdf_text(info.get("/Ordering", "")) if isinstance(info, pikepdf.Dictionary) else ""
    registry = pdf_text(info.get("/Registry", "")) if isinstance(info, pikepdf.Dictionary) else ""

    enc_name = pdf_name(enc_obj)
    ranges: tuple[tuple[int, int, int], ...] = _TWO
    predefined = enc_name is not None and enc_name not in ("Identity-H", "Identity-V")
    label: str | None = enc_name
    code_to_cid: dict[int, int] | None = None  # None: codes are CIDs (Identity)
    if enc_name is not None:
        ranges = predefined_ranges(enc_name)
    elif is_stream(enc_obj):
        # An embedded encoding CMap: its codespace splits the strings; its own CIDSystemInfo
        # names the collection when the CIDFont's is missing.
        label = pdf_name(enc_obj.get("/CMapName")) or "embedded CMap"
        sysinfo = enc_obj.get("/CIDSystemInfo")
        if isinstance(sysinfo, pikepdf.Dictionary) and not ordering:
            ordering = pdf_text(sysinfo.get("/Ordering", ""))
            registry = pdf_text(sysinfo.get("/Registry", ""))
        try:
            parsed = parse_cmap(read(enc_obj))
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
    kind, data = font_program(descriptor)
    subtype = "Type0"
    cmap, tu_name, tu_problem = tounicode(font)

    fallback_missing = None if collection else "unmapped"
    if cmap is not None:
        judged = judge_tounicode(cmap, code_width)
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


def _cid_notdef(kind: str | None, cidfont: Any, code_to_cid: Mapping[int, int] | None,
                predefined: bool) -> Callable[[], Any] | None:
    """For an embedded CIDFont whose codes are CIDs (Identity or an embedded CMap): which codes
    select glyph 0, through the CIDToGIDMap (CIDFontType2) or as CID 0 (CID-keyed CFF)."""
    if kind is None or predefined:
        return None

    def account() -> Callable[[int], bool]:
        truetype = pdf_name(cidfont.get("/Subtype")) == "CIDFontType2"
        to_gid = cid_to_gid_map(cidfont.get("/CIDToGIDMap")) if truetype else None

        def selects_notdef(code: int) -> bool:
            cid = code if code_to_cid is None else code_to_cid.get(code, code)
            if to_gid is None:
                return cid == 0
            return cid >= len(to_gid) or to_gid[cid] == 0

        return selects_notdef

    return account
