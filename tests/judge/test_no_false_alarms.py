"""The burden of proof: text that is not prose, drawn through a sound route, is never condemned.

Each page here is made by a real producer (reportlab, fpdf2) and broken by
nobody, so its verdict must be OK: character charts, fill text, page
numbers, tables of contents, table cells, code and JSON listings, tick
labels, technical notation, lorem ipsum. The fonts are the standard 14 with
their standard encodings and embedded TrueType subsets with a ToUnicode
their program vouches for. And a correct page keeps its text through
``textlayer repair``.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from _producers import CHROMIUM, CJK_FONT, DEJAVU, print_with_chromium

from pytest_textlayer import classify, repair
from pytest_textlayer.generators import generate
from pytest_textlayer.pdf.readers import poppler_text

CONTENT = {
    "chart": " ".join(f"#{c:02X} {chr(c)}" for c in range(0x21, 0x7F)),
    "fill": "xxxxxxxxxxxxxxx xxxxxxxxxxxxxxx xxxxxxxxxxxxxxx\nAAAA AAAA AAAA AAAA AAAA AAAA",
    "one word": "текст " * 80,
    "page number": "Page 9",
    "margins": "RMargin Top L\nxxxxxxxxxxxxxxx",
    "toc": "\n".join(f"{i}. Section {i} " + "." * 40 + f" {i * 7}" for i in range(1, 25)),
    "cells": "\n".join(" ".join(f"cell[{r}][{c}]" for c in range(5)) for r in range(12)),
    "json": '{"id": 17, "name": "qpdf", "flags": [true, false], "ratio": 0.786}\n' * 8,
    "code": "def f(x):\n    return x ** 2 + 3 * x - 1  # r=0.786, p<0.0001\n" * 6,
    "ticks": " ".join(str(v) for v in range(0, 1000, 50)) + "\n0.0 0.2 0.4 0.6 0.8 1.0",
    "notation": "I=false, K=true; r=0.786, p<0.0001; H0: mu1 = mu2; x_i in [0, 1]\n" * 5,
    "lorem": "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
             "tempor incididunt ut labore et dolore magna aliqua. " * 4,
    "alphabet": "abcd efghijk lmn opq rstuvw xyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789",
}
STANDARD_FONTS = ("Helvetica", "Courier", "Times-Roman")


def _reportlab(text: str, font: str) -> bytes:
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out, invariant=1)
    if font in ("DejaVuSans", "DroidSansFallback"):
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont

        path = DEJAVU / "DejaVuSans.ttf" if font == "DejaVuSans" else CJK_FONT
        pdfmetrics.registerFont(TTFont(font, str(path)))
    pdf.setFont(font, 10)
    y = 800
    for line in text.splitlines():
        for start in range(0, len(line), 90):
            pdf.drawString(40, y, line[start:start + 90])
            y -= 14
    pdf.save()
    return out.getvalue()


def _fpdf(text: str, font: str) -> bytes:
    fpdf = pytest.importorskip("fpdf")
    doc = fpdf.FPDF()
    doc.add_page()
    if font == "DejaVuSans":
        doc.add_font("DejaVuSans", fname=str(DEJAVU / "DejaVuSans.ttf"))
    doc.set_font(font, size=10)
    doc.multi_cell(0, 5, text)
    return bytes(doc.output())


@pytest.mark.parametrize("font", [*STANDARD_FONTS, "DejaVuSans"])
@pytest.mark.parametrize("kind", sorted(CONTENT))
def test_reportlab_pages_that_are_not_prose_are_readable(kind: str, font: str) -> None:
    report = classify(_reportlab(CONTENT[kind], font))
    assert report.ok, report.render()


#: fpdf2's core fonts encode Latin-1 only: the Cyrillic fill goes to the TrueType font.
FPDF_CASES = [(kind, font) for kind in sorted(CONTENT)
              for font in ("helvetica", "courier", "DejaVuSans")
              if CONTENT[kind].isascii() or font == "DejaVuSans"]


@pytest.mark.parametrize(("kind", "font"), FPDF_CASES)
def test_fpdf2_pages_that_are_not_prose_are_readable(kind: str, font: str) -> None:
    report = classify(_fpdf(CONTENT[kind], font))
    assert report.ok, report.render()


def test_the_evidence_says_why_language_did_not_judge() -> None:
    page = classify(_reportlab(CONTENT["chart"], "Helvetica")).pages[0]
    assert any("verified route" in line for line in page.evidence), page.evidence


def test_a_correct_standard_font_page_keeps_its_text_through_repair(tmp_path: Path) -> None:
    """The issue's Helvetica/WinAnsi page beside a severed one: only the severed font is mapped."""
    import pikepdf

    good = tmp_path / "good.pdf"
    good.write_bytes(_reportlab(CONTENT["margins"], "Helvetica"))
    bad = generate("severed", text="UNITED STATES DISTRICT COURT").write(tmp_path / "bad.pdf")
    both = tmp_path / "both.pdf"
    with pikepdf.open(good) as doc, pikepdf.open(bad) as other:
        doc.pages.extend(other.pages)
        doc.save(both)
    before = poppler_text(str(both), page=1)
    out = tmp_path / "out.pdf"
    report = repair(both, out, ocr="never")
    assert report.pages[0].action == "unchanged", report.render()
    assert poppler_text(str(out), page=1) == before
    assert "RMargin Top L" in before and "xxxxxxxxxxxxxxx" in before


