"""Source c of :mod:`.recover`: read a broken font's glyphs on the page and vote per code.

The page is rendered with PDFium, which also gives every glyph's box; the
glyphs are paired with the codes the content stream draws
(:func:`_pdfium_glyphs`, :func:`_align`), Tesseract reads the render (word
and character boxes), each glyph takes what was read in its box
(:func:`read_glyphs`), and every occurrence of a code in the document
votes (:func:`vote`): one misread does not win, and codes with too few or
conflicting votes stay unmapped rather than guessed (:func:`from_glyphs`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .fontusage import FontUsage
from .recover import Recovery, coverage, usable_text

#: Votes a code needs before OCR's reading of it is believed.
MIN_VOTES = 2
#: Share of a code's votes the winning reading must have; below it the code stays unmapped.
MIN_AGREEMENT = 0.7
#: Confidence given at most to a reading whose boxes do not agree with the glyph's.
FALLBACK_CONF = 80.0
#: Share of the smaller box that the glyph's box and the OCR box must share to agree.
MIN_BOX_OVERLAP = 0.6
#: A code drawn once in the whole document is believed on one vote only above this confidence.
SINGLE_VOTE_CONF = 90.0


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
class _Glyph:
    code: int
    box: tuple[float, float, float, float]  # pixels, top-left origin
    blank: bool
    cell: bool = False
    #: The baseline (PDFium's origin), in pixels from the top; None when unknown.
    base: float | None = None


def _pdfium_glyphs(
    page: Any,
    names: Mapping[str, FontUsage],
    page_index: int,
    scale: float,
    blanks: Mapping[tuple[int, int], set[int]] | None = None,
) -> dict[tuple[int, int], list[_Glyph]]:
    """Glyphs PDFium sees on the page for the given fonts, with their codes and pixel boxes.

    PDFium's characters come in content order, one per glyph; they are paired
    with the codes this module read from the content stream when the counts
    agree, else (for unmapped glyphs) through PDFium's own code-as-character.
    """
    import ctypes

    import pypdfium2.raw as raw

    textpage = page.get_textpage()
    left, bottom, _, top = page.get_cropbox()
    per_font: dict[str, list[_Char]] = {}
    buf = ctypes.create_string_buffer(512)
    for i in range(raw.FPDFText_CountChars(textpage)):
        if raw.FPDFText_IsGenerated(textpage, i):
            continue
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
        box = (
            (lft.value - left) * scale,
            (top - tp.value) * scale,
            (rgt.value - left) * scale,
            (top - bot.value) * scale,
        )
        blank = (tp.value - bot.value) < 0.1 or (rgt.value - lft.value) < 0.1
        ox, oy = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(textpage, i, ox, oy)
        per_font.setdefault(name, []).append(
            _Char(
                raw.FPDFText_GetUnicode(textpage, i),
                box,
                blank,
                bool(raw.FPDFText_HasUnicodeMapError(textpage, i)),
                ((ox.value - left) * scale, (top - oy.value) * scale),
            )
        )
    textpage.close()
    out: dict[tuple[int, int], list[_Glyph]] = {}
    for name, found in per_font.items():
        usage = names[name]
        chars = _cells(found)
        codes = [c for run in usage.pages.get(page_index, []) for c in run]
        if len(codes) == len(chars):
            out[usage.key] = [
                _Glyph(code, c.box, c.blank, c.cell, c.origin[1])
                for code, c in zip(codes, chars, strict=True)
            ]
        elif all(c.error for c in chars) and not (blanks or {}).get(usage.key):
            out[usage.key] = [
                _Glyph(c.unicode, c.box, c.blank, c.cell, c.origin[1]) for c in chars
            ]
        else:
            # PDFium shows an unmapped code as itself: the alignment pairs those too.
            aligned = _align(usage, codes, chars, (blanks or {}).get(usage.key, set()))
            if len(aligned) >= MIN_ALIGNED * len(codes):
                out[usage.key] = aligned
    return out


#: Share of a font's glyphs on a page that must align with PDFium's characters to be used.
MIN_ALIGNED = 0.8


def _align(
    usage: FontUsage, codes: list[int], chars: list[_Char], blanks: Collection[int] = ()
) -> list[_Glyph]:
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
    out: list[_Glyph] = []
    done = 0  # codes before this index are placed
    for a, b, size in matcher.get_matching_blocks():
        if out and a > done and b < len(chars):
            left, right = out[-1].box, chars[b].box
            gap = (left[2], left[1], max(left[2], right[0]), left[3])
            out.extend(_Glyph(c, gap, True) for c in codes[done:a] if c in blanks)
        for k in range(size):
            ch = chars[b + k]
            out.append(_Glyph(codes[a + k], ch.box, ch.blank, ch.cell, ch.origin[1]))
        done = a + size
    return out


#: A glyph cell whose darkest pixel is lighter than this (0 black, 255 white) draws nothing.
INKLESS = 200


def _mark_inkless(items: list[_Glyph], image: Any) -> None:
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


def _union(boxes: Iterable[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    xs0, ys0, xs1, ys1 = zip(*boxes, strict=True)
    return min(xs0), min(ys0), max(xs1), max(ys1)


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _glyph_words(items: list[_Glyph]) -> Iterator[list[_Glyph]]:
    """Runs of inked glyphs between blank ones (or a jump to another line)."""
    word: list[_Glyph] = []
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


def read_glyphs(
    items: list[_Glyph], chars: list[Any], choices: dict[int, Counter[str]] | None = None
) -> Iterator[tuple[_Glyph, tuple[str, float]]]:
    """Pair glyphs with what Tesseract read there.

    Tesseract's word text is far more reliable than its character boxes
    (LSTM boxes drift by a letter's width), so pairing goes by word: a word
    of glyphs (between blank glyphs) that overlaps one recognised word, or
    the inked glyphs whose centres fall inside one recognised word's box, or
    else the recognised word nearest to it on its line when each is the
    other's nearest (:func:`_nearest_words`). Equal counts pair letter by
    letter; unequal ones (a ligature glyph read as two letters, a dropped
    mark) pair by position once the recognised word is laid over the glyph
    word (:func:`_pair_scaled`). Other glyphs fall back to the characters
    inside their own box, or read as a space when they sit in the gap
    between two words. Blank glyphs read as a space.

    ``choices`` collects, per code, the confidence Tesseract gave each of its
    candidates for the letters paired in order (see :func:`.glyphsettle.split_twins`).
    """
    words: dict[int, list[Any]] = {}
    for ch in chars:
        words.setdefault(ch.word, []).append(ch)
    boxes = {w: _union(c.box for c in cs) for w, cs in words.items()}
    done: set[int] = set()
    for glyph in items:
        if glyph.blank:
            done.add(id(glyph))
            yield glyph, (" ", 100.0)
    glyph_words = list(_glyph_words(items))
    pairs: list[tuple[list[_Glyph], list[Any]]] = []
    for word in glyph_words:
        box = _union(g.box for g in word)
        best = max(boxes, key=lambda w: _iou(box, boxes[w]), default=None)
        if best is not None and _iou(box, boxes[best]) >= 0.5 and len(words[best]) == len(word):
            pairs.append((word, words[best]))
    for w, box in boxes.items():
        inside = [
            g
            for g in items
            if not g.blank
            and box[0] <= (g.box[0] + g.box[2]) / 2 <= box[2]
            and g.box[1] <= (box[1] + box[3]) / 2 <= g.box[3]
        ]
        if inside and len(inside) == len(words[w]):
            pairs.append((sorted(inside, key=lambda g: g.box[0]), words[w]))
    for word, found in pairs:
        if any(id(g) in done for g in word):
            continue
        # Tesseract's own order: its character boxes drift and may cross (ж before н).
        for glyph, ch in zip(word, found, strict=True):
            done.add(id(glyph))
            if choices is not None:
                tally = choices.setdefault(glyph.code, Counter())
                for text, conf in getattr(ch, "choices", ()):
                    tally[text] += conf
            yield glyph, (ch.text, ch.conf)
    rest = [w for w in glyph_words if not any(id(g) in done for g in w)]
    for word, w in _nearest_words(rest, boxes):
        for glyph, placed in _pair_scaled(word, words[w]):
            done.add(id(glyph))
            yield glyph, placed
    for glyph in items:
        if id(glyph) not in done:
            got = _reading(glyph, chars) or _gap(glyph, boxes)
            if got is not None:
                yield glyph, got


def _nearest_words(
    glyph_words: list[list[_Glyph]], boxes: Mapping[int, tuple[float, float, float, float]]
) -> Iterator[tuple[list[_Glyph], int]]:
    """Glyph words and recognised words on one line that are each other's nearest.

    Same line: their vertical extents overlap by half the smaller. Nearest:
    by the distance between horizontal centres, at most the wider word's
    width plus the line's height (Tesseract's boxes drift, not jump).
    """

    def v_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        inter = min(a[3], b[3]) - max(a[1], b[1])
        return inter >= 0.5 * min(a[3] - a[1], b[3] - b[1])

    def dist(a: tuple[float, ...], b: tuple[float, ...]) -> float:
        return abs((a[0] + a[2]) / 2 - (b[0] + b[2]) / 2)

    gboxes = [_union(g.box for g in word) for word in glyph_words]
    near_g: dict[int, int] = {}
    for i, gb in enumerate(gboxes):
        cands = [w for w, b in boxes.items() if v_overlap(gb, b)]
        if cands:
            near_g[i] = min(cands, key=lambda w: dist(gb, boxes[w]))
    near_w: dict[int, int] = {}
    for w, b in boxes.items():
        cands = [i for i, gb in enumerate(gboxes) if v_overlap(gb, b)]
        if cands:
            near_w[w] = min(cands, key=lambda i: dist(gboxes[i], b))
    for i, w in near_g.items():
        gb, b = gboxes[i], boxes[w]
        reach = max(gb[2] - gb[0], b[2] - b[0]) + (gb[3] - gb[1])
        if near_w.get(w) == i and dist(gb, b) <= reach:
            yield glyph_words[i], w


def _pair_scaled(word: list[_Glyph], found: list[Any]) -> list[tuple[_Glyph, tuple[str, float]]]:
    """Letters of one recognised word given to the glyphs of one glyph word.

    Equal counts pair in order. Otherwise the recognised word's extent is laid
    over the glyph word's and each character goes to the glyph its centre
    falls on: a ligature glyph gets its two letters. Such a reading is capped
    at :data:`FALLBACK_CONF`: never enough alone for a glyph drawn once.
    """
    word = sorted(word, key=lambda g: g.box[0])
    found = list(found)  # in Tesseract's order: its boxes drift and may cross
    if len(word) == len(found):
        return [(g, (c.text, c.conf)) for g, c in zip(word, found, strict=True)]
    gx0, gx1 = word[0].box[0], max(g.box[2] for g in word)
    ox0, ox1 = found[0].box[0], max(c.box[2] for c in found)
    if gx1 <= gx0 or ox1 <= ox0:
        return []
    scale = (gx1 - gx0) / (ox1 - ox0)
    got: dict[int, list[Any]] = {}
    for c in found:
        x = gx0 + ((c.box[0] + c.box[2]) / 2 - ox0) * scale
        k = min(range(len(word)), key=lambda i: abs((word[i].box[0] + word[i].box[2]) / 2 - x))
        got.setdefault(k, []).append(c)
    return [
        (word[k], ("".join(c.text for c in cs), min(FALLBACK_CONF, *(c.conf for c in cs))))
        for k, cs in sorted(got.items())
    ]


def _gap(
    glyph: _Glyph, words: Mapping[int, tuple[float, float, float, float]]
) -> tuple[str, float] | None:
    """A glyph where OCR saw nothing, between two recognised words of one line: a space."""
    x0, y0, x1, y1 = glyph.box
    cx = (x0 + x1) / 2
    line = [b for b in words.values() if y0 <= (b[1] + b[3]) / 2 <= y1]
    left = any(b[2] <= cx and b[2] >= x0 - (x1 - x0) for b in line)
    right = any(b[0] >= cx and b[0] <= x1 + (x1 - x0) for b in line)
    return (" ", 80.0) if left and right else None


def _reading(glyph: _Glyph, chars: list[Any]) -> tuple[str, float] | None:
    """What OCR read inside one glyph's box: the characters centred in it, left to right."""
    if glyph.blank:
        return " ", 100.0
    x0, y0, x1, y1 = glyph.box
    padx, pady = 0.15 * (x1 - x0) + 1, 0.15 * (y1 - y0) + 1
    pad = max(padx, pady)

    def centred(px: float, py: float) -> list[Any]:
        return [
            c
            for c in chars
            if x0 - px <= (c.box[0] + c.box[2]) / 2 <= x1 + px
            and y0 - py <= (c.box[1] + c.box[3]) / 2 <= y1 + py
        ]

    # Strictly inside first; the margin only when nothing is, so a neighbour is not swallowed.
    inside = centred(0.0, 0.0) or centred(padx, pady)
    if not inside:
        # A small mark (a period) may be boxed a little off: take the character mostly inside.
        def share(c: Any) -> float:
            w = max(0.0, min(x1 + pad, c.box[2]) - max(x0 - pad, c.box[0]))
            h = max(0.0, min(y1 + pad, c.box[3]) - max(y0 - pad, c.box[1]))
            area = max(1.0, (c.box[2] - c.box[0]) * (c.box[3] - c.box[1]))
            return float(w * h / area)

        best = max(chars, key=share, default=None)
        if best is None or share(best) < 0.5:
            return None
        inside = [best]
    inside.sort(key=lambda c: c.box[0])
    conf = min(c.conf for c in inside)
    # Boxes that agree (the glyph's own outline and what OCR boxed) keep their confidence;
    # otherwise the reading is a guess from proximity and never enough on its own.
    if _overlap(glyph.box, _union(c.box for c in inside)) < MIN_BOX_OVERLAP:
        conf = min(conf, FALLBACK_CONF)
    return "".join(c.text for c in inside), conf


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over the smaller box."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / small if small > 0 else 0.0


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


