"""Which glyphs reach Unicode by a route the specification makes sound: language may not judge them.

The burden of proof (docs/contracts.md): a page is not OK only on positive
evidence that its map from glyph to character is missing or wrong. Text that
"reads as no language" is no such evidence when the route it came through
is the one the specification defines and nothing in the file contradicts it:
a character chart, a table of figures, a code listing, fill text or a page
number drawn in Helvetica with WinAnsiEncoding is exactly what the page
shows. The language rungs (the page's judgement, a font judged alone, the
shift search after a failed judgement) therefore read only the glyphs whose
route cannot be verified: a ToUnicode neither the font program nor its widths
vouch for, symbolic TrueType fonts that select glyphs by code.

A route is sound when:

* a simple font without ToUnicode decodes by a named encoding or Adobe Glyph
  List names, and selects its glyphs by those names: not embedded (the
  standard 14 and system fonts, Type3 procedures keyed by AGL names), an
  embedded TrueType that is not symbolic (its glyphs are found through the
  Unicode of the names), or an embedded Type1/CFF program that holds the glyphs the names select (a
  program whose glyphs are named otherwise draws other letters than the
  encoding says: Devanagari under MacRoman codes);
* a composite font decodes through a predefined CMap or an Adobe CJK
  collection;
* a ToUnicode is vouched for by the program's own account of its glyphs (its
  cmap, post, charset or encoding names give the same characters for most of
  the glyphs drawn: see :func:`pytest_textlayer.pdf.crosscheck.confirmed`) or,
  where the program names nothing (every Type3 font: cairo draws the fonts
  it re-prints so), by its advance widths, which rank like the letters the
  map gives them;
* a symbolic TrueType with no encoding, read as every reader reads it (its
  printable ASCII codes as those characters), when its widths rank like
  those letters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..model import FontStatus
from .rankcheck import MIN_WIDTH_RANK

if TYPE_CHECKING:
    from .fontinfo import FontInfo
    from .pagecontent import FontUse

#: Share of a font's glyphs drawn on a page its program must account for before it can vouch.
MIN_COVERED = 0.5
#: Share of the glyphs accounted for on which program and ToUnicode must agree.
MIN_AGREEING = 0.9
#: Share of the glyphs a Type1/CFF program must hold the encoding's names for.
MIN_HELD = 0.9


def is_sound(use: FontUse) -> bool:
    """Does every glyph this page draws with the font reach Unicode by a verified route?"""
    if use.invisible_glyphs * 2 > use.glyphs:
        return False  # an OCR layer: its text is Tesseract's guess, whatever the route
    return font_is_sound(use.font, use.codes)


def font_is_sound(font: FontInfo, drawn: Mapping[int, int]) -> bool:
    """Is the font's route verified for these codes (code -> glyphs drawn)?"""
    if font.tounicode:
        return _vouched(font, drawn)  # a Type3 font has no program: its widths may vouch
    if font.status is not FontStatus.USABLE:
        return False
    if font.route == "collection":
        return True
    if font.route == "code":
        return _widths_follow(font, drawn)  # the readers' guess, vouched only by the glyphs
    if font.route not in ("encoding", "agl"):
        return False
    if not font.embedded:
        return True  # the standard 14 and system fonts; Type3 procedures named by the AGL
    if font.subtype == "TrueType":
        return not font.symbolic
    return _names_held(font, drawn)


def sound_reason(font: FontInfo) -> str:
    """Why a sound font's route needs no language judgement, for the evidence."""
    if font.tounicode:
        return "a ToUnicode its font program vouches for"
    if font.route == "collection":
        return "a predefined CMap of a registered character collection"
    if not font.embedded:
        return "a standard encoding of a font that is not embedded"
    if font.route == "code":
        return "codes read as ASCII, as every reader does, whose glyph widths follow the letters"
    return "glyph names of a standard encoding that its program holds"


def _vouched(font: FontInfo, codes: Mapping[int, int]) -> bool:
    from .crosscheck import confirmed

    _ = font.contradiction  # computes the program's account on first use
    own = font.account_texts
    if not font.has_account:  # (own may hold only the ToUnicode's codes: see program_texts)
        return _widths_follow(font, codes)
    # Bad codes (no value, or a null one) are weighed by the font rung, not vouched for here.
    drawn = {code: n for code, n in codes.items() if not font.is_bad_code(code)}
    agree, covered = confirmed(font.unicode, own, drawn, font.vouching)
    total = sum(drawn.values())
    return covered > 0 and covered >= MIN_COVERED * total and agree >= MIN_AGREEING * covered


def _widths_follow(font: FontInfo, codes: Mapping[int, int]) -> bool:
    """A program that names nothing can still vouch by its advance widths: when the widths of
    the letters drawn rank like the letters the ToUnicode gives them (narrow i and l, wide m
    and w, each case apart), the map is the font's own (see rankcheck.width_correlation).

    Only the letters this page draws are ranked: a map may be wrong for just those (a
    producer that writes the whole font's map, a breaker that permutes the letters used),
    while the rest of it ranks as well as ever.
    """
    from .rankcheck import width_correlation

    letters = font.letter_widths
    found = width_correlation(letters, codes) if letters else None
    return found is not None and found[0] >= MIN_WIDTH_RANK


def _names_held(font: FontInfo, drawn: Mapping[int, int]) -> bool:
    """An embedded Type1/CFF program selects glyphs by name: it must hold the names drawn.

    A program that cannot be read, or whose names cannot be listed (a Type1
    program's are encrypted), gives no evidence against the route, which stays
    sound by the specification.
    """
    if font.held_names is None:
        return True
    try:
        held = font.held_names()
    except Exception:  # noqa: BLE001 - a broken program is no evidence either way
        return True
    if not held:
        return True
    names = font.glyph_names
    named = [(names[code], n) for code, n in drawn.items()
             if names.get(code) not in (None, "space")]
    found = sum(n for name, n in named if name in held)
    return found >= MIN_HELD * sum(n for _, n in named)
