"""The values a new ToUnicode is written with: the chosen map, as its producer wrote it.

A program's cmap gives one character among several a glyph may stand for
(a ligature or its letters, Arabic or Farsi yeh); where the font's present
ToUnicode still shows what the producer wrote, that is what is written.
"""

from __future__ import annotations

import re

from .plan import Plan
from .readings import junk

#: Latin ligatures (U+FB00-U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ).
_LATIN_LIGATURES = re.compile("[\ufb00-\ufb06]")


def ligatures_as_written(plan: Plan) -> dict[int, str]:
    """The plan's map, a Latin ligature found for a code (a program's cmap or glyph name)
    written as the font's present ToUnicode says the original was.

    As many proper characters as the ligature's letters (a shifted or
    permuted "ff": shaping producers, HarfBuzz, write the letters of the
    cluster) -> the letters. One character (the ligature moved by the
    offset the font was shifted by, even into unassigned code points) ->
    the ligature, as found. No evidence left (no value, private use,
    U+FFFD, a control such as U+0000, which poppler passes over to the
    glyph's name) -> the letters: the PDF reference's own ToUnicode example
    maps its ligature glyphs to "ff", "fi" and "ffl", poppler and PDFium show
    a simple font's ``fi`` name so when there is no ToUnicode, and most
    producers write them so (Word, LibreOffice, the TeX engines, Chromium,
    cairo and HarfBuzz-based ones write the cluster's letters); search finds
    "find" in them. (MuPDF writes the AGL's U+FB01: equal up to
    compatibility.)
    """
    import unicodedata

    from .recover import is_pua

    out = dict(plan.mapping)
    for code, text in plan.mapping.items():
        if not _LATIN_LIGATURES.search(text):
            continue
        letters = _LATIN_LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
        present = plan.written(code)
        as_written = bool(present) and not junk(present or "") \
            and len(present or "") == len(letters) != len(text)
        unknown = not present or all(
            ch == "\ufffd" or is_pua(ch) or unicodedata.category(ch) == "Cc" for ch in present)
        if as_written or (unknown and len(text) == 1):
            out[code] = letters
    return out


def _same_kind(a: str, b: str) -> bool:
    """Characters of one kind: same length, same general category, letters of one script."""
    import unicodedata

    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        cat = unicodedata.category(x)
        if cat != unicodedata.category(y):
            return False
        if cat.startswith("L") and \
                unicodedata.name(x, "?").split()[0] != unicodedata.name(y, "?").split()[0]:
            return False
    return True


def choices_as_written(plan: Plan, mapping: dict[int, str]) -> dict[int, str]:
    """``mapping`` with the producer's own values back where a shifted map still shows them.

    The program's reading of a glyph is a guess among what it could stand
    for: one glyph often stands for several characters in its font's cmap
    (Arabic yeh U+064A and Farsi yeh U+06CC, U+00B7 and U+2219), and a
    producer may write another character of the same kind than the cmap
    gives (a '.' for B Nazanin's ',' glyph). A font whose ToUnicode sat a
    constant away from that reading (:attr:`Plan.shift`) still carries what
    its producer wrote: moved back, it is kept when the cmap reaches the
    glyph by it, or when it is of the program's character's kind (category,
    script). Otherwise the program wins: a map that gave glyph ids as
    characters (Mac-standard order) moves accented letters back onto
    symbols and controls.
    """
    if plan.shift is None or plan.info is None:
        return mapping
    from .recover import usable_text

    choices = {c: t for found in plan.program for c, t in found.choices.items()}
    out = dict(mapping)
    for code, text in mapping.items():
        present = plan.written(code)
        if not present:
            continue
        moved = [ord(ch) + plan.shift for ch in present]
        if not all(0 < cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF for cp in moved):
            continue
        back = "".join(map(chr, moved))
        if back == text or not usable_text(back) or junk(back):
            continue
        if back in choices.get(code, ()) or _same_kind(back, text):
            out[code] = back
    return out


def width(plan: Plan) -> int:
    if plan.info is not None:
        widths = {r[0] for r in plan.info.code_ranges}
        if len(widths) == 1:
            return int(next(iter(widths)))
    return int(plan.usage.width)
