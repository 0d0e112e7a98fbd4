"""Fonts for fixtures: load a TrueType file, check it covers the text, and
rebuild a subset program with exactly the glyph order and tables a defect needs.

The defect of a broken PDF font is mostly *in the program*: which glyph
index a letter sits at, and whether a ``cmap`` or ``post`` table still says
what the glyph is.  So the program is rebuilt from outlines (through
fontTools pens, components decomposed) rather than subset in place: that
gives full control of the glyph order and drops hinting and every table the
defect does not want.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

#: The default font when present (Latin, Greek and Cyrillic coverage).
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DEJAVU_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
#: A fixed date for the `head` table, so the same call writes the same bytes.
FIXED_FONT_DATE = 3_786_912_000  # 2024-01-01, seconds since 1904

_CACHE: dict[tuple[str, int, int], SourceFont] = {}
_PARSED: dict[str, TTFont] = {}


def reportlab_font(bold: bool = False) -> Path:
    """Bitstream Vera, which ships inside reportlab (Latin only)."""
    import reportlab

    return Path(reportlab.__file__).parent / "fonts" / ("VeraBd.ttf" if bold else "Vera.ttf")


def default_font_path(bold: bool = False) -> Path:
    """DejaVu Sans when installed, else the TrueType font that ships with reportlab."""
    candidate = DEJAVU_BOLD if bold else DEJAVU
    return candidate if candidate.is_file() else reportlab_font(bold)


@dataclass(frozen=True)
class SourceFont:
    """A TrueType font file the fixture's glyphs are taken from."""

    path: Path
    data: bytes
    ps_name: str
    upem: int
    cmap: Mapping[int, str]
    glyph_order: tuple[str, ...]
    #: identifies the font's bytes (subset tags and caches derive from it)
    digest: str

    def tt(self) -> TTFont:
        """The parsed font, shared (read it, never change it): parsing DejaVu takes a while."""
        cached = _PARSED.get(self.digest)
        if cached is None:
            from fontTools.ttLib import TTFont

            cached = _PARSED[self.digest] = TTFont(io.BytesIO(self.data), lazy=True)
        return cached

    def require(self, text: str) -> None:
        """UsageError naming the first character the font has no glyph for."""
        for ch in sorted(set(text) - {"\n", "\f"}):
            if ord(ch) not in self.cmap:
                raise UsageError(
                    f"font {self.path.name} has no glyph for {ch!r} (U+{ord(ch):04X}); "
                    "choose a font that covers the text"
                )


def load_font(font: str | os.PathLike[str] | None = None, *, bold: bool = False) -> SourceFont:
    """Load (and cache) a TrueType font; UsageError for a missing or unusable file."""
    path = Path(font) if font is not None else default_font_path(bold)
    try:
        stat = path.stat()
    except OSError:
        raise UsageError(f"{path}: font file not found") from None
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    from fontTools.ttLib import TTFont, TTLibError

    try:
        data = path.read_bytes()
        tt = TTFont(io.BytesIO(data), fontNumber=0)
        order = tuple(tt.getGlyphOrder())
        cmap = tt.getBestCmap() or {}
        has_glyf = "glyf" in tt
        upem = int(tt["head"].unitsPerEm)
        name = tt["name"].getDebugName(6) if "name" in tt else None
    except (OSError, TTLibError, AssertionError, KeyError, ValueError) as exc:
        raise UsageError(f"{path}: not a usable TrueType font ({exc})") from None
    if not has_glyf:
        raise UsageError(f"{path}: only TrueType (glyf) fonts are supported, not CFF/OpenType")
    if not cmap:
        raise UsageError(f"{path}: the font has no Unicode cmap to find the text's glyphs")
    ps_name = "".join(c for c in (name or path.stem) if c.isalnum() or c in "-_") or "Font"
    digest = hashlib.sha256(data).hexdigest()[:32]
    src = SourceFont(path, data, ps_name, upem, dict(cmap), order, digest)
    _CACHE[key] = src
    return src


def distinct(text: str) -> str:
    """The characters of *text* in order of first appearance, without line and page breaks."""
    seen: dict[str, None] = {}
    for ch in text:
        if ch not in "\n\f":
            seen.setdefault(ch, None)
    return "".join(seen)


