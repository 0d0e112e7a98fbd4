"""Chromium's print-to-PDF (Skia), a producer behind most HTML-to-PDF pipelines, in nine scripts.

Skia writes every font as an Identity-H subset with a ToUnicode, splits one
font into several objects, and draws bold and underline decorations as
Type3 fonts. Its pages must all be readable; broken on purpose (the real
breakers of :mod:`pytest_textlayer.generators.breakers`), every page the breaker made
bad must be flagged and every page it left readable must stay OK.

Skipped when Chromium is absent (Debian: ``apt-get install chromium``).
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from _producers import (
    BREAKERS,
    CHROMIUM,
    CJK_FONT,
    SELECTIONS,
    SENTENCES,
    assert_every_page_readable,
    misses,
    print_with_chromium,
)

TEXTS = {
    **{lang: SENTENCES[lang] for lang in ("en", "fr", "pl", "ru", "el", "ar", "he", "vi")},
    "zh": "委员会审查了年度报告，并同意明年的预算应优先用于维护现有建筑，"
          "然后再开始任何新的建设工程。",
}

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
    pytest.mark.skipif(
        not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
        reason="fonts-dejavu-core is needed to build the PDFs",
    ),
]


def _page(lang: str, text: str) -> str:
    """A report page: heading, prose, emphasis, a list, a table of amounts and dates, code."""
    t = html.escape(text)
    words = text.split() if lang != "zh" else [text[i:i + 4] for i in range(0, 40, 4)]
    rows = "".join(
        f"<tr><td>{html.escape(w)}</td><td>{(i + 1) * 17.5:,.2f}</td>"
        f"<td>2026-0{i % 9 + 1}-1{i}</td></tr>" for i, w in enumerate(words[:8]))
    items = "".join(f"<li>{html.escape(w)}</li>" for w in words[:5])
    direction = "rtl" if lang in ("ar", "he") else "ltr"
    return (
        f"<!doctype html><html lang='{lang}' dir='{direction}'><meta charset='utf-8'>"
        "<body style='font-family: DejaVu Sans, Droid Sans Fallback'>"
        f"<h1 style='font-family: DejaVu Serif'>{t[:40]}</h1>"
        + "".join(f"<p>{t}</p>" for _ in range(3))
        + f"<p><b>{t[:60]}</b> <i>{t[60:140]}</i> <u>{t[:20]}</u></p>"
        f"<ul>{items}</ul><table border='1'>{rows}</table>"
        f"<pre>{t[:50]}</pre></body></html>"
    )


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("chromium")
    out: dict[str, bytes] = {}
    for lang, text in TEXTS.items():
        if lang == "zh" and not CJK_FONT.exists():
            continue  # no CJK font: Chromium would draw empty boxes
        page = folder / f"{lang}.html"
        page.write_text(_page(lang, text), encoding="utf-8")
        target = folder / f"{lang}.pdf"
        if not print_with_chromium(page, target):
            pytest.fail(f"chromium wrote no PDF for {lang}")
        out[lang] = target.read_bytes()
    return out


def test_every_page_chromium_prints_is_readable(pdfs: dict[str, bytes]) -> None:
    assert b"Skia/PDF" in pdfs["en"]
    assert_every_page_readable(pdfs)


@pytest.mark.parametrize("select", SELECTIONS)
@pytest.mark.parametrize("breaker", BREAKERS)
def test_broken_copies_are_flagged_and_untouched_pages_stay_ok(
    pdfs: dict[str, bytes], breaker: str, select: str
) -> None:
    missed = [m for lang, data in pdfs.items() for m in misses(lang, data, breaker, select)]
    assert not missed, "\n".join(missed)
