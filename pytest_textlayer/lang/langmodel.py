"""The letter-pair model: does extracted text look like a natural language?

A page whose fonts look healthy can still extract as nonsense (a scrambled
ToUnicode, glyph indices read as characters, text moved by a constant code
offset). The only way to notice is to look at the text itself. This module
does so with the simplest model that works in every script: how likely each
letter is after the previous one, within words and at word boundaries.

Symbols. Text is NFKC-normalised (fullwidth Latin, presentation forms and
ligatures become plain letters) and lower-cased. Then every character becomes
one symbol:

* a letter or combining mark stays itself; a few blocks are folded the way
  Google's language-detection profiles fold them (all hiragana, all katakana,
  Vietnamese tone letters, groups of Han characters, Farsi yeh), because the
  built-in reference is derived from those profiles;
* whitespace, digits, punctuation and symbols become the word boundary
  (``' '``): pairs are taken within words plus the boundary on each side.
  Digits and punctuation are judged separately (see :func:`judge`), since
  numbers, amounts and code are real text that carries no letter pairs;
* format characters (bidi marks, zero-width joiners, soft hyphens, tatweel)
  are dropped, so they do not cut words;
* generic combining accents NFKC could not compose are dropped after a
  letter (Yoruba tones, Russian stress marks);
* a letter that a language model has (almost) never seen becomes the
  *unseen-letter class of its script* (``<CYRILLIC>``, ``<HAN>``...), never one
  global out-of-vocabulary class: unknown Cyrillic letters must not look like
  unknown Han characters. A letter whose diacritic no language of the model
  uses is read as its base letter instead (Maltese ħ → h).

Score: the mean natural-log probability of each symbol given the previous one
(add-one smoothing), over every pair of the text. A model accepts a text when
the score reaches its threshold: for a fitted model, the worst training page's
score minus a margin; for the built-in reference, each language's expected
score on its own profile minus a margin.

The built-in reference (``data/letterpairs.json``) holds one model per
language of the language-detection profiles (55 languages, every major
script); ``scripts/build_reference_model.py`` rebuilds it. A text is natural
when, for each script it is written in, the best language of that script
accepts it (right-to-left scripts in either order, since some producers store
them in visual order). Pairs across two scripts are not scored: a change of
script next to ideographs is a word boundary, and two alphabets inside one
word are counted by :func:`judge` as a sign of a wrong mapping.

:func:`judge` adds checks that letter pairs cannot make: control and
private-use codes, digit groups full of symbols (``81,7('67$7(6``), symbols
or Latin letters inside words of another script, letters no language writes,
letters scattered over many scripts, and text of one or two distinct letters.
It says *undecided* rather than guess: too few pairs, a script no model knows,
a score just under the threshold, or many letters of a script that no
reference language writes while the common ones read (a language outside the
reference). Long pages are judged on a sample spread over the page, so a
3,000-character page costs about a millisecond.
"""

from __future__ import annotations

import functools
import json
import math
import operator
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError

#: Pairs below this count leave the language question undecided.
MIN_PAIRS = 16
#: Default margin (nats per pair) below the worst training page, as in the reference design.
DEFAULT_MARGIN = 0.5
#: Extra allowance for short texts: the threshold drops by this over sqrt(pairs).
SHORT_TEXT_SLACK = 2.0
#: File format tag written into every model file.
FORMAT = "pytest-textlayer letter-pair model 1"
#: The boundary symbol.
BOUNDARY = " "
#: Letters rarer than this share of a language's letters join their script's unseen class.
RARE_SHARE = 2e-5
#: Share of a failing script's letters that no language of the model writes, above which the
#: text is more likely a language outside the reference (Kurdish, Uyghur, Abkhaz) than junk.
FOREIGN_SHARE = 0.05
#: Share of letters standing in tokens with digits above which a failing text is codes, not junk.
MAX_CODE_SHARE = 0.4
#: A text of 40 letters or more uses at least this many distinct letters in any language.
MIN_DISTINCT_LETTERS = 5
#: Share of letters outside every language's alphabet above which a text is not language.
MAX_UNKNOWN_SHARE = 0.3
#: Share of letter pairs that may join two alphabets (μm, وPython) before a text is a mix-up.
MAX_MIXED_SHARE = 0.03
#: With more candidate languages than this, they are first ranked on the most frequent pairs.
PREFILTER_KEEP = 6
PREFILTER_PAIRS = 80
#: Symbols of a page judged at most, in windows spread over it (speed on long pages).
MAX_SYMBOLS = 3000
SAMPLE_WINDOWS = 6
#: Pair log-probabilities one language keeps computed (about 100 bytes each).
LOGPROB_CACHE = 50_000
#: Add-one smoothing constant.
ALPHA = 1.0

_DATA = Path(__file__).with_name("data")
REFERENCE_PATH = _DATA / "letterpairs.json"

# --------------------------------------------------------------------------- scripts

