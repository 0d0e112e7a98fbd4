"""The family registry and `generate`: one entry point, checked arguments, one-line errors."""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import UsageError
from . import broken, documents
from .truth import Fixture


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
        _family("mixed", documents.mixed, "pages of several families in one document"),
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
