"""One honest verdict per page, decided by rungs, cheapest first.

1. presence — is anything drawn that could carry text? (`blank`, `absent`)
2. static fonts — does each font that draws glyphs have a route to Unicode?
   Weighted by the glyphs each font draws, so one broken heading font does
   not condemn a page of good body text.
3. reader signals — what PDFium actually emits: U+FFFD, raw control codes,
   Private Use Area.
4. language — does the text look like some language the model knows?
5. shift — does it become language once every code moves by one offset?

Each rung leaves its evidence in the page report, so a verdict can be
argued with.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import sys
import unicodedata
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..lang.textshape import not_running_words
from ..model import DocumentReport, FontReport, FontStatus, PageReport, Verdict
from ..pdf.readers import (
    TextSignals,
    pdfium_page_text,
    pdfium_version,
    qpdf_version,
    text_signals,
)
from ..pdf.source import PdfInput, PdfSource, open_pdfium, open_pikepdf, read_source
from ..settings import CheckSettings

if TYPE_CHECKING:
    from ..lang.langmodel import LanguageJudgement, LetterPairModel
    from ..pdf.content import FontUse, PageContent
    from ..pdf.fontinfo import FontInfo

#: Share of the page area raster images must cover before a page without text is `absent`.
MIN_IMAGE_COVERAGE = 0.02
#: Characters kept as a page's sample in the report.
SAMPLE_LIMIT = 400
#: The evidence of a page whose every glyph has a usable route.
ALL_ROUTES = "every glyph drawn has a usable route to Unicode"
#: Characters of a page the language rung reads: enough to judge, bounded so long pages stay cheap.
LANGUAGE_SAMPLE = 3000
#: Below this many non-space characters, reader signals are too few to judge a page.
MIN_SIGNAL_CHARS = 4


@dataclass(frozen=True)
class _Decision:
    verdict: Verdict
    evidence: tuple[str, ...]
    decided_by: str
    score: float | None = None
    offset: int | None = None
    repaired_sample: str | None = None


def classify(
    pdf: PdfInput,
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
    pdf: PdfInput,
    *,
    settings: CheckSettings | None = None,
    name: str | None = None,
    password: str = "",
    page_helper: bool = False,
) -> DocumentReport:
    settings = settings or CheckSettings()
    source = read_source(pdf, name)
    readers: list[str] = []
    pages = tuple(iter_page_reports(source, settings, password=password, readers=readers,
                                    page_helper=page_helper))
    return DocumentReport(path=source.name, pages=pages, readers=tuple(readers))


def iter_page_reports(
    source: PdfSource, settings: CheckSettings, *, password: str = "",
    readers: list[str] | None = None, page_helper: bool = False,
) -> Iterator[PageReport]:
    """Page reports one at a time, so memory does not grow with the page count.

    `readers`, when given, receives the names and versions of the readers
    that actually ran (PDFium only joins when a page needed it).
    `page_helper`: see :func:`classify`.
    """
    from ..pdf.pagescan import scan_or_error, scan_pages

    # Readings remembered from another document must not decide this one; a process that has
    # not imported the shift search (and the language model it loads) has none to forget.
    textrepair = sys.modules.get(f"{__package__}.textrepair")
    if textrepair is not None:
        textrepair.forget_recent()
    try:
        qpdf = open_pikepdf(source, password)
    except InputError as refused:  # qpdf cannot open it: PDFium may (see readerpages)
        yield from _pdfium_only(source, settings, password, readers, refused)
        return
    if readers is not None:
        readers.append(qpdf_version())
    pdfium = _LazyPdfium(source, password, readers)
    if qpdf.get_warnings():
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

        with contextlib.closing(scan_pages(qpdf, indices, cache, page_helper, lean)) as scanned:
            for index, content in scanned:
                number = index + 1
                if isinstance(content, Exception):  # qpdf and the walk raise many types
                    yield _unreadable_page(pdfium, index, settings, content)
                    continue
                try:
                    report = classify_page(number, content, _Reader(pdfium, index), settings,
                                           model, trust)
                except _NeedsFullText:  # a lean walk guessed wrong: walk it in full
                    full = scan_or_error(qpdf, index, cache)
                    if isinstance(full, Exception):
                        yield _unreadable_page(pdfium, index, settings, full)
                        continue
                    report = classify_page(number, full, _Reader(pdfium, index), settings,
                                           model, trust)
                yield report
    finally:
        pdfium.close()
        qpdf.close()


class _NeedsFullText(Exception):
    """A rung needs more of the page's text than a lean walk collected (PageContent.text_cut).

    Raised before the rung reads the text or changes any state, so the page
    is simply classified again from a full walk: the verdict never depends
    on whether the walk was lean.
    """


def _needs_text(content: PageContent) -> None:
    if content.text_cut:
        raise _NeedsFullText


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
    return judge_page(doc, index, settings, f"qpdf cannot read this page ({problem})",
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


class _Reader:
    """PDFium's extraction of one page, run only when a rung asks for it.

    Clean pages are judged on the text the fonts' declared routes give
    (collected by the content walk), which is what spec-following readers
    extract; PDFium is asked for pages that are suspect, for the sample of
    what a real reader shows, and for fonts we cannot decode ourselves.
    """

    def __init__(self, pdfium: _LazyPdfium, index: int) -> None:
        self.pdfium = pdfium
        self.index = index
        self._text: str | None = None

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
    reader: _Reader,
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
        _presence(content, reader)
        or _static(content, fonts, settings, text, model, spared)
        or _contradicted(content, settings, model)
        or (None if content.text_complete else _reader_signals(text, settings))
        or _language(text, content, settings, model, trust, number)
    )
    evidence = decision.evidence
    if decision.verdict is Verdict.READABLE and content.bad_glyphs:
        kept = tuple(line for line in evidence if line != ALL_ROUTES)
        evidence = (*_bad_font_lines(fonts), *spared, *kept)
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


# Rung 1 -------------------------------------------------------------------


def _presence(content: PageContent, reader: _Reader) -> _Decision | None:
    if content.glyphs > 0 or reader.text().strip():
        return None
    if content.image_coverage >= MIN_IMAGE_COVERAGE:
        share = f"{content.image_coverage:.0%}"
        return _Decision(
            Verdict.ABSENT,
            (f"no text is drawn; raster images cover {share} of the page: a scan or a "
             "picture of text, only OCR can read it",),
            "presence",
        )
    what = "no text and no raster image of meaningful size"
    if content.images:
        what += f" ({content.images} small image(s) only)"
    return _Decision(Verdict.BLANK, (what,), "presence")


# Rung 2 -------------------------------------------------------------------


def _static(
    content: PageContent,
    fonts: tuple[FontReport, ...],
    settings: CheckSettings,
    text: str,
    model: LetterPairModel | None = None,
    spared_notes: list[str] | None = None,
) -> _Decision | None:
    """Condemn the page when too many glyphs have no usable route; `spared_notes` receives
    why glyphs counted bad by their route still read right (see _readable_anyway)."""
    if not content.glyphs or not content.bad_glyphs:
        return None
    share = content.bad_glyphs / content.glyphs
    if share <= settings.max_bad_glyphs:
        # Below the threshold the page stands; its font reports still name the bad font.
        return None
    _needs_text(content)
    spared, notes = _readable_anyway(content, settings, model)
    if spared_notes is not None:
        spared_notes.extend(notes)
    bad_glyphs = content.bad_glyphs - spared
    share = bad_glyphs / content.glyphs
    if share <= settings.max_bad_glyphs:
        return None  # the language rung decides, and its evidence keeps the notes
    bad = [f for f in fonts if f.unmapped]
    summary = (
        f"{content.bad_glyphs} of {content.glyphs} glyphs drawn "
        f"({content.bad_glyphs / content.glyphs:.0%}) have no usable route to Unicode"
    )
    evidence = (*_bad_font_lines(fonts), summary, *notes)
    by_route: dict[str, int] = {}
    for f in bad:
        by_route[f.route] = by_route.get(f.route, 0) + f.unmapped
    controls = by_route.get("control", 0)
    wrong = sum(f.unmapped for f in bad if f.status is FontStatus.WRONG) - controls
    if wrong * 2 > content.bad_glyphs:
        return _Decision(Verdict.GARBLED, evidence, "fonts")
    return _undecodable_or_shifted(bad, evidence, text, declared=controls * 2 > content.bad_glyphs)


#: Private Use code points where symbol fonts' codes are mapped (Microsoft's convention):
#: a bullet drawn alone there is a bullet, not a lost letter.
_SYMBOL_AREA = re.compile("(?<![^\\s])[\uf000-\uf0ff](?![^\\s])")
#: Any Private Use character standing alone: an icon or a font's own unencoded glyph.
_PUA_ALONE = re.compile("(?<![^\\s])[\ue000-\uf8ff\U000f0000-\U0010fffd](?![^\\s])")


def _readable_anyway(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> tuple[int, list[str]]:
    """Bad glyphs that still reach readers as the right text, with the reason for each font.

    Four cases, decided on what readers print or what is drawn, not on the route:
    a font without a route whose codes nevertheless are the characters
    (Ghostscript re-distils subsets as symbolic TrueType with ASCII codes, and
    every reader prints the text right), judged by reading that font's text;
    Private Use symbols standing alone (Word's and PowerPoint's bullets, icons),
    which are symbols, not letters lost; codes that select the font's .notdef
    glyph, the box drawn for a character the font lacks; and the glyphs of a
    shaped cluster whose text another glyph carries.
    """
    from ..lang.langmodel import judge

    spared = 0
    notes: list[str] = []
    for use in content.fonts:
        if not use.bad_glyphs:
            continue
        notdef = 0  # glyphs that lose no character, whatever their map says
        for count, what in ((_notdef_glyphs(use), "draw the font's missing-glyph box "
                             "(.notdef)"),
                            (_cluster_parts(use), "are letters of shaped clusters whose text "
                             "another glyph carries")):
            if count:
                notdef += count
                notes.append(f"{count} glyph(s) of font {use.font.name} {what}: no character "
                             "is lost")
        spared += notdef
        if notdef and notdef >= use.bad_glyphs:
            continue
        status, route, _ = use.judge()  # one judgement; the properties each judge again
        if status is FontStatus.WRONG and route == "pua":
            # Where the font's map gives most glyphs real characters, a Private Use value is
            # the font's own code point for a glyph Unicode has none for (DejaVu's tone
            # letters, an icon); where it gives most glyphs Private Use values, only
            # Microsoft's symbol area is taken as symbols.
            area = _SYMBOL_AREA if use.font.route == "pua" else _PUA_ALONE
            alone = min(use.bad_glyphs - notdef, len(area.findall(use.text)))
            symbols = _symbol_font_glyphs(use)
            if symbols > alone:
                spared += symbols
                notes.append(f"{symbols} glyph(s) of symbol font {use.font.name} map to "
                             "Microsoft's symbol area (U+F020-F0FF), as symbol fonts do: "
                             "symbols, not letters lost")
                continue
            if alone:
                spared += alone
                notes.append(f"{alone} glyph(s) of font {use.font.name} are symbols standing "
                             "alone in the Private Use Area (bullets, icons), not letters")
            continue
        if status not in (FontStatus.SEVERED, FontStatus.RECOVERABLE) or route == "null":
            continue
        # Readers must print text, not control characters with a few runs of letters between
        # them (a subset numbered in order of first use prints 'AB CD EFGH' among controls,
        # which can pass as some language): no more strays than the bad-glyph share, and
        # enough distinct words.
        printed = len("".join(use.text.split()))
        strays = len(_STRAY.findall(use.text))
        if strays > settings.max_bad_glyphs * printed:
            continue
        words = _STRAY.sub(" ", use.text)
        if len(set(_WORD.findall(words))) < MIN_FONT_WORDS:
            continue
        verdict = judge(words, model=model, lang=settings.lang)
        if verdict.passes is True:
            spared += use.bad_glyphs - notdef
            notes.append(f"font {use.font.name} has no route by the specification, but its "
                         f"codes are the characters: readers print text that reads as "
                         f"{verdict.lang}")
    return spared, notes


def _notdef_glyphs(use: FontUse) -> int:
    """Bad glyphs whose codes select the program's .notdef: the box drawn for a character
    the font lacks, which no map can give a letter for."""
    font = use.font
    return sum(n for code, n in use.codes.items()
               if font.why(code) is not None and font.draws_notdef(code))


def _cluster_parts(use: FontUse) -> int:
    """Unmapped glyphs of a shaped cluster whose text another glyph carries.

    A producer that shapes Bengali, Devanagari or Khmer maps a cluster's whole
    text (``মি``, consonant and vowel sign) to one of its glyphs and leaves the
    others unmapped; readers print the cluster once, and nothing is lost. Such
    a glyph is known by its own letter (the program's cmap) standing inside a
    cluster value, one holding a combining mark, of a code drawn on the page.
    A ligature's value (``fi``) holds no mark: a lost ``f`` still counts.
    """
    font = use.font
    if not font.tounicode or not font.embedded:
        return 0
    clusters = "".join(value for code in use.codes
                       if len(value := font.unicode.get(code, "")) > 1
                       and any(unicodedata.category(c).startswith("M") for c in value))
    if not clusters:
        return 0
    parts = 0
    for code, n in use.codes.items():
        if font.why(code) == "unmapped":
            own = font.recover(code)
            if own is not None and len(own) == 1 and own in clusters:
                parts += n
    return parts


def _symbol_font_glyphs(use: FontUse) -> int:
    """Glyphs a symbol font draws that its map gives in the symbol area (U+F020-F0FF), where
    Microsoft's convention maps them."""
    if not use.font.symbol_font:
        return 0
    unicode = use.font.unicode
    return sum(n for code, n in use.codes.items()
               if len(value := unicode.get(code, "")) == 1 and 0xF020 <= ord(value) <= 0xF0FF)


def _undecodable_or_shifted(
    bad: list[FontReport], evidence: tuple[str, ...], text: str, *, declared: bool
) -> _Decision:
    """A declared map that is off by one offset is `shifted`; no map at all stays `undecodable`.

    "Declared" means most bad glyphs go through a route the file gives (a
    ToUnicode or an encoding) and land on control characters: the signature
    of a map moved by a constant. Codes with no entry at all stay undecodable
    whatever an offset makes of them.

    Glyph ids that happen to form a constant offset (a severed Identity font
    built in the Macintosh glyph order) are still undecodable: the file
    declares nothing, the offset is a coincidence of the font's glyph order.
    The hint is kept in the evidence, since repair can use it.
    """
    from ..lang.textrepair import find_shift

    shift = find_shift(text)
    if shift is None:
        return _Decision(Verdict.UNDECODABLE, evidence, "fonts")
    repaired = shift.text[:SAMPLE_LIMIT]
    if declared:
        return _Decision(
            Verdict.SHIFTED,
            (*evidence, f"the declared map reads as language once shifted by {shift.describe()}",
             f"repaired sample: {shift.text[:60]!r}"),
            "shift", offset=shift.offset, repaired_sample=repaired,
        )
    hint = f"the codes read as text shifted by {shift.describe()}: {shift.text[:60]!r}"
    return _Decision(Verdict.UNDECODABLE, (*evidence, hint), "fonts", offset=shift.offset,
                     repaired_sample=repaired)


def _bad_font_lines(fonts: tuple[FontReport, ...]) -> list[str]:
    return [f"{f.describe()}; {f.unmapped} of {f.glyphs} glyphs unmapped" for f in fonts
            if f.unmapped]


#: Distinct codes of one font a page must draw against its program's account before they count,
#: unless every letter the page draws with it is contradicted (a folio 'ii'): one or two odd
#: glyphs among right ones are a producer's quirk, not a wrong map.
MIN_CONTRADICTED_CODES = 3


def _contradicted(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None = None
) -> _Decision | None:
    """Glyphs whose ToUnicode contradicts their font's own glyph names or cmap (crosscheck).

    A permuted or shifted ToUnicode gives ordinary characters that are not the
    ones drawn; the font program usually names its glyphs, and when most of
    the letters a page draws with a font are named one thing and mapped to
    another, those glyphs are wrong whatever the language judge makes of
    them. Weighed like unmapped glyphs: more than the bad-glyph share of the
    page condemns it. The check is cached per font; clean fonts cost nothing.
    """
    if not content.glyphs:
        return None
    wrong_total = 0
    lines: list[str] = []
    offsets: set[int | None] = set()
    repaired: list[str] = []
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        found = use.font.contradiction
        if found is None:
            if use.invisible_glyphs * 2 <= use.glyphs:  # OCR fonts' widths mean nothing
                wrong = _width_contradiction(use, lines)
                if wrong:
                    _needs_text(content)
                    wrong_total += wrong
                    # Widths say the map is wrong, not how: a shifted map reads once shifted.
                    from ..lang.textrepair import find_shift

                    moved = find_shift(use.text, model)
                    if moved is not None and moved.method == "offset" and moved.offset:
                        offsets.add(-moved.offset)
                        repaired.append(moved.text)
                    else:
                        offsets.add(None)
                else:
                    wrong = _order_contradiction(use, lines)
                    wrong_total += wrong
                    if wrong:
                        offsets.add(None)
            continue
        drawn = use.codes
        compared, wrong, distinct = found.weigh(drawn)
        if wrong * 2 <= compared or (distinct < MIN_CONTRADICTED_CODES and wrong < compared):
            continue
        _needs_text(content)
        wrong_total += wrong
        offsets.add(found.offset)
        lines.append(f"font {use.font.name} ({use.font.subtype}): {found.describe(drawn)}; "
                     f"{wrong} of {use.glyphs} glyphs drawn")
        if found.offset is not None:
            from ..lang.textrepair import shift

            repaired.append(shift(use.text, -found.offset))
    # The glyphs other routes already count bad (a shifted map's digits and spaces land on
    # control characters) join the contradicted letters under the one bad-glyph limit.
    if not wrong_total or (wrong_total + content.bad_glyphs) / content.glyphs <= \
            settings.max_bad_glyphs:
        return None
    share = wrong_total / content.glyphs
    summary = (f"{wrong_total} of {content.glyphs} glyphs drawn ({share:.0%}) read as other "
               "characters than their fonts name")
    if content.bad_glyphs:
        summary += f", besides {content.bad_glyphs} with no usable route"
    if len(offsets) == 1 and None not in offsets:
        offset = -next(iter(o for o in offsets if o is not None))
        sample = " ".join(" ".join(r.split()) for r in repaired)
        return _Decision(
            Verdict.SHIFTED,
            (*lines, summary, f"the declared map reads right once shifted by {offset:+d} code "
             f"points", f"repaired sample: {sample[:60]!r}"),
            "fonts", offset=offset, repaired_sample=sample[:SAMPLE_LIMIT],
        )
    return _Decision(Verdict.GARBLED, (*lines, summary), "fonts")


def _width_contradiction(use: FontUse, lines: list[str]) -> int:
    """Glyphs of a font without its own account whose widths do not follow their letters.

    Narrow letters are narrow and wide ones wide in every proportional Latin
    font: when the widths of the letters a page draws with a font do not rank
    like the letters its ToUnicode gives them (each case apart), the map is
    permuted, or shifted (lower-case glyphs given as capitals). Only fonts
    whose program names nothing are measured (the names decide the others),
    once per page, on eight distinct letters of one case at least;
    a font whose widths followed its letters on one page is trusted after.
    """
    from ..pdf.rankcheck import MAX_WIDTH_CORRELATION, symbol_face, width_correlation

    font = use.font
    if font.has_account or font in _WIDTHS_AGREE:
        return 0  # its names or cmap agreed with its map (read by the caller first)
    if font.symbol_font:
        return 0  # symbols rank like no letters: 'A' typed in Dingbats draws a scissors
    letters = font.letter_widths
    if not letters:
        return 0
    drawn = use.codes
    found = width_correlation(letters, drawn)
    if found is None:
        return 0
    rho, n = found
    if rho >= MAX_WIDTH_CORRELATION:
        if rho >= 2 * MAX_WIDTH_CORRELATION:
            _WIDTHS_AGREE.add(font)
        return 0
    if symbol_face(letters, drawn) is not None:
        _WIDTHS_AGREE.add(font)  # a symbol face that lost its name: what was typed, as named
        return 0
    wrong = sum(k for code, k in drawn.items() if code in letters)
    lines.append(f"font {font.name} ({font.subtype}): the widths of its glyphs do not follow "
                 f"the letters its ToUnicode gives them (rank correlation {rho:.2f} over {n} "
                 f"letters of one case; proportional fonts give 0.6 or more): a wrong map; "
                 f"{wrong} of {use.glyphs} glyphs drawn")
    return wrong


def _order_contradiction(use: FontUse, lines: list[str]) -> int:
    """Glyphs of an Identity font without its own account whose glyph ids do not follow the
    Unicode order of their letters (see rankcheck.code_order_correlation).

    CJK widths are all equal and a subset keeps neither cmap nor post names, so neither names
    nor widths can contradict a permuted map over ideographs; the glyph order can. Only
    TrueType and OpenType programs, whose codes are glyph ids: a CID-keyed CFF's CIDs follow a
    character collection's order, not Unicode's. Subsets numbered again (from 1, or in order of
    first use) and fonts in a legacy East Asian encoding's order (GBK, Big5, Shift-JIS, EUC-KR)
    are left alone.
    """
    from ..pdf.rankcheck import MIN_ORDER_CORRELATION, code_order_correlation

    font = use.font
    if (font.has_account or font.subtype != "Type0" or font.program not in ("TrueType", "OpenType")
            or font.encoding not in ("Identity-H", "Identity-V")):
        return 0
    drawn = use.codes
    found = code_order_correlation(font.unicode, drawn)
    if found is None or found[0] >= MIN_ORDER_CORRELATION:
        return 0
    rho, n = found
    wrong = sum(k for code, k in drawn.items()
                if len(text := font.unicode.get(code, "")) == 1 and text.isalpha())
    lines.append(f"font {font.name} ({font.subtype}): the glyph ids of its letters do not follow "
                 f"the Unicode order of the letters its ToUnicode gives them (rank correlation "
                 f"{rho:.2f} over {n} letters; fonts lay glyphs out near Unicode order, 0.33 or "
                 f"more): a permuted map; {wrong} of {use.glyphs} glyphs drawn")
    return wrong


#: Fonts whose widths followed their letters on a page: not measured again.
_WIDTHS_AGREE: weakref.WeakSet[FontInfo] = weakref.WeakSet()


# Rung 3 -------------------------------------------------------------------


#: Any character the reader-signal rung counts against a page.
_SUSPECT = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\ufffd\uffff\ufffe"
                      "\ue000-\uf8ff\U000f0000-\U0010ffff]")