def _read_page(
    image: Any,
    glyphs: Mapping[tuple[int, int], list[_Glyph]],
    readings: Mapping[tuple[int, int], Mapping[int, list[tuple[str, float]]]],
    alternatives: Mapping[tuple[int, int], dict[int, Counter[str]]],
    lang: str,
) -> Iterator[tuple[tuple[int, int], _Glyph, tuple[str, float]]]:
    """Readings of one page's glyphs: from a specimen sheet of a few words when that is
    enough (:mod:`.specimen`), else from the whole page."""
    from . import ocr, specimen

    words: list[list[_Glyph]] = []
    codes: list[list[tuple[tuple[int, int], int]]] = []
    for key, items in glyphs.items():
        for word in _glyph_words(items):
            words.append(word)
            codes.append([(key, g.code) for g in word])
    have = {
        (key, code): sum(1 for _, conf in seen if conf > FALLBACK_CONF)
        for key, by_code in readings.items()
        for code, seen in by_code.items()
    }
    band = ocr.band_read(image, lang)
    if band is not None:
        # Choosing the language read the top of this page in this language: its words are
        # read, and the sheet shows only what they leave wanting.
        top, bottom, band_chars = band
        key_of_word = {id(g): key for key, items in glyphs.items() for g in items}
        rest_words, rest_codes = [], []
        for word, word_codes in zip(words, codes, strict=True):
            if min(g.box[1] for g in word) >= top and max(g.box[3] for g in word) <= bottom:
                key = key_of_word[id(word[0])]
                for glyph, got in read_glyphs(word, band_chars, alternatives[key]):
                    if got[1] > FALLBACK_CONF:
                        have[(key, glyph.code)] = have.get((key, glyph.code), 0) + 1
                    yield key, glyph, got
            else:
                rest_words.append(word)
                rest_codes.append(word_codes)
        words, codes = rest_words, rest_codes
    total = sum(len(items) for items in glyphs.values())
    # Choosing the language may have read this page whole already: that costs nothing more.
    done = ocr.already_read(image, lang)
    sheet = None if done is not None else specimen.build(image, words, codes, total, have)
    if sheet is None and band is not None:
        # The band's words are read; the rest of the page only when still wanted.
        key_of = {id(g): key for key, items in glyphs.items() for g in items}
        for key, items in glyphs.items():
            for glyph in items:
                if glyph.blank:
                    yield key, glyph, (" ", 100.0)
        if specimen.choose(codes, have):
            chars = ocr.recognise(image, lang)
            for word in words:
                key = key_of[id(word[0])]
                for glyph, got in read_glyphs(word, chars, alternatives[key]):
                    yield key, glyph, got
        return
    if sheet is None:
        chars = done if done is not None else ocr.recognise(image, lang)
        for key, items in glyphs.items():
            for glyph, got in read_glyphs(items, chars, alternatives[key]):
                yield key, glyph, got
        return
    chars = sheet.to_page(ocr.recognise(sheet.image, lang))
    for key, items in glyphs.items():
        for glyph in items:
            if glyph.blank:
                yield key, glyph, (" ", 100.0)
    key_of = {id(g): key for key, items in glyphs.items() for g in items}
    # One word at a time: words of the sheet are not neighbours on the page.
    for word in sheet.words:
        key = key_of[id(word[0])]
        for glyph, got in read_glyphs(word, chars, alternatives[key]):
            yield key, glyph, got


