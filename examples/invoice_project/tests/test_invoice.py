"""The invoice's text layer, checked three ways: marker, fixture, explicit assertion."""

from __future__ import annotations

import pytest
from invoice import SAMPLE_TEXT, Invoice, Line, write_invoice
from invoice.render import SAMPLE

from pytest_textlayer import assert_text_layer_readable


@pytest.mark.textlayer(lang="en")
def test_invoice_is_written(tmp_path):
    # The marker checks every PDF this test leaves under tmp_path once it passes.
    path = write_invoice(SAMPLE, tmp_path / "invoice.pdf")
    assert path.stat().st_size > 1000


def test_totals_are_searchable(tmp_path, textlayer):
    # The fixture checks now, records the report, and fails only with --textlayer.
    path = write_invoice(SAMPLE, tmp_path / "invoice.pdf")
    report = textlayer.check(path, contains=["Total due", "2,059.30 EUR"])
    assert len(report.pages) == 1


def test_customer_name_can_be_copied(tmp_path):
    # An explicit assertion always enforces: the author asked for it.
    invoice = Invoice("2026-0043", "Zoë Müller GmbH", (Line("Audit", 1, 990.0),))
    path = write_invoice(invoice, tmp_path / "invoice.pdf")
    assert_text_layer_readable(path, contains=SAMPLE_TEXT + ["Zoë Müller GmbH"])
