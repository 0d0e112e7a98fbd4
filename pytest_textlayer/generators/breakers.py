"""Break a real PDF's fonts the way the wild does, and keep the truth beside the broken copy.

The generators build broken fonts from scratch; real documents break in the
same ways but with their own producers' fonts, subsets, encodings and
layouts. A breaker takes the bytes of a sound PDF and rewrites the route to
Unicode of its fonts, never the content or the glyphs, so the page renders
exactly as before while readers extract something else:

==================  =========================================================  ===========
breaker             what is rewritten                                          verdict
==================  =========================================================  ===========
``sever``           /ToUnicode removed; an embedded TrueType (or OpenType)     undecodable
                    program of a Type0/Identity font loses ``cmap`` and
                    ``post``; a simple symbolic TrueType without /Encoding
                    whose program names nothing loses its /ToUnicode
``shift``           every ToUnicode destination moved by one constant          shifted
                    (default -29, the Mac-standard glyph-order offset)
``scramble``        letters permuted within their case (seeded derangement)    garbled
``pua``             every code to U+E000 + its rank                             garbled
``collapse``        every code to U+FFFD                                        undecodable
``tounicode-name``  /ToUnicode is the name /Identity-H (TCPDF ports)            undecodable
==================  =========================================================  ===========

``sever`` and ``tounicode-name`` apply to Type0 fonts with an Identity
encoding whose CIDs are not those of a CJK collection (Adobe-Japan1 CIDs
keep a route through the collection's UCS2 table, and poppler reads them).
``sever`` also applies to simple TrueType subsets whose /ToUnicode is their
only route, as LibreOffice writes them: symbolic, no /Encoding, codes in
order of first use, a program whose only cmap is a (1,0) or (3,0) table of
those codes and whose ``post`` names nothing, so that without the ToUnicode
no code drawn reads. The program keeps its cmap, which is how readers find
the glyph a code draws.

Fonts are chosen generally: every font the breaker applies to (``select="all"``),
only the one drawing the most glyphs (``"main"``), or the one drawing the
fewest (``"minor"``, usually a heading or a footer: the 10 % rule decides
its pages). The truth is what poppler and PDFium extract from the unbroken
file, page by page; each page also carries how many of its glyphs the
breaker changed, hence the verdict a correct classifier gives it.

The output is deterministic (same input, same options, same bytes) and the
input is never written: :func:`break_file` refuses an output that is its input.
"""

from __future__ import annotations

import io
import os
import unicodedata
import warnings
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputError, UsageError
from ..model import Verdict
from .fontprograms import program_route, sever_program

#: A page takes the breaker's verdict when more than this share of its glyphs changed (contract).
BAD_SHARE = 0.10
#: The glyph-id offset of fonts in the Macintosh standard order, the commonest shift in the wild.
DEFAULT_OFFSET = -29
SELECTIONS = ("all", "main", "minor")


@dataclass(frozen=True)
class Breaker:
    """One way of breaking a font: its verdict and which fonts it can break."""

    name: str
    verdict: Verdict
    description: str
    #: "identity": Type0 fonts with an Identity encoding; "mapped": fonts whose route reads.
    needs: str


BREAKERS: Mapping[str, Breaker] = MappingProxyType({
    b.name: b
    for b in (
        Breaker("sever", Verdict.UNDECODABLE,
                "no ToUnicode; the embedded TrueType loses cmap and post", "identity"),
        Breaker("shift", Verdict.SHIFTED, "ToUnicode destinations moved by a constant", "mapped"),
        Breaker("scramble", Verdict.GARBLED, "ToUnicode permutes the letters", "mapped"),
        Breaker("pua", Verdict.GARBLED, "ToUnicode into the Private Use Area", "mapped"),
        Breaker("collapse", Verdict.UNDECODABLE, "ToUnicode maps every code to U+FFFD", "mapped"),
        Breaker("tounicode-name", Verdict.UNDECODABLE, "/ToUnicode is the name /Identity-H",
                "identity"),
    )
})


