"""Repair text moved by a constant code offset or read through the Mac standard glyph order.

When a font's glyph indices are read as characters, the text often keeps its
shape: «)LOWHU\\x03FDUWULGJH» is «Filter cartridge» with every code moved
by −29 (the space became the control character 3). The repair is a
hypothesis tested against the letter-pair model (:mod:`.langmodel`), in any
language it knows, never an assumption:

* candidate offsets come from the character histogram (:mod:`.textshift`):
  the most frequent characters of the text are paired with the most frequent
  letters of every reference language (and with the space), and offsets that
  several frequent characters agree on are tried, whatever their size;
* the Macintosh standard glyph order (index → glyph name → Unicode) is tried
  when the codes are small enough; it also repairs accented letters;
* a repair is kept only on a clear win: the repaired text is accepted by a
  language model, the original is not, and the score rises by MIN_GAIN.

Case comes from the codes themselves and the letter-pair model is
case-blind, so an offset of ±32 that only flips ASCII case never wins:
`system` is never "repaired" into `SYSTEM`.

Here one text is repaired; lines and documents, which share a reading, in
:mod:`.documentrepair`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from . import langmodel, textsymbols
from .langmodel import LanguageJudgement, LetterPairModel
from .textshape import not_running_words
from .textshift import candidate_offsets, mac_standard, shift

#: The repaired text must beat the original by this many nats per pair (margin to margin).
MIN_GAIN = 1.0
#: How far above the threshold a shifted text must score to read clearly: prose in every
#: language of the reference scores 0.9 and more; upper-case codes of a severed font shifted
#: into letters pass by chance, a hundredth above it.
MIN_CLEAR_MARGIN = 0.25
#: Characters of a text the candidates are screened on (the winner is checked on more).
SCREEN_CHARS = 1500
#: Characters a winning candidate is verified on.
VERIFY_CHARS = 20000
#: Fewest letter pairs a repair may stand on.
MIN_REPAIR_PAIRS = 6
#: Weight of letters no language uses when two readings compete (nats per pair per share).
UNKNOWN_PENALTY = 3.0
#: The Mac standard order puts printable ASCII at code point − 29.
MAC_ASCII_OFFSET = 29
#: How far above its threshold a recent reading must bring a text to be taken without a search.
RECENT_MARGIN = 0.5
#: Readings whose values differ by less than this are a close call (nats per pair).
CLOSE_CALL = 0.3
#: Fewest characters of bad segments worth a segment-wise repair.
MIN_SEGMENT_CHARS = 12


@dataclass(frozen=True)
class ShiftResult:
    """A constant-offset or glyph-order reading of a text that reads as language."""

    method: str  # "offset" or "mac-standard"
    offset: int | None
    text: str
    score_before: float
    score_after: float
    lang: str | None
    #: Share of the text's visible characters read through the shift (1.0: all of it).
    share: float = 1.0

    def describe(self) -> str:
        """The evidence's words: `+29 code points` or `the Macintosh standard glyph order`."""
        if self.method == "mac-standard":
            return "the Macintosh standard glyph order"
        return f"{self.offset:+d} code points"


@dataclass(frozen=True)
class TextRepair:
    """What repair_text did to one text, and why."""

    text: str
    changed: bool
    method: str | None
    offset: int | None
    confidence: float
    reason: str


# --------------------------------------------------------------------------- judging


def _value(j: LanguageJudgement) -> float:
    """How far above its threshold a text scores (−inf for junk)."""
    if j.score == -math.inf:
        return -math.inf
    return j.score - j.threshold


def _natural_case(text: str) -> float:
    """Share of words whose case pattern is natural (lower, Capitalised or UPPER)."""
    words = re.findall(r"[^\W\d_]{2,}", text)
    if not words:
        return 1.0
    good = sum(1 for w in words if w.islower() or w.isupper() or w.istitle())
    return good / len(words)


