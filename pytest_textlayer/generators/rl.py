"""The readable controls written by reportlab itself, as most Python users produce PDFs.

Two producer paths: a standard (base-14) font with WinAnsiEncoding, and an
embedded TrueType, for which reportlab writes subsets with a ToUnicode
CMap.  ``invariant`` fixes reportlab's dates and document ID.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from ..errors import UsageError
from .fontprep import SourceFont
from .texts import Layout, wrap


def check_winansi(text: str, font: str = "Helvetica") -> None:
    for ch in sorted(set(text) - {"\n", "\f"}):
        try:
            ch.encode("cp1252")
        except UnicodeEncodeError:
            raise UsageError(
                f"standard font {font} has no glyph for {ch!r} (U+{ord(ch):04X}) in "
                "WinAnsiEncoding; use producer=ttf or type0"
            ) from None


def reportlab_pdf(
    parts: Sequence[str], layout: Layout, *, producer: str, src: SourceFont, size: float = 12.0
) -> tuple[bytes, list[list[str]]]:
    """Write the parts with reportlab; returns the PDF and the lines of each page."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    if producer == "base14":
        font_name = "Helvetica"
        check_winansi("".join(parts))
    else:
        font_name = f"TL{src.digest[:10]}"
        if font_name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(font_name, str(src.path)))

    def measure(s: str) -> float:
        return float(pdfmetrics.stringWidth(s, font_name, size))

    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, pagesize=(layout.width, layout.height), invariant=1, pageCompression=1)
    pdf.setCreator("pytest-textlayer")
    pdf.setProducer("pytest-textlayer")
    leading = size * 4 / 3
    pages: list[list[str]] = []
    for part in parts:
        lines = wrap(part, measure, layout.line_width)
        while lines and not lines[-1]:
            lines.pop()
        chunk: list[str] = []
        top = layout.height - layout.margin
        for line in lines:
            if top - size < layout.margin and chunk:
                pages.append(chunk)
                pdf.showPage()
                chunk, top = [], layout.height - layout.margin
            top -= leading
            pdf.setFont(font_name, size)
            pdf.drawString(layout.margin, top + (leading - size), line)
            chunk.append(line)
        pages.append(chunk)
        pdf.showPage()
    pdf.save()
    return buf.getvalue(), pages
