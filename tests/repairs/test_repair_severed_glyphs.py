"""A severed font read from its glyphs: Chromium's prose, no ToUnicode, no cmap, no post.

The page is a justified paragraph with a bold heading and an italic phrase,
as a browser prints it (every glyph placed on its own, spaces drawn by an
empty glyph PDFium leaves out of its character list). Glyph OCR must give
the text back exactly and keep the page vector: no whole-page OCR.

Skipped without Chromium, DejaVu, or Tesseract with the packs used.
"""

from __future__ import annotations

import difflib
import io
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from _notices import NOTICES, notice_page
from _producers import CHROMIUM, has_weasyprint, norm, print_with_chromium, print_with_weasyprint
from _tesseract import packs, program_runs, tesseract_runs

from pytest_textlayer.generators.breakers import break_pdf, poppler_pages
from pytest_textlayer.repairs import ocr
from pytest_textlayer.repairs.repairer import repair

TEXTS = NOTICES

GREEK = {
    "el": (
        "Ανακοίνωση προς τους κατοίκους της βόρειας συνοικίας",
        "Από τις 3 Μαρτίου η δημοτική βιβλιοθήκη της οδού Λατομείων θα μείνει κλειστή για έξι "
        "εβδομάδες, όσο αντικαθίσταται η στέγη. Τα δανεισμένα βιβλία επιστρέφονται στο κινητό "
        "λεωφορείο, που σταθμεύει δίπλα στο κολυμβητήριο κάθε Τρίτη και Παρασκευή. *Ερωτήσεις "
        "για πρόστιμα ή κρατήσεις* στέλνονται με ηλεκτρονικό ταχυδρομείο.",
    ),
}


pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
    pytest.mark.skipif(
        not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
        reason="fonts-dejavu-core is needed to build the PDFs",
    ),
    pytest.mark.skipif(not packs("fra", "rus", "osd"), reason="tesseract fra, rus, osd needed"),
]


def _severed(folder: Path, lang: str, font: str = "DejaVu Sans") -> tuple[Path, str]:
    heading, body = (TEXTS | GREEK)[lang]
    return _printed_severed(notice_page(folder, lang, heading, body, font), lang)


def _printed_severed(page: Path, lang: str, printer: Any = print_with_chromium
                     ) -> tuple[Path, str]:
    """The HTML page printed (by Chromium) and severed: the broken PDF and its truth."""
    folder = page.parent
    printed = folder / f"{lang}.orig.pdf"
    assert printer(page, printed)
    variant = break_pdf(printed.read_bytes(), "sever")
    assert variant.applies and variant.broken_pages
    broken = folder / f"{lang}.pdf"
    broken.write_bytes(variant.pdf)
    return broken, norm(variant.truth[0])


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_a_severed_browser_page_reads_exactly_and_stays_vector(tmp_path: Path, lang: str) -> None:
    broken, truth = _severed(tmp_path, lang)
    out = tmp_path / f"{lang}.fixed.pdf"
    report = repair(broken, out)  # the language is found, not given
    [page] = report.pages
    assert page.action == "tounicode", report.render()
    assert "ocr-glyphs" in page.sources
    assert report.ok
    assert norm(poppler_pages(out.read_bytes())[0]) == truth
    assert out.stat().st_size <= 1.1 * broken.stat().st_size


def test_the_space_of_a_severed_subset_is_its_empty_glyph(tmp_path: Path) -> None:
    """PDFium leaves the space out; the program's outline-less glyph says what it is."""
    import pikepdf

    from pytest_textlayer.repairs.blankglyphs import blank_codes
    from pytest_textlayer.repairs.fontusage import collect_fonts

    broken, _ = _severed(tmp_path, "fr")
    with pikepdf.open(io.BytesIO(broken.read_bytes())) as pdf:
        usages = [u for u in collect_fonts(pdf).values() if u.glyphs]
        # DejaVu's space is glyph 3 and Chromium keeps glyph ids as codes.
        assert all(blank_codes(u) == {3} for u in usages)


def _declaring(broken: Path, lang: str | None) -> None:
    """Make the catalog declare ``lang`` (None: declare nothing), as producers do or don't."""
    import pikepdf

    with pikepdf.open(io.BytesIO(broken.read_bytes())) as pdf:
        if lang is None:
            del pdf.Root.Lang
        else:
            pdf.Root.Lang = pikepdf.String(lang)
        pdf.save(broken)


def _what(runs: list[tuple[str, str, int]]) -> list[str]:
    return [what for what, _, _ in runs]