#: Scripts with their own unseen-letter class. The order is part of the file format.
SCRIPTS: tuple[str, ...] = (
    "LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "HEBREW", "ARABIC", "SYRIAC", "THAANA",
    "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA",
    "MALAYALAM", "SINHALA", "THAI", "LAO", "TIBETAN", "MYANMAR", "GEORGIAN", "HANGUL",
    "ETHIOPIC", "KHMER", "MONGOLIAN", "HIRAGANA", "KATAKANA", "BOPOMOFO", "HAN", "YI",
    "COMBINING", "OTHER",
)
_CLASS_BASE = 0xF0000  # Supplementary Private Use Area-A: never a real symbol (PUA input is junk)
_SCRIPT_CLASS = {name: chr(_CLASS_BASE + i) for i, name in enumerate(SCRIPTS)}
_CLASS_SCRIPT = {v: k for k, v in _SCRIPT_CLASS.items()}

#: Scripts read as one writing system: Japanese mixes all three inside words.
_GROUP = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HAN": "CJK", "BOPOMOFO": "CJK"}
#: Groups whose text has no spaces between words, so that a change of script is a boundary.
_UNSPACED = frozenset({"CJK", "HANGUL", "THAI", "LAO", "KHMER", "MYANMAR"})

#: Scripts written right to left (extracted in either order).
_RIGHT_TO_LEFT = frozenset({"ARABIC", "HEBREW", "SYRIAC", "THAANA"})
#: Groups of symbols that take the writing system of the letters around them.
_INHERIT = frozenset({"COMBINING", "OTHER"})

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
    if first in _SCRIPT_CLASS:
        return first
    if unicodedata.category(symbol).startswith("M"):
        return "COMBINING"
    return "OTHER"


def group_of(symbol: str) -> str:
    """The writing system a symbol is judged in (Han and kana together)."""
    group = _GROUP_OF.get(symbol)
    if group is None:
        script = script_of(symbol)
        group = _GROUP_OF[symbol] = _GROUP.get(script, script)
    return group


_GROUP_OF: dict[str, str] = {}


def unseen_class(script: str) -> str:
    """The symbol standing for every letter of `script` that a model does not know."""
    return _SCRIPT_CLASS.get(script, _SCRIPT_CLASS["OTHER"])


def is_class(symbol: str) -> bool:
    return symbol in _CLASS_SCRIPT


# --------------------------------------------------------------------------- symbols

#: Han character → representative of its group; filled from the reference file.
_HAN_FOLD: dict[str, str] = {}
_SPACE_LIKE = frozenset("\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029")
#: Control characters that are layout, not junk.
_LAYOUT_CONTROLS = frozenset("\t\n\r\x0b\x0c")
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
    return _HAN_FOLD.get(ch, ch)


#: Character kinds for the structure checks (one ASCII letter each).
KIND_LATIN, KIND_ALPHA, KIND_CJK, KIND_DIGIT, KIND_SPACE, KIND_PUNCT, KIND_SYMBOL, KIND_JUNK = (
    "laCd psj"
)
#: Private-use characters: junk inside words, icons or bullets (Wingdings, icon fonts) alone.
KIND_PRIVATE = "u"
#: A private-use character touching a letter, a digit or another one: a code, not an icon.
_ATTACHED_PRIVATE = re.compile(r"(?<=[laCdu])u|u(?=[laCdu])")
#: Symbols that never stand inside a word (quotes, apostrophes, dots and hyphens may).
_HARD_SYMBOLS = frozenset("()[]{}<>$&#@*+=^|~\\%_:;!?")


def _classify_char(ch: str) -> tuple[str, str]:
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


_SYMBOLS: dict[int, str] = {}
_KINDS: dict[int, str] = {}
_SEEN: set[str] = set()


def _tables_for(text: str) -> None:
    if not _HAN_FOLD:
        # symbols must be the same for every model, fitted or built in: the Han groups come
        # from the reference file, loaded with it
        reference_model()
    new = set(text).difference(_SEEN)
    for ch in new:
        sym, kind = _classify_char(ch)
        _SYMBOLS[ord(ch)] = sym
        _KINDS[ord(ch)] = kind
    _SEEN.update(new)


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


def symbols(text: str) -> str:
    """`text` as a string of symbols with single boundaries around every word."""
    text = normalise(text)
    _tables_for(text)
    words = text.translate(_SYMBOLS).split()
    return " " + " ".join(words) + " " if words else ""


def kinds(text: str) -> str:
    """`text` with every character replaced by its kind letter (see the KIND_ constants)."""
    text = normalise(text)
    _tables_for(text)
    return text.translate(_KINDS)


def pair_counts(text: str) -> Counter[str]:
    """Counts of the symbol pairs of `text` (within words, and word boundaries)."""
    s = symbols(text)
    if len(s) < 2:
        return Counter()
    return Counter(map(operator.add, s, s[1:]))


# --------------------------------------------------------------------------- one language


@functools.cache
def _base_letter(sym: str) -> str:
    """The letter under a letter's diacritics (é → e), or the symbol itself."""
    if is_class(sym):
        return sym
    return unicodedata.normalize("NFD", sym)[0]



class _LogProbs(dict[str, float]):
    """Log P(b | a) per pair, computed on first use for pairs outside the language's alphabet."""

    def __init__(self, lang: LanguageModel) -> None:
        super().__init__()
        self.lang = lang

    def __missing__(self, key: str) -> float:
        if len(self) > LOGPROB_CACHE:  # bounded memory over very long runs
            self.clear()
        value = self.lang.logprob(key[0], key[1])
        self[key] = value
        return value


