"""A small invoicing program that writes PDFs with reportlab.

It stands in for any PDF producer a team tests in CI. Set
``INVOICE_BROKEN_FONTS=1`` to switch on a post-processing step that embeds
the fonts the way some real pipelines do: as Identity-H CID fonts with no
ToUnicode map and no cmap table, so the invoice looks right on screen but its
text cannot be extracted, searched or read aloud.
"""

from .render import SAMPLE_TEXT, Invoice, Line, render_invoice, write_invoice

__all__ = ["SAMPLE_TEXT", "Invoice", "Line", "render_invoice", "write_invoice"]
