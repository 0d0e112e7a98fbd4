"""Families whose fonts break the route from glyph to Unicode (taxonomy, font cases).

Each draws the whole text with one broken face: no route at all (severed,
Type3 or simple fonts with meaningless names), or a ToUnicode that leads to
the wrong characters (shifted, PUA, scrambled, collapsed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import UsageError
from ..model import Verdict
from . import compose, faces
from .common import FontArg, choice, permutation, prepare, single
from .compose import Block, PageFacts
from .truth import Fixture

ORDERS = ("mac-standard", "first-use", "original")
#: what a reader shows for a severed glyph in each order
ORDER_NOTES = {
    "mac-standard": "glyphs in the Macintosh standard order: ASCII comes out shifted by 29",
    "first-use": "glyphs numbered in order of first use: a substitution cipher",
    "original": "glyphs at the source font's own indices",
}


# 1 ---------------------------------------------------------------------------------------

def severed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, order: str = "mac-standard",
) -> Fixture:
    """Type0 Identity-H, no ToUnicode, TrueType subset without cmap and post: text is lost."""
    order = choice("order", order, ORDERS)
    p = prepare(text, font, lang, pages, size, order=order)
    face = faces.type0(p.src, p.chars, order=order, bad=True, description="severed")
    notes = ("Type0 Identity-H, no ToUnicode, embedded TrueType without cmap and post; "
             + ORDER_NOTES[order])
    return single("severed", p, face, Verdict.UNDECODABLE, notes, size)


def severed_recoverable(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, keep: str = "cmap", order: str = "first-use",
) -> Fixture:
    """Severed for standard readers, but the file still holds the answer (cmap, post, or a name)."""
    keep = choice("keep", keep, ("cmap", "post", "name"))
    order = choice("order", order, ORDERS)
    p = prepare(text, font, lang, pages, size, keep=keep, order=order)
    if keep == "cmap":
        face = faces.type0(p.src, p.chars, order=order, cmap="unicode", bad=True,
                           description="severed, cmap kept", salt=keep)
        how = "the embedded TrueType keeps a (3,1) Unicode cmap subtable"
    elif keep == "post":
        face = faces.type0(p.src, p.chars, order=order, post="names", bad=True,
                           description="severed, post kept", salt=keep)
        how = "the embedded TrueType keeps post format 2 glyph names"
    else:
        face = faces.type0(p.src, p.chars, order=order, tounicode="Identity-H", bad=True,
                           description="severed, ToUnicode as a name", salt=keep)
        how = "/ToUnicode is the name /Identity-H, not a CMap stream"
    notes = f"Type0 Identity-H without a ToUnicode stream; {how}; {ORDER_NOTES[order]}"
    return single("severed-recoverable", p, face, Verdict.UNDECODABLE, notes, size)


# 3, 4 ------------------------------------------------------------------------------------

def _shift(offset: int) -> Callable[[str], str]:
    def moved(ch: str) -> str:
        code = ord(ch) - offset
        if code < 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            raise UsageError(
                f"offset {offset} moves {ch!r} (U+{ord(ch):04X}) outside Unicode scalar values"
            )
        return chr(code)

    return moved


def shifted(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, offset: int = 29,
) -> Fixture:
    """A ToUnicode whose every destination is the true code point minus ``offset``."""
    if isinstance(offset, bool) or not isinstance(offset, int) or offset == 0:
        raise UsageError(f"offset must be a non-zero whole number, not {offset!r}")
    p = prepare(text, font, lang, pages, size, offset=offset)
    move = _shift(offset)
    for ch in p.chars:
        move(ch)
    face = faces.type0(p.src, p.chars, tounicode=move, bad=True, description="shifted",
                       salt=("shifted", offset))
    notes = f"ToUnicode destinations moved by -{offset} (spaces too)"
    return single("shifted", p, face, Verdict.SHIFTED, notes, size)


def pua(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """A ToUnicode into the Private Use Area: U+E000 + the glyph's order of first use."""
    p = prepare(text, font, lang, pages, size)
    index = {ch: i for i, ch in enumerate(p.chars)}
    face = faces.type0(p.src, p.chars, tounicode=lambda ch: chr(0xE000 + index[ch]), bad=True,
                       description="pua", salt="pua")
    return single("pua", p, face, Verdict.GARBLED, "ToUnicode maps every glyph into the PUA",
                   size)