def test_a_correct_page_alone_comes_out_byte_identical(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(_reportlab(CONTENT["margins"] + "\n" + CONTENT["toc"], "Courier"))
    out = tmp_path / "out.pdf"
    report = repair(good, out, ocr="never")
    assert report.ok and out.read_bytes() == good.read_bytes()


def test_lang_still_fails_a_sound_page_in_another_language() -> None:
    """docs/cli.md: with --lang, a page in another language is garbled, sound route or not."""
    from pytest_textlayer import CheckSettings

    english = ("The committee reviewed the annual report and agreed that the budget for the "
               "coming year should prioritise maintenance of the existing buildings. ") * 6
    data = _reportlab(english, "Helvetica")
    assert classify(data, settings=CheckSettings(lang="en")).ok
    page = classify(data, settings=CheckSettings(lang="fr")).pages[0]
    assert page.verdict.value == "garbled" and "fr" in page.evidence[0], page.evidence
    # Not prose: no language is asked of it.
    chart = _reportlab(CONTENT["chart"], "Helvetica")
    assert classify(chart, settings=CheckSettings(lang="fr")).ok


def test_an_unknown_lang_is_a_usage_error() -> None:
    from pytest_textlayer.cli import main

    page = Path(__file__).parent / "nothing-here.pdf"
    assert main(["check", "--lang", "xx", str(page)]) == 2
    assert main(["check", "--lang", "qq", str(page)]) == 2


@pytest.mark.parametrize("text", [
    " ".join(chr(c) for c in range(0x3131, 0x3164)) * 3,  # a chart of the jamo
    " ".join(chr(c) for c in range(0x3041, 0x3097)) + " 丁 丂 七 丄 丅 丆 万 丈 三 上",  # kana
    "ㅎㅏㄴㄱㅜㄱㅇㅓㄴㅡㄴ ㅇㅏㄹㅡㅁㄷㅏㅂㄷㅏ ㄱㅡㄹㅣㄱㅗ ㅇㅜㄹㅣㄴㅡㄴ ㅎㅚㅇㅡㅣㄹㅡㄹ " * 8,
])
def test_charts_of_jamo_and_kana_are_not_condemned(text: str) -> None:
    """The issue's Hangul compatibility jamo, 'rare characters no known language uses', and a
    chart of kana and ideographs (the false-alarm benchmark's DroidSansFallback chart)."""
    if not CJK_FONT.exists():
        pytest.skip("needs fonts-droid-fallback")
    report = classify(_reportlab(text, "DroidSansFallback"))
    assert report.ok, report.render()



def _symbol_page(font_name: str) -> bytes:
    """Helvetica prose beside a symbol font whose ToUnicode gives U+F021... (Word's way)."""
    import pikepdf

    pairs = " ".join(f"<{c:02X}> <{0xF000 + c:04X}>" for c in range(0x21, 0x41))
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Sym def "
            b"1 begincodespacerange <00> <FF> endcodespacerange 32 beginbfchar "
            + pairs.encode() + b" endbfchar endcmap CMapName currentdict /CMap defineresource "
            b"pop end end")
    pdf = pikepdf.new()
    sym = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType,
        BaseFont=pikepdf.Name("/" + font_name), ToUnicode=pdf.make_stream(cmap)))
    helv = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
        Encoding=pikepdf.Name.WinAnsiEncoding))
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(S=sym, H=helv))
    symbols = bytes(range(0x21, 0x41)).hex().encode()
    page.Contents = pdf.make_stream(
        b"BT /H 10 Tf 40 800 Td (The committee reviewed the report.) Tj ET "
        b"BT /S 12 Tf 40 700 Td <" + symbols + b"> Tj ET")
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_symbol_fonts_symbol_area_is_symbols_not_lost_letters() -> None:
    """The issue's family 4: Symbol's and Wingdings' standard private-use code points."""
    assert classify(_symbol_page("Wingdings-Regular")).ok
    page = classify(_symbol_page("ABCDEF+Calibri")).pages[0]  # a text font: PUA is wrong
    assert page.verdict.value == "garbled", page.evidence


