"""Text as the letter-pair model reads it: one symbol, and one kind, per character.

Symbols. Text is NFKC-normalised (fullwidth Latin, presentation forms and
ligatures become plain letters) and lower-cased. Then every character becomes
one symbol:

* a letter or combining mark stays itself; a few blocks are folded the way
  Google's language-detection profiles fold them (all hiragana, all katakana,
  Vietnamese tone letters, groups of Han characters, Farsi yeh), because the
  built-in reference is derived from those profiles;
* whitespace, digits, punctuation and symbols become the word boundary
  (``' '``): pairs are taken within words plus the boundary on each side.
  Digits and punctuation are judged separately (see :func:`.langmodel.judge`), since
  numbers, amounts and code are real text that carries no letter pairs;
* format characters (bidi marks, zero-width joiners, soft hyphens, tatweel)
  are dropped, so they do not cut words;
* generic combining accents NFKC could not compose are dropped after a
  letter (Yoruba tones, Russian stress marks);

Each character also gets a kind (letter, digit, punctuation, private use...)
for the checks that letter pairs cannot make. The Han groups come with the
built-in reference (``data/letterpairs.json``), which installs them here:
:func:`.langmodel.symbols` and :func:`.langmodel.kinds` load it before they
read a text, so that symbols are the same for every model, fitted or built
in. Here is what each character becomes, and how a text's pairs are grouped
by writing system and sampled.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from .scripts import GROUP_OF, INHERIT, UNSPACED, group_of, script_of

#: The boundary symbol.
BOUNDARY = " "
#: Symbols of a page judged at most, in windows spread over it (speed on long pages).
MAX_SYMBOLS = 3000
SAMPLE_WINDOWS = 6

#: Han character → representative of its group; filled from the reference file.
HAN_FOLD: dict[str, str] = {}
_SPACE_LIKE = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029")
_DROPPED = frozenset("\u0640\u00ad\u200b\u200c\u200d\u2060\ufeff")


def _fold_letter(ch: str) -> str:
    """Fold a lower-case letter the way the language-detection profiles were built."""
    o = ord(ch)
    if 0x1EA0 <= o <= 0x1EFF:  # Vietnamese letters with tone marks
        return "\u1ec3"
    if 0x3040 <= o <= 0x309F:
        return "\u3042"
    if 0x30A0 <= o <= 0x30FF:
        return "\u30a2"
    if 0x3100 <= o <= 0x312F or 0x31A0 <= o <= 0x31BF:
        return "\u3105"
    if ch == "\u06cc":  # Farsi yeh → Arabic yeh
        return "\u064a"
    if ch == "\u0219":  # Romanian s/t with comma → cedilla
        return "\u015f"
    if ch == "\u021b":
        return "\u0163"
    return HAN_FOLD.get(ch, ch)


#: Character kinds for the structure checks (one ASCII letter each).
KIND_LATIN, KIND_ALPHA, KIND_CJK, KIND_DIGIT, KIND_SPACE, KIND_PUNCT, KIND_SYMBOL, KIND_JUNK = (
    "laCd psj"
)
#: Private-use characters: junk inside words, icons or bullets (Wingdings, icon fonts) alone.
KIND_PRIVATE = "u"
#: Symbols that never stand inside a word (quotes, apostrophes, dots and hyphens may).
_HARD_SYMBOLS = frozenset("()[]{}<>$&#@*+=^|~\\%_:;!?")


def classify_char(ch: str) -> tuple[str, str]:
    """(symbol, kind) of one NFKC lower-cased character."""
    if ch in _DROPPED:
        return "", ""
    cat = unicodedata.category(ch)
    if ch in _SPACE_LIKE or cat == "Zs" or ch == " ":
        return BOUNDARY, KIND_SPACE
    if cat == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F:
        return "", ""
    if cat == "Co":
        return BOUNDARY, KIND_PRIVATE
    if cat in ("Cc", "Cn", "Cs") or ch == "\ufffd" or (ord(ch) & 0xFFFE) == 0xFFFE:
        return BOUNDARY, KIND_JUNK
    if cat[0] in "LM":
        sym = _fold_letter(ch)
        group = group_of(sym)
        if group == "LATIN":
            kind = KIND_LATIN
        elif group in ("CJK", "HANGUL"):
            kind = KIND_CJK
        else:
            kind = KIND_ALPHA
        return sym, kind
    if cat == "Nd":
        return BOUNDARY, KIND_DIGIT
    return BOUNDARY, KIND_SYMBOL if ch in _HARD_SYMBOLS else KIND_PUNCT


SYMBOLS: dict[int, str] = {}
KINDS: dict[int, str] = {}
SEEN: set[str] = set()


_LOOSE_MARKS = re.compile(r"(?<=[^\W\d_])[\u0300-\u036f\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def normalise(text: str) -> str:
    """NFKC and lower case: fullwidth letters, ligatures and presentation forms become letters.

    Generic combining accents that NFKC could not compose onto their letter
    (Yoruba tones on dotted vowels, stress marks in Russian) are dropped: the
    letter underneath carries the pair.
    """
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    text = text.lower()
    if _ANY_LOOSE_MARK.search(text):
        text = _LOOSE_MARKS.sub("", text)
    return text


_ANY_LOOSE_MARK = re.compile(r"[\u0300-\u036f\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")



def han_characters() -> frozenset[str]:
    """Every Han character of the profiles' groups (the commonly used ones)."""
    return frozenset(HAN_FOLD)


