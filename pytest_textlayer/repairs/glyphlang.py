"""Tesseract's language for glyph OCR when nothing names the document's language.

Glyph OCR's own first pass decides it: the first page's specimen sheet is
shown to Tesseract's script detection, read in the script's pack (every
other script's pack when the votes disagree), and the letter-pair model
names the language from the text that reading gives. The page read stays
with :mod:`.glyphocr`, so choosing the language costs glyph OCR no reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .fontusage import FontUsage
from .glyphocr import page_glyphs, read_page, remember_first_pass, vote
from .glyphreading import union
from .pageglyphs import Glyph, glyph_words, mark_inkless, page_names, pdfium_glyphs, render_gray

#: Glyphs of a page without a specimen sheet that Tesseract's script detection is shown:
#: its time grows with the picture it is given.
OSD_GLYPHS = 150


def declared_pack(pdf: Any) -> str | None:
    """The installed Tesseract pack of the language the document declares (the catalog's
    /Lang, ISO 32000 14.9.2: ``fr``, ``ru-RU``), or None.

    Browsers write the page's ``lang`` there; LibreOffice its default language,
    which need not be the text's (``en-US`` on a Russian text): a declaration is
    where glyph OCR's first pass starts, never what it concludes.
    """
    from . import ocr

    try:
        value = pdf.Root.get("/Lang")
        text = str(value) if value is not None else ""
    except Exception:  # noqa: BLE001 - a damaged catalog declares nothing
        return None
    pack = ocr.pack_of(text)
    try:
        installed = ocr.tesseract_info().languages
    except Exception:  # noqa: BLE001 - no Tesseract: nothing to read in anyway
        return None
    return pack if pack in installed else None


def choose_lang(
    data: bytes, usages: Iterable[FontUsage], *, dpi: int = 300, declared: str | None = None
) -> tuple[str, str] | None:
    """Tesseract's language for a document whose text nothing names, from glyph OCR's own
    first pass: (pack, how it was chosen), or None when no page's glyphs can be read.

    The first page that draws the fonts is rendered as :func:`.glyphocr.from_glyphs`
    renders it and its specimen sheet is built (:mod:`.specimen`). The sheet's
    head (its first words) is looked at first: a language the document
    declares (``declared``, a Tesseract pack: :func:`declared_pack`) must read
    it with confidence (:func:`_suits`), else script detection names the
    script, on the head when its pack suits the head, else on the whole sheet
    (:func:`_detected`); a head that reads as another language of the script
    moves the reading to that language's pack (:func:`_head_language`). The
    sheet is read in the pack chosen (its head is read already), and the
    letter-pair model names the language from the document's text under the
    codes that reading gives. When the votes of that reading agree on fewer
    than :data:`MIN_AGREED` of the codes, the script was wrong: script
    detection runs after all for a declared pack, then each other script's pack
    reads the sheet and the reading whose votes agree most is kept. When the
    language named is the pack read in, glyph OCR finds the sheet already read
    (:func:`.ocr.recognise` keeps it).
    """
    import pypdfium2

    from ..lang import langmodel
    from . import ocr, specimen
    from .blankglyphs import blank_codes

    wanted = list(usages)
    blanks = {u.key: blank_codes(u) for u in wanted}
    scale = dpi / 72
    doc = pypdfium2.PdfDocument(data)
    try:
        for index in sorted({p for u in wanted for p in u.pages}):
            page = doc[index]
            names = page_names(wanted, index)
            glyphs = pdfium_glyphs(page, names, index, scale, blanks) if names else {}
            if not glyphs:
                continue
            image = render_gray(page, scale)
            for items in glyphs.values():
                mark_inkless(items, image)
            words = [w for items in glyphs.values() for w in glyph_words(items)]
            codes = [[(key, g.code) for g in w] for key, items in glyphs.items()
                     for w in glyph_words(items)]
            sheet = specimen.build(image, words, codes, page_glyphs(glyphs), {})
            tried: set[str] = set()
            if declared and sheet is not None and not _suits(sheet, declared):
                # The head of the sheet read in the declared pack is read without confidence:
                # the declaration is not the glyphs' script. Script detection decides.
                tried.add(declared)
                declared = None
            script = declared or _detected(image, sheet, words, tried)
            if sheet is not None:
                script = _head_language(sheet, script)

            # Script detection may name the script of the declaration the head refuted
            # (Greek in DejaVu Serif taken for Latin): that pack reads the sheet only when
            # no other does better.
            passed = None if script in tried else _first_pass(image, glyphs, wanted, blanks,
                                                              script)
            agreed = -1.0 if passed is None else _agreed(passed[0], wanted)
            tried.add(script)
            if agreed < MIN_AGREED and declared:
                # The declared language is not the glyphs' script (a producer's default
                # language over a text in another): ask script detection after all.
                detected = ocr.detect_script(_osd_sample(image, sheet, words)) or "eng"
                tried.add(detected)
                if detected != script:
                    again = _first_pass(image, glyphs, wanted, blanks, detected)
                    if _agreed(again[0], wanted) > agreed:
                        script, passed = detected, again
                        agreed = _agreed(passed[0], wanted)
            if agreed < MIN_AGREED:
                # Script detection errs (a Greek serif heading taken for Latin): read in the
                # wrong script, most codes get votes that disagree. Each other script's pack
                # reads the sheet, and the reading whose votes agree on the most codes wins;
                # the first whose votes agree enough ends the search. A pack that reads the
                # head of the sheet without confidence is passed over, unless none reads it
                # with confidence: eight readings of a Greek sheet took 4.6 s of CPU.
                installed = ocr.tesseract_info().languages
                others = [p for p in dict.fromkeys(ocr.SCRIPT_LANG.values())
                          if p not in tried and p in installed]
                for other in _suiting_first(sheet, others):
                    again = _first_pass(image, glyphs, wanted, blanks, other)
                    if _agreed(again[0], wanted) > agreed:
                        script, passed = other, again
                        agreed = _agreed(passed[0], wanted)
                    if agreed >= MIN_AGREED:
                        break
            readings, alternatives, text = passed if passed is not None else \
                _first_pass(image, glyphs, wanted, blanks, script)
            remember_first_pass(data, index, dpi, script, readings, alternatives, image, glyphs)
            best = langmodel.best_language(text)
            found = ocr.pack_of((best or "").split("+")[0])
            if found and found in ocr.tesseract_info().languages:
                return found, "from glyph OCR's first pass"
            return script, "from Tesseract's script detection"
    finally:
        doc.close()
    return None


def _font_text(usage: FontUsage, mapping: Mapping[int, str]) -> str:
    """The font's text under ``mapping``, unmapped codes as spaces. A font that draws its
    own spaces has its runs joined as they are (a browser places every glyph on its own
    run); one without spaces breaks words between runs."""
    joiner = "" if " " in mapping.values() else " "
    return joiner.join(
        "".join(mapping.get(c, " ") for c in run)
        for _, runs in sorted(usage.pages.items())
        for run in runs
    )


#: Share of the codes read on the first page whose votes must agree for the script
#: detection to be believed (a right script: 98-100 %; a wrong one: 45-60 %).
MIN_AGREED = 0.8


def _agreed(readings: Mapping[tuple[int, int], Mapping[int, list[tuple[str, float]]]],
            wanted: list[FontUsage]) -> float:
    """Share of the codes read whose votes agree on a reading."""
    read = sum(len(readings[u.key]) for u in wanted)
    agreed = sum(len(vote(readings[u.key], u.codes())) for u in wanted)
    return agreed / read if read else 1.0


def _first_pass(image: Any, glyphs: Mapping[tuple[int, int], list[Glyph]],
                wanted: list[FontUsage], blanks: Mapping[tuple[int, int], set[int]],
                script: str) -> tuple[Any, Any, str]:
    """The page's glyphs read in ``script``'s pack: readings, alternatives, and the
    document's text under the codes they give."""
    from . import ocr

    ocr.require(script)
    readings: dict[tuple[int, int], dict[int, list[tuple[str, float]]]] = {
        u.key: {} for u in wanted}
    alternatives: dict[tuple[int, int], dict[int, Counter[str]]] = {u.key: {} for u in wanted}
    for key, glyph, got in read_page(image, glyphs, readings, alternatives, script):
        readings[key].setdefault(glyph.code, []).append(got)
    text = "\n".join(_font_text(u, {**vote(readings[u.key], u.codes()),
                                     **dict.fromkeys(blanks[u.key], " ")})
                     for u in wanted)
    return readings, alternatives, text