@dataclass(frozen=True)
class Program:
    """A rebuilt TrueType program and the facts the PDF font dictionary needs."""

    data: bytes
    #: character -> glyph index in this program
    gids: Mapping[str, int]
    #: glyph index -> advance width in text space units (1000 per em)
    widths: Mapping[int, int]
    #: glyph index -> glyph name in this program
    names: tuple[str, ...]
    bbox: tuple[int, int, int, int]
    ascent: int
    descent: int

    def width(self, ch: str) -> int:
        return self.widths[self.gids[ch]]


def slots_for(src: SourceFont, chars: str, order: str) -> list[tuple[str, str | None]]:
    """The glyph order of a rebuilt program: (glyph name, character drawn or None) per index.

    ``first-use``: .notdef, then glyphs in order of first appearance.
    ``original``: the source font's own indices (cut after the last glyph used).
    ``mac-standard``: the 258 Macintosh standard names first, each character in
    the slot of its Adobe Glyph List name; characters without a slot follow.
    """
    from fontTools.agl import UV2AGL
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    if order == "first-use":
        return _with_duplicates([(".notdef", None)], chars, src)
    if order == "original":
        by_name: dict[str, str] = {}
        for ch in chars:
            by_name.setdefault(src.cmap[ord(ch)], ch)
        index = {name: i for i, name in enumerate(src.glyph_order)}
        last = max(index[n] for n in by_name) if by_name else 0
        slots = [(name, by_name.get(name)) for name in src.glyph_order[: last + 1]]
        return _with_duplicates(slots, chars, src)
    if order == "mac-standard":
        slots = [(name, None) for name in standardGlyphOrder]
        where = {name: i for i, name in enumerate(standardGlyphOrder)}
        placed: dict[str, None] = {}
        extra: list[tuple[str, str | None]] = []
        for ch in chars:
            agl = UV2AGL.get(ord(ch))
            srcname = src.cmap[ord(ch)]
            slot = where.get(agl) if agl else None
            if slot is None:
                slot = where.get(srcname)
            if slot is not None and slots[slot][1] is None:
                slots[slot] = (slots[slot][0], ch)
                continue
            name = srcname if srcname not in where else f"{srcname}.alt"
            if slot is None and name not in placed:
                placed[name] = None
                extra.append((name, ch))
        return _with_duplicates(slots + extra, chars, src)
    raise UsageError(
        f"unknown glyph order {order!r} (choose from mac-standard, first-use, original)"
    )


def _with_duplicates(
    slots: list[tuple[str, str | None]], chars: str, src: SourceFont
) -> list[tuple[str, str | None]]:
    """Give every character its own slot: one glyph drawn for two characters is duplicated."""
    placed = {ch for _, ch in slots if ch is not None}
    names = {name for name, _ in slots}
    for ch in chars:
        if ch not in placed:
            name = src.cmap[ord(ch)]
            n = 1
            while f"{name}.{n}" in names:
                n += 1
            names.add(f"{name}.{n}")
            slots.append((f"{name}.{n}", ch))
            placed.add(ch)
    return slots


