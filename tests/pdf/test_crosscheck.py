"""A ToUnicode against the font's own account of its glyphs (crosscheck), with real fonts.

Short pages give the language judge too few letters to condemn a permuted
map, and a substitution cipher can read as some language; the glyph names an
encoding selects, or the Unicode cmap of a Type0 font's embedded TrueType,
say which letters are drawn. The pages are built with reportlab and the
generators (fontTools), broken by the breakers or given a ToUnicode here.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from pytest_textlayer import classify
from pytest_textlayer.generators import generate
from pytest_textlayer.generators.breakers import break_pdf
from pytest_textlayer.generators.common import derangement
from pytest_textlayer.generators.pdfwriter import tounicode_cmap
from pytest_textlayer.model import Verdict
from pytest_textlayer.pdf.crosscheck import compare
from pytest_textlayer.pdf.fonts import analyse_font as analyse

pikepdf = pytest.importorskip("pikepdf")
pytest.importorskip("reportlab")


def _short_page(lines: list[tuple[str, int, str]]) -> bytes:
    """One page of a few lines in reportlab's base-14 fonts (simple Type1, WinAnsi names)."""
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    y = 780
    for font, size, text in lines:
        c.setFont(font, size)
        c.drawString(72, y, text)
        y -= 2 * size
    c.showPage()
    c.save()
    return out.getvalue()


SHORT = [("Helvetica-Bold", 14, "Quarterly maintenance schedule"),
         ("Times-Roman", 10, "Prepared by the facilities office, March")]


def test_short_scrambled_page_is_garbled_by_its_fonts_own_glyph_names() -> None:
    original = _short_page(SHORT)
    assert classify(original).pages[0].verdict is Verdict.READABLE
    v = break_pdf(original, "scramble", truth=(), truth_pdfium=())
    page = classify(v.pdf).pages[0]
    assert page.verdict is Verdict.GARBLED, page.evidence
    assert page.decided_by == "fonts"
    said = " ".join(page.evidence)
    assert "contradicts the font's own glyph names" in said
    assert "Helvetica-Bold" in said


def test_shifted_map_against_glyph_names_is_shifted_with_its_offset() -> None:
    v = break_pdf(_short_page(SHORT), "shift", truth=(), truth_pdfium=())
    page = classify(v.pdf).pages[0]
    assert page.verdict is Verdict.SHIFTED, page.evidence
    assert page.offset == 29
    assert page.repaired_sample and "Quarterly maintenance" in page.repaired_sample


def test_page_number_alone_in_a_scrambled_font_is_caught() -> None:
    """A folio ('ii') draws one letter: every letter drawn contradicts the font's names."""
    body = [("Times-Roman", 10, "Prepared by the facilities office in March for the board")]
    broken = break_pdf(_short_page(body), "scramble", truth=(), truth_pdfium=()).pdf
    with pikepdf.open(io.BytesIO(broken)) as pdf:
        pdf.pages[0].contents_add(pdf.make_stream(b"BT /F1 10 Tf 300 40 Td (ii) Tj ET"))
        out = io.BytesIO()
        pdf.save(out)
    pages = classify(out.getvalue()).pages
    assert not pages[0].ok, pages[0].evidence


def _type0_with_cmap(tounicode: dict[str, str] | None, *, index_cmap: bool = False) -> bytes:
    """A generator's Type0 font whose embedded TrueType keeps a Unicode cmap, given a ToUnicode
    built from the program's own cmap, each letter replaced as `tounicode` says.

    `index_cmap` then rewrites the program's cmap the way some writers do, code point = glyph
    index, so that the program's account no longer means anything.
    """
    from fontTools.ttLib import TTFont

    fx = generate("severed-recoverable", keep="cmap", lang="en",
                  order="original" if index_cmap else "first-use")
    with pikepdf.open(io.BytesIO(fx.pdf)) as pdf:
        for _, font in pdf.pages[0].Resources.Font.items():
            cid = font.DescendantFonts[0]
            program = TTFont(io.BytesIO(cid.FontDescriptor.FontFile2.read_bytes()))
            cmap = program.getBestCmap()
            mapping = {program.getGlyphID(g): chr(u) for u, g in cmap.items()}
            if tounicode is not None:
                mapping = {c: tounicode.get(t, t) for c, t in mapping.items()}
            font.ToUnicode = pdf.make_stream(tounicode_cmap(mapping, 2))
            if index_cmap:
                order = program.getGlyphOrder()
                for table in program["cmap"].tables:
                    table.cmap = {gid: name for gid, name in enumerate(order) if gid}
                out = io.BytesIO()
                program.save(out)
                cid.FontDescriptor.FontFile2.write(out.getvalue())
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()


