"""Pages like a vouched one are walked lean (the sample's text only), and judged the same."""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pytest

from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.judge.decision import SAMPLE_LIMIT
from pytest_textlayer.pdf import pagescan, pagetext
from pytest_textlayer.pdf.content import scan_page

#: Four pages a part, each part's fonts its own: from the third readable page on, the fonts
#: have earned trust and the next pages are walked lean; where the part changes (new fonts,
#: bad ones), the lean guess is wrong and the page is walked again in full.
FAMILIES = ["readable", "scrambled", "readable", "shifted", "mixed-fonts", "pua", "partial",
            "collapsed"]
TEXT = "Annual report\n" + ("The committee reviews the annual report, its appendices and the "
                            "auditors' notes on revenue recognition before the meeting. ") * 25


@pytest.fixture(scope="module")
def document() -> bytes:
    return generate("mixed", TEXT, pages=4, families=FAMILIES, size=9.0).pdf


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts lean walks, full walks and second walks of a page (the real walks run: this only
    listens)."""
    count = {"lean": 0, "full": 0, "again": 0}
    seen: set[int] = set()
    real_scan = pagescan.scan_page

    def scan(pdf: Any, index: int, cache: Any, budget: int = pagetext.TEXT_BUDGET) -> Any:
        count["lean" if budget < pagetext.TEXT_BUDGET else "full"] += 1
        count["again"] += index in seen
        seen.add(index)
        return real_scan(pdf, index, cache, budget)

    monkeypatch.setattr(pagescan, "scan_page", scan)
    return count


def test_lean_walks_give_the_report_full_walks_give(document: bytes, walks: dict[str, int],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    lean = classify(document)
    assert walks["lean"] >= 5  # the readable runs after the first pages were walked lean
    assert walks["again"] >= 1  # and a guess that went wrong was walked again
    assert len({p.verdict for p in lean.pages}) >= 3
    monkeypatch.setattr(pagescan, "LEAN_BUDGET", pagetext.TEXT_BUDGET)  # every walk in full
    assert classify(document).to_dict() == lean.to_dict()


@pytest.mark.fresh_process  # the helper starts only where no other thread runs
def test_lean_walks_with_a_helper_too(document: bytes, walks: dict[str, int],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pagescan.ENV, "1")  # beside other tests, the machine is busy
    if not pagescan.helper_possible(pagescan.MIN_PAGES):
        pytest.skip("needs Linux and two usable cores")
    monkeypatch.setattr(pagescan, "MIN_PAGES", 4)
    starts: list[int] = []
    real = pagescan._Helper.start

    def counted(*args: Any) -> Any:
        starts.append(1)
        return real(*args)

    monkeypatch.setattr(pagescan._Helper, "start", staticmethod(counted))
    shared = classify(document, page_helper=True)
    assert starts == [1]
    monkeypatch.setattr(pagescan, "LEAN_BUDGET", pagetext.TEXT_BUDGET)
    assert classify(document).to_dict() == shared.to_dict()


def test_a_lean_page_keeps_its_sample(document: bytes) -> None:
    pdf = pikepdf.open(io.BytesIO(document))
    full = scan_page(pdf, 0, {})
    lean = scan_page(pdf, 0, {}, pagetext.LEAN_BUDGET)
    assert lean.text_cut and not full.text_cut
    assert full.text.startswith(lean.text)
    assert len(lean.text.strip()) >= SAMPLE_LIMIT
    assert (lean.glyphs, lean.bad_glyphs) == (full.glyphs, full.bad_glyphs)


def test_a_font_only_a_reader_decodes_counts_past_the_budget() -> None:
    """Whether a reader must give the text is known even when the text was cut short."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import CIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(CIDFont("HeiseiMin-W3", "90ms-RKSJ-H"))  # a CJK collection's codes
    out = io.BytesIO()
    page = canvas.Canvas(out, invariant=1)
    page.setFont("Helvetica", 10)
    for line in range(40):
        page.drawString(40, 800 - 12 * line, "The committee reviews the annual report today.")
    page.setFont("HeiseiMin-W3-90ms-RKSJ-H", 12)
    page.drawString(40, 250, "日本語のテキスト".encode("shift_jis").decode("latin-1"))
    page.save()
    pdf = pikepdf.open(io.BytesIO(out.getvalue()))
    lean = scan_page(pdf, 0, {}, 300)
    assert lean.text_cut and "日" not in lean.text
    assert not lean.text_complete
    assert not scan_page(pdf, 0, {}).text_complete
