"""Where a severed font's glyphs sit on the rendered page, each with the code it draws.

PDFium renders the page and boxes every glyph; its characters come in content
order and are paired here with the codes the content stream draws (counted,
else aligned), narrowed to their cells when PDFium boxes a glyph with the whole
font box, and told blank where the render holds no ink. Glyph OCR
(:mod:`.glyphocr`) and its language choice (:mod:`.glyphlang`) start from these
boxes; what Tesseract read is paired with them in :mod:`.glyphreading`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..pdf.pagemap import page_to_top_left
from .fontusage import FontUsage


def pdfium_font_name(name: str) -> str:
    """A font name as both sides can compare it: no subset tag (PDFium drops it for some
    fonts), empty for an unnamed font."""
    if name == "(unnamed)":
        return ""
    return re.sub(r"^[A-Z]{6}\+", "", name)


@dataclass
class _Char:
    """One character as PDFium reports it, in pixels."""

    unicode: int
    box: tuple[float, float, float, float]
    blank: bool
    error: bool
    origin: tuple[float, float]
    #: The box was made from origins, not given by PDFium.
    cell: bool = False
    #: The page object (a text object's handle) that draws it.
    drawn_by: int = 0


def _cells(chars: list[_Char]) -> list[_Char]:
    """Narrow boxes that overlap their neighbours to the advance between origins.

    PDFium boxes a Type3 glyph (and a glyph of a font with a bad bounding
    box) with the whole font box, so neighbours overlap and a box holds
    several recognised letters. The advance from one origin to the next on
    the same line is then the glyph's own cell.
    """
    out = list(chars)
    narrowed: list[float] = []
    for i, ch in enumerate(chars[:-1]):
        nxt = chars[i + 1]
        x0, y0, x1, y1 = ch.box
        same_line = abs(nxt.origin[1] - ch.origin[1]) < 0.2 * max(1.0, y1 - y0)
        advance = nxt.origin[0] - ch.origin[0]
        if same_line and advance > 0 and (x1 - x0) > 1.5 * advance:
            out[i] = _Char(
                ch.unicode, (ch.origin[0], y0, nxt.origin[0], y1), False, ch.error, ch.origin, True
            )
            narrowed.append(advance)
    if narrowed:
        # The last glyph of a line has no next origin: give it a generous typical advance.
        typical = 1.6 * sorted(narrowed)[len(narrowed) // 2]
        for i, ch in enumerate(out):
            x0, y0, x1, y1 = ch.box
            if x1 - x0 > 2 * typical:
                right = ch.origin[0] + typical
                out[i] = _Char(
                    ch.unicode, (ch.origin[0], y0, right, y1), False, ch.error, ch.origin, True
                )
    return out


@dataclass
class Glyph:
    code: int
    box: tuple[float, float, float, float]  # pixels, top-left origin
    blank: bool
    cell: bool = False
    #: The baseline (PDFium's origin), in pixels from the top; None when unknown.
    base: float | None = None


def _scaled(point: tuple[float, float], scale: float) -> tuple[float, float]:
    return (point[0] * scale, point[1] * scale)


class PageGlyphs(dict[tuple[int, int], list[Glyph]]):
    """The glyphs of the fonts asked for on one page, by font; ``drawn`` counts the
    characters every font draws there, which is what reading the whole page costs."""

    drawn: int = 0


def pdfium_glyphs(
    page: Any,
    names: Mapping[str, FontUsage],
    page_index: int,
    scale: float,
    blanks: Mapping[tuple[int, int], set[int]] | None = None,
) -> PageGlyphs:
    """Glyphs PDFium sees on the page for the given fonts, with their codes and pixel boxes.

    PDFium's characters come in content order, one per glyph; they are paired
    with the codes this module read from the content stream when the counts
    agree, else (for unmapped glyphs) through PDFium's own code-as-character.
    """
    import ctypes

    import pypdfium2.raw as raw

    width, height = page.get_size()
    if width <= 0 or height <= 0:  # a crop box outside the media box: nothing is shown
        return PageGlyphs()
    textpage = page.get_textpage()
    # Points of the content's space to the render's pixels: PDFium renders the page turned
    # by its /Rotate and cut to its crop box (a landscape table set sideways on a portrait
    # page is upright there, as Tesseract must see it).
    shown = page_to_top_left(page, width, height)
    per_font: dict[str, list[_Char]] = {}
    buf = ctypes.create_string_buffer(512)
    drawn = 0
    for i in range(raw.FPDFText_CountChars(textpage)):
        if raw.FPDFText_IsGenerated(textpage, i):
            continue
        drawn += 1
        obj = raw.FPDFText_GetTextObject(textpage, i)
        font = raw.FPDFTextObj_GetFont(obj) if obj else None
        if not font:
            continue
        size = raw.FPDFFont_GetBaseFontName(font, buf, len(buf))
        name = pdfium_font_name(buf.value.decode("latin-1") if size else "")
        if name not in names:
            continue
        lft, rgt, bot, tp = (ctypes.c_double() for _ in range(4))
        raw.FPDFText_GetCharBox(textpage, i, lft, rgt, bot, tp)
        x0, y0, x1, y1 = shown.box(lft.value, tp.value, rgt.value, bot.value)
        box = (x0 * scale, y0 * scale, x1 * scale, y1 * scale)
        blank = (tp.value - bot.value) < 0.1 or (rgt.value - lft.value) < 0.1
        ox, oy = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(textpage, i, ox, oy)
        per_font.setdefault(name, []).append(
            _Char(
                raw.FPDFText_GetUnicode(textpage, i),
                box,
                blank,
                bool(raw.FPDFText_HasUnicodeMapError(textpage, i)),
                _scaled(shown.apply(ox.value, oy.value), scale),
                drawn_by=ctypes.cast(obj, ctypes.c_void_p).value or 0,
            )
        )
    textpage.close()
    out = PageGlyphs()
    out.drawn = drawn
    objects: dict[int, int] | None = None  # the page's objects, listed once when asked for
    for name, found in per_font.items():
        usage = names[name]
        chars = _cells(found)
        codes = [c for run in usage.pages.get(page_index, []) for c in run]
        if len(codes) == len(chars) and not _out_of_step(codes, chars):
            out[usage.key] = _by_position(codes, chars)
        elif all(c.error for c in chars) and not (blanks or {}).get(usage.key):
            out[usage.key] = [
                Glyph(c.unicode, c.box, c.blank, c.cell, c.origin[1]) for c in chars
            ]
        else:
            # PDFium shows an unmapped code as itself: the alignment pairs those too.
            empty = (blanks or {}).get(usage.key, set())
            aligned = _align(usage, codes, chars, empty)
            if len(aligned) < MIN_ALIGNED * len(codes):
                objects = _objects(page) if objects is None else objects
                aligned = _by_drawing(codes, chars, empty, objects)
            if len(aligned) >= MIN_ALIGNED * len(codes):
                out[usage.key] = aligned
            elif len(codes) == len(chars):  # out of step, but nothing pairs better
                out[usage.key] = _by_position(codes, chars)
    return out


def _by_position(codes: list[int], chars: list[_Char]) -> list[Glyph]:
    """Each code with the character PDFium gives in its place, as many of one as the other."""
    return [Glyph(code, c.box, c.blank, c.cell, c.origin[1])
            for code, c in zip(codes, chars, strict=True)]


def _between(left: Glyph, right: _Char, blanks: Iterable[int]) -> list[Glyph]:
    """Blank glyphs PDFium left out, put in the gap on the line between two it shows."""
    gap = (left.box[2], left.box[1], max(left.box[2], right.box[0]), left.box[3])
    return [Glyph(c, gap, True) for c in blanks]


def _out_of_step(codes: list[int], chars: list[_Char]) -> bool:
    """Whether PDFium's characters, as many as the codes, come in another order: some of
    those it shows as their own code (it has no Unicode for them) show another code there,
    while most show their own. PDFium gives a right-to-left line in reading order (a
    Hebrew line of WeasyPrint's: 34 of 326 out of place), and pairing by position would
    give those glyphs their neighbours' readings."""
    shown = [(code, c.unicode) for code, c in zip(codes, chars, strict=True) if c.error]
    wrong = sum(1 for code, value in shown if code != value)
    return wrong > 0 and 2 * wrong < len(shown)


def _objects(page: Any) -> dict[int, int]:
    """The page's objects by handle, in drawing order."""
    import ctypes

    import pypdfium2.raw as raw

    return {ctypes.cast(raw.FPDFPage_GetObject(page.raw, k), ctypes.c_void_p).value or 0: k
            for k in range(raw.FPDFPage_CountObjects(page.raw))}


def _by_drawing(codes: list[int], chars: list[_Char], blanks: Collection[int],
                objects: Mapping[int, int]) -> list[Glyph]:
    """Pair codes with PDFium's characters put back in drawing order, or nothing.

    PDFium's text of right-to-left script comes in reading order, and a shaped
    glyph (Arabic's lam-alef) comes as the letters it stands for; Chromium draws
    the glyphs left to right, a text object or so each. In the order of the
    objects that draw them, left to right within one, characters sharing an
    origin are one glyph; without the blanks on both sides the counts then agree
    or nothing is paired. A blank code goes between its neighbours, as in
    :func:`_align`.
    """
    if not chars or any(c.drawn_by not in objects for c in chars):
        return []
    ordered = sorted(chars, key=lambda c: (objects[c.drawn_by], c.origin[0]))
    glyphs: list[_Char] = []
    for ch in ordered:
        last = glyphs[-1] if glyphs else None
        if last is not None and last.drawn_by == ch.drawn_by \
                and abs(last.origin[0] - ch.origin[0]) < 0.01 \
                and abs(last.origin[1] - ch.origin[1]) < 0.01:
            continue  # one glyph PDFium gives as two letters
        glyphs.append(ch)
    inked = [c for c in glyphs if not c.blank]
    if len(inked) != sum(1 for c in codes if c not in blanks):
        return []
    out: list[Glyph] = []
    ink = iter(inked)
    pending: list[int] = []
    for code in codes:
        if code in blanks:
            pending.append(code)
            continue
        ch = next(ink)
        if pending and out:
            out.extend(_between(out[-1], ch, pending))
        pending = []
        out.append(Glyph(code, ch.box, False, ch.cell, ch.origin[1]))
    return out


#: Share of a font's glyphs on a page that must align with PDFium's characters to be used.
MIN_ALIGNED = 0.8


def _align(
    usage: FontUsage, codes: list[int], chars: list[_Char], blanks: Collection[int] = ()
) -> list[Glyph]:
    """Pair codes with PDFium's characters when their counts differ (PDFium merged or dropped one).

    What PDFium should show for each code is known: the font's own text for a
    mapped code, the code itself for an unmapped one. The two sequences are
    aligned and only matching stretches are paired. PDFium leaves out many
    glyphs that draw nothing; a left-out code whose glyph is empty in the
    program (``blanks``) comes back as a blank glyph in the gap between its
    neighbours on the line, so words of glyphs split where the spaces are.
    """
    import difflib

    from ..pdf import fonts

    try:
        info: Any = fonts.analyse_font(usage.font)
    except Exception:  # noqa: BLE001 - without the font's text only unmapped codes can align
        info = None

    def shown(code: int) -> str:
        text = info.to_unicode(code) if info is not None else None
        if info is None or info.is_bad_code(code) or not text or len(text) != 1:
            return chr(code) if code < 0x110000 else "\x00"
        return str(text)

    expected = [shown(c) for c in codes]
    got = [chr(c.unicode) if 0 <= c.unicode < 0x110000 else "\x00" for c in chars]
    matcher = difflib.SequenceMatcher(None, expected, got, autojunk=False)
    out: list[Glyph] = []
    done = 0  # codes before this index are placed
    for a, b, size in matcher.get_matching_blocks():
        if out and a > done and b < len(chars):
            out.extend(_between(out[-1], chars[b], (c for c in codes[done:a] if c in blanks)))
        for k in range(size):
            ch = chars[b + k]
            out.append(Glyph(codes[a + k], ch.box, ch.blank, ch.cell, ch.origin[1]))
        done = a + size
    return out


#: A glyph cell whose darkest pixel is lighter than this (0 black, 255 white) draws nothing.
INKLESS = 200


def render_gray(page: Any, scale: float) -> Any:
    """The page as Tesseract reads it: rendered in colour, then turned grey by Pillow.

    PDFium's own grey rendering costs a seventh as much but smooths glyph edges otherwise,
    and Tesseract then read the diaeresis of a Russian ё as nothing. Asked for RGB byte
    order, the colour render becomes a Pillow image without a copy (20 ms a 300 dpi A5 page,
    not 24), pixel for pixel the same.
    """
    return page.render(scale=scale, rev_byteorder=True).to_pil().convert("L")


def mark_inkless(items: list[Glyph], image: Any) -> None:
    """Glyphs whose cell on the render holds no ink are spaces, whatever their box says.

    PDFium boxes a Type3 space with the whole font box; the render shows the truth.
    """
    width, height = image.size
    for glyph in items:
        if glyph.blank:
            continue
        bx0, by0, bx1, by1 = glyph.box
        # The inner part only: a neighbour's overhang (the hook of a J) may reach the edges.
        inset = 0.2 * (bx1 - bx0)
        x0, y0, x1, y1 = (int(round(v)) for v in (bx0 + inset, by0, bx1 - inset, by1))
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(width, x1), min(height, y1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        darkest, _ = image.crop((x0, y0, x1, y1)).getextrema()
        if darkest > INKLESS:
            glyph.blank = True
            continue
        if glyph.cell:
            # A cell made from origins is wider than the glyph: shrink it to the ink, so
            # its centre sits on the letter (a period at the end of a line).
            cx0, cy0 = max(0, int(bx0)), max(0, int(by0))
            cx1, cy1 = min(width, int(bx1) + 1), min(height, int(by1) + 1)
            mask = image.crop((cx0, cy0, cx1, cy1)).point(lambda v: 255 if v <= INKLESS else 0)
            ink = mask.getbbox()
            if ink:
                # Sideways only: the cell is as tall as the font box and reaches other lines.
                glyph.box = (cx0 + ink[0], by0, cx0 + ink[2], by1)


def glyph_words(items: list[Glyph]) -> Iterator[list[Glyph]]:
    """Runs of inked glyphs between blank ones (or a jump to another line)."""
    word: list[Glyph] = []
    for glyph in items:
        if glyph.blank:
            if word:
                yield word
            word = []
            continue
        if word:
            last = word[-1].box
            # The taller of the two: an apostrophe's own box is a few pixels high.
            height = max(1.0, last[3] - last[1], glyph.box[3] - glyph.box[1])
            if (
                abs((glyph.box[1] + glyph.box[3]) - (last[1] + last[3])) / 2 > height
                or glyph.box[0] < last[0] - height
            ):
                yield word
                word = []
        word.append(glyph)
    if word:
        yield word


def page_names(usages: Iterable[FontUsage], index: int) -> dict[str, FontUsage]:
    """The fonts drawn on page ``index`` by the name PDFium gives them; a name two fonts
    share is left out (their glyphs cannot be told apart)."""
    names: dict[str, FontUsage] = {}
    dupes: set[str] = set()
    for u in usages:
        if index in u.pages:
            key = pdfium_font_name(u.name)
            (dupes.add(key) if key in names else names.__setitem__(key, u))
    for name in dupes:
        names.pop(name, None)
    return names
