"""Faces: one broken (or sound) way of putting a font on a page.

A face knows how to write its font dictionary into a PDF, how to encode a
character as the bytes a content stream shows, how wide the glyph is, and
what a standard reader maps the glyph back to — the prediction that goes
into the ground truth and that the tests check against real readers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import UsageError
from . import fontprep, pdfwriter
from .fontprep import SourceFont

if TYPE_CHECKING:
    import pikepdf

#: Printable one-byte codes a simple font may use: no controls, no space-like 0xA0, and no
#: hyphens (0x2D, 0xAD), which pdftotext drops at line ends when it joins hyphenated words.
PRINTABLE_CODES: tuple[int, ...] = tuple(
    c for c in range(0x21, 0x100) if (c < 0x7F and c != 0x2D) or (c > 0xA0 and c != 0xAD)
)


@dataclass(frozen=True)
class Face:
    """A font as drawn on a page, with what readers get back from it."""

    #: writes the font dictionary into a PDF and returns it (called once per PDF)
    make: Callable[[pikepdf.Pdf], pikepdf.Object]
    #: the bytes a content stream shows for one character
    codes: Mapping[str, bytes]
    #: advance width per character, 1000 per em
    widths: Mapping[str, int]
    #: what a standard reader maps each character's glyph to
    reads: Mapping[str, str]
    #: whether this face's glyphs have no route to the right character
    bad: bool
    description: str
    #: characters whose codes alone have no mapping (a ToUnicode with holes)
    unmapped: frozenset[str] = frozenset()

    def bad_count(self, line: str) -> int:
        """Glyphs of *line* without a route to the right character."""
        return len(line) if self.bad else sum(ch in self.unmapped for ch in line)

    def encode(self, line: str) -> bytes:
        return b"".join(self.codes[ch] for ch in line)

    def extracted(self, line: str) -> str:
        return "".join(self.reads[ch] for ch in line)

    def measure(self, size: float) -> Callable[[str], float]:
        widths = self.widths
        return lambda s: sum(widths[ch] for ch in s) * size / 1000.0


def _tag(src: SourceFont, *parts: object) -> str:
    return f"{pdfwriter.subset_tag(src.digest, *parts)}+{src.ps_name}"


def type0(
    src: SourceFont,
    chars: str,
    *,
    order: str = "first-use",
    tounicode: Callable[[str], str | None] | str | None = None,
    cmap: str | None = None,
    post: str | None = None,
    bad: bool,
    description: str,
    salt: object = "",
) -> Face:
    """Type0 / Identity-H over an embedded TrueType rebuilt in *order*.

    *tounicode*: None (no ToUnicode: readers emit the glyph index as the
    character), a function char -> destination text (written as a CMap
    stream; None leaves the character's code out), or a string written as
    a *name*.
    """
    slots = fontprep.slots_for(src, chars, order)
    program = fontprep.build_program(src, slots, cmap=cmap, post=post)
    name = _tag(src, "type0", chars, order, cmap, post, salt)
    if callable(tounicode):
        given = {ch: tounicode(ch) for ch in chars}
        mapping: Mapping[int, str] | str | None = {
            program.gids[ch]: dest for ch, dest in given.items() if dest is not None
        }
        # pdftotext drops a code the ToUnicode leaves out (PDFium and pypdf emit the CID)
        reads = {ch: "" if dest is None else dest for ch, dest in given.items()}
        unmapped = frozenset(ch for ch, dest in given.items() if dest is None)
    else:
        mapping = tounicode
        reads = {ch: chr(program.gids[ch]) for ch in chars}
        unmapped = frozenset()

    def make(pdf: pikepdf.Pdf) -> pikepdf.Object:
        return pdfwriter.type0_font(pdf, program, name, mapping)

    return Face(
        make=make,
        codes={ch: program.gids[ch].to_bytes(2, "big") for ch in chars},
        widths={ch: program.width(ch) for ch in chars},
        reads=reads,
        bad=bad,
        description=description,
        unmapped=unmapped,
    )


def one_byte_codes(chars: str, avoid: str) -> dict[str, int]:
    """First-use codes from the printable range, never the code point of a character in *avoid*."""
    taken = {ord(ch) for ch in avoid}
    pool = [c for c in PRINTABLE_CODES if c not in taken]
    if len(chars) > len(pool):
        raise UsageError(
            f"a simple font holds at most {len(pool)} characters here; the text uses {len(chars)}"
        )
    return {ch: pool[i] for i, ch in enumerate(chars)}


def symbolic_truetype(src: SourceFont, chars: str, *, description: str) -> Face:
    """Simple TrueType, symbolic flag, no Encoding, no ToUnicode, post format 3, only (3,0) cmap."""
    codes = one_byte_codes(chars, avoid=chars)
    program = fontprep.build_program(
        src, fontprep.slots_for(src, chars, "first-use"), cmap="symbol", codes=codes,
        post="format3",
    )
    name = _tag(src, "symbolic", chars)

    def make(pdf: pikepdf.Pdf) -> pikepdf.Object:
        return pdfwriter.simple_truetype(pdf, program, name, codes, symbolic=True)

    return _unmapped_one_byte(make, chars, codes, {ch: program.width(ch) for ch in chars},
                              description)


def differences_unnamed(src: SourceFont, chars: str, *, description: str) -> Face:
    """Simple TrueType whose /Differences names every code ``gNN`` (NN: the glyph index).

    The program keeps a (1,0) cmap (code -> glyph) and a `post` table with the
    same ``gNN`` names, so renderers find the outlines; nothing says which
    characters they are.
    """
    codes = one_byte_codes(chars, avoid=chars)
    slots = fontprep.slots_for(src, chars, "first-use")
    renamed = [(name if ch is None else f"g{i:02d}", ch) for i, (name, ch) in enumerate(slots)]
    program = fontprep.build_program(src, renamed, cmap="mac", codes=codes, post="names")
    name = _tag(src, "differences", chars)
    differences = {codes[ch]: program.names[program.gids[ch]] for ch in chars}

    def make(pdf: pikepdf.Pdf) -> pikepdf.Object:
        return pdfwriter.simple_truetype(
            pdf, program, name, codes, symbolic=False, differences=differences
        )

    return _unmapped_one_byte(make, chars, codes, {ch: program.width(ch) for ch in chars},
                              description)


def type3_unnamed(src: SourceFont, chars: str, *, description: str) -> Face:
    """Type3 font, glyphs ``g1``, ``g2``… drawing the real outlines, codes 1, 2… , no ToUnicode."""
    if len(chars) > 255:
        raise UsageError(f"a Type3 font holds at most 255 characters; the text uses {len(chars)}")
    widths = fontprep.advance_widths(src, chars)
    codes = {ch: i for i, ch in enumerate(chars, 1)}
    procs: dict[str, bytes] = {}
    head = src.tt()["head"]
    scale = 1000.0 / src.upem
    bbox = [round(head.xMin * scale), round(head.yMin * scale),
            round(head.xMax * scale), round(head.yMax * scale)]
    for ch, code in codes.items():
        path = fontprep.glyph_path(src, ch)
        procs[f"g{code}"] = f"{widths[ch]} 0 {' '.join(map(str, bbox))} d1\n".encode() + path
    names = {code: f"g{code}" for code in codes.values()}
    by_code = {code: widths[ch] for ch, code in codes.items()}

    def make(pdf: pikepdf.Pdf) -> pikepdf.Object:
        return pdfwriter.type3_font(pdf, procs, names, by_code, bbox)

    return _unmapped_one_byte(make, chars, codes, widths, description)


def _unmapped_one_byte(
    make: Callable[[pikepdf.Pdf], pikepdf.Object],
    chars: str,
    codes: Mapping[str, int],
    widths: Mapping[str, int],
    description: str,
) -> Face:
    """A simple font with no route to Unicode: readers print each one-byte code as itself."""
    return Face(
        make=make,
        codes={ch: bytes([codes[ch]]) for ch in chars},
        widths=widths,
        reads={ch: chr(codes[ch]) for ch in chars},
        bad=True,
        description=description,
    )