def test_type0_tounicode_agreeing_with_the_embedded_cmap_is_readable() -> None:
    page = classify(_type0_with_cmap({})).pages[0]
    assert page.verdict is Verdict.READABLE, page.evidence


def test_type0_tounicode_permuting_the_embedded_cmap_is_garbled() -> None:
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    page = classify(_type0_with_cmap(derangement(letters, 3))).pages[0]
    assert page.verdict is Verdict.GARBLED, page.evidence
    assert "contradicts the font's own cmap" in " ".join(page.evidence)


def test_a_cmap_of_glyph_indices_is_no_account() -> None:
    """A writer's Unicode subtable that maps code point N to glyph N says nothing."""
    page = classify(_type0_with_cmap({}, index_cmap=True)).pages[0]
    assert page.verdict is Verdict.READABLE, page.evidence


def test_agreement_folds_case_ligatures_alternates_and_shared_glyphs() -> None:
    own = {1: frozenset({"A"}), 2: frozenset({"\ufb01"}), 3: frozenset({"a"}),
           4: frozenset({"A", "\u0410"}), 5: frozenset({"\u00df"}), 6: frozenset({"e"}),
           7: frozenset({"\u03b1"}), 8: frozenset({"k"})}
    given = {1: "a", 2: "fi", 3: "A", 4: "\u0410", 5: "ss", 6: "e", 7: "\U0001d6fc", 8: "K"}
    assert compare(given, own, "glyph names") is None


def test_symbol_fonts_naming_letters_are_not_contradicted() -> None:
    """Wingdings-like fonts: letter names (WinAnsi) whose ToUnicode gives symbols."""
    own = {c: frozenset({chr(c)}) for c in range(0x61, 0x7B)}
    given = {c: chr(0x2700 + c) for c in range(0x61, 0x7B)}
    assert compare(given, own, "glyph names") is None


def test_legacy_fonts_with_latin_names_over_cyrillic_glyphs_are_not_contradicted() -> None:
    """A cp1251 font declared WinAnsi: 'Agrave' names the slot of Cyrillic А, at offset 848."""
    latin = bytes(range(0xC0, 0x100)).decode("cp1252")
    own = {0xC0 + i: frozenset({ch}) for i, ch in enumerate(latin) if ch.isalpha()}
    given = {0xC0 + i: chr(0x410 + i) for i in range(64)}
    assert compare(given, own, "glyph names") is None


def test_cyrillic_names_mapped_to_latin_letters_are_contradicted() -> None:
    """The other way round is no legacy font: glyphs named as Cyrillic letters and mapped 1,020
    below (Ghostscript re-printing a MuPDF file: "т" read as "F", "а" as "4")."""
    own = {cid: frozenset((ch,)) for cid, ch in enumerate("абвгдежзийклмнопрстуфхцчшщыэюя")}
    given = {cid: chr(ord(next(iter(t))) - 1020) for cid, t in own.items()}
    found = compare(given, own, "post names")
    assert found is not None and found.offset == -1020


