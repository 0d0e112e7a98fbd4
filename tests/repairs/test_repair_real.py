"""Repair on real third-party PDFs (the shared corpus, read in place; skipped when absent)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _paths import REAL_CORPUS

from pytest_textlayer.model import Verdict
from pytest_textlayer.repairs.repairer import repair

CORPUS = REAL_CORPUS


def _corpus(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip("real corpus is absent")
    return path


def _poppler(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize(
    ("name", "expected", "source"),
    [
        # Identity-H TrueType subset without ToUnicode whose program keeps a cmap.
        ("opendataloader__cid-font-no-tounicode.pdf", "The quick brown fox jumps over", "cmap"),
        # A CJK subset: the buyer's name is unreadable until the cmap is inverted.
        ("pdfminer__issue_566_test_1.pdf", "黎荣", "cmap"),
    ],
)
def test_real_severed_fonts_are_repaired_from_their_own_tables(
    tmp_path: Path, name: str, expected: str, source: str
) -> None:
    src = _corpus(name)
    dst = tmp_path / "fixed.pdf"
    assert expected not in _poppler(src)
    report = repair(src, dst, ocr="never")
    assert expected in _poppler(dst)
    assert report.ok
    assert any(source in p.sources for p in report.pages)
    assert dst.stat().st_size <= 1.1 * src.stat().st_size


def test_real_severed_font_without_an_answer_stays_reported(tmp_path: Path) -> None:
    """Aller subsets with neither cmap nor post: without OCR the page stays undecodable."""
    src = _corpus("pymupdf__test_2635.pdf")
    report = repair(src, tmp_path / "out.pdf", ocr="never")
    assert [p.after for p in report.pages] == [Verdict.READABLE, Verdict.UNDECODABLE]
    assert [p.action for p in report.pages] == ["unchanged", "unchanged"]


def test_a_shifted_tex_font_keeps_its_case(tmp_path: Path) -> None:
    """pdfTeX's body font with its ToUnicode shifted by -29: 'layout' must not come back
    as 'LAYOUT' (offsets 32 apart read alike to the letter-pair model)."""
    from pytest_textlayer.generators.breakers import break_pdf

    source = _corpus("unstructured__layout-parser-paper-with-empty-pages.pdf")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(break_pdf(source.read_bytes(), "shift", select="main").pdf)
    fixed = tmp_path / "fixed.pdf"
    report = repair(broken, fixed, ocr="never")
    assert report.ok
    text = " ".join(_poppler(fixed).split())
    assert "layout detection" in text and "LAYOUT DETECTION" not in text


def _broken_and_repaired(tmp_path: Path, name: str, breaker: str) -> tuple[str, str]:
    """Poppler's text of the original and of the repaired broken copy (all fonts broken)."""
    from pytest_textlayer.generators.breakers import break_pdf

    source = _corpus(name)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(break_pdf(source.read_bytes(), breaker, select="all").pdf)
    assert " ".join(_poppler(broken).split()) != " ".join(_poppler(source).split())
    fixed = tmp_path / "fixed.pdf"
    repair(broken, fixed, ocr="never")
    return " ".join(_poppler(source).split()), " ".join(_poppler(fixed).split())


@pytest.mark.parametrize("breaker", ["pua", "collapse"])
def test_a_wrong_tounicode_gives_way_to_the_encoding_and_the_unicode_cmap(
    tmp_path: Path, breaker: str
) -> None:
    """Non-symbolic TrueType subsets with /WinAnsiEncoding and a (3,1) cmap (a PDF/UA
    producer): each code's glyph name selects the glyph through the Unicode cmap, so that
    character is what the glyph shows, whatever the ToUnicode says."""
    want, got = _broken_and_repaired(tmp_path, "opendataloader__PDFUA-Ref-2-10_Form.pdf", breaker)
    assert got == want


def test_arabic_glyphs_read_from_the_cmap_give_letters_not_presentation_forms(
    tmp_path: Path,
) -> None:
    """Word's Arabic TrueType subsets lose their ToUnicode (a name instead of a stream): the
    embedded cmap maps positional glyphs only to presentation forms (ﺗﺤﺴﯿﻦ), the letters
    (تحسين) are what the producer wrote and what search needs."""
    want, got = _broken_and_repaired(tmp_path, "docling__right_to_left_01.pdf", "tounicode-name")
    assert "\ufe97" not in got
    assert got == want


def test_fonts_too_thin_to_judge_take_the_documents_offset(tmp_path: Path) -> None:
    """Every font shifted by -29: the title page's small fonts ("Release 0.29a0", a heading)
    carry too few letters for the model, the body's offset decides for them."""
    want, got = _broken_and_repaired(tmp_path, "pymupdf__cython.pdf", "shift")
    assert "Release 0.29a0" in want
    assert "Release 0.29a0" in got
    assert "5HOHDVH" not in got


