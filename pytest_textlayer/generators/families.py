"""The defect families: one function per way a text layer breaks, each with its truth.

Every function takes the text (None: the default text of ``lang``), a font
file (None: DejaVu Sans, else reportlab's Vera) and its own options, and
returns a :class:`~.truth.Fixture`.  The verdicts follow the contract's
order and 10 % rule; the ``extracted`` text is what standard readers map the
glyphs to (control characters included: readers differ in how they show
those, so compare ignoring whitespace and control characters).
"""

from __future__ import annotations

import io
import os
import random
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..model import Verdict
from . import compose, faces, fontprep, pdfwriter, raster, rl
from .compose import Block, PageFacts
from .fontprep import SourceFont
from .texts import Layout, default_text, normalise, split_pages
from .truth import Fixture, PageTruth

FontArg = str | os.PathLike[str] | None

ORDERS = ("mac-standard", "first-use", "original")
#: what a reader shows for a severed glyph in each order
ORDER_NOTES = {
    "mac-standard": "glyphs in the Macintosh standard order: ASCII comes out shifted by 29",
    "first-use": "glyphs numbered in order of first use: a substitution cipher",
    "original": "glyphs at the source font's own indices",
}


def _flag(name: str, value: object) -> bool:
    """A yes/no option; the command line passes words, so 'false' and 'no' mean False."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "false", "no", "off"):
        return value.lower() in ("true", "yes", "on")
    raise UsageError(f"{name} must be true or false, not {value!r}")


def _size(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 4 <= value <= 72:
        raise UsageError(f"{name} must be a number of points from 4 to 72, not {value!r}")
    return float(value)


def _choice(name: str, value: object, choices: Sequence[str]) -> str:
    if value not in choices:
        raise UsageError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


@dataclass(frozen=True)
class Prepared:
    """The common inputs of a family: text cut into pages, font loaded and checked."""

    text: str
    parts: list[str]
    src: SourceFont
    chars: str
    options: dict[str, Any]


def prepare(
    text: str | None, font: FontArg, lang: str, pages: int | None, size: float,
    *, bold: bool = False, **options: Any,
) -> Prepared:
    body = normalise(default_text(lang) if text is None else text)
    parts = split_pages(body, pages)
    _size("size", size)
    src = fontprep.load_font(font, bold=bold)
    shown = "\n".join(parts)
    src.require(shown)
    recorded = {"lang": lang if text is None else None, "font": src.path.name, "pages": pages,
                "size": size, **options}
    return Prepared(body, parts, src, fontprep.distinct(shown), recorded)


def _single(
    family: str, p: Prepared, face: faces.Face, verdict: Verdict, notes: str, size: float
) -> Fixture:
    return compose.text_fixture(
        family, p.options, [[Block(face, part, size)] for part in p.parts], verdict, notes
    )


# 1 ---------------------------------------------------------------------------------------

def severed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, order: str = "mac-standard",
) -> Fixture:
    """Type0 Identity-H, no ToUnicode, TrueType subset without cmap and post: text is lost."""
    order = _choice("order", order, ORDERS)
    p = prepare(text, font, lang, pages, size, order=order)
    face = faces.type0(p.src, p.chars, order=order, bad=True, description="severed")
    notes = ("Type0 Identity-H, no ToUnicode, embedded TrueType without cmap and post; "
             + ORDER_NOTES[order])
    return _single("severed", p, face, Verdict.UNDECODABLE, notes, size)


def severed_recoverable(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, keep: str = "cmap", order: str = "first-use",
) -> Fixture:
    """Severed for standard readers, but the file still holds the answer (cmap, post, or a name)."""
    keep = _choice("keep", keep, ("cmap", "post", "name"))
    order = _choice("order", order, ORDERS)
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
    return _single("severed-recoverable", p, face, Verdict.UNDECODABLE, notes, size)


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
    return _single("shifted", p, face, Verdict.SHIFTED, notes, size)


def pua(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """A ToUnicode into the Private Use Area: U+E000 + the glyph's order of first use."""
    p = prepare(text, font, lang, pages, size)
    index = {ch: i for i, ch in enumerate(p.chars)}
    face = faces.type0(p.src, p.chars, tounicode=lambda ch: chr(0xE000 + index[ch]), bad=True,
                       description="pua", salt="pua")
    return _single("pua", p, face, Verdict.GARBLED, "ToUnicode maps every glyph into the PUA",
                   size)


