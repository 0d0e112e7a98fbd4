"""Signs of a wrong map that letter pairs do not show: the shape of words and numbers.

A map onto the wrong characters of the same one-byte range can leave words
whose pairs look like a language's short words; :func:`.langmodel.judge`
therefore also looks at the shape of words and tokens: words shattered into
letters by symbols, digit groups that are not numbers, words mixing scripts.
"""

from __future__ import annotations

import re

from .scripts import group_of

#: A number, as written in running text and tables; after dot leaders too (an index or a
#: table of contents whose dots were drawn one by one, close enough to join the page number).
_NUMBER_RE = re.compile(
    r"(?:[.\u00b7]{2,}|\u2026+)?"
    r"[(\[]?[-+\u2212\u00b1]?[$\u20ac\u00a3\u00a5\u20b9#\u2116]?\d[\d.,:/\-'\u2019\u00b7\u00a0]*"
    r"[%\u2030\u00b0]?[)\]]?[.,;:]?\Z"
)
#: Words with letters, and the ones with a symbol between two letters (not an apostrophe,
#: hyphen, point, slash, ampersand or underscore: contractions, compounds, abbreviations,
#: paths and identifiers keep those).
_WORDY = re.compile(r"\S*[^\W\d_]\S*")
_SYMBOL_INSIDE = re.compile(r"[^\W\d_][^\w\s'’\-./&]*[@<>=?;:{}~^|\\#$%*\[\]\"!]"
                            r"[^\w\s'’\-./&]*(?=\w)")
_LETTER_RUN = re.compile(r"[^\W\d_]+")
#: A page whose words are this often shattered (and at least this many) reads as no language.
MAX_SHATTERED_SHARE = 0.15
MIN_SHATTERED = 8
#: Mean length of the letter runs of a shattered word: real words with symbols inside
#: (`std::vector<int>`, `?query=`, `name@host`) keep runs of three letters or more.
MAX_SHARD = 2.5


#: One operand of technical notation: a name (letters, then digits or primes: ``mu1``, ``x'``)
#: or a number, signed or not.
_OPERAND = r"[-+\u2212]?(?:[^\W\d_]+\d*['\u2032]*|\d+(?:[.,]\d+)*%?|\.\d+)"
#: Operators and relations between operands (`=`, `<=`, `:=`, `!=`, `&&`, `<<`, `^`, ...).
_OPERATOR = r"[=<>!:&|+\-*/^~\u00b1\u00d7\u00f7\u2212\u2260\u2264\u2265\u2248]+"
#: A token of technical notation: operands joined by operators or indexed by brackets
#: (``p<0.01``, ``I=true,``, ``a[1]``, ``(R^2``, ``df=3;``), with brackets and one trailing
#: punctuation mark around them.
_NOTATION = re.compile(
    rf"[(\[{{|]*{_OPERAND}[)\]}}|]*(?:(?:{_OPERATOR}|[(\[])[(\[{{|]*{_OPERAND}[)\]}}|]*)*"
    r"[,;:.]?"
)


def shattered_words(text: str) -> tuple[int, int]:
    """(words broken into short letter runs by symbols, words with letters).

    A map onto the wrong characters of the same one-byte range (codes whose
    high byte was lost, glyph indices read as ASCII) prints words such as
    ``B@<F9F D4EE@BFD9?``: the symbols cut every word into shards of one or
    two letters, whose pairs then look like a language's short words.
    Technical notation has short letter runs between symbols too (``p<0.01``,
    ``I=true``, ``a[1]``), but each is a name or a number joined to the next
    by an operator: such tokens are not shattered words. A wrong map's are
    not so built (``81,7('67$7(6``, ``D4EE@BFD9?``, ``VL]H``).
    """
    if _SYMBOL_INSIDE.search(text) is None:
        return 0, 0
    shattered = 0
    words = _WORDY.findall(text)
    for word in words:
        if _SYMBOL_INSIDE.search(word) is not None and _NOTATION.fullmatch(word) is None:
            runs = _LETTER_RUN.findall(word)
            if sum(map(len, runs)) <= MAX_SHARD * len(runs):
                shattered += 1
    return shattered, len(words)


#: Whitespace-separated tokens with a digit and no letter.
_DIGIT_TOKEN = re.compile(r"(?<!\S)[^\s\w]*\d[^\s]*")


def odd_numbers(text: str) -> tuple[int, int]:
    """(characters in digit tokens that are not numbers, characters in digit tokens)."""
    odd = total = 0
    for token in _DIGIT_TOKEN.findall(text):
        if not _HAS_LETTER.search(token):
            total += len(token)
            if not _NUMBER_RE.match(token):
                odd += len(token)
    return odd, total


_HAS_LETTER = re.compile(r"[^\W\d_]")


#: Share of words mixing scripts above which letters over many scripts mean glyph junk.
MIXED_WORDS = 0.2


def mixed_word_share(text: str) -> float:
    """Share of the words of two or more letters whose letters come from more than one script
    (none without such words: single letters apart are a chart, whatever their scripts)."""
    words = mixed = 0
    for token in text.split():
        groups = {group_of(ch) for ch in token if ch.isalpha()}
        if sum(ch.isalpha() for ch in token) < 2:
            continue
        words += 1
        mixed += len(groups) > 1
    return mixed / words if words else 0.0
