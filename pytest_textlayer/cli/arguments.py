"""From the command line to what the library takes, for every command alike.

The PDFs named (files, folders searched for *.pdf, '-' for standard input),
the check settings, the per-document limits, and the HTML report `--html`
asks for: check and repair share these options, and their errors are usage
errors (exit status 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..model import STDIN_NAME, DocumentReport
from ..run.limits import MIB, Limits
from ..settings import CheckSettings, parse_allow, parse_pages, parse_ratio
from .terminal import note


def settings_from_args(args: argparse.Namespace) -> CheckSettings:
    if args.lang:
        from ..lang.langmodel import LetterPairModel, known_language

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


#: The path that stands for standard input, and the name reports give what was read from it.
STDIN = "-"


def read_stdin() -> bytes:
    """One PDF from standard input, read whole (at most the size a file may have)."""
    from ..pdf.source import MAX_INPUT_BYTES

    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("'-' reads a PDF from stdin, but stdin is a terminal; "
                         "pipe a file in (textlayer check - < file.pdf)")
    data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{STDIN_NAME}: over the {MAX_INPUT_BYTES} byte limit of one input")
    return data


#: Characters of `--json` output per write (see :func:`write_json`).
JSON_PIECE = 1 << 16


def write_json(document: dict[str, Any]) -> None:
    """`--json` output on stdout, in a few large writes.

    ``json.dump`` writes every token on its own; with stdout unbuffered
    (PYTHONUNBUFFERED, ``python -u``) that was a system call each, 29,000 for
    a 200-page report, about 20 ms after the check was done. Not one write
    either: an unbuffered stdout takes what a closed pipe or a full disk
    accepted of a write and says nothing, where the next write fails as it
    must (`... | head` ends the command by SIGPIPE's status); the closing
    newline is that next write for the last piece.
    """
    from ..report.jsontext import dumps

    text = dumps(document)
    for start in range(0, len(text), JSON_PIECE):
        sys.stdout.write(text[start:start + JSON_PIECE])
    sys.stdout.write("\n")


def write_html_report(
    args: argparse.Namespace, *, reports: Sequence[DocumentReport] = (),
    repairs: Sequence[Any] = (),
) -> None:
    from ..report.html_report import write_html

    if args.html_max_pages < 0:
        raise UsageError(f"--html-max-pages must not be negative, not {args.html_max_pages}")
    try:
        index = write_html(reports, args.html, max_pages=args.html_max_pages,
                           repairs=repairs or None)
    except OSError as exc:
        raise UsageError(f"{args.html}: cannot write the HTML report ({exc.strerror or exc})") \
            from None
    note(f"HTML report: {index}")
