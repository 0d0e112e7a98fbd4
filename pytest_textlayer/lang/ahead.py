"""Language judgements made ahead of their turn, in the page helper's process.

The page helper (pdf.pagescan) judges the pages whose report needs nothing
of earlier pages. A page whose language rung first asks what earlier pages
proved of its fonts (judge.fonttrust) is judged by the worker, in page
order: when the helper walked it, that happens after the two processes met,
with the helper idle. A judgement (:func:`langmodel.judge` with the
reference model) is a function of its text alone, so the helper goes on
judging such a page's words as if no earlier page had vouched for its
fonts, records what it judged, and sends it with the page's facts; the
worker takes those judgements instead of making them again. Whatever the
worker's turn then decides, each judgement it takes is the one it would
have made.

Kept apart from langmodel so that recording can begin before a page has
imported the language model (a page of sound routes never does).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

#: A judgement's arguments: the text, the expected language (or None), the fewest pairs.
Key = tuple[str, "str | None", int]

#: Judgements another process made of the page being judged, each taken once.
_given: dict[Key, Any] = {}
#: Where this process's judgements go while it judges a page ahead (None: not recording).
_recording: dict[Key, Any] | None = None


@contextlib.contextmanager
def recording() -> Iterator[dict[Key, Any]]:
    """Record every judgement made inside the block (the helper judging one page)."""
    global _recording
    made: dict[Key, Any] = {}
    _recording = made
    try:
        yield made
    finally:
        _recording = None


def made(key: Key, judgement: Any) -> None:
    """A judgement was made (or taken): recorded when a block of :func:`recording` runs."""
    if _recording is not None:
        _recording[key] = judgement


def give(judgements: Mapping[Key, Any]) -> None:
    """Judgements the helper made of the page this process is about to judge: they replace
    those of the page before, so what is held is one page's, whatever was taken."""
    _given.clear()
    _given.update(judgements)


def take(key: Key) -> Any | None:
    """The judgement given for `key`, once; None when none was given."""
    return _given.pop(key, None) if _given else None


def forget() -> None:
    """Drop what was given and not taken: the document is done (or a new one begins)."""
    _given.clear()
