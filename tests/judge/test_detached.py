"""The page helper judges a page only when its report needs nothing of earlier pages.

Each page of a generated document is judged alone (`judge_alone`, as the
helper does) and compared with the report the whole document gets in one
process, where pages are judged in order with what earlier pages proved.
"""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pytest

from pytest_textlayer import CheckSettings, Verdict, classify
from pytest_textlayer.generators import generate
from pytest_textlayer.judge import classifier
from pytest_textlayer.judge.detached import judge_alone
from pytest_textlayer.model import PageReport
from pytest_textlayer.pdf.content import scan_page

FAMILIES = ["readable", "image-only", "blank", "image-with-ocr-layer", "shifted", "severed",
            "scrambled", "partial"]


@pytest.fixture(scope="module")
def document() -> bytes:
    return generate("mixed", families=FAMILIES).pdf


def _alone(pdf_bytes: bytes) -> list[tuple[PageReport, bool] | None]:
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        cache: dict[Any, Any] = {}
        return [judge_alone(classifier.classify_page, i, scan_page(pdf, i, cache),
                            CheckSettings(), None)
                for i in range(len(pdf.pages))]


def test_pages_judged_alone_get_the_report_of_the_document_in_order(document: bytes) -> None:
    in_order = classify(document).pages
    alone = _alone(document)
    judged = {FAMILIES[i]: found for i, found in enumerate(alone) if found is not None}
    # sound fonts (readable, partial within the limit) and pages with nothing drawn
    assert set(judged) == {"readable", "image-only", "blank", "partial"}
    for i, found in enumerate(alone):
        if found is not None:
            assert found[0] == in_order[i]
    # the lean-walk hint: set by sound fonts, not by a page with no text at all
    assert judged["readable"][1] is True
    assert judged["image-only"][1] is False
    assert {p.verdict for p in in_order} >= {Verdict.READABLE, Verdict.ABSENT, Verdict.BLANK}


def test_a_page_the_language_rung_judges_stays_in_order(document: bytes) -> None:
    # An invisible OCR layer is judged by language, with what earlier pages proved.
    ocr = FAMILIES.index("image-with-ocr-layer")
    assert classify(document).pages[ocr].decided_by == "language"
    assert _alone(document)[ocr] is None


def test_a_page_the_language_rung_judges_carries_the_judgements_of_its_words(
        document: bytes) -> None:
    """Judged in order later, its words are judged here ahead: the judgements it carries are
    those a judgement made now gives."""
    from pytest_textlayer.lang.langmodel import judge

    ocr = FAMILIES.index("image-with-ocr-layer")
    with pikepdf.open(io.BytesIO(document)) as pdf:
        content = scan_page(pdf, ocr, {})
        assert judge_alone(classifier.classify_page, ocr, content, CheckSettings(), None) is None
    assert content.ahead
    for (text, lang, min_pairs), judgement in content.ahead.items():
        assert text.strip() and judge(text, lang=lang, min_pairs=min_pairs) == judgement


def test_a_page_that_fails_stays_in_order_for_the_readers_sample(document: bytes) -> None:
    # Its sample is what PDFium extracts; PDFium's document lives in the judging process.
    alone = _alone(document)
    for family in ("shifted", "severed", "scrambled"):
        assert alone[FAMILIES.index(family)] is None


def test_a_page_whose_judging_searched_for_a_shift_stays_in_order(
        document: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a search finds may rest on the readings earlier searches made (textrepair._RECENT).
    from pytest_textlayer.lang.textrepair import find_shift

    real = classifier.static

    def searching(*args: Any, **kwargs: Any) -> Any:
        find_shift("Ymj vznhp gwtbs ktc ozrux tajw ymj qfed itl")
        return real(*args, **kwargs)

    monkeypatch.setattr(classifier, "static", searching)
    assert _alone(document)[FAMILIES.index("readable")] is None
