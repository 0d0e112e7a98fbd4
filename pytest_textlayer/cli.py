"""The `textlayer` command: a thin front over the library.

Exit statuses are part of the interface (:class:`errors.ExitCode`): 0 every
page OK, 1 some page not OK, 2 usage or unreadable input, 3 OCR needed but
Tesseract or a language pack missing. With `--json`, stdout carries nothing
but JSON; progress goes to stderr, and only when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from .errors import ExitCode, TextLayerError, UsageError
from .model import STDIN_NAME, DocumentReport, Verdict, summarise
from .run.limits import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_PAGES,
    DEFAULT_MAX_STREAM_BYTES,
    DEFAULT_TIMEOUT,
    MIB,
    Limits,
)
from .settings import DEFAULT_MAX_BAD_GLYPHS, CheckSettings, parse_allow, parse_pages, parse_ratio

PROG = "textlayer"


class _Parser(argparse.ArgumentParser):
    """argparse that exits with our usage status (2) and a one-line message."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        raise UsageError(message)


#: The exit statuses of docs/cli.md, under every command's help.
EXIT_STATUSES = """exit status:
  0    every page is OK (blank, readable, and whatever --allow adds)
  1    some page is not OK (check); some page of OUT could not be made OK (repair)
  2    usage error, a file that cannot be read as a PDF, output that cannot be written
  3    repair needed OCR, but Tesseract or a language pack is missing
  130  interrupted; nothing half-written is left behind

the full reference: docs/cli.md in the source distribution"""

CHECK_EXAMPLES = """examples:
  textlayer check report.pdf                 one file: a verdict per bad page, with evidence
  textlayer check out/ -j 0 --json           a folder, every core, one JSON object on stdout
  textlayer check scans/ --allow absent      image-only pages are fine here
  textlayer check big/ --jsonl run.jsonl     a corpus run, one line per document as it ends
  textlayer check big/ --resume run.jsonl    go on after an interruption

"""

REPAIR_EXAMPLES = """examples:
  textlayer repair broken.pdf -o fixed.pdf            map the glyphs, OCR only what cannot be
  textlayer repair broken.pdf -o fixed.pdf --ocr never   never OCR; exit 1 if a page stays bad
  textlayer repair scan.pdf -o text.pdf --lang deu    OCR a German scan

"""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Know whether a PDF's text layer can be read, and repair it when it cannot.",
        epilog="run 'textlayer demo' to see every verdict on built-in examples\n\n"
               + EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_check(sub)
    _add_repair(sub)
    _add_generate(sub)
    _add_fit(sub)
    _add_demo(sub)
    return parser


def _add_check_settings(p: argparse.ArgumentParser) -> None:
    p.add_argument("--allow", action="append", default=[], metavar="VERDICT",
                   help="also accept pages with this verdict (repeatable)")
    p.add_argument("--lang", metavar="CODE", help="expected language (ISO 639-1, e.g. fr)")
    p.add_argument("--model", type=Path, metavar="FILE",
                   help="letter-pair model written by 'textlayer fit'")
    p.add_argument("--pages", metavar="RANGES", help="check only these pages, e.g. 1-3,7")
    p.add_argument("--max-bad-glyphs", default=str(DEFAULT_MAX_BAD_GLYPHS),
                   metavar="SHARE",
                   help="share of a page's glyphs that may be bad before the page fails "
                        f"(0.05 or 5%%; default {DEFAULT_MAX_BAD_GLYPHS}; 0 fails on a single "
                        "bad glyph)")
    p.add_argument("--password", default="", help="password of encrypted PDFs")


def _add_check(sub: Any) -> None:
    p = sub.add_parser("check", help="classify every page of PDFs (files or directories)",
                       epilog=CHECK_EXAMPLES + EXIT_STATUSES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="PDF files or directories of *.pdf; '-' reads one PDF from stdin")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="check N files in parallel (default 1; 0: one per core)")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("-v", "--verbose", action="store_true",
                       help="show every page, not only bad ones")
    shown.add_argument("-q", "--quiet", action="store_true",
                       help="print only the summary line and errors (the exit code says the rest)")
    p.add_argument("--jsonl", metavar="FILE",
                   help="append one JSON line per finished document to FILE ('-' for stdout)")
    p.add_argument("--resume", metavar="FILE",
                   help="skip files already in this JSON Lines file (same path, size and mtime) "
                        "and append the rest to it unless --jsonl names another file")
    _add_check_settings(p)
    _add_html(p)
    _add_limits(p)