@dataclass(frozen=True)
class BrokenFont:
    """A font the breaker rewrote, with the glyphs it draws and how many now read differently."""

    name: str
    subtype: str
    glyphs: int
    changed: int
    #: What the broken font's embedded program still holds to map its glyphs from, after the
    #: break: "cmap" (a Unicode subtable), "post" (glyph names), "charset" (CFF names) or None.
    program: str | None = None


@dataclass(frozen=True)
class BrokenPage:
    """One page of the variant: its glyphs, the glyphs broken, and the verdict that follows."""

    number: int
    glyphs: int
    broken: int
    expected: Verdict

    @property
    def share(self) -> float:
        return self.broken / self.glyphs if self.glyphs else 0.0


@dataclass(frozen=True)
class Variant:
    """A broken copy of a PDF and the truth about it."""

    breaker: str
    pdf: bytes
    #: poppler's text of each page of the original (pdftotext -enc UTF-8).
    truth: tuple[str, ...]
    #: PDFium's text of each page of the original.
    truth_pdfium: tuple[str, ...]
    pages: tuple[BrokenPage, ...]
    fonts: tuple[BrokenFont, ...]

    @property
    def applies(self) -> bool:
        """At least one glyph reads differently; otherwise the variant is the original's twin."""
        return any(f.changed for f in self.fonts)

    @property
    def broken_pages(self) -> tuple[BrokenPage, ...]:
        return tuple(p for p in self.pages if p.expected is not Verdict.READABLE)


# --------------------------------------------------------------------------- truth


def poppler_pages(data: bytes) -> tuple[str, ...]:
    """pdftotext's text of every page (one run, split at form feeds)."""
    import tempfile

    from ..pdf.readers import poppler_text

    with tempfile.TemporaryDirectory(prefix="textlayer-break-") as tmp:
        path = Path(tmp) / "in.pdf"
        path.write_bytes(data)
        parts = poppler_text(str(path), timeout=300).split("\f")
    return tuple(parts[:-1] if parts and parts[-1].strip() == "" else parts)


def pdfium_pages(data: bytes) -> tuple[str, ...]:
    """PDFium's text of every page."""
    from ..pdf.readers import pdfium_text_of

    return tuple(pdfium_text_of(data))


# --------------------------------------------------------------------------- maps


def _cmap_bytes(mapping: Mapping[int, str], width: int) -> bytes:
    """A ToUnicode CMap with one bfchar per code: the breaker writes any value, even bad ones."""
    lines = [
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /TextLayer-Broken def", "/CMapType 2 def",
        "1 begincodespacerange", f"<{0:0{2 * width}X}> <{(1 << 8 * width) - 1:0{2 * width}X}>",
        "endcodespacerange",
    ]
    items = sorted(mapping.items())
    for start in range(0, len(items), 100):
        block = items[start:start + 100]
        lines.append(f"{len(block)} beginbfchar")
        for code, text in block:
            dest = text.encode("utf-16-be", errors="surrogatepass").hex().upper()
            lines.append(f"<{code:0{2 * width}X}> <{dest}>")
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end", ""]
    return "\n".join(lines).encode("ascii")


def _move(text: str, offset: int) -> str | None:
    out = []
    for ch in text:
        code = ord(ch) + offset
        if not 0 < code <= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None
        out.append(chr(code))
    return "".join(out)


def _new_map(
    breaker: str, current: Mapping[int, str], drawn: Collection[int], *, offset: int, seed: int
) -> dict[int, str]:
    """The broken ToUnicode of one font from its current text per code.

    A scramble permutes the letters the font draws (a subset's alphabet, as
    in the wild), not every letter its encoding could name.
    """
    if breaker == "shift":
        moved = {c: _move(t, offset) for c, t in current.items()}
        return {c: t for c, t in moved.items() if t is not None}
    if breaker == "scramble":
        letters = [ch for c in drawn for ch in current.get(c, "") if ch.isalpha()]
        from .common import derangement

        perm = derangement(letters, seed)
        return {c: "".join(perm.get(ch, ch) for ch in t) for c, t in current.items()}
    if breaker == "pua":
        return {c: chr(0xE000 + i) for i, c in enumerate(sorted(current))}
    if breaker == "collapse":
        return dict.fromkeys(current, "\ufffd")
    raise AssertionError(breaker)  # pragma: no cover - callers pass a mapped breaker