def permutation(text: str, seed: int) -> dict[str, str]:
    """A seeded derangement of the text's distinct letters, upper and lower case apart."""
    mapping: dict[str, str] = {}
    letters = fontprep.distinct("".join(ch for ch in text if ch.isalpha()))
    for category in ("Lu", "Ll", "Lo", "Lt", "Lm"):
        group = sorted(ch for ch in letters if unicodedata.category(ch) == category)
        if len(group) < 2:
            continue
        rng = random.Random(f"{seed}:{category}:{''.join(group)}")
        shuffled = group[:]
        while any(a == b for a, b in zip(group, shuffled, strict=True)):
            rng.shuffle(shuffled)
        mapping.update(zip(group, shuffled, strict=True))
    return mapping


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
    return _single("scrambled", p, face, Verdict.GARBLED,
                   f"ToUnicode permutes {len(perm)} letters (seed {seed})", size)


def collapsed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, to: str = "one", value: str = "?",
) -> Fixture:
    """A ToUnicode mapping every code to one value (``one``, garbled) or to U+FFFD (``fffd``)."""
    to = _choice("to", to, ("one", "fffd"))
    if to == "one" and (not isinstance(value, str) or len(value) != 1):
        raise UsageError(f"value must be one character, not {value!r}")
    target = "\ufffd" if to == "fffd" else value
    extra: dict[str, Any] = {"to": to, **({"value": value} if to == "one" else {})}
    p = prepare(text, font, lang, pages, size, **extra)
    face = faces.type0(p.src, p.chars, tounicode=lambda ch: target, bad=True,
                       description="collapsed", salt=("collapsed", target))
    verdict = Verdict.UNDECODABLE if to == "fffd" else Verdict.GARBLED
    return _single("collapsed", p, face, verdict,
                   f"ToUnicode maps every code to U+{ord(target):04X}", size)


# 5, 6, 7 ---------------------------------------------------------------------------------

def type3_unnamed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """A Type3 font with glyphs named g1, g2… drawing the real outlines, no ToUnicode."""
    p = prepare(text, font, lang, pages, size)
    face = faces.type3_unnamed(p.src, p.chars, description="type3")
    return _single("type3-unnamed", p, face, Verdict.UNDECODABLE,
                   "Type3, glyph names g1, g2… outside the AGL, codes from 1, no ToUnicode", size)


def symbolic_truetype(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """Simple symbolic TrueType: no ToUnicode, post format 3, only a (3,0) cmap, foreign codes."""
    p = prepare(text, font, lang, pages, size)
    face = faces.symbolic_truetype(p.src, p.chars, description="symbolic")
    return _single("symbolic-truetype", p, face, Verdict.UNDECODABLE,
                   "symbolic TrueType, no Encoding, no ToUnicode, post format 3, only a (3,0) "
                   "cmap; no code equals a character of the text", size)


def differences_unnamed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
) -> Fixture:
    """Simple TrueType whose /Differences names are gNN (the glyph index), no ToUnicode."""
    p = prepare(text, font, lang, pages, size)
    face = faces.differences_unnamed(p.src, p.chars, description="differences")
    return _single("differences-unnamed", p, face, Verdict.UNDECODABLE,
                   "TrueType with /Differences names gNN outside the AGL, no ToUnicode", size)


# 8 ---------------------------------------------------------------------------------------

def _readable_face(p: Prepared, salt: object = "readable") -> faces.Face:
    return faces.type0(p.src, p.chars, tounicode=lambda ch: ch, bad=False,
                       description="readable", salt=salt)