def test_characters_the_font_lacks_draw_notdef_and_lose_no_letter() -> None:
    """reportlab draws a character its TrueType font lacks as the subset's code 0, glyph
    .notdef (a box), and maps it to U+0000: nothing legible is lost. The same page with
    its real glyphs mapped to U+FFFD is still condemned."""
    from pytest_textlayer.generators.breakers import break_pdf

    data = _reportlab("Hello, \u4e2d\nTotal \u2603\u4e2d\u6587 due", "DejaVuSans")
    page = classify(data).pages[0]
    assert page.verdict.value == "readable", page.evidence
    assert any(".notdef" in line for line in page.evidence), page.evidence
    broken = break_pdf(data, "collapse")
    assert broken.applies
    assert not classify(broken.pdf).ok


def test_a_fonts_own_private_use_glyphs_standing_alone_are_not_lost_letters() -> None:
    """A chart of the glyphs DejaVu Sans itself puts in the Private Use Area (tone letters,
    box drawings), beside ordinary text in the same font: the map gives the author's own code
    points. Words spelled in Private Use characters are still condemned."""
    chart = " ".join(chr(c) for c in range(0xF400, 0xF442) if c != 0xF427)
    text = "Glyphs of the Private Use Area\n" + chart + "\n" + CONTENT["lorem"][:200]
    page = classify(_reportlab(text, "DejaVuSans")).pages[0]
    assert page.verdict.value == "readable", page.evidence
    assert classify(generate("pua").pdf).pages[0].verdict.value == "garbled"


#: Debian's fonts-noto-core (./dev installs it): scripts fpdf2 shapes with HarfBuzz.
NOTO = Path("/usr/share/fonts/truetype/noto")
SHAPED = {
    "bn": ("NotoSansBengali-Regular.ttf", "beng",
           "কমিটি বার্ষিক প্রতিবেদন পর্যালোচনা করেছে এবং সম্মত হয়েছে যে আগামী বছরের বাজেট "
           "বিদ্যমান ভবনগুলির রক্ষণাবেক্ষণকে অগ্রাধিকার দেবে"),
    "km": ("NotoSansKhmer-Regular.ttf", "khmr",
           "គណៈកម្មាធិការបានពិនិត្យរបាយការណ៍ប្រចាំឆ្នាំ ហើយបានយល់ព្រមថា "
           "ថវិកាសម្រាប់ឆ្នាំខាងមុខគួរតែផ្តល់អាទិភាពដល់ការថែទាំអគារដែលមានស្រាប់"),
}


def _shaped_fpdf(lang: str) -> bytes:
    fpdf = pytest.importorskip("fpdf")
    font, script, text = SHAPED[lang]
    doc = fpdf.FPDF()
    doc.add_page()
    doc.add_font("Noto", fname=str(NOTO / font))
    doc.set_font("Noto", size=14)
    doc.set_text_shaping(use_shaping_engine=True, script=script, direction="ltr")
    for _ in range(4):
        doc.multi_cell(0, 9, text, new_x="LMARGIN", new_y="NEXT")
    return bytes(doc.output())