def _add_html(p: argparse.ArgumentParser) -> None:
    p.add_argument("--html", metavar="DIR",
                   help="also write a self-contained HTML report (DIR/index.html): each bad page "
                        "drawn with its glyphs coloured by their route to Unicode")
    p.add_argument("--html-max-pages", type=int, default=20, metavar="N",
                   help="draw at most N bad pages in the HTML report (default 20)")


#: A repair's time limit: OCR of a long scan takes minutes (about 1.3 s a page here), not hours.
REPAIR_TIMEOUT = 1800.0


def _add_limits(p: argparse.ArgumentParser, *, repair: bool = False) -> None:
    g = p.add_argument_group("limits per document (0 turns one off)")
    timeout, stop, who = ((REPAIR_TIMEOUT, "stop the repair", "the repairing process") if repair
                          else (DEFAULT_TIMEOUT, "kill a document's worker", "one worker process"))
    g.add_argument("--timeout", type=float, default=timeout, metavar="SECONDS",
                   help=f"{stop} after this long (default {timeout:g})")
    g.add_argument("--max-memory", type=int, default=DEFAULT_MAX_MEMORY // MIB, metavar="MB",
                   help=f"address space of {who} in MiB (default {DEFAULT_MAX_MEMORY // MIB})")
    g.add_argument("--max-pages", type=int, default=DEFAULT_MAX_PAGES, metavar="N",
                   help=f"refuse documents with more pages (default {DEFAULT_MAX_PAGES})")
    g.add_argument("--max-stream-mb", type=int, default=DEFAULT_MAX_STREAM_BYTES // MIB,
                   metavar="MB",
                   help="refuse documents with a content, font or CMap stream that inflates "
                        f"past this (default {DEFAULT_MAX_STREAM_BYTES // MIB})")


def _add_repair(sub: Any) -> None:
    p = sub.add_parser("repair", help="write a copy whose text layer reads right",
                       epilog=REPAIR_EXAMPLES + EXIT_STATUSES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", metavar="IN.pdf", help="the PDF to repair ('-' reads it from stdin); "
                                                   "never written")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf",
                   help="where the repaired copy goes (written whole, by a rename)")
    p.add_argument("--ocr", choices=("auto", "never", "force"), default="auto",
                   help="OCR pages that cannot be repaired otherwise (default auto)")
    p.add_argument("--lang", metavar="CODE", help="language for OCR (ISO 639-1 or Tesseract code)")
    p.add_argument("--json", action="store_true", help="print the repair report as JSON")
    _add_html(p)
    _add_limits(p, repair=True)


def _add_generate(sub: Any) -> None:
    p = sub.add_parser("generate", help="write a fixture PDF with a known defect and its truth")
    p.add_argument("family", nargs="?", metavar="FAMILY", help="defect family (see --list)")
    p.add_argument("-o", "--output", metavar="OUT.pdf", help="where to write the PDF")
    p.add_argument("--text", help="text the page shows")
    p.add_argument("--font", metavar="FILE.ttf", help="TrueType font to use")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="family option, e.g. order=first-use or offset=3 (repeatable)")
    p.add_argument("--corpus", metavar="DIR", help="write every family in several languages")
    p.add_argument("--list", action="store_true", help="list the families")


def _add_fit(sub: Any) -> None:
    p = sub.add_parser("fit", help="fit a letter-pair model on trusted PDFs")
    p.add_argument("pdfs", nargs="+", metavar="PDF")
    p.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    p.add_argument("--margin", type=float, default=0.5, help="threshold margin in nats")


