"""The fonts a document draws text with, and the glyphs of their programs that codes select.

Every source of a map (:mod:`.recover`) and the check for blank glyphs
(:mod:`.blankglyphs`) start from the same facts: which codes each font
draws, page by page and in content order (a :class:`FontUsage`), and, for a
font that embeds a TrueType program, which glyph of it each code selects
(through the descendant font and its /CIDToGIDMap). They live here, below
the sources and the checks, so that each reads them without importing
another.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain
from typing import Any

from ..pdf.fontprogram import cid_to_gid_map
from ..pdf.pagetext import TJ_SPACE


@dataclass
class FontUsage:
    """One font object of the document and every code it draws, in drawing order."""

    key: tuple[int, int]
    font: Any
    name: str
    subtype: str
    width: int
    #: page index -> runs of codes, one run per text-showing operator, in content order.
    pages: dict[int, list[list[int]]] = field(default_factory=dict)
    #: The pikepdf document the font belongs to, kept alive as long as the font is used.
    owner: Any = field(default=None, repr=False, compare=False)
    #: page index -> for each run of :attr:`pages`, its place among every font's runs on the
    #: page (content order): a fallback font's letters sit between the main font's runs.
    places: dict[int, list[int]] = field(default_factory=dict, repr=False, compare=False)

    def codes(self) -> Counter[int]:
        # One count over every run: a browser draws each glyph as a run of its own, and a
        # count per run cost a severed page 10 ms, asked for by every step of the repair.
        return Counter(chain.from_iterable(chain.from_iterable(self.pages.values())))

    @property
    def glyphs(self) -> int:
        return sum(len(run) for runs in self.pages.values() for run in runs)

    def text(self, mapping: Mapping[int, str], *, missing: str = "") -> str:
        """The font's drawn text under ``mapping``, one line per run."""
        return "\n".join(
            "".join(mapping.get(c, missing) for c in run)
            for _, runs in sorted(self.pages.items())
            for run in runs
        )


def font_key(font: Any) -> tuple[int, int]:
    """Identity of a font dictionary: its object number, or the Python id for a direct one."""
    objgen = tuple(font.objgen)
    return (objgen[0], objgen[1]) if objgen != (0, 0) else (-id(font), 0)


def font_name(font: Any) -> str:
    base = font.get("/BaseFont")
    if base is None:
        return "(unnamed)"
    try:
        return str(base)[1:]
    except UnicodeDecodeError:  # a damaged name: its bytes as Latin-1
        return bytes(base.unparse()).decode("latin-1")[1:]


def _width(font: Any) -> int | None:
    """Bytes per code, or None for composite fonts whose CMap this module does not read."""
    import pikepdf

    if font.get("/Subtype") != pikepdf.Name.Type0:
        return 1
    enc = font.get("/Encoding")
    if isinstance(enc, pikepdf.Name) and str(enc) in ("/Identity-H", "/Identity-V"):
        return 2
    return None


def _split(data: bytes, width: int) -> list[int]:
    if width == 1:
        return list(data)
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data) - 1, 2)]


#: A TJ displacement (thousandths of text space) wider than this reads as a word break: the
#: classifier's own threshold, since a Times word space is itself only 250.
TJ_WORD_GAP = TJ_SPACE


def _shown_parts(operands: list[Any], op: str) -> Iterator[bytes]:
    """The strings one text operator shows, cut where a TJ gap reads as a space."""
    import pikepdf

    # A damaged stream may give any operand (null, a name, too few): it shows nothing then.
    where = {"Tj": 0, "'": 0, '"': 2}.get(op)
    if where is not None:
        if len(operands) > where and isinstance(operands[where], pikepdf.String):
            yield bytes(operands[where])
    elif op == "TJ" and operands and isinstance(operands[0], pikepdf.Array):
        part = b""
        for item in operands[0]:
            if isinstance(item, pikepdf.String):
                part += bytes(item)
            elif isinstance(item, (int, float, Decimal)) and float(item) < -TJ_WORD_GAP and part:
                yield part
                part = b""
        if part:
            yield part


def _resource_name(obj: Any) -> str | None:
    """The resource a name operand names (None: not a name, or one no dictionary key spells)."""
    import pikepdf

    if not isinstance(obj, pikepdf.Name):
        return None
    try:
        return str(obj)
    except UnicodeDecodeError:
        return None


