"""A fallback font drawing one accented letter at a time is repaired from its program.

When the main font lacks a script's accented letters, producers draw them
from a fallback font, one or two glyphs inside the main font's words. That
font's own text ('ỹ', 'ể', 'ườ') reads as no language whether its map is
right or scrambled, so the model cannot choose; its embedded cmap, which
contradicts the scrambled map letter by letter, must win then (WeasyPrint
with URW fonts and DejaVu fallback, Vietnamese: 4 pages in 5 stayed wrong).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _producers import DEJAVU, SENTENCES, repaired_first_page

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")


def _latin_only(tmp_path: Path) -> Path:
    """DejaVu Sans cut down to ASCII: a main font with no Vietnamese letters."""
    from fontTools import subset

    opts = subset.Options()
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.drop_tables += ["FFTM"]
    font = subset.load_font(str(DEJAVU / "DejaVuSans.ttf"), opts)
    cutter = subset.Subsetter(opts)
    cutter.populate(unicodes=range(0x20, 0x7F))
    cutter.subset(font)
    path = tmp_path / "latin.ttf"
    subset.save_font(font, str(path), opts)
    return path


@pytest.mark.parametrize("breaker", ["scramble", "pua", "shift"])
def test_vietnamese_letters_of_a_fallback_font_come_back(tmp_path: Path, breaker: str) -> None:
    fpdf = pytest.importorskip("fpdf")
    doc = fpdf.FPDF()
    doc.add_page()
    doc.add_font("Latin", "", str(_latin_only(tmp_path)))
    doc.add_font("Serif", "", str(DEJAVU / "DejaVuSerif.ttf"))
    doc.set_font("Latin", size=12)
    doc.set_fallback_fonts(["Serif"])
    doc.multi_cell(0, 8, (SENTENCES["vi"] + " ") * 4)
    truth, got = repaired_first_page(tmp_path, bytes(doc.output()), breaker)
    assert SENTENCES["vi"][:30] in truth
    assert got == truth


@pytest.mark.skipif(shutil.which("pdftocairo") is None, reason="needs poppler's pdftocairo")
def test_cairo_split_font_takes_the_documents_offset_judged_in_its_words(tmp_path: Path) -> None:
    """cairo re-prints one DejaVu Serif as a WinAnsi TrueType and a composite font for the
    letters past WinAnsi, the latter with no cmap, drawing one letter at a time inside the
    former's words. Both maps shifted by -29: the composite font's letters shifted stay
    Vietnamese letters ('ọ' as 'Ằ'), which its own text cannot tell apart; around them, the
    words read only under the document's offset."""
    import subprocess

    fpdf = pytest.importorskip("fpdf")
    doc = fpdf.FPDF()
    doc.add_page()
    doc.add_font("Serif", "", str(DEJAVU / "DejaVuSerif.ttf"))
    doc.set_font("Serif", size=12)
    doc.multi_cell(0, 8, (SENTENCES["vi"] + " ") * 4)
    source, cairo = tmp_path / "source.pdf", tmp_path / "cairo.pdf"
    source.write_bytes(bytes(doc.output()))
    subprocess.run(["pdftocairo", "-pdf", str(source), str(cairo)], check=True)
    truth, got = repaired_first_page(tmp_path, cairo.read_bytes(), "shift")
    assert SENTENCES["vi"][:30] in truth
    assert got == truth
