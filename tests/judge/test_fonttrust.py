"""The language rung reuses its judgement for later pages drawn by the same fonts (FontTrust).

Documents are drawn with reportlab or built from the fixture factory's
pages; each reused verdict is compared with the verdict the same page gets
when it is checked alone (a fresh trust, so judged in full).
"""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

from pytest_textlayer import CheckSettings, Verdict, classify
from pytest_textlayer.generators import generate
from pytest_textlayer.judge.fonttrust import FontTrust
from pytest_textlayer.pdf.content import scan_page

PROSE = (
    "The committee reviewed the annual report and the auditors' notes on revenue "
    "recognition, then asked the board to publish the appendices before the meeting. "
)
REUSED = "not judged again"


#: Monospaced TrueType subsets whose ToUnicode nothing in the program vouches for (reportlab
#: keeps no post names, and equal widths rank nothing): the language rung judges their text.
#: The standard 14 fonts would not do: their route is sound, and language never judges them.
MONO = Path("/usr/share/fonts/truetype/dejavu")
BODY, BOLD, OTHER = "DejaVuSansMono", "DejaVuSansMono-Bold", "DejaVuSansMono-Oblique"


def prose_pdf(pages: int, *, invisible_on: int = 0, other_font_on: int = 0,
              bold_lines: dict[int, int] | None = None) -> bytes:
    """Pages of monospaced prose; `bold_lines` maps a page to how many lines are in bold."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    for name in (BODY, BOLD, OTHER):
        pdfmetrics.registerFont(TTFont(name, str(MONO / f"{name}.ttf")))
    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    for n in range(1, pages + 1):
        text = c.beginText(40, 800)
        text.setFont(OTHER if n == other_font_on else BODY, 9)
        if n == invisible_on:
            text.setTextRenderMode(3)
        bold = (bold_lines or {}).get(n, 0)
        for line in range(45):
            text.setFont(BOLD if line < bold else
                         OTHER if n == other_font_on else BODY, 9)
            text.textLine((PROSE * 2)[line % 40:line % 40 + 95])
        c.drawText(text)
        c.showPage()
    c.save()
    return out.getvalue()


def alone(data: bytes, number: int) -> Verdict:
    report = classify(data, settings=CheckSettings(pages=frozenset({number})))
    return report.pages[0].verdict


def test_later_pages_drawn_by_judged_fonts_reuse_the_judgement() -> None:
    data = prose_pdf(8)
    report = classify(data)
    reused = [p.number for p in report.pages if any(REUSED in e for e in p.evidence)]
    judged = [p.number for p in report.pages if p.number not in reused]
    assert judged and reused and max(judged) < min(reused)
    assert all(p.verdict is Verdict.READABLE for p in report.pages)
    assert all(p.score is None for p in report.pages if p.number in reused)
    assert [p.verdict for p in report.pages] == [alone(data, n) for n in range(1, 9)]


def test_a_page_drawn_by_another_font_is_judged_afresh() -> None:
    data = prose_pdf(8, other_font_on=7)
    page = classify(data).pages[6]
    assert not any(REUSED in e for e in page.evidence)
    assert page.decided_by == "language" and page.score is not None


def test_a_page_with_invisible_text_is_judged_afresh() -> None:
    data = prose_pdf(8, invisible_on=7)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert scan_page(pdf, 6, {}).invisible_glyphs > 0
    report = classify(data)
    assert not any(REUSED in e for e in report.pages[6].evidence)
    assert any(REUSED in e for e in report.pages[7].evidence)


def test_garbled_pages_reuse_the_failed_judgement() -> None:
    text = ("The quick brown fox jumps over the lazy dog while the committee reviews the "
            "annual report. " * 4 + "\n") * 12
    # Monospaced: no widths to rank, so the language rung (and its reuse) decides the pages.
    mono = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
    if not mono.exists():
        pytest.skip("needs fonts-dejavu-core")
    single = generate("scrambled", text, font=mono).pdf
    src = pikepdf.open(io.BytesIO(single))
    doc = pikepdf.new()
    for _ in range(8):
        doc.pages.append(src.pages[0])
    out = io.BytesIO()
    doc.save(out)
    data = out.getvalue()
    report = classify(data)
    assert all(p.verdict is Verdict.GARBLED for p in report.pages)
    assert any(REUSED in e for e in report.pages[-1].evidence)
    assert alone(data, 8) is Verdict.GARBLED


def test_a_font_with_both_outcomes_is_never_vouched_for() -> None:
    data = prose_pdf(1)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = scan_page(pdf, 0, {})
    trust = FontTrust()
    for n in range(3):
        trust.credit(page, "reads", "en", n + 1)
    assert trust.vouch(page) is not None
    trust.credit(page, "no language", "no pairs", 4)
    assert trust.vouch(page) is None


def test_minority_fonts_ride_along_within_the_share_judged_pages_showed() -> None:
    bold = {n: 2 for n in range(1, 9)}
    bold[7] = 20  # far more bold than any judged page had
    data = prose_pdf(8, bold_lines=bold)
    report = classify(data)
    reused = {p.number for p in report.pages if any(REUSED in e for e in p.evidence)}
    assert 8 in reused and 7 not in reused
    assert [p.verdict for p in report.pages] == [alone(data, n) for n in range(1, 9)]
