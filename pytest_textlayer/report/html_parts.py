"""Pure HTML pieces of the visual report: escaping, text diffs, glyph overlays, tables.

No PDF library here: these functions turn report objects and glyph facts
into markup, so they are unit-tested on plain values. The page is static
and self-contained (no script, no external resource); a Content Security
Policy in the head forbids any request but ``data:`` images, so opening the
report can never touch the network.
"""

from __future__ import annotations

import base64
import difflib
import html
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from ..model import FontReport, FontStatus, PageReport, Verdict
from .glyphboxes import Glyph, PageGlyphs

#: Routes a glyph's box is coloured by, in legend order.
ROUTES = ("usable", "recovered", "severed", "wrong", "unknown")
ROUTE_LABELS = {
    "usable": "usable: a route the PDF specification defines",
    "recovered": "recoverable: no specified route, the file still holds the answer",
    "severed": "severed: no route to Unicode (or PDFium reports a map error)",
    "wrong": "wrong: a route that leads to the wrong characters",
    "unknown": "unknown: font not in the report",
}
_STATUS_ROUTE = {
    FontStatus.USABLE: "usable",
    FontStatus.RECOVERABLE: "recovered",
    FontStatus.SEVERED: "severed",
    FontStatus.WRONG: "wrong",
}
#: How much of a page's text the side-by-side panels show.
TEXT_CHARS = 3000
#: Longest texts compared character by character (difflib is quadratic on unrelated texts).
DIFF_CHARS = 2000

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

CSS = """
:root{--usable:#1a7f37;--recovered:#0b5cad;--severed:#b3261e;--wrong:#8a4b00;--unknown:#5f6368}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#fff;
 margin:0 auto;max-width:1200px;padding:0 1rem 3rem}
h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2.5rem;border-bottom:2px solid #d0d7de}
h3{font-size:1.1rem;margin-top:2rem}h4{font-size:1rem;margin:1rem 0 .3rem}
a{color:#0550ae}a:focus-visible,input:focus-visible+label,pre:focus-visible,
.scroll:focus-visible{outline:3px solid #bf3989;outline-offset:2px}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
.bad{color:#b3261e;font-weight:600}.good{color:#1a7f37}.bad,.good{white-space:nowrap}
.page{border-top:1px solid #d0d7de;margin-top:2rem}
.cols{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
.cols>*{flex:1 1 340px;min-width:0}
.figs{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
figure{margin:0;flex:1 1 560px;min-width:0}.toggle{margin:.3rem 1rem .3rem 0}
.frame{overflow:auto;max-width:100%}label.zoomer{display:block;cursor:zoom-in}
.canvas{display:block;box-sizing:border-box;position:relative;width:100%;border:1px solid #8c959f;
 line-height:0}
.canvas img{display:block;width:100%;height:auto}
input.zoom:checked~.frame .canvas{width:200%}input.zoom:checked~.frame label{cursor:zoom-out}
.canvas svg{position:absolute;inset:0;width:100%;height:100%}
.canvas rect{fill-opacity:.22}
.boxes g{stroke-width:.8}.boxes g.r-severed{stroke-width:1.2}
.canvas rect:hover{fill-opacity:.6}
.r-usable{fill:var(--usable);stroke:var(--usable)}
.r-recovered{fill:var(--recovered);stroke:var(--recovered);stroke-dasharray:1.5 1}
.r-severed{fill:var(--severed);stroke:var(--severed)}
.r-wrong{fill:var(--wrong);stroke:var(--wrong);stroke-dasharray:3 1.5}
.r-unknown{fill:var(--unknown);stroke:var(--unknown)}
.chars{display:none}.chars text{fill:#000;font-family:sans-serif;text-anchor:middle;
 paint-order:stroke;stroke:#fff;stroke-width:1.5px}
input.show:checked~.frame .chars{display:inline}
label.toggle{display:inline-block}
.legend{list-style:none;padding:0;margin:.5rem 0;font-size:.85rem;line-height:1.6}
.sw{display:inline-block;width:1em;height:.8em;margin-right:.4em;vertical-align:-.05em;
 border:2px solid}
.sw.usable{background:#1a7f3740;border-color:var(--usable)}
.sw.recovered{background:#0b5cad40;border:2px dotted var(--recovered)}
.sw.severed{background:#b3261e40;border-color:var(--severed)}
.sw.wrong{background:#8a4b0040;border:2px dashed var(--wrong)}
.sw.unknown{background:#5f636840;border-color:var(--unknown)}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;border:1px solid #d0d7de;
 padding:.5rem;margin:0;font:13px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}
pre.text{max-height:22rem;overflow:auto}
del{background:#ffebe9;color:#82071e;text-decoration:line-through}
ins{background:#dafbe1;color:#055d20;text-decoration:none;border-bottom:2px solid #1a7f37}
.note{color:#57606a}code{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
"""


