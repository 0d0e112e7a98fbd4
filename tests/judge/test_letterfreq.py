"""Letter frequencies: a permuted map of a right-to-left script that nothing else can check.

A scramble keeps the letters a font maps and detaches them from how often
each code is drawn. Arabic, Persian and Hebrew are judged by letter pairs in
both reading orders, so a permuted map can read as language; when the font
program has no cmap or glyph names to compare with (re-distilled subsets,
as cairo and Ghostscript write them) and its glyph ids follow first use,
only the letters' frequencies tell. Built with fpdf2 (shaped text, an
Identity-H subset numbered in order of first use), the program's cmap and
post then dropped the way a re-distilling printer leaves them.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest
from _paths import REAL_CORPUS
from _producers import DEJAVU

from pytest_textlayer.generators.breakers import break_pdf
from pytest_textlayer.generators.common import derangement
from pytest_textlayer.generators.fontprograms import drop_cmap_and_post
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.judge.letterfreq import MIN_AGREEMENT, agreement
from pytest_textlayer.model import Verdict

#: A few sentences of minutes per language: enough letters for their frequencies to show.
PROSE = {
    "ar": "راجعت اللجنة التقرير السنوي واتفقت على أن ميزانية العام المقبل يجب أن تعطي الأولوية "
          "لصيانة المباني القائمة قبل البدء في أي بناء جديد. وطلب الأعضاء من أمين الصندوق أن "
          "ينشر الحسابات كل ثلاثة أشهر حتى يتمكن السكان من معرفة كيفية إنفاق اشتراكاتهم وطرح "
          "الأسئلة في الاجتماع التالي. وناقشت اللجنة أيضا خطة لتحسين الحديقة العامة وإضاءة "
          "الشوارع في الحي، وقررت أن تعرض المقترحات على السكان في نهاية الشهر.",
    "fa": "کمیته گزارش سالانه را بررسی کرد و توافق کرد که بودجه سال آینده باید پیش از آغاز هر "
          "ساخت و ساز تازه به نگهداری ساختمان‌های موجود اولویت بدهد. اعضا همچنین از خزانه‌دار "
          "خواستند که حساب‌ها را هر سه ماه یک بار منتشر کند تا ساکنان بتوانند ببینند حق عضویت "
          "آنها چگونه خرج می‌شود و در نشست بعدی پرسش‌های خود را مطرح کنند.",
    "he": "הוועדה בחנה את הדוח השנתי והסכימה כי התקציב לשנה הבאה צריך לתת עדיפות לתחזוקת "
          "המבנים הקיימים לפני תחילת כל בנייה חדשה. החברים ביקשו גם מהגזבר לפרסם את החשבונות "
          "מדי שלושה חודשים, כדי שהתושבים יוכלו לראות כיצד הוצאו דמי החבר שלהם ולשאול שאלות "
          "בישיבה הבאה. הוועדה דנה גם בתוכנית לשיפור הגן הציבורי ולתאורת הרחובות בשכונה.",
}


def _counts(text: str) -> Counter[str]:
    return Counter(ch for ch in text if ch.isalpha())


@pytest.mark.parametrize("lang", sorted(PROSE))
def test_prose_follows_its_language_and_a_permutation_does_not(lang: str) -> None:
    counts = _counts(PROSE[lang] * 2)
    right = agreement(counts)
    assert right is not None and right.agrees, right
    for seed in (1, 2, 3):
        perm = derangement(counts, seed)
        wrong = agreement(Counter({perm.get(ch, ch): n for ch, n in counts.items()}))
        assert wrong is not None and wrong.z < MIN_AGREEMENT, (seed, wrong)


def test_latin_and_too_few_letters_are_not_judged() -> None:
    assert agreement(_counts("The committee reviewed the annual report " * 10)) is None
    assert agreement(_counts(PROSE["ar"][:40])) is None  # too few letters drawn to tell


def test_a_language_with_letters_the_reference_lacks_is_not_judged() -> None:
    """Sorani Kurdish writes ە, ێ, ۆ among Arabic letters, at rates no reference language
    has: its frequencies say nothing about the map."""
    counts = _counts(PROSE["ar"] * 2)
    counts.update({"\u06d5": 40, "\u06ce": 15, "\u06c6": 10})
    assert agreement(counts) is None


fpdf = pytest.importorskip("fpdf")
pikepdf = pytest.importorskip("pikepdf")


def _fpdf_prose(lang: str) -> bytes:
    pdf = fpdf.FPDF()
    pdf.add_font("dv", "", str(DEJAVU / "DejaVuSans.ttf"))
    pdf.set_font("dv", size=12)
    pdf.set_text_shaping(True)
    pdf.add_page()
    for _ in range(2):
        pdf.multi_cell(0, 8, PROSE[lang], align="R")
        pdf.ln(4)
    return bytes(pdf.output())


def _without_cmap_and_post(data: bytes) -> bytes:
    """The PDF with its embedded TrueType programs stripped of cmap and post (ToUnicode kept)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and "/FontFile2" in obj:
                stream = obj.FontFile2
                new = drop_cmap_and_post(bytes(stream.read_bytes()))
                stream.write(new)
                stream.Length1 = len(new)
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()