@dataclass
class LanguageModel:
    """Letter-pair counts of one language (or one user's training pages) and its threshold.

    `rows` gives, for a symbol, how often it occurs as the first of a pair
    when that is more than the pairs listed (the reference profiles drop
    rare pairs): the missing mass is spread evenly over every continuation,
    so a language whose pairs are mostly rare (Chinese) does not condemn
    every unlisted pair.
    """

    lang: str
    pairs: dict[str, float]
    threshold: float
    name: str = ""
    #: Score the model gives its own training distribution (reference models only).
    expected: float | None = None
    rows: dict[str, float] | None = None
    alphabet: frozenset[str] = field(init=False)
    groups: frozenset[str] = field(init=False)
    _rows: dict[str, float] = field(init=False, repr=False)
    _spread: dict[str, float] = field(init=False, repr=False)
    _vocab: int = field(init=False, repr=False)
    lp: _LogProbs = field(init=False, repr=False)
    #: Letters of every language of the model this one belongs to (set by the model).
    shared: frozenset[str] = field(init=False, repr=False, default=frozenset())

    def __post_init__(self) -> None:
        rows: dict[str, float] = {}
        alphabet: set[str] = set()
        letter_mass: dict[str, float] = {}
        for key, n in self.pairs.items():
            rows[key[0]] = rows.get(key[0], 0.0) + n
            for sym in key:
                if sym != BOUNDARY:
                    alphabet.add(sym)
            if key[0] != BOUNDARY:
                g = group_of(key[0])
                letter_mass[g] = letter_mass.get(g, 0.0) + n
        self._vocab = len(alphabet | set(_SCRIPT_CLASS.values())) + 1
        spread: dict[str, float] = {}
        for sym, total in (self.rows or {}).items():
            if total > rows.get(sym, 0.0):
                spread[sym] = (total - rows.get(sym, 0.0)) / self._vocab
                rows[sym] = total
                if sym != BOUNDARY:
                    alphabet.add(sym)
        self._rows = rows
        self._spread = spread
        self.alphabet = frozenset(alphabet)
        total = sum(letter_mass.values()) or 1.0
        self.groups = frozenset(g for g, n in letter_mass.items() if n >= 0.08 * total)
        self.lp = _LogProbs(self)

    def expected_score(self) -> float:
        """Mean log-probability per pair of the model's own counts (pruned mass included)."""
        total = sum(self._rows.values())
        acc = math.fsum(n * self.logprob(k[0], k[1]) for k, n in self.pairs.items())
        for sym, each in self._spread.items():
            acc += each * self._vocab * math.log((each + ALPHA)
                                                 / (self._rows[sym] + ALPHA * self._vocab))
        return acc / total

    def map_symbol(self, sym: str) -> str:
        """The symbol itself, its base letter when only that is known, or its script's class.

        A letter with a diacritic that no language of the model uses (Maltese ħ,
        Hawaiian ā in most models) is read as its base letter: still the letter
        of a word, not a letter from nowhere. A letter some other language uses
        (ö in a Croatian model) stays foreign, or ciphers would hide behind it.
        """
        if sym == BOUNDARY or sym in self.alphabet:
            return sym
        if sym not in self.shared:  # a letter another language uses is that language's letter
            base = _base_letter(sym)
            if base in self.alphabet:
                return base
        return unseen_class(script_of(sym))

    def logprob(self, a: str, b: str) -> float:
        """Smoothed log P(b | a) with add-one smoothing over the model's symbols."""
        a = self.map_symbol(a)
        b = self.map_symbol(b)
        count = self.pairs.get(a + b, 0.0) + self._spread.get(a, 0.0)
        return math.log((count + ALPHA) / (self._rows.get(a, 0.0) + ALPHA * self._vocab))

    def total(self, keys: Iterable[str], counts: Iterable[int]) -> float:
        """Sum of count × log-probability over pair keys (fast path for scoring)."""
        total: float = sum(map(operator.mul, counts, map(self.lp.__getitem__, keys)))
        return total

    def score_counts(self, counts: Mapping[str, int]) -> float:
        n = sum(counts.values())
        if n == 0:
            return -math.inf
        return self.total(counts.keys(), counts.values()) / n

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "lang": self.lang,
            "name": self.name,
            "threshold": round(self.threshold, 4),
            "pairs": {k: round(v, 2) for k, v in sorted(self.pairs.items())},
        }
        if self.expected is not None:
            data["expected"] = round(self.expected, 4)
        if self.rows:
            data["rows"] = {k: round(v, 2) for k, v in sorted(self.rows.items())}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, trusted: bool = False) -> LanguageModel:
        pairs = data["pairs"]
        if not isinstance(pairs, dict) or not trusted and not all(
            isinstance(k, str) and len(k) == 2 and isinstance(v, (int, float)) and v >= 0
            for k, v in pairs.items()
        ):
            raise ValueError("'pairs' must map two-symbol strings to counts")
        expected = data.get("expected")
        rows = data.get("rows")
        if rows is not None and not trusted and not (isinstance(rows, dict) and all(
                isinstance(k, str) and len(k) == 1 and isinstance(v, (int, float))
                for k, v in rows.items())):
            raise ValueError("'rows' must map symbols to counts")
        return cls(
            lang=str(data["lang"]),
            pairs=pairs if trusted else {k: float(v) for k, v in pairs.items()},
            threshold=float(data["threshold"]),
            name=str(data.get("name", "")),
            expected=None if expected is None else float(expected),
            rows=None if rows is None else rows if trusted else {
                k: float(v) for k, v in rows.items()},
        )