def _add_demo(sub: Any) -> None:
    p = sub.add_parser("demo", help="build the fixture corpus, show what readers extract, check it")
    p.add_argument("-o", "--output", default="demo-out", metavar="DIR")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    previous = _terminate_as_interrupt()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return int(ExitCode.USAGE)
        handler: Callable[[argparse.Namespace], int] = _HANDLERS[args.command]
        return handler(args)
    except TextLayerError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`textlayer check ... | head`): stop quietly, as a tool killed by
        # SIGPIPE does, and keep Python from complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 128 + signal.SIGPIPE
    except OSError as exc:  # the output cannot be written (a full disk, a closed stream)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{PROG}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return int(ExitCode.USAGE)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def entry() -> None:
    """The installed `textlayer` command: :func:`main`, then out without the interpreter's teardown.

    Tearing down the imported readers (qpdf's bindings, the language tables)
    costs about 10 ms a run, a thirtieth of checking 300 pages. By the time
    main returns every worker has been joined, every temporary file removed
    and every output file closed (each in its own `finally`); what is left is
    flushing stdout and stderr, done here. Calls of :func:`main` from Python
    return as usual.
    """
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left after the last write: as `main` treats it
        status = 128 + signal.SIGPIPE
    except (OSError, ValueError):  # a closed or failing stream: nothing more can be said
        status = status or int(ExitCode.USAGE)
    os._exit(status)


def _terminate_as_interrupt() -> Any:
    """SIGTERM unwinds like Ctrl-C, so temporary files are removed and workers stopped.

    Without this, SIGTERM ends Python without running `finally` blocks, and
    an interrupted repair would leave its temporary file behind.
    """
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        return signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals to the host
        return None


# check ---------------------------------------------------------------------


def settings_from_args(args: argparse.Namespace) -> CheckSettings:
    if args.lang:
        from .lang.langmodel import LetterPairModel, known_language

        model = LetterPairModel.load(args.model) if args.model else None
        if not known_language(args.lang, model):
            raise UsageError(f"--lang {args.lang}: not a language the model knows "
                             "(an ISO 639 code such as en, fr or zh-cn)")
    try:
        settings = CheckSettings(
            max_bad_glyphs=parse_ratio(args.max_bad_glyphs, "--max-bad-glyphs"),
            lang=args.lang,
            model=args.model,
            pages=parse_pages(args.pages),
        )
        return settings.allowing(parse_allow(args.allow, "--allow"))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def find_pdfs(paths: Sequence[str]) -> list[str]:
    """Files as given; directories searched (recursively, sorted) for *.pdf."""
    found: list[str] = []
    for raw in paths:
        path = Path(raw)
        try:
            folder = path.is_dir()
        except OSError:  # inside a folder that cannot be searched: the file's read says why
            folder = False
        if folder:
            found.extend(_walk_pdfs(path))
        else:
            found.append(raw)
    return found


def _walk_pdfs(root: Path) -> list[str]:
    """PDFs under `root`, sorted; a folder that cannot be read is one more path, so the run
    reports it as an error (a gate must not pass files it never read). Links to folders are
    not followed: a `self -> .` link would list every PDF again and again."""
    found: list[str] = []

    def refused(exc: OSError) -> None:
        found.append(exc.filename or str(root))

    for folder, dirs, files in os.walk(root, onerror=refused):
        dirs.sort()
        found.extend(str(Path(folder) / f) for f in sorted(files)
                     if f.lower().endswith(".pdf") and (Path(folder) / f).is_file())
    return sorted(found)


def limits_from_args(args: argparse.Namespace) -> Limits:
    def off(value: float) -> float | None:
        if value < 0:
            raise UsageError(f"limits must not be negative, not {value:g}")
        return value or None

    memory, stream = off(args.max_memory), off(args.max_stream_mb)
    pages = off(args.max_pages)
    return Limits(timeout=off(args.timeout),
                  max_memory=None if memory is None else int(memory) * MIB,
                  max_pages=None if pages is None else int(pages),
                  max_stream_bytes=None if stream is None else int(stream) * MIB)


