"""The OCR paths of repair, with the real Tesseract and OCRmyPDF (about a second a page).

Few and small on purpose: one page each.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_repair_pdfs import DEJAVU, healthy_pdf, image_page_pdf, severed_pdf

from pytest_textlayer.errors import ExitCode, MissingOCR
from pytest_textlayer.model import Verdict
from pytest_textlayer.repairs import ocr
from pytest_textlayer.repairs.repairer import repair


def _has_langs(*langs: str) -> bool:
    try:
        info = ocr.tesseract_info()
    except MissingOCR:
        return False
    return all(lang in info.languages for lang in langs)


pytestmark = [
    pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed"),
    pytest.mark.skipif(
        not _has_langs("eng", "fra"), reason="tesseract-ocr with eng and fra needed"
    ),
]

FRENCH = "Le cœur a ses raisons que la raison\nne connaît point. On le sent en mille\nchoses."
ENGLISH = "The quick brown fox jumps over the lazy dog.\nPack my box with five dozen liquor jugs."
SERIF = "Sphinx of black quartz, judge my vow."


def _words(text: str) -> list[str]:
    return text.split()


def _pdfium(path: Path) -> list[str]:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def _render(path: Path, index: int = 0) -> bytes:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(path))
    try:
        return bytes(doc[index].render(scale=1.0).to_pil().convert("L").tobytes())
    finally:
        doc.close()


def _images(path: Path, index: int = 0) -> int:
    import pikepdf

    with pikepdf.open(path) as pdf:
        return len(pdf.pages[index].get_images())


def test_glyphs_read_by_tesseract_become_a_tounicode(tmp_path: Path) -> None:
    """Nothing in the file names the glyphs: OCR reads them and the page stays vector."""
    src, dst = tmp_path / "lost.pdf", tmp_path / "fixed.pdf"
    src.write_bytes(severed_pdf([FRENCH], order="first-use", keep="none"))
    report = repair(src, dst, lang="fr")
    [page] = report.pages
    assert page.action == "tounicode" and page.sources == ("ocr-glyphs",)
    assert page.after is Verdict.READABLE and report.ok
    assert _words(_pdfium(dst)[0]) == _words(FRENCH)
    assert _render(dst) == _render(src) and _images(dst) == 0
    assert report.ocr is not None and "fra (given)" in report.ocr


def test_mixed_page_repairs_one_font_from_its_order_and_the_other_from_its_glyphs(
    tmp_path: Path,
) -> None:
    src, dst = tmp_path / "mixed.pdf", tmp_path / "fixed.pdf"
    src.write_bytes(severed_pdf([ENGLISH], order="mac-standard", keep="none", broken_lines=[SERIF]))
    report = repair(src, dst)
    [page] = report.pages
    assert page.action == "tounicode"
    assert set(page.sources) == {"mac-standard", "ocr-glyphs"}
    assert report.ok
    assert _words(_pdfium(dst)[0]) == _words(ENGLISH + "\n" + SERIF)
    assert _render(dst) == _render(src)
    # The language came from the text the first font gave once repaired.
    assert report.ocr is not None and "eng (from the document's readable text)" in report.ocr


def test_image_only_page_gets_an_ocr_layer_and_readable_pages_stay_vector(tmp_path: Path) -> None:
    import pikepdf

    src, dst = tmp_path / "scan.pdf", tmp_path / "fixed.pdf"
    good, scan = tmp_path / "good.pdf", tmp_path / "scan1.pdf"
    good.write_bytes(healthy_pdf("This page has a healthy text layer already."))
    scan.write_bytes(image_page_pdf(ENGLISH))
    with pikepdf.new() as pdf, pikepdf.open(good) as g, pikepdf.open(scan) as s:
        pdf.pages.extend(g.pages)
        pdf.pages.extend(s.pages)
        pdf.save(src)
    report = repair(src, dst)
    assert [p.action for p in report.pages] == ["unchanged", "ocr"]
    assert report.pages[1].before is Verdict.ABSENT and report.pages[1].after is Verdict.READABLE
    assert report.ok
    assert _words(_pdfium(dst)[1]) == _words(ENGLISH)
    with pikepdf.open(src) as a, pikepdf.open(dst) as b:
        assert a.pages[0].Contents.read_bytes() == b.pages[0].Contents.read_bytes()
    assert _render(dst, 0) == _render(src, 0)


def test_force_rasterises_only_the_bad_page(tmp_path: Path) -> None:
    """--ocr force sends the bad page through OCRmyPDF --force-ocr; the good page is untouched."""
    import pikepdf

    src, dst = tmp_path / "two.pdf", tmp_path / "fixed.pdf"
    good, bad = tmp_path / "good.pdf", tmp_path / "bad.pdf"
    good.write_bytes(healthy_pdf("This page has a healthy text layer already."))
    bad.write_bytes(severed_pdf([ENGLISH], order="first-use", keep="none"))
    with pikepdf.new() as pdf, pikepdf.open(good) as g, pikepdf.open(bad) as b:
        pdf.pages.extend(g.pages)
        pdf.pages.extend(b.pages)
        pdf.save(src)
    report = repair(src, dst, ocr="force", lang="en")
    assert [p.action for p in report.pages] == ["unchanged", "ocr"]
    assert report.pages[1].sources == ("ocrmypdf-force",)
    assert report.ok
    assert _words(_pdfium(dst)[1]) == _words(ENGLISH)
    assert _images(dst, 1) >= 1 and _images(dst, 0) == 0


def test_missing_tesseract_is_exit_3_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src, dst = tmp_path / "scan.pdf", tmp_path / "fixed.pdf"
    src.write_bytes(image_page_pdf("A scanned page."))
    monkeypatch.setenv("TEXTLAYER_TESSERACT", str(tmp_path / "no-tesseract-here"))
    ocr._probe.cache_clear()
    try:
        with pytest.raises(MissingOCR, match="apt-get install tesseract-ocr") as info:
            repair(src, dst)
    finally:
        ocr._probe.cache_clear()
    assert info.value.exit_code == ExitCode.MISSING_OCR
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scan.pdf"]


def test_missing_language_pack_names_the_debian_package() -> None:
    with pytest.raises(MissingOCR, match="tesseract-ocr-kat") as info:
        ocr.require("eng+kat")
    assert info.value.exit_code == ExitCode.MISSING_OCR
    assert ocr.tesseract_lang("fr") == "fra" and ocr.tesseract_lang("de+en") == "deu+eng"
    assert ocr.tesseract_lang("fra") == "fra"
    assert ocr.tesseract_lang("zh-tw") == "chi_tra" and ocr.tesseract_lang("zh-cn") == "chi_sim"


@pytest.mark.parametrize(("text", "pack"), [
    ("中華民國憲法規定，國家應保障人民之自由與權利。這個國家的經濟發展與教育制度，"
     "歷經數十年的變遷，已經成為亞洲重要的經濟體之一。我們應該關心環境問題，"
     "並且努力維護臺灣的自然資源與文化傳統。", "chi_tra"),
    ("中华人民共和国宪法规定，国家应保障人民的自由与权利。这个国家的经济发展与教育制度，"
     "经历数十年的变迁，已经成为亚洲重要的经济体之一。我们应该关心环境问题，"
     "并且努力维护自然资源与文化传统。", "chi_sim"),
], ids=["traditional", "simplified"])
def test_readable_chinese_text_names_the_pack_of_its_characters(text: str, pack: str) -> None:
    """The letter-pair model names Chinese by its characters (``zh-tw``, ``zh-cn``): each
    names the pack that reads those characters, not none."""
    from pytest_textlayer.repairs.ocr_fallback import choose_lang

    assert choose_lang(None, text, iter(()), []) == (pack, "from the document's readable text")


def test_every_pack_names_its_language_as_the_reference_does() -> None:
    """The model's name for a pack's language is one it knows (Norwegian is ``no``, not
    ``nb``), or none for a language it has no reference of."""
    from pytest_textlayer.lang.langcodes import reference_code
    from pytest_textlayer.lang.langmodel import reference_model

    known = reference_model().languages
    for pack in set(ocr.TESSERACT_CODES.values()) | {"chi_tra"}:
        code = reference_code(pack)
        assert code is None or code in known, (pack, code)
        assert code is None or ocr.pack_of(code) == pack, (pack, code)


def test_probe_reports_version_and_languages() -> None:
    info = ocr.tesseract_info()
    assert info.version[0].isdigit()
    assert {"eng", "fra"} <= info.languages
    assert shutil.which("tesseract") is not None


def test_detected_language_without_its_pack_stands_in_within_its_script() -> None:
    from pytest_textlayer.repairs.ocr_fallback import _installed_or_fallback

    installed = frozenset({"eng", "fra", "rus", "osd"})
    assert _installed_or_fallback("fra", installed) == ("fra", None)
    code, note = _installed_or_fallback("ita", installed)
    assert code == "eng" and note is not None and "tesseract-ocr-ita" in note
    assert _installed_or_fallback("ukr+eng", installed)[0] == "eng+rus"
    with pytest.raises(MissingOCR, match="tesseract-ocr-ara"):
        _installed_or_fallback("ara", installed)


def test_type3_font_with_meaningless_names_is_read_from_its_glyphs(tmp_path: Path) -> None:
    """Type3 glyphs are boxed with the whole font box by PDFium; cells come from origins."""
    generators = pytest.importorskip("pytest_textlayer.generators")
    fixture = generators.generate("type3-unnamed", generators.default_text("en"))
    src, dst = tmp_path / "type3.pdf", tmp_path / "fixed.pdf"
    src.write_bytes(fixture.pdf)
    report = repair(src, dst, lang="en")
    [page] = report.pages
    assert page.action == "tounicode" and page.sources == ("ocr-glyphs",)
    assert report.ok
    assert _words(_pdfium(dst)[0]) == _words(fixture.pages[0].text)
    assert _render(dst) == _render(src)


def test_pages_whose_codes_are_settled_are_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Votes accumulate over the document; once every code on a page is settled, no more OCR."""
    line = "The quick brown fox jumps over the lazy dog."
    src, dst = tmp_path / "many.pdf", tmp_path / "fixed.pdf"
    src.write_bytes(severed_pdf([line] * 8, order="first-use", keep="none"))
    calls: list[int] = []
    real = ocr.recognise

    def counting(image, lang):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(image, lang)

    monkeypatch.setattr(ocr, "recognise", counting)
    report = repair(src, dst, lang="en")
    assert report.ok and all(p.sources == ("ocr-glyphs",) for p in report.pages)
    assert len(calls) <= 6
    assert all(_words(t) == _words(line) for t in _pdfium(dst))


