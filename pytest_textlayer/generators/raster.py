"""Pictures of text: the page as a scan would give it, with no text layer.

Pillow (a reportlab dependency) draws the same laid-out lines the text
families draw, at the requested resolution, optionally rotated and with
salt-and-pepper noise from a seeded generator, so the bytes are the same
on every run.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .compose import Placed
from .fontprep import SourceFont
from .texts import Layout

if TYPE_CHECKING:
    import pikepdf


def check_raster_options(dpi: object, rotation: object, noise: object) -> None:
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 36 <= dpi <= 600:
        raise UsageError(f"dpi must be a whole number from 36 to 600, not {dpi!r}")
    if isinstance(rotation, bool) or not isinstance(rotation, (int, float)):
        raise UsageError(f"rotation must be a number of degrees, not {rotation!r}")
    if isinstance(noise, bool) or not isinstance(noise, (int, float)) or not 0 <= noise <= 0.5:
        raise UsageError(f"noise must be a share of pixels from 0 to 0.5, not {noise!r}")


def render(
    page: Sequence[Placed],
    layout: Layout,
    src: SourceFont,
    *,
    dpi: int,
    rotation: float,
    noise: float,
    seed: int,
) -> tuple[int, int, bytes]:
    """A grey page image (width, height, 8-bit samples) showing the laid-out lines."""
    from PIL import Image, ImageDraw, ImageFont

    scale = dpi / 72.0
    width, height = round(layout.width * scale), round(layout.height * scale)
    image = Image.new("L", (width, height), 255)
    drawer = ImageDraw.Draw(image)
    fonts: dict[float, Any] = {}
    for placed in page:
        if placed.size not in fonts:
            pixels_per_em = max(1, round(placed.size * scale))
            fonts[placed.size] = ImageFont.truetype(str(src.path), pixels_per_em)
        drawer.text(
            (placed.x * scale, (layout.height - placed.y) * scale),
            placed.line,
            fill=0,
            font=fonts[placed.size],
            anchor="ls",
        )
    if rotation:
        image = image.rotate(rotation, resample=Image.Resampling.BILINEAR, fillcolor=255)
    if noise:
        rng = random.Random(seed)
        pixels = image.load()
        assert pixels is not None
        for _ in range(int(width * height * noise)):
            x, y = rng.randrange(width), rng.randrange(height)
            pixels[x, y] = 0 if rng.random() < 0.5 else 255
    return width, height, image.tobytes()


def image_xobject(pdf: pikepdf.Pdf, width: int, height: int, samples: bytes) -> pikepdf.Object:
    import pikepdf

    stream = pdf.make_stream(zlib.compress(samples, 9))
    stream.Type = pikepdf.Name.XObject
    stream.Subtype = pikepdf.Name.Image
    stream.Width = width
    stream.Height = height
    stream.ColorSpace = pikepdf.Name.DeviceGray
    stream.BitsPerComponent = 8
    stream.Filter = pikepdf.Name.FlateDecode
    return stream


def full_page_image(layout: Layout, name: str = "Im1") -> bytes:
    """Content that paints image *name* over the whole page."""
    return f"q {layout.width:g} 0 0 {layout.height:g} 0 0 cm /{name} Do Q\n".encode("ascii")
