"""A long document's pages walked and judged by two processes, verdicts unchanged.

The walk is pure Python and most of a check's time on a long born-digital
document; a machine with a core to spare finishes sooner when a helper
process takes pages from the end of the document while this one takes them
from the start, until the two meet. Which page is whose is decided as they
go (:class:`_Claims`), so neither waits for the other whatever the pages
cost, and each analyses the fonts of its own part: a document joined from
many rarely shares them across its halves. Everything read before the fork
(the pass that finds each font's first and last page) is read once, in
page order, for both: in a damaged file qpdf may rebuild its table of
objects when an entry proves wrong, and what a later read then finds can
depend on what was read before.

The helper judges the pages whose report needs nothing of earlier pages
(judge.detached: most pages of a born-digital document) and sends their
reports; of the others it sends the facts, judged here in page order, so
what earlier pages proved about a font (FontTrust) is applied exactly as in
a one-process run: the verdicts, evidence and order are the same either
way, only the wall time differs. Fonts are named by their object number in
the facts it sends, and judged here with this process's analyses. Anything
the helper cannot send (a page that raised, a font without an object
number) this process walks itself, so errors read exactly as in a
one-process run; a helper that dies hands its remaining pages back. What
the helper sends is read between this process's pages and kept until its
turn: a report is about a kilobyte, a page's facts a few. Facts get this
process's font analyses as they arrive, while the helper still walks.

Only where it is safe and cheap: Linux (the helper is killed with its parent
through PR_SET_PDEATHSIG, so a killed worker leaves nothing behind), no
other thread alive (a fork would copy its locks), at least two usable cores,
and enough pages to repay the helper's start.
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
import signal
import struct
import sys
import threading
from collections.abc import Callable, Generator, Sequence
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

#: The helper's judging of a page it walked (see scan_pages): what to send instead of the
#: page's facts, and whether the page next to it may be walked lean; None to send the facts.
Judge = Callable[[int, PageContent], "tuple[Any, bool] | None"]


class Judged:
    """A page the helper judged as well as walked: what its `judge` returned for it."""

    __slots__ = ("lean", "result")

    def __init__(self, result: Any, lean: bool) -> None:
        self.result = result
        self.lean = lean


PageResult = tuple[int, PageContent | Exception | Judged]
#: Bytes the pipe from the helper may hold (Linux's unprivileged limit), so that the helper
#: rarely waits for this process to finish a page before it reads.
PIPE_BYTES = 1 << 20


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
    """(index, PageContent, the exception its walk raised, or :class:`Judged`), in order.

    With `helper` and when :func:`helper_possible`, a helper process is
    forked before the first page is walked (that page's fonts and first
    imports then cost the two processes at once, not one after the other);
    it takes pages from the end of `indices` while this process takes them
    from the start (see the module's docstring). It reads the document through its own copy of the
    qpdf handle: qpdf reads a file with positioned reads (``pread``), so the
    two share its descriptor but no file position, and bytes in memory are
    copied by the fork. `judge`, run by the helper on each page it
    walks, may judge the page there: what it returns (not None) comes back
    as :class:`Judged` instead of the page's facts (see judge.detached).

    `lean`, asked before each page this process walks, says whether it is
    likely to need only the report's sample of its text (PageContent.text_cut).
    """
    def budget() -> int:
        return LEAN_BUDGET if lean is not None and lean() else TEXT_BUDGET

    if not indices:
        return
    rest = list(indices[1:])
    shared = (_share(qpdf, rest, cache, judge)
              if helper and helper_possible(len(indices)) else None)
    first = scan_or_error(qpdf, indices[0], cache, budget())
    if shared is None:
        yield indices[0], first
        for index in rest:
            yield index, scan_or_error(qpdf, index, cache, budget())
        return
    claims, started = shared
    try:
        yield indices[0], first
        while (position := claims.take_first()) is not None:
            started.collect()
            started.adopt_facts(lambda content: _adopt(content, qpdf, cache))
            yield rest[position], scan_or_error(qpdf, rest[position], cache, budget())
        for position in range(claims.met(), len(rest)):
            index = rest[position]
            got = started.receive(position)
            if got is None:
                yield index, scan_or_error(qpdf, index, cache, budget())
            else:
                yield index, got if isinstance(got, Judged) else _adopt(got, qpdf, cache)
    finally:
        started.stop()
        claims.close()


def _share(qpdf: Any, rest: list[int], cache: dict[Any, Any], judge: Judge | None,
           ) -> tuple[_Claims, _Helper] | None:
    """The claims and the started helper, or None when the system refuses either (no shared
    semaphores in a container without /dev/shm, no process or pipe left): one process then."""
    try:
        claims = _Claims(len(rest))
    except (OSError, ImportError):
        return None
    try:
        return claims, _Helper.start(qpdf, rest, cache, claims, judge)
    except OSError:
        claims.close()
        return None


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


class _Claims:
    """Which pages each process takes: this one from the start, the helper from the end.

    Two positions in memory both processes share (a fork keeps the mapping),
    read and moved under one lock: every position is taken exactly once, and
    the two parts meet wherever the work happens to balance.
    """

    def __init__(self, count: int) -> None:
        from multiprocessing import get_context

        self._lock = get_context("fork").Lock()
        self._bounds = mmap.mmap(-1, 8)
        self._set(0, count)

    def _get(self) -> tuple[int, int]:
        front, back = struct.unpack("=II", self._bounds[:8])
        return front, back

    def _set(self, front: int, back: int) -> None:
        self._bounds[:8] = struct.pack("=II", front, back)

    def take_first(self) -> int | None:
        """The first position nobody has taken (this process's side), or None if none is left."""
        with self._lock:
            front, back = self._get()
            if front >= back:
                return None
            self._set(front + 1, back)
            return front

    def take_last(self) -> int | None:
        """The last position nobody has taken (the helper's side), or None if none is left."""
        with self._lock:
            front, back = self._get()
            if front >= back:
                return None
            self._set(front, back - 1)
            return back - 1

    def met(self) -> int:
        """The first position the helper took (once this side has taken its last)."""
        with self._lock:
            return self._get()[0]

    def close(self) -> None:
        self._bounds.close()


class _Helper:
    """The forked walker of the pages it takes from the end, and this side of its pipe."""

    def __init__(self, pid: int, conn: Any) -> None:
        self.pid = pid
        self.conn = conn
        #: What it sent, by position, until this process's turn comes to them.
        self.sent: dict[int, Any] = {}
        #: Positions of the pages it sent as facts whose fonts this process has not analysed.
        self.unadopted: list[int] = []

    @classmethod
    def start(cls, qpdf: Any, indices: list[int], cache: dict[Any, Any], claims: _Claims,
              judge: Judge | None = None) -> _Helper:
        from multiprocessing import Pipe

        here, there = Pipe(duplex=False)
        with contextlib.suppress(AttributeError, OSError):  # a smaller pipe only waits more
            fcntl.fcntl(there.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the helper: never returns into the caller's code
            status = 1
            try:
                here.close()
                _serve(there, qpdf, indices, cache, claims, parent, judge)
                status = 0
            finally:
                os._exit(status)
        there.close()
        return cls(pid, here)

    def collect(self) -> None:
        """Read what the helper has sent so far, without waiting for more."""
        try:
            while self.conn is not None and self.conn.poll():
                self._read()
        except Exception:  # it died (EOFError), or sent what cannot be read: carry on
            self._end()

    def receive(self, position: int) -> PageContent | Judged | None:
        """What the helper made of the page at `position`, or None when this process must
        walk it itself (it could not, or it died before it came to it)."""
        try:
            while position not in self.sent and self.conn is not None:
                self._read()
        except Exception:  # it died (EOFError), or sent what cannot be read: carry on
            self._end()
        got = self.sent.pop(position, None)
        return got if isinstance(got, (PageContent, Judged)) else None

    def adopt_facts(self, adopt: Callable[[PageContent], PageContent]) -> None:
        """Give the pages sent as facts so far this process's font analyses, while the helper
        still walks: after the two meet, this process would make them alone."""
        for position in self.unadopted:
            got = self.sent.get(position)
            if isinstance(got, PageContent):
                adopt(got)
        self.unadopted.clear()

    def _read(self) -> None:
        position, got = self.conn.recv()
        self.sent[position] = got
        if isinstance(got, PageContent):
            self.unadopted.append(position)

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


def _serve(conn: Any, qpdf: Any, indices: list[int], cache: dict[Any, Any], claims: _Claims,
           parent: int, judge: Judge | None = None) -> None:
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Walking towards the start, its analyses are released before their first page.
    starts = fontreach.starts_of(cache.get(fontreach.FIRST_PAGES) or {})
    lean = False
    while (position := claims.take_last()) is not None:
        index = indices[position]
        fontreach.release_after(cache, starts, index)
        sent, lean = helper_page(qpdf, index, cache, lean, judge)
        try:
            conn.send((position, sent))
        except (OSError, ValueError):  # the parent has gone or stopped listening
            return


def helper_page(qpdf: Any, index: int, cache: dict[Any, Any], lean: bool, judge: Judge | None,
                ) -> tuple[PageContent | Judged | None, bool]:
    """What the helper sends for one page (its report, its facts, or None: the parent walks
    it), and whether the next page it takes may be walked lean."""
    try:
        content = scan_page(qpdf, index, cache, LEAN_BUDGET if lean else TEXT_BUDGET)
        judged = judge(index, content) if judge is not None else None
        if judged is None and content.text_cut:
            # The parent would walk it again in full once the two have met, with this
            # process idle: walk it here, where the claims balance the cost.
            content = scan_page(qpdf, index, cache, TEXT_BUDGET)
            judged = judge(index, content) if judge is not None else None
        if judged is not None:
            return Judged(*judged), judged[1]
        return _portable(content), False
    except Exception:  # the parent walks it again and reports it as a one-process run would
        return None, False


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
