"""Repair of pages printed at test time (Chromium, fpdf2) and broken on purpose.

Skia embeds every font as an Identity-H subset with its TrueType ``cmap`` and
draws bold CJK headings through Type3 fonts of a few glyphs each, with no
program at all. The repair must give back poppler's text of the page as
printed, exactly.

Skipped when Chromium is absent (Debian: ``apt-get install chromium``).
"""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from _producers import CHROMIUM, CJK_FONT, norm, print_with_chromium, repaired_first_page

from pytest_textlayer.generators.breakers import break_pdf, poppler_pages
from pytest_textlayer.repairs.repairer import repair

TEXTS = {
    "fr": "Le comité a examiné le budget",
    "zh": "委员会审查了年度报告，并同意明年的预算应优先用于维护现有建筑",
    "ja": "委員会は年次報告書を検討し、来年度の予算は新たな建設を始める前に",
}

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
    pytest.mark.skipif(
        not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
        reason="fonts-dejavu-core is needed to build the PDFs",
    ),
]


def _print(folder: Path, name: str, body: str, lang: str) -> bytes:
    if lang in ("zh", "ja") and not CJK_FONT.exists():
        pytest.skip("fonts-droid-fallback is needed for CJK pages")
    page = folder / f"{name}.html"
    page.write_text(
        f"<!doctype html><html lang='{lang}'><meta charset='utf-8'>"
        f"<body style='font-family: DejaVu Sans, Droid Sans Fallback'>{body}</body></html>",
        encoding="utf-8",
    )
    target = folder / f"{name}.pdf"
    if not print_with_chromium(page, target):
        pytest.fail(f"chromium wrote no PDF for {name}")
    return target.read_bytes()



@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_a_scramble_the_model_cannot_see_gives_way_to_the_fonts_own_cmap(
    tmp_path: Path, lang: str
) -> None:
    """A short page, or CJK scrambled into other common ideographs, still passes the
    letter-pair model; the font's own cmap naming most drawn letters otherwise condemns
    the map (as the classifier's cross-check does) and its reading replaces it."""
    body = f"<p style='font-size:40px'>{html.escape(TEXTS[lang])}</p><p>Page 1</p>"
    data = _print(tmp_path, f"{lang}_short", body, lang)
    truth, got = repaired_first_page(tmp_path, data, "scramble")
    assert got == truth
    # The unbroken page is left as it is.
    out = tmp_path / "orig.fixed.pdf"
    (tmp_path / "orig.pdf").write_bytes(data)
    repair(tmp_path / "orig.pdf", out, ocr="never")
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


BODIES = {
    "zh": "本文介绍了一种新的方法，用于分析大规模数据集中的模式。"
          "实验结果表明，该方法在准确性和效率方面均优于现有技术。",
    "ja": "本稿では、大規模なデータセットのパターンを分析するための新しい手法を紹介する。"
          "実験の結果、この手法は既存の技術よりも優れていることが示された。",
}


@pytest.mark.parametrize(("lang", "heading"), [
    ("zh", "研究方法"), ("ja", "第三章 結果と考察"), ("zh", "はじめに"),
    ("ja", "設定温度を変えたいとき"),
])
def test_a_cjk_heading_drawn_by_thin_type3_fonts_follows_the_offset_the_body_proves(
    tmp_path: Path, lang: str, heading: str
) -> None:
    """Skia draws a bold CJK heading through Type3 fonts of a glyph or two, with no program.
    Shifted with the body, each alone is too short to judge (a shifted ideograph is still an
    ideograph); together, beside the body whose cmap proves the offset, they move back.
    With the body alone shifted, the heading is right and stays."""
    body = html.escape(BODIES[lang])
    page = (f"<h1>{html.escape(heading)}</h1><p>{body}</p><p>{body}</p>"
            f"<p><b>{html.escape(heading[:3])}</b> {body[:30]}</p>")
    data = _print(tmp_path, f"{lang}_heading", page, lang)
    truth, got = repaired_first_page(tmp_path, data, "shift")
    assert got == truth
    variant = break_pdf(data, "shift", select="main")
    broken = tmp_path / "main.pdf"
    broken.write_bytes(variant.pdf)
    repair(broken, tmp_path / "main.fixed.pdf", ocr="never")
    got = norm(poppler_pages((tmp_path / "main.fixed.pdf").read_bytes())[0])
    assert heading.split()[0] in got
    assert got == norm(variant.truth[0])


def test_a_ligature_the_shaper_wrote_as_letters_comes_back_as_letters(tmp_path: Path) -> None:
    """fpdf2 shaping with HarfBuzz draws the ff/fi/fl ligature glyphs and writes their letters
    ("ff") in the ToUnicode; the font's cmap reaches those glyphs through U+FB00-U+FB02. A
    shifted or permuted map keeps two characters for the code: the repair writes letters. A
    map that says nothing (private use, U+FFFD, a name) leaves the cmap's ligature alone as
    evidence: the repair writes letters too, as shaping producers do."""
    fpdf = pytest.importorskip("fpdf")
    pytest.importorskip("uharfbuzz")
    doc = fpdf.FPDF()
    doc.add_page()
    doc.add_font("Serif", "", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    doc.set_font("Serif", size=12)
    doc.set_text_shaping(True)
    doc.multi_cell(0, 8, "The official staff office offered a final affidavit to the first "
                         "fluent officer, who filed it in the office of the chief. " * 3)
    data = bytes(doc.output())
    for breaker in ("shift", "scramble", "pua", "collapse", "tounicode-name"):
        truth, got = repaired_first_page(tmp_path, data, breaker)
        assert "ff" in truth and "\ufb00" not in truth
        assert got == truth, breaker