def _image_pages(
    family: str, p: Prepared, size: float, *, dpi: int, rotation: float, noise: float,
    seed: int, layer: str | None,
) -> Fixture:
    import pikepdf

    layout = Layout()
    good = _readable_face(p, salt=(family, layer))
    shown_pages = compose.flow([[Block(good, part, size)] for part in p.parts], layout)
    wrong = permutation(p.chars, seed) if layer == "wrong" else {}
    pdf = pikepdf.new()
    fonts: dict[int, tuple[str, Any]] = {}
    truths: list[PageTruth] = []
    for number, page in enumerate(shown_pages):
        width, height, samples = raster.render(page, layout, p.src, dpi=dpi, rotation=rotation,
                                               noise=noise, seed=seed + number)
        image = raster.image_xobject(pdf, width, height, samples)
        text = "\n".join(pl.line for pl in page)
        if layer is None:
            pdfwriter.add_page(pdf, pdfwriter.PageSpec(layout, images={"Im1": image},
                                                       prefix=raster.full_page_image(layout)))
            truths.append(PageTruth(text, Verdict.ABSENT, "",
                                    f"a {dpi} dpi image of the text, no text layer"))
            continue
        hidden = []
        for pl in page:
            line = "".join(wrong.get(ch, ch) for ch in pl.line)
            measure = pl.face.measure(pl.size)
            hscale = 100.0 * measure(pl.line) / measure(line) if measure(line) else 100.0
            hidden.append(compose.Placed(pl.face, pl.size, 3, pl.x, pl.y, line, hscale))
        compose.draw(pdf, hidden, layout, fonts, images={"Im1": image},
                     prefix=raster.full_page_image(layout))
        f = compose.facts(hidden, shown=[pl.line for pl in page])
        verdict = Verdict.READABLE if layer == "right" else Verdict.GARBLED
        truths.append(PageTruth(
            text, verdict, f.extracted,
            f"a {dpi} dpi image with an invisible (Tr 3) text layer: "
            + ("the right text" if layer == "right" else "letters permuted, ordinary characters"),
            glyphs=f.glyphs, bad_glyphs=f.glyphs if layer == "wrong" else 0,
        ))
    return Fixture(family, p.options, pdfwriter.save(pdf), tuple(truths))


def image_only(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, dpi: int = 100, rotation: float = 0.0,
    noise: float = 0.0, seed: int = 1,
) -> Fixture:
    """The text as a raster image (dpi, rotation, noise), no text layer at all."""
    raster.check_raster_options(dpi, rotation, noise)
    p = prepare(text, font, lang, pages, size, dpi=dpi, rotation=rotation, noise=noise, seed=seed)
    return _image_pages("image-only", p, size, dpi=dpi, rotation=rotation, noise=noise,
                        seed=seed, layer=None)


def image_with_ocr_layer(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, layer: str = "right", dpi: int = 100,
    rotation: float = 0.0, noise: float = 0.0, seed: int = 1,
) -> Fixture:
    """The image plus an invisible text layer: ``right`` (readable) or ``wrong`` (garbled)."""
    layer = _choice("layer", layer, ("right", "wrong"))
    raster.check_raster_options(dpi, rotation, noise)
    p = prepare(text, font, lang, pages, size, layer=layer, dpi=dpi, rotation=rotation,
                noise=noise, seed=seed)
    if layer == "wrong" and not permutation(p.chars, seed):
        raise UsageError("layer=wrong needs a text with at least two distinct letters")
    return _image_pages("image-with-ocr-layer", p, size, dpi=dpi, rotation=rotation,
                        noise=noise, seed=seed, layer=layer)


# 9 ---------------------------------------------------------------------------------------

PRODUCERS = ("ttf", "base14", "type0")


def readable(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, producer: str = "ttf",
) -> Fixture:
    """A sound control: reportlab base-14 font, reportlab embedded TTF, or Type0 with ToUnicode."""
    import pikepdf

    producer = _choice("producer", producer, PRODUCERS)
    p = prepare(text, font, lang, pages, size, producer=producer)
    if producer == "type0":
        return _single("readable", p, _readable_face(p), Verdict.READABLE,
                       "Type0 Identity-H with a correct ToUnicode", size)
    data, lines = rl.reportlab_pdf(p.parts, Layout(), producer=producer, src=p.src, size=size)
    what = ("reportlab, standard Helvetica, WinAnsiEncoding" if producer == "base14"
            else "reportlab, embedded TrueType subset with ToUnicode")
    truths = tuple(
        PageTruth("\n".join(page), Verdict.READABLE, "\n".join(page), what,
                  glyphs=sum(map(len, page)))
        if page else PageTruth("", Verdict.BLANK, "", "nothing drawn")
        for page in lines
    )
    with pikepdf.open(io.BytesIO(data)) as src_pdf:
        out = pikepdf.new()
        out.pages.extend(src_pdf.pages)
        return Fixture("readable", p.options, pdfwriter.save(out), truths)