#: Median confidence of the words Tesseract reads on a sheet's head in a pack of the
#: glyphs' script (90-96 on the benchmark's pages), and above that of another script's
#: pack (33-54), whose characters it still reads each as some letter it knows, with
#: confidence. The median, not the mean: an Arabic heading's first word, read with the
#: right-to-left mark Chromium draws after it, has 47 beside its neighbours' 84 and 91.
SUITS_CONF = 75.0


def _head(sheet: Any, pack: str) -> list[Any]:
    """The head of the sheet read in ``pack``: the part :func:`.glyphocr.read_page` reads
    first (:func:`.ocr.recognise` keeps it), so a pack that is kept loses no reading."""
    from . import ocr
    from .glyphocr import sheet_parts

    ocr.require(pack)
    return ocr.recognise(sheet_parts(sheet)[0].image, pack, block=True)


def _suits(sheet: Any, pack: str) -> bool:
    """Whether ``pack`` reads the head of the sheet with confidence."""
    words = sorted({c.word: c.word_conf for c in _head(sheet, pack)}.values())
    return bool(words) and words[len(words) // 2] >= SUITS_CONF


def _suiting_first(sheet: Any, packs: list[str]) -> Iterator[str]:
    """``packs`` that read the sheet's head with confidence (:func:`_suits`), looked at one
    by one as they are asked for; when none does (or there is no sheet), every one."""
    suited = False
    for pack in packs if sheet is not None else ():
        if _suits(sheet, pack):
            suited = True
            yield pack
    if not suited:
        yield from packs


#: How much better than the pack's own language another must fit the head's text for the
#: head to be read in the other's pack: a French, Czech or Polish head read in ``eng``
#: fits its language by 0.27-0.88 more than English, a Russian head Bulgarian by 0.01.
HEAD_MARGIN = 0.15


def _head_language(sheet: Any, pack: str) -> str:
    """``pack``, or the installed pack of the language the sheet's head reads as in it when
    that pack suits the glyphs too.

    A script's default pack (``eng`` for Latin) or a producer's default
    declaration reads a French head well enough for the letter-pair model to
    name French; reading the rest in ``fra`` then spares reading the whole
    sheet twice. The language is still judged on the document's text after the
    first pass, which has the last word.
    """
    from ..lang import langmodel
    from ..lang.langcodes import reference_code
    from . import ocr

    text = ocr.chars_text(_head(sheet, pack))
    judged = langmodel.judge(text)
    other = ocr.pack_of((judged.lang or "").split("+")[0])
    if not judged.passes or other is None or other == pack \
            or other not in ocr.tesseract_info().languages:
        return pack
    own = reference_code(pack)
    if own is not None and judged.score - langmodel.judge(text, lang=own).score < HEAD_MARGIN:
        # A few words in the pack's own language fit a neighbour almost as well (Russian
        # and Bulgarian): the whole text decides.
        return pack
    return other if _suits(sheet, other) else pack


def _detected(image: Any, sheet: Any, words: list[list[Glyph]], tried: set[str]) -> str:
    """The pack of the script Tesseract's script detection sees: on the sheet's head when
    the head, read in that pack, suits it; else on the whole sheet (:func:`_osd_sample`).

    Script detection's time grows with the picture (the head: 0.06 s of CPU, the sheet:
    0.11 s, on LibreOffice's 33 severed pages); on the head it named the script of 56 of
    57, and took the one it missed, Greek in DejaVu Serif, for Latin, which reads that
    head without confidence.
    """
    from . import ocr
    from .glyphocr import sheet_parts

    if sheet is not None:
        found = ocr.detect_script(sheet_parts(sheet)[0].image)
        if found is not None and found not in tried \
                and found in ocr.tesseract_info().languages and _suits(sheet, found):
            return found
    return ocr.detect_script(_osd_sample(image, sheet, words)) or "eng"


def _osd_sample(image: Any, sheet: Any, words: list[list[Glyph]]) -> Any:
    """What Tesseract's script detection is shown: the specimen sheet, else the page's first
    :data:`OSD_GLYPHS` glyphs or so with a little white around them.

    The whole sheet, not its first words: on twenty-five glyphs DejaVu Serif's Greek was
    taken for Cyrillic (and on a band of the page, for Latin).
    """
    if sheet is not None:
        return sheet.image
    shown = 0
    x0, y0, x1, y1 = float(image.width), float(image.height), 0.0, 0.0
    for word in words:
        if shown >= OSD_GLYPHS:
            break
        box = union(g.box for g in word)
        shown += len(word)
        x0, y0 = min(x0, box[0]), min(y0, box[1])
        x1, y1 = max(x1, box[2]), max(y1, box[3])
    if not shown:
        return image
    margin = 0.5 * (union(g.box for g in words[0])[3] - union(g.box for g in words[0])[1])
    return image.crop((max(0, int(x0 - margin)), max(0, int(y0 - margin)),
                       min(image.width, int(x1 + margin) + 1),
                       min(image.height, int(y1 + margin) + 1)))