@pytest.mark.skipif(not (DEJAVU / "DejaVuSans.ttf").exists(), reason="fonts-dejavu-core needed")
@pytest.mark.parametrize("lang", ["ar", "fa", "he"])
def test_permuted_map_of_a_font_with_nothing_to_check_is_garbled(lang: str) -> None:
    pytest.importorskip("uharfbuzz")  # fpdf2's text shaping
    data = _without_cmap_and_post(_fpdf_prose(lang))
    original = classify(data, name=f"{lang}.pdf")
    assert [p.verdict for p in original.pages] == [Verdict.READABLE], original.pages[0].evidence
    broken = break_pdf(data, "scramble", select="all", name=f"{lang}.pdf")
    assert broken.applies
    report = classify(broken.pdf, name=f"{lang}-scrambled.pdf")
    page = report.pages[0]
    assert page.verdict is Verdict.GARBLED, page.evidence
    if lang == "he":  # the letter pairs, read both ways, let this one pass: the frequencies tell
        assert "agreement" in page.evidence[0], page.evidence


REAL_MANIFEST = REAL_CORPUS / "MANIFEST.tsv"


def _real_rtl_files() -> list[Path]:
    """Files of the real corpus labelled readable throughout whose fonts draw enough letters of
    a checked script to be judged."""
    if not REAL_MANIFEST.exists():
        return []
    from pytest_textlayer.judge.letterfreq import letter_counts
    from pytest_textlayer.pdf.content import scan_page

    found = []
    with REAL_MANIFEST.open(newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            path = REAL_CORPUS / row["file"]
            if row["label"] != "readable" or not path.exists():
                continue
            with pikepdf.open(path) as pdf:
                cache: dict[object, object] = {}
                uses = [u for i in range(len(pdf.pages))
                        for u in scan_page(pdf, i, cache).fonts]  # type: ignore[arg-type]
                if any(agreement(letter_counts(u.codes, u.font.unicode)) for u in uses):
                    found.append(path)
    return found


@pytest.mark.skipif(not REAL_MANIFEST.exists(), reason=f"real corpus not found at {REAL_CORPUS}")
def test_real_right_to_left_files_with_nothing_to_check_are_caught_when_scrambled() -> None:
    """Real Arabic and Persian files (Word exports), their programs stripped like a
    re-distilling printer leaves them: read as they are, and flagged once their maps are
    permuted, by whichever rung sees it (their glyph ids still follow Unicode order here)."""
    files = _real_rtl_files()
    if not files:
        pytest.skip("no right-to-left file in the real corpus")
    missed = []
    for path in files:
        data = _without_cmap_and_post(path.read_bytes())
        original = classify(data, name=path.name)
        assert all(p.ok for p in original.pages), (path.name, original.pages[0].evidence)
        for seed in (1, 3):
            broken = break_pdf(data, "scramble", select="all", seed=seed, name=path.name)
            report = classify(broken.pdf, name=f"{path.name}-scrambled")
            for truth, page in zip(broken.pages, report.pages, strict=True):
                if truth.expected is not Verdict.READABLE and page.ok:
                    missed.append(f"{path.name} p{page.number} seed {seed}: {page.evidence[:1]}")
    assert not missed, missed
