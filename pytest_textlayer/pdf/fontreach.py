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

#: Keys of a walk's font cache under which the document's :func:`reaching_pages` are kept:
#: the page helper (pagescan), walking from the end, releases its own copies of the analyses
#: before their first page.
FIRST_PAGES, LAST_PAGES = "first page reaching each font", "last page reaching each font"


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


def release_after(cache: dict[Any, Any], starts: list[tuple[int, Any]], index: int) -> None:
    """:func:`release_before` for pages walked from the end: drop the analyses of fonts whose
    first page comes after `index`; `starts` (from :func:`starts_of`) is consumed."""
    while starts and starts[-1][0] > index:
        cache.pop(starts.pop()[1], None)


def starts_of(first: dict[Any, int]) -> list[tuple[int, Any]]:
    """(first page, key) of every font, for :func:`release_after`."""
    return sorted((page, key) for key, page in first.items())


#: What a page's resources reach: every font, and the fonts of those that only content the
#: page walk does not read can draw (Type3 glyph procedures, patterns, annotations).
Reached = tuple[frozenset[Any], frozenset[Any]]
_NOTHING: Reached = (frozenset(), frozenset())


class FontReach:
    """The fonts a page can draw, found through its resources at any depth (each indirect
    form, pattern, resource dictionary and Type3 font is followed once per document).

    `appearances` are the annotation appearances followed: the normal one (every state)
    is what the check's walk draws; a viewer also shows the rollover and down ones (/R,
    /D), which the repair counts (looking them up costs a check a fifth of this pass).
    """

    def __init__(self, appearances: tuple[str, ...] = ("/N",)) -> None:
        import pikepdf

        self._pikepdf = pikepdf
        self._appearances = appearances
        self._memo: dict[Any, Reached] = {}

    def page(self, page: Any) -> Reached:
        """What `page` (a page dictionary) reaches, its annotations' appearances included."""
        dictionary, stream = self._pikepdf.Dictionary, self._pikepdf.Stream
        fonts, beyond = self._resources(page.get("/Resources"), 0)
        drawn: set[Any] = set()
        annots = page.get("/Annots")
        for annot in annots if isinstance(annots, self._pikepdf.Array) else ():
            ap = annot.get("/AP") if isinstance(annot, dictionary) else None
            if ap is None or not isinstance(ap, dictionary):
                continue
            for key in self._appearances:
                entry = ap.get(key)
                states = [entry] if isinstance(entry, stream) else (
                    list(entry.values()) if isinstance(entry, dictionary) else [])
                for state in states:
                    if isinstance(state, stream):
                        drawn |= self._inner(state, "/Resources", 1)[0]
        return (fonts | drawn, beyond | drawn) if drawn else (fonts, beyond)

    def _resources(self, resources: Any, depth: int) -> Reached:
        if not isinstance(resources, self._pikepdf.Dictionary) or depth > 32:
            return _NOTHING
        if resources.is_indirect:  # pages of one producer often share one dictionary
            return self._inner(resources, None, depth)
        return self._scan(resources, depth)

    def _scan(self, resources: Any, depth: int) -> Reached:
        pikepdf = self._pikepdf
        fonts: set[Any] = set()
        beyond: set[Any] = set()
        named = resources.get("/Font")
        for font in named.values() if isinstance(named, pikepdf.Dictionary) else ():
            if isinstance(font, pikepdf.Dictionary) and font.is_indirect:
                fonts.add(font.objgen)
                if font.get("/Subtype") == pikepdf.Name.Type3:  # its glyph procedures' fonts
                    inside = self._inner(font, "/Resources", depth + 1)[0]
                    fonts |= inside
                    beyond |= inside
        for kind in ("/XObject", "/Pattern"):
            named = resources.get(kind)
            for obj in named.values() if isinstance(named, pikepdf.Dictionary) else ():
                if isinstance(obj, (pikepdf.Stream, pikepdf.Dictionary)):
                    drawn, past = self._inner(obj, "/Resources", depth + 1)
                    fonts |= drawn
                    beyond |= drawn if kind == "/Pattern" else past
        return frozenset(fonts), frozenset(beyond)

    def _inner(self, obj: Any, key: str | None, depth: int) -> Reached:
        if not obj.is_indirect:
            return self._resources(obj.get(key), depth) if key else _NOTHING
        ident = (obj.objgen, key)
        found = self._memo.get(ident)
        if found is None:
            self._memo[ident] = _NOTHING  # a cycle ends here; what it reaches is found above
            try:
                found = self._scan(obj, depth) if key is None else self._resources(
                    obj.get(key), depth)
            except BaseException:  # unread, not empty: a later page asking reads it again
                del self._memo[ident]
                raise
            self._memo[ident] = found
        return found


def last_reaching_page(qpdf: Any, indices: Sequence[int]) -> dict[Any, int]:
    """Font key -> the last of `indices` whose resources can reach the font (see
    :func:`reaching_pages`)."""
    return reaching_pages(qpdf, indices)[1]


def reaching_pages(qpdf: Any, indices: Sequence[int]) -> tuple[dict[Any, int], dict[Any, int]]:
    """Font key -> the first, and the last, of `indices` whose resources can reach the font
    (through forms, Type3 fonts, patterns and annotation appearances, deeper than any walk
    follows them).

    A page whose resources cannot be read might draw any font: every font known
    before it is kept until it, and every font known after it from it on. A
    damaged page costs the fonts around it, not the release of the document's
    other fonts. Both are empty when the pages themselves cannot be listed.
    """
    reach = FontReach()
    first: dict[Any, int] = {}
    last: dict[Any, int] = {}
    unread: list[int] = []
    wanted = set(indices)
    try:
        for index, page in enumerate(qpdf.pages):
            if index in wanted:
                try:
                    found = reach.page(page.obj)[0]
                except Exception:  # noqa: BLE001 - a damaged page: see above
                    unread.append(index)
                    continue
                for key in found:
                    first.setdefault(key, index)
                    last[key] = index
    except Exception:  # noqa: BLE001 - no page list: no font is known to be done with
        return {}, {}
    if unread:  # in page order: the first and the last of them bound every font's reach
        earliest, latest = unread[0], unread[-1]
        first = {key: min(page, earliest) for key, page in first.items()}
        last = {key: max(page, latest) for key, page in last.items()}
    return first, last
