"""Pages the page helper judges as well as walks: those whose verdict needs no earlier page.

The helper process (pdf.pagescan) walks pages beside this one. Judging stays
here, page after page, because of what a document's pages share: what
:class:`FontTrust` learned of their fonts, the readings the shift search
tried first because they repaired recent pages, and PDFium's copy of the
document. Most pages of a born-digital document need none of it: their
fonts' routes are sound, and the rungs before the language judgement decide
them. The helper judges such a page on its own copies of the fonts and sends
the report; a page whose judging reaches for any shared state is sent as
facts and judged here, in order, exactly as in one process. Either way the
report is the one a single process writes. A page sent as facts because its
language rung asked what earlier pages proved carries the judgements of its
words, made in the helper while it still walks (see lang.ahead): judged here
after the two processes met, it would have cost them with the helper idle.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .decision import SHIFT_SEARCH
from .fonttrust import FontTrust

if TYPE_CHECKING:
    from ..lang.langmodel import LetterPairModel
    from ..model import PageReport
    from ..pdf.pagecontent import PageContent
    from ..settings import CheckSettings


class Attached(BaseException):
    """The page's judging reached for state the document's pages share: judge it in order.

    A BaseException, so that no rung's ``except Exception`` (a damaged font is a finding,
    not a failure) turns it into a different report."""


class _Unshared(FontTrust):
    """A FontTrust that knows nothing and must learn nothing: any use but the lean-walk hint
    means the page belongs to the language rung's running judgement, in order.

    Asked whether earlier pages vouch for the page's fonts, it answers as on a
    document's first page (none do) and notes the question: the rung goes on to
    judge the page's words, ahead of the page's turn (see lang.ahead), and the
    report it ends in is thrown away. The judging stops at the pool of earlier
    pages' text: what follows (a font judged on that pool, the shift search after
    a failed judgement) depends on them, or costs more than a vouched-for page
    would.
    """

    def __init__(self) -> None:
        super().__init__()
        #: Did the judging ask whether earlier pages vouch for the page's fonts?
        self.asked = False

    def vouch(self, content: PageContent) -> tuple[str, str] | None:
        self.asked = True
        return None

    def pooled(self, content: PageContent) -> dict[Any, str]:
        raise Attached

    def remember(self, content: PageContent) -> None:
        raise Attached

    def pool_reads(self, font: Any) -> None:
        raise Attached

    def credit(self, content: PageContent, outcome: str, detail: str, number: int) -> None:
        raise Attached


class _NoReader:
    """A page reader with no PDFium: only a page that surely shows no string has its text."""

    def __init__(self, content: PageContent) -> None:
        self._surely_textless = content.surely_textless

    def text(self) -> str:
        if self._surely_textless:
            return ""
        raise Attached


def judge_alone(classify_page: Callable[..., PageReport], index: int, content: PageContent,
                settings: CheckSettings, model: LetterPairModel | None,
                ) -> tuple[PageReport, bool] | None:
    """(The page's report, whether its fonts vouched for a lean next walk), or None when
    the page must be judged in the document's order (see the module's docstring).
    `classify_page` is the classifier's, which calls this module."""
    from ..lang import ahead

    before = _searches()
    trust = _Unshared()
    with ahead.recording() as judged:
        try:
            report: PageReport | None = classify_page(index + 1, content, _NoReader(content),
                                                      settings, model, trust)
        except (Attached, Exception):  # NeedsFullText too: in order, it is judged as always
            report = None
    if report is None or trust.asked or _searches() != before:
        content.ahead = judged  # what the judging in order may take instead of judging again
        return None
    return report, trust.vouched_last


def _searches() -> int:
    """Shift searches begun in this process (textrepair.searches; 0 before its import)."""
    return getattr(sys.modules.get(SHIFT_SEARCH), "searches", 0)
