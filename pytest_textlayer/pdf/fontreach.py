"""The last page that can draw each font: after it, the font's analysis can be let go.

A long document joined from many keeps hundreds of fonts, each analysed
once and kept for the pages after (about 30 KB each: maps, the program's
account of its glyphs). Most are never drawn again once their part of the
document is over, so the check's memory grew with the pages. What a page
can draw is bounded by what its resources reach: fonts, the fonts of its
forms, patterns and Type3 fonts (their glyph procedures), and those of its
annotations' appearances, at any depth. A font past the last page whose
resources reach it is released with what earlier pages proved of it
(FontTrust); no later page can name it, so no verdict changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: Key of a walk's font cache under which the document's :func:`last_reaching_page` is kept:
#: the page helper (pagescan) releases its own copies of the analyses by it.
LAST_PAGES = "last page reaching each font"


def release_before(cache: dict[Any, Any], ends: list[tuple[int, Any]], index: int) -> list[Any]:
    """Drop from `cache` the analyses of fonts whose last page comes before `index`; `ends`
    is (last page, key) sorted last first, and is consumed. The analyses dropped are
    returned (for what else holds them)."""
    dropped = []
    while ends and ends[-1][0] < index:
        info = cache.pop(ends.pop()[1], None)
        if info is not None:
            dropped.append(info)
    return dropped


def ends_of(last: dict[Any, int]) -> list[tuple[int, Any]]:
    """(last page, key) of every font, for :func:`release_before`."""
    return sorted(((page, key) for key, page in last.items()), reverse=True)


def last_reaching_page(qpdf: Any, indices: Sequence[int]) -> dict[Any, int]:
    """Font key -> the last of `indices` whose resources can reach the font (through forms,
    Type3 fonts, patterns and annotation appearances, deeper than any walk follows them);
    empty when a page cannot be read (then no font is known to be done with)."""
    import pikepdf

    dictionary, stream = pikepdf.Dictionary, pikepdf.Stream
    type3 = pikepdf.Name.Type3
    reach: dict[Any, frozenset[Any]] = {}  # an indirect object's resources: the fonts they reach
    empty: frozenset[Any] = frozenset()

    def fonts_of(resources: Any, depth: int) -> frozenset[Any]:
        if not isinstance(resources, dictionary) or depth > 32:
            return empty
        if resources.is_indirect:  # pages of one producer often share one dictionary
            return inner(resources, None, depth)
        return scan(resources, depth)

    def scan(resources: Any, depth: int) -> frozenset[Any]:
        out: set[Any] = set()
        fonts = resources.get("/Font")
        if isinstance(fonts, dictionary):
            for font in fonts.values():
                if isinstance(font, dictionary) and font.is_indirect:
                    ident = font.objgen
                    out.add(ident)
                    if ident not in reach:
                        reach[ident] = empty  # a font reached again adds only itself
                        if font.get("/Subtype") == type3:
                            reach[ident] = fonts_of(font.get("/Resources"), depth + 1)
                    out |= reach[ident]
        for kind in ("/XObject", "/Pattern"):
            named = resources.get(kind)
            if isinstance(named, dictionary):
                for obj in named.values():
                    if isinstance(obj, (stream, dictionary)):
                        out |= inner(obj, "/Resources", depth + 1)
        return frozenset(out)

    def inner(obj: Any, key: str | None, depth: int) -> frozenset[Any]:
        if not obj.is_indirect:
            return fonts_of(obj.get(key), depth) if key else empty
        ident = (obj.objgen, key)
        found = reach.get(ident)
        if found is None:
            reach[ident] = empty  # a cycle ends here; what it reaches is collected above
            found = scan(obj, depth) if key is None else fonts_of(obj.get(key), depth)
            reach[ident] = found
        return found

    last: dict[Any, int] = {}
    wanted = set(indices)
    try:
        for index, page in enumerate(qpdf.pages):
            if index not in wanted:
                continue
            obj = page.obj
            found = set(fonts_of(obj.get("/Resources"), 0))
            annots = obj.get("/Annots")
            for annot in annots if isinstance(annots, pikepdf.Array) else ():
                ap = annot.get("/AP") if isinstance(annot, dictionary) else None
                normal = ap.get("/N") if isinstance(ap, dictionary) else None
                states = [normal] if isinstance(normal, stream) else (
                    list(normal.values()) if isinstance(normal, dictionary) else [])
                for state in states:
                    if isinstance(state, stream):
                        found |= inner(state, "/Resources", 1)
            for key in found:
                last[key] = index
    except Exception:  # noqa: BLE001 - an unreadable page: no font is known to be done with
        return {}
    return last
