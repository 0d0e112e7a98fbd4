"""Classify documents in worker processes that can be killed.

Python cannot interrupt a C library from inside: a qpdf or PDFium call that
loops, or inflates a bomb, holds the interpreter until it returns. So each
document runs in a worker process with an address-space cap, and the parent
watches the clock: a worker past its document's deadline is killed and
replaced, a worker that dies (a reader crashed) is replaced, and either way
the document gets a one-line error while the others carry on.

Workers are forked from the parent, which has imported the readers but
opened no document, so a replacement costs milliseconds.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, Union

from ..errors import InputError
from ..model import DocumentReport
from ..pdf.streamguard import StreamTooLarge, bounded
from ..settings import CheckSettings
from .limits import MIB, Limits, stream_refusal, vet_opened

#: What a job names: a path, or (bytes or path, display name).
JobInput = Union[str, "os.PathLike[str]", tuple[bytes | str, str]]

T = TypeVar("T")

#: Outcome kinds. ``report`` and ``input`` are the normal ends (a verdict per
#: page, or a one-line reason the file cannot be read); the others are the
#: limits at work, or a defect of ours.
REPORT, INPUT, TIMEOUT, MEMORY, CRASHED, INTERNAL = (
    "report", "input", "timeout", "memory", "crashed", "internal",
)


@dataclass(frozen=True)
class Outcome:
    """How one document ended, in which worker, at what cost."""

    index: int
    report: DocumentReport
    kind: str
    seconds: float
    #: Peak resident memory (bytes) of the worker that ran it, when known.
    peak_rss: int = 0
    #: The traceback, for ``internal`` outcomes only.
    detail: str = ""


def check_one(pdf: JobInput, settings: CheckSettings, password: str, limits: Limits,
              page_helper: bool = False) -> Outcome:
    """Classify one document in this process: limits first, every error one line."""
    from ..judge.classifier import classify_or_raise
    from ..pdf.source import read_source

    start = time.monotonic()
    label = pdf[1] if isinstance(pdf, tuple) else os.fspath(pdf)
    detail = ""
    try:
        source = read_source(pdf[0], pdf[1]) if isinstance(pdf, tuple) else read_source(pdf)
        label = source.name
        # Streams are measured as the walk reads them, not all before the first page.
        vet = functools.partial(vet_opened, source=source, limits=limits, password=password,
                                streams=False)
        with bounded(limits.max_stream_bytes):
            report = classify_or_raise(source, settings=settings, password=password,
                                       page_helper=page_helper,
                                       vet=vet if limits.bounded else None)
        kind = REPORT
    except InputError as exc:
        report, kind = DocumentReport(path=exc.path, error=exc.problem), INPUT
    except StreamTooLarge as exc:
        refused = stream_refusal(label, limits, exc.objgen, exc.how)
        report, kind = DocumentReport(path=refused.path, error=refused.problem), INPUT
    except MemoryError:
        report = DocumentReport(path=label, error=_over_memory(limits))
        kind = MEMORY
    except RecursionError:
        report = DocumentReport(path=label, error="nested too deeply to read")
        kind, detail = INTERNAL, traceback.format_exc()
    except Exception as exc:  # a defect of ours: still one line for the user, traceback kept
        message = " ".join(str(exc).split())[:200]
        report = DocumentReport(path=label,
                                error=f"internal error: {type(exc).__name__}: {message}")
        kind, detail = INTERNAL, traceback.format_exc()
    return Outcome(0, report, kind, time.monotonic() - start, _peak_rss(), detail)


def _peak_rss() -> int:
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def _cap_memory(limit: int | None) -> None:
    if limit is None:
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX, or below current
        pass


def _quiet() -> None:
    """Keep the readers' complaints about damaged files off the user's stderr.

    qpdf, PDFium and pikepdf warn on stderr and through `warnings` about
    every repair they make to a broken file; the report already says what
    matters, and `--json` runs promise a clean stream. Set
    TEXTLAYER_WORKER_STDERR=1 to see them when debugging.
    """
    if os.environ.get("TEXTLAYER_WORKER_STDERR"):
        return
    import logging
    import warnings

    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
    except OSError:  # pragma: no cover
        pass


#: Allocations between two collections of the youngest generation in a worker (Python's
#: default is 700).
YOUNG_COLLECTION = 20_000


def _collect_less() -> None:
    """Collect cyclic garbage less often in a worker.

    A check allocates millions of short-lived tuples, strings and lists and
    almost no cycles, so Python's default collected the young generation
    hundreds of times a document for nothing: 3-5 % of the CPU of a check of
    a long document. A worker is our own process: the setting never reaches a
    program that calls the library. Older generations keep their thresholds.
    """
    import gc

    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])


def _serve(conn: Connection, settings: CheckSettings, password: str, limits: Limits,
           page_helper: bool = False) -> None:
    """A worker: documents in, outcomes out, until told to stop or it must be replaced."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    _quiet()
    _cap_memory(limits.max_memory)
    _collect_less()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        index, pdf = job
        outcome = check_one(pdf, settings, password, limits, page_helper)
        conn.send(Outcome(index, outcome.report, outcome.kind, outcome.seconds,
                          outcome.peak_rss, outcome.detail))
        if outcome.kind == MEMORY:
            return  # a failed allocation may leave a library half-built: start afresh


