"""Text repair: constant offsets and the Mac standard glyph order, in many languages."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from _paths import REAL_CORPUS
from test_langmodel import PROSE, enciphered, shifted

from pytest_textlayer.lang.documentrepair import repair_document, repair_lines
from pytest_textlayer.lang.glyphorder import mac_standard_table
from pytest_textlayer.lang.langmodel import judge
from pytest_textlayer.lang.textrepair import _implausible_ideographic, find_shift, repair_text
from pytest_textlayer.lang.textshift import mac_standard, shift


def glyph_codes(text: str, offset: int = -29) -> str:
    """What a reader emits for a Mac-ordered font without ToUnicode: spaces become code 3."""
    return shifted(text, offset).replace(" ", chr(32 + offset))


def mac_codes(text: str) -> str:
    """`text` as Mac standard glyph indices read as characters."""
    index = {v: k for k, v in mac_standard_table().items() if v}
    return "".join(chr(index[c]) if c in index else c for c in text)


# --------------------------------------------------------------------------- what the reference
# library documents


def test_the_documented_example_is_repaired_with_offset_29() -> None:
    result = repair_text(")LOWHU\x03FDUWULGJH")
    assert result.changed and result.text == "Filter cartridge"
    assert result.method == "offset" and result.offset == 29
    assert 0 < result.confidence <= 1 and "+29" in result.reason


def test_a_sentence_with_real_spaces_is_repaired() -> None:
    result = repair_text(")LOWHU FDUWULGJH QRW SURSHUO\\ LQVWDOOHG")
    assert result.text == "Filter cartridge not properly installed"


@pytest.mark.parametrize("text", ["system", "SYSTEM", "The system is ready",
                                  "Invoice 2019: total 1,234.56 EUR, paid on 12/03/2020."])
def test_clean_text_and_numbers_are_left_alone_with_a_reason(text: str) -> None:
    result = repair_text(text)
    assert not result.changed and result.text == text
    assert result.reason.startswith("left alone:")
    assert find_shift(text) is None


def test_latin_moved_into_the_kana_block_is_never_a_repair() -> None:
    """All kana look alike to the reference, so kana without kanji are no evidence."""
    kana = shift("system ready for the next job", 0x3000 - 0x40)
    assert judge(kana).passes is None
    assert find_shift("system") is None and find_shift(PROSE["en"]) is None
    words = shift(PROSE["en"], 0x3041 - ord("a"))
    assert judge(words).passes is not True


def test_a_scrambled_map_is_not_an_offset() -> None:
    text = enciphered(" ".join([PROSE["en"]] * 2))
    result = repair_text(text)
    assert not result.changed and "no constant offset" in result.reason


# --------------------------------------------------------------------------- any language


@pytest.mark.parametrize("lang", ["en", "fr", "de", "pl", "tr", "vi", "ru", "uk", "el", "ar",
                                  "fa", "he", "hi", "zh", "ja", "ko"])
@pytest.mark.parametrize("offset", [29, -5])
def test_shifted_text_is_repaired_in_every_language(lang: str, offset: int) -> None:
    # an ASCII apostrophe moved by -29 is a line feed, which no repair can tell from a line break
    text = PROSE[lang].replace("'", "\u2019")
    result = repair_text(shifted(text, -offset))
    assert result.changed, result.reason
    assert result.offset == offset and result.text == text


@pytest.mark.parametrize("lang", ["en", "ru", "el", "hi", "zh", "ko"])
def test_offsets_far_outside_forty_are_found(lang: str) -> None:
    damaged = shifted(PROSE[lang], 700)
    found = find_shift(damaged)
    assert found is not None and found.offset == -700 and found.text == PROSE[lang]
    assert found.describe() == "-700 code points"
    assert found.score_after > found.score_before


def test_spaces_that_became_control_characters_come_back() -> None:
    damaged = glyph_codes(PROSE["en"])
    assert "\x03" in damaged
    assert repair_text(damaged).text == PROSE["en"]


def test_the_mac_standard_order_repairs_accented_letters() -> None:
    source = ("Le café de la société est ouvert. Über die naïve Brücke gehen wir. "
              "Ça coûte cher à Noël, même en été.")
    damaged = mac_codes(source)
    assert shift(damaged, 29) != source  # a constant offset cannot give the accents back
    result = repair_text(damaged)
    assert result.method == "mac-standard" and result.offset is None
    assert result.text == source
    found = find_shift(damaged)
    assert found is not None and found.describe() == "the Macintosh standard glyph order"


def test_a_recent_offset_does_not_hide_the_mac_order() -> None:
    """Pages of one document reuse the last reading only when it is an unambiguous win."""
    assert repair_text(glyph_codes("The filter cartridge is not properly installed.")).offset == 29
    source = "Ça coûte cher à Noël, même en été, dit la société du café."
    assert repair_text(mac_codes(source)).text == source
    assert repair_text(glyph_codes(PROSE["en"])).offset == 29


def test_mac_standard_declines_codes_outside_the_order() -> None:
    assert mac_standard(PROSE["ru"]) is None
    assert mac_standard("Filter") is not None


def test_a_page_with_one_shifted_font_is_repaired_segment_by_segment() -> None:
    good = PROSE["en"]
    bad = glyph_codes("Home is the most important place in the world")
    page = f"{good}\n{bad}\n{good}"
    found = find_shift(page)
    assert found is not None and found.offset == 29 and 0 < found.share < 1
    assert found.text == f"{good}\nHome is the most important place in the world\n{good}"


# --------------------------------------------------------------------------- lines and documents


def test_repair_lines_uses_the_dominant_offset_for_short_tokens() -> None:
    lines = [glyph_codes("The filter cartridge is not properly installed.")] * 5
    lines += ["Order 12345 shipped with " + glyph_codes("filter cartridge"),
              "Total 1,234.56 EUR"]
    out = repair_lines(lines)
    assert [r.text for r in out[:5]] == ["The filter cartridge is not properly installed."] * 5
    assert out[5].text == "Order 12345 shipped with filter cartridge"
    assert out[5].changed and out[5].offset == 29
    assert not out[6].changed and out[6].text == "Total 1,234.56 EUR"


def test_repair_document_applies_one_offset_to_the_pages_it_helps() -> None:
    french = PROSE["fr"].replace("'", "\u2019")
    pages = [glyph_codes(french), PROSE["de"],
             PROSE["en"] + " Part " + glyph_codes("number") + " 42."]
    out = repair_document(pages)
    assert out[0].changed and out[0].text == french and out[0].offset == 29
    assert not out[1].changed and out[1].text == PROSE["de"]
    assert out[2].changed and out[2].text == PROSE["en"] + " Part number 42."


def test_repair_document_without_a_shift_leaves_pages_alone() -> None:
    out = repair_document([PROSE["it"], PROSE["es"]])
    assert [r.changed for r in out] == [False, False]


def test_a_page_of_glyph_codes_is_found_shifted() -> None:
    page = "\n".join(glyph_codes(PROSE[lang]) for lang in ("en", "fr", "de") * 5)[:3000]
    assert find_shift(page) is not None


def test_clean_pages_are_not_shifted() -> None:
    page = "\n".join(PROSE[lang] for lang in ("en", "fr", "de") * 5)[:3000]
    assert find_shift(page) is None


# --------------------------------------------------------------------------- real PDFs

CORPUS = REAL_CORPUS
SHIFTED_PAGE = ("doclingparse__cropbox_versus_mediabox_02.pdf", 3)


@pytest.mark.skipif(not (CORPUS / SHIFTED_PAGE[0]).exists() or shutil.which("pdftotext") is None,
                    reason="real corpus or pdftotext absent")
def test_the_shifted_page_of_the_real_corpus_reads_once_repaired() -> None:
    name, page = SHIFTED_PAGE
    text = subprocess.run(["pdftotext", "-q", "-layout", "-f", str(page), "-l", str(page),
                           str(CORPUS / name), "-"], capture_output=True, text=True,
                          check=False).stdout
    found = find_shift(text)
    assert found is not None and found.share < 1
    assert "\x03" not in found.text and "Living rooms" in found.text


#: A TeX index set in a monospaced font with dot leaders, as pdfTeX's successors draw it.
TEX_INDEX = ("10 Index\n\\tw@ ..........61,65\nU\n\\ulcorner ........55\n\\undefined .......33\n"
             "\\unlhd .......135,139\n\\unrhd .......137,141\n\\urcorner ........56\nV\n"
             "\\vartriangleleft 7,125\n\\vartriangleright 124\nW\n\\wd ...........61,65\n"
             "\\widehat .......4,60\n\\widetilde .....4,64\nY\n\\yen ............43")


def test_an_alphabet_moved_into_the_han_block_is_never_a_repair() -> None:
    """ASCII moved by a constant lands in one window of 95 code points of the Han block, whose
    common characters the CJK profiles accept; Chinese draws on the whole block."""
    assert find_shift(TEX_INDEX) is None
    assert _implausible_ideographic(shift(TEX_INDEX, 0x4E3D - 0x20))
    assert not _implausible_ideographic(PROSE["zh"]) and not _implausible_ideographic(PROSE["ja"])