def test_the_language_comes_from_glyph_ocrs_own_first_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Russian page that names no language costs two Tesseract runs: script detection on a
    few words of the specimen sheet, and the sheet read in Russian, which glyph OCR keeps."""
    runs = tesseract_runs(monkeypatch)
    broken, truth = _severed(tmp_path, "ru")
    _declaring(broken, None)
    report = repair(broken, tmp_path / "ru.fixed.pdf")
    assert report.ocr is not None and "rus (from glyph OCR's first pass)" in report.ocr
    assert _what(runs) == ["Tesseract OSD", "Tesseract"]
    assert norm(poppler_pages((tmp_path / "ru.fixed.pdf").read_bytes())[0]) == truth


def test_a_page_that_declares_its_language_needs_no_script_detection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chromium writes the page's lang as the catalog's /Lang: the sheet is read in Russian
    straight away, one Tesseract run in all."""
    runs = tesseract_runs(monkeypatch)
    broken, truth = _severed(tmp_path, "ru")
    report = repair(broken, tmp_path / "ru.fixed.pdf")
    assert report.ocr is not None and "rus (from glyph OCR's first pass)" in report.ocr
    assert _what(runs) == ["Tesseract"]
    assert norm(poppler_pages((tmp_path / "ru.fixed.pdf").read_bytes())[0]) == truth


def test_a_declared_language_the_glyphs_contradict_is_not_believed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LibreOffice declares its default language, en-US, over a Russian text: read in English
    the votes disagree, script detection runs after all and the page is read in Russian."""
    runs = tesseract_runs(monkeypatch)
    broken, truth = _severed(tmp_path, "ru")
    _declaring(broken, "en-US")
    report = repair(broken, tmp_path / "ru.fixed.pdf")
    assert report.ocr is not None and "rus (from glyph OCR's first pass)" in report.ocr
    assert _what(runs) == ["Tesseract", "Tesseract OSD", "Tesseract"]
    assert norm(poppler_pages((tmp_path / "ru.fixed.pdf").read_bytes())[0]) == truth


@pytest.mark.skipif(not packs("ell"), reason="tesseract ell needed")
def test_a_greek_serif_page_is_read_in_greek(tmp_path: Path) -> None:
    """Tesseract's script detection takes this page (DejaVu Serif, a large bold heading) for
    Latin. Read in English, the votes agree on half its codes: a wrong script; read in
    Greek they agree on all but one, and the page comes back exactly, vector."""
    if not Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf").exists():
        pytest.skip("fonts-dejavu-extra is needed")
    broken, truth = _severed(tmp_path, "el", "DejaVu Serif")
    out = tmp_path / "el.fixed.pdf"
    report = repair(broken, out)
    [page] = report.pages
    assert page.action == "tounicode", report.render()
    assert report.ocr is not None and "ell" in report.ocr, report.ocr
    got = norm(poppler_pages(out.read_bytes())[0])
    assert difflib.SequenceMatcher(None, truth, got, autojunk=False).ratio() >= 0.99, got


@pytest.mark.parametrize(("declared", "pack"), [
    ("fr-FR", "fra"), ("ru", "rus"), ("EL_gr", "ell"), ("x-klingon", None), ("", None),
    (None, None), ("zh-TW", "chi_tra"), ("zh-Hant-HK", "chi_tra"), ("zh-Hans-HK", "chi_sim"),
    ("zh-CN", "chi_sim"), ("zh", "chi_sim"), ("nb-NO", "nor"),
])
def test_the_declared_language_is_read_as_a_tesseract_pack(
        declared: str | None, pack: str | None) -> None:
    import pikepdf

    from pytest_textlayer.repairs.glyphlang import declared_pack

    with pikepdf.new() as pdf:
        if declared is not None:
            pdf.Root.Lang = pikepdf.String(declared)
        assert declared_pack(pdf) == pack


def test_a_specimen_sheet_is_read_as_one_block_of_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sheet is rows of words laid out by glyph OCR itself: Tesseract is told so (page
    segmentation mode 6) instead of analysing its layout, and the page still reads exactly.
    Through the program (its arguments are what is checked), the route without tesserocr."""
    from PIL import Image

    monkeypatch.setenv("TEXTLAYER_TESSERACT_CLI", "1")
    reads: list[tuple[list[str], int]] = []
    real = ocr._run

    def seen(args: list[str], what: str) -> object:
        if what == "Tesseract":
            with Image.open(args[1]) as picture:
                reads.append((args, picture.height))
        return real(args, what)

    monkeypatch.setattr(ocr, "_run", seen)
    monkeypatch.setattr(ocr, "_READ", {})
    broken, truth = _severed(tmp_path, "fr")
    out = tmp_path / "fr.fixed.pdf"
    report = repair(broken, out)
    assert report.ok
    assert norm(poppler_pages(out.read_bytes())[0]) == truth
    page_height = 792 * 300 // 72  # the notice's Letter page at 300 dpi
    sheets = [args for args, height in reads if height < page_height]
    assert sheets and all("--psm" in args and "6" in args for args in sheets), reads


