"""A specimen sheet: the few words of a page that show every code to be read, for one OCR run.

Tesseract's time grows with the text it reads, and a page of prose draws
each of its forty-odd codes dozens of times. Glyph OCR needs a few
readings of each code, in the words it sits in (Tesseract reads words far
better than lone letters), not the whole page. :func:`build` picks words
greedily until every code drawn on the page has :data:`TARGET` occurrences
(or all it has), copies only their glyphs' pixels onto a white sheet in
rows of like height (neighbouring lines' ink stays out), and
:meth:`Sheet.to_page` moves what Tesseract read on the sheet back to the
page, where glyphs and readings pair as on a full page.

When the chosen words would be most of the page, the page itself is read:
the sheet saves nothing then and the page keeps its context.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Occurrences of each code a sheet shows (fewer when the page draws it fewer times): the
#: readings the vote needs (``glyphocr.MIN_VOTES``). A third adds no tolerance: one misread
#: of three is below the vote's agreement (``glyphocr.MIN_AGREEMENT``, 0.7) as one of two
#: is, and the words the code sits in settle it then (:mod:`.glyphsettle`). Tesseract's
#: time is in the characters it reads: a third occurrence of every code cost a severed page
#: an eighth of its CPU, and pushed Russian pages past :data:`MAX_SHARE`, read whole.
TARGET = 2
#: Above this share of the page's glyphs the page is read whole.
MAX_SHARE = 0.6
#: White between rows, in units of the row's height.
GAP = 1.0
#: White between words, in units of the row's height: about a word space and a half. Wider
#: gaps make Tesseract's line model invent letters in them (Greek: a breathing mark, 'Ἱ').
WORD_GAP = 0.4
#: Widest row of the sheet, in pixels (an A4 line at 300 dpi).
ROW_WIDTH = 2400
#: Pixels added around each glyph box: antialiasing reaches past the outline.
PAD = 3
#: A word of fewer glyphs than this is shown with its neighbour.
SHORT_WORD = 3


@dataclass
class Sheet:
    """The sheet image and where each word came from."""

    image: Any
    #: Per word, (x0, y0, x1, y1 on the sheet, dx, dy): add (dx, dy) to a sheet point to
    #: reach the page.
    places: list[tuple[float, float, float, float, float, float]]
    #: The words shown, as lists of glyphs (pageglyphs.Glyph).
    words: list[list[Any]]

    def split(self, share: float) -> tuple[Sheet, Sheet] | None:
        """The sheet's first words in reading order, about ``share`` of its glyphs, and the
        rest; None for a one-word sheet.

        The head is the top of the sheet down to the row of its last word, the
        words after it painted out; the rest is the whole sheet with the head's
        words painted out, so every word keeps its place. Tesseract reads a
        sheet line by line, so the two read as the whole does, and the head alone
        is a cheap first look (:func:`.glyphlang.choose_lang` asks it whether a
        language's pack suits the glyphs before the rest is read).
        """
        if len(self.words) < 2:
            return None
        # Rows: words whose boxes overlap vertically, top to bottom; left to right in each.
        order = sorted(range(len(self.places)), key=lambda i: self.places[i][1])
        rows: list[list[int]] = []
        bottom = -1.0
        for i in order:
            if rows and self.places[i][1] < bottom:
                rows[-1].append(i)
                bottom = max(bottom, self.places[i][3])
            else:
                rows.append([i])
                bottom = self.places[i][3]
        reading = [i for row in rows for i in sorted(row, key=lambda i: self.places[i][0])]
        total = sum(len(w) for w in self.words)
        head: list[int] = []
        for n, i in enumerate(reading[:-1]):
            head.append(i)
            # A short word stays with the word after it, as build placed it to be read.
            if sum(len(self.words[k]) for k in head) >= share * total \
                    and not (len(self.words[i]) < SHORT_WORD and n + 2 < len(reading)):
                break
        last_row = next(r for r, row in enumerate(rows) if head[-1] in row)
        row_bottom = max(self.places[i][3] for i in rows[last_row])
        cut = (int((row_bottom + min(self.places[i][1] for i in rows[last_row + 1])) / 2)
               if last_row + 1 < len(rows) else self.image.height)
        chosen = set(head)
        rest = [i for i in range(len(self.words)) if i not in chosen]
        head_image = self.image.crop((0, 0, self.image.width, cut))
        _paint_out(head_image, [self.places[i] for i in rest if self.places[i][1] < cut])
        rest_image = self.image.copy()
        _paint_out(rest_image, [self.places[i] for i in head])
        return (Sheet(head_image, [self.places[i] for i in head], [self.words[i] for i in head]),
                Sheet(rest_image, [self.places[i] for i in rest], [self.words[i] for i in rest]))

    def to_page(self, chars: Sequence[Any]) -> list[Any]:
        """Tesseract's characters on the sheet, moved to where their word is on the page.

        A character whose centre lies in no placed word (noise between
        rows) is dropped.
        """
        out = []
        for ch in chars:
            cx, cy = (ch.box[0] + ch.box[2]) / 2, (ch.box[1] + ch.box[3]) / 2
            for x0, y0, x1, y1, dx, dy in self.places:
                if x0 <= cx <= x1 and y0 <= cy <= y1:
                    b = ch.box
                    out.append(dataclasses.replace(ch, box=(b[0] + dx, b[1] + dy,
                                                            b[2] + dx, b[3] + dy)))
                    break
        return out


def wanting(drawn: Mapping[Hashable, int], have: Mapping[Any, int]) -> dict[Hashable, int]:
    """Readings each code drawn (``drawn`` times) still wants: :data:`TARGET`, or as many as
    it is drawn, less the readings it ``have`` already; codes that want none are left out."""
    return {c: want for c, n in drawn.items() if (want := min(TARGET, n) - have.get(c, 0)) > 0}


def choose(words: Sequence[Sequence[Hashable]], have: Mapping[Any, int]) -> list[int]:
    """Indices of words that together show every code :data:`TARGET` times (or all it has).

    A word is given as its codes (each code keyed with its font). ``have``
    counts readings each code already has from earlier pages. Greedy: the
    word adding the most still-needed occurrences per glyph first, so short
    words with rare letters come before long common ones.
    """
    need = wanting(Counter(c for w in words for c in w), have)
    chosen: list[int] = []
    left = range(len(words))

    def gain(i: int) -> float:
        seen: Counter[Hashable] = Counter()
        score = 0
        for c in words[i]:
            if seen[c] < need.get(c, 0):
                score += 1
            seen[c] += 1
        return score / (len(words[i]) + 2)

    # Lazy greedy: a word's gain only falls as others are chosen, so a gain computed earlier
    # bounds it; the top of the heap is taken once its fresh gain still leads. Ties go to
    # the earlier word, as a plain scan of the largest gain would.
    heap = [(-gain(i), i) for i in sorted(left)]
    heapq.heapify(heap)
    while heap and any(need.values()):
        _, best = heapq.heappop(heap)
        fresh = gain(best)
        if fresh <= 0:
            continue
        if heap and (-fresh, best) > heap[0]:
            heapq.heappush(heap, (-fresh, best))
            continue
        chosen.append(best)
        for c in words[best]:
            if need.get(c, 0) > 0:
                need[c] -= 1
    return chosen


def build(image: Any, words: Sequence[list[Any]], codes: Sequence[Sequence[Hashable]],
          total_glyphs: int, have: Mapping[Any, int]) -> Sheet | None:
    """The sheet for ``words`` (inked glyph runs of the page, with their codes keyed by font),
    or None: read the whole page."""
    from PIL import Image

    picked = choose(codes, have)
    # A short word ("3", "o", "Il") is shown with the word after it on its line: alone it
    # has no line for Tesseract to take case or kind (digit, letter) from.
    for i in list(picked):
        nxt = i + 1
        if len(words[i]) < SHORT_WORD and nxt < len(words) and nxt not in picked \
                and _same_line(words[i], words[nxt]):
            picked.append(nxt)
    picked.sort()
    chosen = [words[i] for i in picked]
    shown = sum(len(w) for w in chosen)
    if not chosen or shown > MAX_SHARE * max(1, total_glyphs):
        return None
    boxes = [_word_box(w) for w in chosen]
    fonts = [c[0][0] if isinstance(c[0], tuple) else 0 for c in (codes[i] for i in picked)]
    # Reading order within each font: a row then looks like a line of the page (Tesseract
    # tells case from the line's x-height, which lone lowercase words cannot show).
    order = sorted(range(len(chosen)), key=lambda i: (fonts[i], boxes[i][1], boxes[i][0]))
    base = [_baseline(w) for w in chosen]
    rows: list[list[int]] = []
    width = 0.0
    for i in order:
        w = boxes[i][2] - boxes[i][0]
        h = boxes[i][3] - boxes[i][1]
        same_font = bool(rows) and fonts[rows[-1][-1]] == fonts[i]
        if rows and same_font and width + w + WORD_GAP * h <= ROW_WIDTH:
            rows[-1].append(i)
            width += w + WORD_GAP * h
        else:
            rows.append([i])
            width = w
    # Per row: how far the words reach above and below their baselines.
    above = [max(base[i] - boxes[i][1] for i in r) for r in rows]
    below = [max(boxes[i][3] - base[i] for i in r) for r in rows]
    heights = [a + b for a, b in zip(above, below, strict=True)]
    sheet_w = int(max(sum(boxes[i][2] - boxes[i][0] for i in r)
                      + WORD_GAP * h * (len(r) - 1) + 2 * GAP * h
                      for r, h in zip(rows, heights, strict=True)))
    sheet_h = int(sum(h * (1 + GAP) for h in heights) + GAP * heights[0]) + 1
    sheet = Image.new("L", (sheet_w + 1, sheet_h), 255)
    # Word i of the sheet is placed at places[i], whatever row it went to.
    places: list[tuple[float, float, float, float, float, float]] = [
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)] * len(chosen)
    y = GAP * heights[0]
    for row, height, reach in zip(rows, heights, above, strict=True):
        x = GAP * height
        for i in row:
            x0, y0, x1, y1 = boxes[i]
            top = y + reach - (base[i] - y0)  # baselines aligned: the words sit on one line
            for g in chosen[i]:
                gx0, gy0, gx1, gy1 = _padded(g.box, image.size)
                patch = image.crop((gx0, gy0, gx1, gy1))
                sheet.paste(patch, (int(x + gx0 - x0), int(top + gy0 - y0)))
            dx, dy = int(x0) - int(x), int(y0) - int(top)
            places[i] = (x, top, x + (x1 - x0), top + (y1 - y0), dx, dy)
            x += (x1 - x0) + WORD_GAP * height
        y += height * (1 + GAP)
    return Sheet(sheet, places, chosen)


def _paint_out(image: Any, places: Sequence[tuple[float, ...]]) -> None:
    """Paint the words at ``places`` white (their pasted glyphs reach a pixel past the box)."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for x0, y0, x1, y1, *_ in places:
        draw.rectangle((int(x0) - 1, int(y0) - 1, int(x1) + 1, int(y1) + 1), fill=255)


def _padded(box: tuple[float, float, float, float], size: tuple[int, int]) -> tuple[
        int, int, int, int]:
    x0, y0, x1, y1 = box
    return (max(0, int(x0) - PAD), max(0, int(y0) - PAD),
            min(size[0], int(x1) + PAD + 1), min(size[1], int(y1) + PAD + 1))


def _word_box(word: list[Any]) -> tuple[float, float, float, float]:
    xs0, ys0, xs1, ys1 = zip(*(g.box for g in word), strict=True)
    return (int(min(xs0)) - PAD, int(min(ys0)) - PAD, int(max(xs1)) + PAD + 1,
            int(max(ys1)) + PAD + 1)


def _baseline(word: list[Any]) -> float:
    """Where the word sits: PDFium's origins, else the commonest bottom of its glyphs."""
    origins = sorted(g.base for g in word if getattr(g, "base", None) is not None)
    if origins:
        return float(origins[len(origins) // 2])
    bottoms = sorted(g.box[3] for g in word)
    return float(bottoms[len(bottoms) // 2])


def _same_line(a: list[Any], b: list[Any]) -> bool:
    """``b`` follows ``a`` on its line, a word space or so away."""
    ax0, ay0, ax1, ay1 = _word_box(a)
    bx0, by0, bx1, by1 = _word_box(b)
    height = max(ay1 - ay0, by1 - by0)
    return bx0 >= ax1 - 2 * PAD and bx0 - ax1 < 2 * height and min(ay1, by1) > max(ay0, by0)