def scrambled(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, seed: int = 1,
) -> Fixture:
    """A ToUnicode whose letters are permuted (a seeded derangement): ordinary, wrong characters."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"seed must be a whole number, not {seed!r}")
    p = prepare(text, font, lang, pages, size, seed=seed)
    perm = permutation(p.chars, seed)
    if not perm:
        raise UsageError("scrambled needs a text with at least two distinct letters")
    face = faces.type0(p.src, p.chars, tounicode=lambda ch: perm.get(ch, ch), bad=True,
                       description="scrambled", salt=("scrambled", seed))
    return single("scrambled", p, face, Verdict.GARBLED,
                   f"ToUnicode permutes {len(perm)} letters (seed {seed})", size)


def collapsed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, to: str = "one", value: str = "?",
) -> Fixture:
    """A ToUnicode mapping every code to one value (``one``, garbled) or to U+FFFD (``fffd``)."""
    to = choice("to", to, ("one", "fffd"))
    if to == "one" and (not isinstance(value, str) or len(value) != 1):
        raise UsageError(f"value must be one character, not {value!r}")
    target = "\ufffd" if to == "fffd" else value
    extra: dict[str, Any] = {"to": to, **({"value": value} if to == "one" else {})}
    p = prepare(text, font, lang, pages, size, **extra)
    face = faces.type0(p.src, p.chars, tounicode=lambda ch: target, bad=True,
                       description="collapsed", salt=("collapsed", target))
    verdict = Verdict.UNDECODABLE if to == "fffd" else Verdict.GARBLED
    return single("collapsed", p, face, verdict,
                   f"ToUnicode maps every code to U+{ord(target):04X}", size)


# 5, 6, 7 ---------------------------------------------------------------------------------

def type3_unnamed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """A Type3 font with glyphs named g1, g2… drawing the real outlines, no ToUnicode."""
    p = prepare(text, font, lang, pages, size)
    face = faces.type3_unnamed(p.src, p.chars, description="type3")
    return single("type3-unnamed", p, face, Verdict.UNDECODABLE,
                   "Type3, glyph names g1, g2… outside the AGL, codes from 1, no ToUnicode", size)


def symbolic_truetype(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """Simple symbolic TrueType: no ToUnicode, post format 3, only a (3,0) cmap, foreign codes."""
    p = prepare(text, font, lang, pages, size)
    face = faces.symbolic_truetype(p.src, p.chars, description="symbolic")
    return single("symbolic-truetype", p, face, Verdict.UNDECODABLE,
                   "symbolic TrueType, no Encoding, no ToUnicode, post format 3, only a (3,0) "
                   "cmap; no code equals a character of the text", size)


def differences_unnamed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """Simple TrueType whose /Differences names are gNN (the glyph index), no ToUnicode."""
    p = prepare(text, font, lang, pages, size)
    face = faces.differences_unnamed(p.src, p.chars, description="differences")
    return single("differences-unnamed", p, face, Verdict.UNDECODABLE,
                   "TrueType with /Differences names gNN outside the AGL, no ToUnicode", size)





def partial(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, missing: str = "non-ascii",
) -> Fixture:
    """A correct ToUnicode with holes: the codes of some characters are left out.

    ``missing``: ``non-ascii`` (every character outside ASCII: the accented
    letters of a Latin text, nearly all of a Cyrillic or Greek one) or the
    characters to leave out.  The verdict follows the contract's rule: more
    than 10 % of the glyphs without a mapping is undecodable, else readable
    (the evidence still counts them).  pdftotext drops the unmapped glyphs;
    PDFium and pypdf emit the CID as the character.
    """
    if not isinstance(missing, str) or not missing:
        raise UsageError(
            f"missing must be 'non-ascii' or the characters to leave out, not {missing!r}"
        )
    p = prepare(text, font, lang, pages, size, missing=missing)
    holes = frozenset(
        ch for ch in p.chars if (ord(ch) > 0x7F if missing == "non-ascii" else ch in missing)
    )
    face = faces.type0(p.src, p.chars, tounicode=lambda ch: None if ch in holes else ch,
                       bad=False, description="partial", salt=("partial", missing))

    def verdict(f: PageFacts) -> Verdict:
        return Verdict.UNDECODABLE if f.bad_glyphs > 0.10 * f.glyphs else Verdict.READABLE

    def notes(f: PageFacts) -> str:
        return (f"ToUnicode leaves out {len(holes)} characters: {f.bad_glyphs} of {f.glyphs} "
                f"glyphs ({100 * f.bad_glyphs / f.glyphs:.1f} %) unmapped; >10 % is "
                f"{verdict(f).value}")

    parts = [[Block(face, part, size)] for part in p.parts]
    return compose.text_fixture("partial", p.options, parts, verdict, notes)