def test_a_page_read_while_choosing_the_language_is_rendered_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Declared Bulgarian, the Russian page is first read in Bulgarian; the letter-pair model
    names Russian and the page is read again in Russian, from the render and glyph boxes the
    first reading made."""
    from pytest_textlayer.repairs import glyphlang, glyphocr

    boxed: list[int] = []
    for module in (glyphlang, glyphocr):
        real = module.pdfium_glyphs

        def counted(*args: object, real: object = real, **kwargs: object) -> object:
            boxed.append(1)
            return real(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(module, "pdfium_glyphs", counted)
    runs = tesseract_runs(monkeypatch)
    broken, truth = _severed(tmp_path, "ru")
    _declaring(broken, "bg")
    out = tmp_path / "ru.fixed.pdf"
    report = repair(broken, out)
    assert report.ocr is not None and "rus (from glyph OCR's first pass)" in report.ocr
    assert _what(runs) == ["Tesseract", "Tesseract"]  # Bulgarian, then Russian: no script detection
    assert len(boxed) == 1
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


def test_a_specimen_sheet_is_read_as_one_block_of_lines_in_this_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through the engine kept in this process: the sheet's engine is made in page
    segmentation mode 6, and the program never runs."""
    from pytest_textlayer.repairs import tessapi

    if ocr.kept_engine(ocr.tesseract_info()) is None:
        pytest.skip("tesserocr built on the program's Tesseract is not installed (./dev builds it)")
    monkeypatch.setattr(tessapi, "_ENGINES", OrderedDict())
    monkeypatch.setattr(ocr, "_READ", {})
    programs: list[str] = []
    monkeypatch.setattr(ocr, "_run", lambda args, what: programs.append(what))
    broken, truth = _severed(tmp_path, "fr")
    out = tmp_path / "fr.fixed.pdf"
    report = repair(broken, out)
    assert report.ok and report.ocr is not None and "(tesserocr)" in report.ocr
    assert norm(poppler_pages(out.read_bytes())[0]) == truth
    assert [(lang, psm) for _, _, lang, psm in tessapi._ENGINES] == [("fra", ocr.PSM_BLOCK)]
    assert programs == []


@pytest.mark.parametrize("lang", ["ru"])
def test_through_the_program_a_severed_page_reads_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """``TEXTLAYER_TESSERACT_CLI=1``: every reading runs the ``tesseract`` program (the route
    without tesserocr), script detection included, and the page reads exactly as well."""
    monkeypatch.setenv("TEXTLAYER_TESSERACT_CLI", "1")
    monkeypatch.setattr(ocr, "_READ", {})
    programs = program_runs(monkeypatch)
    broken, truth = _severed(tmp_path, lang)
    _declaring(broken, "en-US")  # read in English, then script detection, then Russian
    out = tmp_path / f"{lang}.fixed.pdf"
    report = repair(broken, out)
    assert report.ocr is not None and "(tesserocr)" not in report.ocr
    assert programs == ["Tesseract", "Tesseract OSD", "Tesseract"]
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


def _long_notice(folder: Path, lang: str) -> tuple[Path, str]:
    """The notice with its paragraph three times: a page whose specimen sheet is a part of
    it, so the sheet, not the page, is read."""
    heading, body = TEXTS[lang]
    return _printed_severed(
        notice_page(folder, lang, heading, " ".join([body.replace("*", "")] * 3)), lang)


