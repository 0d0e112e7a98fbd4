"""One honest verdict per page, decided by rungs, cheapest first.

This module drives them: it opens a document, walks its pages and builds
each page's report from the first rung that decides. The rungs, in the
order they run, each in its own module:

1. presence (`presence`) — is anything drawn that could carry text?
   (`blank`, `absent`)
2. static fonts (`staticfonts`) — does each font that draws glyphs have a
   route to Unicode? Weighted by the glyphs each font draws, so one broken
   heading font does not condemn a page of good body text; glyphs that read
   right whatever their route are spared (`sparedglyphs`). Then contradicted
   maps (`contradicted`): routes the font's own names, widths or glyph
   order contradict.
3. reader signals (`readersignals`) — what PDFium actually emits: U+FFFD,
   raw control codes, Private Use Area.
4. language (`language`; font by font, `oddfonts`; what earlier pages
   proved, `fonttrust`) — does the text look like some language the model
   knows?
5. shift — does it become language once every code moves by one offset?
   (searched where a rung above finds text that reads as no language)

Each rung leaves its evidence in the page report (`decision`), so a verdict
can be argued with.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..model import DocumentReport, PageReport, Verdict
from ..pdf.readers import pdfium_page_text, pdfium_version, qpdf_version
from ..pdf.source import (
    PdfInput,
    PdfSource,
    one_line,
    open_pdfium,
    open_pikepdf,
    read_source,
    repaired_on_open,
)
from ..settings import CheckSettings
from .contradicted import contradicted
from .decision import ALL_ROUTES, SAMPLE_LIMIT, SHIFT_SEARCH, NeedsFullText, PageReader
from .detached import judge_alone
from .fonttrust import FontTrust
from .language import language
from .presence import presence
from .readersignals import reader_signals
from .staticfonts import bad_font_lines, static

if TYPE_CHECKING:
    from ..lang.langmodel import LetterPairModel
    from ..pdf.pagecontent import PageContent


def classify(
    pdf: PdfInput | PdfSource,
    *,
    settings: CheckSettings | None = None,
    name: str | None = None,
    password: str = "",
    page_helper: bool = False,
) -> DocumentReport:
    """Classify every page of one PDF.

    A file that cannot be read gives a report with no pages and a one-line
    `error`, so a caller checking many files carries on; call
    :func:`classify_or_raise` to get the `InputError` instead.
    `page_helper=True` lets a long document's pages be walked by two
    processes when a core is free (see :mod:`.pagescan`): same report, less
    wall time; leave it off where the cores are already busy.
    """
    try:
        return classify_or_raise(pdf, settings=settings, name=name, password=password,
                                 page_helper=page_helper)
    except InputError as exc:
        return DocumentReport(path=exc.path, error=exc.problem)


def classify_or_raise(
    pdf: PdfInput | PdfSource,
    *,
    settings: CheckSettings | None = None,
    name: str | None = None,
    password: str = "",
    page_helper: bool = False,
    vet: Callable[[Any], None] | None = None,
) -> DocumentReport:
    """:func:`classify`, raising the `InputError` of a file that cannot be read.

    `vet`, when given, sees the document as soon as qpdf has opened it (None
    when only PDFium opens it) and may refuse it by raising `InputError`:
    the guarded workers check their limits on the document the classifier
    reads, so qpdf parses the file once.
    """
    settings = settings or CheckSettings()
    source = pdf if isinstance(pdf, PdfSource) else read_source(pdf, name)
    readers: list[str] = []
    pages = tuple(iter_page_reports(source, settings, password=password, readers=readers,
                                    page_helper=page_helper, vet=vet))
    changed = source.changed()
    if changed is not None:  # the pages read may come from two documents: report none
        raise InputError(source.name, changed)
    return DocumentReport(path=source.name, pages=pages, readers=tuple(readers))


def iter_page_reports(
    source: PdfSource, settings: CheckSettings, *, password: str = "",
    readers: list[str] | None = None, page_helper: bool = False,
    vet: Callable[[Any], None] | None = None,
) -> Iterator[PageReport]:
    """Page reports one at a time, so memory does not grow with the page count.

    `readers`, when given, receives the names and versions of the readers
    that actually ran (PDFium only joins when a page needed it).
    `page_helper`: see :func:`classify`; `vet`: see :func:`classify_or_raise`.
    """
    from ..lang import ahead
    from ..pdf import fontreach
    from ..pdf.fontprogram import forget_programs
    from ..pdf.pagescan import Judged, scan_or_error, scan_pages

    # Readings remembered from another document must not decide this one; a process that has
    # not imported the shift search (and the language model it loads) has none to forget.
    textrepair = sys.modules.get(SHIFT_SEARCH)
    if textrepair is not None:
        textrepair.forget_recent()
    try:
        qpdf = open_pikepdf(source, password)
    except InputError as refused:  # qpdf cannot open it: PDFium may (see readerpages)
        if vet is not None:
            vet(None)
        yield from _pdfium_only(source, settings, password, readers, refused)
        return
    if readers is not None:
        readers.append(qpdf_version())
    pdfium = _LazyPdfium(source, password, readers)
    patched = repaired_on_open(qpdf)  # what opening it took, before any object is read
    try:
        if vet is not None:
            vet(qpdf)
    except BaseException:
        qpdf.close()
        raise
    if patched:
        # qpdf had to patch the file up; a second reader decides whether it is readable
        # at all (a truncated file is an error, not a blank page).
        pdfium.doc()
    model = _load_model(settings)
    trust = FontTrust()
    try:
        count = len(qpdf.pages)
        if settings.pages is not None:
            beyond = sorted(p for p in settings.pages if p > count)
            if beyond:
                raise InputError(source.name, f"has {count} pages; no page {beyond[0]}")
        cache: dict[Any, Any] = {}
        indices = [i for i in range(count) if settings.pages is None or i + 1 in settings.pages]

        def lean() -> bool:  # pages like the last vouched one need only the sample's text
            return trust.vouched_last

        # Fonts no later page can draw are let go after their last page (see fontreach). The
        # pass reads every page's resources before the first page is walked, in one process or
        # two: a damaged file's objects can read otherwise once qpdf has rebuilt its table of
        # them, and the page helper (pagescan) forks after it, so both start alike.
        reaching = fontreach.reaching_pages(qpdf, indices)
        cache[fontreach.FIRST_PAGES], cache[fontreach.LAST_PAGES] = reaching
        ends = fontreach.ends_of(reaching[1])

        def judge(index: int, content: PageContent) -> tuple[PageReport, bool] | None:
            return judge_alone(classify_page, index, content, settings, model)  # in the helper

        with contextlib.closing(scan_pages(qpdf, indices, cache, page_helper, lean,
                                           judge)) as scanned:
            for index, content in scanned:
                for info in fontreach.release_before(cache, ends, index):
                    trust.forget(info)
                number = index + 1
                if isinstance(content, Judged):  # by the helper, needing no earlier page
                    trust.vouched_last = content.lean
                    yield content.result
                    continue
                if isinstance(content, Exception):  # qpdf and the walk raise many types
                    yield _unreadable_page(pdfium, index, settings, content)
                    continue
                ahead.give(content.ahead)  # the helper's judgements of its words, if it sent any
                try:
                    report = classify_page(number, content, Reader(pdfium, index, content),
                                           settings, model, trust)
                except NeedsFullText:  # a lean walk guessed wrong: walk it in full
                    full = scan_or_error(qpdf, index, cache)
                    if isinstance(full, Exception):
                        yield _unreadable_page(pdfium, index, settings, full)
                        continue
                    report = classify_page(number, full, Reader(pdfium, index, full),
                                           settings, model, trust)
                yield report
    finally:
        forget_programs()  # and with them this document
        ahead.forget()
        pdfium.close()
        qpdf.close()


def _unreadable_page(pdfium: _LazyPdfium, index: int, settings: CheckSettings,
                     problem: Exception) -> PageReport:
    """A page qpdf cannot read costs that page only: PDFium's text judges it (readerpages).

    Running out of memory is no property of the page but of the limits it runs under: the
    document is refused in one line, as any other limit refuses it.
    """
    from .readerpages import judge_page

    if isinstance(problem, MemoryError):
        raise InputError(pdfium.source.name, f"page {index + 1} cannot be read: out of memory "
                                             "(--max-memory)") from None
    try:
        doc = pdfium.doc()
    except InputError:
        doc = None
    why = one_line(problem, pdfium.source.path, limit=500)  # without the name qpdf gives it
    return judge_page(doc, index, settings, f"qpdf cannot read this page ({why})",
                      page_unreadable=True)


def _pdfium_only(source: PdfSource, settings: CheckSettings, password: str,
                 readers: list[str] | None, refused: InputError) -> Iterator[PageReport]:
    """Every page judged by PDFium, for a file qpdf cannot open; qpdf's error when PDFium
    cannot open it either."""
    from .readerpages import judge_page, unloaded

    try:
        doc = open_pdfium(source, password or None)
    except InputError:
        raise refused from None
    try:
        if readers is not None:
            readers.append(pdfium_version())
        count = len(doc)
        if settings.pages is not None:
            beyond = sorted(p for p in settings.pages if p > count)
            if beyond:
                raise InputError(source.name, f"has {count} pages; no page {beyond[0]}")
        why = f"qpdf cannot open the file ({refused.problem})"
        held: list[PageReport] = []  # until one page loads: none at all is qpdf's refusal
        loaded = False
        for index in range(count):
            if settings.pages is None or index + 1 in settings.pages:
                report = judge_page(doc, index, settings, why, page_unreadable=False)
                if not loaded and unloaded(report):
                    held.append(report)
                    continue
                loaded = True
                yield from held
                held.clear()
                yield report
        if held:
            raise refused from None
    finally:
        doc.close()


class _LazyPdfium:
    """The document opened in PDFium on first need: most born-digital files never need it."""

    def __init__(self, source: PdfSource, password: str, readers: list[str] | None) -> None:
        self.source = source
        self.password = password
        self.readers = readers
        self._doc: Any = None

    def doc(self) -> Any:
        if self._doc is None:
            self._doc = open_pdfium(self.source, self.password or None)
            if self.readers is not None:
                self.readers.append(pdfium_version())
        return self._doc

    def close(self) -> None:
        if self._doc is not None:
            self._doc.close()


class Reader:
    """PDFium's extraction of one page, run only when a rung asks for it.

    Clean pages are judged on the text the fonts' declared routes give
    (collected by the content walk), which is what spec-following readers
    extract; PDFium is asked for pages that are suspect, for the sample of
    what a real reader shows, and for fonts we cannot decode ourselves.
    """

    def __init__(self, pdfium: _LazyPdfium, index: int, content: PageContent | None = None
                 ) -> None:
        self.pdfium = pdfium
        self.index = index
        # A page whose content shows no string has no text for PDFium to find either: a
        # blank or scanned page does not open PDFium for the document.
        self._text: str | None = "" if content is not None and content.surely_textless else None

    def text(self) -> str:
        if self._text is None:
            try:
                self._text = pdfium_page_text(self.pdfium.doc(), self.index)
            except Exception:  # PDFium could not lay the page out: no reader evidence
                self._text = ""
        return self._text


def classify_page(
    number: int,
    content: PageContent,
    reader: PageReader,
    settings: CheckSettings,
    model: LetterPairModel | None,
    trust: FontTrust | None = None,
) -> PageReport:
    """Run the rungs on one page's facts and build its report.

    `trust` carries what earlier pages of the same document proved about
    their fonts (see :class:`FontTrust`); without it every page is judged.
    """
    if trust is not None:
        trust.vouched_last = False  # until this page is vouched for
    fonts = tuple(use.report() for use in sorted(content.fonts, key=lambda u: -u.glyphs))
    text = content.text if content.text_complete else reader.text()
    spared: list[str] = []
    decision = (
        presence(content, reader)
        or static(content, fonts, settings, text, model, spared)
        or contradicted(content, settings, model)
        or (None if content.text_complete else reader_signals(text, settings))
        or language(text, content, settings, model, trust, number)
    )
    evidence = decision.evidence
    if decision.verdict is Verdict.READABLE and content.bad_glyphs:
        kept = tuple(line for line in evidence if line != ALL_ROUTES)
        evidence = (*bad_font_lines(fonts), *spared, *kept)
    ok = settings.is_ok(decision.verdict)
    sample = text if ok else reader.text() or text
    return PageReport(
        number=number,
        verdict=decision.verdict,
        ok=ok,
        evidence=evidence,
        glyphs=content.glyphs,
        unmapped_glyphs=content.bad_glyphs,
        fonts=fonts,
        sample=sample.strip()[:SAMPLE_LIMIT],
        score=decision.score,
        offset=decision.offset,
        repaired_sample=decision.repaired_sample,
        decided_by=decision.decided_by,
    )


def _load_model(settings: CheckSettings) -> LetterPairModel | None:
    if settings.model is None:
        return None
    from ..lang.langmodel import LetterPairModel

    return LetterPairModel.load(settings.model)
