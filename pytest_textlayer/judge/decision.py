"""What every rung of the classifier returns and shares.

A rung either passes a page on (None) or decides it: a `Decision` carries
the verdict, the evidence and the rung that decided, and becomes the page
report (see classifier). Rungs that need more of a page's text than a lean
walk collected say so (`needs_text`) before they read it, so the driver
walks the page again in full. Kept apart so that every rung module can
import it without importing the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..model import Verdict

if TYPE_CHECKING:
    from ..pdf.pagecontent import PageContent


#: Characters kept as a page's sample in the report.
SAMPLE_LIMIT = 400
#: The evidence of a page whose every glyph has a usable route.
ALL_ROUTES = "every glyph drawn has a usable route to Unicode"
#: Characters of a page the language rung reads: enough to judge, bounded so long pages stay cheap.
LANGUAGE_SAMPLE = 3000
#: The module of the shift search, which remembers the readings that repaired recent texts:
#: its state is the document's, shared by its pages (see classifier and detached).
SHIFT_SEARCH = "pytest_textlayer.lang.textrepair"


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    evidence: tuple[str, ...]
    decided_by: str
    score: float | None = None
    offset: int | None = None
    repaired_sample: str | None = None


class NeedsFullText(Exception):
    """A rung needs more of the page's text than a lean walk collected (PageContent.text_cut).

    Raised before the rung reads the text or changes any state, so the page
    is simply classified again from a full walk: the verdict never depends
    on whether the walk was lean.
    """


def needs_text(content: PageContent) -> None:
    if content.text_cut:
        raise NeedsFullText


def shift_found(what: str, shift: Any, score: float | None) -> Decision:
    """`shifted`: `what` (ending in "once") reads right moved by the shift the search found."""
    return Decision(
        Verdict.SHIFTED,
        (f"{what} shifted by {shift.describe()}", f"repaired sample: {shift.text[:60]!r}"),
        "shift", score=score, offset=shift.offset, repaired_sample=shift.text[:SAMPLE_LIMIT],
    )


STRAY = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd\uffff\ue000-\uf8ff\U000f0000-\U0010ffff]")


class PageReader(Protocol):
    """What a rung asks of a real reader: the page's extracted text (run on first ask)."""

    def text(self) -> str: ...
