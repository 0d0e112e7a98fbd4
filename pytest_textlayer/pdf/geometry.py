"""Where things land on a page: PDF matrices and the visible page box.

The content walk places text, images and appearance streams by composing
matrices (the CTM, the text and line matrices, a form's /Matrix); the page's
box is what images are measured against and what "off the page" means. This
arithmetic knows nothing of fonts or operators, so it sits below the walk.
"""

from __future__ import annotations

from typing import Any

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF row-vector convention: p' = p × m × n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def translate(m: Matrix, tx: float, ty: float) -> Matrix:
    """A translation by (tx, ty) then m: what Td, TD and T* do to the line matrix."""
    a, b, c, d, e, f = m
    return (a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f)


def bounding_box(
    m: Matrix, box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
) -> tuple[float, ...]:
    x0, y0, x1, y1 = box
    xs, ys = [], []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(m[0] * x + m[2] * y + m[4])
        ys.append(m[1] * x + m[3] * y + m[5])
    return min(xs), min(ys), max(xs), max(ys)


def matrix(obj: Any) -> Matrix | None:
    try:
        values = tuple(map(float, obj))
    except (TypeError, ValueError):
        return None
    if len(values) != 6:
        return None
    a, b, c, d, e, f = values
    return (a, b, c, d, e, f)


def page_box(page: Any) -> tuple[float, float, float, float]:
    """CropBox clipped to the MediaBox (the visible page), else the MediaBox, else Letter."""
    media = matrix(list(page.get("/MediaBox", [0, 0, 612, 792])) + [0, 0])
    if media is None:
        media = (0.0, 0.0, 612.0, 792.0, 0.0, 0.0)
    mx0, my0 = min(media[0], media[2]), min(media[1], media[3])
    mx1, my1 = max(media[0], media[2]), max(media[1], media[3])
    crop = page.get("/CropBox")
    if crop is not None:
        c = matrix(list(crop) + [0, 0])
        if c is not None:
            cx0, cy0 = max(min(c[0], c[2]), mx0), max(min(c[1], c[3]), my0)
            cx1, cy1 = min(max(c[0], c[2]), mx1), min(max(c[1], c[3]), my1)
            if cx1 > cx0 and cy1 > cy0:
                return cx0, cy0, cx1, cy1
    return mx0, my0, mx1, my1
