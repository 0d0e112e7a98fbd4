"""What the language rung proved about a document's fonts on its earlier pages.

A font's map is the same on every page, so a later page drawn by fonts
that already read as language (or as no language) on enough glyphs may take
that outcome without being judged again. One `FontTrust` lives for one
document, across its pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .decision import LANGUAGE_SAMPLE

if TYPE_CHECKING:
    from ..pdf.pagecontent import PageContent


#: The two outcomes of the language rung that :class:`FontTrust` remembers.
READS, NO_LANGUAGE = "reads", "no language"


class FontTrust:
    """What the language rung found for the fonts of earlier pages of one document.

    The language rung judges the text a page's fonts give through their
    declared maps. A font's map is the same on every page, so once the text
    of pages a font dominates has read as language (or as no language, with
    no shift that repairs it) on enough glyphs, a later page drawn by the
    same maps takes the same outcome without judging it again. Each page
    still gets its own verdict from its own static facts and reader signals;
    only the language judgement (and the shift search after a failed one) is
    reused, and the evidence says so.

    Fonts that draw a minority of a page (bold words, a symbol font) prove
    nothing on their own; they ride along only within what judged pages
    showed: a later page may reuse the outcome when its majority is drawn by
    fonts that earned it, and each minority font draws no larger a share of
    it than on some judged page with that outcome (seen on two pages at
    least).

    A page is judged afresh when anything on it could read differently from
    the pages that earned the outcome: a font outside those bounds, fonts
    with different outcomes, any glyph without a usable route, invisible
    text (an OCR layer, whose quality varies page by page), ActualText (text
    that replaces the fonts'), or text we could not decode ourselves.
    """

    #: Glyphs a font must have drawn on pages it dominated that had the outcome...
    MIN_GLYPHS = 2 * LANGUAGE_SAMPLE
    #: ... over at least this many such pages (minority fonts: pages they were seen on).
    MIN_PAGES = 2

    def __init__(self) -> None:
        # font -> outcome -> [glyphs, pages, details (languages or reasons), last page]
        self._seen: dict[Any, dict[str, list[Any]]] = {}
        # font -> outcome -> [pages, largest share of a page's glyphs, last page]
        self._minor: dict[Any, dict[str, list[Any]]] = {}
        # font -> the latest text it drew on earlier judged pages (bounded), for pooled_font
        self._texts: dict[Any, str] = {}
        # fonts whose pooled text already read as language over a full sample
        self._pool_read: set[Any] = set()
        #: Did the latest page get its outcome from earlier pages? The next page is then
        #: walked lean (see PageContent.text_cut): most likely it is vouched for too.
        self.vouched_last = False

    #: Characters of a font's earlier text kept for pooled judgements.
    POOL_CHARS = LANGUAGE_SAMPLE

    def forget(self, font: Any) -> None:
        """Drop what was proved of a font no later page can draw."""
        for table in (self._seen, self._minor, self._texts):
            table.pop(font, None)
        self._pool_read.discard(font)

    def pooled(self, content: PageContent) -> dict[Any, str]:
        """Earlier pages' text of this page's fonts that still need a pooled judgement."""
        out: dict[Any, str] = {}
        for use in content.fonts:
            text = self._texts.get(use.font)
            if text and use.font not in self._pool_read:
                out[use.font] = text
        return out

    def remember(self, content: PageContent) -> None:
        """Add the text each font drew on a judged page to its pool (the latest kept)."""
        if not content.text_complete:
            return
        for use in content.fonts:
            if use.font in self._pool_read or not use.text.strip():
                continue
            before = self._texts.get(use.font, "")
            self._texts[use.font] = (before + "\n" + use.text)[-self.POOL_CHARS:]

    def pool_reads(self, font: Any) -> None:
        """A font whose pooled text read as language over a full sample: judged no more."""
        self._pool_read.add(font)
        self._texts.pop(font, None)

    def credit(self, content: PageContent, outcome: str, detail: str, number: int) -> None:
        """Record the fonts of a page whose judged text had this language outcome."""
        if not self._eligible(content):
            return
        coded = sum(use.coded for use in content.fonts)
        for use in content.fonts:
            if not use.coded:
                continue
            if use.coded * 2 > coded:
                entry = self._seen.setdefault(use.font, {}).setdefault(
                    outcome, [0, 0, set(), 0])
                entry[0] += use.coded
                entry[1] += 1
                if len(entry[2]) < 4:
                    entry[2].add(detail)
                entry[3] = number
            else:
                minor = self._minor.setdefault(use.font, {}).setdefault(outcome, [0, 0.0, 0])
                minor[0] += 1
                minor[1] = max(minor[1], use.coded / coded)
                minor[2] = number

    def vouch(self, content: PageContent) -> tuple[str, str] | None:
        """(outcome, evidence line) when the page's fonts earned one outcome, else None."""
        found = self._vouch(content)
        self.vouched_last = found is not None
        return found

    def _vouch(self, content: PageContent) -> tuple[str, str] | None:
        if not self._eligible(content):
            return None
        coded = sum(use.coded for use in content.fonts)
        outcomes: set[str] = set()
        details: set[str] = set()
        last = 0
        riding = 0  # glyphs of minority fonts
        for use in content.fonts:
            if not use.glyphs:
                continue
            for table in (self._seen, self._minor):
                if len(table.get(use.font, {})) > 1:
                    return None  # read both ways on some pages
            seen = self._seen.get(use.font, {})
            entry = next(iter(seen.values()), None)
            if (entry is not None and entry[0] >= self.MIN_GLYPHS
                    and entry[1] >= self.MIN_PAGES and use.coded * 2 > coded):
                outcomes |= set(seen)
                details |= entry[2]
                last = max(last, entry[3])
                continue
            minor_seen = self._minor.get(use.font, {})
            minor = next(iter(minor_seen.values()), None)
            if (minor is None or minor[0] < self.MIN_PAGES or not coded
                    or use.coded / coded > minor[1]):
                return None
            outcomes |= set(minor_seen)
            last = max(last, minor[2])
            riding += use.coded
        if len(outcomes) != 1 or not details or riding * 2 >= coded:
            return None
        outcome = outcomes.pop()
        said = "/".join(sorted(details))
        earlier = (f"drawn by the same fonts as earlier pages that did (up to page {last}), "
                   "not judged again")
        if outcome == READS:
            return outcome, f"text reads as {said}: {earlier}"
        return outcome, (f"text is mapped but reads as no language the model knows ({said}): "
                         f"{earlier}")

    @staticmethod
    def _eligible(content: PageContent) -> bool:
        return (content.text_complete and not content.bad_glyphs
                and not content.invisible_glyphs and not content.actual_text_glyphs)
