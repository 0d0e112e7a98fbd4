"""The report object: round trips, renderings, and the contract's JSON keys."""

from __future__ import annotations

import json

import pytest

from pytest_textlayer.model import (
    MAX_PAGES_SHOWN,
    DocumentReport,
    FontReport,
    FontStatus,
    PageReport,
    Verdict,
)
from pytest_textlayer.settings import CheckSettings, parse_pages

SEVERED = FontReport("AAAAAA+Sub", "Type0", "Identity-H", "severed", FontStatus.SEVERED, 28, 28,
                     "no ToUnicode, embedded TrueType has no cmap and no post")


def _page(number: int, verdict: Verdict, ok: bool) -> PageReport:
    return PageReport(number, verdict, ok, evidence=(SEVERED.describe(),), glyphs=28,
                      unmapped_glyphs=28 if not ok else 0, fonts=(SEVERED,),
                      sample="81,7('67$7(6',675,&7&2857", score=float("-inf"))


def test_json_has_the_contract_keys_and_round_trips() -> None:
    report = DocumentReport("a.pdf", (_page(1, Verdict.UNDECODABLE, False),))
    data = json.loads(json.dumps(report.to_dict()))
    page = data["pages"][0]
    for key in ("number", "verdict", "ok", "glyphs", "unmapped_glyphs", "evidence", "fonts",
                "sample", "score", "offset"):
        assert key in page
    assert page["score"] is None  # -inf is not JSON
    assert page["fonts"][0] == {**page["fonts"][0], "name": "AAAAAA+Sub", "route": "severed",
                                "glyphs": 28}
    assert data["ok"] is False and data["error"] is None
    again = DocumentReport.from_dict(data)
    assert again.pages[0].verdict is Verdict.UNDECODABLE
    assert again.pages[0].fonts == (SEVERED,)


def test_render_lines_headline_facts_next_action() -> None:
    report = DocumentReport("out/invoice.pdf", (_page(1, Verdict.UNDECODABLE, False),
                                                 _page(2, Verdict.READABLE, True)))
    lines = report.render_lines()
    assert lines[0] == "PDF text layer is not readable: out/invoice.pdf (1 of 2 pages bad)"
    assert lines[1].startswith("  page 1: undecodable — font AAAAAA+Sub (Type0, Identity-H)")
    assert any("extracts as: \"81,7('67$7(6" in line for line in lines)
    assert lines[-1].startswith("  next: textlayer repair out/invoice.pdf -o fixed.pdf")
    assert not any("page 2" in line for line in lines)


def test_render_caps_the_pages_shown() -> None:
    pages = tuple(_page(n, Verdict.UNDECODABLE, False) for n in range(1, MAX_PAGES_SHOWN + 4))
    lines = DocumentReport("big.pdf", pages).render_lines()
    assert any("and 3 more page(s)" in line for line in lines)


def test_error_report_is_one_line() -> None:
    report = DocumentReport("x.pdf", error="not a PDF (no %PDF- header)")
    assert report.render_lines() == ["PDF could not be read: x.pdf: not a PDF (no %PDF- header)"]
    assert not report.ok


def test_verdict_parse_names_the_choices() -> None:
    assert Verdict.parse(" Shifted ") is Verdict.SHIFTED
    with pytest.raises(ValueError, match="choose from blank, absent"):
        Verdict.parse("broken")


def test_settings_validate_and_allow() -> None:
    settings = CheckSettings().allowing(["absent"])
    assert settings.is_ok(Verdict.ABSENT) and not settings.is_ok(Verdict.GARBLED)
    with pytest.raises(ValueError, match="between 0 and 1"):
        CheckSettings(max_bad_glyphs=1.5)
    assert parse_pages("1-3, 7") == frozenset({1, 2, 3, 7})
    with pytest.raises(ValueError, match="bad page range"):
        parse_pages("a-b")
    with pytest.raises(ValueError, match="start at 1"):
        parse_pages("0")
