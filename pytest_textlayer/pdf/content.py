"""Walk a page's content and count what it draws: glyphs per font and code, raster images.

The classifier's first rungs need facts, not text: how many glyphs each font
draws (so a page is judged by the glyphs it shows, not by the fonts its
resources list), which of them have no route to Unicode, how many are
invisible (an OCR layer), and how much of the page raster images cover (a
scan). Glyphs are drawn by the page's content, by Form XObjects, by
annotations' appearance streams (a FreeText annotation may be a page's only
text); Type3 glyph procedures draw shapes and images, not text.
Marked content with /ActualText supplies the text of the glyphs it covers,
so those glyphs count as good whatever their font says.

This module is the walk itself, kept whole: the operators' interpreter and
what it follows (forms, glyph procedures, appearances). The records it
fills are :mod:`.pagecontent`'s, the matrix arithmetic :mod:`.geometry`'s,
the image counts and coverage grid :mod:`.imagecover`'s, what optional
content hides :mod:`.optionalcontent`'s. It stays whole, at about 670 lines,
because the interpreter's loop is the hot path of every check: split across
modules it would pay attribute lookups per operator. Where the extensions
are built, the common operators are interpreted in C (``_walkloop.c``) and
the shown strings counted there (``_textshow.c``); the Python loop below is
their definition and interprets what they hand back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model import printable
from .fontinfo import FontInfo
from .fonts import analyse_font
from .geometry import IDENTITY, Matrix, bounding_box, matrix, mul, page_box, translate
from .imagecover import GRID, ImageCoverage
from .optionalcontent import OptionalContent, off_groups
from .pagecontent import FontUse, PageContent
from .pagetext import (
    TEXT_BUDGET,
    TextFont,
    TextSink,
    _textshow,
    remember_width,
    show_text,
    text_font,
)
from .source import one_line

if TYPE_CHECKING:
    import pikepdf

#: Nesting depth of Form XObjects and Type3 glyph procedures followed before giving up.
MAX_DEPTH = 12
#: Text starting this far (points) outside the page box counts as off the page.
OFFPAGE_MARGIN = 2.0
#: Where the walk keeps, in the document's font cache, the instructions of shared streams...
SHARED_STREAMS = "shared content streams"
#: ... how many it keeps (the sum of their instructions, counted under this key) ...
SHARED_COUNT = "instructions"
#: ... and at most how many: memory stays flat however long the document.
SHARED_LIMIT = 50_000
#: The operators the walk needs; everything else is skipped by the parser.
OPERATORS = (
    "q Q cm BT ET Tf Tr Tm Td TD T* TL Tz Ts Tj TJ ' \" Do BI ID EI BDC BMC EMC "
    "S s f F f* B B* b b* sh"
)
_PAINT = frozenset({b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"sh"})
_INVISIBLE_MODES = frozenset({3, 7})
_UNSEEN = object()
_SEEN = object()  # a shared stream drawn once so far

@dataclass
class _State:
    ctm: Matrix = IDENTITY
    font: FontInfo | None = None
    font_key: Any = None
    text_font: TextFont | None = None
    size: float = 0.0
    render: int = 0
    scale: float = 1.0
    rise: float = 0.0
    leading: float = 0.0

    def copy(self) -> _State:
        return _State(
            self.ctm,
            self.font,
            self.font_key,
            self.text_font,
            self.size,
            self.render,
            self.scale,
            self.rise,
            self.leading,
        )


class _Walker(ImageCoverage, OptionalContent):
    def __init__(
        self, pdf: pikepdf.Pdf, cache: dict[Any, FontInfo], box: tuple[float, ...],
        text_budget: int = TEXT_BUDGET,
    ) -> None:
        self.pdf = pdf
        self.cache = cache
        self.box = box
        m = OFFPAGE_MARGIN
        #: The page box widened by the margin: a string starting outside it is off the page.
        self.margin_box = (box[0] - m, box[1] - m, box[2] + m, box[3] + m)
        self.uses: dict[Any, FontUse] = {}
        self.images = 0
        self.small_images = 0
        self.paths = 0
        self.text_operators = 0
        self.qpdf_parsed = 0
        self.annotation_glyphs = 0
        self.in_annotation = False
        self.grid = bytearray(GRID * GRID)
        self.errors: list[str] = []
        self.active: set[Any] = set()
        #: Optional-content groups that are off in the default configuration (objgens).
        self.off_groups: set[Any] = off_groups(pdf)
        #: Depth of hidden optional content around the current operator.
        self.hidden = 0
        self.type3_done: set[tuple[Any, int]] = set()
        self.text = TextSink(text_budget)
        #: Instructions of the document's forms and glyph procedures, by objgen (see walk).
        shared: Any = cache.setdefault(SHARED_STREAMS, {})  # type: ignore[arg-type]
        self.shared: dict[Any, Any] = shared

    # -- resources ----------------------------------------------------------------------------
    def font(self, resources: Any, name: Any) -> tuple[Any, FontInfo, TextFont] | None:
        import pikepdf

        try:
            fonts = resources.get("/Font") if resources is not None else None
            obj = fonts.get(name) if isinstance(fonts, pikepdf.Dictionary) else None
        except Exception:
            obj = None
        if not isinstance(obj, pikepdf.Dictionary):
            return None
        key = obj.objgen if obj.is_indirect else ("direct", id(resources), str(name))
        info = font_info(self.cache, key, obj)
        return key, info, text_font(info)

    # -- the walk -----------------------------------------------------------------------------
    def walk(
        self,
        source: Any,
        resources: Any,
        state: _State,
        depth: int,
        *,
        type3: bool = False,
        what: str = "content",
    ) -> None:
        """Interpret one content stream (page, form, glyph procedure or appearance)."""
        import pikepdf

        if depth > MAX_DEPTH:
            self.errors.append(f"{what}: nested deeper than {MAX_DEPTH} levels, not followed")
            return
        shared = self.shared
        key = source.objgen if isinstance(source, pikepdf.Stream) else (0, 0)
        ops: Any = shared.get(key) if key != (0, 0) else None
        if ops is None or ops is _SEEN:
            again = ops is _SEEN
            ops = self.instructions(source, what)
            if ops is None:
                return
            if key != (0, 0):
                # A form or glyph procedure is kept when a second page draws it, and then
                # read from here by every other page: a stream drawn once costs no memory.
                count = shared.get(SHARED_COUNT, 0)
                if not again:
                    shared[key] = _SEEN
                elif count + len(ops) <= SHARED_LIMIT:
                    shared[key] = ops
                    shared[SHARED_COUNT] = count + len(ops)
        stack: list[_State] = []
        # Per open marked-content sequence: (its ActualText span, hides an optional-content layer).
        # A span holds its text until the first glyph inside shows it (see show).
        marked: list[tuple[list[str] | None, bool]] = []
        spans: list[list[str]] = []
        hidden_at_start = self.hidden
        tm: Matrix = IDENTITY
        tlm: Matrix = IDENTITY
        fonts: dict[str, Any] = {}  # Tf operand -> what self.font gave, for this stream
        fast = compiled_loop()
        skipped = skipped_errors()
        i, count = 0, len(ops)
        while i < count:
            if fast is not None:  # the compiled loop, up to an operator it leaves to this one
                i, tm, tlm, state = fast(self, ops, i, state, resources, tm, tlm, depth, type3,
                                         fonts, stack, marked, spans)
                if i >= count:
                    break
            op, args = ops[i]
            i += 1
            try:
                # Most frequent first (Tj, Td, Tf, TJ make up nine in ten of a typeset page).
                if op == b"Tj":
                    if args:
                        shown = args if len(args) == 1 else (args[-1],)
                        tm = _show(self, shown, state, resources, tm, depth, type3,
                                   spans[0] if spans else None)
                elif op == b"Td":
                    tm = tlm = translate(tlm, float(args[0]), float(args[1]))
                elif op == b"Tf":
                    name = args[0] if args else None
                    if type(name) is str:  # the same font is selected again and again
                        found = fonts.get(name, _UNSEEN)
                        if found is _UNSEEN:
                            found = fonts[name] = self.font(resources, name)
                    else:
                        found = self.font(resources, name) if args else None
                    state.font_key, state.font, state.text_font = found or (None, None, None)
                    if found is None and args:
                        self.errors.append(f"{what}: font {args[0]} is not in the resources")
                    state.size = float(args[1]) if len(args) > 1 else state.size
                elif op == b"TJ":
                    if args:
                        tm = _show(self, args[0], state, resources, tm, depth, type3,
                                   spans[0] if spans else None)
                elif op == b"Tm":
                    if len(args) == 6:
                        a, b, c, d, e, f = map(float, args)
                        tm = tlm = (a, b, c, d, e, f)
                elif op == b"T*":
                    tm = tlm = translate(tlm, 0.0, -state.leading)
                elif op == b"TL":
                    state.leading = float(args[0])
                elif op == b"BT":
                    tm = tlm = IDENTITY
                elif op == b"ET":
                    pass
                elif op == b"TD":
                    tx, ty = float(args[0]), float(args[1])
                    state.leading = -ty
                    tm = tlm = translate(tlm, tx, ty)
                elif op in (b"'", b'"'):
                    tm = tlm = translate(tlm, 0.0, -state.leading)
                    if args:
                        tm = _show(self, (args[-1],), state, resources, tm, depth, type3,
                                   spans[0] if spans else None)
                elif op == b"Tr":
                    state.render = int(args[0])
                elif op == b"q":
                    stack.append(state.copy())
                elif op == b"Q":
                    if stack:
                        state = stack.pop()
                elif op == b"cm":
                    m = matrix(args)
                    if m is not None:
                        state.ctm = mul(m, state.ctm)
                elif op == b"Tz":
                    state.scale = float(args[0]) / 100.0
                elif op == b"Ts":
                    state.rise = float(args[0])
                elif op == b"Do":
                    if args:
                        self.do(args[0], resources, state, depth, type3, what)
                elif op == b"BDC":
                    found = _actual_text(args, resources)
                    span = None if found is None else [found]
                    off = self.is_hidden_oc(args, resources)
                    marked.append((span, off))
                    if span is not None:
                        spans.append(span)
                    self.hidden += off
                elif op == b"BMC":
                    marked.append((None, False))
                elif op == b"EMC":
                    if marked:
                        span, off = marked.pop()
                        if span is not None and spans:
                            spans.pop()
                        self.hidden -= off
                elif op == b"BI":  # its (width, height); None where pikepdf cannot read one
                    try:
                        self.image(int(args[0]), int(args[1]), state.ctm)
                    except Exception:
                        self.small_images += 1
                elif op in _PAINT:
                    self.paths += 1
            except skipped:
                continue  # a malformed operand skips its operator, as viewers do
        self.hidden = hidden_at_start  # unbalanced BDC/EMC must not leak out of the stream

    def instructions(self, source: Any, what: str) -> list[Any] | None:
        """The walked instructions of `source`, or None (the error recorded) when unreadable."""
        import pikepdf

        from .contentstream import from_pikepdf, instructions

        ops = instructions(source)
        if ops is not None:
            return ops
        import warnings

        self.qpdf_parsed += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "Unexpected end of stream": what is there
                ops = from_pikepdf(pikepdf.parse_content_stream(source, OPERATORS))
        except Exception as exc:
            problem = one_line(exc, self.pdf.filename, 160)
            self.errors.append(f"{what}: content stream is malformed ({problem})")
            return None
        return ops

    def show(
        self,
        items: Any,
        state: _State,
        resources: Any,
        tm: Matrix,
        depth: int,
        type3: bool,
        actual: list[str] | None,
    ) -> Matrix:
        """One text-showing operator. Inside an ActualText span (``actual``), the span's text
        stands for every glyph in it, as in every reader: the first string shows it, the rest
        nothing. Returns the text matrix moved past the string (see TextSink.show).

        The walk calls it through :data:`_show`: ``_textshow.walk_show`` does the same in C
        when the extension is built, and calls this method for what it does not know."""
        self.text_operators += 1
        info = state.font
        if info is None or type3:
            return tm  # no font selected (broken file) or inside a glyph procedure: not text
        if len(items) == 1 and type(items[0]) is bytes:
            raw = items[0]
        else:
            raw = b"".join([item for item in items if isinstance(item, bytes)])
        # One-byte fonts (most simple fonts): the bytes are the codes; two-byte fonts
        # (Identity-H and most CID fonts): the bytes, a partial last code left out, are split
        # when the page's codes are first counted (FontUse.codes); skip building a list.
        width = info.code_width
        codes: Sequence[int]
        if width == 1:
            codes = raw
            n = len(raw)
        elif width == 2:
            codes = raw[:-1] if len(raw) & 1 else raw
            n = len(codes) >> 1
        else:
            codes = info.split_codes(raw)
            n = len(codes)
        if not n:
            return tm
        use = self.uses.get(state.font_key)
        if use is None:
            use = self.uses[state.font_key] = FontUse(info, font_key=state.font_key)
        a2, b2, c2, d2, e2, f2 = state.ctm
        e, f = tm[4], tm[5]
        rise = state.rise
        if self.in_annotation:
            self.annotation_glyphs += n
        else:  # does the string start on the page (advances are not tracked)?
            y0 = f + rise
            x = a2 * e + c2 * y0 + e2
            y = b2 * e + d2 * y0 + f2
            left, bottom, right, top = self.margin_box
            if not (left <= x <= right and bottom <= y <= top):
                use.offpage_glyphs += n
        use.glyphs += n
        if state.render in _INVISIBLE_MODES or self.hidden:
            use.invisible_glyphs += n
        if actual is not None:
            use.actual_text_glyphs += n
        else:
            use.coded += n
            use.drawn.append(codes)
        text = self.text
        decoding = state.text_font or text_font(info)
        moved = tm
        if text.size < text.budget:
            c, d = tm[2], tm[3]
            mc, md = c * a2 + d * c2, c * b2 + d * d2
            origin = (e * a2 + f * c2 + e2 + rise * mc, e * b2 + f * d2 + f2 + rise * md)
            em = state.size * (mc * mc + md * md) ** 0.5
            if actual is None:
                advance = show_text(text, decoding, items, origin, em, state.scale, id(use))
            else:
                advance = show_text(text, decoding, items, origin, em, state.scale, None,
                                    actual.pop() if actual else "")
            if advance:
                moved = translate(tm, advance * state.size, 0.0)
        elif not decoding.complete:
            text.complete = False  # past the budget too: whether a reader is needed is exact
        if info.subtype == "Type3" and depth < MAX_DEPTH:
            self.type3(state, resources, codes, tm, depth)
        return moved

    def type3(
        self, state: _State, resources: Any, codes: Sequence[int], tm: Matrix, depth: int
    ) -> None:
        """Walk the glyph procedures drawn (once per font and code): they may paint images."""
        import pikepdf

        key = state.font_key
        fresh = [c for c in set(codes) if (key, c) not in self.type3_done]
        if not fresh:
            return
        try:
            font = (
                self.pdf.get_object(key) if isinstance(key, tuple) and key[0] != "direct" else None
            )
        except Exception:
            font = None
        if not isinstance(font, pikepdf.Dictionary):
            return
        procs = font.get("/CharProcs")
        if not isinstance(procs, pikepdf.Dictionary):
            return
        font_matrix = matrix(font.get("/FontMatrix", [0.001, 0, 0, 0.001, 0, 0])) or IDENTITY
        own = font.get("/Resources", resources)
        text_space = mul(
            mul(font_matrix, (state.size * state.scale, 0, 0, state.size, 0, state.rise)),
            mul(tm, state.ctm),
        )
        for code in fresh:
            self.type3_done.add((key, code))
            name = _type3_name(font, code)
            if name is None:
                continue
            proc = procs.get(name)
            if isinstance(proc, pikepdf.Stream):
                sub = _State(ctm=text_space)
                self.walk(proc, own, sub, depth + 1, type3=True, what=f"Type3 glyph {name}")

    def do(
        self, name: Any, resources: Any, state: _State, depth: int, type3: bool, what: str
    ) -> None:
        import pikepdf

        xobjects = resources.get("/XObject") if resources is not None else None
        obj = xobjects.get(name) if isinstance(xobjects, pikepdf.Dictionary) else None
        if not isinstance(obj, pikepdf.Stream):
            return
        if self.ocg_off(obj.get("/OC")):
            self.hidden += 1
            try:
                self.draw_xobject(obj, name, resources, state, depth, type3, what)
            finally:
                self.hidden -= 1
        else:
            self.draw_xobject(obj, name, resources, state, depth, type3, what)

    def draw_xobject(
        self, obj: Any, name: Any, resources: Any, state: _State, depth: int, type3: bool, what: str
    ) -> None:
        import pikepdf

        sub = obj.get("/Subtype")
        if sub == pikepdf.Name.Image:
            self.image(int(obj.get("/Width", 0)), int(obj.get("/Height", 0)), state.ctm)
        elif sub == pikepdf.Name.Form:
            key = obj.objgen
            if key in self.active:
                self.errors.append(f"{what}: form {name} draws itself, not followed")
                return
            self.active.add(key)
            inner = state.copy()
            m = matrix(obj.get("/Matrix", IDENTITY))
            if m is not None:
                inner.ctm = mul(m, inner.ctm)
            try:
                self.walk(
                    obj,
                    obj.get("/Resources", resources),
                    inner,
                    depth + 1,
                    type3=type3,
                    what=f"form {name}",
                )
            finally:
                self.active.discard(key)

    def annotations(self, page: Any, depth: int) -> None:
        """Walk the normal appearance of each visible annotation, placed on its Rect."""
        import pikepdf

        annots = page.get("/Annots")
        if not isinstance(annots, pikepdf.Array):
            return
        for annot in annots:
            if not isinstance(annot, pikepdf.Dictionary):
                continue
            try:
                flags = int(annot.get("/F", 0))
            except (TypeError, ValueError):
                flags = 0
            if flags & 2 or flags & 32 or annot.get("/Subtype") == pikepdf.Name.Popup:
                continue  # hidden or no-view annotations draw nothing
            ap = annot.get("/AP")
            normal = ap.get("/N") if isinstance(ap, pikepdf.Dictionary) else None
            if isinstance(normal, pikepdf.Dictionary) and not isinstance(normal, pikepdf.Stream):
                state_name = annot.get("/AS")
                normal = normal.get(str(state_name)) if state_name is not None else None
            if not isinstance(normal, pikepdf.Stream):
                continue
            rect = matrix(list(annot.get("/Rect", [])) + [0, 0])
            bbox = matrix(list(normal.get("/BBox", [0, 0, 1, 1])) + [0, 0])
            form_m = matrix(normal.get("/Matrix", IDENTITY)) or IDENTITY
            ctm = IDENTITY
            if rect is not None and bbox is not None:
                x0, y0, x1, y1 = bounding_box(form_m, (bbox[0], bbox[1], bbox[2], bbox[3]))
                rx0, ry0 = min(rect[0], rect[2]), min(rect[1], rect[3])
                rx1, ry1 = max(rect[0], rect[2]), max(rect[1], rect[3])
                sx = (rx1 - rx0) / (x1 - x0) if x1 > x0 else 1.0
                sy = (ry1 - ry0) / (y1 - y0) if y1 > y0 else 1.0
                ctm = mul(form_m, (sx, 0, 0, sy, rx0 - x0 * sx, ry0 - y0 * sy))
            self.in_annotation = True
            try:
                self.walk(
                    normal,
                    normal.get("/Resources"),
                    _State(ctm=ctm),
                    depth + 1,
                    what="annotation appearance",
                )
            finally:
                self.in_annotation = False


if _textshow is not None:
    # What the extension cannot know of this module is handed to it, not copied into it.
    _textshow.walk_rules(FontUse, text_font, _INVISIBLE_MODES, MAX_DEPTH, _Walker.show)

#: :meth:`_Walker.show` as the walk calls it, ``_show(walker, items, state, ...)``: the
#: compiled one when the extension is built (a shown string's counts and placement cost more
#: in Python's attribute traffic than in their arithmetic), else the method itself.
_show: Callable[..., Matrix] = _Walker.show if _textshow is None else _textshow.walk_show

_walkloop: Any
try:  # the compiled operator loop (_walkloop.c); absent, the walk's own loop does it all
    from . import _walkloop
except ImportError:  # pragma: no cover - depends on the build
    _walkloop = None


@functools.cache
def skipped_errors() -> tuple[type[BaseException], ...]:
    """What a malformed operand raises: its operator is skipped (pikepdf's, once imported)."""
    import pikepdf

    return (TypeError, ValueError, IndexError, AttributeError, pikepdf.PdfError)


@functools.cache
def compiled_loop() -> Callable[..., tuple[int, Matrix, Matrix, _State]] | None:
    """``_walkloop.run``, told once what the loop cannot know of this module; None without
    the extension."""
    if _walkloop is None:
        return None
    _walkloop.rules(_show, skipped_errors(), IDENTITY)
    run: Callable[..., tuple[int, Matrix, Matrix, _State]] = _walkloop.run
    return run


def _type3_name(font: Any, code: int) -> Any:
    import pikepdf

    enc = font.get("/Encoding")
    diffs = enc.get("/Differences") if isinstance(enc, pikepdf.Dictionary) else None
    if not isinstance(diffs, pikepdf.Array):
        return None
    current = 0
    found = None
    for item in diffs:
        if isinstance(item, pikepdf.Name):
            if current == code:
                found = item
            current += 1
        else:
            try:
                current = int(item)
            except (TypeError, ValueError):
                continue
    return found


def _actual_text(args: Any, resources: Any) -> str | None:
    """The /ActualText of a BDC's properties (inline or named in /Properties), or None."""
    import pikepdf

    if len(args) < 2:
        return None
    props = args[1]
    if isinstance(props, str):
        table = resources.get("/Properties") if resources is not None else None
        props = table.get(props) if isinstance(table, pikepdf.Dictionary) else None
    if not isinstance(props, pikepdf.Dictionary) or "/ActualText" not in props:
        return None
    value = props.get("/ActualText")
    try:
        return printable(str(value)) if isinstance(value, pikepdf.String) else ""
    except Exception:  # noqa: BLE001 - undecodable text: the span still covers its glyphs
        return ""


def font_info(cache: dict[Any, FontInfo], key: Any, obj: Any) -> FontInfo:
    """The analysis of font `obj`, made once per key (its objgen) and kept in `cache`."""
    info = cache.get(key)
    if info is None:
        info = analyse_font(obj)
        cache[key] = info
        remember_width(info, obj)
    return info


def scan_page(pdf: pikepdf.Pdf, page_index: int, cache: dict[Any, FontInfo],
              text_budget: int = TEXT_BUDGET) -> PageContent:
    """Walk page ``page_index`` (0-based) and count what it draws.

    ``cache`` maps font objgen to :class:`FontInfo`; keep one per open Pdf so a
    font shared by many pages is analysed once. Malformed parts are skipped and
    listed in ``errors``; a page whose content cannot be read at all raises a
    one-line ``ValueError``. ``text_budget`` bounds the text collected (see
    :attr:`PageContent.text_cut`); the counts never depend on it.
    """
    import pikepdf

    try:
        helper = pdf.pages[page_index]  # once: each lookup walks qpdf's page list again
        page = helper.obj
    except (IndexError, pikepdf.PdfError) as exc:
        problem = one_line(exc, pdf.filename, 160)
        raise ValueError(f"page {page_index + 1}: cannot be read ({problem})") from None
    box = page_box(page)
    walker = _Walker(pdf, cache, box, text_budget)
    resources = page.get("/Resources")
    contents = page.get("/Contents")
    what = f"page {page_index + 1}"
    if isinstance(contents, (pikepdf.Array, pikepdf.Stream)):
        walker.walk(helper, resources, _State(), 0, what=what)
        failed = bool(walker.errors) and walker.errors[0].startswith(f"{what}: content stream")
        if failed and isinstance(contents, pikepdf.Array) and len(contents) > 1:
            # One bad part spoils the joined stream: read the parts one by one instead.
            first = walker.errors.pop(0)
            for part in contents:
                if isinstance(part, pikepdf.Stream):
                    walker.walk(part, resources, _State(), 0, what=what)
            failed = len(walker.errors) >= len(contents) and not walker.uses
            if failed:
                walker.errors.insert(0, first)
        if failed and not walker.uses and not walker.images:
            raise ValueError(walker.errors[0])
    walker.annotations(page, 0)
    uses = list(walker.uses.values())
    for use in uses:
        use.count_bad()
        use.text = walker.text.font_text(id(use))
    return PageContent(
        fonts=uses,
        glyphs=sum(u.glyphs for u in uses),
        bad_glyphs=sum(u.bad_glyphs for u in uses),
        invisible_glyphs=sum(u.invisible_glyphs for u in uses),
        image_coverage=walker.coverage(),
        images=walker.images,
        small_images=walker.small_images,
        annotation_glyphs=walker.annotation_glyphs,
        actual_text_glyphs=sum(u.actual_text_glyphs for u in uses),
        offpage_glyphs=sum(u.offpage_glyphs for u in uses),
        paths=walker.paths,
        text_operators=walker.text_operators,
        qpdf_parsed=walker.qpdf_parsed,
        box=box,
        errors=walker.errors,
        text=walker.text.text(),
        text_complete=walker.text.complete,
        text_budget=text_budget,
    )
