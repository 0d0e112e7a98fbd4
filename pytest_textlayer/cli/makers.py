"""The commands that make things rather than judge PDFs: `generate` (fixture PDFs
with a known defect), `fit` (a letter-pair model from trusted PDFs) and `demo`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ExitCode, UsageError
from ..model import Verdict
from .arguments import find_pdfs

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
    from .. import generators

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
    from ..judge.classifier import classify_or_raise
    from ..lang.fitting import fit
    from ..pdf.readers import pdfium_text_of
    from ..pdf.source import read_source

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
    from ..atomic import atomic_path

    with atomic_path(Path(args.output)) as tmp:
        model.save(tmp)
    print(f"wrote {args.output}: {len(texts)} readable page(s), threshold {model.threshold:.3f}")
    return int(ExitCode.OK)


# demo ----------------------------------------------------------------------


def run_demo(args: argparse.Namespace) -> int:
    from ..demo import run_demo as demo

    return demo(Path(args.output), out=sys.stdout)
