"""Find what a broken font's codes mean, from the best source that works.

Sources, tried in this order because each is less certain than the one before:

a. the embedded program's own tables — a Unicode ``cmap`` subtable inverted
   (through CIDToGIDMap for composite fonts), ``post`` glyph names, CFF
   charset names, a Type1 program's built-in encoding — read through the
   Adobe Glyph List; or, for a font without a program, the glyph names of
   its encoding, which select what the viewer draws (``program``, in
   :mod:`.programmaps`);
b. an order hypothesis — a constant offset, or the Macintosh standard glyph
   order — accepted only when the document's text under it passes the
   letter-pair model (``order``, in :mod:`.ordermaps`);
c. the glyphs themselves, recognised by Tesseract on a PDFium render and
   voted across every occurrence (``glyphs``, in :mod:`.glyphocr`).

Every source returns a :class:`Recovery`: the ``{code: text}`` map it could
vouch for and how much of the drawn text that covers. Codes a source cannot
vouch for stay unmapped, never guessed. This module owns what the sources
share: that result, the text a map may carry, and the text a glyph name
stands for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .fontusage import FontUsage

#: Glyph drawn but not worth a ToUnicode entry: control characters and noncharacters.
_BAD_TEXT = {"\x00", "\ufeff", "\ufffe", "\uffff", "\ufffd"}


def is_pua(ch: str) -> bool:
    cp = ord(ch)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0x10FFFF


def usable_text(text: str | None) -> bool:
    """Text a ToUnicode may carry: not empty, no control characters, no PUA, no U+FFFD."""
    if not text:
        return False
    for ch in text:
        if (
            ch in _BAD_TEXT
            or is_pua(ch)
            or (ord(ch) < 0x20 and ch not in "\t")
            or 0x7F <= ord(ch) < 0xA0
        ):
            return False
    return True


@dataclass(frozen=True)
class Recovery:
    """A map for one font and where it came from."""

    mapping: dict[int, str]
    #: cmap | post | charset | encoding | offset | mac-standard | codes | ocr-glyphs
    source: str
    #: Glyphs drawn with the font that the map gives text for.
    covered: int
    glyphs: int
    detail: str = ""
    #: For ocr-glyphs: every reading of every code, voted or not (evidence against a map).
    readings: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    #: For offset: the constant the codes or ToUnicode values were moved by.
    offset: int | None = None
    #: The glyph name that gave a code its text, for codes read by name (post, charset,
    #: encoding; not cmap): readers show some names otherwise than the AGL (``fi``).
    named: Mapping[int, str] = field(default_factory=dict)
    #: For codes read through a cmap: every text the cmap reaches the code's glyph by (one
    #: glyph for U+064A and U+06CC, for U+0020 and U+00A0); the map picked one of them.
    choices: Mapping[int, frozenset[str]] = field(default_factory=dict)

    @property
    def coverage(self) -> float:
        return self.covered / self.glyphs if self.glyphs else 0.0


def coverage(usage: FontUsage, mapping: Mapping[int, str]) -> int:
    return sum(n for code, n in usage.codes().items() if code in mapping)


#: Arabic presentation forms (U+FB50-FDFF, U+FE70-FEFC): contextual forms and ligatures. A
#: font program maps its positional glyphs to them; the text they show is the letters.
#: (Latin ligatures stay: producers write U+FB01 as often as "fi", and so does poppler.)
_PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufefc]")


def plain_text(text: str) -> str:
    """``text`` with Arabic presentation forms written as the letters they show (ﺗ -> ت).

    Producers' ToUnicode maps give the letters, and searching or copying text
    needs them; a glyph's contextual form is only how it is drawn.
    """
    import unicodedata

    if not _PRESENTATION.search(text):
        return text
    return _PRESENTATION.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


#: AGL names mapped to two code points, where fontTools picks the symbol over the Greek letter
#: that fonts almost always mean (a Greek Ω drawn by the glyph "Omega" is not the ohm sign).
_AGL_LETTERS = {"Omega": "\u03a9", "Delta": "\u0394"}


def agl(name: str, *, plain: bool = True) -> str:
    """The text a glyph name stands for through the AGL ('' when none or unusable).

    ``plain``: Arabic presentation forms as their letters, the text a ToUnicode should carry;
    without it the code point the name gives, to find a glyph by.
    """
    from fontTools.agl import toUnicode

    if not name or name.startswith(".") or name in ("notdef",):
        return ""
    base = name.split(".")[0]  # "Omega.1" is a variant of "Omega"
    if base in _AGL_LETTERS:
        return _AGL_LETTERS[base]
    try:
        text = str(toUnicode(name))
    except Exception:  # noqa: BLE001 - a malformed name resolves to nothing
        return ""
    if plain:
        text = plain_text(text)
    return text if usable_text(text) else ""


def named_encoding(name: str) -> dict[int, str]:
    from ..pdf.encodings import encoding_table

    try:
        return encoding_table(name)
    except KeyError:
        return {}
