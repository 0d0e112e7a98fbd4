"""fpdf2 and PyMuPDF (MuPDF), two producers many Python projects print with, in six scripts.

fpdf2 writes its standard fonts as WinAnsi Type1 and every added TrueType
as an Identity-H subset whose CIDs are numbered in order of first use, with
a ToUnicode. PyMuPDF writes the standard fonts unembedded, a font file given
to ``insert_text`` as an Identity-H font whose CIDs are the original glyph
ids (no cmap, no post left in the subset) and, through ``insert_htmlbox``
(MuPDF's Story, shaped with HarfBuzz), one font object per call. Their
pages must all be readable; broken on purpose (the real breakers of
:mod:`pytest_textlayer.generators.breakers`), every page the breaker made bad must be
flagged and every page it left readable must stay OK.

Skipped without fpdf2; the PyMuPDF half is skipped without PyMuPDF, the
whole module without the DejaVu fonts (Debian: ``fonts-dejavu-core``).
"""

from __future__ import annotations

import functools
import html
import importlib.util
from collections.abc import Callable
from typing import Any

import pytest
from _producers import (
    BREAKERS,
    CJK_FONT,
    DEJAVU,
    SELECTIONS,
    SENTENCES,
    assert_every_page_readable,
    misses,
)

from pytest_textlayer.generators.breakers import break_pdf
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.model import Verdict

fpdf = pytest.importorskip("fpdf")