def test_tounicode_with_holes_is_completed_from_the_glyphs(tmp_path: Path) -> None:
    """A ToUnicode missing the non-ASCII letters: PDFium drops a character, alignment copes."""
    generators = pytest.importorskip("pytest_textlayer.generators")
    fixture = generators.generate("partial", generators.default_text("ru"))
    src, dst = tmp_path / "partial.pdf", tmp_path / "fixed.pdf"
    src.write_bytes(fixture.pdf)
    report = repair(src, dst, lang="ru")
    [page] = report.pages
    assert page.action == "tounicode" and "ocr-glyphs" in page.sources
    assert report.ok
    truth = _words(fixture.pages[0].text)
    got = _words(_pdfium(dst)[0])
    assert len(set(got) & set(truth)) >= 0.85 * len(set(truth))  # a rare letter may stay open
    assert _render(dst) == _render(src)


def test_a_few_readable_words_do_not_name_the_documents_language() -> None:
    """Nineteen glyphs an order hypothesis read (a LibreOffice Hebrew page's italic phrase,
    taken for Spanish) once named the language every other font was read in. Under
    MIN_NAMING_LETTERS letters the readable text names nothing, unless it is the language
    the document declares; a paragraph does."""
    from pytest_textlayer.repairs.ocr_fallback import MIN_NAMING_LETTERS, choose_lang

    short = "Sabes todo"
    assert sum(c.isalpha() for c in short) < MIN_NAMING_LETTERS
    assert choose_lang(None, short, iter(()), []) == ("eng", "default")
    paragraph = ("Les livres déjà empruntés pourront être rendus au bibliobus, garé près de la "
                 "piscine chaque mardi et vendredi.")
    assert choose_lang(None, paragraph, iter(()), []) == (
        "fra", "from the document's readable text")
    # A heading confirms the language the document declares; it never names another.
    heading = "Avis aux habitants du quartier nord"
    assert choose_lang(None, heading, iter(()), [], "fra") == (
        "fra", "from the document's readable text and declared language")
    assert choose_lang(None, heading, iter(()), [], "eng") == ("eng", "default")