def test_a_short_font_takes_its_programs_reading_when_it_reads_better(tmp_path: Path) -> None:
    """PDF/UA form: two NotoSans subsets draw one heading each; shifted, their text is too
    short to condemn, but their (3,1) cmap reads as words where the ToUnicode does not."""
    want, got = _broken_and_repaired(tmp_path, "opendataloader__PDFUA-Ref-2-10_Form.pdf", "shift")
    assert got == want


def test_a_scramble_that_still_passes_gives_way_to_a_far_better_program_reading(
    tmp_path: Path,
) -> None:
    """Letters permuted within their case keep enough Italian letter pairs to pass the model
    on a short heading; the embedded CFF charset's reading passes far better."""
    want, got = _broken_and_repaired(tmp_path, "pymupdf__test_2635.pdf", "scramble")
    assert "La libertà responsabile Pagine digitali" in want
    assert "La libertà responsabile Pagine digitali" in got


def test_the_documents_offset_is_the_one_most_fonts_read_under(tmp_path: Path) -> None:
    """Japanese manual shifted by -29: the body font also passes under +64 (kana soup reads
    alike) and picked it; the other fonts pass under +29 only, which is the document's."""
    want, got = _broken_and_repaired(
        tmp_path, "doclingparse__cropbox_versus_mediabox_01.pdf", "shift"
    )
    assert "ご購入時は自動内部クリーン" in want
    assert "ご購入時は自動内部クリーン" in got


def test_a_code_its_glyph_name_vouches_for_is_not_shifted_back(tmp_path: Path) -> None:
    """A code the shifted ToUnicode left out (its value was a line feed) reads through its
    glyph name, 'space': shifting that back by +29 would write '=' between words."""
    want, got = _broken_and_repaired(tmp_path, "kreuzberg__scanned.pdf", "shift")
    assert "=" not in got
    assert got == want


def test_a_font_repaired_from_its_program_lends_the_offset_it_shows(tmp_path: Path) -> None:
    """Helvetica TrueType subsets repaired from their post names: their ToUnicode sat 29
    below the names, so the one glyph post does not name (×) moves back by 29 too."""
    want, got = _broken_and_repaired(tmp_path, "doclingparse__form_fields.pdf", "shift")
    assert "TVH : $ × 8/13" in want
    assert got == want


def test_type1_programs_give_their_built_in_encodings_names(tmp_path: Path) -> None:
    """Nimbus Type1 subsets (FontFile) whose ToUnicode maps every code to U+FFFD: the
    program's clear-text encoding (dup 82 /R put) names each glyph."""
    want, got = _broken_and_repaired(tmp_path, "pymupdf__cython.pdf", "collapse")
    assert "Cython Reference Guide Release 0.29a0" in want
    assert "Cython Reference Guide Release 0.29a0" in got
    assert "\ufffd" not in got


@pytest.mark.parametrize("breaker", ["pua", "collapse", "scramble"])
def test_a_font_without_a_program_reads_through_its_encodings_glyph_names(
    tmp_path: Path, breaker: str
) -> None:
    """Helvetica and Times not embedded, with Differences and /WinAnsiEncoding: the viewer
    draws each code's named glyph from a font of its own, so the names are the text."""
    want, got = _broken_and_repaired(tmp_path, "kreuzberg__scanned.pdf", breaker)
    assert got == want


@pytest.mark.parametrize("breaker", ["shift", "pua"])
def test_type3_glyph_names_carrying_code_points_give_the_text(
    tmp_path: Path, breaker: str
) -> None:
    """A Hebrew form drawn by one Type3 font whose glyphs are named iSQP0041 ... iSQP05EA:
    the hex is the code point (it is the code itself for every ASCII code)."""
    want, got = _broken_and_repaired(tmp_path, "pdfjs__issue12705.pdf", breaker)
    assert got == want


def test_a_short_font_follows_the_documents_programs_when_they_overrule_its_maps(
    tmp_path: Path,
) -> None:
    """Scrambled ToUnicode maps on a scanned letter with an OCR layer in Times: the body's
    names overrule its map; the Helvetica footer ('Source: https://...') still passes as
    scrambled, its names pass a little better, and the document settles it."""
    want, got = _broken_and_repaired(tmp_path, "unstructured__pdf-with-ocr-text.pdf", "scramble")
    assert "Source: https://www.industrydocuments.ucsf.edu/docs/mjgl0226" in want
    assert got == want


@pytest.mark.parametrize("breaker", ["pua", "collapse"])
def test_cid_keyed_cff_codes_read_through_the_adobe_collection(
    tmp_path: Path, breaker: str
) -> None:
    """Japanese CID-keyed CFF subsets (Adobe-Japan1) behind a broken ToUnicode: with an
    Identity encoding each code is a CID, and the collection says which character it is."""
    from pytest_textlayer.pdf.crosscheck import collection_table

    if not collection_table("Japan1"):
        pytest.skip("poppler-data's Adobe-Japan1 table is not installed")
    want, got = _broken_and_repaired(
        tmp_path, "doclingparse__cropbox_versus_mediabox_01.pdf", breaker
    )
    phrase = "お好みの設定を学習し、温度、湿度、気流をエアコンが自動で選択して、"
    assert phrase in want
    assert phrase in got
