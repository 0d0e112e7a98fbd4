"""What a person at a terminal sees besides the results: the command's name on its
remarks, the progress bar of a check and the ticker of a repair.

All of it goes to stderr and only when stderr is a terminal, so that a pipeline
gets nothing but results (and with `--json`, nothing but JSON on stdout).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

#: The command's name: on its help, its errors and its remarks.
PROG = "textlayer"


@contextlib.contextmanager
def clear_status_line() -> Iterator[None]:
    """Take the progress bar off a terminal while a result prints, so the two never share a
    line (stdout and stderr are the same screen there); the bar is drawn again after."""
    if not sys.stderr.isatty():
        yield
        return
    from tqdm import tqdm

    with tqdm.external_write_mode(file=sys.stdout):
        yield


#: How wide a file name the progress display shows (its end: the folders are alike).
SHOWN_NAME = 40


def _tail(name: str) -> str:
    return name if len(name) <= SHOWN_NAME else "…" + name[-(SHOWN_NAME - 1):]


class Progress:
    """A progress bar of files checked on a terminal's stderr (tqdm), silent otherwise.

    It leaves nothing behind: the bar is erased when the run ends, and while
    a result prints (:func:`clear_status_line`).
    """

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.bar: Any = None
        if stream is not None and stream.isatty() and total > 1:
            from tqdm import tqdm

            self.bar = tqdm(total=total, file=stream, leave=False, unit="file",
                            ascii=not _unicode(stream), **_width(stream))

    def step(self, name: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(_tail(name), refresh=False)
            self.bar.update(1)

    def done(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class Ticker:
    """Seconds elapsed on one line of a terminal's stderr (tqdm), for work with no steps to
    count; shown once it has run two seconds (quick runs show nothing), erased when it ends."""

    def __init__(self, what: str, name: str, stream: TextIO) -> None:
        self.what = f"{PROG}: {what} {_tail(name)}"
        self.stream = stream if stream.isatty() else None
        self.bar: Any = None

    def tick(self, seconds: float) -> None:
        if self.stream is None or seconds < 2:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(file=self.stream, leave=False, bar_format="{desc}",
                            **_width(self.stream))
        self.bar.set_description_str(f"{self.what} ({seconds:.0f} s)")

    def done(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _width(stream: TextIO) -> dict[str, Any]:
    """Follow the terminal's width; a terminal that gives none (a bare pseudo-terminal) gets
    80 columns and 24 rows, where tqdm would draw nothing."""
    try:
        known = os.get_terminal_size(stream.fileno()).columns > 0
    except (OSError, ValueError, AttributeError):
        known = False
    return {"dynamic_ncols": True} if known else {"ncols": 80, "nrows": 24}


def _unicode(stream: TextIO) -> bool:
    """Whether the terminal's encoding draws the bar's block characters."""
    try:
        "█▏".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def note(message: str) -> None:
    """A remark for a person at a terminal; silent in pipelines."""
    if sys.stderr.isatty():
        print(f"{PROG}: {message}", file=sys.stderr)
