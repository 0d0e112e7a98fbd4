"""Rung 3, reader signals: what PDFium actually emits for a page we cannot decode ourselves.

U+FFFD, raw control codes and Private Use characters in a real reader's
text, each weighed against the bad-glyph share.
"""

from __future__ import annotations

from ..model import Verdict
from ..patterns import on_first_use
from ..pdf.readers import TextSignals, text_signals
from ..settings import CheckSettings
from .decision import Decision
from .sparedglyphs import SYMBOL_AREA

#: Below this many non-space characters, reader signals are too few to judge a page.
MIN_SIGNAL_CHARS = 4


#: Any character the reader-signal rung counts against a page.
_SUSPECT = on_first_use("[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\ufffd\uffff\ufffe"
                        "\ue000-\uf8ff\U000f0000-\U0010ffff]")


def reader_signals(text: str, settings: CheckSettings) -> Decision | None:
    """U+FFFD, raw control codes and Private Use characters in a real reader's text.

    Only asked of PDFium's text (pages whose fonts we cannot decode ourselves):
    in our own text those characters come from the very maps the font rung
    already weighed glyph by glyph, and counting them again over another
    denominator condemned pages the glyph count had let stand.
    """
    if _SUSPECT().search(text) is None and "(cid:" not in text:
        return None  # nothing to count: no share can pass the limit (one C scan, no lists)
    signals: TextSignals = text_signals(text)
    if signals.chars < MIN_SIGNAL_CHARS:
        return None
    limit = settings.max_bad_glyphs
    if signals.share(signals.unmapped) > limit:
        return Decision(
            Verdict.UNDECODABLE,
            (f"readers emit {signals.unmapped} of {signals.chars} characters as unmapped codes "
             f"({signals.replacement} U+FFFD/FFFF, {signals.controls} control characters)",),
            "readers",
        )
    pua = signals.pua - len(SYMBOL_AREA.findall(text)) if signals.pua else 0
    if signals.share(pua) > limit:
        return Decision(
            Verdict.GARBLED,
            (f"{pua} of {signals.chars} characters extracted are in the Private Use Area "
             "(symbols standing alone, such as bullets, not counted)",),
            "readers",
        )
    return None
