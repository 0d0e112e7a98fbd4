"""Lay text out on pages, draw it with faces, and record the truth of each page.

Every family goes through here, so the layout (small A5 pages, greedy word
wrap, text flowing onto a new page when one is full) and the truth
bookkeeping (text shown, predicted extraction, glyph counts) are the same
for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model import Verdict
from . import pdfwriter
from .faces import Face
from .texts import Layout, wrap
from .truth import Fixture, PageTruth

if TYPE_CHECKING:
    import pikepdf


@dataclass(frozen=True)
class Block:
    """A piece of text drawn with one face at one size (a heading, a body)."""

    face: Face
    text: str
    size: float = 12.0
    render_mode: int = 0


@dataclass(frozen=True)
class Placed:
    """One laid-out line: its face, size, position and characters."""

    face: Face
    size: float
    render_mode: int
    x: float
    y: float
    line: str
    hscale: float = 100.0


def flow(parts: Sequence[Sequence[Block]], layout: Layout) -> list[list[Placed]]:
    """Each part starts a new page; its blocks follow each other, wrapping and flowing on."""
    pages: list[list[Placed]] = []
    for blocks in parts:
        page: list[Placed] = []
        top = layout.height - layout.margin
        for block in blocks:
            leading = block.size * 4 / 3
            lines = wrap(block.text, block.face.measure(block.size), layout.line_width)
            while lines and not lines[-1]:
                lines.pop()
            for line in lines:
                if top - block.size < layout.margin and page:
                    pages.append(page)
                    page, top = [], layout.height - layout.margin
                top -= leading
                page.append(
                    Placed(block.face, block.size, block.render_mode, layout.margin,
                           top + (leading - block.size), line)
                )
        pages.append(page)
    return pages


@dataclass(frozen=True)
class PageFacts:
    """What the truth of a page is built from."""

    text: str
    extracted: str
    glyphs: int
    bad_glyphs: int


def facts(page: Sequence[Placed], *, shown: Sequence[str] | None = None) -> PageFacts:
    """Truth facts of a laid-out page; *shown* overrides the visible text (OCR layers)."""
    text = "\n".join(shown if shown is not None else [p.line for p in page])
    extracted = "\n".join(p.face.extracted(p.line) for p in page)
    glyphs = sum(len(p.line) for p in page)
    bad = sum(p.face.bad_count(p.line) for p in page)
    return PageFacts(text, extracted, glyphs, bad)


def draw(
    pdf: pikepdf.Pdf,
    page: Sequence[Placed],
    layout: Layout,
    fonts: dict[int, tuple[str, Any]],
    *,
    images: Mapping[str, Any] | None = None,
    prefix: bytes = b"",
) -> None:
    """Add one page: each face's font is written once per PDF (cached in *fonts* by face id)."""
    runs: list[pdfwriter.TextRun] = []
    used: dict[str, Any] = {}
    for placed in page:
        key = id(placed.face)
        if key not in fonts:
            fonts[key] = (f"F{len(fonts) + 1}", placed.face.make(pdf))
        resource, obj = fonts[key]
        used[resource] = obj
        runs.append(
            pdfwriter.TextRun(
                resource,
                [(placed.x, placed.y, placed.face.encode(placed.line))],
                placed.size,
                placed.render_mode,
                placed.hscale,
            )
        )
    pdfwriter.add_page(
        pdf, pdfwriter.PageSpec(layout, runs, used, dict(images or {}), prefix)
    )


def text_fixture(
    family: str,
    options: Mapping[str, Any],
    parts: Sequence[Sequence[Block]],
    verdict: Verdict | Callable[[PageFacts], Verdict],
    notes: str | Callable[[PageFacts], str],
    *,
    layout: Layout | None = None,
) -> Fixture:
    """The common path: lay out, draw with the faces, save, and state the truth per page."""
    import pikepdf

    layout = layout or Layout()
    pages = flow(parts, layout)
    pdf = pikepdf.new()
    fonts: dict[int, tuple[str, Any]] = {}
    truths: list[PageTruth] = []
    for page in pages:
        draw(pdf, page, layout, fonts)
        f = facts(page)
        if not f.glyphs:
            truths.append(PageTruth("", Verdict.BLANK, "", "nothing drawn"))
            continue
        truths.append(
            PageTruth(
                text=f.text,
                verdict=verdict(f) if callable(verdict) else verdict,
                extracted=f.extracted,
                notes=notes(f) if callable(notes) else notes,
                glyphs=f.glyphs,
                bad_glyphs=f.bad_glyphs,
            )
        )
    return Fixture(family, dict(options), pdfwriter.save(pdf), tuple(truths))