def letter_share(text: str) -> float:
    """Share of the visible characters that are letters (after NFKC)."""
    kinds = langmodel.kinds(text)
    visible = len(kinds) - kinds.count(textsymbols.KIND_SPACE)
    if visible == 0:
        return 0.0
    letters = (kinds.count(textsymbols.KIND_LATIN) + kinds.count(textsymbols.KIND_ALPHA)
               + kinds.count(textsymbols.KIND_CJK))
    return letters / visible


def unknown_share(text: str, model: LetterPairModel) -> float:
    """Share of the letters that no language of the model uses (rare ideographs, odd letters)."""
    syms = langmodel.symbols(text).replace(" ", "")
    if not syms:
        return 0.0
    counts = Counter(syms)
    return sum(n for c, n in counts.items() if c not in model.known) / len(syms)


def known_letter_share(text: str, model: LetterPairModel) -> float:
    """Share of the visible characters that are letters some language of the model uses."""
    visible = len(text) - sum(1 for c in text if c.isspace())
    if visible <= 0:
        return 0.0
    syms = langmodel.symbols(text).replace(" ", "")
    return sum(1 for c in syms if c in model.known) / visible


def has_controls(text: str) -> bool:
    """Control characters other than layout (tab, line and page breaks): codes, not text."""
    return CONTROL.search(text) is not None


def reads_clearly(j: LanguageJudgement, text: str) -> bool:
    """Accepted, with no control character: nothing to repair, however short."""
    return j.passes is True and not has_controls(text)


def _is_win(before: LanguageJudgement, after: LanguageJudgement, before_text: str,
            after_text: str) -> bool:
    """The repaired text reads as language, clearly better, and keeps the letters it had."""
    if after.passes is False or after.pairs < MIN_REPAIR_PAIRS or has_controls(after_text):
        return False
    if after.passes is None and _value(after) < 0:
        return False
    if after.passes is True and _value(after) < MIN_CLEAR_MARGIN:
        return False  # scraping past the threshold is chance, not a language read clearly
    if not_running_words(after_text) is not None or _one_letter_dominates(after_text):
        return False  # one ideograph repeated (a dot leader moved into Han) reads as no text
    if letter_share(after_text) < letter_share(before_text) - 0.1:
        return False  # a true repair gives letters back; it does not turn letters into symbols
    return _value(after) - _value(before) >= MIN_GAIN


#: No language spends this share of its letters on one of them (English's e: 12 %; Chinese's
#: commonest ideograph: 4 %): a reading that does is fill, or a leader of dots moved into
#: another block.
MAX_ONE_LETTER = 0.35


def _one_letter_dominates(text: str) -> bool:
    letters = Counter(c for c in text if c.isalpha())
    total = sum(letters.values())
    return total >= 20 and max(letters.values()) > MAX_ONE_LETTER * total


#: Searches begun in this process. What one finds may depend on the readings earlier ones
#: made (see _RECENT), so the page helper keeps a page whose judging ran one for the pages'
#: own order (judge.detached).
searches = 0


def find_shift(text: str, model: LetterPairModel | None = None, *,
               lang: str | None = None) -> ShiftResult | None:
    """The constant offset or glyph order under which `text` clearly reads as language, or None.

    The whole text is tried first. When that fails, the text is cut into
    segments (lines, and layout columns separated by runs of spaces) and the
    segments that do not read (control characters, or letters no language
    accepts) are tried together: one bad font among good ones shifts only its
    own words. The result's `share` says how much of the text was re-read.
    """
    global searches
    searches += 1
    judged = _Judgements(model, lang)
    sample = text[:SCREEN_CHARS]
    if reads_clearly(judged(sample), sample):
        return None
    found = _whole_shift(text, judged) or _segment_shift(text, judged)
    if found is not None and "".join(found.text.split()) == "".join(text.split()):
        return None  # a shift that changes nothing repairs nothing (its codes moved nowhere)
    return found


