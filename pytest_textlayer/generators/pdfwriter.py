"""Low-level PDF assembly with pikepdf: font dictionaries written by hand.

Producers that break text layers write font dictionaries no high-level
library would: Identity-H without ToUnicode, symbolic TrueType with only a
(3,0) cmap, Type3 fonts named ``g1``.  Writing the dictionaries directly is
the only way to get exactly one defect and nothing else.  Everything here is
deterministic: no dates, IDs derived from the content.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .fontprep import Program
from .texts import Layout

if TYPE_CHECKING:
    import pikepdf


def subset_tag(*parts: object) -> str:
    """Six capital letters derived from the inputs: the same call, the same tag."""
    digest = hashlib.sha256(repr(parts).encode("utf-8")).digest()
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])


def utf16_hex(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def tounicode_cmap(mapping: Mapping[int, str], code_bytes: int = 2) -> bytes:
    """A ToUnicode CMap stream (bfchar entries) from code -> destination text."""
    width = code_bytes * 2
    high = "F" * width
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<{'0' * width}> <{high}>",
        "endcodespacerange",
    ]
    items = sorted(mapping.items())
    for start in range(0, len(items), 100):
        chunk = items[start : start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines.extend(f"<{code:0{width}X}> <{utf16_hex(dest)}>" for code, dest in chunk)
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return ("\n".join(lines) + "\n").encode("ascii")


def _descriptor(pdf: pikepdf.Pdf, name: str, program: Program, flags: int) -> pikepdf.Dictionary:
    import pikepdf

    return pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/" + name),
        Flags=flags,
        FontBBox=list(program.bbox),
        ItalicAngle=0,
        Ascent=program.ascent,
        Descent=program.descent,
        CapHeight=program.ascent,
        StemV=80,
        FontFile2=pdf.make_stream(program.data),
    )


def type0_font(
    pdf: pikepdf.Pdf,
    program: Program,
    name: str,
    tounicode: Mapping[int, str] | str | None,
) -> pikepdf.Object:
    """A Type0 / Identity-H font over a CIDFontType2 with CIDToGIDMap Identity.

    *tounicode*: a mapping (written as a CMap stream), a string (written as a
    *name*, the TCPDF mistake) or None (no entry: the severed case).
    """
    import pikepdf

    used = sorted(set(program.gids.values()))
    widths: list[Any] = []
    for gid in used:
        widths += [gid, [program.widths[gid]]]
    cid = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType2,
        BaseFont=pikepdf.Name("/" + name),
        CIDSystemInfo=pikepdf.Dictionary(
            Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
        ),
        FontDescriptor=_descriptor(pdf, name, program, flags=4),
        DW=1000,
        W=widths,
        CIDToGIDMap=pikepdf.Name.Identity,
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type0,
        BaseFont=pikepdf.Name("/" + name),
        Encoding=pikepdf.Name("/Identity-H"),
        DescendantFonts=[pdf.make_indirect(cid)],
    )
    if isinstance(tounicode, str):
        font.ToUnicode = pikepdf.Name("/" + tounicode)
    elif tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode_cmap(tounicode, 2))
    return pdf.make_indirect(font)


def simple_truetype(
    pdf: pikepdf.Pdf,
    program: Program,
    name: str,
    codes: Mapping[str, int],
    *,
    symbolic: bool,
    differences: Mapping[int, str] | None = None,
) -> pikepdf.Object:
    """A simple (one-byte) TrueType font: symbolic without Encoding, or with /Differences."""
    import pikepdf

    first, last = min(codes.values()), max(codes.values())
    by_code = {code: program.width(ch) for ch, code in codes.items()}
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.TrueType,
        BaseFont=pikepdf.Name("/" + name),
        FirstChar=first,
        LastChar=last,
        Widths=[by_code.get(c, 0) for c in range(first, last + 1)],
        FontDescriptor=_descriptor(pdf, name, program, flags=4 if symbolic else 32),
    )
    if differences is not None:
        diffs: list[Any] = []
        previous = -2
        for code, glyph in sorted(differences.items()):
            if code != previous + 1:
                diffs.append(code)
            diffs.append(pikepdf.Name("/" + glyph))
            previous = code
        font.Encoding = pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=diffs)
    return pdf.make_indirect(font)


def type3_font(
    pdf: pikepdf.Pdf,
    procs: Mapping[str, bytes],
    codes: Mapping[int, str],
    widths: Mapping[int, int],
    bbox: Sequence[int],
    tounicode: Mapping[int, str] | None = None,
) -> pikepdf.Object:
    """A Type3 font in 1000-per-em glyph space: name -> procedure, code -> name."""
    import pikepdf

    first, last = min(codes), max(codes)
    diffs: list[Any] = []
    previous = -2
    for code, glyph in sorted(codes.items()):
        if code != previous + 1:
            diffs.append(code)
        diffs.append(pikepdf.Name("/" + glyph))
        previous = code
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type3,
        FontBBox=list(bbox),
        FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
        CharProcs=pikepdf.Dictionary({"/" + k: pdf.make_stream(v) for k, v in procs.items()}),
        Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=diffs),
        FirstChar=first,
        LastChar=last,
        Widths=[widths.get(c, 0) for c in range(first, last + 1)],
        Resources=pikepdf.Dictionary(),
    )
    if tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode_cmap(tounicode, 1))
    return pdf.make_indirect(font)


@dataclass
class TextRun:
    """Lines of one font on a page: already-encoded code strings, one per line."""

    resource: str  # e.g. "F1"
    lines: Sequence[tuple[float, float, bytes]]  # x, y, codes
    size: float
    render_mode: int = 0
    #: horizontal scaling in percent (OCR layers stretch words to the width seen in the image)
    hscale: float = 100.0


@dataclass
class PageSpec:
    """What one page holds: text runs, images and raw content (vector art)."""

    layout: Layout
    runs: list[TextRun] = field(default_factory=list)
    fonts: dict[str, pikepdf.Object] = field(default_factory=dict)
    images: dict[str, pikepdf.Object] = field(default_factory=dict)
    prefix: bytes = b""  # content drawn before the text (images, art)


def text_content(runs: Iterable[TextRun]) -> bytes:
    out: list[str] = []
    for run in runs:
        out.append("BT")
        out.append(f"/{run.resource} {run.size:g} Tf")
        if run.render_mode:
            out.append(f"{run.render_mode} Tr")
        if run.hscale != 100.0:
            out.append(f"{run.hscale:.2f} Tz")
        for x, y, codes in run.lines:
            if not codes:
                continue
            out.append(f"1 0 0 1 {x:.2f} {y:.2f} Tm <{codes.hex().upper()}> Tj")
        out.append("ET")
    return ("\n".join(out) + "\n").encode("ascii")


def add_page(pdf: pikepdf.Pdf, spec: PageSpec) -> None:
    import pikepdf

    resources = pikepdf.Dictionary()
    if spec.fonts:
        resources.Font = pikepdf.Dictionary({"/" + k: v for k, v in spec.fonts.items()})
    if spec.images:
        resources.XObject = pikepdf.Dictionary({"/" + k: v for k, v in spec.images.items()})
    content = spec.prefix + text_content(spec.runs)
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, spec.layout.width, spec.layout.height],
        Resources=resources,
        Contents=pdf.make_stream(content),
    )
    pdf.pages.append(pikepdf.Page(page))


def save(pdf: pikepdf.Pdf) -> bytes:
    """Serialise deterministically: compressed streams, an ID derived from the content."""
    import pikepdf

    buf = io.BytesIO()
    pdf.save(
        buf,
        deterministic_id=True,
        compress_streams=True,
        stream_decode_level=pikepdf.StreamDecodeLevel.generalized,
        object_stream_mode=pikepdf.ObjectStreamMode.disable,
        fix_metadata_version=False,
    )
    return buf.getvalue()
