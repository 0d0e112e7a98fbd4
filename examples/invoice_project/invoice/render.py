"""Lay out an invoice with reportlab and an embedded TrueType font."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path

#: The font the invoices embed (fonts-dejavu-core on Debian).
FONT_FILE = Path(os.environ.get("INVOICE_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))


@dataclass(frozen=True)
class Line:
    description: str
    quantity: int
    unit_price: float

    @property
    def total(self) -> float:
        return self.quantity * self.unit_price


@dataclass(frozen=True)
class Invoice:
    number: str
    customer: str
    lines: tuple[Line, ...] = field(default_factory=tuple)
    currency: str = "EUR"

    @property
    def total(self) -> float:
        return sum(line.total for line in self.lines)


#: Words every invoice shows, whatever its lines: what a reader must be able to extract.
SAMPLE_TEXT = ["Billed to:", "Total due", "Payment within thirty days"]


def broken_fonts_requested() -> bool:
    """The switch: a pipeline step that loses the text layer (off by default)."""
    return os.environ.get("INVOICE_BROKEN_FONTS", "") not in ("", "0", "no", "false")


def render_invoice(invoice: Invoice, *, broken_fonts: bool | None = None) -> bytes:
    """The invoice as PDF bytes; the fonts step runs when the switch is on."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("InvoiceSans", str(FONT_FILE)))
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4, pageCompression=0)
    pdf.setTitle(f"Invoice {invoice.number}")
    width, height = A4
    y = height - 72
    pdf.setFont("InvoiceSans", 20)
    pdf.drawString(72, y, f"Invoice {invoice.number}")
    y -= 36
    pdf.setFont("InvoiceSans", 11)
    pdf.drawString(72, y, f"Billed to: {invoice.customer}")
    y -= 30
    for line in invoice.lines:
        pdf.drawString(72, y, f"{line.quantity} × {line.description}")
        pdf.drawRightString(width - 72, y, f"{line.total:,.2f} {invoice.currency}")
        y -= 18
    y -= 12
    pdf.drawString(72, y, "Total due")
    pdf.drawRightString(width - 72, y, f"{invoice.total:,.2f} {invoice.currency}")
    y -= 40
    pdf.setFont("InvoiceSans", 9)
    pdf.drawString(72, y, "Payment within thirty days to the account shown on our website.")
    pdf.showPage()
    pdf.save()
    data = out.getvalue()
    if broken_fonts_requested() if broken_fonts is None else broken_fonts:
        from .cidfonts import embed_as_identity_cid

        data = embed_as_identity_cid(data)
    return data


def write_invoice(invoice: Invoice, path: str | os.PathLike[str], **options: bool) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(render_invoice(invoice, **options))
    return target


SAMPLE = Invoice(
    number="2026-0042",
    customer="Société Générale des Fromages, Lyon",
    lines=(
        Line("Consulting, on-site workshop", 2, 850.0),
        Line("Travel expenses (flat rate)", 1, 120.5),
        Line("Licence renewal for the reporting service", 12, 19.9),
    ),
)