class _Judgements:
    """The language judgements of one shift search, each distinct text judged once.

    A search meets the same texts again: the screened sample as the whole
    text's `before`, a recent reading among the candidate offsets, a sample
    that is the whole text, a line repeated on the page. Judging is a pure
    function of the text, so a repeat is looked up.
    """

    def __init__(self, model: LetterPairModel | None, lang: str | None) -> None:
        self.model = model or langmodel.reference_model()
        self.lang = lang
        self._given = model  # None: the reference, whose judgements may come ahead (lang.ahead)
        self._seen: dict[str, LanguageJudgement] = {}

    def __call__(self, text: str) -> LanguageJudgement:
        found = self._seen.get(text)
        if found is None:
            found = self._seen[text] = langmodel.judge(text, self._given, lang=self.lang,
                                                       min_pairs=MIN_REPAIR_PAIRS)
        return found


_SEPARATOR = re.compile(r"(\n|[ \t\u00a0]{2,})")


def _segment_shift(text: str, judged: _Judgements) -> ShiftResult | None:
    parts = _SEPARATOR.split(text[:VERIFY_CHARS])
    bad: list[int] = []
    for i in range(0, len(parts), 2):
        seg = parts[i]
        if not seg.strip():
            continue
        if has_controls(seg) or judged(seg).passes is False:
            bad.append(i)
    visible = sum(len(p.strip()) for p in parts[::2])
    bad_chars = sum(len(parts[i].strip()) for i in bad)
    if not bad or bad_chars < MIN_SEGMENT_CHARS or bad_chars == visible:
        return None
    found = _whole_shift("\n".join(parts[i] for i in bad), judged)
    if found is None:
        return None
    for i in bad:
        seg = parts[i]
        repaired = (mac_standard(seg) if found.method == "mac-standard"
                    else shift(seg, found.offset or 0))
        if repaired is not None:
            parts[i] = repaired
    rebuilt = "".join(parts) + text[VERIFY_CHARS:]
    return ShiftResult(found.method, found.offset, rebuilt, found.score_before,
                       found.score_after, found.lang, share=round(bad_chars / visible, 3))


def _agreement(a: str, b: str) -> float:
    """Share of positions where two readings of the same codes give the same text, case aside."""
    if len(a) != len(b) or not a:
        return 0.0
    a, b = a.lower(), b.lower()
    if len(a) != len(b):
        return 0.0
    return sum(1 for x, y in zip(a, b, strict=True) if x == y) / len(a)


#: Kana, and the Han ideographs (extension A, unified, compatibility).
_KANA_CHARS = "\u3040-\u30ff"
_HAN_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_IDEOGRAPHIC_RUN = re.compile(f"[{_KANA_CHARS}{_HAN_CHARS}]+")


_KANA = re.compile(f"[{_KANA_CHARS}]")
_HAN = re.compile(f"[{_HAN_CHARS}]")
#: Distinct Han characters a reading must hold before their spread says anything ...
MIN_HAN_KINDS = 8
#: ... and the code-point window (one byte of codes) that holds an alphabet moved, not Chinese.
ALPHABET_WINDOW = 256


def _implausible_ideographic(text: str) -> bool:
    """Ideographic readings that real text does not look like.

    Either ideographs cut into word-sized runs by spaces, or ideographs that
    all lie within one byte's worth of code points (both: an alphabet moved
    into the Han block: Chinese and Japanese draw on thousands of characters
    spread over the whole block, so a shift of real CJK text stays spread
    too), or kana with hardly any kanji: the profiles fold all kana into one
    symbol, so any run of kana scores like Japanese, while real Japanese
    mixes kanji in.
    """
    if _spaced_like_words(text):
        return True
    han = {ord(c) for c in _HAN.findall(text)}
    if len(han) >= MIN_HAN_KINDS and max(han) - min(han) < ALPHABET_WINDOW:
        return True
    runs = _IDEOGRAPHIC_RUN.findall(text)
    cjk = sum(len(r) for r in runs)
    if cjk < 4 or cjk < 0.5 * sum(1 for c in text if c.isalpha()):
        return False
    kana = sum(len(_KANA.findall(r)) for r in runs)
    return kana > 0.9 * cjk


