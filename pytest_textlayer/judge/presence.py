"""Rung 1, presence: is anything drawn that could carry text?

A page with no glyphs and no text a reader extracts is `absent` when raster
images cover enough of it (a scan, only OCR can read it), `blank` otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import Verdict
from .decision import Decision, PageReader

if TYPE_CHECKING:
    from ..pdf.pagecontent import PageContent


#: Share of the page area raster images must cover before a page without text is `absent`.
MIN_IMAGE_COVERAGE = 0.02


def presence(content: PageContent, reader: PageReader) -> Decision | None:
    if content.glyphs > 0 or reader.text().strip():
        return None
    if content.image_coverage >= MIN_IMAGE_COVERAGE:
        share = f"{content.image_coverage:.0%}"
        return Decision(
            Verdict.ABSENT,
            (f"no text is drawn; raster images cover {share} of the page: a scan or a "
             "picture of text, only OCR can read it",),
            "presence",
        )
    what = "no text and no raster image of meaningful size"
    if content.images:
        what += f" ({content.images} small image(s) only)"
    return Decision(Verdict.BLANK, (what,), "presence")