@pytest.mark.parametrize("lang", sorted(SHAPED))
def test_glyphs_of_a_shaped_cluster_whose_text_another_carries_lose_nothing(lang: str) -> None:
    """fpdf2 shapes Bengali and Khmer with HarfBuzz and maps a cluster's whole text
    (consonant and vowel sign) to one of its glyphs, leaving the others unmapped: readers
    print every letter. With the clusters' marks gone from the map, the same glyphs are lost
    letters again."""
    from pytest_textlayer.repairs.tounicode_writer import attach

    data = _shaped_fpdf(lang)
    page = classify(data).pages[0]
    assert page.verdict.value == "readable", page.evidence
    assert any("shaped clusters" in line for line in page.evidence), page.evidence
    with pikepdf.open(io.BytesIO(data)) as pdf:
        font = next(iter(pdf.pages[0].Resources.Font.values()))
        from pytest_textlayer.pdf.cmaps import parse_cmap

        mapping = parse_cmap(font.ToUnicode.read_bytes()).unicode
        attach(pdf, font, {code: value[0] for code, value in mapping.items()})
        out = io.BytesIO()
        pdf.save(out)
    assert not classify(out.getvalue()).ok


# -- re-printed by Ghostscript and cairo -------------------------------------------------------
#: URW's Nimbus Sans, an OpenType CFF font (fonts-urw-base35, which ./dev installs).
NIMBUS = Path("/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf")
NOT_PROSE = ("cells", "ticks", "notation", "json", "toc", "page number")


@pytest.mark.skipif(shutil.which("gs") is None, reason="needs Ghostscript (./dev installs it)")
@pytest.mark.parametrize("kind", NOT_PROSE)
def test_ghostscript_reprints_read_by_their_codes_as_every_reader_does(
        kind: str, tmp_path: Path) -> None:
    """gs pdfwrite re-prints reportlab's TrueType subsets as symbolic fonts with no encoding,
    no ToUnicode and no glyph names, keeping the text's ASCII codes: poppler and PDFium print
    the text right, so the page is readable, tables and numbers as much as prose."""
    source, out = tmp_path / "rl.pdf", tmp_path / "gs.pdf"
    source.write_bytes(_reportlab(CONTENT[kind], "DejaVuSans"))
    subprocess.run(["gs", "-q", "-o", str(out), "-sDEVICE=pdfwrite", str(source)], check=True)
    assert "".join(CONTENT[kind].split())[:40] in "".join(poppler_text(out).split())
    report = classify(out)
    assert report.ok, report.render()
    assert any("codes read as ASCII" in line for line in report.pages[0].evidence) or \
        report.pages[0].evidence


def test_ghostscript_reprint_whose_codes_are_foreign_is_still_flagged() -> None:
    """The generator's symbolic TrueType draws the text with codes of other characters: the
    widths of its glyphs do not rank like the letters the codes would be."""
    report = classify(generate("symbolic-truetype").pdf)
    assert [p.verdict.value for p in report.pages] == ["undecodable"]