def _spaced_like_words(text: str) -> bool:
    """Ideographs cut into word-sized runs by spaces: alphabetic text moved into the Han block.

    Chinese and Japanese put no spaces between words; a reading whose
    ideographic runs average two to eight characters between spaces kept the
    spacing of an alphabet, so it is not the text the codes stood for.
    """
    runs = [len(r) for r in _IDEOGRAPHIC_RUN.findall(text)]
    cjk = sum(runs)
    letters = sum(1 for c in text if c.isalpha())
    if cjk < 20 or cjk < 0.5 * letters:
        return False
    mean = cjk / len(runs)
    return 2.5 <= mean <= 8 and len(runs) >= 4


def _whole_shift(text: str, judged: _Judgements) -> ShiftResult | None:
    model = judged.model
    sample = text[:SCREEN_CHARS]
    if not sample.strip():
        return None
    before = judged(sample)
    if reads_clearly(before, sample):
        return None
    recent = _recent_reading(sample, before, judged)
    if recent is not None:
        return _verified(text, sample, recent, before, judged)
    candidates: list[tuple[str, int | None, str]] = []
    mac = mac_standard(sample)
    if mac is not None and mac != sample:
        candidates.append(("mac-standard", None, mac))
    for offset in candidate_offsets(sample, model):
        candidates.append(("offset", offset, shift(sample, offset)))
    winners: list[tuple[float, float, str, int | None, LanguageJudgement, str]] = []
    for method, k, repaired in candidates:
        if has_controls(repaired):
            continue  # never a win (see _is_win), and half the candidates: spare the judgement
        after = judged(repaired)
        if not _is_win(before, after, sample, repaired):
            continue
        value = (_value(after) + 0.5 * _natural_case(repaired)
                 - UNKNOWN_PENALTY * unknown_share(repaired, model))
        if _implausible_ideographic(repaired):
            continue
        winners.append((value, known_letter_share(repaired, model), method, k, after, repaired))
    if not winners:
        return None
    # Close calls between readings that mostly agree (the Mac order and offset 29 agree on
    # ASCII and differ on the rest) go to the reading that turns more codes into letters.
    first = max(winners, key=lambda w: w[0])
    close = [w for w in winners
             if w[0] >= first[0] - CLOSE_CALL and _agreement(w[5], first[5]) >= 0.9]
    # more known letters first; then the higher value; then the smaller offset (29 before 61:
    # readings that differ only in case score alike, and the Mac order gives 29)
    _value_, _share, method, k, after, _text = max(
        close, key=lambda w: (round(w[1], 3), round(w[0], 3), -abs(w[3] or 0)))
    return _verified(text, sample, (method, k, after), before, judged)


def _verified(text: str, sample: str, reading: tuple[str, int | None, LanguageJudgement],
              before: LanguageJudgement, judged: _Judgements) -> ShiftResult | None:
    """The reading chosen on the sample, checked on the whole text and applied to it."""
    method, k, after = reading
    full = text[:VERIFY_CHARS]
    repaired_full = (mac_standard(full) if method == "mac-standard" else shift(full, k or 0))
    if repaired_full is None:
        return None
    if method == "mac-standard" and repaired_full == shift(full, MAC_ASCII_OFFSET):
        # plain ASCII: the simpler explanation is the constant offset the Mac order implies
        method, k = "offset", MAC_ASCII_OFFSET
    if len(full) > len(sample):
        before_full = judged(full)
        after_full = judged(repaired_full)
        if not _is_win(before_full, after_full, full, repaired_full):
            return None
        before, after = before_full, after_full
    if len(text) > VERIFY_CHARS:
        tail = text[VERIFY_CHARS:]
        repaired_full += (mac_standard(tail) or tail) if method == "mac-standard" else shift(
            tail, k or 0)
    _remember(method, k)
    return ShiftResult(method, k, repaired_full, before.score, after.score, after.lang)


#: Readings that repaired recent texts, most recent first: the pages of one document share
#: their fonts, so the next page usually needs the same one.
_RECENT: list[tuple[str, int | None]] = []
RECENT_READINGS = 4