def _context() -> Any:
    """``fork`` where there is one: no re-import of the caller's main module, instant start.

    The parent only orchestrates (it opens no document), so a forked worker
    inherits the imported readers and nothing half-done. qpdf's library
    (pikepdf) is loaded here, before any fork; PDFium's is loaded by a worker
    only when one of its pages needs a real reader (see _PRELOAD).

    A parent running other threads (a pytest-xdist worker talks to its
    controller from one) is not forked: a lock another thread held at the
    fork would stay locked in the child forever. Its workers come from a
    fork server, a clean process that imported the readers once.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        _preload()
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(_PRELOAD))
        return ctx
    return multiprocessing.get_context("spawn")  # pragma: no cover - Windows


#: Imported before workers start. The classifier modules import the rest lazily: PDFium only
#: for pages that need a real reader, fontTools only when a font program must be read.
_PRELOAD = ("pikepdf", "pytest_textlayer.judge.classifier", "pytest_textlayer.pdf.content",
            "pytest_textlayer.pdf.readers")


def _preload() -> None:
    """Import the readers with the cyclic collector held off.

    Imports make tens of thousands of objects that live as long as the
    process and are never garbage; the collector would walk them again and
    again while they come in (about 2 ms of a 0.1 s check). Once imported
    they are handed to the oldest generation in one step (freeze, then
    unfreeze): nothing is exempt from collection afterwards, in this process
    or in the workers forked from it. A host that froze objects of its own
    (the plugin runs inside pytest) is left as it was: unfreezing would
    thaw them too.
    """
    import contextlib
    import gc
    import importlib

    collecting = gc.isenabled()
    gc.disable()
    try:
        for name in _PRELOAD:
            with contextlib.suppress(ImportError):  # a missing one is reported when a file needs it
                importlib.import_module(name)
    finally:
        if not gc.get_freeze_count():
            gc.freeze()
            gc.unfreeze()
        if collecting:
            gc.enable()


class _Worker:
    def __init__(self, ctx: Any, settings: CheckSettings, password: str, limits: Limits,
                 page_helper: bool = False) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve,
                                args=(child, settings, password, limits, page_helper),
                                daemon=True, name="textlayer-worker")
        self.proc.start()
        child.close()
        self.job: tuple[int, JobInput] | None = None
        self.started = 0.0

    def give(self, job: tuple[int, JobInput]) -> None:
        self.job = job
        self.started = time.monotonic()
        self.conn.send(job)

    def hwm(self) -> int:
        """Peak resident memory of the live worker, from /proc where there is one."""
        try:
            with open(f"/proc/{self.proc.pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return 0

    def stop(self, *, kill: bool = False) -> None:
        if not kill and self.proc.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                kill = True
            self.proc.join(timeout=2)
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(timeout=5)
        self.conn.close()


class Guard:
    """One guarded worker reused for documents checked one at a time (the plugin's items).

    What :func:`run_guarded` does for a batch, for callers that learn of
    their documents one by one: the same limits, the same one-line outcomes.
    A worker that was killed or ran out of memory is replaced at the next
    check. Use it as a context manager, or call :meth:`close`. `page_helper`:
    see :func:`run_guarded`.
    """

    def __init__(self, settings: CheckSettings, *, password: str = "",
                 limits: Limits | None = None, page_helper: bool = False) -> None:
        self.settings = settings
        self.password = password
        self.limits = limits or Limits()
        self.page_helper = page_helper
        self._ctx: Any = None
        self._worker: _Worker | None = None

    def check(self, pdf: JobInput) -> Outcome:
        if self._worker is None:
            if self._ctx is None:
                self._ctx = _context()
            self._worker = _Worker(self._ctx, self.settings, self.password, self.limits,
                                   self.page_helper)
        w = self._worker
        w.give((0, pdf))
        outcome = None
        while outcome is None:
            ready = wait([w.conn, w.proc.sentinel],
                         timeout=_next_deadline([w], self.limits.timeout))
            outcome = _collect(w, ready, time.monotonic(), self.limits)
        if outcome.kind in (TIMEOUT, MEMORY, CRASHED):
            w.stop(kill=True)
            self._worker = None
        return outcome

    def close(self) -> None:
        if self._worker is not None:
            self._worker.stop(kill=self._worker.job is not None)
            self._worker = None

    def __enter__(self) -> Guard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_guarded(
    items: Iterable[JobInput], settings: CheckSettings, *, jobs: int = 1, password: str = "",
    limits: Limits | None = None, page_helper: bool = False,
) -> Iterator[Outcome]:
    """Outcomes in the order documents finish; ``Outcome.index`` says which one.

    Closing the iterator early (or an interrupt in the caller) kills the
    workers: nothing is left running. `page_helper` lets each worker walk a
    long document's pages with a helper process (:mod:`.pagescan`): for
    one worker on a machine with a core to spare.
    """
    limits = limits or Limits()
    source = iter(enumerate(items))  # consumed lazily: a fuzz run may generate millions
    first = next(source, None)
    if first is None:
        return
    pending: deque[tuple[int, JobInput]] = deque([first])
    ctx = _context()
    def worker() -> _Worker:
        return _Worker(ctx, settings, password, limits, page_helper)

    workers = [worker() for _ in range(max(1, jobs))]
    try:
        while True:
            for w in workers:
                if w.job is None:
                    job = pending.popleft() if pending else next(source, None)
                    if job is not None:
                        w.give(job)
            busy = [w for w in workers if w.job is not None]
            if not busy:
                return
            ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy],
                         timeout=_next_deadline(busy, limits.timeout))
            now = time.monotonic()
            for w in busy:
                outcome = _collect(w, ready, now, limits)
                if outcome is None:
                    continue
                yield outcome
                if outcome.kind in (TIMEOUT, MEMORY, CRASHED):
                    w.stop(kill=True)
                    workers[workers.index(w)] = worker()
    finally:
        for w in workers:
            w.stop(kill=w.job is not None)


def run_isolated(
    target: Callable[..., T], args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None, *, limits: Limits, label: str,
    on_tick: Callable[[float], None] | None = None,
) -> T:
    """``target(*args, **kwargs)`` in a child process under the time and memory limits.

    For work that is one long call rather than a stream of documents (a
    repair). Returns its result or raises its exception; past the time limit,
    out of memory, or when a library crashes the child, raises an
    InputError naming `label` in one line. The child's temporary files go to
    a folder of its own, removed whatever happened; on a timeout or an
    interrupt the child gets SIGTERM first, so its own clean-up runs.
    `on_tick`, when given, hears the seconds elapsed about once a second
    (the command line shows them: OCR of a long scan takes minutes).
    """
    import shutil
    import tempfile

    ctx = _context()
    receiver, sender = ctx.Pipe(duplex=False)
    scratch = tempfile.mkdtemp(prefix="textlayer-job-")
    # Not a daemon: the work may start process pools of its own (OCRmyPDF), which daemons may
    # not; the `finally` below ends the child whatever happens.
    proc = ctx.Process(target=_isolated_main, name="textlayer-job", daemon=False,
                       args=(sender, target, args, kwargs or {}, limits.max_memory, scratch))
    stops = {signal.SIGINT, signal.SIGTERM}
    try:
        # Held while the child is made: it inherits the mask and takes a stop only once its
        # own handlers are in place, so an early Ctrl-C never prints a child's traceback.
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        try:
            proc.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        sender.close()
        start = time.monotonic()
        while True:
            elapsed = time.monotonic() - start
            left = None if limits.timeout is None else max(0.0, limits.timeout - elapsed)
            step = left if on_tick is None else min(1.0, 1.0 if left is None else left)
            ready = wait([receiver, proc.sentinel], timeout=step)
            if ready or (left is not None and step is not None and left <= step):
                break
            if on_tick is not None:
                on_tick(time.monotonic() - start)
        if not ready:
            raise InputError(label, f"took longer than the limit of {limits.timeout:g} s"
                                    f"{limits.flag('timeout')}")
        try:
            kind, payload = receiver.recv()
        except (EOFError, OSError):
            proc.join(timeout=5)
            raise InputError(label, "a PDF reader crashed on it "
                                    f"({_signal_name(proc.exitcode)})") from None
        proc.join(timeout=10)  # it exits by itself once the answer is sent
        if kind == "ok":
            result: T = payload
            return result
        if isinstance(payload, MemoryError):
            cap = f" of {limits.max_memory // MIB} MiB" if limits.max_memory else ""
            raise InputError(label, f"needs more memory than the limit{cap}"
                                    f"{limits.flag('max_memory')}")
        raise payload
    finally:
        _end(proc)
        receiver.close()
        shutil.rmtree(scratch, ignore_errors=True)


def _end(proc: Any) -> None:
    """Stop a child politely (SIGTERM runs its clean-up), then for good."""
    if proc.pid is None:
        return
    if proc.is_alive():
        proc.terminate()
        proc.join(timeout=10)
    if proc.is_alive():
        proc.kill()
    proc.join(timeout=5)


def _isolated_main(conn: Connection, target: Callable[..., Any], args: tuple[Any, ...],
                   kwargs: dict[str, Any], max_memory: int | None, scratch: str) -> None:
    import pickle
    import tempfile

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    signal.signal(signal.SIGTERM, interrupt)  # ...and stops us with SIGTERM: clean-up runs
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
        os.environ["TMPDIR"] = scratch  # helper programs (OCRmyPDF, Tesseract) too
        tempfile.tempdir = scratch
        _cap_memory(max_memory)
        message: tuple[str, Any] = ("ok", target(*args, **kwargs))
    except KeyboardInterrupt:
        return
    except BaseException as exc:  # noqa: BLE001 - sent to the parent, which raises it
        message = ("error", exc)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the work is done: nothing left to clean
    try:
        conn.send(message)
    except (pickle.PicklingError, TypeError, AttributeError):
        error = RuntimeError(f"internal error: {type(message[1]).__name__}: {message[1]}")
        conn.send(("error", error))


def _next_deadline(busy: list[_Worker], timeout: float | None) -> float | None:
    if timeout is None:
        return None
    first = min(w.started for w in busy) + timeout
    return max(0.0, first - time.monotonic()) + 0.01


def _collect(w: _Worker, ready: list[Any], now: float, limits: Limits) -> Outcome | None:
    assert w.job is not None
    index, pdf = w.job
    label = pdf[1] if isinstance(pdf, tuple) else os.fspath(pdf)
    elapsed = now - w.started
    if w.conn in ready or w.proc.sentinel in ready:
        try:
            if w.conn.poll():
                outcome: Outcome = w.conn.recv()
                w.job = None
                return outcome
        except (EOFError, OSError):
            pass
        w.proc.join(timeout=1)
        code = w.proc.exitcode
        w.job = None
        how = _signal_name(code)
        if limits.max_memory and code == -signal.SIGABRT:
            # Under an address-space cap, C++ readers (qpdf, PDFium) abort on a failed
            # allocation: the limit, not the file, stopped them.
            report = DocumentReport(path=label,
                                    error=f"{_over_memory(limits)} (a PDF reader aborted, {how})")
            return Outcome(index, report, MEMORY, elapsed)
        report = DocumentReport(path=label, error=f"a PDF reader crashed on it ({how})")
        return Outcome(index, report, CRASHED, elapsed)
    if limits.timeout is not None and elapsed >= limits.timeout:
        peak = w.hwm()
        w.proc.kill()
        w.job = None
        seconds = f"{limits.timeout:g}"
        return Outcome(index, DocumentReport(
            path=label, error=f"took longer than the limit of {seconds} s{limits.flag('timeout')}"),
            TIMEOUT, elapsed, peak)
    return None


def _over_memory(limits: Limits) -> str:
    """The one line of a document stopped by the memory limit."""
    cap = f" of {limits.max_memory // MIB} MiB" if limits.max_memory else ""
    return f"needs more memory than the limit{cap}{limits.flag('max_memory')}"


def _signal_name(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


__all__ = ["CRASHED", "INPUT", "INTERNAL", "MEMORY", "REPORT", "TIMEOUT", "Guard", "JobInput",
           "Outcome", "check_one", "run_guarded", "run_isolated"]