# --------------------------------------------------------------------------- breaking


#: CID orderings with Adobe's UCS2 tables: without a ToUnicode their text still has a route.
COLLECTIONS = frozenset({"GB1", "CNS1", "Japan1", "Korea1", "KR"})


def _is_identity(font: Any) -> bool:
    """A Type0 font with an Identity encoding whose CIDs are not those of a CJK collection.

    Severing a ToUnicode loses the text only then: CIDs of Adobe-Japan1 (and
    the other collections) reach Unicode through the collection's UCS2 table,
    and poppler reads them back exactly.
    """
    import pikepdf

    enc = font.get("/Encoding")
    if not (font.get("/Subtype") == pikepdf.Name.Type0 and isinstance(enc, pikepdf.Name)
            and str(enc) in ("/Identity-H", "/Identity-V")):
        return False
    desc = font.get("/DescendantFonts")
    cid = desc[0] if desc is not None and len(desc) else None
    info = cid.get("/CIDSystemInfo") if isinstance(cid, pikepdf.Dictionary) else None
    ordering = info.get("/Ordering") if isinstance(info, pikepdf.Dictionary) else None
    return str(ordering) not in COLLECTIONS if ordering is not None else True


def _is_simple_severable(usage: Any) -> bool:
    """A simple TrueType font whose /ToUnicode is its only route to text.

    Symbolic (flag bit 3), no /Encoding (neither a base encoding nor
    Differences names the codes), an embedded program with no Unicode cmap
    that says what the glyphs are and no glyph names (:func:`program_route`),
    and without the /ToUnicode no code it draws has a route (ReportLab's
    subsets keep ASCII codes, which read as themselves: not severed).
    Removing its /ToUnicode severs it without changing what is drawn.
    """
    import pikepdf

    from ..pdf.fonts import analyse_font

    font = usage.font
    if font.get("/Subtype") != pikepdf.Name.TrueType or "/Encoding" in font:
        return False
    fd = font.get("/FontDescriptor")
    if not isinstance(fd, pikepdf.Dictionary) or not isinstance(fd.get("/FontFile2"),
                                                                pikepdf.Stream):
        return False
    try:
        flags = int(fd.get("/Flags", 0))
    except (TypeError, ValueError):
        return False
    if not flags & 4 or program_route(font) is not None:
        return False
    bare = pikepdf.Dictionary({k: v for k, v in font.items() if k != "/ToUnicode"})
    info = analyse_font(bare)
    return all(info.is_bad_code(code) for code in usage.codes())


def _current_map(usage: Any) -> dict[int, str]:
    """The text each code reads as today, by the font's own route.

    Every code the route maps, not only those drawn on the pages: a font
    shared with form fields or annotations draws codes there too, and a
    broken ToUnicode must break those the same way instead of leaving them
    with no entry.
    """
    from ..pdf.fonts import analyse_font

    info = analyse_font(usage.font)
    if info.status.is_bad:
        return {}
    out: dict[int, str] = {c: t for c, t in info.unicode.items() if t}
    for code in usage.codes():
        text = info.to_unicode(code)
        if text:
            out[code] = text
    if "/ToUnicode" not in usage.font:
        for code, letters in _named_ligatures(usage.font, info).items():
            if code in out:
                out[code] = letters
    return out


