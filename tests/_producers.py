"""What the producer tests share: sample sentences, the system fonts, and Chromium's printer."""

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
