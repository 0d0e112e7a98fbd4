"""Is a text shaped like running words? Only such text may be condemned for reading as no language.

The letter-pair model knows how languages read; it knows nothing of what
else pages carry. A character chart of a font's repertoire, an alphabet,
fill text (``xxxx``, ``AAAA AAAA``) and grids of single symbols read as no
language because they are none, not because their map is wrong. A wrong
map keeps the shape of the words it garbles (a scrambled or shifted map
moves letters, not spaces), so the shape is tested on the text as mapped:

* fill text: the letters are few kinds (at most :data:`MAX_FILL_LETTERS`
  distinct ones over many), or the words are (one word repeated);
* a chart or grid: most tokens that hold a letter are that letter alone, or
  a good share of the tokens are code labels (``#41``, ``U+0041``);
* an alphabet or a code table: most neighbouring letters inside tokens are
  consecutive code points (``abcd efgh``, ``ABCDEFG``);
* Hangul spelled in jamo: running Korean is set in syllable blocks, its
  letters apart are a chart or a lesson.

Scripts written without spaces (Han, kana, Thai) make phrases of their
tokens: only single characters nearly throughout make a grid there; nor are
words cut between their glyph runs, whose pieces start with combining marks.
"""

from __future__ import annotations

import re
import unicodedata

#: Letters a text must hold before its shape says anything.
MIN_LETTERS = 12
#: Distinct letters at most of fill text.
MAX_FILL_LETTERS = 3
#: Words a text must hold before repeating a few of them makes it fill text ...
MIN_REPEATS = 10
#: ... and how few distinct words that is (one word repeated, "lorem lorem").
MAX_FILL_WORDS = 2
#: Share of single-character tokens that makes a chart or a grid.
GRID_SHARE = 0.6
#: The same for scripts set without spaces (Han, kana, Thai).
UNSPACED_GRID_SHARE = 0.9
#: Share of tokens starting with a combining mark above which single characters are pieces of
#: words cut apart, not a grid (a chart of a whole repertoire holds few marks).
MAX_MARK_TOKENS = 0.1
#: Share of tokens that are code labels (#41, U+0041, 0x41) that makes a code chart.
LABEL_SHARE = 0.3
#: Share of neighbouring letters one code point apart that makes an alphabet.
SEQUENCE_SHARE = 0.5


def not_running_words(text: str) -> str | None:
    """Why `text` is not running words (for the evidence); None when it is, or says too little."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) < MIN_LETTERS:
        return None
    kinds = len(set(c.casefold() for c in letters))
    if kinds <= MAX_FILL_LETTERS:
        return f"fill text: {len(letters)} letters of {kinds} kind(s)"
    words = [w.casefold() for w in _WORD.findall(text)]
    if len(words) >= MIN_REPEATS and len(set(words)) <= MAX_FILL_WORDS:
        return f"fill text: {len(words)} words, {len(set(words))} distinct"
    jamo = sum(1 for c in letters if _is_jamo(c))
    if jamo * 2 > len(letters):
        return f"Hangul letters written apart (jamo): {jamo} of {len(letters)} letters"
    tokens = text.split()
    labels = sum(1 for t in tokens if _LABEL.match(t))
    if tokens and labels >= LABEL_SHARE * len(tokens):
        return f"a code chart: {labels} of {len(tokens)} tokens are code labels (#41, U+0041)"
    # Tokens with letters once a chart's code labels (#41, U+00E9, 0x41) and numbers are cut
    # out: a label drawn against its glyph ('ᄀ#1100') leaves the glyph alone.
    lettered = [t for t in _LABELS.sub(" ", text).split() if any(c.isalpha() for c in t)]
    single = sum(1 for t in lettered if len(t) == 1)
    # Scripts set without spaces make phrases of their tokens, single characters only rarely;
    # a grid of them (a chart of kana and ideographs) is single characters nearly throughout.
    share = UNSPACED_GRID_SHARE if _unspaced_script(letters) else GRID_SHARE
    if (lettered and single >= share * len(lettered) and single >= MIN_LETTERS
            and not _split_clusters(lettered)):
        return (f"a chart or grid: {single} of {len(lettered)} tokens with letters are single "
                "characters")
    pairs = steps = 0
    for token in tokens:
        for a, b in zip(token, token[1:], strict=False):
            if a.isalpha() and b.isalpha():
                pairs += 1
                steps += ord(b) - ord(a) == 1
    if pairs and steps >= SEQUENCE_SHARE * pairs:
        return f"an alphabet or code table: {steps} of {pairs} neighbouring letters are in order"
    return None


_WORD = re.compile(r"[^\W\d_]{2,}")
_LABEL = re.compile(r"(?:#|U\+|0x)[0-9A-Fa-f]{2,6}$")
_LABELS = re.compile(r"(?:#|U\+|0x)[0-9A-Fa-f]+|\d+")


def _is_jamo(ch: str) -> bool:
    """Hangul jamo, conjoining or compatibility: the alphabet, not how running Korean is set."""
    code = ord(ch)
    return (0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F or 0xA960 <= code <= 0xA97F
            or 0xD7B0 <= code <= 0xD7FF)


def _split_clusters(tokens: list[str]) -> bool:
    """Tokens that start with a combining mark: an Indic or Arabic word cut between its glyph
    runs (a vowel sign drawn apart), whose pieces are single characters without being a grid."""
    marks = sum(1 for t in tokens if unicodedata.category(t[0]).startswith("M"))
    return marks >= MAX_MARK_TOKENS * len(tokens)


def _unspaced_script(letters: list[str]) -> bool:
    """Mostly letters of scripts written without spaces between words (CJK, Thai, Lao...)."""
    unspaced = sum(1 for c in letters if ord(c) >= 0x2E80 or 0x0E00 <= ord(c) <= 0x0EFF)
    return unspaced * 2 > len(letters)