def build_program(
    src: SourceFont,
    slots: Sequence[tuple[str, str | None]],
    *,
    cmap: str | None = None,
    codes: Mapping[str, int] | None = None,
    post: str | None = None,
) -> Program:
    """Rebuild a TrueType program holding *slots* in that order.

    cmap: None (no table), ``unicode`` (a (3,1) subtable: character -> glyph),
    ``symbol`` (only a (3,0) subtable: 0xF000 + code -> glyph, *codes* given),
    ``mac`` (a (1,0) subtable: code -> glyph).
    post: None (no table), ``format3`` (no names), ``names`` (format 2, the slot names).
    """
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.recordingPen import DecomposingRecordingPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib.tables._c_m_a_p import cmap_format_4

    tt = src.tt()
    glyphset = tt.getGlyphSet()
    hmtx = tt["hmtx"].metrics
    names = [name for name, _ in slots]
    if len(set(names)) != len(names):
        raise AssertionError("glyph names in a program must be unique")
    fb = FontBuilder(src.upem, isTTF=True)
    fb.setupGlyphOrder(names)
    glyphs: dict[str, Any] = {}
    metrics: dict[str, tuple[int, int]] = {}
    for name, ch in slots:
        srcname = src.cmap[ord(ch)] if ch is not None else (name if name == ".notdef" else None)
        pen = TTGlyphPen(None)
        if srcname is not None and srcname in glyphset:
            recorder = DecomposingRecordingPen(glyphset)
            glyphset[srcname].draw(recorder)
            recorder.replay(pen)
            advance = hmtx[srcname][0]
        else:
            advance = 0
        glyphs[name] = pen.glyph()
        metrics[name] = (advance, 0)
    fb.setupGlyf(glyphs)
    glyf = fb.font["glyf"]
    for name in names:
        g = glyf[name]
        g.recalcBounds(glyf)
        metrics[name] = (metrics[name][0], int(getattr(g, "xMin", 0)))
    fb.setupHorizontalMetrics(metrics)
    head_src, hhea_src = tt["head"], tt["hhea"]
    fb.setupHead(
        unitsPerEm=src.upem,
        created=FIXED_FONT_DATE,
        modified=FIXED_FONT_DATE,
        fontRevision=1.0,
        macStyle=head_src.macStyle,
    )
    fb.setupHorizontalHeader(ascent=hhea_src.ascent, descent=hhea_src.descent)
    fb.setupMaxp()
    ordered = {ch: name for name, ch in slots if ch is not None}
    if cmap == "unicode":
        fb.setupCharacterMap({ord(ch): name for ch, name in sorted(ordered.items())})
        table = fb.font["cmap"]
        table.tables = [t for t in table.tables if (t.platformID, t.platEncID) == (3, 1)]
    elif cmap in ("symbol", "mac"):
        if codes is None:
            raise AssertionError("a symbol or mac cmap needs codes")
        from fontTools.ttLib import newTable

        sub = cmap_format_4(4)
        if cmap == "symbol":
            sub.platformID, sub.platEncID = 3, 0
            sub.cmap = {0xF000 + codes[ch]: name for ch, name in ordered.items()}
        else:
            sub.platformID, sub.platEncID = 1, 0
            sub.cmap = {codes[ch]: name for ch, name in ordered.items()}
        sub.language = 0
        table = newTable("cmap")
        table.tableVersion = 0
        table.tables = [sub]
        fb.font["cmap"] = table
    elif cmap is not None:
        raise AssertionError(f"unknown cmap kind {cmap}")
    if post == "names":
        fb.setupPost(keepGlyphNames=True)
    elif post == "format3":
        fb.setupPost(keepGlyphNames=False)
    font = fb.font
    font.recalcTimestamp = False
    buf = io.BytesIO()
    font.save(buf)
    data = buf.getvalue()
    scale = 1000.0 / src.upem
    widths = {i: round(metrics[n][0] * scale) for i, n in enumerate(names)}
    gids = {ch: i for i, (_, ch) in enumerate(slots) if ch is not None}
    bb = (head_src.xMin, head_src.yMin, head_src.xMax, head_src.yMax)
    return Program(
        data=data,
        gids=gids,
        widths=widths,
        names=tuple(names),
        bbox=(
            round(bb[0] * scale),
            round(bb[1] * scale),
            round(bb[2] * scale),
            round(bb[3] * scale),
        ),
        ascent=round(hhea_src.ascent * scale),
        descent=round(hhea_src.descent * scale),
    )


def advance_widths(src: SourceFont, chars: Iterable[str]) -> dict[str, int]:
    """Advance width per character, in text space units (1000 per em)."""
    tt = src.tt()
    hmtx = tt["hmtx"].metrics
    scale = 1000.0 / src.upem
    return {ch: round(hmtx[src.cmap[ord(ch)]][0] * scale) for ch in chars}


def glyph_path(src: SourceFont, ch: str) -> bytes:
    """The outline of *ch* as PDF path operators in 1000-per-em units, ready to fill."""
    from fontTools.pens.basePen import BasePen
    from fontTools.pens.recordingPen import DecomposingRecordingPen

    scale = 1000.0 / src.upem
    out: list[str] = []

    def fmt(*pts: tuple[float, float]) -> str:
        return " ".join(f"{x * scale:.1f} {y * scale:.1f}" for x, y in pts)

    class PdfPen(BasePen):  # type: ignore[misc]
        def _moveTo(self, pt: tuple[float, float]) -> None:
            out.append(f"{fmt(pt)} m")

        def _lineTo(self, pt: tuple[float, float]) -> None:
            out.append(f"{fmt(pt)} l")

        def _curveToOne(
            self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]
        ) -> None:
            out.append(f"{fmt(p1, p2, p3)} c")

        def _closePath(self) -> None:
            out.append("h")

    tt = src.tt()
    glyphset = tt.getGlyphSet()
    recorder = DecomposingRecordingPen(glyphset)
    glyphset[src.cmap[ord(ch)]].draw(recorder)
    recorder.replay(PdfPen(glyphset))
    return ("\n".join(out) + ("\nf" if out else "")).encode("ascii")