def _reader_signals(text: str, settings: CheckSettings) -> _Decision | None:
    """U+FFFD, raw control codes and Private Use characters in a real reader's text.

    Only asked of PDFium's text (pages whose fonts we cannot decode ourselves):
    in our own text those characters come from the very maps the font rung
    already weighed glyph by glyph, and counting them again over another
    denominator condemned pages the glyph count had let stand.
    """
    if _SUSPECT.search(text) is None and "(cid:" not in text:
        return None  # nothing to count: no share can pass the limit (one C scan, no lists)
    signals: TextSignals = text_signals(text)
    if signals.chars < MIN_SIGNAL_CHARS:
        return None
    limit = settings.max_bad_glyphs
    if signals.share(signals.unmapped) > limit:
        return _Decision(
            Verdict.UNDECODABLE,
            (f"readers emit {signals.unmapped} of {signals.chars} characters as unmapped codes "
             f"({signals.replacement} U+FFFD/FFFF, {signals.controls} control characters)",),
            "readers",
        )
    pua = signals.pua - len(_SYMBOL_AREA.findall(text)) if signals.pua else 0
    if signals.share(pua) > limit:
        return _Decision(
            Verdict.GARBLED,
            (f"{pua} of {signals.chars} characters extracted are in the Private Use Area "
             "(symbols standing alone, such as bullets, not counted)",),
            "readers",
        )
    return None


