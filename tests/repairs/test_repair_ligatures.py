"""Latin ligature glyphs come back as the text the original showed: letters or U+FB01.

The evidence differs by route. A glyph *name* ``fi`` is shown as the letters
"fi" by poppler and PDFium (pypdf, pdfminer.six and MuPDF give U+FB01), so a
simple font without ToUnicode reads as letters; a broken map that kept one
character per code (a shifted U+FB01) says the original wrote the ligature.
With no evidence left, a ligature read from a composite font's cmap is
written as letters too: shaping producers write the cluster's letters, as
the PDF reference's own ToUnicode example does.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from _ligatures import named_ligature_page
from _paths import REAL_CORPUS
from _producers import norm, repaired_first_page

from pytest_textlayer.generators.breakers import break_pdf
from pytest_textlayer.repairs.repairer import repair

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")

LINES = [
    "The \x01nal report of the o\x03ce was \x01led in the spring.",
    "A \x02ood of \x01gures \x02owed into the \x01nance o\x03ce each week.",
    "The committee \x01nished its review of the annual budget and the auditors notes.",
    "The \x01rst o\x03cial \x01gures show the \x02eet was e\x03cient in the \x01eld.",
]



@pytest.mark.parametrize("breaker", ["shift", "scramble", "pua", "collapse"])
def test_a_named_ligature_glyph_comes_back_as_the_letters_poppler_shows(
    tmp_path: Path, breaker: str
) -> None:
    """A font without ToUnicode whose Differences name the glyphs fi/fl/ffi: the repaired
    map gives the letters (the truth's text), whether the broken map kept two characters for
    the code (shift, scramble) or nothing (private use, U+FFFD)."""
    truth, got = repaired_first_page(tmp_path, named_ligature_page(LINES), breaker)
    assert "final report of the office" in truth and "\ufb01" not in truth
    assert got == truth, breaker


def test_a_shifted_single_ligature_character_stays_the_ligature(tmp_path: Path) -> None:
    """A ToUnicode that wrote U+FB01 for the glyph named fi, shifted by -29 (into unassigned
    code points): one character left for the code, so the original had the ligature."""
    import io

    import pikepdf

    from pytest_textlayer.repairs.tounicode_writer import attach

    data = named_ligature_page(LINES)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        font = pdf.pages[0].Resources.Font.F1
        ascii_map = {c: chr(c) for c in range(0x20, 0x7F)}
        attach(pdf, font, {**ascii_map, 1: "\ufb01", 2: "\ufb02", 3: "\ufb03", 4: "\ufb01"})
        out = io.BytesIO()
        pdf.save(out)
    data = out.getvalue()
    truth, got = repaired_first_page(tmp_path, data, "shift")
    assert "\ufb01nal report of the o\ufb03ce" in truth
    assert got == truth


def _corpus(name: str) -> Path:
    path = REAL_CORPUS / name
    if not path.exists():
        pytest.skip("real corpus is absent")
    return path


@pytest.mark.parametrize("breaker", ["shift", "pua", "collapse"])
def test_tex_type1_fonts_give_their_ligatures_back_as_letters(
    tmp_path: Path, breaker: str
) -> None:
    """Nimbus Type1 subsets (dvips route) with no ToUnicode: poppler shows the built-in
    encoding's glyph 'fi' as "fi"; broken and repaired, "Configuring" reads as before."""
    source = _corpus("pymupdf__cython.pdf")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(break_pdf(source.read_bytes(), breaker, select="all").pdf)
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    got = subprocess.run(["pdftotext", "-enc", "UTF-8", "-f", "7", "-l", "7", str(fixed), "-"],
                         capture_output=True, text=True, check=True).stdout
    assert "1.2.1 Configuring the" in norm(got)