def test_a_declaration_the_head_of_the_sheet_refutes_costs_no_reading_of_the_sheet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LibreOffice's en-US over a Russian text: the sheet's first words, read in English,
    are read without confidence, so script detection runs at once, on those words, and
    the sheet is read in Russian only: its head, then the rest."""
    reads = tesseract_runs(monkeypatch)
    broken, truth = _long_notice(tmp_path, "ru")
    _declaring(broken, "en-US")
    out = tmp_path / "ru.fixed.pdf"
    report = repair(broken, out)
    assert report.ocr is not None and "rus (from glyph OCR's first pass)" in report.ocr
    assert [pack for _, pack, _ in reads] == ["eng", "osd", "rus", "rus"], reads
    (_, _, head), (_, _, looked), (_, _, again), (_, _, rest) = reads
    assert head == looked == again < rest
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


def test_pages_whose_codes_earlier_pages_read_are_not_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A document's later pages draw the codes its first has shown: once every code has
    the readings a sheet would give it, a page is neither read on a sheet nor read whole,
    and its text is still exact."""
    reads = tesseract_runs(monkeypatch)
    heading, body = TEXTS["fr"]
    page = notice_page(tmp_path, "fr", heading, " ".join([body.replace("*", "")] * 16))
    printed = tmp_path / "fr.orig.pdf"
    assert print_with_chromium(page, printed)
    variant = break_pdf(printed.read_bytes(), "sever")
    broken = tmp_path / "fr.pdf"
    broken.write_bytes(variant.pdf)
    out = tmp_path / "fr.fixed.pdf"
    report = repair(broken, out)
    assert len(report.pages) >= 2 and all(p.action == "tounicode" for p in report.pages)
    got = poppler_pages(out.read_bytes())
    assert [norm(t) for t in got] == [norm(t) for t in variant.truth]
    # The first page's sheet only: no picture as high as a third of a page at 300 dpi.
    assert reads and all(height < 1000 for _, _, height in reads), reads


@pytest.mark.skipif(not has_weasyprint(), reason="weasyprint is not installed")
def test_a_ligature_in_italics_reads_as_its_letters(tmp_path: Path) -> None:
    """WeasyPrint sets DejaVu's ﬁ in "ﬁnes": in the oblique face it is drawn once, and
    Tesseract boxes its i halfway to the n. The n, read alone in other words, keeps
    its n; the ﬁ gets its two letters."""
    page = notice_page(tmp_path, "en", "Library notice",
                       "Books borrowed in June are due in one week; *questions about late fines"
                       " and renewals can be sent to the main desk* on the ground floor.")
    broken, truth = _printed_severed(page, "en", print_with_weasyprint)
    out = tmp_path / "en.fixed.pdf"
    repair(broken, out)
    got = norm(poppler_pages(out.read_bytes())[0])
    assert "late fines" in truth and got == truth, got


_DROID = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#: Prose in scripts the notices do not have: (text, font, words as typeset).
_MORE = {
    "ja": ("三月三日から北地区の市立図書館は屋根の工事のため六週間休館します。借りた本は毎週"
           "火曜日と金曜日に屋内プールの前に止まる移動図書館に返却できます。", _DROID),
    "he": ("החל מהשלישי במרץ הספרייה העירונית ברובע הצפוני תיסגר לשישה שבועות בגלל תיקון הגג"
           " ניתן להחזיר ספרים לספרייה הניידת", _DEJAVU),
}


#: Notices of two paragraphs, in scripts written without spaces.
_UNSPACED = {
    "ja": ("北地区の住民の皆様へ",
           "三月三日から北地区の市立図書館は屋根の工事と閲覧室の電気設備の更新のため六週間休館します。"
           "借りた本は毎週火曜日と金曜日に屋内プールの前に止まる移動図書館に返却できます。ご不便を"
           "おかけして申し訳ありません。延滞料や予約についての質問はメールでお送りください。ボランティア"
           "が毎朝お答えします。蔵書はすべて四月中旬までに棚に戻り、貸出カードは通常の確認なしで有効の"
           "ままです。"),
    "zh": ("致北区居民的通知",
           "从三月三日起，北区市立图书馆将因屋顶施工和阅览室电气设备更新闭馆六周。借阅的图书可以在"
           "每周二和周五停在室内游泳池前的流动图书馆归还。给您带来不便，敬请谅解。有关罚款或预约的问题"
           "可以通过电子邮件发送，志愿者每天早上回复。全部藏书将在四月中旬前回到书架，借书卡无需常规"
           "检查继续有效。"),
}