@dataclass(frozen=True)
class Figure:
    """One rendered page with its glyph boxes, or why there is none."""

    label: str
    image: bytes | None
    glyphs: PageGlyphs | None
    fonts: tuple[FontReport, ...]
    note: str | None = None
    #: Font program digest → BaseFont, to tell subsets of one face apart.
    programs: Mapping[str, str] | None = None


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def esc_text(text: str) -> str:
    """Escaped for element content (quotes need no escaping there)."""
    return html.escape(text, quote=False)


def visible(text: str) -> str:
    """Controls made visible (U+0003 → ␃), so a severed extraction does not look empty."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x20 and ch not in "\n\t":
            out.append(chr(0x2400 + code))
        elif code == 0x7F:
            out.append("\u2421")
        elif 0x80 <= code < 0xA0:
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def _clip(text: str, limit: int = TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


# -- glyph routes -------------------------------------------------------------------------


def _strip_tag(name: str) -> str:
    tag, plus, rest = name.partition("+")
    return rest if plus and len(tag) == 6 and tag.isalpha() and tag.isupper() else name


class FontLookup:
    """Join PDFium's per-character font with the report's fonts of the same page.

    PDFium names a font by its BaseFont, often without the subset tag, so
    two subsets of one face (``ABCDEF+Sans``, ``GHIJKL+Sans``) share a name.
    The join tries, in order: the exact name; the embedded font program
    (``programs``: digest → BaseFont, from :func:`glyphboxes.embedded_programs`),
    which tells subsets apart; the name without the tag, when the fonts it
    names share one status; the page's only font. Else the route is unknown.
    """

    def __init__(
        self, fonts: Sequence[FontReport], programs: Mapping[str, str] | None = None
    ) -> None:
        self.exact = {f.name: f for f in fonts}
        self.programs = dict(programs or {})
        bare: dict[str, list[FontReport]] = {}
        for font in fonts:
            bare.setdefault(_strip_tag(font.name), []).append(font)
        self.bare = {k: v[0] for k, v in bare.items() if len({f.status for f in v}) == 1}
        self.only = fonts[0] if len(fonts) == 1 else None
        #: Subsets of one face with different statuses: only the programs tell them apart.
        self.ambiguous = len(self.bare) < len(bare)

    def find(self, glyph: Glyph) -> FontReport | None:
        found = self.exact.get(glyph.font)
        if found is None and glyph.program is not None:
            found = self.exact.get(self.programs.get(glyph.program, ""))
        return found or self.bare.get(_strip_tag(glyph.font)) or self.only


def glyph_route(glyph: Glyph, lookup: FontLookup) -> str:
    """usable | recovered | severed | wrong | unknown; a PDFium map error is severed."""
    if glyph.map_error:
        return "severed"
    font = lookup.find(glyph)
    return "unknown" if font is None else _STATUS_ROUTE[font.status]


def route_counts(glyphs: Iterable[Glyph], lookup: FontLookup) -> dict[str, int]:
    counts = dict.fromkeys(ROUTES, 0)
    for glyph in glyphs:
        counts[glyph_route(glyph, lookup)] += 1
    return counts


# -- figure -------------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _char_title(glyph: Glyph, route: str, with_font: bool) -> str:
    title = f"“{visible(glyph.char)}” U+{ord(glyph.char):04X} · {route}"
    if glyph.map_error:
        title += " (map error)"
    return title + (f" · {glyph.font or 'unnamed font'}" if with_font else "")


def figure_html(fig: Figure, uid: str) -> str:
    """The page image with one box per glyph, a legend with counts, and a characters toggle.

    Boxes of consecutive glyphs on one route share a group (its class sets the
    colour), and a box's tooltip names its font only when the page has
    several: a dense page stays a few hundred kilobytes.
    """
    if fig.image is None or fig.glyphs is None:
        return f'<p class="note">{esc(fig.label)}: {esc(fig.note or "no image")}</p>'
    page = fig.glyphs
    lookup = FontLookup(fig.fonts, fig.programs)
    with_font = len({g.font for g in page.glyphs}) > 1
    counts = dict.fromkeys(ROUTES, 0)
    rects: list[str] = []
    chars: list[str] = []
    current = ""
    for glyph in page.glyphs:
        route = glyph_route(glyph, lookup)
        counts[route] += 1
        if route != current:
            rects.append(f'{"</g>" if current else ""}<g class="r-{route}">')
            current = route
        x0, y0, x1, y1 = glyph.box
        title = esc_text(_char_title(glyph, route, with_font))
        rects.append(
            f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0)}" '
            f'height="{_num(y1 - y0)}"><title>{title}</title></rect>'
        )
        size = max(2.0, (y1 - y0) * 0.75)
        chars.append(
            f'<text x="{_num((x0 + x1) / 2)}" y="{_num(y1 - (y1 - y0) * 0.2)}" '
            f'font-size="{_num(size)}">{esc_text(visible(glyph.char))}</text>'
        )
    if current:
        rects.append("</g>")
    summary = ", ".join(f"{n} {r}" for r, n in counts.items() if n) or "no glyphs"
    uri = "data:image/jpeg;base64," + base64.b64encode(fig.image).decode("ascii")
    vb = f"0 0 {_num(page.width)} {_num(page.height)}"
    cut = f" ({page.cut} more not drawn)" if page.cut else ""
    legend = "".join(
        f'<li><span class="sw {r}" aria-hidden="true"></span>{esc(ROUTE_LABELS[r])}: '
        f"<strong>{counts[r]}</strong></li>"
        for r in ROUTES
        if counts[r] or r != "unknown"
    )
    toggle = ""
    if page.glyphs:
        toggle = (
            f'<input type="checkbox" class="show" id="{uid}-chars">'
            f'<label class="toggle" for="{uid}-chars"> show the extracted character on each '
            "box</label>"
        )
    # The page fits the column; a click on it (or the checkbox) doubles it, scrolled in its
    # frame: a checkbox and two labels, since the report runs no script.
    zoom = (f'<input type="checkbox" class="zoom" id="{uid}-zoom">'
            f'<label class="toggle" for="{uid}-zoom"> zoom in (or click the page)</label>')
    return (
        f'<figure aria-labelledby="{uid}-cap">{toggle}{zoom}'
        f'<div class="frame"><label class="zoomer" for="{uid}-zoom">'
        f'<span class="canvas"><img src="{uri}" width="{round(page.width)}" '
        f'height="{round(page.height)}" alt="{esc(fig.label)}, rendered by PDFium">'
        f'<svg viewBox="{vb}" role="img" aria-label="glyph boxes: {esc(summary)}{cut}" '
        f'preserveAspectRatio="none"><g class="boxes">{"".join(rects)}</g>'
        f'<g class="chars" aria-hidden="true">{"".join(chars)}</g></svg></span></label></div>'
        f'<figcaption id="{uid}-cap"><strong>{esc(fig.label)}</strong>: '
        f"{len(page.glyphs)} glyph boxes{cut}, coloured by route to Unicode "
        "(hover a box for its character)"
        f'<ul class="legend">{legend}</ul></figcaption></figure>'
    )


# -- text, diff ---------------------------------------------------------------------------


def diff_html(before: str, after: str) -> tuple[str, str]:
    """Both texts escaped, with what changed marked: <del> in before, <ins> in after."""
    a, b = _clip(before), _clip(after)
    if len(a) > DIFF_CHARS or len(b) > DIFF_CHARS:
        head_a, head_b = diff_html(a[:DIFF_CHARS], b[:DIFF_CHARS])
        return head_a + esc(visible(a[DIFF_CHARS:])), head_b + esc(visible(b[DIFF_CHARS:]))
    left: list[str] = []
    right: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i0, i1, j0, j1 in matcher.get_opcodes():
        old, new = esc(visible(a[i0:i1])), esc(visible(b[j0:j1]))
        if op == "equal":
            left.append(old)
            right.append(new)
            continue
        if old:
            left.append(f"<del>{old}</del>")
        if new:
            right.append(f"<ins>{new}</ins>")
    return "".join(left), "".join(right)


def text_block(uid: str, title: str, body_html: str) -> str:
    body_html = body_html or '<span class="note">(no text)</span>'
    return (
        f'<div><h4 id="{uid}">{esc(title)}</h4>'
        f'<pre class="text" tabindex="0" aria-labelledby="{uid}">{body_html}</pre></div>'
    )


def texts_html(uid: str, pairs: Sequence[tuple[str, str]], note: str | None) -> str:
    """Two columns (titled texts, the second diffed against the first), or one and a note."""
    if len(pairs) == 2:
        left, right = diff_html(pairs[0][1], pairs[1][1])
        body = text_block(f"{uid}-t0", pairs[0][0], left) + text_block(
            f"{uid}-t1", pairs[1][0], right
        )
        key = (
            '<p class="note">Differences: <del>taken out</del> in the first text, '
            "<ins>put in</ins> in the second.</p>"
        )
        return f'<div class="cols">{body}</div>{key}'
    blocks = "".join(
        text_block(f"{uid}-t{i}", title, esc(visible(_clip(text))))
        for i, (title, text) in enumerate(pairs)
    )
    extra = f'<p class="note">{esc(note)}</p>' if note else ""
    return f'<div class="cols">{blocks}</div>{extra}'


# -- tables -------------------------------------------------------------------------------


def fonts_table(fonts: Sequence[FontReport], caption: str) -> str:
    if not fonts:
        return f'<p class="note">{esc(caption)}: no font draws text on this page.</p>'
    head = "".join(
        f'<th scope="col">{h}</th>'
        for h in ("Font", "Type", "Encoding", "Route", "Status", "Glyphs", "Unmapped", "Problem")
    )
    rows = []
    for f in fonts:
        status = f'<span class="{"bad" if f.status.is_bad else "good"}">{esc(f.status)}</span>'
        rows.append(
            f"<tr><th scope=\"row\">{esc(f.name)}</th><td>{esc(f.subtype)}</td>"
            f"<td>{esc(f.encoding or '—')}</td><td>{esc(f.route)}</td><td>{status}</td>"
            f'<td class="n">{f.glyphs}</td><td class="n">{f.unmapped}</td>'
            f"<td>{esc(f.problem or '')}</td></tr>"
        )
    return (
        f"<table><caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def ok_cell(ok: bool) -> str:
    return '<span class="good">✓ OK</span>' if ok else '<span class="bad">✗ not OK</span>'


def page_range(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def repair_command(path: str, page: PageReport | None, *, after_repair: bool = False) -> str:
    """The command line that repairs the document (quoted for a POSIX shell)."""
    pure = PurePath(path)
    out = pure.with_name(f"{pure.stem}-fixed.pdf").name if pure.suffix else "fixed.pdf"
    cmd = f"textlayer repair {shlex.quote(path)} -o {shlex.quote(out)}"
    if after_repair:
        return cmd + " --ocr force"
    if page is not None and page.verdict is Verdict.ABSENT:
        return cmd + "   # runs OCR: the page has no text layer"
    return cmd
