"""`assert_text_layer_readable`: the explicit assertion, usable with or without pytest.

A test author who writes this assertion has said what they want, so it
always enforces, whether or not ``pytest --textlayer`` is on. It imports no
pytest: any test runner (or a build script) can call it, and the failure is
a plain ``AssertionError`` whose message is the report's per-page story.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import InputError
from .model import DocumentReport, Verdict, shorten
from .pdf.source import PdfInput, PdfSource
from .settings import CheckSettings

#: How many pages of extracted text a `contains` failure shows.
MAX_TEXT_PAGES_SHOWN = 2

_listeners: list[Callable[[DocumentReport], None]] = []


@contextmanager
def listening(callback: Callable[[DocumentReport], None]) -> Iterator[None]:
    """Call `callback` with every report an assertion makes inside the block.

    The pytest plugin uses this to count explicit assertions in its summary
    without the assertion knowing about pytest. Only the innermost listener
    hears a report, so a pytest session run inside a test (pytester) keeps
    its reports to itself.
    """
    _listeners.append(callback)
    try:
        yield
    finally:
        _listeners.remove(callback)


def check_settings(
    settings: CheckSettings | None = None,
    *,
    pages: str | Iterable[int] | None = None,
    allow: Iterable[Verdict | str] | str = (),
    lang: str | None = None,
    model: str | os.PathLike[str] | None = None,
    max_bad_glyphs: float | None = None,
) -> CheckSettings:
    """The settings an assertion's keywords describe, over `settings` (or the defaults)."""
    from .settings import parse_pages

    result = settings or CheckSettings()
    if isinstance(allow, str):
        allow = [w for w in re.split(r"[,\s]+", allow) if w]
    result = result.allowing(allow)
    changes: dict[str, object] = {}
    if pages is not None:
        changes["pages"] = parse_pages(pages)
    if lang is not None:
        changes["lang"] = lang
    if model is not None:
        changes["model"] = Path(model)
    if max_bad_glyphs is not None:
        changes["max_bad_glyphs"] = max_bad_glyphs
    return result.replace(**changes) if changes else result


def run_check(pdf: PdfInput, settings: CheckSettings, name: str | None = None) -> DocumentReport:
    """Classify; a file that cannot be read gives a report with a one-line error."""
    return _run(pdf, settings, name)[0]


def _run(
    pdf: PdfInput, settings: CheckSettings, name: str | None
) -> tuple[DocumentReport, PdfSource | None]:
    """The report, and the source it was made from (its bytes are read only if asked for)."""
    from .judge.classifier import classify
    from .pdf.source import read_source

    read: PdfSource | None = None
    try:
        read = read_source(pdf, name)
    except InputError as exc:
        report = DocumentReport(path=exc.path, error=exc.problem)
    else:
        report = classify(read, settings=settings)
    announce(report)
    return report, read


def announce(report: DocumentReport) -> None:
    """Tell the innermost listener (see :func:`listening`) about a report made elsewhere."""
    if _listeners:
        _listeners[-1](report)


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u00ad", "").replace("\ufffe", "").replace("\x02", "")
    return " ".join(text.split())


def extract_pages(data: bytes, pages: frozenset[int] | None = None) -> list[str]:
    """Text PDFium extracts per page (the reader most viewers use); unselected pages are ''."""
    from .pdf.readers import pdfium_text_of

    texts = pdfium_text_of(data)
    return [t if pages is None or i + 1 in pages else "" for i, t in enumerate(texts)]


def missing_strings(texts: Iterable[str], wanted: Iterable[str]) -> list[str]:
    """The strings of `wanted` that no page's text holds (spacing and NFKC forms ignored)."""
    pages = [_norm(t) for t in texts]
    joined = " ".join(pages)
    squeezed = joined.replace(" ", "")
    missing = []
    for item in wanted:
        needle = _norm(item)
        if needle in joined or needle.replace(" ", "") in squeezed:
            continue
        missing.append(item)
    return missing


def failure_lines(
    report: DocumentReport, missing: list[str], texts: list[str] | None = None
) -> list[str]:
    """The message of a failed check: the report's story, then any missing strings."""
    if report.error is not None or not report.ok:
        lines = report.render_lines()
    else:
        lines = [f"PDF text layer lacks the expected text: {report.path}"]
    if missing and report.error is None:
        for item in missing:
            lines.append(f"  not extractable: {item!r}")
        if not report.ok:
            return lines  # the story above already shows what the pages extract as
        shown = [(i + 1, t) for i, t in enumerate(texts or []) if t.strip()]
        for number, text in shown[:MAX_TEXT_PAGES_SHOWN]:
            lines.append(f"  page {number} extracts as: {shorten(text)}")
        if texts is not None and not shown:
            lines.append("  no page has any extractable text")
    return lines


def check(
    pdf: PdfInput,
    settings: CheckSettings,
    *,
    contains: str | Iterable[str] | None = None,
    name: str | None = None,
) -> tuple[DocumentReport, list[str] | None]:
    """Check one PDF; return the report and the failure message lines (None when it passes)."""
    report, source = _run(pdf, settings, name)
    missing: list[str] = []
    texts: list[str] | None = None
    if contains is not None and source is not None and report.error is None:
        wanted = [contains] if isinstance(contains, str) else list(contains)
        try:
            texts = extract_pages(source.data, settings.pages)
        except InputError as exc:  # PDFium refused a file classify read: say so, once
            return report, [f"PDF text could not be extracted: {exc}"]
        missing = missing_strings(texts, wanted)
    if report.ok and not missing:
        return report, None
    return report, failure_lines(report, missing, texts)


def assert_text_layer_readable(
    pdf: PdfInput,
    *,
    pages: str | Iterable[int] | None = None,
    allow: Iterable[Verdict | str] | str = (),
    lang: str | None = None,
    contains: str | Iterable[str] | None = None,
    model: str | os.PathLike[str] | None = None,
    max_bad_glyphs: float | None = None,
    settings: CheckSettings | None = None,
    name: str | None = None,
) -> DocumentReport:
    """Fail with the per-page story unless every checked page of `pdf` is OK.

    `allow` adds verdicts to the accepted ones (blank and readable);
    `contains` names strings a reader must be able to extract (the test
    author's own truth about the document). Returns the report.
    """
    __tracebackhide__ = True
    effective = check_settings(
        settings, pages=pages, allow=allow, lang=lang, model=model, max_bad_glyphs=max_bad_glyphs
    )
    report, message = check(pdf, effective, contains=contains, name=name)
    if message is not None:
        raise AssertionError("\n".join(message))
    return report