# --------------------------------------------------------------------------- the model


@dataclass
class LetterPairModel:
    """One or more language models; a text is judged by the best language of each script."""

    languages: dict[str, LanguageModel]
    source: str = ""
    by_group: dict[str, tuple[LanguageModel, ...]] = field(init=False, repr=False)
    known: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.languages:
            raise ValueError("a letter-pair model needs at least one language")
        groups: dict[str, list[LanguageModel]] = {}
        for lm in self.languages.values():
            for g in lm.groups:
                groups.setdefault(g, []).append(lm)
        self.by_group = {g: tuple(v) for g, v in groups.items()}
        known: set[str] = set()
        for lm in self.languages.values():
            known |= lm.alphabet
        #: Every symbol some language knows: the rest are rare or foreign letters.
        self.known = frozenset(known)
        for lm in self.languages.values():
            lm.shared = self.known
            lm.lp.clear()

    @property
    def threshold(self) -> float:
        """The threshold of a one-language model (a fitted one); see :func:`judge` otherwise."""
        if len(self.languages) != 1:
            raise ValueError("a multi-language model has one threshold per language; use judge()")
        return next(iter(self.languages.values())).threshold

    def score(self, text: str) -> float:
        return score(text, self)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "source": self.source,
            "languages": [lm.to_json() for lm in self.languages.values()],
        }

    @classmethod
    def from_json(cls, data: Any, *, trusted: bool = False) -> LetterPairModel:
        """A model from its JSON form; `trusted` (the built-in file) skips checking every count."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"expected format {FORMAT!r}")
        langs = data.get("languages")
        if not isinstance(langs, list) or not langs:
            raise ValueError("no languages in the model")
        models = [LanguageModel.from_json(x, trusted=trusted) for x in langs]
        return cls({m.lang: m for m in models}, source=str(data.get("source", "")))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model as JSON (what `textlayer fit -o` writes)."""
        target = Path(path)
        try:
            target.write_text(
                json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")),
                encoding="utf-8",
            )
        except OSError as exc:
            raise UsageError(f"{target}: cannot write the model: {exc.strerror or exc}") from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> LetterPairModel:
        """Read a model written by :meth:`save`; a bad file is a one-line UsageError."""
        source = Path(path)
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UsageError(f"{source}: no such model file") from None
        except OSError as exc:
            raise UsageError(f"{source}: cannot read the model: {exc.strerror or exc}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise UsageError(f"{source}: not a letter-pair model: not JSON ({exc})") from None
        try:
            return cls.from_json(data)
        except (ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"{source}: not a letter-pair model: {exc}") from None


# --------------------------------------------------------------------------- fit and score


def fit(pages: Iterable[str], *, margin: float = DEFAULT_MARGIN, lang: str = "fit",
        min_count: int = 2) -> LetterPairModel:
    """Count the letter pairs of trusted pages; threshold = worst page's score − `margin`.

    Letters seen fewer than `min_count` times are counted as their script's
    unseen class, so the model knows how often "some other letter" occurs.
    Pages with fewer than MIN_PAIRS pairs count towards the pairs but not the
    threshold.
    """
    texts = list(pages)
    if not texts:
        raise ValueError("cannot fit a letter-pair model on no pages")
    per_page = [pair_counts(t) for t in texts]
    counts: Counter[str] = Counter()
    for c in per_page:
        counts.update(c)
    if not counts:
        raise ValueError("the training pages contain no letters")
    mass: Counter[str] = Counter()
    for key, n in counts.items():
        if key[0] != BOUNDARY:
            mass[key[0]] += n
    rare = {s for s, n in mass.items() if n < min_count}
    if rare:
        collapsed: Counter[str] = Counter()
        for key, n in counts.items():
            a, b = (unseen_class(script_of(s)) if s in rare else s for s in key)
            collapsed[a + b] += n
        counts = collapsed
    model = LanguageModel(lang=lang, pairs={k: float(v) for k, v in counts.items()},
                          threshold=0.0, name=f"fitted on {len(texts)} page(s)")
    scores = [model.score_counts(c) for c in per_page if sum(c.values()) >= MIN_PAIRS]
    if not scores:
        raise ValueError(f"no training page has {MIN_PAIRS} letter pairs or more")
    model.threshold = min(scores) - margin
    return LetterPairModel({lang: model}, source=f"fit on {len(texts)} page(s)")


def score(text: str, model: LetterPairModel | None = None) -> float:
    """Mean log probability per pair under the language that fits `text` best; −inf when too short.

    With several scripts in the text, the mean is taken over all judged pairs,
    each script scored by its best language.
    """
    j = judge(text, model)
    return j.score


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class LanguageJudgement:
    """Whether a text looks like natural language, and why."""

    score: float
    threshold: float
    #: True natural, False not, None undecided (too little text, or a script no model knows).
    passes: bool | None
    #: Language code of the model that accepted (or came closest), e.g. "fr", "ja+en".
    lang: str | None
    pairs: int
    reason: str

    @property
    def margin(self) -> float:
        return self.score - self.threshold


_NUMBER_RE = re.compile(
    r"[(\[]?[-+\u2212\u00b1]?[$\u20ac\u00a3\u00a5\u20b9#\u2116]?\d[\d.,:/\-'\u2019\u00b7\u00a0]*"
    r"[%\u2030\u00b0]?[)\]]?[.,;:]?\Z"
)
#: Symbols that do not belong inside a word of an alphabetic, non-Latin script.
_ODD_IN_WORD = re.compile(r"(?<=a)s+(?=a)")

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


def _shattered_words(text: str) -> tuple[int, int]:
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


def _odd_numbers(text: str) -> tuple[int, int]:
    """(characters in digit tokens that are not numbers, characters in digit tokens)."""
    odd = total = 0
    for token in _DIGIT_TOKEN.findall(text):
        if not _HAS_LETTER.search(token):
            total += len(token)
            if not _NUMBER_RE.match(token):
                odd += len(token)
    return odd, total


_HAS_LETTER = re.compile(r"[^\W\d_]")


_MODEL_CACHE: dict[str, LetterPairModel] = {}


def reference_model() -> LetterPairModel:
    """The built-in multi-language reference, loaded once."""
    cached = _MODEL_CACHE.get("reference")
    if cached is not None:
        return cached
    from ..usercache import cached as user_cached

    # Built once per user and Python, not once per process: the build is a tenth of the time
    # of checking a 300-page document.
    han, model = user_cached("letterpairs", (REFERENCE_PATH, Path(__file__)), _build_reference)
    install_han_fold(han)
    _MODEL_CACHE["reference"] = model
    return model


def _build_reference() -> tuple[list[str], LetterPairModel]:
    try:
        data = json.loads(REFERENCE_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{REFERENCE_PATH}: built-in letter-pair model unreadable: {exc}"
                         ) from None
    han = list(data.get("han_classes", []))
    install_han_fold(han)  # the models' letter groups depend on it
    return han, LetterPairModel.from_json(data, trusted=True)


def han_characters() -> frozenset[str]:
    """Every Han character of the profiles' groups (the commonly used ones)."""
    return frozenset(_HAN_FOLD)


def install_han_fold(classes: Iterable[str]) -> None:
    """Use the profiles' Han classes: each string is a representative then its members."""
    fold = {}
    for members in classes:
        rep = members[0]
        for ch in members:
            fold[ch] = rep
    if fold != _HAN_FOLD:
        _HAN_FOLD.clear()
        _HAN_FOLD.update(fold)
        _SYMBOLS.clear()
        _KINDS.clear()
        _SEEN.clear()
        _GROUP_OF.clear()
        script_of.cache_clear()


#: ISO 639-2/3 codes (as Tesseract spells them) of the reference languages.
_ISO3 = {
    "afr": "af", "ara": "ar", "bul": "bg", "ben": "bn", "cat": "ca", "ces": "cs", "cze": "cs",
    "cym": "cy", "dan": "da", "deu": "de", "ger": "de", "ell": "el", "gre": "el", "eng": "en",
    "spa": "es", "est": "et", "fas": "fa", "per": "fa", "fin": "fi", "fra": "fr", "fre": "fr",
    "guj": "gu", "heb": "he", "hin": "hi", "hrv": "hr", "hun": "hu", "ind": "id", "ita": "it",
    "jpn": "ja", "kan": "kn", "kor": "ko", "lit": "lt", "lav": "lv", "mkd": "mk", "mal": "ml",
    "mar": "mr", "nep": "ne", "nld": "nl", "dut": "nl", "nor": "no", "pan": "pa", "pol": "pl",
    "por": "pt", "ron": "ro", "rum": "ro", "rus": "ru", "slk": "sk", "slo": "sk", "slv": "sl",
    "som": "so", "sqi": "sq", "alb": "sq", "swe": "sv", "swa": "sw", "tam": "ta", "tel": "te",
    "tha": "th", "tgl": "tl", "tur": "tr", "ukr": "uk", "urd": "ur", "vie": "vi",
    "chi_sim": "zh-cn", "chi_tra": "zh-tw", "zho": "zh", "chi": "zh",
}


def _lang_matches(model_lang: str, wanted: str) -> bool:
    """`fr`, `fra`, `zh` (any Chinese), `zh-cn`, `fra+eng` all name reference languages."""
    for part in wanted.lower().replace("_", "-").split("+"):
        code = _ISO3.get(part.replace("-", "_"), part)
        if model_lang == code or model_lang.startswith(code + "-"):
            return True
    return False


def known_language(wanted: str, model: LetterPairModel | None = None) -> bool:
    """Does `wanted` (as `--lang` takes it) name a language of the model (the reference)?"""
    languages = (model or reference_model()).languages
    return any(_lang_matches(code, wanted) for code in languages)


def speaks(found: str | None, wanted: str) -> bool:
    """Is `wanted` among the languages `found` by :func:`best_language` (``ja+en``)?"""
    return found is not None and any(_lang_matches(part, wanted) for part in found.split("+"))


def _group_pairs(counts: Counter[str]) -> tuple[dict[str, dict[str, int]], int]:
    """Split pair counts by writing system; returns (per group, pairs joining two alphabets)."""
    groups: dict[str, dict[str, int]] = {}
    dropped = greek_mixed = 0
    group = _GROUP_OF
    for key, n in counts.items():
        a = key[0]
        b = key[1]
        ga = None if a == BOUNDARY else (group.get(a) or group_of(a))
        gb = None if b == BOUNDARY else (group.get(b) or group_of(b))
        # combining marks left over after NFKC (Yoruba tones) and modifier letters (the
        # Hawaiian ʻokina) belong to the word they sit in
        if ga in _INHERIT and gb is not None:
            ga = gb
        elif gb in _INHERIT and ga is not None:
            gb = ga
        if ga is not None and gb is not None and ga != gb:
            # Latin next to Han in Japanese is a boundary; two alphabets inside one word are
            # counted, and judged by their share (μm is fine, a page of them is not)
            if ga not in _UNSPACED and gb not in _UNSPACED and "GREEK" not in (ga, gb):
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


def _sample(symbols: str) -> str:
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


#: Share of words mixing scripts above which letters over many scripts mean glyph junk.
MIXED_WORDS = 0.2


def _mixed_word_share(text: str) -> float:
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


def judge(text: str, model: LetterPairModel | None = None, *, lang: str | None = None,
          min_pairs: int = MIN_PAIRS) -> LanguageJudgement:
    """Does `text` look like natural language in a language the model knows?

    The letter pairs of each script are scored by the best language of that
    script (the expected `lang` only, when given); the text passes when the
    pooled score reaches the pooled threshold, loosened for short texts.
    Independently of letters, it fails on control or private-use characters,
    on digit tokens that are not numbers (`81,7('67$7(6`), on punctuation or
    Latin letters inside words of other scripts, and on letters scattered over
    many scripts. Digits, amounts and short fields without enough letters are
    not failed: the judgement is then undecided (passes None) or, for
    well-formed numbers, passes.
    """
    model = model or reference_model()
    norm = normalise(text)
    _tables_for(norm)
    kind = norm.translate(_KINDS)
    visible = len(kind) - kind.count(KIND_SPACE)
    junk = kind.count(KIND_JUNK)
    private = kind.count(KIND_PRIVATE)
    if private:
        junk += len(_ATTACHED_PRIVATE.findall(kind))
    if visible == 0:
        return LanguageJudgement(-math.inf, 0.0, None, None, 0, "no text")
    if junk >= 3 and junk > 0.02 * visible:
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{junk} of {visible} characters are control, private-use or"
                                 " unassigned code points")
    shattered, worded = _shattered_words(text)
    if shattered >= MIN_SHATTERED and shattered > MAX_SHATTERED_SHARE * worded:
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{shattered} of {worded} words are broken into letters by"
                                 " symbols between them (a map onto the wrong characters)")
    digits = kind.count(KIND_DIGIT)
    letters = (visible - digits - kind.count(KIND_PUNCT)
               - kind.count(KIND_SYMBOL) - kind.count(KIND_JUNK) - private)
    odd_num = num_chars = 0
    if digits and (visible - letters >= letters or letters < 4 * MIN_PAIRS):
        # digit groups matter only where letters do not dominate
        odd_num, num_chars = _odd_numbers(norm)

    s = _sample(" " + " ".join(norm.translate(_SYMBOLS).split()) + " ")
    counts: Counter[str] = Counter(map(operator.add, s, s[1:])) if len(s) > 2 else Counter()
    groups, mixed = _group_pairs(counts)

    odd_in_words = sum(len(m.group()) for m in _ODD_IN_WORD.finditer(kind))
    non_latin = kind.count(KIND_ALPHA) + kind.count(KIND_CJK)
    if odd_num >= 8 and odd_num > 0.25 * max(visible - letters, 1) and odd_num > letters:
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{odd_num} characters in digit groups that are not numbers"
                                 " (symbols between digits)")
    # only on pages mostly written in such a script: Greek letters in formulas touch Latin ones
    if (odd_in_words >= 4 and non_latin >= 0.3 * max(letters, 1)
            and odd_in_words > 0.03 * non_latin):
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{odd_in_words} punctuation or Latin characters inside words"
                                 " of another script")

    # every pair but those touching a boundary (two per word): no loop over the pairs
    letter_pairs = max(len(s) - 1 - 2 * (s.count(BOUNDARY) - 1), 0)
    if mixed >= 4 and mixed > MAX_MIXED_SHARE * max(letter_pairs, 1):
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{mixed} of {letter_pairs} letter pairs join two alphabets"
                                 " inside a word")

    # letters that no language uses (rare ideographs, archaic or phonetic letters)
    group_letters = {g: sum(n for k, n in c.items() if k[0] != BOUNDARY)
                     for g, c in groups.items()}
    total_letters = sum(group_letters.values())
    alphabet = set(s)
    if total_letters >= 40 and len(alphabet) - 1 < MIN_DISTINCT_LETTERS:
        # every glyph mapped to one or two values ("aaaa aaa"): no language has so few letters
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{total_letters} letters use only {len(alphabet) - 1} distinct"
                                 " letters")
    distinct = alphabet.difference(model.known)
    distinct.discard(BOUNDARY)
    unknown_letters = sum(s.count(c) for c in distinct if group_of(c) in model.by_group)
    in_known_scripts = unknown_letters + sum(
        s.count(c) for c in alphabet.intersection(model.known))
    if in_known_scripts >= 20 and unknown_letters > MAX_UNKNOWN_SHARE * in_known_scripts:
        return LanguageJudgement(-math.inf, 0.0, False, None, 0,
                                 f"{unknown_letters} of {in_known_scripts} letters are rare"
                                 " characters no known language uses")

    # letters spread over many scripts inside words: glyph indices, not a language (a
    # multilingual leaflet keeps each script to its own words, and each is judged below)
    if total_letters >= 12:
        big = [g for g, n in group_letters.items() if n >= 0.05 * total_letters]
        if len(big) >= 4 and _mixed_word_share(norm) >= MIXED_WORDS:
            return LanguageJudgement(-math.inf, 0.0, False, None, total_letters,
                                     f"letters scattered over {len(big)} scripts")

    total = thr_total = 0.0
    judged = 0
    unknown = 0
    names: list[tuple[int, str]] = []
    failing: list[tuple[str, str, float, float]] = []
    #: per failing group, share of its letters that no language of the model writes
    foreign: dict[str, float] = {}
    for g, gcounts in groups.items():
        n = sum(gcounts.values())
        candidates = model.by_group.get(g, ())
        if lang is not None:
            candidates = tuple(c for c in candidates if _lang_matches(c.lang, lang)) or candidates
        if not candidates:
            unknown += n
            continue
        keys = list(gcounts.keys())
        vals = list(gcounts.values())
        if len(candidates) > PREFILTER_KEEP and len(keys) > PREFILTER_PAIRS:
            # rank the languages on the most frequent pairs, score the best few on all of them
            top = sorted(gcounts.items(), key=operator.itemgetter(1), reverse=True)
            head_keys = [k for k, _v in top[:PREFILTER_PAIRS]]
            head_vals = [v for _k, v in top[:PREFILTER_PAIRS]]
            head_n = sum(head_vals)
            ranked = sorted(candidates, key=lambda lm: lm.threshold - lm.total(
                head_keys, head_vals) / head_n)
            candidates = tuple(ranked[:PREFILTER_KEEP])
        scored = [(lm.total(keys, vals) / n, lm) for lm in candidates]
        if g in _RIGHT_TO_LEFT:
            # some producers store right-to-left text in visual order: every word reversed is
            # still the characters drawn, so it is scored both ways
            rkeys = [k[1] + k[0] for k in keys]
            scored = [(max(x[0], x[1].total(rkeys, vals) / n), x[1]) for x in scored]
        accepted = [x for x in scored if x[0] >= x[1].threshold]
        if accepted:  # the most likely language among those that accept the text
            best_score, best_lm = max(accepted, key=lambda x: x[0])
        else:  # the language that came closest to accepting it
            best_score, best_lm = max(scored, key=lambda x: x[0] - x[1].threshold)
        best = (best_score * n, best_lm.threshold, best_lm)
        if n >= MIN_PAIRS and best_score < best_lm.threshold - SHORT_TEXT_SLACK / math.sqrt(n):
            failing.append((g, best_lm.lang, best_score, best_lm.threshold))
            group_letters_n = sum(v for k, v in gcounts.items() if k[0] != BOUNDARY)
            outside = sum(v for k, v in gcounts.items()
                          if k[0] != BOUNDARY and k[0] not in model.known)
            foreign[g] = outside / max(group_letters_n, 1)
            if foreign[g] >= FOREIGN_SHARE:
                # Do the letters every language knows read, once the others are set aside?
                # They do in Kurdish or Uyghur; in a shifted or scrambled text they do not.
                kept = {k: v for k, v in gcounts.items()
                        if all(c == BOUNDARY or c in model.known for c in k)}
                kept_n = sum(kept.values())
                if kept_n < MIN_PAIRS or best_lm.score_counts(kept) < (
                        best_lm.threshold - SHORT_TEXT_SLACK / math.sqrt(kept_n)):
                    foreign[g] = 0.0
            if g == "LATIN":
                accented = sum(v for k, v in gcounts.items() if k[0] != BOUNDARY and k[0] > "z")
                if accented > 0.5 * group_letters_n:
                    # mostly accented letters: another script read through a Latin code page
                    # (Russian as Latin-1, Greek as Windows-1252), not a Latin-script language
                    foreign[g] = 0.0
        total += best[0]
        thr_total += best[1] * n
        judged += n
        names.append((n, best[2].lang))
    names.sort(reverse=True)
    lang_name = "+".join(name for n, name in names if n >= 0.1 * judged) or None

    # Pairs that touch a word boundary say only how words start and end: a grid of single
    # characters (a symbol chart, one letter per cell) has nothing else, and reads as no
    # language because it is none. Half the pairs a judgement needs must lie inside words.
    if judged < min_pairs or letter_pairs < min_pairs // 2:
        if unknown >= min_pairs:
            scripts = ", ".join(sorted(g for g in groups if g not in model.by_group))
            return LanguageJudgement(-math.inf, 0.0, None, None, judged,
                                     f"written in a script the model does not know ({scripts})")
        if num_chars and odd_num <= 0.1 * num_chars and num_chars >= letters:
            sc = total / judged if judged else -math.inf
            return LanguageJudgement(sc, thr_total / judged if judged else 0.0, True, lang_name,
                                     judged, "numbers and amounts")
        sc = total / judged if judged else -math.inf
        little = (f"{judged} letter pairs" if judged < min_pairs
                  else f"{letter_pairs} letter pairs inside words")
        return LanguageJudgement(sc, thr_total / judged if judged else 0.0, None, lang_name,
                                 judged, f"too little text to judge ({little})")

    sc = total / judged
    thr = thr_total / judged
    cjk_letters = group_letters.get("CJK", 0)
    if cjk_letters >= 20 and cjk_letters >= 0.5 * total_letters:
        kana = s.count("\u3042") + s.count("\u30a2")
        if kana > 0.9 * cjk_letters:
            # the profiles fold every kana into one symbol: kana without kanji cannot be told
            # from kana-shaped junk
            return LanguageJudgement(sc, thr, None, lang_name, judged,
                                     "kana with almost no kanji: the reference cannot judge it")
    for g, worst_lang, g_score, g_thr in failing:
        share = sum(groups[g].values()) / judged
        if share < 0.2:
            continue
        if foreign[g] >= FOREIGN_SHARE:
            # letters no reference language writes, in a script it knows: most likely another
            # language of that script (Kurdish, Uyghur, Abkhaz), not a broken map, which
            # reuses the script's common letters
            return LanguageJudgement(sc, thr, None, lang_name, judged,
                                     f"the {g.lower()} letters read as no reference language,"
                                     f" but {foreign[g]:.0%} of them are letters none of them"
                                     " writes: a language the model does not know?")
        if _code_letters(text, kind) > MAX_CODE_SHARE * max(letters, 1):
            return LanguageJudgement(sc, thr, None, lang_name, judged, CODES_REASON)
        # a whole script of the page fails, even if another one reads
        return LanguageJudgement(sc, thr, False, lang_name, judged,
                                 f"the {g.lower()} letters read as no language (closest"
                                 f" {worst_lang}: {g_score:.2f} < {g_thr:.2f} nats per pair)")
    # The mean of n pairs wanders by about 2/sqrt(n) nats: within twice that below the
    # threshold a text is not condemned, only left undecided.
    slack = SHORT_TEXT_SLACK / math.sqrt(judged)
    if sc >= thr:
        return LanguageJudgement(sc, thr, True, lang_name, judged,
                                 f"reads as {lang_name} ({sc:.2f} ≥ {thr:.2f} nats per pair)")
    if sc >= thr - slack:
        return LanguageJudgement(sc, thr, None, lang_name, judged,
                                 f"uncertain: {judged} letter pairs score {sc:.2f}, just under"
                                 f" {lang_name}'s {thr:.2f} nats per pair")
    if _code_letters(text, kind) > MAX_CODE_SHARE * max(letters, 1):
        return LanguageJudgement(sc, thr, None, lang_name, judged, CODES_REASON)
    return LanguageJudgement(sc, thr, False, lang_name, judged,
                             f"no language accepts the letter pairs (closest {lang_name}:"
                             f" {sc:.2f} < {thr:.2f} nats per pair)")