# Rungs 4 and 5 --------------------------------------------------------------


def _language(
    text: str,
    content: PageContent,
    settings: CheckSettings,
    model: LetterPairModel | None,
    trust: FontTrust | None = None,
    number: int = 0,
) -> _Decision:
    readable = _Decision(Verdict.READABLE, (ALL_ROUTES,),
                         "fonts")
    if content.glyphs < settings.min_glyphs:
        return readable
    sound = [use for use in content.fonts if use.glyphs and use.sound]
    unsound = content.glyphs - sum(use.glyphs for use in sound)
    if sound and unsound <= settings.max_bad_glyphs * content.glyphs:
        if settings.lang is not None:
            return _expected_language(text, content, settings, model)
        if trust is not None:
            trust.vouched_last = True  # the next page likely needs no more text either
        return _Decision(Verdict.READABLE, (*readable.evidence, _sound_line(sound, content)),
                         "fonts")
    if sound and content.text_complete:
        # The language rung reads only the glyphs whose route cannot be verified.
        text = "\n".join(use.text for use in content.fonts if not use.sound)
    known = trust.vouch(content) if trust is not None else None
    if known is not None:
        outcome, line = known
        if outcome == _READS:
            return _Decision(Verdict.READABLE, (*readable.evidence, line), "language")
        return _Decision(Verdict.GARBLED, (line,), "language")
    _needs_text(content)
    from ..lang.langmodel import (
        judge,  # not before: a page of sound routes is judged by no language
    )

    # Stray controls and U+FFFD were weighed by the reader-signal rung; judge the words.
    words = _STRAY.sub(" ", language_sample(text))
    verdict = judge(words, model=model, lang=settings.lang)
    if verdict.passes is False:
        verdict = (_without_minor_bad_fonts(content, settings, model)
                   or _without_minor_failing_fonts(content, settings, model) or verdict)
    shape = not_running_words(words) if verdict.passes is False else None
    if shape is not None:
        return _Decision(Verdict.READABLE, (*readable.evidence, _shape_line(shape)), "language",
                         score=verdict.score)
    weak = _weak_ocr_layer(content, verdict, text)
    if weak is not None:
        return weak
    if trust is not None:
        earlier = trust.pooled(content)  # before this page joins the pool
        trust.remember(content)
    if verdict.passes is None or verdict.passes:
        odd = _odd_font(content, settings, model) or (
            _pooled_font(content, settings, model, trust, earlier) if trust is not None else None
        ) or _rare_letters(content, settings, model)
        if odd is not None:
            return odd
        detail = f"text reads as {verdict.lang}" if verdict.passes and verdict.lang else None
        evidence = readable.evidence + ((detail,) if detail else ())
        if verdict.passes and verdict.lang and trust is not None:
            trust.credit(content, _READS, verdict.lang, number)
        return _Decision(Verdict.READABLE, evidence, "language", score=verdict.score)
    from ..lang.textrepair import find_shift  # only a failed judgement needs the shift search

    shift = find_shift(text, model)
    if shift is not None:
        return _shift_found("the text reads as language once", shift, verdict.score)
    if trust is not None:
        trust.credit(content, _NO_LANGUAGE, verdict.reason, number)
    return _Decision(
        Verdict.GARBLED,
        (f"text is mapped but reads as no language the model knows ({verdict.reason})",),
        "language", score=verdict.score,
    )