@pytest.mark.skipif(not Path(_DROID).exists(), reason="fonts-droid-fallback is needed")
@pytest.mark.parametrize(("lang", "pack"), [("ja", "jpn"), ("zh", "chi_sim")])
def test_a_severed_page_written_without_spaces_reads_from_its_glyphs(
        tmp_path: Path, lang: str, pack: str) -> None:
    """A line of Japanese or Chinese is one glyph word that Tesseract reads as many words,
    boxed half a character off; paired letter by letter along the line, the glyphs get
    their characters and the page stays vector (it went to whole-page OCR, 5-6 s)."""
    if not packs(pack):
        pytest.skip(f"tesseract {pack} needed")
    heading, body = _UNSPACED[lang]
    broken, truth = _printed_severed(
        notice_page(tmp_path, lang, heading, body, "Droid Sans Fallback"), lang)
    out = tmp_path / f"{lang}.fixed.pdf"
    report = repair(broken, out)
    [page] = report.pages
    assert page.action == "tounicode", report.render()
    got = norm(poppler_pages(out.read_bytes())[0])
    # Tesseract reads a full-width comma as ","; the characters are what is measured.
    assert difflib.SequenceMatcher(None, truth.replace("，", ","), got, autojunk=False
                                   ).ratio() >= 0.97, got


def _typeset_sheet(text: str, font_path: str = _DEJAVU) -> object:
    """A specimen sheet of ``text`` typeset by Pillow at about 11 pt and 300 dpi, one word
    per place (six characters of a text without spaces), rows of 2,000 pixels."""
    from PIL import Image, ImageDraw, ImageFont

    from pytest_textlayer.repairs.pageglyphs import Glyph
    from pytest_textlayer.repairs.specimen import Sheet

    font = ImageFont.truetype(font_path, 46)
    image = Image.new("L", (2100, 1200), 255)
    draw = ImageDraw.Draw(image)
    places, words = [], []
    x, y = 50, 60
    pieces = text.split() if " " in text else [text[i:i + 6] for i in range(0, len(text), 6)]
    for word in pieces:
        x0, y0, x1, y1 = draw.textbbox((x, y), word, font=font)
        if x1 > 2050:
            x, y = 50, y + 110
            x0, y0, x1, y1 = draw.textbbox((x, y), word, font=font)
        draw.text((x, y), word, font=font, fill=0)
        places.append((float(x0), float(y0), float(x1), float(y1), 0.0, 0.0))
        words.append([Glyph(ord(c), (x0, y0, x1, y1), False) for c in word])
        x = x1 + 25
    return Sheet(image.crop((0, 0, 2100, y + 120)), places, words)


@pytest.mark.parametrize(("lang", "pack", "suits_english"), [
    ("fr", "fra", True), ("ru", "rus", False), ("ja", "jpn", False), ("he", "heb", False)])
def test_the_head_of_a_sheet_says_whether_a_pack_suits_and_which_language_it_is(
        lang: str, pack: str, suits_english: bool) -> None:
    """Read in English, a French head is read with confidence and reads as French, which
    then reads it; a Russian, Japanese or Hebrew head is read without confidence. A head
    read in its own language's pack stays there (a Russian one, however close Bulgarian
    comes)."""
    from pytest_textlayer.repairs.glyphlang import _head_language, _suits

    if not packs(pack, "eng"):
        pytest.skip(f"tesseract {pack} needed")
    if lang in _MORE:
        text, font = _MORE[lang]
        sheet = _typeset_sheet(text, font)
    else:
        body = TEXTS[lang][1].replace("*", "")
        sheet = _typeset_sheet(body + " " + body)
    assert _suits(sheet, "eng") is suits_english
    assert _suits(sheet, pack)
    if suits_english:
        assert _head_language(sheet, "eng") == pack
    assert _head_language(sheet, pack) == pack


def test_a_declaration_the_head_confirms_reads_the_sheet_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = tesseract_runs(monkeypatch)
    broken, truth = _long_notice(tmp_path, "ru")
    out = tmp_path / "ru.fixed.pdf"
    repair(broken, out)
    assert [pack for _, pack, _ in reads] == ["rus", "rus"], reads
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


