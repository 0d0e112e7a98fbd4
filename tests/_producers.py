"""What the producer tests share: sample sentences, the system fonts, and the producers.

Chromium prints HTML; WeasyPrint (when importable) prints the same HTML;
LibreOffice writes a flat OpenDocument text (``.fodt``) to PDF; Ghostscript's
``pdfwrite`` distils another producer's PDF again, rewriting its fonts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from pytest_textlayer.generators.breakers import break_pdf, poppler_pages
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.model import Verdict
from pytest_textlayer.repairs.repairer import repair

FONTS = Path("/usr/share/fonts/truetype")
DEJAVU = FONTS / "dejavu"
#: Debian's fonts-droid-fallback: the CJK glyphs of the producer tests.
CJK_FONT = FONTS / "droid" / "DroidSansFallbackFull.ttf"

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
GHOSTSCRIPT = shutil.which("gs")

CHROMIUM = next(
    (p for p in (os.environ.get("TEXTLAYER_CHROMIUM"), shutil.which("chromium"),
                 shutil.which("chromium-browser")) if p),
    None,
)

#: One sentence of a committee's minutes per language (tests add longer CJK texts of their own).
SENTENCES = {
    "en": "The committee reviewed the annual report and agreed that the budget for the coming "
          "year should prioritise maintenance of the existing buildings before any new "
          "construction begins.",
    "fr": "Le comité a examiné le rapport annuel et convenu que le budget de l'année à venir "
          "devait donner la priorité à l'entretien des bâtiments existants avant toute "
          "construction nouvelle.",
    "de": "Der Ausschuss prüfte den Jahresbericht und einigte sich darauf, dass der Haushalt für "
          "das kommende Jahr der Instandhaltung der bestehenden Gebäude Vorrang geben sollte.",
    "pl": "Komisja przeanalizowała sprawozdanie roczne i uzgodniła, że budżet na nadchodzący "
          "rok powinien priorytetowo traktować utrzymanie istniejących budynków.",
    "ru": "Комитет рассмотрел годовой отчёт и согласился с тем, что в бюджете на предстоящий год "
          "приоритет следует отдать содержанию существующих зданий.",
    "el": "Η επιτροπή εξέτασε την ετήσια έκθεση και συμφώνησε ότι ο προϋπολογισμός του επόμενου "
          "έτους πρέπει να δώσει προτεραιότητα στη συντήρηση των υφιστάμενων κτιρίων.",
    "ar": "راجعت اللجنة التقرير السنوي واتفقت على أن ميزانية العام المقبل يجب أن تعطي الأولوية "
          "لصيانة المباني القائمة قبل البدء في أي بناء جديد.",
    "he": "הוועדה בחנה את הדוח השנתי והסכימה כי התקציב לשנה הבאה צריך לתת עדיפות לתחזוקת "
          "המבנים הקיימים לפני תחילת כל בנייה חדשה.",
    "vi": "Ủy ban đã xem xét báo cáo thường niên và nhất trí rằng ngân sách năm tới nên ưu tiên "
          "bảo trì các tòa nhà hiện có trước khi bắt đầu công trình mới.",
}


def print_with_chromium(page: Path, target: Path) -> bool:
    """Print an HTML file to PDF with headless Chromium (Skia); True when the PDF was written."""
    assert CHROMIUM is not None
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update",
         f"--print-to-pdf={target}", "--no-pdf-header-footer", page.as_uri()],
        capture_output=True, timeout=120, check=False,
    )
    return target.exists()


def has_weasyprint() -> bool:
    """WeasyPrint imports (it is no dependency of the project: install it to test it)."""
    try:
        import weasyprint  # noqa: F401
    except Exception:  # noqa: BLE001 - missing, or its system libraries (Pango) are
        return False
    return True


def print_with_weasyprint(page: Path, target: Path) -> bool:
    """Print an HTML file to PDF with WeasyPrint (Pango, fontTools subsets); True when written."""
    import logging

    import weasyprint

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    weasyprint.HTML(filename=str(page)).write_pdf(str(target))
    return target.exists()


_FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls><style:font-face style:name="F" svg:font-family="'{font}'"/>
</office:font-face-decls>
<office:styles>
<style:style style:name="P" style:family="paragraph"><style:paragraph-properties
 fo:text-align="justify" fo:margin-bottom="3mm" style:writing-mode="{mode}"/>
<style:text-properties style:font-name="F" style:font-name-asian="F" style:font-name-complex="F"
 fo:font-size="{size}pt" style:font-size-asian="{size}pt" style:font-size-complex="{size}pt"
 fo:language="{lang}" style:language-asian="{lang}" style:language-complex="{lang}"/></style:style>
<style:style style:name="H" style:family="paragraph" style:parent-style-name="P">
<style:paragraph-properties fo:text-align="start"/><style:text-properties fo:font-size="15pt"
 style:font-size-asian="15pt" style:font-size-complex="15pt" fo:font-weight="bold"
 style:font-weight-asian="bold" style:font-weight-complex="bold"/></style:style>
<style:style style:name="I" style:family="text"><style:text-properties fo:font-style="italic"
 style:font-style-asian="italic" style:font-style-complex="italic"/></style:style>
</office:styles>
<office:automatic-styles>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="148mm"
 fo:page-height="210mm" fo:margin-top="18mm" fo:margin-bottom="18mm" fo:margin-left="16mm"
 fo:margin-right="16mm" style:writing-mode="{mode}"/></style:page-layout>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/>
</office:master-styles>
<office:body><office:text>{body}</office:text></office:body></office:document>
"""


