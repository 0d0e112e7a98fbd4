"""A font's ToUnicode stream, read and judged as a whole, and why one mapped value is useless.

Owns the value reasons (a null value, a control character, a Private Use
character) and the font-level sanity of a ToUnicode map: values mostly
null, control, PUA or collapsed onto a few, odd-length codes, a codespace
of the wrong width. Simple and Type0 fonts (:mod:`.simplefonts`,
:mod:`.cidfonts`) have their ToUnicode judged alike, here.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..model import FontStatus
from .cmaps import CMap, parse_cmap
from .fontprogram import is_stream, pdf_name, read

#: Values that carry no information in a ToUnicode map (veraPDF forbids the first three).
NULL_VALUES = frozenset("\x00\ufeff\ufffe\ufffd\uffff")


_PUA = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")


def is_pua(text: str) -> bool:
    """Does `text` hold a Private Use character (U+E000-U+F8FF, planes 15 and 16)?"""
    return _PUA.search(text) is not None


#: Controls that are white space: a glyph mapped to them draws no letter that could be lost.
_WHITESPACE = frozenset("\t\n\r\x0b\x0c")


def value_reason(text: str) -> str | None:
    """Why a mapped value is useless (``null``, ``control``, ``pua``), or None when it is fine."""
    if not text or all(c in NULL_VALUES for c in text):
        return "null"
    if all(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text):
        return "control"
    if is_pua(text):
        return "pua"
    return None


def tounicode(font: Any) -> tuple[CMap | None, str | None, str | None]:
    """(parsed CMap, name when given as a name, problem when the stream is unusable)."""
    entry = font.get("/ToUnicode")
    if entry is None:
        return None, None, None
    name = pdf_name(entry)
    if name is not None:
        return None, name, None
    if not is_stream(entry):
        return None, None, "ToUnicode is neither a stream nor a name"
    data = read(entry)
    if not data.strip():
        return None, None, "ToUnicode stream is empty"
    try:
        cmap = _parsed(data)
    except ValueError as exc:
        return None, None, f"ToUnicode is unreadable ({exc})"
    if not cmap.unicode:
        return None, None, "ToUnicode maps no codes"
    return cmap, None, None


#: ToUnicode streams kept parsed: at most this many, each of at most MEMO_BYTES bytes.
MEMO_ENTRIES, MEMO_BYTES = 32, 16 * 1024


def _parsed(data: bytes) -> CMap:
    """:func:`parse_cmap` of a ToUnicode stream, once for the same bytes (a fresh copy).

    A producer writes the same ToUnicode for every subset of a font, and a
    long manual repeats the same few: of 175 read on 200 pages of Debian's
    manuals, 36 were distinct.
    """
    if len(data) > MEMO_BYTES:
        return parse_cmap(data)
    return _parsed_once(data).copy()


@functools.lru_cache(maxsize=MEMO_ENTRIES)
def _parsed_once(data: bytes) -> CMap:
    return parse_cmap(data)  # a ValueError is not kept: it is raised each time


@dataclass
class _Judged:
    bad: dict[int, str]
    route: str
    status: FontStatus
    problem: str | None


def judge_tounicode(cmap: CMap, code_width: int) -> _Judged:
    """Font-level sanity of a ToUnicode map: null, PUA, collapsed, odd tokens, width."""
    values = cmap.unicode
    n = len(values)
    bad: dict[int, str] = {}
    for code, text in values.items():
        if len(text) == 1:  # the common case, inlined: OCR layers map all 65 536 codes
            o = ord(text)
            if o < 0x20 or 0x7F <= o < 0xA0:
                bad[code] = "control" if o else "null"
            elif 0xE000 <= o <= 0xF8FF or o >= 0xF0000:
                bad[code] = "pua"
            elif text in NULL_VALUES:
                bad[code] = "null"
            continue
        why = value_reason(text)
        if why is not None:
            bad[code] = why
    white = [c for c in bad if values[c] in _WHITESPACE]
    if len(white) == sum(1 for r in bad.values() if r == "control"):
        # Only white space among the controls: a space glyph given as TAB, a controlLF glyph
        # as line feed, no letter lost. Beside other controls it is a shifted map's too.
        for code in white:
            del bad[code]
    counts = Counter(t for c, t in values.items() if c not in bad)
    # Stylistic alternates and Arabic positional forms legitimately share a value; only a map
    # where most codes land on a few values is collapsed, and only then are those codes bad.
    collapsed = {t for t, k in counts.items() if k >= 3 and k >= 0.2 * n and t.strip()}
    if sum(counts[t] for t in collapsed) * 2 > n:
        for code, text in values.items():
            if text in collapsed:
                bad[code] = "collapsed"
    else:
        collapsed = set()
    kinds = Counter(bad.values())
    null = kinds["null"]
    if (null + kinds["control"]) * 2 > n:
        sample = Counter(t for c, t in values.items() if bad.get(c) in ("null", "control"))
        shown = ", ".join(
            f"U+{ord(t[0]):04X}" if t else "nothing" for t, _ in sample.most_common(2)
        )
        if null >= kinds["control"]:
            return _Judged(
                bad, "null", FontStatus.SEVERED, f"ToUnicode maps {null} of {n} codes to {shown}"
            )
        return _Judged(
            bad,
            "control",
            FontStatus.WRONG,
            f"ToUnicode maps {kinds['control']} of {n} codes to control characters ({shown}…)",
        )
    if kinds["pua"] * 2 > n:
        return _Judged(
            bad,
            "pua",
            FontStatus.WRONG,
            f"ToUnicode maps {kinds['pua']} of {n} codes into the Private Use Area",
        )
    if kinds["collapsed"] * 2 > n and n >= 4:
        top, k = counts.most_common(1)[0]
        return _Judged(
            bad,
            "collapsed",
            FontStatus.WRONG,
            f"ToUnicode maps {kinds['collapsed']} of {n} codes onto "
            f"{len(collapsed)} value(s) (e.g. {k} onto {top!r})",
        )
    if cmap.odd_tokens and cmap.odd_tokens * 2 >= n:
        return _Judged(
            bad,
            "tounicode",
            FontStatus.WRONG,
            f"ToUnicode has {cmap.odd_tokens} odd-length hex codes",
        )
    problem = None
    widths = cmap.widths
    if widths and code_width not in widths:
        problem = (
            f"ToUnicode codespace is {'/'.join(map(str, sorted(widths)))} byte(s) but the font's "
            f"codes are {code_width}"
        )
    return _Judged(bad, "tounicode", FontStatus.USABLE, problem)