#: Glyphs of a page without a specimen sheet that Tesseract's script detection is shown:
#: its time grows with the picture it is given.
OSD_GLYPHS = 150


def _page_names(usages: Iterable[FontUsage], index: int) -> dict[str, FontUsage]:
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


def choose_lang(
    data: bytes, usages: Iterable[FontUsage], *, dpi: int = 300
) -> tuple[str, str] | None:
    """Tesseract's language for a document whose text nothing names, from glyph OCR's own
    first pass: (pack, how it was chosen), or None when no page's glyphs can be read.

    The first page that draws the fonts is rendered as :func:`from_glyphs`
    renders it and its specimen sheet is built (:mod:`.specimen`); Tesseract's
    script detection looks at the sheet, not at the page, the sheet is read in
    the script's default pack,
    and the letter-pair model names the language from the document's text
    under the codes that reading gives. When the votes of that reading agree
    on fewer than :data:`MIN_AGREED` of the codes, the script was wrong: the
    sheet is read in each other script's pack and the reading whose votes
    agree most is kept. When that is the script's pack, glyph
    OCR finds the sheet already read (:func:`.ocr.recognise` keeps it), so the
    language costs one small script detection and no reading of its own.
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
            if page.get_rotation() % 360:
                continue
            names = _page_names(wanted, index)
            glyphs = _pdfium_glyphs(page, names, index, scale, blanks) if names else {}
            if not glyphs:
                continue
            image = page.render(scale=scale).to_pil().convert("L")
            for items in glyphs.values():
                _mark_inkless(items, image)
            words = [w for items in glyphs.values() for w in _glyph_words(items)]
            codes = [[(key, g.code) for g in w] for key, items in glyphs.items()
                     for w in _glyph_words(items)]
            total = sum(len(items) for items in glyphs.values())
            sheet = specimen.build(image, words, codes, total, {})
            script = ocr.detect_script(_osd_sample(image, sheet, words)) or "eng"

            readings, alternatives, text = _first_pass(image, glyphs, wanted, blanks, script)
            agreed = _agreed(readings, wanted)
            if agreed < MIN_AGREED:
                # Script detection errs (a Greek serif heading taken for Latin): read in the
                # wrong script, most codes get votes that disagree. Each other script's pack
                # reads the sheet, and the reading whose votes agree on the most codes wins.
                installed = ocr.tesseract_info().languages
                for other in dict.fromkeys(ocr.SCRIPT_LANG.values()):
                    if other == script or other not in installed:
                        continue
                    again = _first_pass(image, glyphs, wanted, blanks, other)
                    if _agreed(again[0], wanted) > agreed:
                        script, (readings, alternatives, text) = other, again
                        agreed = _agreed(readings, wanted)
            _remember_first_pass(data, index, dpi, script, readings, alternatives)
            best = langmodel.best_language(text)
            found = ocr.TESSERACT_CODES.get((best or "").split("+")[0])
            if found and found in ocr.tesseract_info().languages:
                return found, "from glyph OCR's first pass"
            return script, "from Tesseract's script detection"
    finally:
        doc.close()
    return None


#: The page :func:`choose_lang` read, for :func:`from_glyphs` to take its readings instead
#: of reading it again in the same language: (PDF digest, page, dpi, language) -> (readings,
#: alternatives), per font.
_FIRST_PASS: dict[tuple[str, int, int, str], tuple[Any, Any]] = {}


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _remember_first_pass(data: bytes, index: int, dpi: int, lang: str, readings: Any,
                         alternatives: Any) -> None:
    _FIRST_PASS.clear()
    _FIRST_PASS[(_digest(data), index, dpi, lang)] = (readings, alternatives)


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


def _first_pass(image: Any, glyphs: Mapping[tuple[int, int], list[_Glyph]],
                wanted: list[FontUsage], blanks: Mapping[tuple[int, int], set[int]],
                script: str) -> tuple[Any, Any, str]:
    """The page's glyphs read in ``script``'s pack: readings, alternatives, and the
    document's text under the codes they give."""
    from . import ocr

    ocr.require(script)
    readings: dict[tuple[int, int], dict[int, list[tuple[str, float]]]] = {
        u.key: {} for u in wanted}
    alternatives: dict[tuple[int, int], dict[int, Counter[str]]] = {u.key: {} for u in wanted}
    for key, glyph, got in _read_page(image, glyphs, readings, alternatives, script):
        readings[key].setdefault(glyph.code, []).append(got)
    text = "\n".join(_font_text(u, {**vote(readings[u.key], u.codes()),
                                     **dict.fromkeys(blanks[u.key], " ")})
                     for u in wanted)
    return readings, alternatives, text


