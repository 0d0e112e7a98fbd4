"""Source c of :mod:`.recover`: read a broken font's glyphs on the page and vote per code.

The page is rendered with PDFium, which also gives every glyph's box; the
glyphs are paired with the codes the content stream draws
(:mod:`.pageglyphs`), Tesseract reads the render (word and character boxes),
each glyph takes what was read in its box (:mod:`.glyphreading`), and every
occurrence of a code in the document votes (:func:`vote`): one misread does
not win, and codes with too few or conflicting votes stay unmapped rather
than guessed (:func:`from_glyphs`). This module owns the driver, the vote
and the reading of one page; the language is chosen in :mod:`.glyphlang`,
whose first pass this module keeps for the driver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .fontusage import FontUsage
from .glyphreading import FALLBACK_CONF, commonest, ocr_words, one_to_one, read_glyphs
from .pageglyphs import (
    Glyph,
    PageGlyphs,
    glyph_words,
    mark_inkless,
    page_names,
    pdfium_glyphs,
    render_gray,
)
from .recover import Recovery, coverage, usable_text

#: Votes a code needs before OCR's reading of it is believed.
MIN_VOTES = 2
#: Share of a code's votes the winning reading must have; below it the code stays unmapped.
MIN_AGREEMENT = 0.7
#: A code drawn once in the whole document is believed on one vote only above this confidence.
SINGLE_VOTE_CONF = 90.0


def vote(
    readings: Mapping[int, list[tuple[str, float]]], counts: Mapping[int, int]
) -> dict[int, str]:
    """The reading each code gets: enough votes that agree, or nothing."""
    import unicodedata

    out: dict[int, str] = {}
    for code, all_seen in readings.items():
        # Readings paired letter by letter outrank those placed by position (capped at
        # FALLBACK_CONF): a drifted box must not outvote the words it was read in.
        seen = [r for r in all_seen if r[1] > FALLBACK_CONF] or list(all_seen)
        # Readings that differ only in compatibility form (µ and μ, ﬁ and fi) are one
        # reading, written in its compatibility-decomposed form (μ, fi).
        tally = Counter(unicodedata.normalize("NFKC", text) for text, _ in seen)
        key, n = tally.most_common(1)[0]
        forms = Counter(t for t, _ in seen if unicodedata.normalize("NFKC", t) == key)
        text = key
        if n / len(seen) < MIN_AGREEMENT or not usable_text(text.strip() or text):
            continue
        confident = max(c for t, c in seen if t in forms) >= SINGLE_VOTE_CONF
        # Every reading paired inside its word agrees: one is enough, however often the
        # code is drawn (its other occurrences sat in words OCR split differently).
        unanimous = n == len(seen) and any(c > FALLBACK_CONF for _, c in seen)
        # One reading of a glyph drawn once is believed only for a single character:
        # two letters from one box are more often a neighbour swallowed than a ligature.
        single = (counts.get(code, 0) == 1 or unanimous) and confident and len(text) == 1
        if n >= MIN_VOTES or single:
            out[code] = text
    return out


#: Readings after which a code is settled and pages drawing only settled codes are not OCR'd.
SETTLED_VOTES = 5


def _settled(seen: list[tuple[str, float]]) -> bool:
    """Enough agreeing readings; or so many that more would not change the outcome."""
    if len(seen) < SETTLED_VOTES:
        return False
    if len(seen) >= 3 * SETTLED_VOTES:
        return True
    top = Counter(t for t, _ in seen).most_common(1)[0][1]
    return top / len(seen) >= 0.9


def read_page(
    image: Any,
    glyphs: Mapping[tuple[int, int], list[Glyph]],
    readings: Mapping[tuple[int, int], Mapping[int, list[tuple[str, float]]]],
    alternatives: Mapping[tuple[int, int], dict[int, Counter[str]]],
    lang: str,
) -> Iterator[tuple[tuple[int, int], Glyph, tuple[str, float]]]:
    """Readings of one page's glyphs: from a specimen sheet of a few words when that is
    enough (:mod:`.specimen`), else from the whole page."""
    from . import ocr, specimen

    words: list[list[Glyph]] = []
    codes: list[list[tuple[tuple[int, int], int]]] = []
    for key, items in glyphs.items():
        for word in glyph_words(items):
            words.append(word)
            codes.append([(key, g.code) for g in word])
    # What each code was read as with confidence so far: what a sheet counts as had, and
    # what cuts a word whose letters outnumber its glyphs (:func:`.glyphreading.read_glyphs`).
    alone = confident_tallies(readings)
    have = readings_had(alone)
    band = ocr.band_read(image, lang)
    if band is not None:
        # Choosing the language read the top of this page in this language: its words are
        # read, and the sheet shows only what they leave wanting.
        top, bottom, band_chars = band
        key_of_word = {id(g): key for key, items in glyphs.items() for g in items}
        rest_words, rest_codes = [], []
        grouped = ocr_words(band_chars)
        for word, word_codes in zip(words, codes, strict=True):
            if min(g.box[1] for g in word) >= top and max(g.box[3] for g in word) <= bottom:
                key = key_of_word[id(word[0])]
                for glyph, got in read_glyphs(word, band_chars, alternatives[key], grouped):
                    if got[1] > FALLBACK_CONF:
                        have[(key, glyph.code)] = have.get((key, glyph.code), 0) + 1
                        alone.setdefault(key, {}).setdefault(glyph.code, Counter())[got[0]] += 1
                    yield key, glyph, got
            else:
                rest_words.append(word)
                rest_codes.append(word_codes)
        words, codes = rest_words, rest_codes
    total = page_glyphs(glyphs)
    # Choosing the language may have read this page whole already: that costs nothing more.
    done = ocr.already_read(image, lang)
    # Earlier pages (or the band) may have read every code drawn here as often as a sheet
    # would show it: then neither a sheet nor the whole page is read.
    wanted = bool(specimen.wanting(Counter(c for w in codes for c in w), have))
    sheet = specimen.build(image, words, codes, total, have) if wanted and done is None else None
    if sheet is None and (band is not None or (done is None and not wanted)):
        # The band's words are read; the rest of the page only when still wanted.
        key_of = {id(g): key for key, items in glyphs.items() for g in items}
        for key, items in glyphs.items():
            for glyph in items:
                if glyph.blank:
                    yield key, glyph, (" ", 100.0)
        if wanted:
            chars = ocr.recognise(image, lang)
            grouped = ocr_words(chars)
            for word in words:
                key = key_of[id(word[0])]
                for glyph, got in read_glyphs(word, chars, alternatives[key], grouped):
                    yield key, glyph, got
        return
    if sheet is None:
        chars = done if done is not None else ocr.recognise(image, lang)
        for key, items in glyphs.items():
            for glyph, got in read_glyphs(items, chars, alternatives[key]):
                yield key, glyph, got
        return
    for key, items in glyphs.items():
        for glyph in items:
            if glyph.blank:
                yield key, glyph, (" ", 100.0)
    key_of = {id(g): key for key, items in glyphs.items() for g in items}
    # Choosing the language read the head of the sheet in this pack: the rest is read alone.
    # One word at a time: words of the sheet are not neighbours on the page.
    parts = sheet_parts(sheet)
    if len(parts) > 1 and ocr.already_read(parts[0].image, lang, block=True) is None:
        parts = (sheet,)
    # Words whose letters outnumber their glyphs (a ligature) are cut by what the others
    # were read as, so they are read after the others of their part.
    for part in parts:
        chars = part.to_page(ocr.recognise(part.image, lang, block=True))
        grouped = ocr_words(chars)
        later = {id(w) for w in part.words if one_to_one(w, grouped) is None}
        for word in sorted(part.words, key=lambda w: id(w) in later):
            key = key_of[id(word[0])]
            tally = alone.setdefault(key, {})
            known = commonest(tally) if id(word) in later else None
            for glyph, got in read_glyphs(word, chars, alternatives[key], grouped, known):
                if got[1] > FALLBACK_CONF:
                    tally.setdefault(glyph.code, Counter())[got[0]] += 1
                yield key, glyph, got


def confident_tallies(
    readings: Mapping[tuple[int, int], Mapping[int, list[tuple[str, float]]]],
) -> dict[tuple[int, int], dict[int, Counter[str]]]:
    """Per font and code, its readings Tesseract was confident of, counted by text."""
    return {key: {code: Counter(text for text, conf in seen if conf > FALLBACK_CONF)
                  for code, seen in by_code.items()}
            for key, by_code in readings.items()}


def readings_had(
    tallies: Mapping[tuple[int, int], Mapping[int, Counter[str]]],
) -> dict[tuple[tuple[int, int], int], int]:
    """Per (font, code), the readings a sheet counts as had (:func:`.specimen.wanting`):
    the confident readings (:func:`confident_tallies`) of its commonest reading less its
    other confident ones.

    A code read "a" and "o" has none: a later page shows it again, as often as
    a first page would, where counting both would have left its vote split.
    """
    had: dict[tuple[tuple[int, int], int], int] = {}
    for key, by_code in tallies.items():
        for code, tally in by_code.items():
            top = tally.most_common(1)[0][1] if tally else 0
            had[(key, code)] = max(0, 2 * top - sum(tally.values()))
    return had


def page_glyphs(glyphs: Mapping[tuple[int, int], list[Glyph]]) -> int:
    """The glyphs a reading of the whole page would read: every font's, not only those of
    the fonts wanted (an italic phrase among repaired fonts is a few words of the page)."""
    wanted = sum(len(items) for items in glyphs.values())
    return max(wanted, glyphs.drawn) if isinstance(glyphs, PageGlyphs) else wanted


#: Share of a specimen sheet's glyphs in its head: the rows that choosing the language
#: reads first to see whether a pack suits the glyphs at all.
HEAD_SHARE = 0.25


def sheet_parts(sheet: Any) -> tuple[Any, ...]:
    """The sheet's head (about :data:`HEAD_SHARE` of its glyphs) and the rest, or the
    sheet alone when it has one row."""
    return sheet.split(HEAD_SHARE) or (sheet,)


#: The page :func:`.glyphlang.choose_lang` read, for :func:`from_glyphs` to take its readings
#: instead of reading it again in the same language, and its render and glyph boxes when the
#: language named is another: (PDF digest, page, dpi) -> (language, readings, alternatives
#: per font, image, glyphs per font).
_FIRST_PASS: dict[tuple[str, int, int], tuple[str, Any, Any, Any, Any]] = {}


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def remember_first_pass(data: bytes, index: int, dpi: int, lang: str, readings: Any,
                         alternatives: Any, image: Any = None, glyphs: Any = None) -> None:
    _FIRST_PASS.clear()
    _FIRST_PASS[(_digest(data), index, dpi)] = (lang, readings, alternatives, image, glyphs)


def from_glyphs(
    data: bytes, usages: Iterable[FontUsage], lang: str, *, dpi: int = 300
) -> dict[tuple[int, int], Recovery]:
    """Source c: read the glyphs with Tesseract and vote per code across the whole document.

    ``data`` is the PDF the usages were collected from. A page turned by
    /Rotate is read as shown, its glyph boxes turned with it
    (:func:`.pageglyphs.pdfium_glyphs`); fonts whose glyphs cannot be paired
    with PDFium's characters get no votes.
    """
    import pypdfium2

    from ..lang import langmodel
    from ..lang.langcodes import reference_code
    from . import specimen
    from .blankglyphs import blank_codes
    from .glyphsettle import settle, split_twins

    model = langmodel.reference_model()
    # The letter-pair model names languages by ISO code; Tesseract's first pack decides.
    model_lang = reference_code(lang) if "+" not in lang else None

    wanted = list(usages)
    blanks = {u.key: blank_codes(u) for u in wanted}
    readings: dict[tuple[int, int], dict[int, list[tuple[str, float]]]] = {
        u.key: {} for u in wanted
    }
    alternatives: dict[tuple[int, int], dict[int, Counter[str]]] = {u.key: {} for u in wanted}
    pages = sorted({p for u in wanted for p in u.pages})
    looked: dict[tuple[tuple[int, int], int], int] = {}
    digest = _digest(data) if _FIRST_PASS else ""
    doc = pypdfium2.PdfDocument(data)
    try:
        for index in pages:
            drawn = {(u.key, c) for u in wanted for run in u.pages.get(index, []) for c in run}
            first = _FIRST_PASS.pop((digest, index, dpi), None)
            if first is not None and first[0] == lang:
                # Choosing the language read this page in this language: its readings stand.
                for key, by_code in first[1].items():
                    for code, seen in by_code.items():
                        readings.setdefault(key, {}).setdefault(code, []).extend(seen)
                for key, by_code in first[2].items():
                    for code, tally in by_code.items():
                        alternatives.setdefault(key, {}).setdefault(code, Counter()).update(tally)
                for pair in drawn:
                    looked[pair] = looked.get(pair, 0) + 1
                continue
            if all(
                _settled(readings[k].get(c, [])) or looked.get((k, c), 0) >= SETTLED_VOTES
                for k, c in drawn
            ) or not specimen.wanting(Counter(
                (u.key, c) for u in wanted for run in u.pages.get(index, []) for c in run
                if c not in blanks[u.key]), readings_had(confident_tallies(readings))):
                # Every code here is read often enough, or as often as a sheet would show it
                # (:mod:`.specimen`), or was looked at on enough pages that more would not
                # help: the page is not even rendered.
                continue
            if first is not None and first[3] is not None:
                # Read in another language while choosing it: the render and the glyph boxes
                # (inkless glyphs marked) stand, only the reading is done again.
                image, glyphs = first[3], first[4]
            else:
                page = doc[index]
                names = page_names(wanted, index)
                if not names:
                    continue
                scale = dpi / 72
                glyphs = pdfium_glyphs(page, names, index, scale, blanks)
                if not glyphs:
                    continue
                image = render_gray(page, scale)
                for items in glyphs.values():
                    mark_inkless(items, image)
            for pair in drawn:
                looked[pair] = looked.get(pair, 0) + 1
            for usage_key, glyph, got in read_page(image, glyphs, readings, alternatives, lang):
                readings[usage_key].setdefault(glyph.code, []).append(got)
    finally:
        doc.close()
    out: dict[tuple[int, int], Recovery] = {}
    for usage in wanted:
        mapping = vote(readings[usage.key], usage.codes())
        # An empty glyph that advances is a space whatever OCR saw around it.
        mapping.update(dict.fromkeys(blanks[usage.key], " "))
        mapping.update(
            settle(usage, mapping, readings[usage.key], model, model_lang,
                   alternatives[usage.key])
        )
        mapping.update(split_twins(mapping, readings[usage.key], alternatives[usage.key]))
        seen = {c: tuple(t for t, _ in r) for c, r in readings[usage.key].items()}
        if mapping or seen:
            out[usage.key] = Recovery(
                mapping,
                "ocr-glyphs",
                coverage(usage, mapping),
                usage.glyphs,
                f"Tesseract ({lang}) read {len(mapping)} of {len(usage.codes())} codes",
                seen,
            )
    return out
