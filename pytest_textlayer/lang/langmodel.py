"""The letter-pair model: does extracted text look like a natural language?

A page whose fonts look healthy can still extract as nonsense (a scrambled
ToUnicode, glyph indices read as characters, text moved by a constant code
offset). The only way to notice is to look at the text itself. This module
does so with the simplest model that works in every script: how likely each
letter is after the previous one, within words and at word boundaries.

Text is first read as symbols (:func:`symbols`, each character as
:mod:`.textsymbols` says): letters, folded the way the reference's profiles
fold them, and one word boundary for everything else. Each language scores
its pairs (:mod:`.onelanguage`), reading a letter it has not seen as the
unseen-letter class of its script (:mod:`.scripts`).

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

Here are, together, the model of many languages (save and load;
:mod:`.fitting` fits one), the built-in reference, a text's symbols,
:func:`score` and :func:`judge`: a model scores through :func:`judge`, which
falls back on the reference, which is such a model, and whose Han groups the
symbols wait for. The checks on the shape of words are in :mod:`.textsigns`.
"""

from __future__ import annotations

import json
import math
import operator
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from . import ahead, onelanguage, scripts, textsymbols
from .langcodes import lang_matches
from .onelanguage import LanguageModel
from .scripts import RIGHT_TO_LEFT, group_of
from .textsigns import (
    MAX_SHATTERED_SHARE,
    MIN_SHATTERED,
    MIXED_WORDS,
    mixed_word_share,
    odd_numbers,
    shattered_words,
)
from .textsymbols import (
    BOUNDARY,
    HAN_FOLD,
    KIND_ALPHA,
    KIND_CJK,
    KIND_DIGIT,
    KIND_JUNK,
    KIND_LATIN,
    KIND_PRIVATE,
    KIND_PUNCT,
    KIND_SPACE,
    KIND_SYMBOL,
    KINDS,
    SEEN,
    SYMBOLS,
    classify_char,
    group_pairs,
    install_han_fold,
    normalise,
    sample,
)

#: Pairs below this count leave the language question undecided.
MIN_PAIRS = 16
#: Extra allowance for short texts: the threshold drops by this over sqrt(pairs).
SHORT_TEXT_SLACK = 2.0
#: File format tag written into every model file.
FORMAT = "pytest-textlayer letter-pair model 1"
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

_DATA = Path(__file__).with_name("data")
REFERENCE_PATH = _DATA / "letterpairs.json"
#: What shapes the cached reference: its data file, and the code of the modules that build it
#: (this one, one language's tables, the scripts and the symbols they are built with).
REFERENCE_SHAPED_BY = (REFERENCE_PATH, Path(__file__), Path(onelanguage.__file__),
                       Path(scripts.__file__), Path(textsymbols.__file__))


# --------------------------------------------------------------------------- symbols


def _tables_for(text: str) -> None:
    if not HAN_FOLD:
        # symbols must be the same for every model, fitted or built in: the Han groups come
        # from the reference file, loaded with it
        reference_model()
    new = set(text).difference(SEEN)
    for ch in new:
        sym, kind = classify_char(ch)
        SYMBOLS[ord(ch)] = sym
        KINDS[ord(ch)] = kind
    SEEN.update(new)


def symbols(text: str) -> str:
    """`text` as a string of symbols with single boundaries around every word."""
    text = normalise(text)
    _tables_for(text)
    words = text.translate(SYMBOLS).split()
    return " " + " ".join(words) + " " if words else ""


def kinds(text: str) -> str:
    """`text` with every character replaced by its kind letter (see the KIND_ constants)."""
    text = normalise(text)
    _tables_for(text)
    return text.translate(KINDS)


def pair_counts(text: str) -> Counter[str]:
    """Counts of the symbol pairs of `text` (within words, and word boundaries)."""
    s = symbols(text)
    if len(s) < 2:
        return Counter()
    return Counter(map(operator.add, s, s[1:]))


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


#: Symbols that do not belong inside a word of an alphabetic, non-Latin script.
_ODD_IN_WORD = re.compile(r"(?<=a)s+(?=a)")
#: A private-use character touching a letter, a digit or another one: a code, not an icon.
_ATTACHED_PRIVATE = re.compile(r"(?<=[laCdu])u|u(?=[laCdu])")


_MODEL_CACHE: dict[str, LetterPairModel] = {}


def reference_model() -> LetterPairModel:
    """The built-in multi-language reference, loaded once."""
    cached = _MODEL_CACHE.get("reference")
    if cached is not None:
        return cached
    from ..usercache import cached as user_cached

    # Built once per user and Python, not once per process: the build is a tenth of the time
    # of checking a 300-page document.
    han, model = user_cached("letterpairs", REFERENCE_SHAPED_BY, _build_reference)
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


def known_language(wanted: str, model: LetterPairModel | None = None) -> bool:
    """Does `wanted` (as `--lang` takes it) name a language of the model (the reference)?"""
    languages = (model or reference_model()).languages
    return any(lang_matches(code, wanted) for code in languages)


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

    With the reference model, a judgement the page helper made of the same
    text ahead of its turn is taken instead (see :mod:`.ahead`).
    """
    if model is not None:
        return _judge(text, model, lang, min_pairs)
    key = (text, lang, min_pairs)
    found = ahead.take(key)
    if found is None:
        found = _judge(text, reference_model(), lang, min_pairs)
    ahead.made(key, found)
    return found


def _judge(text: str, model: LetterPairModel, lang: str | None, min_pairs: int,
           ) -> LanguageJudgement:
    norm = normalise(text)
    _tables_for(norm)
    kind = norm.translate(KINDS)
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
    shattered, worded = shattered_words(text)
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
        odd_num, num_chars = odd_numbers(norm)

    s = sample(" " + " ".join(norm.translate(SYMBOLS).split()) + " ")
    counts: Counter[str] = Counter(map(operator.add, s, s[1:])) if len(s) > 2 else Counter()
    groups, mixed = group_pairs(counts)

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
        if len(big) >= 4 and mixed_word_share(norm) >= MIXED_WORDS:
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
            candidates = tuple(c for c in candidates if lang_matches(c.lang, lang)) or candidates
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
        if g in RIGHT_TO_LEFT:
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
#: A web address: its scheme, or its host's `www.`, and the rest of the token.
_URL = re.compile(r"(?<!\S)\S*?(?:(?:https?|ftp)://|www\.)\S+", re.IGNORECASE)
CODES_REASON = ("mostly codes mixing letters and digits, or web addresses (keys, hashes,"
                " base64, URLs): no language to judge")


def _code_letters(text: str, kind: str) -> int:
    """Letters standing in tokens that also hold digits (identifiers, keys, base64, hashes)
    or in web addresses.

    A web address is a host and a path, not words: `github.com/shirat74/dvipdfm-x-doc`
    reads as no language because it is none. A wrong map does not write one: its `://`
    and `www.` are exactly the characters a shift or a scramble moves.

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
    for m in _URL.finditer(text):  # those with digits were counted above
        address = m.group()
        if not any(c.isdecimal() for c in address):
            total += sum(1 for c in address if c.isalpha())
    return total


def best_language(text: str, model: LetterPairModel | None = None) -> str | None:
    """The language (or languages, joined with '+') that fits `text` best, or None."""
    return judge(text, model).lang
