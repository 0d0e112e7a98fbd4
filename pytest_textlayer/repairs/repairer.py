"""Repair a PDF's text layer: the right /ToUnicode where the file holds the answer, OCR elsewhere.

The order is the order of cost to the document:

1. classify IN; for every font that draws glyphs without a usable route,
   build a map from the best source (:mod:`.recover`: the embedded
   program's tables, an order hypothesis the letter-pair model accepts, the
   glyphs read by Tesseract) and write it as a /ToUnicode — the page keeps
   its vector content, only a small stream is added. Before OCR, the
   document settles the fonts with too little text to judge alone: the
   offset most shifted fonts read under, or their own program's reading
   when the rest of the document's programs overrule their maps
   (:mod:`.settle`);
2. classify the result; pages still not readable, and pages that are only
   images, go through OCRmyPDF (``--force-ocr`` for visible garbage, plain
   OCR for images), page by page, so readable pages are never rasterised;
3. classify OUT again: the report's verdicts are those of the file written.

OUT is written to a temporary file beside it and renamed into place only
when complete; IN is only read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import InputError, MissingOCR, TextLayerError, UsageError
from ..model import DocumentReport, PageReport, Verdict
from ..settings import CheckSettings
from .aswritten import choices_as_written, ligatures_as_written, width
from .fontmap import recover_plan
from .ocr_fallback import choose_lang, contradiction, overrule_order, page_images
from .outfile import check_paths, pdf_bytes, write_atomically
from .plan import font_plans, spec_text
from .repair_report import FontRepair, PageRepair, RepairReport
from .settle import settle_with_document

OCR_MODES = ("auto", "never", "force")


def repair(
    in_pdf: str | os.PathLike[str],
    out_pdf: str | os.PathLike[str],
    *,
    ocr: str = "auto",
    lang: str | None = None,
    settings: CheckSettings | None = None,
) -> RepairReport:
    """Write a copy of ``in_pdf`` whose text layer reads right, as far as can be done.

    ``ocr``: ``"auto"`` (OCR only what nothing else repairs), ``"never"``
    (no Tesseract at all), ``"force"`` (every page not OK in IN goes through
    OCRmyPDF, even if a /ToUnicode made it readable). ``lang``: the
    document's language (ISO 639-1 or Tesseract code) for OCR; by default it
    comes from the document's readable text, else Tesseract's script
    detection, else English.

    Raises InputError (unreadable, encrypted or damaged IN), UsageError
    (bad arguments, OUT == IN, unwritable OUT) and MissingOCR (OCR needed
    but Tesseract or the language pack is missing). Nothing is written then.
    """
    from ..judge.classifier import classify_or_raise
    from ..lang import langmodel
    from ..pdf.fontprogram import forget_programs
    from ..pdf.source import open_pikepdf, read_source
    from . import ocr as ocrlib
    from . import tounicode_writer

    if ocr not in OCR_MODES:
        raise UsageError(f"--ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    settings = settings or CheckSettings()
    if lang is not None:
        try:
            ocrlib.tesseract_lang(lang)
        except ValueError as exc:
            raise UsageError(f"--lang: {exc}") from None
    src, dst = check_paths(in_pdf, out_pdf)
    source = read_source(src)
    before = classify_or_raise(source.data, settings=settings, name=str(src))
    pdf = open_pikepdf(source)
    keep: list[Any] = []
    try:
        return _repair_open(
            pdf,
            source.data,
            before,
            src,
            dst,
            ocr,
            lang,
            settings,
            keep,
            langmodel=langmodel,
            ocrlib=ocrlib,
            writer=tounicode_writer,
            classify=classify_or_raise,
        )
    except (TextLayerError, OSError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged file the checks let through: one line
        problem = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        raise InputError(
            str(src),
            f"cannot be repaired ({problem}): a damaged file, or a pytest-textlayer bug to report",
        ) from exc
    finally:
        forget_programs()  # the font programs kept while this document was open
        pdf.close()
        for other in keep:
            other.close()


def _repair_open(
    pdf: Any,
    data: bytes,
    before: DocumentReport,
    src: Path,
    dst: Path,
    ocr: str,
    lang: str | None,
    settings: CheckSettings,
    keep: list[Any],
    *,
    langmodel: Any,
    ocrlib: Any,
    writer: Any,
    classify: Any,
) -> RepairReport:
    from . import fontusage, glyphlang, glyphocr

    bad_before = {p.number - 1 for p in before.pages if not p.ok}
    model = langmodel.reference_model()
    model_lang = settings.lang
    plans = font_plans(pdf, bad_before)
    notes: list[str] = []
    for plan in plans:
        plan.on_bad_page = bool(bad_before & set(plan.usage.pages))
        recover_plan(plan, model, model_lang, plan.on_bad_page)
    settle_with_document(plans, model, model_lang)
    ocr_desc: str | None = None
    tess_lang: str | None = None
    #: Pages drawn by a font whose own map the glyphs contradict: no ToUnicode can fix those.
    contradicted: set[int] = set()
    open_plans = [p for p in plans if p.missing() or p.unverified]
    if open_plans and ocr != "never":
        try:
            info = ocrlib.tesseract_info()
            readable = "\n".join(
                [p.sample for p in before.pages if p.verdict is Verdict.READABLE]
                + [p.usage.text(p.mapping) for p in plans if p.mapping]
            )
            pages = sorted({i for p in open_plans for i in p.usage.pages})
            declared = glyphlang.declared_pack(pdf)
            tess_lang, how = choose_lang(lang, readable, iter(()), notes, declared)
            if how == "default":  # nothing names it: glyph OCR's first pass, else the page's
                tess_lang, how = glyphlang.choose_lang(
                    data, [p.usage for p in open_plans], declared=declared
                ) or choose_lang(lang, readable, page_images(data, pages[:1]), notes)
            ocr_desc = ocrlib.describe(info, tess_lang, how, glyphs=True)
            found = glyphocr.from_glyphs(data, [p.usage for p in open_plans], tess_lang)
            for plan in open_plans:
                if plan.usage.key in found:
                    overrule_order(plan, found[plan.usage.key])
                    plan.correct(found[plan.usage.key])
                    plan.add(found[plan.usage.key])
                    share = contradiction(plan, found[plan.usage.key])
                    if share is not None:
                        contradicted.update(plan.usage.pages)
                        notes.append(
                            f"font {plan.usage.name}: OCR reads {share:.0%} of its mapped letters"
                            " as other letters; its pages are OCR'd whole"
                        )
        except MissingOCR:
            if ocr == "force":
                raise
            notes.append("glyph OCR skipped: Tesseract or the language pack is missing")
    fonts: list[FontRepair] = []
    repaired_pages: dict[int, set[str]] = {}
    attachments = []
    # A font that also draws where the usage walk does not read keeps a map of its own.
    beyond = fontusage.fonts_beyond_pages(pdf) if sum(bool(p.mapping) for p in plans) > 1 \
        else set()
    for plan in plans:
        if not plan.mapping:
            continue
        full = {**spec_text(plan), **choices_as_written(plan, ligatures_as_written(plan))}
        drawn = None if plan.usage.key in beyond else frozenset(plan.usage.codes())
        attachments.append(writer.Attachment(plan.usage.font, full, width(plan), drawn))
        total, bad, fixed = plan.glyph_counts()
        if not plan.bad:
            bad = fixed = total
        fonts.append(
            FontRepair(
                plan.usage.name,
                plan.sources[0],
                tuple(dict.fromkeys(plan.sources)),
                total,
                bad,
                fixed,
                tuple(i + 1 for i in sorted(plan.usage.pages)),
                "; ".join(plan.details),
            )
        )
        for index in plan.usage.pages:
            repaired_pages.setdefault(index, set()).update(plan.sources)

    writer.attach_all(pdf, attachments)
    repaired = pdf_bytes(pdf) if fonts else None
    try:
        middle = classify(repaired, settings=settings, name=str(dst)) if repaired else before
    except InputError as exc:  # as write_atomically says it of a save it cannot read again
        raise InputError(str(src), f"damaged PDF: cannot be rewritten: {exc.problem}") from None
    todo: dict[int, str] = {}
    for page in middle.pages:
        index = page.number - 1
        forced = (ocr == "force" and index in bad_before) or index in contradicted
        needed = not page.ok and ocr != "never" and page.verdict is not Verdict.BLANK
        if forced or needed:
            todo[index] = "plain" if page.verdict is Verdict.ABSENT else "force"
    if todo:
        if tess_lang is None:
            info = ocrlib.tesseract_info()
            readable = "\n".join(p.sample for p in middle.pages if p.verdict is Verdict.READABLE)
            images = page_images(pdf_bytes(pdf), sorted(todo)[:1])
            tess_lang, how = choose_lang(lang, readable, images, notes)
            ocr_desc = ocrlib.describe(info, tess_lang, how)
        keep.extend(ocrlib.ocr_pages(pdf, todo, tess_lang))
    # Nothing changed: OUT is IN, byte for byte, not a rewrite of it. OUT is classified
    # before it takes its name: one that cannot be read again is not written. Without OCR,
    # OUT is the bytes ``middle`` classified: that classification is OUT's.
    as_classified = repaired is not None and not todo
    same = repaired if as_classified else (None if fonts or todo else data)
    written: list[DocumentReport] = []

    def verify(path: Path) -> None:
        written.append(middle if as_classified else
                       classify(str(path), settings=settings, name=str(dst)))

    write_atomically(pdf, dst, src, same=same, verify=verify)
    after = written[0]
    story = tuple(
        _page_repair(b, a, todo, repaired_pages)
        for b, a in zip(before.pages, after.pages, strict=True)
    )
    return RepairReport(
        str(src), str(dst), story, tuple(fonts), ocr_desc, ocr, True, after, tuple(notes)
    )


def _page_repair(
    before: PageReport, after: PageReport, todo: Mapping[int, str], repaired: Mapping[int, set[str]]
) -> PageRepair:
    index = before.number - 1
    sources: tuple[str, ...]
    if index in todo:
        action, sources = "ocr", ("ocrmypdf-" + todo[index],)
    elif index in repaired:
        action, sources = "tounicode", tuple(sorted(repaired[index]))
    else:
        action, sources = "unchanged", ()
    return PageRepair(
        before.number,
        action,
        sources,
        before.verdict,
        after.verdict,
        after.ok,
        before.sample,
        after.sample,
        after.evidence,
    )


__all__ = ["repair"]
