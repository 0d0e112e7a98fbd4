"""A font's ToUnicode against the font's advance widths and glyph order, by rank correlation.

Where the font's program gives no account of its glyphs (no names, no
Unicode cmap: see :mod:`.crosscheck`), its metrics still speak. A map that
gives the letters drawn as other letters ranks them unlike their advance
widths, and unlike the order fonts lay their glyphs out in (roughly
Unicode's, or a legacy East Asian encoding's); a font whose widths are a
standard symbol face's draws that face's glyphs for the letters typed.
Owns the reference widths of the letters and of the symbol faces, and the
rank correlations the judge weighs per page.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

# -- widths ------------------------------------------------------------------------------------
#: Distinct lower-case letters a page must draw with a font before its widths are compared.
MIN_WIDTH_LETTERS = 8
#: Below this rank correlation between a font's widths and the letters its map gives, the map is
#: permuted. Per page with 8 letters or more, the proportional fonts of the real corpus, its
#: Ghostscript and cairo re-distillations and 24 Chromium prints give 0.72 or more (264
#: font-pages), their scrambled copies under 0.3 for 32 of 33.
MAX_WIDTH_CORRELATION = 0.3
#: Rank correlation of widths with letters that vouches for a map (real fonts: 0.6 and more).
MIN_WIDTH_RANK = 0.7


#: Advance widths (1/1000 em) of the Latin-1, Greek and Cyrillic letters. Latin: the mean of
#: Helvetica's and Times-Roman's, from Adobe's Core 14 AFM metrics (as reportlab ships them).
_REFERENCE_WIDTHS: dict[str, float] = {
    "a": 500, "b": 528, "c": 472, "d": 528, "e": 500, "f": 305.5, "g": 528, "h": 528, "i": 250,
    "j": 250, "k": 500, "l": 250, "m": 805.5, "n": 528, "o": 528, "p": 528, "q": 528, "r": 333,
    "s": 444.5, "t": 278, "u": 528, "v": 500, "w": 722, "x": 500, "y": 500, "z": 472,
    "ß": 555.5, "à": 500, "á": 500, "â": 500, "ã": 500, "ä": 500, "å": 500, "æ": 778, "ç": 472,
    "è": 500, "é": 500, "ê": 500, "ë": 500, "ì": 278, "í": 278, "î": 278, "ï": 278, "ð": 528,
    "ñ": 528, "ò": 528, "ó": 528, "ô": 528, "õ": 528, "ö": 528, "ø": 555.5, "ù": 528, "ú": 528,
    "û": 528, "ü": 528, "ý": 500, "þ": 528, "ÿ": 500,
    "A": 694.5, "B": 667, "C": 694.5, "D": 722, "E": 639, "F": 583.5, "G": 750, "H": 722,
    "I": 305.5, "J": 444.5, "K": 694.5, "L": 583.5, "M": 861, "N": 722, "O": 750, "P": 611.5,
    "Q": 750, "R": 694.5, "S": 611.5, "T": 611, "U": 722, "V": 694.5, "W": 944, "X": 694.5,
    "Y": 694.5, "Z": 611, "À": 694.5, "Á": 694.5, "Â": 694.5, "Ã": 694.5, "Ä": 694.5,
    "Å": 694.5, "Æ": 944.5, "Ç": 694.5, "È": 639, "É": 639, "Ê": 639, "Ë": 639, "Ì": 305.5,
    "Í": 305.5, "Î": 305.5, "Ï": 305.5, "Ð": 722, "Ñ": 722, "Ò": 750, "Ó": 750, "Ô": 750,
    "Õ": 750, "Ö": 750, "Ø": 750, "Ù": 722, "Ú": 722, "Û": 722, "Ü": 722, "Ý": 694.5,
    "Þ": 611.5,
    # Greek and Cyrillic: the mean of Liberation Sans's and Liberation Serif's (SIL OFL), whose
    # metrics are Arial's and Times New Roman's.
    "α": 551, "β": 542, "γ": 470.9, "δ": 513.9, "ε": 432.9, "ζ": 427.5, "η": 539.6, "θ": 517.6,
    "ι": 245.6, "κ": 502, "λ": 492.4, "μ": 556.2, "ν": 476.1, "ξ": 446.8, "ο": 528.1, "π": 597.4,
    "ρ": 533.9, "ς": 439, "σ": 578.1, "τ": 398.4, "υ": 521, "φ": 612.8, "χ": 484.4, "ψ": 669.4,
    "ω": 719.5, "Α": 694.6, "Β": 667, "Γ": 564.5, "Δ": 655.5, "Ε": 638.9, "Ζ": 610.8, "Η": 722.2,
    "Θ": 750, "Ι": 305.4, "Κ": 694.6, "Λ": 696.5, "Μ": 861.1, "Ν": 722.2, "Ξ": 646.5, "Ο": 750,
    "Π": 722.2, "Ρ": 611.6, "Σ": 600.1, "Τ": 610.8, "Υ": 694.6, "Φ": 764.4, "Χ": 694.6,
    "Ψ": 786.6, "Ω": 745.4, "а": 500, "б": 540.8, "в": 501.7, "г": 387.5, "д": 546.1, "е": 500,
    "ж": 679.9, "з": 426.8, "и": 546.9, "й": 546.9, "к": 461.7, "л": 541.3, "м": 660.2,
    "н": 543.7, "о": 528.1, "п": 538.3, "р": 528.1, "с": 471.9, "т": 447.5, "у": 500, "ф": 735.4,
    "х": 500, "ц": 554, "ч": 512, "ш": 786.1, "щ": 796.4, "ъ": 571, "ы": 695.3, "ь": 488.5,
    "э": 469.7, "ю": 748.5, "я": 500.7, "А": 694.6, "Б": 615.2, "В": 667, "Г": 559.8, "Д": 679.7,
    "Е": 638.9, "Ж": 909.7, "З": 552.5, "И": 720.5, "Й": 720.5, "К": 624.8, "Л": 667.2,
    "М": 861.1, "Н": 722.2, "О": 750, "П": 720.5, "Р": 611.6, "С": 694.6, "Т": 610.8, "У": 671.6,
    "Ф": 775.1, "Х": 694.6, "Ц": 731, "Ч": 658.2, "Ш": 962.6, "Щ": 973.1, "Ъ": 748.8, "Ы": 878.7,
    "Ь": 615.2, "Э": 689.5, "Ю": 1019, "Я": 694.6,
}


def reference_widths() -> dict[str, float]:
    """Standard advance widths of the Latin-1, Greek and Cyrillic letters (_REFERENCE_WIDTHS)."""
    return _REFERENCE_WIDTHS


def letter_widths(tounicode: Mapping[int, str], widths: Mapping[int, float]) -> dict[
        int, tuple[str, float]]:
    """Code → (Latin, Greek or Cyrillic letter its map gives, its advance width)."""
    ref = reference_widths()
    return {code: (text, widths[code]) for code, text in tounicode.items()
            if text in ref and widths.get(code, 0) > 0}


#: Share of the letters drawn whose widths must be a symbol face's (one scale for all of them).
MIN_FACE_MATCH = 0.9
#: How far one width may be from the face's, as a share of it.
FACE_TOLERANCE = 0.02


def symbol_face(letters: Mapping[int, tuple[str, float]], drawn: Mapping[int, int]) -> str | None:
    """The standard symbol face (Symbol, ZapfDingbats) whose glyphs a font draws for the
    letters typed, told by their advance widths; None when the widths are no such face's.

    Letters typed in the Symbol face draw Greek (``a`` draws alpha), in ZapfDingbats
    ornaments: a map that gives the letters typed is the author's text, as with a font
    named so (fonts.SYMBOL_FONT_NAME). A re-print that loses the name (cairo and
    Ghostscript make such faces unnamed Type3 fonts) keeps the widths: each letter's
    width is the width of the face's glyph at that letter's code, at one scale.
    """
    pairs = {found for code in drawn if (found := letters.get(code)) is not None
             and len(found[0]) == 1 and ord(found[0]) < 256}
    if len({letter for letter, _ in pairs}) < MIN_WIDTH_LETTERS:
        return None
    for face, widths in _face_widths().items():
        ratios = sorted(width / widths[letter] for letter, width in pairs
                        if widths.get(letter, 0) > 0)
        if len(ratios) < MIN_FACE_MATCH * len(pairs):
            continue
        scale = ratios[len(ratios) // 2]
        close = sum(1 for r in ratios if abs(r - scale) <= FACE_TOLERANCE * scale)
        if close >= MIN_FACE_MATCH * len(pairs):
            return face
    return None


@functools.cache
def _face_widths() -> dict[str, dict[str, float]]:
    """Width of each standard symbol face's glyph per Latin-1 character code (Adobe's core
    metrics, as reportlab ships them)."""
    from reportlab.pdfbase import (
        _fontdata_enc_symbol,
        _fontdata_enc_zapfdingbats,
        _fontdata_widths_symbol,
        _fontdata_widths_zapfdingbats,
    )

    faces = {"Symbol": (_fontdata_enc_symbol.SymbolEncoding, _fontdata_widths_symbol.widths),
             "ZapfDingbats": (_fontdata_enc_zapfdingbats.ZapfDingbatsEncoding,
                              _fontdata_widths_zapfdingbats.widths)}
    return {face: {chr(code): float(widths[name]) for code, name in enumerate(encoding)
                   if name and name in widths}
            for face, (encoding, widths) in faces.items()}


def width_correlation(letters: Mapping[int, tuple[str, float]],
                      drawn: Mapping[int, int]) -> tuple[float, int] | None:
    """Rank correlation between the widths of the letters drawn and the standard widths of the
    letters the map gives them, and how many distinct letters it rests on; None when too few
    letters are drawn or the font is monospaced (no order to compare).

    Lower- and upper-case letters are ranked apart (capitals are wider in every font, which
    would make a permutation within each case look ordered); the worse case decides.
    """
    ref = reference_widths()
    groups: dict[bool, dict[str, float]] = {True: {}, False: {}}
    for code in drawn:
        found = letters.get(code)
        if found is not None:
            groups[found[0].islower()].setdefault(found[0], found[1])
    worst: tuple[float, int] | None = None
    for pairs in groups.values():
        if len(pairs) < MIN_WIDTH_LETTERS:
            continue
        keys = sorted(pairs)
        rho = _spearman([pairs[k] for k in keys], [ref[k] for k in keys])
        if rho is not None and (worst is None or rho < worst[0]):
            worst = (rho, len(keys))
    return worst


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def _spearman(a: list[float], b: list[float]) -> float | None:
    return pearson(_ranks(a), _ranks(b))


def pearson(a: list[float], b: list[float]) -> float | None:
    """The correlation of two series (None when either does not vary)."""
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    if va <= 0 or vb <= 0:
        return None
    return float(cov / (va * vb) ** 0.5)


# -- code order --------------------------------------------------------------------------------
#: Distinct letters a page must draw with a font before the order of its codes is compared.
MIN_ORDER_LETTERS = 12
#: Below this rank correlation between the glyph ids a font's letters are drawn with and the
#: Unicode values its map gives them, the map is permuted. Fonts lay their glyphs out roughly in
#: Unicode order (each script's block after the other); a scrambled map breaks that order. On
#: 392 original font-pages (the real corpus, Skia and the producer review: Latin, CJK, Hebrew,
#: Arabic, Korean) the lowest was 0.33; 321 of their 392 scrambled copies fell below 0.2.
MIN_ORDER_CORRELATION = 0.2
#: Only codes that are the font's own glyph ids are compared: the largest letter code a page
#: draws must be at least this many times the number of its letter codes, and at least 256 (a
#: subset numbered again from 1 has an order of its own) ...
ORDER_SPREAD = 4
#: ... and the codes, in the order the page first draws them, must not rise with it this well
#: (a subset numbered in order of first use over a long document).
FIRST_USE_CORRELATION = 0.5
#: A font whose glyph ids follow a legacy encoding's order at least this well keeps that order:
#: no permuted map (a permuted one follows none of them; the real fonts follow theirs closely).
LEGACY_ORDER_CORRELATION = 0.5
#: Legacy encodings whose code order East Asian fonts may keep for their glyphs (SimSun's glyphs
#: follow GBK, MingLiU's Big5, MS Mincho's Shift-JIS): GB2312 and JIS order their first-level
#: ideographs by reading, which has nothing to do with Unicode's radical order.
_LEGACY_ORDERS = ("gbk", "big5", "shift_jis", "euc_kr")


def _legacy_code(ch: str, encoding: str) -> int | None:
    try:
        return int.from_bytes(ch.encode(encoding), "big")
    except UnicodeEncodeError:
        return None


def code_order_correlation(tounicode: Mapping[int, str],
                           drawn: Mapping[int, int]) -> tuple[float, int] | None:
    """Rank correlation between the codes drawn (glyph ids of an Identity font) and the order of
    the letters the map gives them, with how many distinct letters it rests on; None when too
    few letters are drawn or the codes do not look like the font's own glyph ids.

    The order is Unicode's; when the codes do not follow it and the letters are ideographs or
    kana, a legacy East Asian encoding's order that they follow closely is given instead (a
    font in GBK order is no permuted map)."""
    pairs: dict[int, str] = {}
    for code in drawn:
        text = tounicode.get(code)
        if text is not None and len(text) == 1 and text.isalpha():
            pairs[code] = text
    letters = len(set(pairs.values()))
    if letters < MIN_ORDER_LETTERS:
        return None
    top = max(pairs)
    if top < 256 or top < ORDER_SPREAD * len(pairs):
        return None
    # Codes numbered in order of first use (fpdf2, cairo) rise as the page first draws them
    # (its mapping iterates in that order): an order of the producer's, not of the font.
    first = [float(code) for code in drawn]
    rising = _spearman([float(i) for i in range(len(first))], first)
    if rising is None or rising >= FIRST_USE_CORRELATION:
        return None
    codes = sorted(pairs)
    rho = _spearman([float(c) for c in codes], [float(ord(pairs[c])) for c in codes])
    if rho is None or rho >= MIN_ORDER_CORRELATION:
        return None if rho is None else (rho, letters)
    if any(ord(ch) >= 0x2E80 for ch in pairs.values()):
        for encoding in _LEGACY_ORDERS:
            legacy = {c: v for c in codes if (v := _legacy_code(pairs[c], encoding)) is not None}
            if len(set(legacy.values())) < MIN_ORDER_LETTERS:
                continue
            keys = sorted(legacy)
            other = _spearman([float(c) for c in keys], [float(legacy[c]) for c in keys])
            if other is not None and other >= LEGACY_ORDER_CORRELATION:
                return other, letters
    return rho, letters
