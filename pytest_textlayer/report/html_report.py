"""A self-contained static HTML report of where a text layer is wrong.

Another rendering of the same report objects as the terminal and JSON
outputs (:class:`~pytest_textlayer.model.DocumentReport`, and
:class:`~pytest_textlayer.repairs.repair_report.RepairReport` for "before and after"),
plus what only a picture can say: every glyph's box over the page as PDFium
renders it, coloured by its route to Unicode.

Only pages that are not OK get a picture (greyscale JPEG at 144 dpi, inlined
as a ``data:`` URI), and at most ``max_pages`` of them, so the report of a
long document with a few bad pages stays small. The file opens from the
file system with no network: no script, no external font or stylesheet, and
a Content Security Policy that forbids every request but inline images.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic import atomic_path
from ..errors import TextLayerError, UsageError
from ..model import DocumentReport, PageReport, Verdict, summarise
from . import html_parts as hp

if TYPE_CHECKING:
    from ..repairs.repair_report import PageRepair, RepairReport

#: Pages (over all documents) that get a picture and a detailed section, by default.
MAX_PAGES = 20
#: The report's file name inside the directory.
INDEX = "index.html"
#: Resolution of the page pictures: sharp at the column's width, readable zoomed in twice.
DPI = 144.0


@dataclass(frozen=True)
class _Doc:
    """One document to render: its report, where its bytes are, and its repair if any."""

    report: DocumentReport
    pdf: Path | None
    repair: RepairReport | None = None
    #: The tests that made this check (pytest's node ids), when a pytest run wrote the report.
    tests: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.report.ok and (self.repair is None or self.repair.ok)

    def detailed(self) -> list[int]:
        """Page numbers that deserve a section: bad in the report, or bad after repair."""
        bad = {p.number for p in self.report.pages if not p.ok}
        if self.repair is not None:
            bad |= {p.number for p in self.repair.pages if not p.ok}
        return sorted(bad)

    def repaired(self, number: int) -> PageRepair | None:
        if self.repair is None:
            return None
        return next((p for p in self.repair.pages if p.number == number), None)


def write_html(
    reports: Iterable[DocumentReport],
    directory: str | os.PathLike[str],
    *,
    max_pages: int = MAX_PAGES,
    repairs: Iterable[RepairReport] | None = None,
    base: str | os.PathLike[str] | None = None,
    dpi: float = DPI,
    tests: Iterable[Sequence[str]] | None = None,
) -> Path:
    """Write ``DIRECTORY/index.html`` for these reports and return its path.

    Each report's ``path`` is read again for the pictures (relative paths
    against *base*, default the current directory); a report whose file is
    gone still gets its tables and texts. A repair whose input has no report
    among *reports* is shown from its input classified again. ``max_pages``
    caps the pages drawn over all documents; the rest are listed only.
    ``tests``, in the order of *reports*, names the tests that made each check
    (the pytest plugin gives it). Documents that are not OK come first.
    """
    if max_pages < 0:
        raise UsageError(f"max_pages must not be negative, not {max_pages}")
    root = Path(base) if base is not None else Path.cwd()
    docs = _documents(list(reports), list(repairs or ()), root, list(tests or ()))
    out_dir = Path(directory)
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"{out_dir}: HTML report folder is a file")
    text = _render(docs, max_pages=max_pages, dpi=dpi)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / INDEX
        with atomic_path(target) as tmp:  # a full disk leaves no half-written report behind
            tmp.write_text(text, encoding="utf-8")
    except OSError as exc:
        problem = exc.strerror or str(exc)
        raise UsageError(f"{out_dir}: cannot write the HTML report: {problem}") from None
    return target


def _resolve(path: str, root: Path) -> Path | None:
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = root / candidate
    return candidate if candidate.is_file() else None


def _documents(
    reports: Sequence[DocumentReport], repairs: Sequence[RepairReport], root: Path,
    tests: Sequence[Sequence[str]] = (),
) -> list[_Doc]:
    by_file: dict[Path, int] = {}
    docs: list[_Doc] = []
    for n, report in enumerate(reports):
        pdf = _resolve(report.path, root)
        if pdf is not None:
            by_file.setdefault(pdf.resolve(), len(docs))
        docs.append(_Doc(report, pdf, tests=tuple(tests[n]) if n < len(tests) else ()))
    for rep in repairs:
        pdf = _resolve(rep.input, root)
        index = by_file.get(pdf.resolve()) if pdf is not None else None
        if index is not None:
            docs[index] = _Doc(docs[index].report, pdf, rep, docs[index].tests)
        else:
            before = getattr(rep, "before", None)  # a report that carries its IN verdicts
            if not isinstance(before, DocumentReport):
                before = _classify_input(rep, pdf)
            docs.append(_Doc(before, pdf, rep))
    # Unreadable documents first, then those with bad pages, then the rest, each in given order.
    return sorted(docs, key=lambda d: (d.report.error is None, d.ok))


def _classify_input(rep: RepairReport, pdf: Path | None) -> DocumentReport:
    """The before-report of a repair given alone: IN classified again (it is never modified)."""
    if pdf is None:
        return DocumentReport(rep.input, error="the input file is no longer there")
    from ..judge.classifier import classify

    try:
        return classify(str(pdf), name=rep.input)
    except TextLayerError as exc:
        return DocumentReport(rep.input, error=str(exc))


# -- rendering ----------------------------------------------------------------------------


def _render(docs: Sequence[_Doc], *, max_pages: int, dpi: float) -> str:
    """The whole HTML document."""
    budget = [max_pages]
    totals = summarise(d.report for d in docs)
    counts = ", ".join(f"{n} {v}" for v, n in sorted(totals["verdicts"].items()))
    bad = sum(len(d.detailed()) for d in docs)
    nav = _documents_table(docs)
    body = "".join(_document(d, i, budget, dpi) for i, d in enumerate(docs, 1))
    shown = min(bad, max_pages)
    cap = f" (the first {max_pages} are drawn)" if bad > max_pages else ""
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{hp.CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>PDF text layer report</title>"
        f"<style>{hp.CSS}</style></head><body>"
        "<header><h1>PDF text layer report</h1>"
        f"<p>{totals['documents']} document(s), {totals['pages']} page(s)"
        f"{': ' + hp.esc(counts) if counts else ''}; {bad} page(s) not OK{cap}. "
        f"Written {stamp} by pytest-textlayer; pages rendered by PDFium.</p>"
        f'<nav aria-label="Documents">{nav}</nav></header>'
        f"<main>{body}</main>"
        f'<footer><p class="note">{shown} page picture(s) in this file.</p></footer>'
        "</body></html>\n"
    )


def _documents_table(docs: Sequence[_Doc]) -> str:
    """One row per document, the ones that are not OK first: what, how bad, which tests."""
    with_tests = any(d.tests for d in docs)
    cols = ["Document", "OK", "Pages", "Not OK", "Verdicts"] + (["Checked by"] if with_tests
                                                                  else [])
    head = "".join(f'<th scope="col">{c}</th>' for c in cols)
    rows = []
    for i, d in enumerate(docs, 1):
        report = d.report
        verdicts: dict[str, int] = {}
        for page in report.pages:
            verdicts[page.verdict.value] = verdicts.get(page.verdict.value, 0) + 1
        detail = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
        if report.error is not None:
            state, detail = '<span class="bad">unreadable</span>', report.error
        else:
            state = '<span class="good">OK</span>' if d.ok else '<span class="bad">not OK</span>'
        cells = [
            f'<th scope="row"><a href="#doc{i}">{hp.esc(report.path)}</a></th>',
            f"<td>{state}</td>", f'<td class="n">{len(report.pages)}</td>',
            f'<td class="n">{len(d.detailed())}</td>', f"<td>{hp.esc(detail)}</td>",
        ]
        if with_tests:
            ids = "<br>".join(f"<code>{hp.esc(t)}</code>" for t in d.tests)
            cells.append(f"<td>{ids}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return ('<table class="docs"><caption>Documents, those not OK first</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _document(doc: _Doc, i: int, budget: list[int], dpi: float) -> str:
    report = doc.report
    head = f'<section aria-labelledby="doc{i}"><h2 id="doc{i}">{hp.esc(report.path)}</h2>'
    if report.error is not None:
        return f'{head}<p class="bad">Could not be read: {hp.esc(report.error)}</p></section>'
    lines = [f"<p>{hp.esc(report.headline())}</p>"]
    if doc.tests:
        ids = ", ".join(f"<code>{hp.esc(t)}</code>" for t in doc.tests)
        lines.append(f'<p class="note">Checked by {ids}</p>')
    if doc.repair is not None:
        lines.append(f"<p>Repair: {hp.esc(doc.repair.headline())}</p>")
        lines.extend(f'<p class="note">{hp.esc(n)}</p>' for n in doc.repair.notes)
    detailed = doc.detailed()
    drawn = detailed[: max(budget[0], 0)]
    budget[0] -= len(drawn)
    lines.append(_summary_table(doc, i, set(drawn), set(detailed) - set(drawn)))
    if drawn:
        lines.append(_pages(doc, i, drawn, dpi))
    return head + "".join(lines) + "</section>"


def _summary_table(doc: _Doc, i: int, drawn: set[int], skipped: set[int]) -> str:
    """One row per bad page, consecutive OK pages of one verdict folded into one row."""
    repaired = doc.repair is not None
    cols = ["Pages", "Verdict", "OK", "Glyphs", "Unmapped"]
    if repaired:
        cols += ["Repair", "After repair"]
    cols.append("Evidence")
    head = "".join(f'<th scope="col">{c}</th>' for c in cols)
    rows = []
    for run in _runs(doc.report.pages, drawn | skipped):
        first, last = run[0], run[-1]
        label = hp.page_range(first.number, last.number)
        if first.number in drawn:
            label = f'<a href="#d{i}p{first.number}">page {first.number}</a>'
        elif first.number in skipped:
            label += ' <span class="note">(not drawn: page limit)</span>'
        cells = [
            f'<th scope="row">{label}</th>',
            f"<td>{hp.esc(first.verdict)}</td>",
            f"<td>{hp.ok_cell(first.ok)}</td>",
            f'<td class="n">{sum(p.glyphs for p in run)}</td>',
            f'<td class="n">{sum(p.unmapped_glyphs for p in run)}</td>',
        ]
        if repaired:
            fix = doc.repaired(first.number) if len(run) == 1 else None
            cells.append(f"<td>{hp.esc(_action(fix)) if fix else '—'}</td>")
            after = f"{hp.esc(fix.after)} {hp.ok_cell(fix.ok)}" if fix else "—"
            cells.append(f"<td>{after}</td>")
        lines = {p.evidence[0] if p.evidence else "" for p in run}
        evidence = lines.pop() if len(lines) == 1 else ""
        cells.append(f"<td>{hp.esc(evidence)}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        f"<table><caption>Pages and verdicts</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _action(fix: PageRepair) -> str:
    return fix.action + (f" ({'+'.join(fix.sources)})" if fix.sources else "")


def _runs(pages: Sequence[PageReport], alone: set[int]) -> list[list[PageReport]]:
    runs: list[list[PageReport]] = []
    for page in pages:
        last = runs[-1][-1] if runs else None
        joinable = (
            last is not None
            and page.number not in alone
            and last.number not in alone
            and page.ok
            and last.ok
            and page.verdict is last.verdict
            and page.number == last.number + 1
        )
        if joinable:
            runs[-1].append(page)
        else:
            runs.append([page])
    return runs


def _pages(doc: _Doc, i: int, numbers: Sequence[int], dpi: float) -> str:
    """The detailed sections, reading each PDF once with PDFium."""
    before = _open(doc.pdf)
    after_path = Path(doc.repair.output) if doc.repair is not None else None
    after = _open(after_path) if doc.repair is not None and doc.repair.written else None
    try:
        pages = {p.number: p for p in doc.report.pages}
        after_pages = _after_pages(doc.repair)
        out = []
        for number in numbers:
            page = pages.get(number)
            if page is None:
                continue
            figures = [_figure(before, number, page.fonts, f"Page {number}", dpi, doc.pdf)]
            fixed = after_pages.get(number)
            if after is not None or doc.repair is not None:
                figures.append(
                    _figure(after, number, fixed.fonts if fixed else (),
                            f"Page {number} after repair", dpi, after_path)
                )
            out.append(_page_section(doc, i, page, figures))
        return "".join(out)
    finally:
        for handle in (before, after):
            if handle is not None:
                handle.close()


def _after_pages(rep: RepairReport | None) -> Mapping[int, PageReport]:
    if rep is None or rep.after is None:
        return {}
    return {p.number: p for p in rep.after.pages}


def _open(path: Path | None) -> Any:
    """A PDFium document, or None when the file is gone or unreadable (the report says so)."""
    from .glyphboxes import open_document

    if path is None or not path.is_file():
        return None
    try:
        return open_document(path.read_bytes())
    except Exception:  # a picture is a bonus: a file PDFium refuses keeps its tables
        return None


def _figure(
    handle: Any, number: int, fonts: tuple[Any, ...], label: str, dpi: float, path: Path | None
) -> hp.Figure:
    from .glyphboxes import page_glyphs, render_jpeg

    if handle is None:
        where = f"{path} cannot be opened" if path else "the PDF is not on disk"
        return hp.Figure(label, None, None, fonts, f"no picture: {where}")
    if number > len(handle):
        return hp.Figure(label, None, None, fonts, "no picture: the file has fewer pages")
    try:
        image, glyphs = render_jpeg(handle, number - 1, dpi=dpi), page_glyphs(handle, number - 1)
    except Exception as exc:  # a page PDFium cannot draw keeps its tables and texts
        why = f"no picture: PDFium failed ({type(exc).__name__})"
        return hp.Figure(label, None, None, fonts, why)
    programs = _programs(path, number) if hp.FontLookup(fonts).ambiguous else None
    return hp.Figure(label, image, glyphs, fonts, programs=programs)


def _programs(path: Path | None, number: int) -> dict[str, str] | None:
    """The page's embedded font programs, read only when subsets of one face disagree."""
    from ..pdf.source import open_pikepdf, read_source
    from .glyphboxes import embedded_programs

    if path is None:
        return None
    try:
        pdf = open_pikepdf(read_source(path))
    except TextLayerError:
        return None
    try:
        return embedded_programs(pdf, number - 1)
    finally:
        pdf.close()


