"""Families about pages rather than fonts: pictures of text, OCR layers, sound controls,
blank pages and a severed heading over a good body (`mixed`, the family made of the
others' pages, is the registry's: it builds them through `generate`).
"""

from __future__ import annotations

import io
from typing import Any

from ..errors import UsageError
from ..model import Verdict
from . import compose, faces, fontprep, pdfwriter, raster, rl
from .common import (
    FontArg,
    Prepared,
    choice,
    flag,
    permutation,
    prepare,
    readable_face,
    single,
    size_option,
)
from .compose import Block, PageFacts
from .texts import Layout, default_text, normalise, split_pages
from .truth import Fixture, PageTruth

# 8 ---------------------------------------------------------------------------------------

def _image_pages(
    family: str, p: Prepared, size: float, *, dpi: int, rotation: float, noise: float,
    seed: int, layer: str | None,
) -> Fixture:
    import pikepdf

    layout = Layout()
    good = readable_face(p, salt=(family, layer))
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
    layer = choice("layer", layer, ("right", "wrong"))
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

    producer = choice("producer", producer, PRODUCERS)
    p = prepare(text, font, lang, pages, size, producer=producer)
    if producer == "type0":
        return single("readable", p, readable_face(p), Verdict.READABLE,
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
    art = flag("art", art)
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

def mixed_fonts(
    text: str | None = None, *, font: FontArg = None, lang: str = "en",
    pages: int | None = None, size: float = 12.0, heading: str | None = None,
    heading_size: float = 16.0,
) -> Fixture:
    """A good body font under a severed heading font; verdict by the >10 % bad-glyph rule.

    The heading is the first line of the text unless given.
    """
    size_option("heading_size", heading_size)
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
    good = readable_face(p, salt="body")
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
