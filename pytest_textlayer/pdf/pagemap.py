"""Where a point of a page's content lands on the page as a reader shows it.

PDFium turns a page by its /Rotate and cuts it to its crop box when it
renders it; its character boxes are in the content's own space. Both the
HTML report's glyph boxes and glyph OCR's pairing of glyphs with a render
need the second mapped onto the first, and PDFium's own page-to-device
mapping is the one its renders use.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

#: Precision of the page-to-device mapping (PDFium returns whole device pixels).
_PRECISION = 64


@dataclass(frozen=True)
class Affine:
    """x' = a·x + b·y + c, y' = d·x + e·y + f."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f

    def box(self, left: float, top: float, right: float, bottom: float
            ) -> tuple[float, float, float, float]:
        """A box of the content's space, as (x0, y0, x1, y1) where the page shows it."""
        x0, y0 = self.apply(left, top)
        x1, y1 = self.apply(right, bottom)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def page_to_top_left(page: Any, width: float, height: float) -> Affine:
    """PDFium's page-to-device mapping of a pypdfium2 page shown ``width`` by ``height``
    points (``page.get_size()``), read at three points: content-space points to points
    from the shown page's top left."""
    import pypdfium2.raw as raw

    size_x = max(1, round(width * _PRECISION))
    size_y = max(1, round(height * _PRECISION))
    dx, dy = ctypes.c_int(), ctypes.c_int()

    def device(x: float, y: float) -> tuple[float, float]:
        raw.FPDF_PageToDevice(
            page.raw, 0, 0, size_x, size_y, 0, x, y, ctypes.byref(dx), ctypes.byref(dy)
        )
        return dx.value / _PRECISION, dy.value / _PRECISION

    # Probe points far apart so rounding to device pixels does not matter.
    span = 1000.0
    ox, oy = device(0.0, 0.0)
    xx, xy = device(span, 0.0)
    yx, yy = device(0.0, span)
    return Affine(
        (xx - ox) / span, (yx - ox) / span, ox, (xy - oy) / span, (yy - oy) / span, oy
    )