def install_han_fold(classes: Iterable[str]) -> None:
    """Use the profiles' Han classes: each string is a representative then its members."""
    fold = {}
    for members in classes:
        rep = members[0]
        for ch in members:
            fold[ch] = rep
    if fold != HAN_FOLD:
        HAN_FOLD.clear()
        HAN_FOLD.update(fold)
        SYMBOLS.clear()
        KINDS.clear()
        SEEN.clear()
        GROUP_OF.clear()
        script_of.cache_clear()


def group_pairs(counts: Counter[str]) -> tuple[dict[str, dict[str, int]], int]:
    """Split pair counts by writing system; returns (per group, pairs joining two alphabets)."""
    groups: dict[str, dict[str, int]] = {}
    dropped = greek_mixed = 0
    group = GROUP_OF
    for key, n in counts.items():
        a = key[0]
        b = key[1]
        ga = None if a == BOUNDARY else (group.get(a) or group_of(a))
        gb = None if b == BOUNDARY else (group.get(b) or group_of(b))
        # combining marks left over after NFKC (Yoruba tones) and modifier letters (the
        # Hawaiian ʻokina) belong to the word they sit in
        if ga in INHERIT and gb is not None:
            ga = gb
        elif gb in INHERIT and ga is not None:
            gb = ga
        if ga is not None and gb is not None and ga != gb:
            # Latin next to Han in Japanese is a boundary; two alphabets inside one word are
            # counted, and judged by their share (μm is fine, a page of them is not)
            if ga not in UNSPACED and gb not in UNSPACED and "GREEK" not in (ga, gb):
                dropped += n
            elif "GREEK" in (ga, gb):
                greek_mixed += n
            continue
        g = ga or gb
        if g is None:
            continue
        bucket = groups.get(g)
        if bucket is None:
            bucket = groups[g] = {}
        bucket[key] = n
    # Greek letters are also symbols of Latin-script science (5 μm, Δx): they count as a
    # mix-up only on pages where Greek is a script of the text, not a few symbols
    greek = sum(n for k, n in groups.get("GREEK", {}).items() if k[0] != BOUNDARY)
    letters = sum(n for c in groups.values() for k, n in c.items() if k[0] != BOUNDARY)
    if greek >= 0.2 * max(letters, 1):
        dropped += greek_mixed
    return groups, dropped


def sample(symbols: str) -> str:
    """At most MAX_SYMBOLS symbols, taken in SAMPLE_WINDOWS windows spread over the text.

    A long page says what it is in a few thousand letters; windows from its
    whole length keep a bad second column or footer in view. Windows start and
    end at a word boundary when one is near (unspaced scripts have none: they
    are cut where they are), and are joined by a boundary.
    """
    if len(symbols) <= MAX_SYMBOLS:
        return symbols
    width = MAX_SYMBOLS // SAMPLE_WINDOWS
    step = (len(symbols) - width) / (SAMPLE_WINDOWS - 1)
    parts = []
    for i in range(SAMPLE_WINDOWS):
        start = int(i * step)
        end = min(start + width, len(symbols))
        near = symbols.find(BOUNDARY, start, start + width // 4)
        if near >= 0:
            start = near + 1
        near = symbols.rfind(BOUNDARY, end - width // 4, end)
        if near > start:
            end = near
        parts.append(symbols[start:end].strip())
    return " " + " ".join(p for p in parts if p) + " "
