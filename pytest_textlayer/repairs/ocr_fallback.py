"""What OCR brings to a repair and which language it reads in.

Glyph OCR's findings may drop an order hypothesis the glyphs contradict or
condemn a font's whole map (its pages then go to OCRmyPDF); the Tesseract
language comes from the user, the document's readable text, or a first OCR
pass over a band of the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .ocr import TESSERACT_CODES
from .plan import Plan, base_letters, spec_text

#: Readings of a font's mapped letters that must disagree with its map to condemn it.
CONTRADICTION = 0.25
#: Fewest readings of mapped letters that such a judgement is made on.
MIN_CONTRADICTION_READINGS = 20


#: Sources that read a font by an order hypothesis (the codes' own numbers, moved or looked up).
_ORDER_SOURCES = frozenset({"offset", "mac-standard", "codes"})
#: Codes both an order hypothesis and glyph OCR map, at least, before OCR may overrule it.
MIN_OVERRULE_CODES = 4
#: Share of those codes on whose base letter the two disagree that overrules the order.
OVERRULE_SHARE = 0.5


def overrule_order(plan: Plan, found: Any) -> None:
    """Drop an order hypothesis the glyphs themselves contradict, so OCR's map replaces it.

    The letter-pair model accepts an order on a short text now and then (an
    italic phrase of thirty glyphs read through glyph ids - 17): when OCR
    reads most of the codes both map as other letters, the order was a
    coincidence, and all its codes go, not only those OCR saw.
    """
    if not plan.sources or not set(plan.sources) <= _ORDER_SOURCES:
        return
    compared = disagree = 0
    for code, text in found.mapping.items():
        now = plan.mapping.get(code)
        if now is None or len(text) != 1 or not text.isalnum():
            continue
        compared += 1
        disagree += base_letters(text) != base_letters(now)
    if compared < MIN_OVERRULE_CODES or disagree / compared <= OVERRULE_SHARE:
        return
    plan.mapping.clear()
    plan.unverified.clear()
    plan.sources.clear()
    plan.shift = None
    plan.details[:] = [f"an order hypothesis dropped: the glyphs read otherwise on "
                        f"{disagree} of {compared} codes"]


def contradiction(plan: Plan, found: Any) -> float | None:
    """Share of OCR readings of the font's mapped letters that read as another letter.

    A font whose declared map OCR contradicts draws the same code with two
    shapes, or its map is simply wrong for codes that look fine (letters
    named one thing, drawn as another): no ToUnicode can describe it, so its
    pages need whole-page OCR. None when there is no such evidence.
    """
    spec = spec_text(plan)
    agree = disagree = 0
    for code, readings in found.readings.items():
        text = spec.get(code)
        if code in plan.mapping or text is None or len(text) != 1 or not text.isalpha():
            continue
        for reading in readings:
            if len(reading) != 1 or not reading.isalpha():
                continue
            if base_letters(reading) == base_letters(text):
                agree += 1
            else:
                disagree += 1
    total = agree + disagree
    if total < MIN_CONTRADICTION_READINGS or disagree / total <= CONTRADICTION:
        return None
    return disagree / total


#: Installed packs that stand in for a detected language of the same script when its own is missing.
_SCRIPT_FALLBACK = {
    **dict.fromkeys(("rus", "ukr", "bel", "bul", "mkd", "srp"), "rus"),
    "ell": "ell",
}


def _installed_or_fallback(code: str, installed: frozenset[str]) -> tuple[str, str | None]:
    """``code`` when installed, else an installed pack of the same script, with a note.

    Latin-script languages fall back to English, Cyrillic to Russian. A
    script with no installed pack at all is MissingOCR: OCR in another
    script would read nothing but garbage.
    """
    from . import ocr

    parts = code.split("+")
    missing = [p for p in parts if p not in installed]
    if not missing:
        return code, None
    kept = [p for p in parts if p in installed]
    for part in missing:
        stand_in = _SCRIPT_FALLBACK.get(part, "eng" if part in _LATIN else None)
        if stand_in is None or stand_in not in installed:
            raise ocr.missing_packs(missing)
        kept.append(stand_in)
    chosen = "+".join(dict.fromkeys(kept))
    packs = " ".join(ocr.debian_package(p) for p in missing)
    return (
        chosen,
        f"language pack {'+'.join(missing)} is missing; used {chosen} ({packs} reads it better)",
    )


#: ISO codes of the languages in TESSERACT_CODES that are not written in the Latin script.
_NOT_LATIN = (
    "ru",
    "uk",
    "be",
    "bg",
    "mk",
    "sr",
    "el",
    "ar",
    "fa",
    "he",
    "hi",
    "th",
    "zh",
    "ja",
    "ko",
)


#: Tesseract packs of languages written in the Latin script.
_LATIN = frozenset(c for iso, c in TESSERACT_CODES.items() if iso not in _NOT_LATIN)


#: Fewest letters of readable text that name the document's language. A severed Hebrew
#: page of LibreOffice's whose italic phrase (19 glyphs) an order hypothesis read as
#: something like Spanish had every other font read in Spanish; with less text than this,
#: the glyphs' own reading decides (:func:`.glyphlang.choose_lang`).
MIN_NAMING_LETTERS = 60
#: Fewest letters of readable text that confirm the language the document declares.
MIN_AGREEING_LETTERS = 12


def _letters(text: str) -> int:
    return sum(1 for ch in text if ch.isalpha())


def choose_lang(
    lang: str | None, readable_text: str, page_images: Iterator[Any], notes: list[str],
    declared: str | None = None,
) -> tuple[str, str]:
    """Tesseract language and how it was chosen: given, from the text, from OSD, or eng.

    A language the user gives must be installed (MissingOCR otherwise); a
    detected one may stand in with an installed pack of its script, noted.
    Readable text shorter than :data:`MIN_NAMING_LETTERS` names the language
    only when it is the one the document declares (``declared``, an installed
    pack): two weak witnesses that agree (a browser's heading and its page's
    ``lang``).
    """
    from ..lang import langmodel
    from . import ocr

    if lang:
        code = ocr.tesseract_lang(lang)
        ocr.require(code)
        return code, "given"
    installed = ocr.tesseract_info().languages
    letters = _letters(readable_text)
    if declared and MIN_AGREEING_LETTERS <= letters < MIN_NAMING_LETTERS:
        named = langmodel.best_language(readable_text) or ""
        if ocr.pack_of(named.split("+")[0]) == declared:
            return declared, "from the document's readable text and declared language"
    if letters >= MIN_NAMING_LETTERS:
        best = langmodel.best_language(readable_text)
        if best:
            codes = [ocr.pack_of(p) for p in best.split("+")]
            known = [c for c in codes if c]
            if known:
                code, note = _installed_or_fallback("+".join(dict.fromkeys(known)), installed)
                if note:
                    notes.append(note)
                return code, "from the document's readable text"
    for page in page_images:
        image, top = _text_band(page)
        script = ocr.detect_script(image) or "eng"
        ocr.require(script)
        # A first pass in the script's default language, then the model names the language;
        # when that is the script's own language, glyph OCR uses the band's reading too.
        chars = ocr.recognise(image, script)
        ocr.remember_band(page, script, top, top + image.height, chars)
        best = langmodel.best_language(ocr.chars_text(chars))
        found = ocr.pack_of((best or "").split("+")[0])
        if found and found in installed:
            return found, "from a first OCR pass of the page"
        return script, "from Tesseract's script detection"
    return "eng", "default"


#: Height of the band of text the language is guessed from, in pixels at 300 dpi (a third
#: of an A4 page's text): enough words to name the language, a third of the time of a page.
LANG_BAND = 1000


def _text_band(image: Any) -> tuple[Any, int]:
    """The first :data:`LANG_BAND` pixels of the page's inked area, full width, and its top."""
    ink = image.point(lambda v: 255 if v < 128 else 0).getbbox()
    if ink is None:
        return image, 0
    top = ink[1]
    return image.crop((0, top, image.width, min(image.height, top + LANG_BAND))), top


def page_images(data: bytes, indices: list[int]) -> Iterator[Any]:
    import pypdfium2

    from .pageglyphs import render_gray

    doc = pypdfium2.PdfDocument(data)
    try:
        for index in indices:
            yield render_gray(doc[index], 300 / 72)
    finally:
        doc.close()
