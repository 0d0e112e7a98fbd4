"""One glyph, several characters: a shifted map still says which one the producer wrote.

A font's cmap often reaches one glyph by several code points (Liberation
Sans: U+00B7 and U+2219, U+2044 and U+2215, a space and U+00A0; Persian
fonts: Arabic and Farsi yeh). Read from the program, the repair must pick
one; when the font's ToUnicode was shifted by a constant, moving it back
gives the producer's own choice, which the cmap confirms.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _paths import REAL_CORPUS

from pytest_textlayer.breakers import break_pdf, poppler_pages
from pytest_textlayer.repairer import repair

LIBERATION = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")


def _norm(text: str) -> str:
    return " ".join(text.split())


def _repaired(tmp_path: Path, data: bytes, breaker: str) -> tuple[str, str]:
    variant = break_pdf(data, breaker)
    assert variant.applies
    broken = tmp_path / f"{breaker}.pdf"
    broken.write_bytes(variant.pdf)
    out = tmp_path / f"{breaker}.fixed.pdf"
    repair(broken, out, ocr="never")
    return _norm(variant.truth[0]), _norm(poppler_pages(out.read_bytes())[0])


def test_a_shifted_map_keeps_the_character_the_producer_chose_for_a_shared_glyph(
    tmp_path: Path,
) -> None:
    """fpdf2 writes U+2219 and U+2215, glyphs Liberation Sans shares with U+00B7 and U+2044;
    the program alone would give the lower code points."""
    fpdf = pytest.importorskip("fpdf")
    if not LIBERATION.exists():
        pytest.skip("fonts-liberation is needed")
    doc = fpdf.FPDF()
    doc.add_page()
    doc.add_font("Lib", "", str(LIBERATION))
    doc.set_font("Lib", size=12)
    doc.multi_cell(0, 8, (
        "The speed limit on the old coast road is 50 km\u2215h, and the vector product "
        "a \u2219 b is written with a bullet operator. The committee reviewed the annual "
        "report and agreed that the budget should first maintain the buildings. ") * 3)
    truth, got = _repaired(tmp_path, bytes(doc.output()), "shift")
    assert "50 km\u2215h" in truth and "a \u2219 b" in truth
    assert got == truth


def test_persian_yeh_and_keheh_come_back_as_word_wrote_them(tmp_path: Path) -> None:
    """B Nazanin subsets reach one glyph by Arabic and Farsi yeh (and kaf/keheh); Word's
    ToUnicode wrote Farsi yeh for final forms, Arabic yeh for initial ones, keheh throughout.
    Shifted by -29, moving the map back keeps each choice; the cmap confirms it."""
    source = REAL_CORPUS / "docling__right_to_left_03.pdf"
    if not source.exists():
        pytest.skip("real corpus is absent")
    variant = break_pdf(source.read_bytes(), "shift")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(variant.pdf)
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    truth, got = _norm(variant.truth[0]), _norm(poppler_pages(fixed.read_bytes())[0])
    for letter in ("\u06cc", "\u064a", "\u06a9", "\u0643"):  # ی ي ک ك
        assert got.count(letter) == truth.count(letter), hex(ord(letter))
