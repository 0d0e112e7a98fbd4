"""Severed fonts written by other producers than Chromium, read from their glyphs.

LibreOffice writes simple symbolic TrueType subsets whose codes number the
glyphs in order of first use (1, 2, 3 ...) and whose program has only a
(1,0) cmap of those codes and ``post`` format 3: without its /ToUnicode
nothing names a glyph, and the codes that happen to fall on printable ASCII
are no more the text than the control codes below them. Ghostscript's
``pdfwrite`` rewrites Chromium's subsets; WeasyPrint writes its own
Type0 subsets. Each is printed here, severed by the ``sever`` breaker, and
must come back exactly, vector, with glyph OCR. The glyph orders weighed
for a severed subset (Chromium's too) are checked here as well.

Skipped without the producer, DejaVu, or Tesseract with the packs used.
"""

from __future__ import annotations

import difflib
import io
from pathlib import Path

import pytest
from _notices import NOTICES, notice_page
from _producers import (
    CHROMIUM,
    GHOSTSCRIPT,
    SOFFICE,
    distil_with_ghostscript,
    fodt,
    has_weasyprint,
    norm,
    print_with_chromium,
    print_with_libreoffice,
    print_with_weasyprint,
)
from _tesseract import packs, tesseract_runs

from pytest_textlayer.generators.breakers import break_pdf, poppler_pages
from pytest_textlayer.repairs.repairer import repair

TEXTS = {
    **NOTICES,
    "el": (
        "Ανακοίνωση προς τους κατοίκους",
        "Τα δανεισμένα βιβλία επιστρέφονται στο κινητό λεωφορείο, που σταθμεύει δίπλα στο "
        "κολυμβητήριο κάθε Τρίτη και Παρασκευή. *Ερωτήσεις για πρόστιμα ή κρατήσεις* "
        "στέλνονται με ηλεκτρονικό ταχυδρομείο.",
    ),
}

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


pytestmark = pytest.mark.skipif(not DEJAVU.exists(),
                                reason="fonts-dejavu-core is needed to build the PDFs")
needs_ocr = pytest.mark.skipif(not packs("fra", "rus", "ell", "osd"),
                               reason="tesseract fra, rus, ell, osd needed")
HAVE = {
    "libreoffice": SOFFICE is not None,
    "ghostscript": CHROMIUM is not None and GHOSTSCRIPT is not None,
    "weasyprint": has_weasyprint(),
}


def _html(folder: Path, lang: str) -> Path:
    heading, body = TEXTS[lang]
    return notice_page(folder, lang, heading, body)


def _produce(folder: Path, producer: str, lang: str) -> tuple[bytes, str]:
    """The unbroken PDF, and the text its glyphs show (page 1)."""
    if not HAVE[producer]:
        pytest.skip(f"{producer} is not installed")
    out = folder / f"{producer}-{lang}.pdf"
    if producer == "libreoffice":
        heading, body = TEXTS[lang]
        source = folder / f"{lang}.fodt"
        source.write_text(fodt(lang, "DejaVu Sans", heading, [body]), encoding="utf-8")
        assert print_with_libreoffice(source, out)
        return out.read_bytes(), norm(poppler_pages(out.read_bytes())[0])
    page = _html(folder, lang)
    if producer == "weasyprint":
        assert print_with_weasyprint(page, out)
        return out.read_bytes(), norm(poppler_pages(out.read_bytes())[0])
    chromium = folder / f"chromium-{lang}.pdf"
    assert print_with_chromium(page, chromium)
    assert distil_with_ghostscript(chromium, out)
    # Ghostscript's own ToUnicode of these subsets misreads Cyrillic: the glyphs are Chromium's.
    return out.read_bytes(), norm(poppler_pages(chromium.read_bytes())[0])


def _without_tounicode(data: bytes) -> bytes:
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                if "/ToUnicode" in font:
                    del font["/ToUnicode"]
        out = io.BytesIO()
        pdf.save(out)
    return out.getvalue()


def test_codes_numbered_in_order_of_first_use_are_not_read_as_ascii(tmp_path: Path) -> None:
    """LibreOffice's body subset draws codes 1..49: those past 0x20 are no more ASCII than the
    control codes before them, so every glyph is unmapped once the ToUnicode is gone."""
    from pytest_textlayer import classify

    data, _ = _produce(tmp_path, "libreoffice", "fr")
    [page] = classify(_without_tounicode(data)).pages
    assert page.verdict.value == "undecodable"
    assert page.unmapped_glyphs == page.glyphs, page.evidence