def _osd_sample(image: Any, sheet: Any, words: list[list[_Glyph]]) -> Any:
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
        box = _union(g.box for g in word)
        shown += len(word)
        x0, y0 = min(x0, box[0]), min(y0, box[1])
        x1, y1 = max(x1, box[2]), max(y1, box[3])
    if not shown:
        return image
    margin = 0.5 * (_union(g.box for g in words[0])[3] - _union(g.box for g in words[0])[1])
    return image.crop((max(0, int(x0 - margin)), max(0, int(y0 - margin)),
                       min(image.width, int(x1 + margin) + 1),
                       min(image.height, int(y1 + margin) + 1)))


def from_glyphs(
    data: bytes, usages: Iterable[FontUsage], lang: str, *, dpi: int = 300
) -> dict[tuple[int, int], Recovery]:
    """Source c: read the glyphs with Tesseract and vote per code across the whole document.

    ``data`` is the PDF the usages were collected from. Pages turned by
    /Rotate are left out (their boxes would need turning too); fonts whose
    glyphs cannot be paired with PDFium's characters get no votes.
    """
    import pypdfium2

    from ..lang import langmodel
    from . import ocr
    from .blankglyphs import blank_codes
    from .glyphsettle import settle, split_twins

    model = langmodel.reference_model()
    # The letter-pair model names languages by ISO code; Tesseract's first pack decides.
    iso = {v: k for k, v in ocr.TESSERACT_CODES.items()}
    model_lang = iso.get(lang.split("+")[0]) if "+" not in lang else None

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
            first = _FIRST_PASS.pop((digest, index, dpi, lang), None)
            if first is not None:
                # Choosing the language read this page in this language: its readings stand.
                for key, by_code in first[0].items():
                    for code, seen in by_code.items():
                        readings.setdefault(key, {}).setdefault(code, []).extend(seen)
                for key, by_code in first[1].items():
                    for code, tally in by_code.items():
                        alternatives.setdefault(key, {}).setdefault(code, Counter()).update(tally)
                for pair in drawn:
                    looked[pair] = looked.get(pair, 0) + 1
                continue
            if all(
                _settled(readings[k].get(c, [])) or looked.get((k, c), 0) >= SETTLED_VOTES
                for k, c in drawn
            ):
                # Every code here is read often enough, or was looked at on enough pages
                # that more would not help: save an OCR run.
                continue
            page = doc[index]
            if page.get_rotation() % 360:
                continue
            names = _page_names(wanted, index)
            if not names:
                continue
            scale = dpi / 72
            glyphs = _pdfium_glyphs(page, names, index, scale, blanks)
            if not glyphs:
                continue
            image = page.render(scale=scale).to_pil().convert("L")
            for pair in drawn:
                looked[pair] = looked.get(pair, 0) + 1
            for items in glyphs.values():
                _mark_inkless(items, image)
            for usage_key, glyph, got in _read_page(image, glyphs, readings, alternatives, lang):
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