pytestmark = pytest.mark.skipif(
    not (DEJAVU / "DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)

TEXTS = {
    **{lang: SENTENCES[lang] for lang in ("en", "de", "pl", "ru", "el", "ar")},
    "ja": "委員会は年次報告書を検討し、来年度の予算は新たな建設を始める前に既存の建物の維持管理を"
          "優先すべきであることに合意した。委員はまた、会計担当者に対し、住民が会費の使途を確認し"
          "次回の会合で質問できるよう、四半期ごとに会計報告を公表するよう求めた。",
    "zh": "委员会审查了年度报告，并同意明年的预算应优先用于维护现有建筑，"
          "然后再开始任何新的建设工程。委员们还要求司库每个季度公布账目。",
}


def _words(lang: str, count: int) -> list[str]:
    text = TEXTS[lang]
    if lang in ("zh", "ja"):
        text = text.replace("，", "").replace("、", "").replace("。", "")
        return [text[i:i + 4] for i in range(0, 4 * count, 4)]
    return [w.strip(",.") for w in text.split()][:count]


# -- fpdf2 -------------------------------------------------------------------------------------


def _fpdf_document(lang: str) -> bytes:
    """Prose, a table of amounts and dates, a mixed-font page with bullets, a heading page."""
    pdf = fpdf.FPDF()
    pdf.set_auto_page_break(True, 20)
    line: dict[str, Any] = {"new_x": "LMARGIN", "new_y": "NEXT"}
    if lang == "core":
        regular, serif, mono, text = "helvetica", "times", "courier", TEXTS["en"]
        bold, italic = "B", "I"
    elif lang == "zh":
        pdf.add_font("cjk", "", str(CJK_FONT))
        pdf.add_font("dv", "", str(DEJAVU / "DejaVuSans.ttf"))
        pdf.set_fallback_fonts(["dv"])  # Droid Sans Fallback has no Latin letters or digits
        regular = serif = mono = "cjk"
        bold = italic = ""
        text = TEXTS[lang]
    else:
        for style, file in (("", "DejaVuSans.ttf"), ("B", "DejaVuSans-Bold.ttf"),
                            ("I", "DejaVuSans-Oblique.ttf")):
            pdf.add_font("dv", style, str(DEJAVU / file))
        pdf.add_font("dvs", "B", str(DEJAVU / "DejaVuSerif-Bold.ttf"))
        pdf.add_font("dvm", "", str(DEJAVU / "DejaVuSansMono.ttf"))
        regular, serif, mono, text = "dv", "dvs", "dvm", TEXTS[lang]
        bold, italic = "B", "I"
    words = _words("en" if lang == "core" else lang, 12)
    pdf.add_page()
    pdf.set_font(serif, bold, 16)
    pdf.multi_cell(0, 9, text[:40], **line)
    pdf.set_font(regular, "", 11)
    for _ in range(4):
        pdf.multi_cell(0, 6, text, **line)
        pdf.ln(2)
    pdf.add_page()
    pdf.set_font(regular, "", 10)
    for i, word in enumerate(words):
        pdf.cell(15, 7, str(i + 1))
        pdf.cell(60, 7, word)
        pdf.cell(40, 7, f"{(i + 1) * 1234.5:,.2f}", align="R")
        pdf.cell(40, 7, f"2026-{i % 12 + 1:02d}-{i % 28 + 1:02d}", **line)
    pdf.add_page()
    pdf.set_font(regular, bold, 11)
    pdf.multi_cell(0, 6, text[:60], **line)
    pdf.set_font(regular, italic, 11)
    pdf.multi_cell(0, 6, text[60:], **line)
    pdf.set_font(mono, "", 10)
    pdf.multi_cell(0, 5, text[:50], **line)
    pdf.set_font(regular, "", 11)
    for i, word in enumerate(words[:8]):
        pdf.multi_cell(0, 7, f"- {word}: {text[i * 5:i * 5 + 40]}", **line)
    pdf.add_page()
    pdf.set_font(serif, bold, 30)
    pdf.cell(0, 20, text[:20])
    return bytes(pdf.output())


# -- PyMuPDF -----------------------------------------------------------------------------------


def _mupdf_document(lang: str, route: str) -> bytes:
    """`base14`: the standard fonts; `ttf`: insert_text with font files, subset; `html`:
    insert_htmlbox (MuPDF's Story) with @font-face fonts from the file system."""
    pymupdf = pytest.importorskip("pymupdf")
    text = TEXTS[lang]
    words = _words(lang, 12)
    doc = pymupdf.open()
    if route == "html":
        archive = pymupdf.Archive(str(DEJAVU))
        if lang == "zh":
            archive.add(pymupdf.Archive(str(CJK_FONT.parent)), "")
        css = ("@font-face {font-family: DV; src: url(DejaVuSans.ttf)} "
               "@font-face {font-family: DV; src: url(DejaVuSans-Bold.ttf); font-weight: bold} "
               "@font-face {font-family: DVS; src: url(DejaVuSerif.ttf)} "
               "@font-face {font-family: CJK; src: url(DroidSansFallbackFull.ttf)} "
               "body {font-family: DV, CJK} h1 {font-family: DVS, CJK}")
        t = html.escape(text)
        rows = "".join(f"<tr><td>{i + 1}</td><td>{html.escape(w)}</td>"
                       f"<td>{(i + 1) * 1234.5:,.2f}</td><td>2026-0{i % 9 + 1}-1{i % 9}</td></tr>"
                       for i, w in enumerate(words))
        items = "".join(f"<li>{html.escape(w)}</li>" for w in words[:8])
        direction = "rtl" if lang == "ar" else "ltr"
        for body in (f"<h1>{t[:40]}</h1>" + f"<p>{t}</p>" * 2,
                     f"<table border=1>{rows}</table><p><b>{t[:60]}</b> {t[60:]}</p>",
                     f"<ul>{items}</ul>"):
            page = doc.new_page()
            page.insert_htmlbox(pymupdf.Rect(56, 56, 540, 780),
                                f"<div dir='{direction}'>{body}</div>", css=css, archive=archive)
        doc.subset_fonts()
        return bytes(doc.tobytes(garbage=3, deflate=True))

    def fonts(name: str) -> dict[str, Any]:
        if route == "base14":
            return {"fontname": name}
        file = {"helv": "DejaVuSans.ttf", "hebo": "DejaVuSerif-Bold.ttf",
                "cour": "DejaVuSansMono.ttf"}[name]
        return {"fontname": "F" + name, "fontfile": str(DEJAVU / file)}

    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(56, 40, 540, 80), text[:40], fontsize=16, **fonts("hebo"))
    page.insert_textbox(pymupdf.Rect(56, 90, 540, 780), "\n\n".join([text] * 5), fontsize=11,
                        **fonts("helv"))
    page = doc.new_page()
    for i, word in enumerate(words):
        y = 70 + 18 * i
        page.insert_text((60, y), str(i + 1), fontsize=10, **fonts("cour"))
        page.insert_text((90, y), word, fontsize=10, **fonts("helv"))
        page.insert_text((300, y), f"{(i + 1) * 1234.5:,.2f}", fontsize=10, **fonts("cour"))
    page = doc.new_page()  # a heading and a page number
    page.insert_text((60, 300), text[:20], fontsize=30, **fonts("hebo"))
    page.insert_text((290, 810), "3", fontsize=9, **fonts("cour"))
    if route == "ttf":
        doc.subset_fonts()
    return bytes(doc.tobytes(garbage=3, deflate=True))


def _fpdf_cjk_bullets(lang: str) -> bytes:
    """A heading and a paragraph, then a page of bullets, in an fpdf2 CJK subset alone."""
    pdf = fpdf.FPDF()
    pdf.add_font("cjk", "", str(CJK_FONT))
    line: dict[str, Any] = {"new_x": "LMARGIN", "new_y": "NEXT"}
    text = TEXTS[lang]
    half = text.index("。") + 1
    pdf.add_page()
    pdf.set_font("cjk", "", 16)
    pdf.multi_cell(0, 9, text[:40], **line)
    pdf.set_font("cjk", "", 11)
    pdf.multi_cell(0, 6, text, **line)
    pdf.add_page()
    for i, word in enumerate(_words(lang, 12)):
        pdf.multi_cell(0, 7, f"- {word}: {(text[:half], text[half:])[i % 2][:45]}", **line)
    return bytes(pdf.output())


BUILDERS: dict[str, Callable[[], bytes]] = {
    "fpdf-core": lambda: _fpdf_document("core"),
    **{f"fpdf-{lang}": functools.partial(_fpdf_document, lang) for lang in ("pl", "ru", "zh")},
    "mupdf-base14-de": lambda: _mupdf_document("de", "base14"),
    "mupdf-ttf-el": lambda: _mupdf_document("el", "ttf"),
    **{f"mupdf-html-{lang}": functools.partial(_mupdf_document, lang, "html")
       for lang in ("en", "zh")},
}
#: Built only for the expected failures below.
EXTRA: dict[str, Callable[[], bytes]] = {
    "fpdf-ja-bullets": lambda: _fpdf_cjk_bullets("ja"),
    "mupdf-ttf-pl": lambda: _mupdf_document("pl", "ttf"),
}


@functools.cache
def _build(name: str) -> bytes | None:
    """The named PDF, or None when its producer or its fonts are missing here."""
    if ("zh" in name or "ja" in name) and not CJK_FONT.exists():
        return None  # fonts-droid-fallback is absent
    if name.startswith("mupdf") and importlib.util.find_spec("pymupdf") is None:
        return None
    return {**BUILDERS, **EXTRA}[name]()


@pytest.fixture(scope="module")
def pdfs() -> dict[str, bytes]:
    return {name: data for name in BUILDERS if (data := _build(name)) is not None}


#: (PDF, breaker, selection) whose broken pages a known defect lets through; each is asserted
#: on its own below, as an expected failure that names the cause.
KNOWN_MISSES: set[tuple[str, str, str]] = set()


def test_every_page_they_print_is_readable(pdfs: dict[str, bytes]) -> None:
    assert pdfs, "no PDF could be built"
    assert_every_page_readable(pdfs)


@pytest.mark.parametrize("select", SELECTIONS)
@pytest.mark.parametrize("breaker", BREAKERS)
def test_broken_copies_are_flagged_and_untouched_pages_stay_ok(
    pdfs: dict[str, bytes], breaker: str, select: str
) -> None:
    missed: list[str] = []
    for name, data in pdfs.items():
        if (name, breaker, select) not in KNOWN_MISSES:
            missed += misses(name, data, breaker, select)
    assert not missed, "\n".join(missed)


def _known(name: str, breaker: str, select: str) -> None:
    data = _build(name)
    if data is None:
        pytest.skip(f"{name} cannot be built here")
    variant = break_pdf(data, breaker, select=select, name=f"{name}.pdf")
    if not any(p.expected is not Verdict.READABLE for p in variant.pages):
        raise RuntimeError(f"{breaker}/{select} broke no page of {name}: nothing to test")
    missed = misses(name, data, breaker, select)
    assert not missed, "\n".join(missed)


@pytest.mark.parametrize("breaker", ["sever", "tounicode-name"])
def test_severed_cjk_subset_numbered_by_first_use_is_flagged(breaker: str) -> None:
    _known("fpdf-ja-bullets", breaker, "all")


def test_scrambled_cjk_map_of_a_cmapless_subset_is_flagged() -> None:
    """A permuted map over ideographs still reads as Chinese, and MuPDF's subsets keep no cmap,
    no names and equal widths; the glyph ids of its letters no longer follow their order."""
    _known("mupdf-html-zh", "scramble", "all")


def test_shifted_heading_page_is_flagged() -> None:
    """20 letters are too few for the language judge, but a map that sends the space to a
    control character gets the shift search anyway."""
    _known("mupdf-ttf-pl", "shift", "all")


def test_arabic_page_with_few_unmapped_shaped_glyphs_stays_readable() -> None:
    pymupdf = pytest.importorskip("pymupdf")
    doc = pymupdf.open()
    text, english = html.escape(TEXTS["ar"]), html.escape(TEXTS["en"])
    for body in (f"<p>{text}</p><p dir='ltr'>{english}</p>" * 2,
                 f"<h2>{text[:30]}</h2><p>{text}</p><p dir='ltr'>{english}</p>"):
        doc.new_page().insert_htmlbox(pymupdf.Rect(56, 56, 540, 780),
                                      f"<div dir='rtl'>{body}</div>")
    report = classify(bytes(doc.tobytes()), name="mupdf-ar.pdf")
    shares = [p.unmapped_glyphs / p.glyphs for p in report.pages]
    if not all(0 < s <= 0.1 for s in shares):  # the defect must be there, under the limit
        raise RuntimeError(f"shares of unmapped glyphs {shares}: not the case under test")
    assert report.ok, "\n".join(report.render_lines())