def test_no_glyph_order_is_tried_on_glyphs_numbered_in_order_of_first_use(
        tmp_path: Path) -> None:
    """LibreOffice numbers a subset's glyphs as the text first draws them: under any standard
    order its letters would first appear in alphabetical order, so none is weighed (a short
    italic phrase once passed as Spanish at offset +67). A browser's subset, glyph ids in
    the font's own order, still gets its hypotheses."""
    import pikepdf

    from pytest_textlayer.repairs.fontusage import FontUsage, collect_fonts, gid_codes
    from pytest_textlayer.repairs.ordermaps import numbered_by_first_use, order_hypotheses

    data, _ = _produce(tmp_path, "libreoffice", "fr")
    with pikepdf.open(io.BytesIO(_without_tounicode(data))) as pdf:
        usages = [u for u in collect_fonts(pdf).values() if u.glyphs]
        assert usages and all(numbered_by_first_use(u, gid_codes(u)) for u in usages)
        assert all(order_hypotheses(u) == [] for u in usages)
    browser = FontUsage((1, 0), None, "F", "Type0", 2,
                        pages={0: [[36, 89, 76, 86, 3, 68, 88, 91, 75, 69]]})
    assert not numbered_by_first_use(browser, {c: c for c in browser.codes()})
    short = FontUsage((1, 0), None, "F", "TrueType", 1, pages={0: [[1, 2, 1, 3, 2, 4]]})
    assert not numbered_by_first_use(short, {c: c for c in short.codes()})


def test_the_sever_breaker_severs_libreoffice_subsets(tmp_path: Path) -> None:
    data, _ = _produce(tmp_path, "libreoffice", "fr")
    variant = break_pdf(data, "sever")
    assert variant.applies
    assert [f.subtype for f in variant.fonts] == ["TrueType"] * 3
    assert all(f.changed == f.glyphs and f.program is None for f in variant.fonts)
    assert poppler_pages(variant.pdf)[0] != poppler_pages(data)[0]


def test_the_space_of_a_simple_subset_is_its_empty_glyph(tmp_path: Path) -> None:
    """A simple TrueType reaches its glyphs through its (1,0) cmap: the space is found there."""
    import pikepdf

    from pytest_textlayer.repairs.blankglyphs import blank_codes
    from pytest_textlayer.repairs.fontusage import collect_fonts

    data, _ = _produce(tmp_path, "libreoffice", "fr")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        usages = [u for u in collect_fonts(pdf).values() if u.glyphs]
        spaces = {u.name: {u.font.ToUnicode.read_bytes().count(f"<{c:02X}> <0020>".encode())
                           for c in blank_codes(u)} for u in usages}
    assert len(usages) == 3
    assert all(found == {1} for found in spaces.values()), spaces


def test_no_glyph_order_reads_the_space_of_a_simple_subset_as_a_letter(tmp_path: Path) -> None:
    """LibreOffice's italic subset of a Greek phrase: 16 glyphs numbered 1..16. Shifted by 67
    they spell Latin capitals the letter-pair model may take for Dutch, but glyph 7 is
    empty and advances: the space, which no such shift leaves a space."""
    import pikepdf

    from pytest_textlayer.lang import langmodel
    from pytest_textlayer.repairs.fontusage import collect_fonts
    from pytest_textlayer.repairs.ordermaps import order_hypotheses

    data, _ = _produce(tmp_path, "libreoffice", "el")
    model = langmodel.reference_model()
    with pikepdf.open(io.BytesIO(break_pdf(data, "sever").pdf)) as pdf:
        taken = {u.name: [(h.source, h.offset) for h in order_hypotheses(u, model) if h.passes]
                 for u in collect_fonts(pdf).values() if u.glyphs}
    assert len(taken) == 3
    assert not any(taken.values()), taken


