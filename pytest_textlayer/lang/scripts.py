"""The script of every letter, the writing systems text is judged in, and unseen-letter classes.

A letter's script comes from its Unicode name. Scripts read as one writing
system are judged together: Japanese mixes Han and kana inside words. Every
script has a class symbol (``<CYRILLIC>``, ``<HAN>``...) standing for its
letters a language model has not seen, so that unknown Cyrillic letters never
look like unknown Han characters. Symbols (:mod:`.textsymbols`), one
language's model (:mod:`.onelanguage`) and the judgement (:mod:`.langmodel`)
all ask this module; it asks none of them.
"""

from __future__ import annotations

import functools
import unicodedata

#: Scripts with their own unseen-letter class. The order is part of the file format.
SCRIPTS: tuple[str, ...] = (
    "LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "HEBREW", "ARABIC", "SYRIAC", "THAANA",
    "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA",
    "MALAYALAM", "SINHALA", "THAI", "LAO", "TIBETAN", "MYANMAR", "GEORGIAN", "HANGUL",
    "ETHIOPIC", "KHMER", "MONGOLIAN", "HIRAGANA", "KATAKANA", "BOPOMOFO", "HAN", "YI",
    "COMBINING", "OTHER",
)
_CLASS_BASE = 0xF0000  # Supplementary Private Use Area-A: never a real symbol (PUA input is junk)
SCRIPT_CLASS = {name: chr(_CLASS_BASE + i) for i, name in enumerate(SCRIPTS)}
_CLASS_SCRIPT = {v: k for k, v in SCRIPT_CLASS.items()}

#: Scripts read as one writing system: Japanese mixes all three inside words.
_GROUP = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HAN": "CJK", "BOPOMOFO": "CJK"}
#: Groups whose text has no spaces between words, so that a change of script is a boundary.
UNSPACED = frozenset({"CJK", "HANGUL", "THAI", "LAO", "KHMER", "MYANMAR"})

#: Scripts written right to left (extracted in either order).
RIGHT_TO_LEFT = frozenset({"ARABIC", "HEBREW", "SYRIAC", "THAANA"})
#: Groups of symbols that take the writing system of the letters around them.
INHERIT = frozenset({"COMBINING", "OTHER"})

_NAME_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "KANGXI": "HAN", "HALFWIDTH": "OTHER"}


@functools.cache
def script_of(symbol: str) -> str:
    """The script of one symbol (a letter, or an unseen-letter class), from its Unicode name."""
    if symbol in _CLASS_SCRIPT:
        return _CLASS_SCRIPT[symbol]
    try:
        first = unicodedata.name(symbol).split(" ", 1)[0]
    except ValueError:
        return "OTHER"
    first = _NAME_ALIASES.get(first, first)
    if first in SCRIPT_CLASS:
        return first
    if unicodedata.category(symbol).startswith("M"):
        return "COMBINING"
    return "OTHER"


def group_of(symbol: str) -> str:
    """The writing system a symbol is judged in (Han and kana together)."""
    group = GROUP_OF.get(symbol)
    if group is None:
        script = script_of(symbol)
        group = GROUP_OF[symbol] = _GROUP.get(script, script)
    return group


GROUP_OF: dict[str, str] = {}


def unseen_class(script: str) -> str:
    """The symbol standing for every letter of `script` that a model does not know."""
    return SCRIPT_CLASS.get(script, SCRIPT_CLASS["OTHER"])


def is_class(symbol: str) -> bool:
    return symbol in _CLASS_SCRIPT