def test_latin_letters_drawn_by_a_cyrillic_or_greek_lookalike_agree() -> None:
    """One glyph for a and а (or o and ο), named as the Cyrillic or Greek one: no contradiction."""
    pairs = "аaеeоoрpсcхxуyіiΑAΒBΕEΗHΚKΜMΟOΡPΤTΧX"
    own = {i: frozenset((pairs[2 * i],)) for i in range(len(pairs) // 2)}
    given = {i: pairs[2 * i + 1] for i in range(len(pairs) // 2)}
    assert compare(given, own, "post names") is None


def test_a_few_odd_codes_are_not_a_contradiction() -> None:
    own = {c: frozenset({chr(c)}) for c in range(0x61, 0x7B)}
    given = {c: chr(c) for c in range(0x61, 0x7B)} | {0x61: "b", 0x62: "a", 0x63: "d"}
    assert compare(given, own, "glyph names") is None


def test_contradiction_keeps_the_letters_and_the_offset() -> None:
    own = {c: frozenset({chr(c)}) for c in range(0x41, 0x5B)}
    found = compare({c: chr(c - 29) for c in own}, own, "glyph names")
    assert found is not None and found.offset == -29 and found.codes == frozenset(own)
    scrambled = derangement([chr(c) for c in own], 1)
    found = compare({c: scrambled[chr(c)] for c in own}, own, "cmap")
    assert found is not None and found.offset is None and len(found.codes) == 26


def test_collection_tables_give_the_characters_of_adobe_cids() -> None:
    from pytest_textlayer.pdf.crosscheck import collection_table

    japan = collection_table("Japan1")
    if not japan:
        pytest.skip("poppler-data's cidToUnicode tables are not installed")
    assert (japan[34], japan[843], japan[1125]) == ("A", "あ", "亜")
    assert collection_table("GB1")[4559] == "中"
    assert collection_table("Identity") == {}


@pytest.mark.parametrize("ordering", ["Japan1", "GB1", "CNS1", "Korea1"])
def test_a_collection_table_is_the_dictionary_of_its_file(ordering: str) -> None:
    """Held as one string, a table still gives exactly what its file says, CID by CID."""
    from pytest_textlayer.pdf.crosscheck import CID_TABLE_DIRS, collection_table

    table = collection_table(ordering)
    if not table:
        pytest.skip("poppler-data's cidToUnicode tables are not installed")
    path = next(p for d in CID_TABLE_DIRS if os.path.exists(p := f"{d}/Adobe-{ordering}"))
    expected: dict[int, str] = {}
    with open(path, encoding="ascii") as fh:
        for cid, value in enumerate(fh.read().split()):
            code = int(value, 16)
            if 0x20 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                expected[cid] = chr(code)
    assert dict(table.items()) == expected and list(table) == list(expected)
    assert len(table) == len(expected)
    absent = [cid for cid in (-1, 0, max(expected) + 1, 10**9) if cid not in expected]
    assert absent and not any(cid in table for cid in absent)
    assert all(table.get(cid) is None for cid in absent)
    with pytest.raises(KeyError):
        table[absent[0]]


def test_kana_and_ideographs_permuted_together_contradict() -> None:
    """A Japanese map permutes kana with kanji: one script family for the comparison."""
    chars = "あいうえおかきくけこ漢字東京"
    own = {i: frozenset({ch}) for i, ch in enumerate(chars)}
    given = {i: chars[(i + 3) % len(chars)] for i in range(len(chars))}
    found = compare(given, own, "Adobe-Japan1 CIDs")
    assert found is not None and len(found.codes) == len(chars)


def test_contradicted_letters_and_unmapped_digits_count_together() -> None:
    """Table labels ('Class1 Class2 Class3') in a font of their own, shifted by -29: the
    letters read as other letters, the digits and spaces as control characters. Neither
    alone reaches 10 % of the page; together (13 %) they make it shifted."""
    rows = ["Test Table Slide", "With footnote", "A merged with B", "R1 True False False True",
            "R2 True False", "R3 False False True True", "R4 False False True True False"]
    lines = [("Times-Roman", 11, r) for r in rows[:2]] + [("Helvetica-Bold", 9,
             "Class1 Class2 Class3")] + [("Times-Roman", 11, r) for r in rows[2:]]
    v = break_pdf(_short_page(lines), "shift", select="minor", truth=(), truth_pdfium=())
    assert [f.name for f in v.fonts] == ["Helvetica-Bold"]
    assert v.pages[0].expected is Verdict.SHIFTED and v.pages[0].share < 0.15
    page = classify(v.pdf).pages[0]
    assert page.verdict is Verdict.SHIFTED, page.evidence
    assert page.offset == 29


def _ttf_page(text: list[str], font: str = "DejaVuSans.ttf") -> bytes:
    """Lines in a reportlab TrueType subset: no glyph names, no Unicode cmap to check against."""
    from pathlib import Path

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    path = Path("/usr/share/fonts/truetype/dejavu") / font
    if not path.exists():
        pytest.skip("needs fonts-dejavu-core")
    name = "Xc" + font.split(".")[0]
    pdfmetrics.registerFont(TTFont(name, str(path)))
    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1)
    c.setFont(name, 14)
    for i, line in enumerate(text):
        c.drawString(72, 780 - 20 * i, line)
    c.showPage()
    c.save()
    return out.getvalue()


TITLE = ["Quarterly maintenance schedule", "for the public libraries of the county"]


def test_scrambled_map_of_a_font_without_names_is_caught_by_its_widths() -> None:
    original = _ttf_page(TITLE)
    assert classify(original).pages[0].verdict is Verdict.READABLE
    with pikepdf.open(io.BytesIO(original)) as pdf:
        font = next(iter(pdf.pages[0].Resources.Font.values()))
        assert analyse(font).contradiction is None  # nothing named: the widths must tell
    page = classify(break_pdf(original, "scramble", truth=(), truth_pdfium=()).pdf).pages[0]
    assert page.verdict is Verdict.GARBLED, page.evidence
    assert "widths of its glyphs do not follow the letters" in " ".join(page.evidence)


def test_monospaced_font_widths_say_nothing() -> None:
    from pytest_textlayer.pdf.rankcheck import width_correlation

    letters = {i: (ch, 600.0) for i, ch in enumerate("abcdefghijklmnopqrstuvwxyz")}
    assert width_correlation(letters, dict.fromkeys(letters, 1)) is None


def test_widths_of_a_proportional_font_follow_its_letters() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pytest_textlayer.pdf.rankcheck import width_correlation

    letters = {i: (ch, stringWidth(ch, "Courier-Bold", 1000) + stringWidth(ch, "Helvetica-Bold",
                                                                            1000))
               for i, ch in enumerate("abcdefghijklmnopqrstuvwxyz")}
    found = width_correlation(letters, dict.fromkeys(letters, 1))
    assert found is not None and found[0] > 0.8 and found[1] == 26


def test_reference_widths_are_the_standard_fonts_metrics() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pytest_textlayer.pdf.rankcheck import reference_widths

    for ch, width in reference_widths().items():
        if ord(ch) > 0xFF:
            continue  # Greek and Cyrillic come from Liberation's metrics
        assert width == pytest.approx((stringWidth(ch, "Helvetica", 1000)
                                       + stringWidth(ch, "Times-Roman", 1000)) / 2), ch


def test_chromium_type3_text_shifted_is_caught_by_its_widths(tmp_path: Path) -> None:
    """Chromium prints an OpenType-CFF family (URW's Nimbus Sans) as Type3 fonts whose glyph
    names are indices: shifted by -29, its lower-case glyphs read as capitals, whose
    standard widths do not rank like the glyphs' own. Its spaces and capitals (now control
    characters) stay under 10 % of the page, and its letter-spaced text reads as some
    language."""
    import shutil
    import subprocess

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed")
    if "Nimbus Sans" not in subprocess.run(["fc-list", ":", "family"], capture_output=True,
                                           text=True).stdout:
        pytest.skip("URW base35 fonts are not installed")
    text = ("The committee reviewed the annual report and agreed that the budget for the "
            "coming year should prioritise maintenance of the existing buildings.")
    html = tmp_path / "page.html"
    html.write_text(f"<html><meta charset='utf-8'><body><p style=\"font-family:'Nimbus Sans'\">"
                    f"{text}</p><p style=\"font-family:'Nimbus Sans'\">{text}</p>"
                    + "".join(f"<p style='font-family:serif;{style}'>{text}</p>"
                              for style in ("", "font-style:italic", "font-weight:bold"))
                    + "</body></html>")
    pdf = tmp_path / "page.pdf"
    subprocess.run([chromium, "--headless", "--disable-gpu", "--no-sandbox",
                    "--no-pdf-header-footer", f"--print-to-pdf={pdf}", str(html)],
                   capture_output=True, timeout=120, check=False)
    if not pdf.exists():
        pytest.skip("chromium could not print")
    original = classify(pdf).pages[0]
    assert original.verdict is Verdict.READABLE, original.evidence
    v = break_pdf(pdf.read_bytes(), "shift", select="main", truth=(), truth_pdfium=())
    assert v.pages[0].expected is Verdict.SHIFTED
    page = classify(v.pdf).pages[0]
    assert not page.ok, page.evidence


def test_scrambled_greek_heading_is_caught_by_its_widths() -> None:
    """Greek and Cyrillic letters have standard widths too (Liberation's, Arial's and Times's
    metrics): a two-line Greek heading is too short for the language judge."""
    original = _ttf_page(["Ετήσια έκθεση της επιτροπής", "για τον προϋπολογισμό"])
    assert classify(original).pages[0].verdict is Verdict.READABLE
    page = classify(break_pdf(original, "scramble", truth=(), truth_pdfium=()).pdf).pages[0]
    assert page.verdict is Verdict.GARBLED, page.evidence
    assert "widths of its glyphs do not follow the letters" in " ".join(page.evidence)


def _in_reading_order(tounicode: dict[int, str]) -> dict[int, int]:
    """The codes as a page first draws them: in no order of their own (glyph ids)."""
    import random

    return dict.fromkeys(random.Random(7).sample(sorted(tounicode), len(tounicode)), 1)


def test_glyph_ids_of_a_font_follow_the_unicode_order_of_its_letters() -> None:
    """Fonts lay their glyphs out near Unicode order; a permuted map over the same codes does not
    (the check for Identity subsets that keep no cmap, no names and equal widths)."""
    from pytest_textlayer.pdf.rankcheck import MIN_ORDER_CORRELATION, code_order_correlation

    letters = "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年"
    tounicode = {300 + 40 * i + i % 3: ch for i, ch in enumerate(sorted(letters))}
    drawn = _in_reading_order(tounicode)
    found = code_order_correlation(tounicode, drawn)
    assert found is not None and found[0] > 0.9 and found[1] == len(letters)
    moved = derangement(letters, seed=3)
    permuted = {code: moved[ch] for code, ch in tounicode.items()}
    found = code_order_correlation(permuted, drawn)
    assert found is not None and found[0] < MIN_ORDER_CORRELATION


def test_code_order_says_nothing_of_renumbered_subsets_or_few_letters() -> None:
    from pytest_textlayer.pdf.rankcheck import code_order_correlation

    letters = "abcdefghijklmnopqrstuvwxyz"
    renumbered = {1 + i: ch for i, ch in enumerate(reversed(letters))}  # codes 1..26: own order
    assert code_order_correlation(renumbered, dict.fromkeys(renumbered, 1)) is None
    few = {1000 + 50 * i: ch for i, ch in enumerate(letters[:8])}
    assert code_order_correlation(few, _in_reading_order(few)) is None
    # A long document's subset numbered in order of first use: a later page draws its new
    # letters with rising codes far above its letter count.
    first_use = {900 + 7 * i: ch for i, ch in enumerate("zyxwvutsrqponmlk")}
    assert code_order_correlation(first_use, dict.fromkeys(first_use, 1)) is None


def test_a_font_whose_glyphs_follow_gbk_order_is_no_permuted_map() -> None:
    """SimSun-like fonts keep their glyphs in GBK order, which sorts the commonest ideographs by
    reading (GB2312 level 1), not by Unicode's radicals: that order is no permutation."""
    from pytest_textlayer.pdf.rankcheck import MIN_ORDER_CORRELATION, code_order_correlation

    text = "中华人民共和国是工人阶级领导的以工农联盟为基础的人民民主专政的社会主义国家"
    letters = sorted(set(text), key=lambda ch: ch.encode("gbk"))
    tounicode = {500 + 37 * i: ch for i, ch in enumerate(letters)}
    found = code_order_correlation(tounicode, _in_reading_order(tounicode))
    assert found is not None and found[0] >= MIN_ORDER_CORRELATION


def test_a_cid_keyed_programs_texts_are_its_collections_for_the_wanted_cids(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_textlayer.pdf import crosscheck
    from pytest_textlayer.pdf.fontprogram import Program

    japan = crosscheck.collection_table("Japan1")
    if not japan:
        pytest.skip("poppler-data's cidToUnicode tables are not installed")
    program = Program("CIDCFF", cid_keyed=True, ros=("Adobe", "Japan1"))
    monkeypatch.setattr(crosscheck, "stream_program", lambda kind, stream: program)
    wanted = {1125, 34, 843, 10**6, -1}
    own, source, whole = crosscheck.program_texts("CIDCFF", object(), None, wanted)
    assert list(own.items()) == [(cid, frozenset(text)) for cid, text in japan.items()
                                 if cid in wanted]
    assert (source, whole) == ("Adobe-Japan1 CIDs", True)
    assert len(crosscheck.program_texts("CIDCFF", object(), None)[0]) == len(japan)


@pytest.mark.parametrize(("data", "gids"), [
    (b"", []), (b"\x01", []), (b"\x00\x05\x01\x00\xff\xfe", [5, 256, 65534]),
    (b"\x00\x05\x01\x00\x07", [5, 256]),  # a stray last byte is no glyph
])
def test_a_cid_to_gid_map_reads_big_endian_pairs(data: bytes, gids: list[int]) -> None:
    from pytest_textlayer.pdf.fontprogram import cid_to_gid_map

    pdf = pikepdf.new()
    assert cid_to_gid_map(pikepdf.Stream(pdf, data)) == gids
    assert cid_to_gid_map(pikepdf.Name.Identity) is None