def _walk(
    pdf: Any,
    stream: Any,
    resources: Any,
    page_index: int,
    usages: dict[tuple[int, int], FontUsage],
    depth: int = 0,
    counter: list[int] | None = None,
) -> None:
    """Record codes drawn in ``stream`` (page or Form XObject), following nested forms."""
    import pikepdf

    if depth > 12:
        return
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Unexpected end of stream": what is there counts
            instructions = pikepdf.parse_content_stream(stream)
    except (pikepdf.PdfError, TypeError, ValueError):  # damaged: objects no stream may hold
        return
    fonts = resources.get("/Font", {}) if resources is not None else {}
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    counter = [0] if counter is None else counter
    current: FontUsage | None = None
    stack: list[FontUsage | None] = []
    for instr in instructions:
        if isinstance(instr, pikepdf.ContentStreamInlineImage):
            continue
        op = bytes(instr.operator.unparse()).decode("latin-1")  # damaged: not UTF-8
        operands = list(instr.operands)
        if op == "q":
            stack.append(current)
        elif op == "Q":
            current = stack.pop() if stack else current
        elif op == "Tf" and operands:
            name = _resource_name(operands[0])
            font = fonts.get(name) if name and hasattr(fonts, "get") else None
            current = None
            if isinstance(font, pikepdf.Dictionary):
                width = _width(font)
                if width is not None:
                    key = font_key(font)
                    current = usages.get(key)
                    if current is None:
                        subtype = str(font.get("/Subtype", "/?"))[1:]
                        current = FontUsage(key, font, font_name(font), subtype, width, owner=pdf)
                        usages[key] = current
        elif op in ("Tj", "TJ", "'", '"') and current is not None:
            runs = current.pages.setdefault(page_index, [])
            places = current.places.setdefault(page_index, [])
            for part in _shown_parts(operands, op):
                codes = _split(part, current.width)
                if codes:
                    runs.append(codes)
                    places.append(counter[0])
                    counter[0] += 1
        elif op == "Do" and operands and hasattr(xobjects, "get"):
            name = _resource_name(operands[0])
            xobj = xobjects.get(name) if name else None
            if isinstance(xobj, pikepdf.Stream) and xobj.get("/Subtype") == pikepdf.Name.Form:
                _walk(pdf, xobj, xobj.get("/Resources", resources), page_index, usages,
                      depth + 1, counter)


def fonts_beyond_pages(pdf: Any) -> set[tuple[int, int]]:
    """Fonts named by what :func:`collect_fonts` does not walk: annotation appearances (every
    state, their forms included), Type3 glyph procedures and patterns.

    Codes such a font draws there are not in its usage, so a map shared with
    another font might give them that font's text (see ``tounicode_writer``).
    """
    from ..pdf.fontreach import FontReach

    reach = FontReach(appearances=("/N", "/R", "/D"))
    found: set[tuple[int, int]] = set()
    for page in pdf.pages:
        try:
            found |= reach.page(page.obj)[1]
        except Exception:  # noqa: BLE001 - a damaged page: the fonts it names stay as they are
            continue
    return found


def collect_fonts(pdf: Any, pages: Iterable[int] | None = None) -> dict[tuple[int, int], FontUsage]:
    """Every font drawing text on the given pages (0-based; all by default), with its codes."""
    usages: dict[tuple[int, int], FontUsage] = {}
    indices = range(len(pdf.pages)) if pages is None else pages
    for index in indices:
        page = pdf.pages[index]
        _walk(pdf, page.obj, page.obj.get("/Resources"), index, usages)
    return usages


# --------------------------------------------------------------------------- the program's glyphs


def descendant(font: Any) -> Any:
    desc = font.get("/DescendantFonts")
    if desc is None or len(desc) == 0:
        return None
    return desc[0]


def load_truetype(data: bytes) -> Any:
    from fontTools.ttLib import TTFont

    return TTFont(io.BytesIO(data), lazy=None, fontNumber=0, recalcBBoxes=False)


def cid_to_gid(cidfont: Any) -> Callable[[int], int | None]:
    """A function CID -> GID from /CIDToGIDMap (Identity when absent or a name; None past
    the end of a map stream, or for every CID of one that cannot be read)."""
    table = cid_to_gid_map(cidfont.get("/CIDToGIDMap"))
    if table is None:
        return lambda cid: cid
    return lambda cid: table[cid] if 0 <= cid < len(table) else None


def gid_codes(usage: FontUsage) -> dict[int, int]:
    """code -> glyph id, when codes are glyph ids (Identity composite fonts, or simple fonts)."""
    import pikepdf

    codes = usage.codes()
    if usage.font.get("/Subtype") == pikepdf.Name.Type0:
        cidfont = descendant(usage.font)
        if cidfont is None:
            return {}
        to_gid = cid_to_gid(cidfont)
        return {c: g for c in codes if (g := to_gid(c)) is not None}
    return {c: c for c in codes}


def program_glyphs(usage: FontUsage) -> tuple[Any, Any] | None:
    """(glyf table, glyph order) of a composite font's embedded TrueType, when it has outlines."""
    import pikepdf

    if usage.font.get("/Subtype") != pikepdf.Name.Type0:
        return None
    cidfont = descendant(usage.font)
    desc = cidfont.get("/FontDescriptor") if cidfont is not None else None
    if desc is None or "/FontFile2" not in desc:
        return None
    try:
        tt = load_truetype(desc["/FontFile2"].read_bytes())
        return (tt["glyf"], tt.getGlyphOrder()) if "glyf" in tt else None
    except Exception:  # noqa: BLE001 - no outlines to check against
        return None