def _named_ligatures(font: Any, info: Any) -> dict[int, str]:
    """Codes of a simple font without ToUnicode that readers show as letters, with the letters.

    The truth is poppler's text, and poppler (PDFium too) reads the glyph
    names ``ff fi fl ffi ffl`` as their letters where the AGL and so the
    font's own route give U+FB00-U+FB04; a name ``uniFB01`` stays the
    ligature. A broken map built from U+FB01 would stand for an original
    whose text was not the truth's, so the breaker starts from the letters.
    A base encoding's ``uniFB01`` (outside the Differences) counts as its
    ligature's name: readers go by the encoding's own name there.
    """
    import pikepdf

    from ..pdf.encodings import LIGATURE_LETTER_NAMES

    enc = font.get("/Encoding")
    differences: set[int] = set()
    if isinstance(enc, pikepdf.Dictionary):
        code = 0
        for item in enc.get("/Differences", ()):
            if isinstance(item, pikepdf.Name):
                differences.add(code)
                code += 1
            else:
                try:
                    code = int(item)
                except (TypeError, ValueError):
                    break
    standard = isinstance(enc, pikepdf.Name) or (
        isinstance(enc, pikepdf.Dictionary) and isinstance(enc.get("/BaseEncoding"), pikepdf.Name))
    out: dict[int, str] = {}
    for code, name in info.glyph_names.items():
        if standard and code not in differences and name.startswith("uniFB") and len(name) == 7:
            name = unicodedata.normalize("NFKC", chr(int(name[3:], 16)))
        if name in LIGATURE_LETTER_NAMES:
            out[code] = name
    return out


def _select(usages: list[Any], select: str) -> list[Any]:
    if select == "all" or not usages:
        return usages
    ranked = sorted(usages, key=lambda u: (u.glyphs, u.name, u.key))
    return [ranked[-1] if select == "main" else ranked[0]]


def _codes_outside_actual_text(
    pdf: Any, keys: Collection[tuple[int, int]]
) -> dict[int, dict[tuple[int, int], Mapping[int, int]]]:
    """Per page, per font to break: the codes drawn outside marked content with /ActualText.

    Readers take the text of such spans from /ActualText (Chromium tags its shaped Arabic
    and fallback-font runs so), so a broken map does not change what they extract there.
    Pages without any /ActualText are left out (every glyph drawn counts).
    """
    from ..pdf.content import scan_page

    out: dict[int, dict[tuple[int, int], Mapping[int, int]]] = {}
    cache: dict[Any, Any] = {}
    for index in range(len(pdf.pages)):
        try:
            content = scan_page(pdf, index, cache)
        except Exception:  # noqa: BLE001 - a page the walk cannot read: count every glyph
            continue
        if not content.actual_text_glyphs:
            continue
        out[index] = {use.font_key: use.codes for use in content.fonts
                      if use.font_key in keys}
    return out