def check_many(
    paths: Sequence[str], settings: CheckSettings, *, jobs: int = 1, password: str = "",
    progress: TextIO | None = None, limits: Limits | None = None,
    on_done: Callable[[str, DocumentReport], None] | None = None,
) -> Iterator[DocumentReport]:
    """Reports in the order of `paths`, checked `jobs` at a time in guarded workers.

    `on_done` hears of each document as soon as it finishes (in finishing
    order), so a JSON Lines file is complete up to the moment of a kill.
    """
    from .run.workers import run_guarded

    items = [_stdin_job() if p == STDIN else p for p in paths]
    bar = _Progress(len(paths), progress)
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


#: The path that stands for standard input, and the name reports give what was read from it.
STDIN = "-"


def _read_stdin() -> bytes:
    """One PDF from standard input, read whole (at most the size a file may have)."""
    from .pdf.source import MAX_INPUT_BYTES

    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("'-' reads a PDF from stdin, but stdin is a terminal; "
                         "pipe a file in (textlayer check - < file.pdf)")
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{STDIN_NAME}: over the {MAX_INPUT_BYTES} byte limit of one input")
    return data


def _stdin_job() -> tuple[bytes, str]:
    return _read_stdin(), STDIN_NAME


def _cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextlib.contextmanager
def _clear_status_line() -> Iterator[None]:
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