@pytest.mark.skipif(shutil.which("pdftocairo") is None, reason="needs poppler-utils")
@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (./dev installs it)")
def test_cairo_type3_reprint_of_notation_is_readable(tmp_path: Path) -> None:
    """Chromium prints an OpenType (CFF) font as Type3 with a ToUnicode, and cairo keeps it so:
    no program vouches for the map, its widths do; and notation (``p<0.01``, ``a[1]``) is no
    word broken by symbols."""
    html = tmp_path / "notation.html"
    lines = "".join(f"<p>{line}</p>" for line in CONTENT["notation"].splitlines())
    html.write_text(
        f"<html><head><style>@font-face {{ font-family: N; src: url('{NIMBUS.as_uri()}'); }}"
        f"</style></head><body style='font-family: N'>{lines}"
        "<p>a[9] := a[1] &lt;&lt; 1; n=835; df=3; F(5, 197)=4.36; p=0.972</p></body></html>",
        encoding="utf-8")
    printed, out = tmp_path / "chromium.pdf", tmp_path / "cairo.pdf"
    assert print_with_chromium(html, printed)
    subprocess.run(["pdftocairo", "-pdf", str(printed), str(out)], check=True)
    with pikepdf.open(out) as pdf:
        assert {str(f.Subtype) for f in pdf.pages[0].Resources.Font.values()} == {"/Type3"}
    report = classify(out)
    assert report.ok, report.render()


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (./dev installs it)")
def test_letters_typed_in_a_dingbat_font_are_what_the_author_wrote(tmp_path: Path) -> None:
    """Chromium prints URW's Dingbats (D050000L, every Linux system's ZapfDingbats) as a
    Type3 font whose ToUnicode gives the letters typed: scissors and stars are drawn, so
    the widths rank like no letters, and say nothing against the map of a symbol font."""
    dingbats = NIMBUS.with_name("D050000L.otf")
    html = tmp_path / "dingbats.html"
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    html.write_text(
        f"<html><head><style>@font-face {{ font-family: D; src: url('{dingbats.as_uri()}'); }}"
        f"</style></head><body><p>Dingbats</p><p style='font-family: D'>{letters}</p>"
        "</body></html>", encoding="utf-8")
    printed = tmp_path / "chromium.pdf"
    assert print_with_chromium(html, printed)
    report = classify(printed)
    assert report.ok, report.render()


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (./dev installs it)")
@pytest.mark.parametrize("face", ["D050000L.otf", "StandardSymbolsPS.otf"])
def test_a_symbol_face_that_lost_its_name_is_known_by_its_widths(
        tmp_path: Path, face: str) -> None:
    """cairo re-prints Chromium's Type3 copy of URW's Dingbats or Symbol without a name: the
    letters typed still map to the glyphs drawn for them (alpha for 'a'), and the widths are
    the face's own at one scale. A text face whose map is permuted stays condemned."""
    from pytest_textlayer.generators.breakers import break_pdf

    html = tmp_path / "symbols.html"
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    html.write_text(
        f"<html><head><style>@font-face {{ font-family: S; src: url('"
        f"{NIMBUS.with_name(face).as_uri()}'); }} @font-face {{ font-family: N; src: url('"
        f"{NIMBUS.as_uri()}'); }}</style></head><body style='font-family: N'><p>Chart</p>"
        f"<p style='font-family: S'>{letters} {letters}</p>"
        f"<p style='page-break-before: always'>{CONTENT['lorem']}</p></body></html>",
        encoding="utf-8")
    printed, out = tmp_path / "chromium.pdf", tmp_path / "cairo.pdf"
    assert print_with_chromium(html, printed)
    subprocess.run(["pdftocairo", "-pdf", str(printed), str(out)], check=True)
    with pikepdf.open(out) as pdf:
        names = {str(f.get("/BaseFont", "")) for f in pdf.pages[0].Resources.Font.values()}
    assert not any("Symbol" in n or "D050000L" in n for n in names)  # the name is gone
    report = classify(out)
    assert report.ok, report.render()
    scrambled = break_pdf(out.read_bytes(), "scramble")
    assert scrambled.applies
    assert [p.ok for p in classify(scrambled.pdf).pages] == [False, False]


def test_no_repaired_sample_that_is_garbage() -> None:
    """A severed subset numbered in order of first use: its codes shifted into capitals pass
    a language's threshold by chance, which is no reading; the Mac glyph order's is one."""
    first_use = classify(generate("severed", order="first-use").pdf).pages[0]
    assert first_use.verdict.value == "undecodable"
    assert not any("shifted by" in line for line in first_use.evidence), first_use.evidence
    assert first_use.repaired_sample is None
    mac = classify(generate("severed", order="mac-standard").pdf).pages[0]
    assert mac.verdict.value == "undecodable"
    assert mac.repaired_sample is not None and mac.repaired_sample.startswith("UNITED STATES")


def test_a_dot_leader_shifted_into_han_is_no_reading() -> None:
    """A leader of dots moved by +19943 is one ideograph repeated: no language, no shift."""
    from pytest_textlayer.lang.textrepair import find_shift

    leader = ("." * 50 + " " + "." * 44 + " 17 ") * 6 + "Р57GлPFаFO " + "." * 60
    assert find_shift(leader) is None