def _expected_language(
    text: str, content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> _Decision:
    """`--lang`: a page whose routes are sound still fails when its running words are in
    another language, as asked; no shift is searched for (its map is sound)."""
    from ..lang.langmodel import judge, speaks

    _needs_text(content)
    words = _STRAY.sub(" ", language_sample(text))
    assert settings.lang is not None
    verdict = judge(words, model=model, lang=settings.lang)
    best = judge(words, model=model)
    other = verdict.passes is False or (best.passes is True and not speaks(best.lang,
                                                                          settings.lang))
    if other and not_running_words(words) is None:
        return _Decision(
            Verdict.GARBLED,
            (f"the text does not read as {settings.lang}, the language asked for "
             f"({best.reason if verdict.passes else verdict.reason})",),
            "language", score=verdict.score)
    return _Decision(Verdict.READABLE, (ALL_ROUTES,), "language", score=verdict.score)


def _shape_line(shape: str) -> str:
    """The evidence of text that reads as no language and is no prose either."""
    return (f"its text is not running words ({shape}): reading as no language is no evidence "
            "against its map")


def _sound_line(sound: list[FontUse], content: PageContent) -> str:
    """The evidence of a page the language rung does not judge."""
    from ..pdf.soundroute import sound_reason

    reasons = sorted({sound_reason(use.font) for use in sound})
    share = sum(use.glyphs for use in sound) / content.glyphs
    return (f"{share:.0%} of the glyphs drawn reach Unicode by a verified route "
            f"({'; '.join(reasons)}): not judged by language")


def _shift_found(what: str, shift: Any, score: float | None) -> _Decision:
    """`shifted`: `what` (ending in "once") reads right moved by the shift the search found."""
    return _Decision(
        Verdict.SHIFTED,
        (f"{what} shifted by {shift.describe()}", f"repaired sample: {shift.text[:60]!r}"),
        "shift", score=score, offset=shift.offset, repaired_sample=shift.text[:SAMPLE_LIMIT],
    )


def _without_minor_bad_fonts(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> LanguageJudgement | None:
    """The page's judgement without the fonts whose glyphs the font rung already counted bad,
    when together they draw no more than the bad-glyph share: a heading font with a broken
    map is allowed on a page of good body text (the contract's 10 % rule), so its letters
    must not fail the page through the language rung instead.

    When the bad fonts draw more than that share but their bad glyphs do not, the page is
    judged again with those glyphs blanked out of the text; only a pass counts then."""
    from ..lang.langmodel import judge

    if not _bad_within_limit(content, settings):
        return None
    bad = [use for use in content.fonts if use.bad_glyphs]
    if sum(u.glyphs for u in bad) <= settings.max_bad_glyphs * content.glyphs:
        rest = "\n".join(use.text for use in content.fonts if not use.bad_glyphs)
        again = judge(_STRAY.sub(" ", language_sample(rest)), model=model, lang=settings.lang)
        if again.passes is not False:
            return again
    # The bad glyphs of a font that draws most of the page (MuPDF's ToUnicode omits the glyphs
    # HarfBuzz substituted: lam forms inside Arabic words): readers print those codes as the
    # characters with their numbers, letters of another alphabet inside the words. They were
    # counted by the font rung; the words are judged without them.
    blanked = "\n".join(_bad_codes_blanked(use) if use.bad_glyphs else use.text
                         for use in content.fonts)
    again = judge(_STRAY.sub(" ", language_sample(blanked)), model=model, lang=settings.lang)
    return again if again.passes is True else None


def _without_minor_failing_fonts(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> LanguageJudgement | None:
    """The page's judgement without the unverified fonts whose own text reads as no language,
    when together they draw no more than the bad-glyph share.

    A minor font with a wrong map (a heading, a word a re-print mangled: `Фа@и?ия`) gives
    ordinary characters, so the font rung counts none of its glyphs bad; judged with the
    rest, its letters fail the whole page. The contract's 10 % rule allows such a font, as it
    allows one with unmapped glyphs: the rest of the page decides (the font is still judged
    alone, with its share, by the odd-font rung)."""
    from ..lang.langmodel import judge

    limit = settings.max_bad_glyphs * content.glyphs
    judged = [use for use in content.fonts if use.glyphs and not use.sound]
    minor: list[FontUse] = []
    drawn = 0
    for use in sorted(judged, key=lambda u: u.glyphs):
        if drawn + use.glyphs > limit:
            break
        if judge(_STRAY.sub(" ", use.text), model=model, lang=settings.lang).passes is False:
            minor.append(use)
            drawn += use.glyphs
    if not minor or len(minor) == len(judged):
        return None
    rest = "\n".join(use.text for use in judged if use not in minor)
    again = judge(_STRAY.sub(" ", language_sample(rest)), model=model, lang=settings.lang)
    return again if again.passes is not False else None


def _bad_within_limit(content: PageContent, settings: CheckSettings) -> bool:
    """Does the page draw bad glyphs, no more than the share the contract allows?"""
    bad = sum(use.bad_glyphs for use in content.fonts)
    return 0 < bad <= settings.max_bad_glyphs * content.glyphs


def _font_words(use: FontUse, blank_bad: bool) -> str:
    """The text a font drew, stray characters made spaces; with `blank_bad` (the page's bad
    glyphs within the limit), its bad codes' characters blanked too (see _bad_codes_blanked)."""
    return _STRAY.sub(" ", _bad_codes_blanked(use) if blank_bad and use.bad_glyphs else use.text)


def _bad_codes_blanked(use: FontUse) -> str:
    """The font's text with the characters its bad codes decode to made spaces.

    A character a good code of the same font also gives is kept: only what
    nothing but a bad code prints is blanked, so no good letter is lost.
    """
    font = use.font
    bad: set[str] = set()
    good: set[str] = set()
    for code in use.codes:
        if code > 0x10FFFF:
            continue
        chars = font.unicode.get(code, chr(code))
        (bad if font.is_bad_code(code) else good).add(chars)
    blanks = {ord(c): " " for c in bad - good if len(c) == 1}
    text = use.text.translate(blanks)
    for chars in bad - good:
        if len(chars) > 1:
            text = text.replace(chars, " ")
    return text


#: How far above its language's threshold an invisible OCR layer must score. OCR of the right
#: language scores like typed text (0.8 nats or more above it, noisy memos included); OCR run
#: in the wrong script or language only just clears it.
OCR_MARGIN = 0.4


#: Share of an OCR layer's words that may mix letters with digits or symbols ('гемеме4',
#: '{Не') before a layer that reads only moderately well is called OCR in the wrong script:
#: glyph shapes the OCR language lacks come out as digits and brackets. Right-language OCR,
#: even of a poor typewritten memo, has a few (e-mail addresses, OCR slips).
OCR_MIXED_WORDS = 0.25
#: Words an OCR layer must have before their mix is counted.
OCR_MIN_WORDS = 20
_OCR_TOKEN = re.compile(r"\S+")
_OCR_MIXED = re.compile(r"[^\W\d_][\d{}|\\$*@#%^&=+~<>\[\]]+[^\W\d_]"
                        r"|[^\W\d_]{2}[\d{}|\\$*@#%^&=+~<>\[\]]+$"
                        r"|^[\d{}|\\$*@#%^&=+~<>\[\]]+[^\W\d_]{2}")


def _mixed_ocr_words(text: str) -> tuple[int, int, list[str]]:
    """(words of two letters or more, those mixing letters with digits or symbols, examples)."""
    words = [t for t in _OCR_TOKEN.findall(text[:LANGUAGE_SAMPLE])
             if sum(ch.isalpha() for ch in t) >= 2]
    mixed = [t for t in words if _OCR_MIXED.search(t)]
    return len(words), len(mixed), mixed[:3]


def _weak_ocr_layer(
    content: PageContent, verdict: LanguageJudgement, text: str = ""
) -> _Decision | None:
    """An OCR layer (mostly invisible text) that barely reads: the wrong language was OCR'd."""
    if not verdict.passes or verdict.lang is None or content.invisible_glyphs * 2 <= content.glyphs:
        return None  # no OCR layer, or none with letters to judge (numbers only)
    if verdict.score >= verdict.threshold + OCR_MARGIN:
        if verdict.score >= verdict.threshold + 2 * OCR_MARGIN:
            return None
        words, mixed, examples = _mixed_ocr_words(text)
        if words < OCR_MIN_WORDS or mixed <= OCR_MIXED_WORDS * words:
            return None
        return _Decision(
            Verdict.GARBLED,
            (f"{mixed} of {words} words of the invisible OCR layer mix letters with digits or "
             f"symbols ({', '.join(map(repr, examples))}) and it reads only moderately as "
             f"{verdict.lang} ({verdict.score:.2f} nats per pair): OCR run in the wrong script, "
             "whose missing letter shapes came out as digits and brackets",),
            "language", score=verdict.score,
        )
    return _Decision(
        Verdict.GARBLED,
        (f"the invisible OCR layer reads only weakly as {verdict.lang} ({verdict.score:.2f} "
         f"nats per pair, {verdict.threshold + OCR_MARGIN:.2f} wanted of an OCR layer): OCR "
         "run in the wrong script or language",),
        "language", score=verdict.score,
    )


#: Words (runs of three or more letters) a font must draw before its text is judged alone:
#: fewer, and it is a math italic's variables or a symbol font's bullets, not prose.
MIN_FONT_WORDS = 4
_WORD = re.compile(r"[^\W\d_]{3,}")
_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def _odd_font(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> _Decision | None:
    """A font whose own text reads as no language, on a page that reads well as a whole.

    A heading font with a shifted or scrambled map can draw a third of a page,
    or half of it, while the other fonts carry the page-level judgement;
    judged alone, its words give it away. Only fonts above the bad-glyph
    threshold that draw enough words are judged, so math variables and
    symbol fonts stay out.
    """
    if len(content.fonts) < 2 or not content.glyphs:
        return None
    from ..lang.langmodel import judge

    allowed = _bad_within_limit(content, settings)
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        share = use.glyphs / content.glyphs
        if share <= settings.max_bad_glyphs or use.sound:
            continue  # too small to matter, or its route is sound
        words = _font_words(use, allowed)
        if len(_WORD.findall(words)) < MIN_FONT_WORDS:
            continue
        alone = judge(words, model=model, lang=settings.lang)
        # Too few letters to decide, from a map that also gives control characters (a
        # shifted map moves capitals and spaces below U+0020): the shift search may decide.
        declared_shift = (alone.passes is None and use.bad_glyphs > 0
                          and _CONTROLS.search(use.text) is not None)
        if alone.passes is not False and not declared_shift or not_running_words(words):
            continue
        name = f"font {use.font.name} ({share:.0%} of the glyphs drawn)"
        from ..lang.textrepair import find_shift

        shift = find_shift(use.text, model)
        if shift is None and declared_shift:
            continue
        if shift is not None:
            return _shift_found(f"{name} reads as language only once", shift, alone.score)
        return _Decision(
            Verdict.GARBLED,
            (f"{name}: its text is mapped but reads as no language ({alone.reason})",
             f"its text: {use.text[:60]!r}"),
            "language", score=alone.score,
        )
    return None


#: How far above its language's threshold (nats per pair) a font's own text must read for its
#: letter pairs to outweigh letters drawn at odd frequencies: real right-to-left text measured
#: 0.8 or more, permuted maps that passed 0.6 at most.
FLUENT_MARGIN = 0.7


def _rare_letters(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None
) -> _Decision | None:
    """Fonts of a right-to-left script whose most drawn letters are not the language's frequent
    ones (see :mod:`letterfreq`): a permuted map the letter pairs, read both ways, let pass.

    The frequencies come from the codes drawn and the fonts' maps. Fonts whose program or
    names already vouched for their map (the crosscheck rung) are not asked, nor a font whose
    own text reads fluently (a table of names draws letters at odd frequencies, and still reads
    as language); the fonts found wrong are weighed like bad glyphs, under the one limit.
    """
    if not content.glyphs:
        return None
    from ..lang.langmodel import judge
    from .letterfreq import agreement, letter_counts, may_check

    wrong = 0
    lines: list[str] = []
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        font = use.font
        if font.has_account or use.sound or not may_check(font):
            continue
        found = agreement(letter_counts(use.codes, font.unicode))
        if found is None or found.agrees:
            continue
        _needs_text(content)
        alone = judge(_STRAY.sub(" ", use.text), model=model, lang=settings.lang)
        if alone.passes and alone.margin >= FLUENT_MARGIN:
            continue
        wrong += use.glyphs
        lines.append(f"font {font.name} ({use.glyphs / content.glyphs:.0%} of the glyphs "
                     f"drawn): {found.describe()}")
    if not wrong or (wrong + content.bad_glyphs) / content.glyphs <= settings.max_bad_glyphs:
        return None
    return _Decision(Verdict.GARBLED, tuple(lines), "language")


#: Below this many words of its own on a page, a font's text is judged together with what it
#: drew on earlier pages: a scrambled map is the same on every page, and a slide's or a form's
#: few words can read as some language by chance.
POOL_WORDS = 40


def _has_words(text: str, count: int) -> bool:
    """Does `text` hold at least `count` words? Stops reading at the count (long pages)."""
    return sum(1 for _ in itertools.islice(_WORD.finditer(text), count)) >= count


def _pooled_font(
    content: PageContent, settings: CheckSettings, model: LetterPairModel | None,
    trust: FontTrust, earlier: dict[Any, str],
) -> _Decision | None:
    """A font drawing a thin share of words here whose text over the document reads as no
    language (see :meth:`FontTrust.pooled`)."""
    if not earlier or not content.glyphs:
        return None
    from ..lang.langmodel import judge

    allowed = _bad_within_limit(content, settings)
    for use in sorted(content.fonts, key=lambda u: -u.glyphs):
        before = earlier.get(use.font)
        share = use.glyphs / content.glyphs
        if before is None or share <= settings.max_bad_glyphs or use.sound:
            continue
        if _has_words(use.text, POOL_WORDS):
            continue  # enough words to have been judged on this page alone (a cheap look)
        words = _STRAY.sub(" ", before) + "\n" + _font_words(use, allowed)
        if len(_WORD.findall(words)) < MIN_FONT_WORDS:
            continue
        pooled = judge(words, model=model, lang=settings.lang)
        if pooled.passes is not False or not_running_words(words):
            if pooled.passes and len(words) >= FontTrust.POOL_CHARS:
                trust.pool_reads(use.font)
            continue
        from ..lang.textrepair import find_shift

        name = f"font {use.font.name} ({share:.0%} of the glyphs drawn)"
        shift = find_shift(before + "\n" + use.text, model)
        if shift is not None:
            return _shift_found(
                f"{name}: its text on this and earlier pages reads as language only once",
                shift, pooled.score)
        return _Decision(
            Verdict.GARBLED,
            (f"{name}: its text on this and earlier pages is mapped but reads as no language "
             f"({pooled.reason})", f"its text here: {use.text[:60]!r}"),
            "language", score=pooled.score,
        )
    return None


#: The two outcomes of the language rung that :class:`FontTrust` remembers.
_READS, _NO_LANGUAGE = "reads", "no language"


class FontTrust:
    """What the language rung found for the fonts of earlier pages of one document.

    The language rung judges the text a page's fonts give through their
    declared maps. A font's map is the same on every page, so once the text
    of pages a font dominates has read as language (or as no language, with
    no shift that repairs it) on enough glyphs, a later page drawn by the
    same maps takes the same outcome without judging it again. Each page
    still gets its own verdict from its own static facts and reader signals;
    only the language judgement (and the shift search after a failed one) is
    reused, and the evidence says so.

    Fonts that draw a minority of a page (bold words, a symbol font) prove
    nothing on their own; they ride along only within what judged pages
    showed: a later page may reuse the outcome when its majority is drawn by
    fonts that earned it, and each minority font draws no larger a share of
    it than on some judged page with that outcome (seen on two pages at
    least).

    A page is judged afresh when anything on it could read differently from
    the pages that earned the outcome: a font outside those bounds, fonts
    with different outcomes, any glyph without a usable route, invisible
    text (an OCR layer, whose quality varies page by page), ActualText (text
    that replaces the fonts'), or text we could not decode ourselves.
    """

    #: Glyphs a font must have drawn on pages it dominated that had the outcome...
    MIN_GLYPHS = 2 * LANGUAGE_SAMPLE
    #: ... over at least this many such pages (minority fonts: pages they were seen on).
    MIN_PAGES = 2

    def __init__(self) -> None:
        # font -> outcome -> [glyphs, pages, details (languages or reasons), last page]
        self._seen: dict[Any, dict[str, list[Any]]] = {}
        # font -> outcome -> [pages, largest share of a page's glyphs, last page]
        self._minor: dict[Any, dict[str, list[Any]]] = {}
        # font -> the latest text it drew on earlier judged pages (bounded), for _pooled_font
        self._texts: dict[Any, str] = {}
        # fonts whose pooled text already read as language over a full sample
        self._pool_read: set[Any] = set()
        #: Did the latest page get its outcome from earlier pages? The next page is then
        #: walked lean (see PageContent.text_cut): most likely it is vouched for too.
        self.vouched_last = False

    #: Characters of a font's earlier text kept for pooled judgements.
    POOL_CHARS = LANGUAGE_SAMPLE

    def pooled(self, content: PageContent) -> dict[Any, str]:
        """Earlier pages' text of this page's fonts that still need a pooled judgement."""
        out: dict[Any, str] = {}
        for use in content.fonts:
            text = self._texts.get(use.font)
            if text and use.font not in self._pool_read:
                out[use.font] = text
        return out

    def remember(self, content: PageContent) -> None:
        """Add the text each font drew on a judged page to its pool (the latest kept)."""
        if not content.text_complete:
            return
        for use in content.fonts:
            if use.font in self._pool_read or not use.text.strip():
                continue
            before = self._texts.get(use.font, "")
            self._texts[use.font] = (before + "\n" + use.text)[-self.POOL_CHARS:]

    def pool_reads(self, font: Any) -> None:
        """A font whose pooled text read as language over a full sample: judged no more."""
        self._pool_read.add(font)
        self._texts.pop(font, None)

    def credit(self, content: PageContent, outcome: str, detail: str, number: int) -> None:
        """Record the fonts of a page whose judged text had this language outcome."""
        if not self._eligible(content):
            return
        coded = sum(use.coded for use in content.fonts)
        for use in content.fonts:
            if not use.coded:
                continue
            if use.coded * 2 > coded:
                entry = self._seen.setdefault(use.font, {}).setdefault(
                    outcome, [0, 0, set(), 0])
                entry[0] += use.coded
                entry[1] += 1
                if len(entry[2]) < 4:
                    entry[2].add(detail)
                entry[3] = number
            else:
                minor = self._minor.setdefault(use.font, {}).setdefault(outcome, [0, 0.0, 0])
                minor[0] += 1
                minor[1] = max(minor[1], use.coded / coded)
                minor[2] = number

    def vouch(self, content: PageContent) -> tuple[str, str] | None:
        """(outcome, evidence line) when the page's fonts earned one outcome, else None."""
        found = self._vouch(content)
        self.vouched_last = found is not None
        return found

    def _vouch(self, content: PageContent) -> tuple[str, str] | None:
        if not self._eligible(content):
            return None
        coded = sum(use.coded for use in content.fonts)
        outcomes: set[str] = set()
        details: set[str] = set()
        last = 0
        riding = 0  # glyphs of minority fonts
        for use in content.fonts:
            if not use.glyphs:
                continue
            for table in (self._seen, self._minor):
                if len(table.get(use.font, {})) > 1:
                    return None  # read both ways on some pages
            seen = self._seen.get(use.font, {})
            entry = next(iter(seen.values()), None)
            if (entry is not None and entry[0] >= self.MIN_GLYPHS
                    and entry[1] >= self.MIN_PAGES and use.coded * 2 > coded):
                outcomes |= set(seen)
                details |= entry[2]
                last = max(last, entry[3])
                continue
            minor_seen = self._minor.get(use.font, {})
            minor = next(iter(minor_seen.values()), None)
            if (minor is None or minor[0] < self.MIN_PAGES or not coded
                    or use.coded / coded > minor[1]):
                return None
            outcomes |= set(minor_seen)
            last = max(last, minor[2])
            riding += use.coded
        if len(outcomes) != 1 or not details or riding * 2 >= coded:
            return None
        outcome = outcomes.pop()
        said = "/".join(sorted(details))
        earlier = (f"drawn by the same fonts as earlier pages that did (up to page {last}), "
                   "not judged again")
        if outcome == _READS:
            return outcome, f"text reads as {said}: {earlier}"
        return outcome, (f"text is mapped but reads as no language the model knows ({said}): "
                         f"{earlier}")

    @staticmethod
    def _eligible(content: PageContent) -> bool:
        return (content.text_complete and not content.bad_glyphs
                and not content.invisible_glyphs and not content.actual_text_glyphs)


_STRAY = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd\uffff\ue000-\uf8ff\U000f0000-\U0010ffff]")


def language_sample(text: str, limit: int = LANGUAGE_SAMPLE) -> str:
    """Up to `limit` characters from the start, middle and end of a long page, cut at spaces."""
    if len(text) <= limit:
        return text
    third = limit // 3
    middle = len(text) // 2 - third // 2
    parts = (text[:third], text[middle:middle + third], text[-third:])
    return "\n".join(_trim_to_words(p) for p in parts)


def _trim_to_words(part: str) -> str:
    first, last = part.find(" "), part.rfind(" ")
    return part[first + 1:last] if 0 <= first < last else part


def _load_model(settings: CheckSettings) -> LetterPairModel | None:
    if settings.model is None:
        return None
    from ..lang.langmodel import LetterPairModel

    return LetterPairModel.load(settings.model)
