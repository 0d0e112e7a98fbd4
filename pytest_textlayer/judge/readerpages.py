"""Pages judged on PDFium's text alone: where qpdf cannot read the file, or one page of it.

qpdf refuses files that viewers open (a missing or damaged /Root, an
encryption PDFium undoes with the empty password) and content streams it
cannot decode. PDFium reads many of them, and one bad page must never cost
the others. Such a page is judged on the reader's own signals, as the
contract allows: ``undecodable`` when PDFium reports a map error, U+FFFD or
a control character for more than the bad-glyph share of its characters,
``garbled`` when private-use characters pass that share, ``readable``
otherwise; with no text, ``absent`` when it draws images, ``blank`` when
the whole file was read by PDFium and the page draws nothing. A page whose
content qpdf could not read and on which PDFium finds no text either is
``undecodable``: nothing shows that it is empty. The evidence says which
reader failed, why, and what PDFium recovered.
"""

from __future__ import annotations

import re
from typing import Any

from ..model import PageReport, Verdict
from ..pdf.readers import pdfium_char_counts
from ..pdf.source import one_line
from ..settings import CheckSettings

#: Characters of a sample kept in the report.
SAMPLE_LIMIT = 240
#: What the evidence says of a page PDFium cannot lay out (see :func:`unloaded`).
_UNLOADED = "PDFium cannot read the page either"
#: Private Use characters standing alone are symbols (bullets), not letters lost.
_ALONE_PUA = re.compile("(?<![^\\s])[\ue000-\uf8ff](?![^\\s])")


def judge_page(doc: Any, index: int, settings: CheckSettings, why: str, *,
               page_unreadable: bool) -> PageReport:
    """The verdict on page ``index`` from PDFium's text (``doc`` None: PDFium could not open
    the file). ``why`` is qpdf's reason; ``page_unreadable``: qpdf read the file but not
    this page's content, so a page without text is no evidence of an empty page."""
    number = index + 1
    if doc is None:
        return _report(number, Verdict.UNDECODABLE, settings,
                       (f"{why}; PDFium cannot open the file either",), "")
    try:
        chars, bad, pua, images, text = _read(doc, index)
    except Exception as exc:  # noqa: BLE001 - PDFium could not lay the page out
        return _report(number, Verdict.UNDECODABLE, settings,
                       (f"{why}; {_UNLOADED} ({one_line(exc)})",), "")
    if not chars:
        if images:
            verdict, found = Verdict.ABSENT, f"no text, {images} image(s): only OCR can read it"
        elif page_unreadable:
            verdict, found = Verdict.UNDECODABLE, "no text either, so nothing shows it is empty"
        else:
            verdict, found = Verdict.BLANK, "nothing that carries text"
        return _report(number, verdict, settings, (f"{why}; PDFium reads the page: {found}",),
                       text)
    read = f"{why}; judged on PDFium's text alone: {chars} characters"
    limit = settings.max_bad_glyphs
    if bad > limit * chars:
        return _report(number, Verdict.UNDECODABLE, settings, (
            f"{read}, {bad} of them without a Unicode map (map errors, U+FFFD, controls)",),
            text, unmapped=bad)
    if pua > limit * chars:
        return _report(number, Verdict.GARBLED, settings, (
            f"{read}, {pua} of them in the Private Use Area",), text)
    return _report(number, Verdict.READABLE, settings,
                   (f"{read}, {bad} without a Unicode map",), text, unmapped=bad)


def unloaded(report: PageReport) -> bool:
    """Is this the report of a page PDFium could not lay out (no reader read anything)?"""
    return report.decided_by == "readers" and _UNLOADED in report.evidence[0]


def _read(doc: Any, index: int) -> tuple[int, int, int, int, str]:
    """(characters drawn, unmapped ones, private-use ones, images, text) of one page."""
    import pypdfium2.raw as raw

    page = doc[index]
    try:
        images = sum(1 for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=2))
        textpage = page.get_textpage()
        try:
            chars, bad, _errors = pdfium_char_counts(textpage)
            text = textpage.get_text_range() if chars else ""
        finally:
            textpage.close()
    finally:
        page.close()
    text = text.replace("\r\n", "\n").replace("\x02", "")
    pua = sum(1 for c in text if 0xE000 <= ord(c) <= 0xF8FF) - len(_ALONE_PUA.findall(text))
    return chars, bad, max(pua, 0), images, text


def _report(number: int, verdict: Verdict, settings: CheckSettings, evidence: tuple[str, ...],
            text: str, *, unmapped: int = 0) -> PageReport:
    return PageReport(number=number, verdict=verdict, ok=settings.is_ok(verdict),
                      evidence=evidence, unmapped_glyphs=unmapped,
                      sample=" ".join(text.split())[:SAMPLE_LIMIT], decided_by="readers")


__all__ = ["judge_page", "unloaded"]
