"""The `textlayer` command: a thin front over the library.

Exit statuses are part of the interface (:class:`errors.ExitCode`): 0 every
page OK, 1 some page not OK, 2 usage or unreadable input, 3 OCR needed but
Tesseract or a language pack missing. With `--json`, stdout carries nothing
but JSON; progress goes to stderr, and only when stderr is a terminal.

This module is the front: the parser, `main` and the installed `entry`. Each
command's work is its own module (`check`, `repair`, `makers` for generate,
fit and demo); `arguments` turns the options they share into the library's
settings, and `terminal` draws what a person at a terminal sees meanwhile.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import ExitCode, TextLayerError, UsageError
from ..run.limits import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_PAGES,
    DEFAULT_MAX_STREAM_BYTES,
    DEFAULT_TIMEOUT,
    MIB,
)
from ..settings import DEFAULT_MAX_BAD_GLYPHS
from .check import run_check
from .makers import run_demo, run_fit, run_generate
from .repair import run_repair
from .terminal import PROG


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
    from .. import __version__

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


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": run_check,
    "repair": run_repair,
    "generate": run_generate,
    "fit": run_fit,
    "demo": run_demo,
}


__all__ = ["build_parser", "entry", "main"]