_TOKEN = re.compile(r"\S+")
CODES_REASON = ("mostly codes mixing letters and digits (keys, hashes, base64): no language"
                " to judge")


def _code_letters(text: str, kind: str) -> int:
    """Letters standing in tokens that also hold digits: identifiers, keys, base64, hashes.

    Only decimal digits make a code. Superscripts, subscripts and vulgar
    fractions, which NFKC turns into digits, are not what keys are made of;
    inside words they are what a map that lost its high byte prints (Greek
    ε, ι, ν read as µ, ¹, ½), and must not excuse it from being judged.
    `kind` is :func:`kinds` of `text`, already made by the caller; it is made
    again only when such numbers must first be turned into symbols.
    """
    numbers = {ord(c): "\u00a7" for c in set(text) if unicodedata.category(c) == "No"}
    if numbers:
        kind = kinds(text.translate(numbers))
    total = 0
    for m in _TOKEN.finditer(kind):
        token = m.group()
        if KIND_DIGIT in token:
            letters = token.count(KIND_LATIN) + token.count(KIND_ALPHA)
            if letters:
                total += letters
    return total


def best_language(text: str, model: LetterPairModel | None = None) -> str | None:
    """The language (or languages, joined with '+') that fits `text` best, or None."""
    return judge(text, model).lang
