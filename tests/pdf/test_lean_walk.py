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
from pytest_textlayer.pdf.pagecontent import PageContent

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


def test_the_helper_walks_a_lean_page_again_before_sending_it(document: bytes) -> None:
    """A lean page the helper cannot judge would be walked again by the parent after the two
    processes meet, the helper idle by then: the helper walks it in full itself first."""
    pdf = pikepdf.open(io.BytesIO(document))
    seen: list[tuple[int, bool]] = []

    def judge(index: int, content: Any) -> tuple[str, bool] | None:
        """Page 1 is judged, page 3 needs earlier pages, page 5 more than the sample's text
        (the odd pages hold a line each: only the even ones are cut short)."""
        seen.append((index, content.text_cut))
        if index == 0 or (index == 4 and not content.text_cut):
            return f"report {index + 1}", True
        return None

    sent, lean = pagescan.helper_page(pdf, 0, {}, False, judge)
    assert isinstance(sent, pagescan.Judged) and lean
    sent, lean = pagescan.helper_page(pdf, 2, {}, lean, judge)
    assert isinstance(sent, PageContent) and not lean
    assert not sent.text_cut and sent.text == scan_page(pdf, 2, {}).text
    sent, lean = pagescan.helper_page(pdf, 4, {}, True, judge)
    assert isinstance(sent, pagescan.Judged) and sent.result == "report 5"
    assert seen == [(0, False), (2, True), (2, False), (4, True), (4, False)]