def test_an_offset_is_weighed_only_when_it_reads_the_space_as_a_space(tmp_path: Path) -> None:
    """Chromium numbers a subset's glyphs in order of first use, so its space is a low glyph
    id: an offset that moves it onto a control character reads the text without spaces, and
    is not judged at all. (A Greek heading has so few spaces that such offsets still covered
    nine glyphs in ten, and a hundred of them were judged, one language judgement each.)"""
    import pikepdf

    from pytest_textlayer.lang import langmodel
    from pytest_textlayer.repairs.blankglyphs import blank_codes
    from pytest_textlayer.repairs.fontusage import collect_fonts
    from pytest_textlayer.repairs.ordermaps import order_hypotheses

    if CHROMIUM is None:
        pytest.skip("chromium is not installed")
    heading, body = TEXTS["el"]
    chromium = tmp_path / "chromium-el.pdf"
    assert print_with_chromium(notice_page(tmp_path, "el", heading, body, "Liberation Serif"),
                               chromium)
    model = langmodel.reference_model()
    weighed: dict[str, list[int | None]] = {}
    with pikepdf.open(io.BytesIO(break_pdf(chromium.read_bytes(), "sever").pdf)) as pdf:
        for usage in (u for u in collect_fonts(pdf).values() if u.glyphs):
            counts = usage.codes()
            space = max(blank_codes(usage), key=counts.__getitem__)
            offsets = [h for h in order_hypotheses(usage, model) if h.source == "offset"]
            weighed[usage.name] = [h.offset for h in offsets]
            assert all(h.mapping.get(space, "").isspace() for h in offsets), weighed
    assert len(weighed) == 3
    assert sum(map(len, weighed.values())) <= 3, weighed


@needs_ocr
@pytest.mark.parametrize(("producer", "lang"), [
    ("libreoffice", "fr"), ("libreoffice", "el"), ("ghostscript", "ru"), ("weasyprint", "ru"),
])
def test_a_severed_page_of_another_producer_reads_exactly_and_stays_vector(
        tmp_path: Path, producer: str, lang: str) -> None:
    data, truth = _produce(tmp_path, producer, lang)
    variant = break_pdf(data, "sever")
    assert variant.applies
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(variant.pdf)
    out = tmp_path / "fixed.pdf"
    report = repair(broken, out)  # the language is found, not given
    [page] = report.pages
    assert page.action == "tounicode", report.render()
    assert "ocr-glyphs" in page.sources
    assert report.ok
    got = norm(poppler_pages(out.read_bytes())[0])
    # Exact by the measure, and nothing misread: a code OCR could not settle (a ";"
    # Tesseract read as ";:" once) is left out, never guessed.
    matcher = difflib.SequenceMatcher(None, truth, got, autojunk=False)
    assert matcher.ratio() >= 0.99, (truth, got)
    assert {op for op, *_ in matcher.get_opcodes()} <= {"equal", "delete"}, (truth, got)


@needs_ocr
@pytest.mark.skipif(not HAVE["libreoffice"], reason="libreoffice is not installed")
def test_a_script_detection_error_costs_no_reading_in_packs_that_do_not_suit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """LibreOffice declares en-US over a Greek text in DejaVu Serif, and script detection
    takes the sheet for Latin: the packs of the other scripts are tried on the head of the
    sheet first, and the first whose reading agrees ends the search. Reading the sheet in
    each (English again, Arabic, Hebrew, Chinese, Japanese, Korean too) took 4.9 s of CPU."""
    import importlib.util

    # The benchmark's notice, its paragraphs twice: script detection names Latin on the
    # head and on the whole sheet alike.
    spec = importlib.util.spec_from_file_location(
        "severed_texts", Path(__file__).parents[2] / "benchmarks" / "severed_texts.py")
    assert spec is not None and spec.loader is not None
    texts = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(texts)
    heading, *paragraphs = texts.TEXTS["el"]
    source = tmp_path / "el.fodt"
    source.write_text(fodt("el", "DejaVu Serif", heading, paragraphs * 2), encoding="utf-8")
    printed = tmp_path / "el.orig.pdf"
    assert print_with_libreoffice(source, printed)
    variant = break_pdf(printed.read_bytes(), "sever")
    broken = tmp_path / "el.pdf"
    broken.write_bytes(variant.pdf)
    runs = tesseract_runs(monkeypatch)
    out = tmp_path / "el.fixed.pdf"
    repair(broken, out)
    for got, want in zip(poppler_pages(out.read_bytes()), variant.truth, strict=True):
        assert difflib.SequenceMatcher(None, norm(want), norm(got), autojunk=False
                                       ).ratio() >= 0.99, got
    read_whole = [pack for what, pack, height in runs if what == "Tesseract" and height > 400]
    assert {pack for _, pack, _ in runs} <= {"eng", "osd", "rus", "ell"}, runs
    # Nor is the sheet read in English, whose pack the head refuted already.
    assert read_whole == ["ell"], runs
