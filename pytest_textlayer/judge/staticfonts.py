"""Rung 2, static fonts: does each font that draws glyphs have a route to Unicode?

Weighted by the glyphs each font draws, so one broken heading font does not
condemn a page of good body text; glyphs whose route is bad but whose text
still reaches readers right are spared first (see sparedglyphs). A page
condemned here is `garbled`, `undecodable` or, when a declared map is off
by one offset, `shifted`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model import FontReport, FontStatus, Verdict
from ..settings import CheckSettings
from .decision import SAMPLE_LIMIT, Decision, needs_text
from .sparedglyphs import readable_anyway

if TYPE_CHECKING:
    from ..lang.langmodel import LetterPairModel
    from ..pdf.pagecontent import PageContent


def static(
    content: PageContent,
    fonts: tuple[FontReport, ...],
    settings: CheckSettings,
    text: str,
    model: LetterPairModel | None = None,
    spared_notes: list[str] | None = None,
) -> Decision | None:
    """Condemn the page when too many glyphs have no usable route; `spared_notes` receives
    why glyphs counted bad by their route still read right (see readable_anyway)."""
    if not content.glyphs or not content.bad_glyphs:
        return None
    share = content.bad_glyphs / content.glyphs
    if share <= settings.max_bad_glyphs:
        # Below the threshold the page stands; its font reports still name the bad font.
        return None
    needs_text(content)
    spared, notes = readable_anyway(content, settings, model)
    if spared_notes is not None:
        spared_notes.extend(notes)
    bad_glyphs = content.bad_glyphs - spared
    share = bad_glyphs / content.glyphs
    if share <= settings.max_bad_glyphs:
        return None  # the language rung decides, and its evidence keeps the notes
    bad = [f for f in fonts if f.unmapped]
    summary = (
        f"{content.bad_glyphs} of {content.glyphs} glyphs drawn "
        f"({content.bad_glyphs / content.glyphs:.0%}) have no usable route to Unicode"
    )
    evidence = (*bad_font_lines(fonts), summary, *notes)
    by_route: dict[str, int] = {}
    for f in bad:
        by_route[f.route] = by_route.get(f.route, 0) + f.unmapped
    controls = by_route.get("control", 0)
    wrong = sum(f.unmapped for f in bad if f.status is FontStatus.WRONG) - controls
    if wrong * 2 > content.bad_glyphs:
        return Decision(Verdict.GARBLED, evidence, "fonts")
    return _undecodable_or_shifted(bad, evidence, text, declared=controls * 2 > content.bad_glyphs)


def _undecodable_or_shifted(
    bad: list[FontReport], evidence: tuple[str, ...], text: str, *, declared: bool
) -> Decision:
    """A declared map that is off by one offset is `shifted`; no map at all stays `undecodable`.

    "Declared" means most bad glyphs go through a route the file gives (a
    ToUnicode or an encoding) and land on control characters: the signature
    of a map moved by a constant. Codes with no entry at all stay undecodable
    whatever an offset makes of them.

    Glyph ids that happen to form a constant offset (a severed Identity font
    built in the Macintosh glyph order) are still undecodable: the file
    declares nothing, the offset is a coincidence of the font's glyph order.
    The hint is kept in the evidence, since repair can use it.
    """
    from ..lang.textrepair import find_shift

    shift = find_shift(text)
    if shift is None:
        return Decision(Verdict.UNDECODABLE, evidence, "fonts")
    repaired = shift.text[:SAMPLE_LIMIT]
    if declared:
        return Decision(
            Verdict.SHIFTED,
            (*evidence, f"the declared map reads as language once shifted by {shift.describe()}",
             f"repaired sample: {shift.text[:60]!r}"),
            "shift", offset=shift.offset, repaired_sample=repaired,
        )
    hint = f"the codes read as text shifted by {shift.describe()}: {shift.text[:60]!r}"
    return Decision(Verdict.UNDECODABLE, (*evidence, hint), "fonts", offset=shift.offset,
                     repaired_sample=repaired)


def bad_font_lines(fonts: tuple[FontReport, ...]) -> list[str]:
    return [f"{f.describe()}; {f.unmapped} of {f.glyphs} glyphs unmapped" for f in fonts
            if f.unmapped]