def blank(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, art: bool = True,
) -> Fixture:
    """Pages with no text and no image; ``art`` draws vector shapes (still blank)."""
    import pikepdf

    del font, size
    art = _flag("art", art)
    parts = split_pages(normalise(text), pages) if text is not None else [""] * (pages or 1)
    if pages is None and text is not None:
        parts = [""] * len(parts)
    layout = Layout()
    pdf = pikepdf.new()
    prefix = (
        b"0.5 w 36 36 348 523 re S 36 500 m 384 500 l S 0.9 g 60 100 120 80 re f\n"
        if art else b""
    )
    for _ in parts:
        pdfwriter.add_page(pdf, pdfwriter.PageSpec(layout, prefix=prefix))
    note = "vector art only" if art else "an empty page"
    truths = tuple(PageTruth("", Verdict.BLANK, "", note) for _ in parts)
    return Fixture("blank", {"lang": None, "pages": pages, "art": art}, pdfwriter.save(pdf),
                   truths)


# 10 --------------------------------------------------------------------------------------

DEFAULT_MIX = ("readable", "severed", "shifted", "image-only", "blank")


def mixed(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0,
    families: Sequence[str | Sequence[Any]] = DEFAULT_MIX,
) -> Fixture:
    """One document assembled from the pages of other families, in the order given.

    Each item is a family name or ``[name, {options}]``.
    """
    import pikepdf

    from . import registry

    if isinstance(families, str) or not families:
        raise UsageError("families must be a non-empty list of family names")
    out = pikepdf.new()
    truths: list[PageTruth] = []
    opened: list[pikepdf.Pdf] = []
    recorded: list[Any] = []
    try:
        for item in families:
            if isinstance(item, str):
                name, extra = item, {}
            elif (isinstance(item, Sequence) and len(item) == 2 and isinstance(item[0], str)
                  and isinstance(item[1], dict)):
                name, extra = item[0], dict(item[1])
            else:
                raise UsageError(f"bad mixed item {item!r}: use a name or [name, {{options}}]")
            if name in ("mixed",):
                raise UsageError("mixed cannot contain mixed")
            part = registry.generate(name, text, font=font, lang=lang, pages=pages, size=size,
                                     **extra)
            doc = pikepdf.open(io.BytesIO(part.pdf))
            opened.append(doc)
            out.pages.extend(doc.pages)
            truths.extend(
                PageTruth(t.text, t.verdict, t.extracted, f"[{name}] {t.notes}", t.glyphs,
                          t.bad_glyphs)
                for t in part.pages
            )
            recorded.append([name, extra] if extra else name)
        data = pdfwriter.save(out)
    finally:
        for doc in opened:
            doc.close()
    options = {"lang": lang if text is None else None, "pages": pages, "size": size,
               "families": recorded, "font": fontprep.load_font(font).path.name}
    return Fixture("mixed", options, data, tuple(truths))


def mixed_fonts(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, heading: str | None = None,
    heading_size: float = 16.0,
) -> Fixture:
    """A good body font under a severed heading font; verdict by the >10 % bad-glyph rule.

    The heading is the first line of the text unless given.
    """
    _size("heading_size", heading_size)
    body_text = normalise(default_text(lang) if text is None else text)
    if heading is None:
        first, _, rest = body_text.partition("\n")
        head, body_text = first, rest
    else:
        head = normalise(heading)
    if not head.strip() or not body_text.strip():
        raise UsageError("mixed-fonts needs a heading and a body (give text with two lines)")
    if "\f" in head:
        raise UsageError("the heading must not contain a form feed")
    p = prepare(body_text, font, lang, pages, size, heading=head, heading_size=heading_size)
    bold_src = fontprep.load_font(font, bold=True) if font is None else p.src
    bold_src.require(head)
    bad = faces.type0(bold_src, fontprep.distinct(head), order="mac-standard", bad=True,
                      description="severed heading", salt="heading")
    good = _readable_face(p, salt="body")
    parts = [[Block(bad, head, heading_size), Block(good, part, size)] for part in p.parts]

    def verdict(f: PageFacts) -> Verdict:
        return Verdict.UNDECODABLE if f.bad_glyphs / f.glyphs > 0.10 else Verdict.READABLE

    def notes(f: PageFacts) -> str:
        return (f"severed heading font (Type0 Identity-H, no ToUnicode, mac-standard order) "
                f"draws {f.bad_glyphs} of {f.glyphs} glyphs ({100 * f.bad_glyphs / f.glyphs:.1f} %"
                f"); the body font has a correct ToUnicode; >10 % bad is {verdict(f).value}")

    options = dict(p.options)
    if text is None:
        options["lang"] = lang
    return compose.text_fixture("mixed-fonts", options, parts, verdict, notes)
