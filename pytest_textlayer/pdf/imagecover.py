"""Raster images on a page: how many the walk meets, and how much of the page they cover.

A scan is a page that images cover; an image too small (in pixels or as
placed) to hold a word is counted apart. The walk calls :meth:`ImageCoverage.image`
for every image it draws (XObject or inline), with the CTM that places it;
the union of their areas is measured on a grid over the page box.
"""

from __future__ import annotations

from .geometry import Matrix, bounding_box

#: An image holds text only if it has at least this many pixels on its shorter side...
MIN_IMAGE_SIDE_PX = 16
#: ... and this many pixels in all (a 64×64 image can hold a word).
MIN_IMAGE_PIXELS = 64 * 64
#: ... and is placed at least this large on the page, in points on each side.
MIN_IMAGE_SIDE_PT = 12.0
#: Resolution of the grid that measures the union of image areas.
GRID = 64


class ImageCoverage:
    """The walker's image counts and coverage grid (the walker sets the attributes below)."""

    #: The page box the grid covers.
    box: tuple[float, ...]
    #: GRID × GRID cells, 1 where an image covers the cell.
    grid: bytearray
    #: Depth of hidden optional content around the current operator.
    hidden: int
    images: int
    #: Images too small (in pixels or on the page) to hold text.
    small_images: int

    def image(self, width: int, height: int, ctm: Matrix) -> None:
        if self.hidden:
            return  # in an optional-content layer that is off: not shown
        x0, y0, x1, y1 = bounding_box(ctm)
        if (
            min(width, height) < MIN_IMAGE_SIDE_PX
            or width * height < MIN_IMAGE_PIXELS
            or min(x1 - x0, y1 - y0) < MIN_IMAGE_SIDE_PT
        ):
            self.small_images += 1
            return
        self.images += 1
        bx0, by0, bx1, by1 = self.box
        w, h = bx1 - bx0, by1 - by0
        if w <= 0 or h <= 0:
            return
        i0 = max(0, int((x0 - bx0) / w * GRID))
        i1 = min(GRID, int((x1 - bx0) / w * GRID + 0.999))
        j0 = max(0, int((y0 - by0) / h * GRID))
        j1 = min(GRID, int((y1 - by0) / h * GRID + 0.999))
        if i1 <= i0 or j1 <= j0:
            return
        row = b"\x01" * (i1 - i0)
        for j in range(j0, j1):
            self.grid[j * GRID + i0 : j * GRID + i1] = row

    def coverage(self) -> float:
        return self.grid.count(1) / (GRID * GRID)