class _Progress:
    """A progress bar of files checked on a terminal's stderr (tqdm), silent otherwise.

    It leaves nothing behind: the bar is erased when the run ends, and while
    a result prints (:func:`_clear_status_line`).
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


class _Ticker:
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


def run_check(args: argparse.Namespace) -> int:
    from .report import jsonl

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
    done = jsonl.load(args.resume) if args.resume else {}
    earlier: dict[str, DocumentReport] = {}
    todo: list[str] = []
    for path in paths:
        key = None if path == STDIN else jsonl.FileKey.of(path)
        if key is not None and key in done:
            earlier[path] = done[key]
        else:
            todo.append(path)
    if earlier:
        _note(f"resuming: {len(earlier)} file(s) already checked, {len(todo)} to go")
    sink = jsonl.Sink(target) if target else None

    def finished(path: str, report: DocumentReport) -> None:
        if sink is not None:
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
        _write_html(args, reports=reports)
    if args.json:
        json.dump({"documents": [r.to_dict() for r in reports]}, sys.stdout, ensure_ascii=False,
                  indent=1)
        sys.stdout.write("\n")
    elif target == "-":
        print(_summary_line(reports), file=sys.stderr)
    else:
        print(_summary_line(reports))
    return int(exit_status(reports))


def _note(message: str) -> None:
    """A remark for a person at a terminal; silent in pipelines."""
    if sys.stderr.isatty():
        print(f"{PROG}: {message}", file=sys.stderr)


def exit_status(reports: Sequence[DocumentReport]) -> ExitCode:
    if any(r.error is not None for r in reports):
        return ExitCode.USAGE
    if any(not r.ok for r in reports):
        return ExitCode.BAD_PAGES
    return ExitCode.OK


def _print_report(report: DocumentReport, *, verbose: bool) -> None:
    with _clear_status_line():
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


# repair --------------------------------------------------------------------


def run_repair(args: argparse.Namespace) -> int:
    from .repairs.repairer import repair
    from .run.workers import run_isolated

    # A hostile file can make qpdf, PDFium or Tesseract loop or balloon: the repair runs in a
    # process the limits can stop, and the input is never at risk either way. The page and
    # stream limits are checked first, as check does.
    limits = limits_from_args(args)
    from .pdf.source import read_source
    from .run.limits import precheck

    with _input_file(args.input) as given:
        if Path(given).is_file():  # a missing or odd IN is the repair's own one-line error
            precheck(read_source(given, _label(args.input)), limits)
        ticker = _Ticker("repairing", _label(args.input), sys.stderr)
        try:
            report = run_isolated(repair, (given, args.output),
                                  {"ocr": args.ocr, "lang": args.lang},
                                  limits=limits, label=_label(args.input), on_tick=ticker.tick)
        finally:
            ticker.done()
    if args.input == STDIN:
        import dataclasses

        report = dataclasses.replace(report, input=STDIN_NAME)
    if args.html:
        _write_html(args, repairs=[report])
    if args.json:
        json.dump(report.to_dict(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for line in report.render_lines():
            print(line)
    return int(ExitCode.OK if report.ok else ExitCode.BAD_PAGES)


def _label(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


@contextlib.contextmanager
def _input_file(path: str) -> Iterator[str]:
    """`path`, or for '-' a private temporary copy of stdin (removed after): a repair reads
    its input by name, in a child process."""
    if path != STDIN:
        yield path
        return
    import tempfile

    data = _read_stdin()
    with tempfile.TemporaryDirectory(prefix="textlayer-stdin-") as folder:
        copy = Path(folder) / "stdin.pdf"
        copy.write_bytes(data)
        yield str(copy)


def _write_html(
    args: argparse.Namespace, *, reports: Sequence[DocumentReport] = (),
    repairs: Sequence[Any] = (),
) -> None:
    from .report.html_report import write_html

    if args.html_max_pages < 0:
        raise UsageError(f"--html-max-pages must not be negative, not {args.html_max_pages}")
    try:
        index = write_html(reports, args.html, max_pages=args.html_max_pages,
                           repairs=repairs or None)
    except OSError as exc:
        raise UsageError(f"{args.html}: cannot write the HTML report ({exc.strerror or exc})") \
            from None
    _note(f"HTML report: {index}")


# generate ------------------------------------------------------------------


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip().replace("-", "_")] = _coerce(value.strip())
    return options


def _coerce(value: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    if "," in value:
        return [v.strip() for v in value.split(",") if v.strip()]
    return value


def run_generate(args: argparse.Namespace) -> int:
    from . import generators

    if args.list:
        for name, family in generators.FAMILIES.items():
            names = ", ".join(family.options)
            print(f"{name:22} {family.description}" + (f" [options: {names}]" if names else ""))
        return int(ExitCode.OK)
    if args.corpus:
        if args.family or args.output:
            raise UsageError("--corpus writes every family; give no FAMILY or -o with it")
        truth = generators.write_corpus(Path(args.corpus))
        print(f"wrote the fixture corpus to {args.corpus} (truth: {truth})")
        return int(ExitCode.OK)
    if not args.family or not args.output:
        raise UsageError("give a FAMILY and -o OUT.pdf, or --corpus DIR (see --list)")
    options = _parse_options(args.option)
    fixture = generators.generate(args.family, args.text, font=args.font, **options)
    written = fixture.write(Path(args.output))
    print(f"wrote {written} ({args.family}) and {Path(written).with_suffix('.json')}")
    return int(ExitCode.OK)


# fit -----------------------------------------------------------------------


def run_fit(args: argparse.Namespace) -> int:
    from .judge.classifier import classify_or_raise
    from .lang.fitting import fit
    from .pdf.readers import pdfium_text_of
    from .pdf.source import read_source

    texts: list[str] = []
    for path in find_pdfs(args.pdfs):
        source = read_source(path)
        report = classify_or_raise(source.data, name=source.name)
        pages = pdfium_text_of(source.data)
        texts.extend(pages[p.number - 1] for p in report.pages if p.verdict is Verdict.READABLE)
    try:
        model = fit(texts, margin=args.margin)
    except ValueError as exc:
        raise UsageError(f"cannot fit a model: {exc}") from None
    from .atomic import atomic_path

    with atomic_path(Path(args.output)) as tmp:
        model.save(tmp)
    print(f"wrote {args.output}: {len(texts)} readable page(s), threshold {model.threshold:.3f}")
    return int(ExitCode.OK)


# demo ----------------------------------------------------------------------


def run_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo as demo

    return demo(Path(args.output), out=sys.stdout)


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": run_check,
    "repair": run_repair,
    "generate": run_generate,
    "fit": run_fit,
    "demo": run_demo,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


__all__ = ["build_parser", "check_many", "exit_status", "find_pdfs", "limits_from_args", "main"]
