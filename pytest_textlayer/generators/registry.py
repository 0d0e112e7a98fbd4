"""The family registry and `generate`: one entry point, checked arguments, one-line errors.

The `mixed` family lives here too: it assembles a document from the pages of
the other families, built through `generate`, so it sits above every family
module and none of them has to reach back up for the registry.
"""

from __future__ import annotations

import inspect
import io
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import UsageError
from . import broken, documents, fontprep, pdfwriter
from .common import FontArg
from .truth import Fixture, PageTruth


@dataclass(frozen=True)
class Family:
    """A family's generator, its one-line description and the option sets the corpus writes."""

    name: str
    function: Callable[..., Fixture]
    description: str
    variants: tuple[Mapping[str, Any], ...] = field(default=({},))

    @property
    def options(self) -> tuple[str, ...]:
        params = inspect.signature(self.function).parameters
        return tuple(n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY)

    def __call__(self, text: str | None = None, **options: Any) -> Fixture:
        return self.function(text, **options)


def _family(name: str, function: Callable[..., Fixture], description: str,
            *variants: Mapping[str, Any]) -> Family:
    return Family(name, function, description, variants or ({},))


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
            part = generate(name, text, font=font, lang=lang, pages=pages, size=size, **extra)
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


FAMILIES: Mapping[str, Family] = MappingProxyType({
    f.name: f
    for f in (
        _family("severed", broken.severed,
                "Type0 Identity-H, no ToUnicode, TrueType without cmap/post: text lost",
                *({"order": o} for o in broken.ORDERS)),
        _family("severed-recoverable", broken.severed_recoverable,
                "severed for readers, answer kept in the file (cmap, post, or ToUnicode name)",
                *({"keep": k} for k in ("cmap", "post", "name"))),
        _family("partial", broken.partial,
                "a correct ToUnicode with holes (non-ASCII left out); verdict by the 10 % rule"),
        _family("shifted", broken.shifted,
                "ToUnicode destinations moved by a constant offset (default -29)"),
        _family("pua", broken.pua, "ToUnicode into the Private Use Area"),
        _family("scrambled", broken.scrambled, "ToUnicode permuting letters (seeded)"),
        _family("collapsed", broken.collapsed,
                "ToUnicode mapping every code to one value (one) or to U+FFFD (fffd)",
                {"to": "one"}, {"to": "fffd"}),
        _family("type3-unnamed", broken.type3_unnamed,
                "Type3 font with glyph names g1, g2..., no ToUnicode"),
        _family("symbolic-truetype", broken.symbolic_truetype,
                "symbolic TrueType, post format 3, only a (3,0) cmap, no ToUnicode"),
        _family("differences-unnamed", broken.differences_unnamed,
                "simple TrueType with /Differences names gNN, no ToUnicode"),
        _family("image-only", documents.image_only, "a raster image of the text, no text layer"),
        _family("image-with-ocr-layer", documents.image_with_ocr_layer,
                "an image plus an invisible text layer, right or wrong",
                {"layer": "right"}, {"layer": "wrong"}),
        _family("readable", documents.readable,
                "sound controls: reportlab TTF, reportlab base-14, Type0 with ToUnicode",
                *({"producer": p} for p in documents.PRODUCERS)),
        _family("blank", documents.blank, "no text and no image (vector art only)"),
        _family("mixed", mixed, "pages of several families in one document"),
        _family("mixed-fonts", documents.mixed_fonts,
                "good body font under a severed heading font; verdict by the 10 % rule"),
    )
})


def generate(
    family: str, text: str | None = None, *, font: str | os.PathLike[str] | None = None,
    **options: Any,
) -> Fixture:
    """Build one fixture of *family*; UsageError for an unknown family or option."""
    entry = FAMILIES.get(family)
    if entry is None:
        known = ", ".join(FAMILIES)
        raise UsageError(f"unknown fixture family {family!r} (choose from {known})")
    allowed = entry.options
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise UsageError(
            f"family {family} has no option {unknown[0]!r} (options: {', '.join(allowed)})"
        )
    if text is not None and not isinstance(text, str):
        raise UsageError(f"text must be a string, not {type(text).__name__}")
    return entry.function(text, font=font, **options)


def write_fixture(
    family: str, output: str | os.PathLike[str], text: str | None = None, *,
    font: str | os.PathLike[str] | None = None, **options: Any,
) -> Path:
    """`textlayer generate FAMILY -o OUT.pdf`: build, then write the PDF and OUT.json beside it."""
    return generate(family, text, font=font, **options).write(output)
