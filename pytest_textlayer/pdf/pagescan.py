"""A long document's content walk shared with a second process, verdicts unchanged.

The walk is pure Python and most of a check's time on a long born-digital
document; a machine with a core to spare finishes sooner when a helper
process walks three pages of every four while this one walks the fourth
and judges them all, in order. The judging stays here, one page after
another, so what earlier pages proved about a font (FontTrust) is applied
exactly as in a one-process run: the verdicts, evidence and order are the
same either way, only the wall time differs.

The helper is forked once the first page is walked and the fonts the pages
name are analysed (it inherits the imported readers, the document's qpdf
handle, which reads from bytes in memory, and those analyses). It judges
the pages whose report needs nothing of earlier pages (judge.detached: most
pages of a born-digital document) and sends their reports down a pipe; of
the others it sends the facts, judged here in order. Fonts are analysed here
and only named by their object number in the facts it sends, so every page
judged here refers to the same font analysis. Anything the helper cannot send (a page that raised, a
font without an object number) the parent walks itself, so errors read
exactly as in a one-process run; a helper that dies hands its remaining
pages back. Memory stays bounded: the pipe holds a few pages, the helper
waits when it is full.

Only where it is safe and cheap: Linux (the helper is killed with its parent
through PR_SET_PDEATHSIG, so a killed worker leaves nothing behind), no
other thread alive (a fork would copy its locks), at least two usable cores,
and enough pages to repay the helper's start.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import signal
import sys
import threading
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any

from . import fontreach
from .content import font_info, scan_page
from .pagecontent import FontUse, PageContent
from .pagetext import LEAN_BUDGET, TEXT_BUDGET

#: Fewer pages than this are walked in one process: the helper's start (a fork, the pages
#: of memory both processes then copy on write, the fonts only it meets) costs about what
#: a dozen pages do.
MIN_PAGES = 24
#: Environment variable: `0` turns the helper off (debugging, strict CPU budgets), `1` starts
#: it whenever it is possible, busy machine or not; unset, it starts when a core is idle.
ENV = "TEXTLAYER_PAGE_HELPER"

#: What the helper's `judge` made of a page it walked (see scan_pages).
Judge = Callable[[int, PageContent], Any]


class Judged:
    """A page the helper judged as well as walked: what `judge` returned for it."""

    __slots__ = ("result",)

    def __init__(self, result: Any) -> None:
        self.result = result


PageResult = tuple[int, PageContent | Exception | Judged]

#: Of every HELPER_CYCLE pages after the first, the helper walks all but the last: this
#: process also analyses every font and judges the pages the helper cannot, so it walks
#: the fewer.
HELPER_CYCLE = 4


def helped(position: int) -> bool:
    """Is the page at `position` (after the first) walked by the helper?"""
    return position % HELPER_CYCLE != HELPER_CYCLE - 1


def helper_possible(pages: int) -> bool:
    """Is a helper process worth starting for a document of `pages` pages, here and now?"""
    setting = os.environ.get(ENV, "")
    if pages < MIN_PAGES or setting == "0":
        return False
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return False
    try:
        cores = float(len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = float(os.cpu_count() or 1)
    cores = min(cores, cpu_quota())
    return cores >= 2 and (setting == "1" or load_average() < cores)


def load_average() -> float:
    """The machine's load over the last minute (0 where it cannot be read).

    A helper runs beside its parent only while the cores are not all busy: on
    two cores busy with other work (load 4-5) it took a fifth more CPU and no
    wall time (2.96x pdftotext's wall time against 2.65x in one process); on a
    quiet machine it took 0.82-0.86 of one process's wall time. Checks run one
    after another keep their helper: a minute of them (200 pages each, with
    pdftotext between, as a benchmark runs) held the load at 1.1 on two cores,
    their own helpers included.
    """
    try:
        return os.getloadavg()[0]
    except OSError:  # pragma: no cover - no load average on this system
        return 0.0


def cpu_quota(path: str = "/sys/fs/cgroup/cpu.max") -> float:
    """The cores a cgroup v2 quota allows this process (`docker --cpus=1` gives 1.0), else inf.

    A container may see every core of its host and still be held to one:
    a helper there would only take turns with its parent.
    """
    try:
        with open(path) as fh:
            quota, period = fh.read().split()[:2]
        return float("inf") if quota == "max" else float(quota) / float(period)
    except (OSError, ValueError):
        return float("inf")


def scan_pages(
    qpdf: Any, indices: Sequence[int], cache: dict[Any, Any], helper: bool = False,
    lean: Callable[[], bool] | None = None, judge: Judge | None = None,
) -> Generator[PageResult, None, None]:
    """(index, PageContent or the exception its walk raised), in the order of `indices`.

    With `helper` and when :func:`helper_possible`, a helper process walks
    three of every four pages after the first (see :func:`helped`). It is
    forked once the first page is walked and the fonts the pages name are
    analysed (:func:`analyse_fonts`), so it inherits those analyses (and
    fontTools, when a program had to be read) instead of doing that work
    again, and it reads the document through its own copy of the
    qpdf handle: the handle reads from bytes in memory, which a fork copies,
    never from a shared file.

    `lean`, asked before each page, says whether the next pages are likely
    to need only the report's sample of their text (PageContent.text_cut);
    the helper hears the latest answer through a byte of shared memory.

    `judge`, run by the helper on each page it walks, may judge the page
    there: what it returns (not None) comes back as :class:`Judged` instead
    of the page's facts (see judge.detached).
    """
    def budget() -> int:
        return LEAN_BUDGET if lean is not None and lean() else TEXT_BUDGET

    if not indices:
        return
    first = scan_or_error(qpdf, indices[0], cache, budget())
    if not helper or isinstance(first, Exception) or not helper_possible(len(indices)):
        yield indices[0], first
        for index in indices[1:]:
            yield index, scan_or_error(qpdf, index, cache, budget())
        return
    rest = indices[1:]
    last = cache.get(fontreach.LAST_PAGES)
    analyse_fonts(qpdf, last if last is not None else fontreach.last_reaching_page(qpdf, rest),
                  cache)
    hint = mmap.mmap(-1, 1)  # shared with the helper across the fork
    started = _Helper.start(qpdf, [i for p, i in enumerate(rest) if helped(p)], cache, hint,
                            judge)
    try:
        yield indices[0], first
        for position, index in enumerate(rest):
            allowed = budget()
            hint[0] = allowed == LEAN_BUDGET
            got = started.receive(index) if helped(position) else None
            if got is None:
                yield index, scan_or_error(qpdf, index, cache, allowed)
            else:
                yield index, got if isinstance(got, Judged) else _adopt(got, qpdf, cache)
    finally:
        started.stop()
        hint.close()


def analyse_fonts(qpdf: Any, keys: Iterable[Any], cache: dict[Any, Any]) -> None:
    """Analyse the fonts the pages can draw (`keys`: see fontreach), before the fork.

    A font first met on a page the helper walks would otherwise be analysed twice, by the
    helper to walk and by this process to judge: on a document joined from many files, with
    hundreds of fonts, the helper then only added CPU (1.44 of one process's, for 1.06 of
    its wall time, on 200 pages of Debian's manuals). Analysed here, the helper inherits
    them. A font whose analysis fails is left for the walk, which reports it as it would.
    """
    for key in keys:
        if key not in cache:
            with contextlib.suppress(Exception):
                font_info(cache, key, qpdf.get_object(key))


def scan_or_error(qpdf: Any, index: int, cache: dict[Any, Any],
                  budget: int = TEXT_BUDGET) -> PageContent | Exception:
    """:func:`content.scan_page`, or the exception it raised (the caller reports it per page)."""
    try:
        return scan_page(qpdf, index, cache, budget)
    except Exception as exc:  # qpdf and the walk raise many types on hostile input
        return exc


def _adopt(content: PageContent, qpdf: Any, cache: dict[Any, Any]) -> PageContent:
    """Give the helper's page this process's font analyses (the ones the judging shares)."""
    for use in content.fonts:
        info = cache.get(use.font_key)
        use.font = info if info is not None else font_info(
            cache, use.font_key, qpdf.get_object(use.font_key))
    return content


class _Helper:
    """The forked walker of the pages given to it, and this side of its pipe."""

    def __init__(self, pid: int, conn: Any) -> None:
        self.pid = pid
        self.conn = conn

    @classmethod
    def start(cls, qpdf: Any, indices: list[int], cache: dict[Any, Any],
              hint: mmap.mmap | None = None, judge: Judge | None = None) -> _Helper:
        from multiprocessing import Pipe

        here, there = Pipe(duplex=False)
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the helper: never returns into the caller's code
            status = 1
            try:
                here.close()
                _serve(there, qpdf, indices, cache, parent, hint, judge)
                status = 0
            finally:
                os._exit(status)
        there.close()
        return cls(pid, here)

    def receive(self, index: int) -> PageContent | Judged | None:
        """The helper's page `index`, or None when this process must walk it itself."""
        if self.conn is None:
            return None
        try:
            sent_index, content = self.conn.recv()
        except Exception:  # it died (EOFError), or sent what cannot be read: carry on
            self._end()
            return None
        if sent_index != index:  # pragma: no cover - a defect: do not trust the rest
            self._end()
            return None
        return content if isinstance(content, (PageContent, Judged)) else None

    def _end(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.pid:  # done or not, it has nothing more to give: end it and reap it
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            self.pid = 0

    stop = _end


def _serve(conn: Any, qpdf: Any, indices: list[int], cache: dict[Any, Any], parent: int,
           hint: mmap.mmap | None = None, judge: Judge | None = None) -> None:
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Its copies of the analyses are released after their last page, as the parent's are.
    ends = fontreach.ends_of(cache.get(fontreach.LAST_PAGES) or {})
    for index in indices:
        fontreach.release_before(cache, ends, index)
        budget = LEAN_BUDGET if hint is not None and hint[0] else TEXT_BUDGET
        sent: PageContent | Judged | None
        try:
            content = scan_page(qpdf, index, cache, budget)
            result = judge(index, content) if judge is not None else None
            sent = Judged(result) if result is not None else _portable(content)
        except Exception:  # the parent walks it again and reports it as a one-process run would
            sent = None
        try:
            conn.send((index, sent))
        except (OSError, ValueError):  # the parent has gone or stopped listening
            return


def _portable(content: PageContent) -> PageContent | None:
    """The page's facts without the font analyses, which the parent has (None: not portable)."""
    for use in content.fonts:
        if not _has_object_number(use):
            return None
        use.font = None  # type: ignore[assignment]  # the parent puts its own back
    return content


def _has_object_number(use: FontUse) -> bool:
    key = use.font_key
    return isinstance(key, tuple) and len(key) == 2 and all(type(k) is int for k in key)


def _die_with(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (a killed worker, a timeout)."""
    import ctypes

    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != parent:
        os._exit(1)  # the request failed, or the parent died before it was made