def _turned(data: bytes, rotate: int) -> bytes:
    """The PDF with its content drawn turned against ``/Rotate``, so a viewer shows it as
    before: how a landscape table is set on a portrait page."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
            w, h = x1 - x0, y1 - y0
            matrix = {90: (0, 1, -1, 0, h, 0), 180: (-1, 0, 0, -1, w, h),
                      270: (0, -1, 1, 0, 0, w)}[rotate]
            page.contents_add(pikepdf.Stream(pdf, b"q %g %g %g %g %g %g cm\n" % matrix),
                              prepend=True)
            page.contents_add(pikepdf.Stream(pdf, b"\nQ"))
            page.MediaBox = [0, 0, h, w] if rotate in (90, 270) else [0, 0, w, h]
            page.Rotate = rotate
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_severed_page_turned_by_rotate_is_read_as_shown(tmp_path: Path, rotate: int) -> None:
    """PDFium renders the page turned as a viewer shows it; the glyph boxes turn with it,
    and the page keeps its vector text instead of going to whole-page OCR."""
    broken, truth = _severed(tmp_path, "fr")
    turned = tmp_path / "turned.pdf"
    turned.write_bytes(_turned(broken.read_bytes(), rotate))
    out = tmp_path / "turned.fixed.pdf"
    report = repair(turned, out)
    [page] = report.pages
    assert page.action == "tounicode" and "ocr-glyphs" in page.sources, report.render()
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


def _right_to_left_notice(folder: Path, lang: str, heading: str, body: str) -> Path:
    """The notice page set right to left (``dir='rtl'``), as such a page is written."""
    page = notice_page(folder, lang, heading, body)
    html_text = page.read_text(encoding="utf-8")
    page.write_text(html_text.replace(f"<html lang='{lang}'", f"<html lang='{lang}' dir='rtl'"),
                    encoding="utf-8")
    return page


HEBREW = ("הודעה לתושבי הרובע הצפוני",
          "החל מה-3 במרץ הספרייה העירונית ברחוב המחצבה תיסגר לשישה שבועות בגלל החלפת הגג. "
          "כ-150 ספרים שהושאלו אפשר להחזיר לספרייה הניידת, שחונה ליד הבריכה המקורה בכל יום שלישי "
          "ושישי. *שאלות על קנסות* אפשר לשלוח בדואר אלקטרוני; מתנדב עונה עליהן בכל בוקר.")


@pytest.mark.skipif(not packs("heb"), reason="tesseract heb needed")
@pytest.mark.parametrize("printer", [
    print_with_chromium,
    pytest.param(print_with_weasyprint, marks=pytest.mark.skipif(
        not has_weasyprint(), reason="weasyprint is not installed")),
], ids=["chromium", "weasyprint"])
def test_a_severed_right_to_left_page_reads_exactly(tmp_path: Path, printer: Any) -> None:
    """Hebrew, right to left: Tesseract gives a word's letters in reading order, right to
    left (but the digits of "כ-150" left to right), and the glyphs stand left to right on
    the page; paired the same way round, the page comes back exactly, vector. PDFium
    gives WeasyPrint's lines in reading order too: its characters, as many as the codes,
    are paired by alignment, not by position."""
    broken, truth = _printed_severed(_right_to_left_notice(tmp_path, "he", *HEBREW), "he",
                                     printer)
    out = tmp_path / "he.fixed.pdf"
    report = repair(broken, out)
    [done] = report.pages
    assert done.action == "tounicode" and "ocr-glyphs" in done.sources, report.render()
    assert report.ocr is not None and "heb" in report.ocr
    assert norm(poppler_pages(out.read_bytes())[0]) == truth


ARABIC = ("إعلان لسكان الحي الشمالي",
          "اعتبارا من الثالث من مارس ستغلق المكتبة البلدية في شارع المحاجر لمدة ستة أسابيع "
          "بسبب استبدال السقف. يمكن إعادة الكتب المستعارة إلى المكتبة المتنقلة التي تقف "
          "بجانب المسبح المغطى كل ثلاثاء وجمعة. ترسل الأسئلة عن الغرامات والحجوزات بالبريد "
          "الإلكتروني.")


@pytest.mark.skipif(not packs("ara"), reason="tesseract ara needed")
def test_a_severed_arabic_page_is_paired_in_drawing_order(tmp_path: Path) -> None:
    """PDFium gives shaped Arabic in reading order, a lam-alef glyph as two letters: its
    characters align with no code sequence. Put back in the order of the objects that
    draw them, one glyph per origin, they pair with the codes, and the page is repaired
    from its glyphs, vector, its text as the unbroken file's (similarity 0.99 or more)."""
    broken, truth = _printed_severed(_right_to_left_notice(tmp_path, "ar", *ARABIC), "ar")
    out = tmp_path / "ar.fixed.pdf"
    report = repair(broken, out)
    [done] = report.pages
    assert done.action == "tounicode" and "ocr-glyphs" in done.sources, report.render()
    got = norm(poppler_pages(out.read_bytes())[0])
    assert difflib.SequenceMatcher(None, truth, got, autojunk=False).ratio() >= 0.99, got
