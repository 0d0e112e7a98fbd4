"""What Tesseract read in each glyph's box: its words and characters paired with the glyphs.

Tesseract's word text is reliable but its character boxes drift, so glyphs
pair with what was read word by word, and only then by box; a reading the
boxes do not back is capped (:data:`FALLBACK_CONF`) so that it never decides
a code alone. The voting over these readings is :mod:`.glyphocr`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from .pageglyphs import Glyph, glyph_words

#: Confidence given at most to a reading whose boxes do not agree with the glyph's.
FALLBACK_CONF = 80.0
#: Share of the smaller box that the glyph's box and the OCR box must share to agree.
MIN_BOX_OVERLAP = 0.6


def union(boxes: Iterable[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    xs0, ys0, xs1, ys1 = zip(*boxes, strict=True)
    return min(xs0), min(ys0), max(xs1), max(ys1)


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


#: Tesseract's characters grouped by word, and each word's box.
OcrWords = tuple[dict[int, list[Any]], dict[int, tuple[float, float, float, float]]]


def ocr_words(chars: list[Any]) -> OcrWords:
    """Tesseract's characters by word, with the words' boxes: made once for a reading that
    many glyph words are paired with (a specimen sheet's words, one at a time)."""
    words: dict[int, list[Any]] = {}
    for ch in chars:
        words.setdefault(ch.word, []).append(ch)
    return words, {w: union(c.box for c in cs) for w, cs in words.items()}


def one_to_one(word: list[Glyph], grouped: OcrWords) -> list[Any] | None:
    """The recognised word a glyph word pairs with letter for letter: the one its box
    overlaps most, when that is by half and it has as many letters; else None."""
    words, boxes = grouped
    box = union(g.box for g in word)
    best = max(boxes, key=lambda w: _iou(box, boxes[w]), default=None)
    if best is not None and _iou(box, boxes[best]) >= 0.5 and len(words[best]) == len(word):
        return list(words[best])
    return None


def commonest(tallies: Mapping[int, Counter[str]]) -> dict[int, str]:
    """Per code, what it was read as most often (codes with no reading left out)."""
    return {code: tally.most_common(1)[0][0] for code, tally in tallies.items() if tally}


def _along(word: list[Glyph], grouped: OcrWords) -> list[Any] | None:
    """The letters of the recognised words that lie along a glyph word, left to right, when
    there are two or more such words and as many letters as glyphs; else None.

    A line of a script written without spaces (Chinese, Japanese) is one glyph
    word that Tesseract reads as many words, each boxed half a character off
    from some point on (its "日" over the glyph of the "か" after it): the
    line pairs letter by letter, as a word does.
    """
    words, boxes = grouped
    x0, y0, x1, y1 = union(g.box for g in word)
    lying = [w for w, b in boxes.items() if y0 <= (b[1] + b[3]) / 2 <= y1
             and min(b[2], x1) - max(b[0], x0) >= (b[2] - b[0]) / 2]
    if len(lying) < 2:
        return None
    found = [c for w in sorted(lying, key=lambda w: boxes[w][0]) for c in words[w]]
    return found if len(found) == len(word) and not right_to_left(found) else None


def read_glyphs(
    items: list[Glyph], chars: list[Any], choices: dict[int, Counter[str]] | None = None,
    grouped: OcrWords | None = None, known: Mapping[int, str] | None = None,
) -> Iterator[tuple[Glyph, tuple[str, float]]]:
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
    ``grouped`` is :func:`ocr_words` of ``chars``, when the caller made it already;
    ``known``, what codes were read as, one to one, in other words (:func:`_runs`).
    """
    words, boxes = grouped if grouped is not None else ocr_words(chars)
    done: set[int] = set()
    for glyph in items:
        if glyph.blank:
            done.add(id(glyph))
            yield glyph, (" ", 100.0)
    gwords = list(glyph_words(items))
    pairs: list[tuple[list[Glyph], list[Any]]] = []
    for word in gwords:
        found = one_to_one(word, (words, boxes)) or _along(word, (words, boxes))
        if found is not None:
            pairs.append((word, found))
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
    # What each code was read as where glyphs and letters pair one to one.
    alone: dict[int, Counter[str]] = {}
    for word, found in pairs:
        if any(id(g) in done for g in word):
            continue
        # Tesseract's own order: its character boxes drift and may cross (ж before н).
        # A right-to-left word it gives in reading order, right to left: turned, with the
        # glyphs left to right, each side goes the same way.
        if right_to_left(found):
            word, found = sorted(word, key=lambda g: g.box[0] + g.box[2]), visual_order(found)
        for glyph, ch in zip(word, found, strict=True):
            done.add(id(glyph))
            if ch.conf > FALLBACK_CONF:
                alone.setdefault(glyph.code, Counter())[ch.text] += 1
            if choices is not None:
                tally = choices.setdefault(glyph.code, Counter())
                for text, conf in getattr(ch, "choices", ()):
                    tally[text] += conf
            yield glyph, (ch.text, ch.conf)
    rest = [w for w in gwords if not any(id(g) in done for g in w)]
    if rest:  # most calls pair every word one to one: nothing to cut, nothing to know
        known = {**(known or {}), **commonest(alone)}
        for word, w in _nearest_words(rest, boxes):
            for glyph, placed in _pair_scaled(word, words[w], known):
                done.add(id(glyph))
                yield glyph, placed
    for glyph in items:
        if id(glyph) not in done:
            got = _reading(glyph, chars) or _gap(glyph, boxes)
            if got is not None:
                yield glyph, got


def right_to_left(found: list[Any]) -> bool:
    """Whether most letters of a recognised word are of a right-to-left script (Hebrew,
    Arabic, Syriac, Thaana, N'Ko): Tesseract gives those in reading order, right to left."""
    import unicodedata

    kinds = [unicodedata.bidirectional(ch) for c in found for ch in c.text]
    letters = [k for k in kinds if k in ("L", "R", "AL")]
    return bool(letters) and 2 * sum(k != "L" for k in letters) > len(letters)


#: Bidirectional classes that read left to right inside a right-to-left word: letters of a
#: left-to-right script and digits; separators and terminators of numbers between them.
_LTR, _NUMERIC_JOINERS = ("L", "EN", "AN"), ("ES", "CS", "ET")


def visual_order(found: list[Any]) -> list[Any]:
    """A right-to-left word's characters left to right on the page: Tesseract gives them in
    reading order, right to left, except that digits and Latin letters inside the word
    ("ה-50") read left to right; those runs are turned back."""
    import unicodedata

    turned = list(found)[::-1]
    kinds = [unicodedata.bidirectional(c.text[:1]) if c.text else "" for c in turned]

    def ltr(k: int) -> bool:
        if kinds[k] in _LTR:
            return True
        return (kinds[k] in _NUMERIC_JOINERS and 0 < k < len(kinds) - 1
                and kinds[k - 1] in _LTR and kinds[k + 1] in _LTR)

    out: list[Any] = []
    run: list[Any] = []
    for k, ch in enumerate(turned):
        if ltr(k):
            run.append(ch)
            continue
        out.extend(reversed(run))
        run = []
        out.append(ch)
    out.extend(reversed(run))
    return out


def _nearest_words(
    glyph_words: list[list[Glyph]], boxes: Mapping[int, tuple[float, float, float, float]]
) -> Iterator[tuple[list[Glyph], int]]:
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

    gboxes = [union(g.box for g in word) for word in glyph_words]
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


def _pair_scaled(word: list[Glyph], found: list[Any], known: Mapping[int, str] | None = None
                 ) -> list[tuple[Glyph, tuple[str, float]]]:
    """Letters of one recognised word given to the glyphs of one glyph word.

    Equal counts pair in order. Otherwise the recognised word's extent is laid
    over the glyph word's and each character goes to the glyph its centre
    falls on: a ligature glyph gets its two letters. More letters than glyphs
    are cut into one run per glyph, the runs that give glyphs read elsewhere
    (``known``) what they read there first (:func:`_runs`). Such a reading is
    capped at :data:`FALLBACK_CONF`: never enough alone for a glyph drawn once.
    """
    word = sorted(word, key=lambda g: g.box[0])
    # In Tesseract's order (its boxes drift and may cross), left to right on the page.
    backwards = right_to_left(found)
    found = visual_order(found) if backwards else list(found)
    if len(word) == len(found):
        return [(g, (c.text, c.conf)) for g, c in zip(word, found, strict=True)]
    gx0, gx1 = word[0].box[0], max(g.box[2] for g in word)
    ox0, ox1 = min(c.box[0] for c in found), max(c.box[2] for c in found)
    if gx1 <= gx0 or ox1 <= ox0:
        return []
    scale = (gx1 - gx0) / (ox1 - ox0)

    def placed(c: Any) -> float:
        return float(gx0 + ((c.box[0] + c.box[2]) / 2 - ox0) * scale)

    def off(k: int, c: Any) -> float:
        return abs((word[k].box[0] + word[k].box[2]) / 2 - placed(c))

    got = _runs(word, found, known or {}, off) if len(found) > len(word) else None
    if got is None:
        got = {}
        for c in found:
            got.setdefault(min(range(len(word)), key=lambda i: off(i, c)), []).append(c)
    return [
        (word[k], ("".join(c.text for c in cs), min(FALLBACK_CONF, *(c.conf for c in cs))))
        for k, cs in sorted(got.items())
    ]


#: Most ways of cutting a recognised word into runs that are weighed (a word of twelve
#: letters over nine glyphs has 165).
MAX_CUTS = 500


def _runs(word: list[Glyph], found: list[Any], known: Mapping[int, str],
          off: Callable[[int, Any], float]) -> dict[int, list[Any]] | None:
    """More letters than glyphs, left to right, cut into one run per glyph: the cut whose
    runs give the most glyphs read elsewhere on the sheet (``known``) what they read
    there, then the one whose letters sit nearest their glyphs (``off``). None when there
    are too many cuts to weigh.

    Tesseract boxes the second letter of a ligature as it can: the "i" of an
    italic "ﬁnes", boxed halfway between the ﬁ and the n, sits as near one as
    the other, and the first "f" of "scaﬀali" nearer the a than the ﬀ; the n
    and the a are read alone in other words.
    """
    import itertools
    import math

    n, m = len(found), len(word)
    if math.comb(n - 1, m - 1) > MAX_CUTS:
        return None
    best: tuple[tuple[int, float], list[list[Any]]] | None = None
    for cuts in itertools.combinations(range(1, n), m - 1):
        bounds = (0, *cuts, n)
        runs = [found[a:b] for a, b in itertools.pairwise(bounds)]
        agree = 0
        for glyph, run in zip(word, runs, strict=True):
            if glyph.code in known:
                agree += 1 if "".join(c.text for c in run) == known[glyph.code] else -1
        cost = sum(off(k, c) for k, run in enumerate(runs) for c in run)
        if best is None or (-agree, cost) < best[0]:
            best = ((-agree, cost), runs)
    return dict(enumerate(best[1])) if best is not None else None


def _gap(
    glyph: Glyph, words: Mapping[int, tuple[float, float, float, float]]
) -> tuple[str, float] | None:
    """A glyph where OCR saw nothing, between two recognised words of one line: a space."""
    x0, y0, x1, y1 = glyph.box
    cx = (x0 + x1) / 2
    line = [b for b in words.values() if y0 <= (b[1] + b[3]) / 2 <= y1]
    left = any(b[2] <= cx and b[2] >= x0 - (x1 - x0) for b in line)
    right = any(b[0] >= cx and b[0] <= x1 + (x1 - x0) for b in line)
    return (" ", 80.0) if left and right else None


def _reading(glyph: Glyph, chars: list[Any]) -> tuple[str, float] | None:
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
    if _overlap(glyph.box, union(c.box for c in inside)) < MIN_BOX_OVERLAP:
        conf = min(conf, FALLBACK_CONF)
    return "".join(c.text for c in inside), conf


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over the smaller box."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / small if small > 0 else 0.0