def _page_section(doc: _Doc, i: int, page: PageReport, figures: Sequence[hp.Figure]) -> str:
    uid = f"d{i}p{page.number}"
    fix = doc.repaired(page.number)
    state = f"{page.verdict}" + (f" → {fix.after} after repair" if fix else "")
    parts = [
        f'<article class="page" id="{uid}" aria-labelledby="{uid}-h">'
        f'<h3 id="{uid}-h">Page {page.number}: {hp.esc(state)}</h3>'
    ]
    if page.evidence:
        items = "".join(f"<li>{hp.esc(e)}</li>" for e in page.evidence)
        parts.append(f"<ul>{items}</ul>")
    figs = "".join(hp.figure_html(f, f"{uid}f{n}") for n, f in enumerate(figures))
    parts.append(f'<div class="figs">{figs}</div>')
    parts.append(_texts(uid, page, fix, figures[0]))
    parts.append(hp.fonts_table(page.fonts, f"Fonts on page {page.number}"))
    if len(figures) > 1:
        parts.append(hp.fonts_table(figures[1].fonts, f"Fonts on page {page.number} after repair"))
    after_ok = fix is not None and fix.ok
    if not after_ok:
        cmd = hp.repair_command(doc.report.path, page, after_repair=fix is not None)
        what = "What repairs it" if fix is None else "What else to try"
        parts.append(
            f'<h4 id="{uid}-cmd">{what}</h4>'
            f'<pre aria-labelledby="{uid}-cmd"><code>{hp.esc(cmd)}</code></pre>'
        )
    return "".join(parts) + "</article>"


def _texts(uid: str, page: PageReport, fix: PageRepair | None, fig: hp.Figure) -> str:
    if fix is not None:
        return hp.texts_html(
            uid,
            [("Extracted before repair", fix.sample_before or page.sample),
             ("Extracted after repair", fix.sample_after)],
            None,
        )
    extracted = page.sample or (fig.glyphs.text if fig.glyphs is not None else "")
    if page.repaired_sample:
        return hp.texts_html(
            uid,
            [("What a standard reader extracts", extracted),
             ("What the page shows (the classifier's reading)", page.repaired_sample)],
            None,
        )
    note = (
        "No text layer: the picture is what the page shows; only OCR can read it."
        if page.verdict is Verdict.ABSENT
        else "The file gives no reading of this page; the picture is what it shows."
    )
    return hp.texts_html(uid, [("What a standard reader extracts", extracted)], note)