def break_pdf(
    data: bytes, breaker: str, *, select: str = "all", offset: int = DEFAULT_OFFSET,
    seed: int = 1, name: str = "<bytes>", truth: Sequence[str] | None = None,
    truth_pdfium: Sequence[str] | None = None,
) -> Variant:
    """A broken copy of ``data`` by ``breaker``, with the truth and the expected verdict per page.

    ``truth``/``truth_pdfium`` may be passed when the caller already extracted
    the original (several breakers of one file). A variant whose ``applies``
    is False broke nothing (no font of the document fits the breaker).
    """
    import pikepdf

    from ..repairs.fontusage import collect_fonts

    spec = BREAKERS.get(breaker)
    if spec is None:
        raise UsageError(f"unknown breaker {breaker!r} (choose from {', '.join(BREAKERS)})")
    if select not in SELECTIONS:
        raise UsageError(f"select must be one of {', '.join(SELECTIONS)}, not {select!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset == 0:
        raise UsageError(f"offset must be a non-zero whole number, not {offset!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"seed must be a whole number, not {seed!r}")
    if not isinstance(data, bytes | bytearray):
        raise UsageError(f"break_pdf takes the PDF's bytes, not {type(data).__name__}")
    data = bytes(data)
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        raise InputError(name, "encrypted PDF") from None
    except pikepdf.PdfError as exc:
        raise InputError(name, f"not a readable PDF ({str(exc).splitlines()[0]})") from None
    with pdf:
        usages = [u for u in collect_fonts(pdf).values() if u.glyphs]
        candidates: list[tuple[Any, dict[int, str]]] = []
        for usage in usages:
            if spec.needs == "identity":
                if _is_identity(usage.font) or (
                        breaker == "sever" and _is_simple_severable(usage)):
                    candidates.append((usage, _current_map(usage)))
            else:
                current = _current_map(usage)
                if current:
                    candidates.append((usage, current))
        chosen = {id(u) for u in _select([u for u, _ in candidates], select)}
        outside = _codes_outside_actual_text(pdf, {u.key for u, _ in candidates
                                                   if id(u) in chosen})
        fonts: list[BrokenFont] = []
        changed_by_page: dict[int, int] = {}
        done: set[tuple[int, int]] = set()
        for usage, current in candidates:
            if id(usage) not in chosen:
                continue
            if spec.needs == "identity":
                new: dict[int, str] = {}
                if breaker == "sever":
                    if "/ToUnicode" in usage.font:
                        del usage.font["/ToUnicode"]
                    sever_program(usage.font, done)
                else:
                    usage.font[pikepdf.Name.ToUnicode] = pikepdf.Name("/Identity-H")
            else:
                new = _new_map(breaker, current, usage.codes(), offset=offset, seed=seed)
                stream = pikepdf.Stream(pdf, _cmap_bytes(new, usage.width))
                usage.font[pikepdf.Name.ToUnicode] = pdf.make_indirect(stream)
            changed = {c for c in usage.codes() if new.get(c) != current.get(c)
                       or spec.needs == "identity"}
            count = 0
            for page, runs in usage.pages.items():
                n = sum(1 for run in runs for c in run if c in changed)
                coded = outside.get(page, {}).get(usage.key)
                if coded is not None:  # glyphs under /ActualText read right whatever the map
                    n = min(n, sum(k for c, k in coded.items() if c in changed))
                changed_by_page[page] = changed_by_page.get(page, 0) + n
                count += n
            fonts.append(BrokenFont(usage.name, usage.subtype, usage.glyphs, count,
                                    program_route(usage.font)))
        glyphs_by_page: dict[int, int] = {}
        for usage in usages:
            for page, runs in usage.pages.items():
                glyphs_by_page[page] = glyphs_by_page.get(page, 0) + sum(len(r) for r in runs)
        pages = tuple(
            BrokenPage(
                i + 1, glyphs_by_page.get(i, 0), changed_by_page.get(i, 0),
                spec.verdict if glyphs_by_page.get(i) and
                changed_by_page.get(i, 0) / glyphs_by_page[i] > BAD_SHARE else Verdict.READABLE,
            )
            for i in range(len(pdf.pages))
        )
        out = io.BytesIO()
        with warnings.catch_warnings():  # pikepdf warns about widgets outside /AcroForm: as found
            warnings.simplefilter("ignore")
            pdf.save(out, deterministic_id=True, compress_streams=True,
                     object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return Variant(
        breaker, out.getvalue(),
        tuple(truth) if truth is not None else poppler_pages(data),
        tuple(truth_pdfium) if truth_pdfium is not None else pdfium_pages(data),
        pages, tuple(fonts),
    )


def break_file(
    source: str | os.PathLike[str], target: str | os.PathLike[str], breaker: str,
    **options: Any,
) -> Variant:
    """Break the PDF at ``source`` into ``target`` (never ``source`` itself); return the variant."""
    src, dst = Path(source), Path(target)
    if dst.exists() and dst.resolve() == src.resolve():
        raise UsageError(f"{dst}: the output would overwrite the input")
    try:
        data = src.read_bytes()
    except OSError as exc:
        raise InputError(str(src), exc.strerror or "cannot be read") from None
    variant = break_pdf(data, breaker, name=str(src), **options)
    dst.write_bytes(variant.pdf)
    return variant


def breakers_for(data: bytes) -> list[str]:
    """The breakers that change at least one glyph of ``data`` (cheap: no truth extracted)."""
    out = []
    for name in BREAKERS:
        variant = break_pdf(data, name, truth=(), truth_pdfium=())
        if variant.applies:
            out.append(name)
    return out

