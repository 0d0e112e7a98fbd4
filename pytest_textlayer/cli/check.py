"""`textlayer check`: PDFs checked in guarded workers, reported as they finish.

Reports print in the order of the paths given while a JSON Lines file hears
of each document the moment it ends; the exit status is the worst of them.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

from ..errors import ExitCode, UsageError
from ..model import STDIN_NAME, DocumentReport, summarise
from ..run.limits import Limits
from ..settings import CheckSettings
from .arguments import (
    STDIN,
    find_pdfs,
    limits_from_args,
    read_stdin,
    settings_from_args,
    write_html_report,
    write_json,
)
from .terminal import PROG, Progress, clear_status_line, note


def check_many(
    paths: Sequence[str], settings: CheckSettings, *, jobs: int = 1, password: str = "",
    progress: TextIO | None = None, limits: Limits | None = None,
    on_done: Callable[[str, DocumentReport], None] | None = None,
) -> Iterator[DocumentReport]:
    """Reports in the order of `paths`, checked `jobs` at a time in guarded workers.

    `on_done` hears of each document as soon as it finishes (in finishing
    order), so a JSON Lines file is complete up to the moment of a kill.
    """
    from ..run.workers import run_guarded

    items = [_stdin_job() if p == STDIN else p for p in paths]
    bar = Progress(len(paths), progress)
    waiting: dict[int, DocumentReport] = {}
    next_index = 0
    jobs = max(1, min(jobs, len(paths)))
    # One worker leaves the other cores idle: it may share a long document's pages with a helper.
    try:
        for outcome in run_guarded(items, settings, jobs=jobs, password=password,
                                   limits=limits, page_helper=jobs == 1):
            bar.step(outcome.report.path)
            if on_done is not None:
                on_done(paths[outcome.index], outcome.report)
            waiting[outcome.index] = outcome.report
            while next_index in waiting:
                yield waiting.pop(next_index)
                next_index += 1
    finally:  # an interrupt too: the next line printed starts on a clean line
        bar.done()


def _stdin_job() -> tuple[bytes, str]:
    return read_stdin(), STDIN_NAME


def _cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def run_check(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    limits = limits_from_args(args)
    if args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (one per core) or more, not {args.jobs}")
    jobs = args.jobs or _cores()
    target = args.jsonl or args.resume
    if args.json and target == "-":
        raise UsageError("--json and --jsonl - both write to stdout; choose one")
    if args.paths.count(STDIN) > 1:
        raise UsageError("'-' (stdin) can be read only once")
    if args.resume and STDIN in args.paths:
        raise UsageError("--resume cannot skip what is read from stdin; name files instead")
    paths = find_pdfs(args.paths)
    if not paths:
        raise UsageError(f"no PDF found in {' '.join(args.paths)}")
    earlier: dict[str, DocumentReport] = {}
    todo = paths
    sink = finished = None
    if target:  # only a run that keeps a JSON Lines record loads its module
        from ..report import jsonl

        done = jsonl.load(args.resume) if args.resume else {}
        todo = []
        for path in paths:
            key = None if path == STDIN else jsonl.FileKey.of(path)
            if key is not None and key in done:
                earlier[path] = done[key]
            else:
                todo.append(path)
        if earlier:
            note(f"resuming: {len(earlier)} file(s) already checked, {len(todo)} to go")
        sink = jsonl.Sink(target)

        def finished(path: str, report: DocumentReport) -> None:
            sink.write(jsonl.record(report, None if path == STDIN else jsonl.FileKey.of(path)))

    fresh: dict[str, DocumentReport] = {}
    quiet = args.json or target == "-"
    try:
        for path, report in zip(todo, check_many(
                todo, settings, jobs=jobs, password=args.password, progress=sys.stderr,
                limits=limits, on_done=finished), strict=True):
            fresh[path] = report
            if not quiet and not (args.quiet and report.error is None):
                _print_report(report, verbose=args.verbose)
    finally:
        if sink is not None:
            sink.close()
    reports = [earlier[p] if p in earlier else fresh[p] for p in paths]
    if args.html:
        write_html_report(args, reports=reports)
    if args.json:
        write_json({"documents": [r.to_dict() for r in reports]})
    elif target == "-":
        print(_summary_line(reports), file=sys.stderr)
    else:
        print(_summary_line(reports))
    return int(exit_status(reports))


def exit_status(reports: Sequence[DocumentReport]) -> ExitCode:
    if any(r.error is not None for r in reports):
        return ExitCode.USAGE
    if any(not r.ok for r in reports):
        return ExitCode.BAD_PAGES
    return ExitCode.OK


def _print_report(report: DocumentReport, *, verbose: bool) -> None:
    with clear_status_line():
        if report.error is not None:
            print(f"{PROG}: error: {report.path}: {report.error}", file=sys.stderr)
            return
        for line in report.render_lines(verbose=verbose):
            print(line, file=sys.stdout)


def _summary_line(reports: Sequence[DocumentReport]) -> str:
    s = summarise(reports)
    verdicts = ", ".join(f"{n} {v}" for v, n in sorted(s["verdicts"].items()))
    line = f"{s['documents']} document(s), {s['pages']} page(s)"
    if verdicts:
        line += f": {verdicts}"
    if s["errors"]:
        line += f"; {s['errors']} could not be read"
    return line
