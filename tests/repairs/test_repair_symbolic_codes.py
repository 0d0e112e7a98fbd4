"""A symbolic TrueType subset whose codes are the text: read by its codes when nothing else says.

Ghostscript rewrites a document's TrueType subsets as simple symbolic
fonts: a (3,0) cmap at U+F000 plus the code, glyphs named 'glyph00004',
the program saying nothing of the text, while the codes it kept are the
text's own WinAnsi codes. When such a font's ToUnicode maps into the
private use area, the codes read as WinAnsi characters are the only
reading left; the letter-pair model says whether they are text. The
heading's font, too short to judge, takes the reading the body's font
proved.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from _producers import DEJAVU, SENTENCES, norm

from pytest_textlayer.generators.breakers import poppler_pages
from pytest_textlayer.repairs.repairer import repair

pytestmark = [
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler"),
    pytest.mark.skipif(shutil.which("gs") is None, reason="needs Ghostscript"),
]


def _ghostscript_page(tmp_path: Path) -> bytes:
    """reportlab's DejaVu subsets (ASCII codes kept), redistilled by Ghostscript."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DVSerif", str(DEJAVU / "DejaVuSerif.ttf")))
    pdfmetrics.registerFont(TTFont("DVBold", str(DEJAVU / "DejaVuSans-Bold.ttf")))
    source = tmp_path / "source.pdf"
    c = canvas.Canvas(str(source), pagesize=A4)
    c.setFont("DVBold", 16)
    c.drawString(60, 800, "Annual report")
    c.setFont("DVSerif", 11)
    words = ((SENTENCES["en"] + " ") * 6).split()
    y, line = 770.0, ""
    for word in words:
        if len(line) + len(word) > 80:
            c.drawString(60, y, line)
            y, line = y - 16, ""
        line += word + " "
    c.drawString(60, y, line)
    c.showPage()
    c.save()
    out = tmp_path / "gs.pdf"
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
                    f"-sOutputFile={out}", str(source)], check=True, capture_output=True)
    return out.read_bytes()


def _private_use_maps(data: bytes) -> bytes:
    """Every font of the page given a ToUnicode into the private use area (a broken map)."""
    import pikepdf

    from pytest_textlayer.repairs.tounicode_writer import attach

    with pikepdf.open(io.BytesIO(data)) as pdf:
        for font in pdf.pages[0].Resources.Font.values():
            attach(pdf, font, {code: chr(0xE000 + code) for code in range(0x20, 0x100)})
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


def test_ghostscript_subsets_read_by_their_codes(tmp_path: Path) -> None:
    original = _ghostscript_page(tmp_path)
    truth = norm(poppler_pages(original)[0])
    assert truth.startswith("Annual report The committee reviewed")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(_private_use_maps(original))
    shown = norm(poppler_pages(broken.read_bytes())[0]).replace(" ", "")
    assert shown and all("\ue000" <= ch <= "\uf8ff" for ch in shown)
    out = tmp_path / "fixed.pdf"
    report = repair(broken, out, ocr="never")
    assert report.ok
    assert {s for f in report.fonts for s in f.sources} == {"codes"}
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


def test_a_symbol_cmap_numbering_glyphs_is_no_route_but_one_at_the_codes_is() -> None:
    """Ghostscript's cmaps at U+F001... in order of first use say nothing; a symbol cmap at
    U+F020 plus WinAnsi codes, or a Unicode one, says what each glyph is."""
    from pytest_textlayer.generators.fontprograms import _mostly_text

    assert not _mostly_text({0xF000 + n: f"g{n}" for n in range(1, 82)})
    assert _mostly_text({0xF000 + c: f"g{c}" for c in b"Annual report"})
    assert _mostly_text({ord(c): f"g{c}" for c in "Komisja"})
    assert not _mostly_text({0xE000 + n: f"g{n}" for n in range(40)})
