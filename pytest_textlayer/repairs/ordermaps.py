"""Source b of :mod:`.recover`: a map from the order of a font's glyphs, judged by the language.

When a font's program names nothing, its glyphs may still stand in a known
order: the Macintosh standard glyph order, a constant offset from the
characters (or from the values of a shifted ToUnicode), or the character
codes themselves. Each such hypothesis is a guess until the document's text
under it passes the letter-pair model and no rival reading passes nearly as
well. The checks that keep letter soup out (word shapes and lengths, letter
case, the program's blank glyphs and accented outlines) belong to it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .fontusage import FontUsage, gid_codes, program_glyphs
from .recover import Recovery, agl, coverage, named_encoding, usable_text

#: Offsets tried by the order source. −29/−31/−32/+3 are the ones met in the wild
#: (taxonomy.md); the window around them is tried too and the model decides.
OFFSET_WINDOW = range(-96, 97)
#: A hypothesis must cover this share of the font's drawn glyphs to be considered.
MIN_ORDER_COVERAGE = 0.9
#: Fewest letters of text a model verdict is taken on.
MIN_VERIFY_LETTERS = 12


def codes_map(usage: FontUsage) -> dict[int, str]:
    """code -> the WinAnsi character of a simple font's one-byte code.

    A symbolic TrueType subset reaches its glyphs through a (3,0) cmap at
    U+F000 plus the code, and its glyphs may be named 'glyph00004': the
    program says nothing of the text. Many producers (Ghostscript among
    them) still wrote the codes of the text they drew, so the codes
    themselves may be the text; the letter-pair model says whether they are.
    """
    if usage.width != 1:
        return {}
    table = named_encoding("WinAnsiEncoding")
    out: dict[int, str] = {}
    for code in usage.codes():
        text = agl(table.get(code, ""))
        # Codes WinAnsi leaves undefined draw a bullet (Annex D): no text said that.
        if text and (text != "\u2022" or code == 0x95):
            out[code] = text
    return out


def mac_standard_map(usage: FontUsage) -> dict[int, str]:
    """code -> text reading glyph ids through the 258-name Macintosh standard order."""
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    out: dict[int, str] = {}
    for code, gid in gid_codes(usage).items():
        if 0 < gid < len(standardGlyphOrder):
            text = agl(standardGlyphOrder[gid])
            if text:
                out[code] = text
    return out


#: Characters past ASCII that prose in any language uses and an order hypothesis may give.
_PROSE_EXTRA = frozenset("’‘“”„–—…«»•°€£§¿¡\u00a0")


def _foreign_letters(
    usage: FontUsage, mapping: Mapping[int, str], model: Any, lang: str | None
) -> set[int]:
    """Codes past ASCII that the order reads as characters the text's language never uses.

    The Macintosh order is shared by many fonts for ASCII only; past it, a
    font in its designer's order reads as stray symbols (``m‹ssen``,
    ``schlieølich``) that the letter-pair model hardly notices among so many
    right letters. A letter must be in the alphabet of the language the text
    reads as; other characters must be ordinary prose punctuation.
    """
    from ..lang import langmodel

    model = model if model is not None else langmodel.reference_model()
    verdict = langmodel.judge(usage.text(mapping, missing=" ")[:VERIFY_CHARS], model, lang=lang)
    names = (verdict.lang or "").split("+")
    alphabet: set[str] = set()
    for name in names:
        found = model.languages.get(name)
        if found is not None:
            alphabet |= set(found.alphabet)
    out: set[int] = set()
    for code, text in mapping.items():
        if all(ord(ch) < 0x80 for ch in text):
            continue
        fits = all(
            ch.lower() in alphabet if ch.isalpha() else ch in _PROSE_EXTRA
            for ch in text
            if ord(ch) >= 0x80
        )
        if not fits:
            out.add(code)
    return out


_DOTLESS = {"\u0131": "i", "\u0237": "j"}


def _contradicted_accents(usage: FontUsage, mapping: Mapping[int, str]) -> set[int]:
    """Codes read as an accented letter whose glyph is built on a different letter.

    An accented glyph is usually a composite of its base letter and the
    accent. Under the Macintosh order the base's glyph id says which letter
    it is too; when the composite's parts read as another letter (a font in
    its designer's order, which matches the Mac order for ASCII only), the
    accented reading is wrong. Glyphs that are not composites cannot be
    checked and keep their reading.
    """
    import unicodedata

    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    program = program_glyphs(usage)
    if program is None:
        return set()
    glyf, order = program
    index = {name: i for i, name in enumerate(order)}
    gids = gid_codes(usage)
    out: set[int] = set()
    for code, text in mapping.items():
        base = unicodedata.normalize("NFD", text)[:1]
        gid = gids.get(code)
        if len(text) != 1 or base == text or not base.isalpha() or gid is None:
            continue
        if not 0 <= gid < len(order):
            continue
        glyph = glyf[order[gid]]
        if not glyph.isComposite():
            continue
        parts = []
        for component in glyph.components:
            part = index.get(component.glyphName)
            if part is not None and 0 < part < len(standardGlyphOrder):
                parts.append(agl(standardGlyphOrder[part]))
        # î is built on the dotless ı, and ĵ on ȷ: the same letter for this purpose.
        if parts and base not in {_DOTLESS.get(p, p) for p in parts}:
            out.add(code)
    return out


def offset_map(
    usage: FontUsage,
    offset: int,
    base: Mapping[int, str] | None = None,
    *,
    gids: Mapping[int, int] | None = None,
) -> dict[int, str]:
    """code -> chr(glyph id + offset), for glyph ids that land on usable characters.

    With ``base`` (the text the font's own route gives, one character per
    code), the offset moves those characters instead: a ToUnicode whose
    destinations were all shifted.
    """
    out: dict[int, str] = {}
    if base is None:
        # One glyph id a code, and some two hundred offsets weighed against the same codes:
        # the single character is made straight away.
        for code, gid in (gid_codes(usage) if gids is None else gids).items():
            cp = gid + offset
            if 0x20 <= cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF and usable_text(chr(cp)):
                out[code] = chr(cp)
        return out
    # A ligature's value ("fi") was shifted character by character: so it moves back.
    drawn = usage.codes()
    values = {c: tuple(map(ord, t)) for c, t in base.items() if 0 < len(t) <= 4 and c in drawn}
    for code, numbers in values.items():
        moved = [number + offset for number in numbers]
        if all(0x20 <= cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF for cp in moved):
            text = "".join(map(chr, moved))
            if usable_text(text):
                out[code] = text
    return out


@dataclass(frozen=True)
class Hypothesis:
    source: str
    offset: int | None
    mapping: dict[int, str]
    #: Letter-pair score minus the model's threshold for the text this map gives.
    margin: float
    passes: bool


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


#: Mean letters per word above which a text in a spaced script is letter soup, not prose.
MAX_MEAN_WORD = 14.0
#: Scripts written without spaces between words (by the first word of the Unicode name).
UNSPACED = ("CJK", "HIRAGANA", "KATAKANA", "THAI", "LAO", "KHMER", "MYANMAR", "TIBETAN")


def _spaced(text: str) -> bool:
    """Prose in a script that separates words has words of ordinary length.

    Under a wrong order the space glyph turns into a letter and every line
    becomes one long word, which a letter-pair model alone may still accept.
    """
    import unicodedata

    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    unspaced = sum(unicodedata.name(ch, "").startswith(UNSPACED) for ch in letters)
    if unspaced > len(letters) / 2:
        return True
    words = [w for w in text.split() if any(ch.isalpha() for ch in w)]
    return bool(words) and len(letters) / len(words) <= MAX_MEAN_WORD


def _reads_spaces(on_blanks: Mapping[int, str], space: int | None) -> bool:
    """Does an offset read the program's blank glyphs as white space, its commonest one
    (`space`) included? A blank glyph an offset moves onto no character says nothing
    only when it is not the space the text is set with."""
    return (space is None or space in on_blanks) and all(t.isspace() for t in on_blanks.values())


#: Characters of a font's text the model judges an order hypothesis on (enough to be sure, fast).
VERIFY_CHARS = 20000


#: Distinct glyphs first drawn in consecutive glyph-id order that mark a font as numbered in
#: order of first use: by chance, a text's first letters almost never come in glyph order.
MIN_FIRST_USE = 5


def numbered_by_first_use(usage: FontUsage, gids: Mapping[int, int]) -> bool:
    """Whether the font's glyphs are numbered in the order the text first draws them: ids
    1, 2, 3 ... at their first appearances, as LibreOffice's subsets are.

    No standard glyph order reads such a font: under any of them, its text's
    letters first appear in alphabetical order. On a short text the letter-pair
    model may still pass one (a Hebrew italic phrase of 19 glyphs, read at
    offset +67, passed as Spanish by +0.41); so no order hypothesis is made.
    """
    firsts = list(dict.fromkeys(
        gids.get(c, c) for runs in usage.pages.values() for run in runs for c in run))
    return len(firsts) >= MIN_FIRST_USE and all(
        b == a + 1 for a, b in zip(firsts, firsts[1:], strict=False))


def order_hypotheses(
    usage: FontUsage,
    model: Any = None,
    lang: str | None = None,
    base: Mapping[int, str] | None = None,
) -> list[Hypothesis]:
    """Mac-standard and constant-offset maps for a font, best margin first.

    Without ``base`` the codes are read as glyph ids; with it, the
    characters ``base`` gives are shifted. Only hypotheses covering most of
    the drawn glyphs are judged, by the letter-pair model
    (:func:`.langmodel.judge`) on the font's text across the whole document.
    """
    from ..lang import langmodel

    glyphs = usage.glyphs
    # Counted once: some two hundred hypotheses are weighed against the same codes.
    gids = gid_codes(usage) if base is None else None
    if gids is not None and numbered_by_first_use(usage, gids):
        return []
    candidates: list[tuple[str, int | None, dict[int, str]]] = []
    if base is None:
        candidates.append(("mac-standard", None, mac_standard_map(usage)))
        candidates.append(("codes", None, codes_map(usage)))
    counts = usage.codes()
    # A glyph with no outline that advances the pen is a space: an order that reads it as
    # anything else is contradicted by the program itself (gid 3 + 75 is "N", not a letter).
    from .blankglyphs import blank_codes

    blanks = blank_codes(usage) if base is None else set()
    # Offsets that move a space onto a letter are not built at all (all but one or two), nor
    # ones that move the space the font draws most onto no character: under a true order its
    # glyph is a space too (a short heading with few spaces otherwise had a hundred offsets
    # weighed, one language judgement each, for none to pass).
    on_blanks = {c: g for c, g in (gids or {}).items() if c in blanks}
    space = max(on_blanks, key=lambda c: (counts[c], -c)) if on_blanks else None
    candidates += [
        ("offset", k, offset_map(usage, k, base, gids=gids)) for k in OFFSET_WINDOW
        if k != 0 and _reads_spaces(offset_map(usage, k, gids=on_blanks), space)
    ]
    out: list[Hypothesis] = []
    for source, offset, mapping in candidates:
        if any(not mapping.get(c, " ").isspace() for c in blanks):
            continue
        covered = sum(n for code, n in counts.items() if code in mapping)
        if not glyphs or covered < MIN_ORDER_COVERAGE * glyphs:
            continue
        text = usage.text(mapping, missing=" ")[:VERIFY_CHARS]
        if _letters(text) < MIN_VERIFY_LETTERS or wordlike(text) < MIN_WORDLIKE:
            continue
        if not _spaced(text):
            continue
        verdict = langmodel.judge(text, model, lang=lang)
        if verdict.passes is None:
            continue
        out.append(Hypothesis(source, offset, mapping, verdict.margin, bool(verdict.passes)))
    out.sort(key=lambda h: -h.margin)
    return out


#: Mac-standard wins over a constant offset within this margin: it also maps accented letters.
MAC_PREFERENCE = 0.25
#: Share of the visible characters of a hypothesis' text that must be letters or digits.
MIN_WORDLIKE = 0.8
_WORD = re.compile(
    r"[\"'(\[«“‘¿¡]*"
    r"(?:[^\W\d_]+(?:['’\-.·_][^\W\d_]+)*|[+\-−]?\d+(?:[.,:/\-]\d+)*%?)"
    r"[\"')\]»”’.,;:!?]*"
)


#: The marks CJK prose is punctuated with: ideographic comma and full stop, brackets and
#: quotes, the middle dot, full-width and half-width sentence punctuation. (Not the
#: full-width symbols ／＄＋: full-width Latin shifted by a wrong offset gives those.)
_CJK_MARKS = re.compile("[、。〃〈〉《》「」『』【】〔〕〖〗〘〙〚〛〜〝〞〟・"
                        "（）！？：；，．［］｛｝｡｢｣､･]")
#: Tokens of their own in prose: dashes, percent and section signs, bullets.
_DASHES = set("-–—%§•·&/*+=")


def wordlike(text: str) -> float:
    """Share of the visible characters that stand in word-shaped tokens.

    A token is a word (letters, with inner apostrophes or hyphens) or a
    number, with quotes and punctuation only at its ends; a lone
    punctuation mark is left out of the count. The letter-pair
    model scores letters; this keeps a wrong offset's symbol soup
    (``¦a¤¶³``, ``9:;<=>?@AB``) from passing on its few letter pairs.
    """
    # A lone punctuation mark (a table of contents' dot leaders, a bullet) is neither a word
    # nor soup: it does not count either way. Scripts written without spaces punctuate
    # inside what split() calls one token ('検討し、来年度'): their marks part words too.
    tokens = [t for t in _CJK_MARKS.sub(" ", text).split() if len(t) > 1 or t.isalnum()]
    total = sum(len(t) for t in tokens)
    if not total:
        return 0.0
    good = sum(
        len(t)
        for t in tokens
        if _WORD.fullmatch(t) or (len(t) <= 2 and all(c in _DASHES for c in t))
    )
    return good / total


#: An order hypothesis must clear the model's threshold by this much (real ones clear it by 1-2).
MIN_MARGIN = 0.3
#: The winning hypothesis must beat every hypothesis that reads the text differently by this much.
MIN_LEAD = 0.5


def _disagree(usage: FontUsage, a: Mapping[int, str], b: Mapping[int, str]) -> float:
    counts = usage.codes()
    total = sum(counts.values())
    return sum(n for c, n in counts.items() if a.get(c) != b.get(c)) / total if total else 0.0


def _settle_case(hyps: list[Hypothesis], usage: FontUsage) -> list[Hypothesis]:
    """Of two readings with the same letters in another case, keep the one cased like prose.

    The letter-pair model reads 'layout' and 'LAYOUT' alike, and offsets 32
    apart turn one into the other, so both pass and would rival each other;
    capitals inside words are what tells the wrong one.
    """
    kept: list[Hypothesis] = []
    for h in hyps:
        twin = next((k for k in kept if _same_letters(usage, k.mapping, h.mapping)), None)
        if twin is None:
            kept.append(h)
        elif _inner_capitals(usage.text(h.mapping)) < _inner_capitals(usage.text(twin.mapping)):
            kept[kept.index(twin)] = h
    return kept


def _same_letters(usage: FontUsage, a: Mapping[int, str], b: Mapping[int, str]) -> bool:
    counts = usage.codes()
    total = sum(counts.values())
    same = sum(n for c, n in counts.items()
               if a.get(c, "").casefold() == b.get(c, "").casefold())
    return bool(total) and same >= CASE_TWINS * total and _disagree(usage, a, b) > 0.2


#: Share of the drawn glyphs two readings must agree on, case aside, to be the same letters:
#: capitals 32 codes down land on digits and punctuation, so the rest differ.
CASE_TWINS = 0.85
_INNER_CAPITAL = re.compile(r"(?<=[^\W\d_])[^\W\d_]")


def _inner_capitals(text: str) -> float:
    """Share of the letters after a letter that are capitals (about 0.02 in prose)."""
    inner = _INNER_CAPITAL.findall(text)
    return sum(ch.isupper() for ch in inner) / len(inner) if inner else 0.0


def from_order(
    usage: FontUsage,
    model: Any = None,
    lang: str | None = None,
    base: Mapping[int, str] | None = None,
) -> Recovery | None:
    """Source b: the best order hypothesis, when the model accepts it and nothing rivals it.

    A hypothesis is only believed when it stands out: if another one that
    reads the glyphs differently also passes within :data:`MIN_LEAD`, the
    codes are not identifiable from their order (letter soup passes the
    model under many offsets) and the font is left to OCR.
    """
    hyps = _settle_case([
        h for h in order_hypotheses(usage, model, lang, base) if h.passes and h.margin >= MIN_MARGIN
    ], usage)
    if not hyps:
        return None
    best = hyps[0]
    mac = next((h for h in hyps if h.source == "mac-standard"), None)
    if mac is not None and mac.margin >= best.margin - MAC_PREFERENCE:
        best = mac
    rivals = [h for h in hyps if h is not best and _disagree(usage, h.mapping, best.mapping) > 0.2]
    if rivals and max(h.margin for h in rivals) > best.margin - MIN_LEAD:
        return None
    mapping = best.mapping
    if best.source == "mac-standard":
        detail = "glyph ids read through the Macintosh standard order"
        dropped = _contradicted_accents(usage, mapping) | _foreign_letters(
            usage, mapping, model, lang
        )
        if dropped:
            # One contradiction shows the font follows the Mac order for ASCII only: nothing
            # past ASCII can be trusted then, punctuation included.
            kept = {c: t for c, t in mapping.items() if t.isascii()}
            detail += (
                f"; {len(mapping) - len(kept)} code(s) past ASCII left out: the language does"
                " not use what the order says there, or an outline is built on another letter"
            )
            mapping = kept
    elif best.source == "codes":
        detail = "character codes read as WinAnsi characters"
    elif base is None:
        # A glyph-id offset says where ASCII sits in the font; past ASCII it is a coincidence.
        mapping = {c: t for c, t in mapping.items() if " " <= t <= "~"}
        detail = f"glyph ids shifted by {best.offset:+d} (ASCII only)"
    else:
        detail = f"ToUnicode values shifted back by {best.offset:+d}"
    best = Hypothesis(best.source, best.offset, mapping, best.margin, best.passes)
    return Recovery(
        best.mapping,
        best.source,
        coverage(usage, best.mapping),
        usage.glyphs,
        f"{detail}, accepted by the letter-pair model (margin {best.margin:+.2f})",
        offset=best.offset,
    )
