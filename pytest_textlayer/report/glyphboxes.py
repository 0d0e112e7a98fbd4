"""Per-glyph facts from PDFium, for drawing where a page's text layer is wrong.

The report object says which *fonts* on a page are bad; a picture needs
every *glyph*: where PDFium places it, the character it extracts, the font
it comes from and whether PDFium itself flagged a Unicode map error. These
are read here straight from PDFium (the reader the classifier runs), so the
boxes show what a standard reader sees, independently of the static
analysis that judged the fonts.

Coordinates are in PDF points in the page's displayed orientation, origin
at the top left (PDFium's own page-to-device mapping, so /Rotate and the
crop box are honoured): an SVG with ``viewBox="0 0 width height"`` laid
over the rendered image lines up with it.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
from dataclasses import dataclass
from typing import Any

from ..errors import MissingDependency
from ..pdf.pagemap import Affine, page_to_top_left

#: Most glyph boxes read from one page; a denser page is drawn in part (counted as cut).
MAX_GLYPHS = 6000
#: Resolution of page images: enough to see the glyphs under the boxes, small enough to inline.
DEFAULT_DPI = 72
#: JPEG quality of page images (greyscale, so the coloured boxes stand out).
JPEG_QUALITY = 60


@dataclass(frozen=True)
class Glyph:
    """One character PDFium extracts from a page, with its place and its source."""

    #: PDFium's character index on the page.
    index: int
    #: What PDFium extracts for it (may be a control or private-use character).
    char: str
    #: The font's name as PDFium reports it (BaseFont, possibly without its subset tag).
    font: str
    #: left, top, right, bottom in points, origin top left.
    box: tuple[float, float, float, float]
    #: PDFium found no Unicode mapping for this glyph (FPDFText_HasUnicodeMapError).
    map_error: bool
    #: Digest of the embedded font program PDFium draws it with (None: not embedded).
    program: str | None = None


@dataclass(frozen=True)
class PageGlyphs:
    """Every drawn glyph of one page, in reading order as PDFium sees it."""

    width: float
    height: float
    glyphs: tuple[Glyph, ...]
    #: Glyphs beyond MAX_GLYPHS that were not read.
    cut: int = 0

    @property
    def text(self) -> str:
        return "".join(g.char for g in self.glyphs)


def open_document(data: bytes) -> Any:
    """A pypdfium2 document over PDF bytes (the caller closes it)."""
    try:
        import pypdfium2 as pdfium
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("pypdfium2", "pip install pypdfium2") from None
    return pdfium.PdfDocument(data)


def page_glyphs(doc: Any, index: int, *, limit: int = MAX_GLYPHS) -> PageGlyphs:
    """Read the glyph boxes of page *index* (0-based) from an open pypdfium2 document.

    Characters PDFium generates itself (spaces and line ends it infers) and
    glyphs with an empty box are left out: they are not drawn.
    """
    import pypdfium2.raw as raw

    page = doc[index]
    try:
        width, height = page.get_size()
        to_top_left = page_to_top_left(page, width, height)
        textpage = page.get_textpage()
        try:
            return _read_glyphs(raw, textpage.raw, width, height, to_top_left, limit)
        finally:
            textpage.close()
    finally:
        page.close()


def _read_glyphs(
    raw: Any, handle: Any, width: float, height: float, transform: Affine, limit: int
) -> PageGlyphs:
    count = raw.FPDFText_CountChars(handle)
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    rect = raw.FS_RECTF()
    fonts: dict[bytes, str] = {}
    programs: dict[int, str | None] = {}
    glyphs: list[Glyph] = []
    cut = 0
    for i in range(max(count, 0)):
        if raw.FPDFText_IsGenerated(handle, i) == 1:
            continue
        if not raw.FPDFText_GetLooseCharBox(handle, i, ctypes.byref(rect)):
            continue
        if rect.right - rect.left <= 0 or rect.top - rect.bottom <= 0:
            continue
        if len(glyphs) >= limit:
            cut += 1
            continue
        size = raw.FPDFText_GetFontInfo(handle, i, name, ctypes.sizeof(name), ctypes.byref(flags))
        key = name.raw[: max(size - 1, 0)] if 0 < size <= ctypes.sizeof(name) else b""
        font = fonts.setdefault(key, key.decode("utf-8", errors="replace"))
        code = raw.FPDFText_GetUnicode(handle, i)
        glyphs.append(
            Glyph(
                index=i,
                char=_char(code),
                font=font,
                box=transform.box(rect.left, rect.top, rect.right, rect.bottom),
                map_error=raw.FPDFText_HasUnicodeMapError(handle, i) == 1,
                program=_program(raw, handle, i, programs),
            )
        )
    return PageGlyphs(width=width, height=height, glyphs=tuple(glyphs), cut=cut)


def _program(raw: Any, handle: Any, i: int, cache: dict[int, str | None]) -> str | None:
    """Digest of the font program of char *i*: what tells two subsets of one face apart.

    PDFium often names a font without its subset tag, so ``ABCDEF+Sans`` and
    ``GHIJKL+Sans`` look alike; their embedded programs differ, and
    :func:`embedded_programs` digests the same bytes from the PDF's side.
    """
    getter: Any = getattr(raw, "FPDFFont_GetFontData", None)
    if getter is None:  # an older PDFium: names alone will have to do
        return None
    obj = raw.FPDFText_GetTextObject(handle, i)
    font = raw.FPDFTextObj_GetFont(obj) if obj else None
    key = ctypes.cast(font, ctypes.c_void_p).value if font else None
    if key is None:
        return None
    if key not in cache:
        size = ctypes.c_size_t()
        digest = None
        if getter(font, None, 0, ctypes.byref(size)) and size.value:
            data = (ctypes.c_uint8 * size.value)()
            if getter(font, data, size.value, ctypes.byref(size)):
                digest = program_digest(bytes(data))
        cache[key] = digest
    return cache[key]


def program_digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


#: How deep embedded_programs follows Form XObjects inside Form XObjects.
MAX_FORM_DEPTH = 8


def embedded_programs(pdf: Any, index: int) -> dict[str, str]:
    """Font program digest → BaseFont (no slash) for the fonts page *index* can draw with.

    *pdf* is an open pikepdf document. Page and Form XObject resources are
    searched (forms within forms up to MAX_FORM_DEPTH); a font without an
    embedded program has no entry.
    """
    out: dict[str, str] = {}
    seen: set[tuple[int, int]] = set()

    def walk(resources: Any, depth: int) -> None:
        if resources is None or depth > MAX_FORM_DEPTH:
            return
        fonts = resources.get("/Font")
        for font in (fonts.values() if fonts is not None else ()):
            data = _font_file(font)
            if data is not None:
                out.setdefault(program_digest(data), str(font.get("/BaseFont", ""))[1:])
        xobjects = resources.get("/XObject")
        for xobject in (xobjects.values() if xobjects is not None else ()):
            key = xobject.objgen
            if key in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            walk(xobject.get("/Resources"), depth + 1)

    walk(pdf.pages[index].get("/Resources"), 0)
    return out


def _font_file(font: Any) -> bytes | None:
    try:
        descendants = font.get("/DescendantFonts")
        holder = descendants[0] if descendants is not None else font
        descriptor = holder.get("/FontDescriptor")
        if descriptor is None:
            return None
        for key in ("/FontFile2", "/FontFile3", "/FontFile"):
            stream = descriptor.get(key)
            if stream is not None:
                return bytes(stream.read_bytes())
    except Exception:  # a damaged font dictionary only costs the join its best clue
        return None
    return None


def _char(code: int) -> str:
    try:
        return chr(code)
    except (ValueError, OverflowError):
        return "\ufffd"


def render_jpeg(doc: Any, index: int, *, dpi: float = DEFAULT_DPI,
                quality: int = JPEG_QUALITY) -> bytes:
    """Page *index* rendered by PDFium in greyscale, as JPEG bytes."""
    page = doc[index]
    try:
        bitmap = page.render(scale=dpi / 72.0, grayscale=True, may_draw_forms=True)
        try:
            image = bitmap.to_pil()
        except ImportError:
            raise MissingDependency("Pillow", "pip install pillow") from None
        out = io.BytesIO()
        image.convert("L").save(out, format="JPEG", quality=quality, optimize=True)
        return out.getvalue()
    finally:
        page.close()