def forget_recent() -> None:
    """Start a new document: readings remembered from another must not decide this one.

    The shortcut is taken on looser checks than the full search, so carried
    across documents it made a verdict depend on what was checked before.
    """
    _RECENT.clear()


def _remember(method: str, k: int | None) -> None:
    key = (method, k)
    if key in _RECENT:
        _RECENT.remove(key)
    _RECENT.insert(0, key)
    del _RECENT[RECENT_READINGS:]


def _recent_reading(sample: str, before: LanguageJudgement, judged: _Judgements,
                    ) -> tuple[str, int | None, LanguageJudgement] | None:
    """A recent reading that clearly repairs this sample too, with no letter left unknown.

    Only an unambiguous win short-cuts the search: a page whose accented
    letters need the Mac order rather than offset 29 gets control
    characters or unknown letters through the offset, and is searched in full.
    """
    for method, k in list(_RECENT):
        repaired = mac_standard(sample) if method == "mac-standard" else shift(sample, k or 0)
        if repaired is None:
            continue
        after = judged(repaired)
        if (after.passes is True and _value(after) >= RECENT_MARGIN
                and _is_win(before, after, sample, repaired)
                and unknown_share(repaired, judged.model) == 0.0
                and not _implausible_ideographic(repaired)):
            return method, k, after
    return None


# --------------------------------------------------------------------------- repair


def _confidence(result: ShiftResult, threshold_gap: float) -> float:
    gain = (result.score_after - result.score_before if math.isfinite(result.score_before)
            else 3.0)
    return round(max(0.0, min(1.0, 0.5 * min(gain, 3.0) / 3.0 + 0.5 * min(threshold_gap, 1.0))),
                 3)


def repair_text(text: str, *, model: LetterPairModel | None = None, lang: str | None = None,
                offset: int | None = None, method: str | None = None) -> TextRepair:
    """Repair `text` when a constant offset or the Mac glyph order clearly makes it language.

    With `offset` (or `method="mac-standard"`), only that reading is tried: what a
    document-wide repair passes to its pages. The reason says why a text was
    left alone.
    """
    model = model or langmodel.reference_model()
    if not text.strip():
        return TextRepair(text, False, None, None, 0.0, "no text")
    before = langmodel.judge(text, model, lang=lang, min_pairs=MIN_REPAIR_PAIRS)
    if reads_clearly(before, text):
        return TextRepair(text, False, None, None, 0.0,
                          f"left alone: already reads as {before.lang}")
    if offset is not None or method == "mac-standard":
        repaired = mac_standard(text) if method == "mac-standard" else shift(text, offset or 0)
        if repaired is None:
            return TextRepair(text, False, None, None, 0.0,
                              "left alone: codes outside the Mac standard glyph order")
        after = langmodel.judge(repaired, model, lang=lang, min_pairs=MIN_REPAIR_PAIRS)
        if not _is_win(before, after, text, repaired):
            return TextRepair(text, False, None, None, 0.0,
                              "left alone: the document's offset does not make it read better")
        result = ShiftResult("mac-standard" if method == "mac-standard" else "offset",
                             None if method == "mac-standard" else offset, repaired,
                             before.score, after.score, after.lang)
    else:
        found = find_shift(text, model, lang=lang)
        if found is None:
            if before.passes is True:
                why = f"already reads as {before.lang}; no reading is clearly better"
            elif before.passes is None:
                why = "too little text to be sure of any repair"
            else:
                why = "no constant offset or glyph order makes it read as a language"
            return TextRepair(text, False, None, None, 0.0, f"left alone: {why}")
        result = found
        after = langmodel.judge(result.text, model, lang=lang, min_pairs=MIN_REPAIR_PAIRS)
    conf = _confidence(result, _value(after))
    return TextRepair(result.text, True, result.method, result.offset, conf,
                      f"read through {result.describe()}: reads as {result.lang}")


#: A token carries a strong sign of corruption: a control character where a space or letter was.
CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
