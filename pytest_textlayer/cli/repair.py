"""`textlayer repair`: one PDF repaired in a process the limits can stop.

The input is never written: the repair writes its copy whole, by a rename,
and stdin ('-') is first copied to a private temporary file.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from ..errors import ExitCode
from ..model import STDIN_NAME
from .arguments import STDIN, limits_from_args, read_stdin, write_html_report, write_json
from .terminal import Ticker


def run_repair(args: argparse.Namespace) -> int:
    from ..repairs.repairer import repair
    from ..run.workers import run_isolated

    # A hostile file can make qpdf, PDFium or Tesseract loop or balloon: the repair runs in a
    # process the limits can stop, and the input is never at risk either way. The page and
    # stream limits are checked first, as check does.
    limits = limits_from_args(args)
    from ..pdf.source import read_source
    from ..run.limits import precheck

    with _input_file(args.input) as given:
        if Path(given).is_file():  # a missing or odd IN is the repair's own one-line error
            precheck(read_source(given, _label(args.input)), limits)
        ticker = Ticker("repairing", _label(args.input), sys.stderr)
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
        write_html_report(args, repairs=[report])
    if args.json:
        write_json(report.to_dict())
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

    data = read_stdin()
    with tempfile.TemporaryDirectory(prefix="textlayer-stdin-") as folder:
        copy = Path(folder) / "stdin.pdf"
        copy.write_bytes(data)
        yield str(copy)
