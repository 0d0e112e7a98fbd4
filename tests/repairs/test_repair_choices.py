"""A shifted map still says what the producer wrote where the program can only guess.

A font's cmap often reaches one glyph by several code points (Liberation
Sans: U+00B7 and U+2219, U+2044 and U+2215, a space and U+00A0; Persian
fonts: Arabic and Farsi yeh). Read from the program, the repair must pick
one; when the font's ToUnicode was shifted by a constant, moving it back
gives the producer's own choice, which the cmap confirms, or which is of
the same kind as the program's character.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _paths import REAL_CORPUS
from _producers import norm, repaired_first_page

from pytest_textlayer.generators.breakers import break_pdf, poppler_pages
from pytest_textlayer.repairs.repairer import repair

LIBERATION = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")



def _liberation_page(text: str) -> bytes:
    """fpdf2 writing `text` three times in Liberation Sans (embedded TrueType, a ToUnicode)."""
    fpdf = pytest.importorskip("fpdf")
    if not LIBERATION.exists():
        pytest.skip("fonts-liberation is needed")
    doc = fpdf.FPDF()
    doc.add_page()
    doc.add_font("Lib", "", str(LIBERATION))
    doc.set_font("Lib", size=12)
    doc.multi_cell(0, 8, text * 3)
    return bytes(doc.output())


def test_a_shifted_map_keeps_the_character_the_producer_chose_for_a_shared_glyph(
    tmp_path: Path,
) -> None:
    """fpdf2 writes U+2219 and U+2215, glyphs Liberation Sans shares with U+00B7 and U+2044;
    the program alone would give the lower code points."""
    page = _liberation_page(
        "The speed limit on the old coast road is 50 km\u2215h, and the vector product "
        "a \u2219 b is written with a bullet operator. The committee reviewed the annual "
        "report and agreed that the budget should first maintain the buildings. ")
    truth, got = repaired_first_page(tmp_path, page, "shift")
    assert "50 km\u2215h" in truth and "a \u2219 b" in truth
    assert got == truth


def test_persian_yeh_and_keheh_come_back_as_word_wrote_them(tmp_path: Path) -> None:
    """B Nazanin subsets reach one glyph by Arabic and Farsi yeh (and kaf/keheh); Word's
    ToUnicode wrote Farsi yeh for final forms, Arabic yeh for initial ones, keheh throughout,
    and '.' for a glyph the cmap gives as ','. Shifted by -29, moving the map back keeps each
    choice: the page reads exactly as the original."""
    source = REAL_CORPUS / "docling__right_to_left_03.pdf"
    if not source.exists():
        pytest.skip("real corpus is absent")
    truth, got = repaired_first_page(tmp_path, source.read_bytes(), "shift")
    for letter in ("\u06cc", "\u064a", "\u06a9", "\u0643"):  # ی ي ک ك
        assert got.count(letter) == truth.count(letter), hex(ord(letter))
    assert got == truth


def test_a_moved_back_value_of_another_kind_gives_way_to_the_program(tmp_path: Path) -> None:
    """A map shifted by -29 whose accented letter sat elsewhere (glyph ids of the Mac standard
    order as characters put 'é' on a symbol): moved back it is no letter, so the program's
    'é' stays; the rest of the map moved back is the producer's text."""
    import io

    import pikepdf

    from pytest_textlayer.generators.breakers import _cmap_bytes
    from pytest_textlayer.pdf.cmaps import parse_cmap

    variant = break_pdf(_liberation_page(
        "Le comité a examiné le budget annuel et a décidé que les crédits seraient d'abord "
        "consacrés à l'entretien des bâtiments. "), "shift")
    with pikepdf.open(io.BytesIO(variant.pdf)) as pdf:
        font = next(iter(pdf.pages[0].Resources.Font.values()))
        values = parse_cmap(font.ToUnicode.read_bytes()).unicode
        shifted_e = chr(ord("\u00e9") - 29)
        guillemet = chr(ord("\u00ab") - 29)  # moved back: «
        values = {c: (guillemet if t == shifted_e else t) for c, t in values.items()}
        font.ToUnicode = pdf.make_stream(_cmap_bytes(values, 2))
        out = io.BytesIO()
        pdf.save(out)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(out.getvalue())
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    got = norm(poppler_pages(fixed.read_bytes())[0])
    assert got == norm(variant.truth[0])
    assert "comité a examiné" in got