def fodt(lang: str, font: str, heading: str, paragraphs: list[str], *, size: float = 11,
         rtl: bool = False) -> str:
    """A flat OpenDocument text: a bold heading, then paragraphs in which ``*``-pairs are
    italic, on an A5 page in ``font``."""
    from xml.sax.saxutils import escape

    def para(text: str) -> str:
        parts = escape(text).split("*")
        return "".join(f'<text:span text:style-name="I">{p}</text:span>' if i % 2 else p
                       for i, p in enumerate(parts))

    body = f'<text:p text:style-name="H">{escape(heading)}</text:p>' + "".join(
        f'<text:p text:style-name="P">{para(p)}</text:p>' for p in paragraphs)
    return _FODT.format(font=escape(font), lang=lang, size=size, body=body,
                        mode="rl-tb" if rtl else "lr-tb")


def print_with_libreoffice(document: Path, target: Path) -> bool:
    """Convert an OpenDocument (or HTML) file to PDF with headless LibreOffice; True when written.

    A profile of its own per call: LibreOffice refuses to start beside
    another instance (a parallel test worker) that uses the same profile.
    """
    import tempfile

    assert SOFFICE is not None
    with tempfile.TemporaryDirectory(prefix="textlayer-lo-") as profile, \
            tempfile.TemporaryDirectory(prefix="textlayer-lo-out-") as out:
        subprocess.run(
            [SOFFICE, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless",
             "--norestore", "--convert-to", "pdf", "--outdir", out, str(document)],
            capture_output=True, timeout=180, check=False,
        )
        made = Path(out) / f"{document.stem}.pdf"
        if not made.exists():
            return False
        target.write_bytes(made.read_bytes())
    return True


def distil_with_ghostscript(source: Path, target: Path) -> bool:
    """Write ``source`` again through Ghostscript's pdfwrite (its own font subsets and
    encodings, as ps2pdf does); True when written."""
    assert GHOSTSCRIPT is not None
    subprocess.run(
        [GHOSTSCRIPT, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
         f"-sOutputFile={target}", str(source)],
        capture_output=True, timeout=180, check=False,
    )
    return target.exists() and target.stat().st_size > 0


#: Every breaker, on every font, the main font, the minor font.
BREAKERS = ("sever", "tounicode-name", "collapse", "pua", "shift", "scramble")
SELECTIONS = ("all", "main", "minor")


def assert_every_page_readable(pdfs: dict[str, bytes]) -> None:
    """Each PDF of a producer (by name) reads, every page `readable`."""
    for name, data in pdfs.items():
        report = classify(data, name=f"{name}.pdf")
        assert report.ok, "\n".join(report.render_lines())
        assert {p.verdict for p in report.pages} == {Verdict.READABLE}, name


def misses(name: str, data: bytes, breaker: str, select: str) -> list[str]:
    """Pages of the broken copy classified wrongly: a page the breaker broke past 10 % that is
    OK, or a page it left readable that is not."""
    variant = break_pdf(data, breaker, select=select, name=f"{name}.pdf")
    if not variant.applies:
        return []
    report = classify(variant.pdf, name=f"{name}-{breaker}.pdf")
    missed = []
    for truth, page in zip(variant.pages, report.pages, strict=True):
        broken = truth.expected is not Verdict.READABLE
        if page.ok == broken:
            missed.append(f"{name} p{page.number}: {truth.broken}/{truth.glyphs} glyphs "
                          f"broken, got {page.verdict.value}: {page.evidence[:1]}")
    return missed


def norm(text: str) -> str:
    """Whitespace folded: what the repair tests compare."""
    return " ".join(text.split())


def repaired_first_page(tmp_path: Path, data: bytes, breaker: str) -> tuple[str, str]:
    """(poppler's text of the original's first page, of the broken copy repaired without OCR)."""
    variant = break_pdf(data, breaker)
    assert variant.applies
    broken = tmp_path / f"{breaker}.pdf"
    broken.write_bytes(variant.pdf)
    out = tmp_path / f"{breaker}.fixed.pdf"
    repair(broken, out, ocr="never")
    return norm(variant.truth[0]), norm(poppler_pages(out.read_bytes())[0])
