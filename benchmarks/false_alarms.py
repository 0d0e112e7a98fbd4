#!/usr/bin/env python3
"""False alarms of `textlayer check` on intact PDFs: real producers, text that is not prose.

    python benchmarks/false_alarms.py [--quick] [--producers a,b] [--families a,b]
                                      [--pages N] [--jobs N] [--keep DIR] [--json FILE]

Every page here is made by a real producer from text it was given, and
nobody breaks it afterwards, so every page is meant to be intact: any page
`textlayer check` does not call ``readable`` or ``blank`` is a false alarm.
Producers do lose text on their own, though (Ghostscript 10.0 drops the
ToUnicode of reportlab's TrueType subsets; reportlab and PyMuPDF write
astral code points in ToUnicode as five hex digits, which PDFium and poppler
misread), so each page is also checked against the text it was given: a
page whose drawn characters (labels and folios aside) neither PDFium nor
poppler gets back to 90 % (as a multiset: order and whitespace aside, NFKC)
is counted as *lost by its producer*, apart, and a flag on it is no false
alarm. The text is mostly the kind a language model has never seen as
prose, because that is where a classifier that reads text is tempted to
condemn a sound page: character charts of a font's whole repertoire (every
code point it maps, in a grid, with labels like ``#41``), fill text
(``xxxx``, ``AAAA``, one word repeated), page numbers alone on a page,
tables of contents with dot leaders, table cells like ``cell[0][0]``, code
listings (Python, JSON, XML), plot tick labels, technical notation
(``r=0.786, p<0.0001``, ``I=false``), lorem ipsum, single words, forms;
beside ordinary prose in every script a font on the machine covers (Latin,
Cyrillic, Greek, Arabic, Hebrew, CJK, Korean compatibility jamo; Devanagari,
Thai and Hangul syllables when a font for them is installed).

Producers, each used when it is on the machine (a missing one is skipped
with a note): reportlab (the standard 14 fonts with their standard
encodings; embedded TrueType subsets), fpdf2 (core fonts; TrueType with
HarfBuzz shaping), PyMuPDF (base-14 insert_text; font files; insert_htmlbox),
headless Chromium (HTML printed to PDF), cairo (``pdftocairo -pdf``) and
Ghostscript (``pdfwrite``) re-printing reportlab's and Chromium's PDFs,
groff (PostScript distilled by Ghostscript, and ``-Tpdf`` where gropdf is
installed), WeasyPrint, LibreOffice and pdflatex. A script no font covers
is skipped with a note, as is a font a producer cannot embed.

Measured per producer and content family, on the same pages:

* pages lost by their producer, and how many of those check flags;
* on the intact pages: false alarms of `textlayer check`
  (``pytest_textlayer.classify``, in process, default settings: what the
  CLI runs);
* two peer rules on PDFium's extraction (pypdfium2): the 10 % rule (a page
  is flagged when more than 10 % of the non-space characters PDFium extracts
  have a Unicode map error, are U+FFFD or control characters) and PDFium's
  map-error rule (flagged when any character has FPDFText_HasUnicodeMapError);
* reader agreement: the share of pages where the project's own decoded text
  (``content.scan_page(...).text``) holds the same characters as PDFium's
  page text, up to whitespace and reading order (as multisets: right-to-left
  text is stored in visual or logical order), NFKC-normalised after the
  whitespace is removed (NFKC composes Hangul jamo into syllables only where
  no space parts them), characters no reader shows aside (controls, format
  characters such as the soft hyphen and zero-width marks, Hangul fillers,
  variation selectors) and hyphens aside (PDFium gives a line's closing hyphen
  as its soft-hyphen mark U+FFFE, poppler as drawn): see
  ``pytest_textlayer.pdf.readers.same_text``; beside it, the share agreeing so
  with PDFium or with poppler (where the two readers differ, ours is right by
  one of them), and the share agreeing with PDFium on the pages PDFium maps
  without a map error (where PDFium can read a page, our reading must be its).

Then every false alarm (file, page, verdict, first evidence line), the lost
pages by producer and family, and the first reader disagreements with a
diff sample. ``--json`` writes the figures, every false alarm, lost page and
disagreement, and one short row per page. The default run builds over
5,000 pages (about 5 to 10 minutes on two cores); ``--quick`` a few hundred.
The documents are deterministic (the same run builds the same text); they
are written to a temporary folder, removed at the end unless ``--keep DIR``.
Exit status 0 always: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from functools import cache
from multiprocessing import Pool
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FONT_ROOTS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
TRUETYPE = Path("/usr/share/fonts/truetype")
URW = Path("/usr/share/fonts/opentype/urw-base35")
PAGE_W, PAGE_H = 595.0, 842.0
LEFT, RIGHT, TOP, BOTTOM = 56.0, 539.0, 60.0, 790.0
OK_VERDICTS = ("readable", "blank")
#: A page is intact when PDFium or poppler gets back this share of the characters it draws.
INTACT = 0.9

# -- fonts -------------------------------------------------------------------------------------

#: TrueType fonts by role, in order of preference (those present are used).
KNOWN_FONTS = {
    "body": ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSerif.ttf",
             "liberation/LiberationSans-Regular.ttf", "liberation/LiberationSerif-Regular.ttf",
             "droid/DroidSansFallbackFull.ttf"),
    "bold": ("dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSerif-Bold.ttf",
             "liberation/LiberationSans-Bold.ttf"),
    "mono": ("dejavu/DejaVuSansMono.ttf", "liberation/LiberationMono-Regular.ttf"),
    "label": ("dejavu/DejaVuSans.ttf", "liberation/LiberationSans-Regular.ttf"),
}
#: Fonts whose whole repertoire is charted (TrueType; OpenType CFF for producers that embed it).
CHART_FONTS = (
    "dejavu/DejaVuSans.ttf", "dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSansMono.ttf",
    "dejavu/DejaVuMathTeXGyre.ttf", "liberation/LiberationSans-Regular.ttf",
    "liberation/LiberationSerif-Regular.ttf", "liberation/LiberationMono-Regular.ttf",
    "droid/DroidSansFallbackFull.ttf",
)
CFF_CHART_FONTS = ("NimbusSans-Regular.otf", "StandardSymbolsPS.otf", "D050000L.otf")
#: URW's OpenType (CFF) text faces: body candidates for the producers that embed CFF.
CFF_BODY_FONTS = ("NimbusSans-Regular.otf", "NimbusRoman-Regular.otf", "C059-Roman.otf",
                  "P052-Roman.otf", "URWGothic-Book.otf")
#: The standard 14 fonts by role, for the producers that draw with them.
STD_FONTS = {
    "body": ("Helvetica", "Times-Roman"),
    "bold": ("Helvetica-Bold", "Times-Bold"),
    "mono": ("Courier",),
    "label": ("Helvetica",),
    "symbol": ("Symbol",),
}
STD_CHARTS = ("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Times-Roman", "Times-Bold",
              "Times-Italic", "Courier", "Courier-Bold", "Symbol", "ZapfDingbats")


def font_path(rel: str) -> Path:
    return TRUETYPE / rel if "/" in rel else URW / rel


@cache
def cmap(path: str) -> frozenset[int]:
    """Code points a font file maps (``std:NAME`` for a standard font: its encoding's)."""
    if path.startswith("std:"):
        return frozenset(ord(c) for c in std_repertoire(path[4:], "cp1252"))
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True, fontNumber=0) as font:
        return frozenset(font.getBestCmap() or ())


@cache
def is_cff(path: str) -> bool:
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True, fontNumber=0) as font:
        return "CFF " in font or "CFF2" in font


@cache
def family_name(path: str) -> tuple[str, bool, bool]:
    """(family, bold, italic) as the name table says: how a browser asks fontconfig for it."""
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True, fontNumber=0) as font:
        name = font["name"]
        family = str(name.getDebugName(16) or name.getDebugName(1))
        sub = str(name.getDebugName(17) or name.getDebugName(2) or "").lower()
    return family, "bold" in sub, "italic" in sub or "oblique" in sub


@cache
def std_repertoire(font: str, encoding: str) -> str:
    """The characters of a standard font's encoding (``cp1252`` or ``latin-1`` for text fonts,
    its built-in encoding for Symbol and ZapfDingbats), without controls and spaces."""
    if font in ("Symbol", "ZapfDingbats"):
        from reportlab.pdfbase.rl_codecs import RL_Codecs

        RL_Codecs.register()
        codec = "symbol" if font == "Symbol" else "zapfdingbats"
        chars = [bytes([b]).decode(codec, errors="replace") for b in range(0x21, 0x100)]
    else:
        chars = [bytes([b]).decode(encoding, errors="replace") for b in range(0x21, 0x100)]
    return "".join(c for c in chars if c != "\ufffd" and printable(c))


def printable(c: str) -> bool:
    return unicodedata.category(c) not in ("Cc", "Zs", "Zl", "Zp", "Cs", "Cn")


def present(rels: Iterable[str]) -> list[str]:
    return [str(font_path(r)) for r in rels if font_path(r).exists()]


@cache
def extra_fonts() -> tuple[str, ...]:
    """Regular faces on the machine beyond the known ones (for scripts those do not cover)."""
    skip = re.compile(r"bold|italic|oblique|light|thin|black|medium|semi|extra|condensed|narrow|"
                      r"demi|heavy|mono|math|symbol|emoji", re.IGNORECASE)
    known = {str(font_path(r)) for rels in KNOWN_FONTS.values() for r in rels}
    found = []
    for root in FONT_ROOTS:
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in (".ttf", ".otf") and not skip.search(path.stem) and \
                    str(path) not in known:
                found.append(str(path))
    return tuple(found)


# -- what a page is ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One string at a baseline point (points from the top left), drawn in a role's font."""

    x: float
    y: float
    text: str
    size: float = 10.0
    role: str = "body"
    anchor: str = "left"  # left, right or centre of the string at x


@dataclass(frozen=True)
class Rule:
    """A straight line (table borders, form blanks, plot axes and ticks)."""

    x0: float
    y0: float
    x1: float
    y1: float


Page = list[Item | Rule]


@dataclass(frozen=True)
class Charset:
    """What the producer's fonts can draw: ``rich`` allows any script a system font covers
    (else Latin-1 only); ``symbol``: a Symbol font is at hand for Greek letters."""

    rich: bool
    symbol: bool = False


def rtl(text: str) -> bool:
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def width_em(text: str, mono: bool = False) -> float:
    wide = sum(unicodedata.east_asian_width(c) in "WF" for c in text)
    return wide + (len(text) - wide) * (0.6 if mono else 0.56)


def wrap(text: str, size: float, width: float = RIGHT - LEFT, mono: bool = False) -> list[str]:
    """Lines of at most `width` points (estimated), broken at spaces, or anywhere in a script
    written without them."""
    limit = width / size
    lines: list[str] = []
    if " " not in text.strip():
        line = ""
        for c in text:
            if width_em(line + c, mono) > limit:
                lines.append(line)
                line = ""
            line += c
        return [*lines, line] if line else lines
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and width_em(candidate, mono) > limit:
            lines.append(line)
            candidate = word
        line = candidate
    return [*lines, line] if line else lines


def text_block(lines: Iterable[str], y: float, size: float, role: str = "body",
               leading: float = 1.4, x: float = LEFT) -> tuple[Page, float]:
    """Lines set one under another (right-aligned when they read right to left)."""
    page: Page = []
    for line in lines:
        if y > BOTTOM:
            break
        if line.strip():
            if rtl(line):
                page.append(Item(RIGHT, y, line, size, role, "right"))
            else:
                page.append(Item(x, y, line, size, role))
        y += size * leading
    return page, y


# -- content -----------------------------------------------------------------------------------

SENTENCES: dict[str, tuple[str, ...]] = {
    "en": ("The committee reviewed the annual report and agreed that the budget for the coming "
           "year should prioritise maintenance of the existing buildings before any new "
           "construction begins.",
           "The library will close early on Friday so that the staff can move the older "
           "collections to the new reading room on the second floor.",
           "Residents who wish to comment on the proposed parking changes may write to the "
           "council before the end of the month."),
    "fr": ("Le comité a examiné le rapport annuel et convenu que le budget de l'année à venir "
           "devait donner la priorité à l'entretien des bâtiments existants avant toute "
           "construction nouvelle.",
           "La bibliothèque fermera plus tôt vendredi afin que le personnel puisse déménager "
           "les anciennes collections dans la nouvelle salle de lecture du deuxième étage.",
           "Les habitants qui souhaitent commenter le projet de stationnement peuvent écrire à "
           "la mairie avant la fin du mois."),
    "de": ("Der Ausschuss prüfte den Jahresbericht und einigte sich darauf, dass der Haushalt "
           "für das kommende Jahr der Instandhaltung der bestehenden Gebäude Vorrang geben "
           "sollte.",
           "Die Bibliothek schließt am Freitag früher, damit die Mitarbeiter die älteren "
           "Bestände in den neuen Lesesaal im zweiten Stock bringen können.",
           "Anwohner, die sich zu den geplanten Änderungen beim Parken äußern möchten, können "
           "bis Ende des Monats an die Stadtverwaltung schreiben."),
    "pl": ("Komisja przeanalizowała sprawozdanie roczne i uzgodniła, że budżet na nadchodzący "
           "rok powinien priorytetowo traktować utrzymanie istniejących budynków.",
           "Biblioteka będzie w piątek zamknięta wcześniej, aby pracownicy mogli przenieść "
           "starsze zbiory do nowej czytelni na drugim piętrze.",
           "Mieszkańcy, którzy chcą zgłosić uwagi do planowanych zmian w parkowaniu, mogą "
           "pisać do urzędu miasta do końca miesiąca."),
    "vi": ("Ủy ban đã xem xét báo cáo thường niên và nhất trí rằng ngân sách năm tới nên ưu "
           "tiên bảo trì các tòa nhà hiện có trước khi bắt đầu công trình mới.",
           "Thư viện sẽ đóng cửa sớm vào thứ Sáu để nhân viên có thể chuyển các bộ sưu tập cũ "
           "sang phòng đọc mới ở tầng hai.",
           "Người dân muốn góp ý về những thay đổi đỗ xe được đề xuất có thể gửi thư cho hội "
           "đồng trước cuối tháng."),
    "ru": ("Комитет рассмотрел годовой отчёт и согласился с тем, что в бюджете на предстоящий "
           "год приоритет следует отдать содержанию существующих зданий.",
           "В пятницу библиотека закроется раньше, чтобы сотрудники могли перенести старые "
           "фонды в новый читальный зал на втором этаже.",
           "Жители, желающие высказаться о предлагаемых изменениях правил парковки, могут "
           "написать в городской совет до конца месяца."),
    "el": ("Η επιτροπή εξέτασε την ετήσια έκθεση και συμφώνησε ότι ο προϋπολογισμός του "
           "επόμενου έτους πρέπει να δώσει προτεραιότητα στη συντήρηση των υφιστάμενων κτιρίων.",
           "Η βιβλιοθήκη θα κλείσει νωρίτερα την Παρασκευή, ώστε το προσωπικό να μεταφέρει τις "
           "παλαιές συλλογές στο νέο αναγνωστήριο του δεύτερου ορόφου.",
           "Οι κάτοικοι που επιθυμούν να σχολιάσουν τις προτεινόμενες αλλαγές στη στάθμευση "
           "μπορούν να γράψουν στο δημοτικό συμβούλιο έως το τέλος του μήνα."),
    "ar": ("راجعت اللجنة التقرير السنوي واتفقت على أن ميزانية العام المقبل يجب أن تعطي "
           "الأولوية لصيانة المباني القائمة قبل البدء في أي بناء جديد.",
           "ستغلق المكتبة مبكرا يوم الجمعة حتى يتمكن الموظفون من نقل المجموعات القديمة إلى "
           "قاعة المطالعة الجديدة في الطابق الثاني.",
           "يمكن للسكان الذين يرغبون في التعليق على التغييرات المقترحة في مواقف السيارات "
           "الكتابة إلى المجلس قبل نهاية الشهر."),
    "he": ("הוועדה בחנה את הדוח השנתי והסכימה כי התקציב לשנה הבאה צריך לתת עדיפות לתחזוקת "
           "המבנים הקיימים לפני תחילת כל בנייה חדשה.",
           "הספרייה תיסגר מוקדם ביום שישי כדי שהצוות יוכל להעביר את האוספים הישנים לאולם "
           "הקריאה החדש בקומה השנייה.",
           "תושבים המעוניינים להגיב על השינויים המוצעים בחניה יכולים לכתוב למועצה עד סוף "
           "החודש."),
    "hi": ("समिति ने वार्षिक रिपोर्ट की समीक्षा की और सहमति व्यक्त की कि अगले वर्ष के बजट में "
           "किसी भी नए निर्माण से पहले मौजूदा भवनों के रखरखाव को प्राथमिकता दी जानी चाहिए।",
           "पुस्तकालय शुक्रवार को जल्दी बंद होगा ताकि कर्मचारी पुराने संग्रह को दूसरी मंजिल के नए "
           "वाचनालय में ले जा सकें।"),
    "th": ("คณะกรรมการได้พิจารณารายงานประจำปีและเห็นพ้องว่างบประมาณของปีหน้าควรให้ความสำคัญ"
           "กับการบำรุงรักษาอาคารที่มีอยู่ก่อนเริ่มการก่อสร้างใหม่",
           "ห้องสมุดจะปิดเร็วในวันศุกร์เพื่อให้เจ้าหน้าที่ย้ายหนังสือเก่าไปยังห้องอ่านหนังสือใหม่"
           "ที่ชั้นสอง"),
    "zh": ("委员会审查了年度报告，并同意明年的预算应优先用于维护现有建筑，"
           "然后再开始任何新的建设工程。",
           "委员们还要求司库每个季度公布账目，以便居民了解会费的用途。",
           "图书馆星期五将提前关门，以便工作人员把旧藏书搬到二楼新的阅览室。"),
    "ja": ("委員会は年次報告書を検討し、来年度の予算は新たな建設を始める前に既存の建物の維持管理を"
           "優先すべきであることに合意した。",
           "委員はまた、会計担当者に対し、住民が会費の使途を確認し次回の会合で質問できるよう、"
           "四半期ごとに会計報告を公表するよう求めた。",
           "図書館は金曜日に早く閉館し、職員が古い蔵書を二階の新しい閲覧室に移す予定である。"),
    "ko": ("위원회는 연례 보고서를 검토하고 내년 예산은 새로운 공사를 시작하기 전에 기존 건물의 "
           "유지 관리를 우선해야 한다는 데 동의했다.",
           "도서관은 금요일에 일찍 문을 닫고 직원들이 오래된 장서를 이층의 새 열람실로 옮길 "
           "예정이다."),
}
#: Hangul written as compatibility jamo (U+3131..U+318E), one letter after another.
_JAMO_L = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_JAMO_V = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_JAMO_T = ("", *"ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ")


def jamo(text: str) -> str:
    out = []
    for c in text:
        n = ord(c) - 0xAC00
        if 0 <= n < 11172:
            out.append(_JAMO_L[n // 588] + _JAMO_V[n % 588 // 28] + _JAMO_T[n % 28])
        else:
            out.append(c)
    return "".join(out)


#: Without the full stops: the one font with the jamo (Droid Sans Fallback) has no ASCII.
SENTENCES["ko-jamo"] = tuple(jamo(s).replace(".", "") for s in SENTENCES["ko"])
LATIN1_LANGS = ("en", "fr", "de")

_LOREM_TEXT = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud "
         "exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure "
         "in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint "
         "occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est "
         "laborum")
LOREM = _LOREM_TEXT.split()
TITLES = ("Introduction", "Background", "Methods", "Data collection", "Results", "Discussion",
          "Limitations", "Conclusion", "References", "Appendix", "Acknowledgements",
          "Glossary", "Index", "Overview", "Installation", "Configuration", "Usage",
          "Troubleshooting", "Release notes", "Résumé", "Übersicht", "Annexe")
RICH_TITLES = ("Введение", "Методы", "Результаты", "Εισαγωγή", "Συμπεράσματα", "Zusammenfassung",
               "Wnioski", "Kết luận", "Łączność", "Œuvres complètes")
WORDS = ("Draft", "Appendix", "Confidential", "Notes", "Index", "Contents", "Figures",
         "Abstract", "Fin", "Ende", "Anhang", "Annexe", "Résumé", "Übersicht", "Errata",
         "Glossary", "Sample", "Copy", "Void", "OK", "N/A", "TBD", "Chapter", "Part II",
         "Thank you", "Questions?", "Agenda", "Summary", "Blank", "Intentionally blank")
RICH_WORDS = ("Приложение", "Содержание", "Παράρτημα", "Περιεχόμενα", "Załącznik", "Phụ lục",
              "付録", "目次", "終わり", "附录", "ㅂㅜㄹㄹㅗㄱ")
FILL = ("x", "X", "A", "a", "0", "=", "-", "test", "lorem", "text", "data", "sample", "TODO",
        "placeholder", "Lorem Ipsum", "abc", "xyz", "ABC")
RICH_FILL = ("тест", "текст", "κείμενο", "测试", "テスト", "ㅎㅎㅎ", "—")


def page_fill(i: int, rng: random.Random, cs: Charset) -> Page:
    tokens = FILL + (RICH_FILL if cs.rich else ())
    token = tokens[i % len(tokens)]
    size = rng.choice((9, 10, 11, 12, 14))
    lines = []
    for _ in range(rng.randint(1, 40)):
        if len(token) == 1:
            line = " ".join(token * rng.randint(2, 16) for _ in range(rng.randint(1, 6)))
        else:
            line = " ".join([token] * rng.randint(1, 8))
        lines.append(line)
    return text_block(lines, TOP + 20, size)[0]


def page_number(i: int, rng: random.Random, cs: Charset) -> Page:
    n, total = i + 1, rng.randint(i + 1, i + 300)
    forms = [f"Page {n}", f"{n}", f"- {n} -", f"Page {n} of {total}", f"p. {n}",
             roman(n), f"Seite {n}", f"{n}/{total}", f"[{n}]", f"Page {roman(n).upper()}"]
    if cs.rich:
        forms += [f"Страница {n}", f"Σελίδα {n}", f"— {n} —", f"Strona {n} z {total}"]
    text = forms[i % len(forms)]
    x, anchor = rng.choice(((PAGE_W / 2, "centre"), (RIGHT, "right"), (LEFT, "left")))
    y = rng.choice((40.0, 800.0, 815.0, 420.0))
    return [Item(x, y, text, rng.choice((8, 9, 10, 12)), "body", anchor)]


def roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
                           (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
                           (4, "iv"), (1, "i")):
        while n >= value:
            out += letters
            n -= value
    return out


def page_toc(i: int, rng: random.Random, cs: Charset) -> Page:
    titles = TITLES + (RICH_TITLES if cs.rich else ())
    page: Page = [Item(LEFT, TOP, rng.choice(("Contents", "Table of Contents", "Inhalt")),
                       16, "bold")]
    y, number, chapter = TOP + 36, rng.randint(1, 40), 0
    joined = i % 2 == 0  # leaders in the same string, or drawn apart
    size = rng.choice((9, 10, 11))
    while y < BOTTOM:
        sub = rng.random() < 0.6 and chapter > 0
        chapter += not sub
        label = f"{chapter}.{rng.randint(1, 9)}" if sub else f"{chapter}"
        title = f"{label} {rng.choice(titles)}"
        x = LEFT + (18 if sub else 0)
        number += rng.randint(1, 9)
        # titles in bold Greek or Cyrillic run wider than the estimate: leave them room
        end = x + 1.2 * width_em(title) * size + 6
        room = RIGHT - 30 - end  # a dot is at most 0.36 em wide
        if joined:
            page.append(Item(x, y, f"{title} {'.' * max(3, int(room / (0.36 * size)))} {number}",
                             size, "body"))
        else:
            page.append(Item(x, y, title, size, "bold" if not sub else "body"))
            leader = " ." * max(2, int(room / (0.72 * size))) if i % 4 == 1 else \
                "." * max(3, int(room / (0.36 * size)))
            page.append(Item(end, y, leader, size))
            page.append(Item(RIGHT, y, str(number), size, "body", "right"))
        y += size * 1.6
    return page


def page_cells(i: int, rng: random.Random, cs: Charset) -> Page:
    rows, cols = rng.randint(6, 34), rng.randint(3, 7)
    style = i % 4
    width, height = (RIGHT - LEFT) / cols, 20.0
    page: Page = []
    for r in range(rows + 1):
        y = TOP + r * height
        page.append(Rule(LEFT, y, RIGHT, y))
    for c in range(cols + 1):
        page.append(Rule(LEFT + c * width, TOP, LEFT + c * width, TOP + rows * height))
    for r in range(rows):
        for c in range(cols):
            text = (f"cell[{r}][{c}]", f"r{r}c{c}", f"{'ABCDEFG'[c]}{r + 1}",
                    f"{rng.uniform(0, 1000):.2f}")[style]
            page.append(Item(LEFT + c * width + 4, TOP + r * height + 14, text, 9,
                             "mono" if style == 1 else "body"))
    return page


def page_code(i: int, rng: random.Random, cs: Charset) -> Page:
    kind = ("python", "json", "xml")[i % 3]
    names = ("value", "count", "items", "result", "offset", "total", "index", "buffer", "node")
    lines: list[str] = []
    if kind == "python":
        while len(lines) < 70:
            name, arg = rng.choice(names), rng.choice(names)
            lines += [f"def {name}_{len(lines)}({arg}: int, scale: float = {rng.random():.3f}):",
                      f'    """Return the {name} of {arg}."""',
                      f"    if {arg} < {rng.randint(0, 99)}:",
                      f"        return [{arg} * scale for _ in range({rng.randint(1, 9)})]",
                      f"    return {{'{name}': {arg}, 'ok': {rng.choice(('True', 'False'))}}}",
                      ""]
    elif kind == "json":
        record = {f"{rng.choice(names)}_{k}": rng.choice((
            rng.randint(-999, 999), round(rng.random(), 4), rng.choice((True, False, None)),
            f"id-{rng.randint(1000, 9999)}", [rng.randint(0, 9) for _ in range(4)],
            {"x": round(rng.uniform(-1, 1), 3), "y": round(rng.uniform(-1, 1), 3)}))
            for k in range(28)}
        lines = json.dumps(record, indent=2).splitlines()
    else:
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<catalog version="2.1">']
        for k in range(16):
            lines += [f'  <item id="{k}" type="{rng.choice(names)}">',
                      f"    <price currency=\"EUR\">{rng.uniform(1, 99):.2f}</price>",
                      f"    <flag>{rng.choice(('true', 'false'))}</flag>",
                      "  </item>"]
        lines.append("</catalog>")
    return text_block(lines, TOP, 8.5, "mono", leading=1.25)[0]


def page_ticks(i: int, rng: random.Random, cs: Charset) -> Page:
    minus = "\u2212" if cs.rich and i % 2 else "-"
    page: Page = []
    plots = ((TOP + 40, 400.0), (460.0, 780.0)) if i % 3 else ((TOP + 40, 780.0),)
    for top, bottom in plots:
        x0, x1 = LEFT + 50, RIGHT - 10
        page += [Rule(x0, bottom, x1, bottom), Rule(x0, top, x0, bottom)]
        start, step = rng.choice(((0, 10), (0, 0.2), (-50, 25), (1990, 5), (0, 1000), (1, 1)))
        n = rng.randint(5, 11)
        for k in range(n):
            x = x0 + (x1 - x0) * k / (n - 1)
            value = start + step * k
            label = f"{value:g}".replace("-", minus)
            page += [Rule(x, bottom, x, bottom + 4), Item(x, bottom + 14, label, 8, "body",
                                                          "centre")]
        ystart, ystep = rng.choice(((0, 0.1), (-1, 0.5), (0, 250), (1e-3, 10), (0, 5)))
        m = rng.randint(4, 9)
        for k in range(m):
            y = bottom - (bottom - top) * k / (m - 1)
            value = ystart * ystep ** k if ystart == 1e-3 else ystart + ystep * k
            label = f"{value:g}".replace("-", minus)
            page += [Rule(x0 - 4, y, x0, y), Item(x0 - 6, y + 3, label, 8, "body", "right")]
    return page


def page_math(i: int, rng: random.Random, cs: Charset) -> Page:
    page: Page = []
    y = TOP
    while y < BOTTOM:
        r, p = rng.uniform(-1, 1), rng.choice((0.0001, 0.001, 0.01, 0.05, 0.2))
        line = rng.choice((
            f"r={r:.3f}, p<{p:g}",
            f"I={rng.choice(('false', 'true'))}, K={rng.choice(('true', 'false'))}",
            f"n={rng.randint(10, 999)}; df={rng.randint(1, 9)}; F({rng.randint(1, 5)}, "
            f"{rng.randint(20, 200)})={rng.uniform(0, 9):.2f}; p={rng.random():.3f}",
            f"x_{rng.randint(1, 9)} + x_{rng.randint(1, 9)} = {rng.uniform(0, 9):.1f}",
            "H0: mu1 = mu2 vs H1: mu1 != mu2", f"CI [{rng.random():.2f}, {rng.random():.2f}]",
            f"AUC={rng.uniform(0.5, 1):.2f}±{rng.uniform(0, 0.1):.2f}",
            f"y = {rng.uniform(-5, 5):.2f}x + {rng.uniform(-5, 5):.2f} (R^2 = {rng.random():.2f})",
            f"k={rng.randint(1, 64)}, lr=1e-{rng.randint(2, 6)}, eps={rng.random():.0e}",
            f"a[{rng.randint(0, 9)}] := a[{rng.randint(0, 9)}] << {rng.randint(1, 7)}",
            f"|x| <= {rng.randint(1, 99)} && y != {rng.randint(0, 9)}",
            *((f"α = {p:g}, β = {rng.uniform(0, 1):.2f}, σ² = {rng.uniform(0, 4):.3f}",
               f"∑ xᵢ ≤ {rng.randint(1, 99)}, ∀ i ∈ ℕ", f"√{rng.randint(2, 99)} ≈ "
               f"{rng.uniform(1, 10):.4f}", f"μ = {rng.uniform(-1, 1):.3f} ± "
               f"{rng.random():.3f}", f"∫₀¹ f(x) dx = {rng.random():.3f}",
               f"Δt = {rng.randint(1, 90)} ms, λ = {rng.uniform(400, 700):.1f} nm")
              if cs.rich else ())))
        page.append(Item(LEFT, y, line, 10))
        if cs.symbol and rng.random() < 0.3:  # Greek from the Symbol font, as old tools do
            page += [Item(RIGHT - 120, y, rng.choice("αβχδπσΣ"), 10, "symbol"),
                     Item(RIGHT - 110, y, f" = {rng.uniform(0, 1):.3f}", 10)]
        y += 16
    return page


def page_lorem(i: int, rng: random.Random, cs: Charset) -> Page:
    paragraphs = []
    for _ in range(rng.randint(3, 8)):
        words = [rng.choice(LOREM) for _ in range(rng.randint(30, 90))]
        words[0] = words[0].capitalize()
        paragraphs.append(" ".join(words) + ".")
    if i % 5 == 0:
        paragraphs[0] = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do "
                         "eiusmod tempor incididunt ut labore et dolore magna aliqua. ") * 3
    lines: list[str] = []
    for para in paragraphs:
        lines += [*wrap(para, 10), ""]
    return text_block(lines, TOP, 10)[0]


def page_word(i: int, rng: random.Random, cs: Charset) -> Page:
    words = WORDS + (RICH_WORDS if cs.rich else ())
    size = rng.choice((18, 24, 36, 48, 60))
    return [Item(PAGE_W / 2, rng.choice((300.0, 421.0, 120.0)), words[i % len(words)], size,
                 rng.choice(("body", "bold")), "centre")]


def page_form(i: int, rng: random.Random, cs: Charset) -> Page:
    labels = ["Name", "First name", "Date of birth", "Address", "Postcode", "City", "Phone",
              "E-mail", "Account no.", "Signature", "Date", "Reference", "Amount (EUR)",
              "Nationality", "Passport no.", "Occupation", "Employer"]
    if cs.rich:
        labels += ["Фамилия", "Имя", "Όνομα", "Imię i nazwisko", "№"]
    page: Page = [Item(LEFT, TOP, rng.choice(("Application form", "Registration", "Form 27-B",
                                              "Claim form")), 16, "bold")]
    y = TOP + 40
    box = "☐" if cs.rich and i % 2 else "[ ]"
    while y < BOTTOM - 20:
        label = rng.choice(labels)
        kind = rng.randint(0, 3)
        page.append(Item(LEFT, y, f"{label}:", 10))
        x = LEFT + 130
        if kind == 0:
            page.append(Rule(x, y + 2, RIGHT, y + 2))
        elif kind == 1:
            page.append(Item(x, y, "_" * rng.randint(10, 50), 10))
        elif kind == 2:
            page.append(Item(x, y, rng.choice(("__/__/____", "____-__-__", "__ __ __ __")), 10))
        else:
            page.append(Item(x, y, f"{box} Yes   {box} No   {box} N/A", 10))
        y += rng.choice((22, 26, 30))
    return page


def page_prose(lang: str, i: int, rng: random.Random) -> Page:
    sentences = SENTENCES[lang]
    join = "" if lang in ("zh", "ja", "th") else " "
    heading = sentences[i % len(sentences)].split(",")[0].split("，")[0].split("、")[0]
    page, y = text_block(wrap(heading[:60], 14), TOP, 14, "bold")
    y += 10
    lines: list[str] = []
    while len(lines) < 50:
        lines += [*wrap(join.join(rng.choice(sentences) for _ in range(rng.randint(2, 5))), 10),
                  ""]
    page += text_block(lines, y, 10)[0]
    page.append(Item(PAGE_W / 2, 815, str(i + 1), 9, "label", "centre"))
    return page


FAMILIES: dict[str, Callable[[int, random.Random, Charset], Page]] = {
    "fill": page_fill, "pagenum": page_number, "toc": page_toc, "cells": page_cells,
    "code": page_code, "ticks": page_ticks, "math": page_math, "lorem": page_lorem,
    "words": page_word, "forms": page_form,
}


def chart_pages(title: str, chars: Iterable[str], limit: int | None = None) -> list[Page]:
    """Every character in a 16 x 24 grid, each under its code ("#41", "#4E00")."""
    chars = list(chars)
    per = 16 * 24
    chunks = [chars[k:k + per] for k in range(0, len(chars), per)]
    if limit is not None and len(chunks) > limit:
        picks = sorted({round(k * (len(chunks) - 1) / max(limit - 1, 1)) for k in range(limit)})
        chunks = [chunks[k] for k in picks]
    pages = []
    for n, chunk in enumerate(chunks):
        page: Page = [Item(LEFT, 40, f"{title} - chart {n + 1} of {len(chunks)}", 9, "label")]
        for k, c in enumerate(chunk):
            x, y = 34 + (k % 16) * 33, 62 + (k // 16) * 31.5
            code = ord(c)
            label = f"#{code:02X}" if code < 0x100 else f"#{code:04X}"
            page += [Item(x, y, label, 5, "label"), Item(x + 4, y + 15, c, 11, "glyph")]
        pages.append(page)
    return pages


def repertoire(path: str) -> list[str]:
    return [chr(c) for c in sorted(cmap(path)) if c <= 0x10FFFF and printable(chr(c))]


# -- documents ---------------------------------------------------------------------------------


@dataclass
class Doc:
    """One PDF to build: a family's pages and the fonts each role may use."""

    producer: str
    family: str
    name: str
    pages: list[Page]
    #: role -> candidate fonts (file paths, or ``std:NAME``); page i tries them from i on.
    fonts: dict[str, tuple[str, ...]]
    meta: dict[str, str] = field(default_factory=dict)


def choose_font(doc: Doc, role: str, text: str, page_index: int) -> str:
    """The role's font for this string: candidates covering it, taken in turn page by page."""
    need = {ord(c) for c in text if not c.isspace()}
    covering = [f for f in doc.fonts.get(role, ()) if need <= cmap(f)]
    if not covering and role not in ("glyph", "symbol"):  # a fallback font, as producers do
        covering = [f for f in doc.fonts["body"] if need <= cmap(f)]
    if not covering:
        raise LookupError(f"no {role} font covers {text[:30]!r}")
    return covering[page_index % len(covering)]


def resolve(doc: Doc) -> list[list[tuple[Item | Rule, str]]]:
    """Each item of each page with its font (rules with an empty one)."""
    out = []
    for i, page in enumerate(doc.pages):
        out.append([(obj, choose_font(doc, obj.role, obj.text, i) if isinstance(obj, Item)
                     else "") for obj in page])
    return out


# -- producers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Producer:
    name: str
    build: Callable[[Doc, Path], None] | None
    #: None when usable, else why not (and how to get it).
    missing: str | None
    kind: str  # std (standard fonts), ttf, cff (also OpenType CFF), derived
    note: str = ""
    #: For derived producers: the producers whose PDFs are re-printed.
    sources: tuple[str, ...] = ()
    std_encoding: str = "cp1252"


def _reportlab(doc: Doc, out: Path) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(out), pagesize=(PAGE_W, PAGE_H), invariant=1)
    names: dict[str, str] = {}
    for page in resolve(doc):
        for obj, font in page:
            if isinstance(obj, Rule):
                c.setLineWidth(0.5)
                c.line(obj.x0, PAGE_H - obj.y0, obj.x1, PAGE_H - obj.y1)
                continue
            if font.startswith("std:"):
                name = font[4:]
            else:
                name = names.get(font, "")
                if not name:
                    name = "T" + hashlib.sha1(font.encode()).hexdigest()[:10]
                    if name not in pdfmetrics.getRegisteredFontNames():
                        pdfmetrics.registerFont(TTFont(name, font))
                    names[font] = name
            c.setFont(name, obj.size)
            y = PAGE_H - obj.y
            draw = {"left": c.drawString, "right": c.drawRightString,
                    "centre": c.drawCentredString}[obj.anchor]
            draw(obj.x, y, obj.text)
        c.showPage()
    c.save()


_FPDF_CORE = {"Helvetica": ("helvetica", ""), "Helvetica-Bold": ("helvetica", "B"),
              "Helvetica-Oblique": ("helvetica", "I"), "Times-Roman": ("times", ""),
              "Times-Bold": ("times", "B"), "Times-Italic": ("times", "I"),
              "Courier": ("courier", ""), "Courier-Bold": ("courier", "B"),
              "Symbol": ("symbol", ""), "ZapfDingbats": ("zapfdingbats", "")}


def _fpdf(doc: Doc, out: Path) -> None:
    import fpdf

    pdf = fpdf.FPDF(unit="pt", format=(PAGE_W, PAGE_H))
    pdf.set_creation_date(datetime(2024, 1, 1, tzinfo=timezone.utc))
    pdf.set_auto_page_break(False)
    pdf.core_fonts_encoding = "windows-1252"
    pdf.c_margin = 0
    shaped = False
    added: dict[str, str] = {}
    for page in resolve(doc):
        pdf.add_page()
        for obj, font in page:
            if isinstance(obj, Rule):
                pdf.set_line_width(0.5)
                pdf.line(obj.x0, obj.y0, obj.x1, obj.y1)
                continue
            text = obj.text
            if font.startswith("std:"):
                family, style = _FPDF_CORE[font[4:]]
                if font[4:] in ("Symbol", "ZapfDingbats"):  # codes of the built-in encoding
                    codec = "symbol" if font[4:] == "Symbol" else "zapfdingbats"
                    text = text.encode(codec).decode("latin-1")
                pdf.set_font(family, style, obj.size)
            else:
                if not shaped and importlib.util.find_spec("uharfbuzz"):
                    pdf.set_text_shaping(True)
                    shaped = True
                family = added.get(font, "")
                if not family:
                    family = added[font] = f"F{len(added)}"
                    pdf.add_font(family, "", font)
                pdf.set_font(family, "", obj.size)
            width = pdf.get_string_width(text)
            x = {"left": obj.x, "right": obj.x - width, "centre": obj.x - width / 2}[obj.anchor]
            pdf.set_xy(x, obj.y - 0.8 * obj.size)
            pdf.cell(width + 0.01, obj.size, text)
    pdf.output(str(out))


_MUPDF_BASE14 = {"Helvetica": "helv", "Helvetica-Bold": "hebo", "Helvetica-Oblique": "heit",
                 "Times-Roman": "tiro", "Times-Bold": "tibo", "Times-Italic": "tiit",
                 "Courier": "cour", "Courier-Bold": "cobo"}


def _mupdf_text(doc: Doc, out: Path) -> None:
    import pymupdf

    pdf = pymupdf.open()
    names: dict[str, str] = {}
    measure: dict[str, Any] = {}
    for page_items in resolve(doc):
        page = pdf.new_page(width=PAGE_W, height=PAGE_H)
        shape = page.new_shape()
        # A chart is thousands of strings: insert_text costs milliseconds each (it looks the
        # font up again every time), so charts in font files go through a TextWriter.
        writer = pymupdf.TextWriter(page.rect) if doc.family == "chart" else None
        for obj, font in page_items:
            if isinstance(obj, Rule):
                shape.draw_line((obj.x0, obj.y0), (obj.x1, obj.y1))
                continue
            if font.startswith("std:"):
                kwargs: dict[str, Any] = {"fontname": _MUPDF_BASE14[font[4:]]}
                if font not in measure:
                    measure[font] = pymupdf.Font(_MUPDF_BASE14[font[4:]])
            else:
                name = names.setdefault(font, f"F{len(names)}")
                kwargs = {"fontname": name, "fontfile": font}
                if font not in measure:
                    measure[font] = pymupdf.Font(fontfile=font)
            width = measure[font].text_length(obj.text, fontsize=obj.size)
            x = {"left": obj.x, "right": obj.x - width, "centre": obj.x - width / 2}[obj.anchor]
            if writer is not None and not font.startswith("std:"):
                writer.append((x, obj.y), obj.text, font=measure[font], fontsize=obj.size)
            else:
                page.insert_text((x, obj.y), obj.text, fontsize=obj.size, **kwargs)
        if writer is not None:
            writer.write_text(page)
        shape.finish(width=0.5, color=(0, 0, 0))
        shape.commit()
    if names:
        pdf.subset_fonts()
    pdf.save(str(out), garbage=3, deflate=True)


def flow_html(doc: Doc) -> tuple[list[str], list[str]]:
    """Each page as flowing HTML lines (the strings sharing a baseline joined), for the HTML
    engines that lay text out themselves: the pages' bodies and the fonts they use."""
    fonts: list[str] = []
    bodies = []
    for page in resolve(doc):
        rows: dict[int, list[tuple[Item, str]]] = {}
        for obj, font in page:
            if isinstance(obj, Item):
                rows.setdefault(round(obj.y), []).append((obj, font))
        parts = []
        for y in sorted(rows):
            row = sorted(rows[y], key=lambda t: t[0].x)
            spans = []
            for obj, font in row:
                if font not in fonts:
                    fonts.append(font)
                spans.append(f"<span style=\"font-family: F{fonts.index(font)}; "
                             f"font-size: {obj.size}pt\">{html.escape(obj.text)}</span>")
            direction = "rtl" if rtl(row[0][0].text) else "ltr"
            align = {"left": "left", "right": "right", "centre": "center"}[row[0][0].anchor]
            parts.append(f"<div dir=\"{direction}\" style=\"text-align: {align}; "
                         f"white-space: pre-wrap\">{'&emsp;'.join(spans)}</div>")
        bodies.append("\n".join(parts))
    return bodies, fonts


def _mupdf_html(doc: Doc, out: Path) -> None:
    import pymupdf

    bodies, fonts = flow_html(doc)
    archive = pymupdf.Archive()
    for folder in sorted({str(Path(f).parent) for f in fonts}):
        archive.add(pymupdf.Archive(folder), "")
    css = "".join(f"@font-face {{font-family: F{n}; src: url({Path(f).name})}}\n"
                  for n, f in enumerate(fonts))
    pdf = pymupdf.open()
    for body in bodies:
        page = pdf.new_page(width=PAGE_W, height=PAGE_H)
        page.insert_htmlbox(pymupdf.Rect(LEFT - 20, 30, RIGHT + 20, 820), body, css=css,
                            archive=archive)
    pdf.subset_fonts()
    pdf.save(str(out), garbage=3, deflate=True)


def css_font(font: str) -> str:
    family, bold, italic = family_name(font)
    return (f"font-family: '{family}'; font-weight: {'bold' if bold else 'normal'}; "
            f"font-style: {'italic' if italic else 'normal'}")


def positioned_html(doc: Doc) -> str:
    """Every page as a box of absolutely positioned strings and rules (a report generator's
    HTML), fonts asked for by family name, as the system has them."""
    out = ["<!doctype html><html><head><meta charset=\"utf-8\"><style>",
           f"@page {{ size: {PAGE_W}pt {PAGE_H}pt; margin: 0 }}",
           "html, body { margin: 0; padding: 0 }",
           f".p {{ position: relative; width: {PAGE_W}pt; height: {PAGE_H - 4}pt; "
           "overflow: hidden; break-after: page }",
           ".p:last-child { break-after: auto }",
           ".p span { position: absolute; white-space: pre; line-height: 1 }",
           ".p i { position: absolute; border-left: 0.5pt solid #000; "
           "border-top: 0.5pt solid #000 }",
           "</style></head><body>"]
    for page in resolve(doc):
        out.append("<div class=\"p\">")
        for obj, font in page:
            if isinstance(obj, Rule):
                x, y = min(obj.x0, obj.x1), min(obj.y0, obj.y1)
                w, h = abs(obj.x1 - obj.x0), abs(obj.y1 - obj.y0)
                out.append(f"<i style=\"left:{x:.1f}pt;top:{y:.1f}pt;width:{w:.1f}pt;"
                           f"height:{h:.1f}pt;{'border-left:0' if h == 0 else 'border-top:0'}"
                           "\"></i>")
                continue
            top = obj.y - 0.8 * obj.size
            if obj.anchor == "right":
                where = f"right:{PAGE_W - obj.x:.1f}pt"
            elif obj.anchor == "centre":
                where = f"left:{obj.x:.1f}pt;transform:translateX(-50%)"
            else:
                where = f"left:{obj.x:.1f}pt"
            direction = " dir=\"rtl\"" if rtl(obj.text) else ""
            out.append(f"<span{direction} style=\"{where};top:{top:.1f}pt;"
                       f"font-size:{obj.size}pt;{css_font(font)}\">{html.escape(obj.text)}"
                       "</span>")
        out.append("</div>")
    out.append("</body></html>")
    return "\n".join(out)


def chromium_exe() -> str | None:
    return next((p for p in (os.environ.get("TEXTLAYER_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser")) if p), None)


def _chromium(doc: Doc, out: Path) -> None:
    exe = chromium_exe()
    assert exe is not None
    page = out.with_suffix(".html")
    page.write_text(positioned_html(doc), encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="fa-chromium-") as profile:
        subprocess.run(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             f"--user-data-dir={profile}", f"--print-to-pdf={out}", "--no-pdf-header-footer",
             page.as_uri()],
            capture_output=True, timeout=600, check=False)
    page.unlink()
    if not out.exists():
        raise RuntimeError("chromium wrote no PDF")


def _weasyprint(doc: Doc, out: Path) -> None:
    page = out.with_suffix(".html")
    page.write_text(positioned_html(doc), encoding="utf-8")
    exe = shutil.which("weasyprint")
    cmd = [exe] if exe else [sys.executable, "-m", "weasyprint"]
    subprocess.run([*cmd, str(page), str(out)], capture_output=True, timeout=600, check=True)
    page.unlink()


def _soffice(doc: Doc, out: Path) -> None:
    bodies, fonts = flow_html(doc)
    body = "".join(f"<section style=\"page-break-after: always\">{b}</section>\n"
                   for b in bodies)
    body = re.sub(r"font-family: F(\d+)", lambda m: css_font(fonts[int(m.group(1))]), body)
    css = ""
    page = out.with_suffix(".html")
    page.write_text(f"<!doctype html><html><head><meta charset=\"utf-8\"><style>{css}</style>"
                    f"</head><body>{body}</body></html>", encoding="utf-8")
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    assert exe is not None
    with tempfile.TemporaryDirectory(prefix="fa-soffice-") as profile:
        subprocess.run([exe, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless",
                        "--convert-to", "pdf:writer_web_pdf_Export", "--outdir",
                        str(out.parent), str(page)], capture_output=True, timeout=600,
                       check=True)
    page.unlink()
    if not out.exists():
        raise RuntimeError("soffice wrote no PDF")


_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                "#": r"\#", "^": r"\^{}", "_": r"\_{}", "%": r"\%", "~": r"\~{}",
                "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}


def _pdflatex(doc: Doc, out: Path) -> None:
    """Positioned strings in a picture environment, Latin-1 through T1 fonts."""
    lines = [r"\documentclass{article}", r"\usepackage[T1]{fontenc}",
             r"\usepackage[utf8]{inputenc}", r"\usepackage{lmodern}",
             r"\usepackage[paperwidth=595bp,paperheight=842bp,margin=0bp]{geometry}",
             r"\setlength{\unitlength}{1bp}\pagestyle{empty}\begin{document}"]
    for page in resolve(doc):
        lines.append(r"\noindent\begin{picture}(595,842)(0,0)")
        for obj, font in page:
            if isinstance(obj, Rule):
                continue
            text = "".join(_TEX_SPECIAL.get(c, c) for c in obj.text)
            face = r"\ttfamily" if "Courier" in font else r"\bfseries" if "Bold" in font else ""
            pos = {"left": "[bl]", "right": "[br]", "centre": "[b]"}[obj.anchor]
            lines.append(rf"\put({obj.x:.1f},{PAGE_H - obj.y:.1f}){{\makebox(0,0){pos}"
                         rf"{{\fontsize{{{obj.size}}}{{{obj.size * 1.2}}}\selectfont{face} "
                         rf"{text}}}}}")
        lines.append(r"\end{picture}\newpage")
    lines.append(r"\end{document}")
    tex = out.with_suffix(".tex")
    tex.write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=batchmode", "-output-directory",
                    str(out.parent), str(tex)], capture_output=True, timeout=600, check=False)
    for suffix in (".tex", ".aux", ".log"):
        out.with_suffix(suffix).unlink(missing_ok=True)
    if not out.exists():
        raise RuntimeError("pdflatex wrote no PDF")


_GROFF_FONTS = {"Helvetica": "HR", "Helvetica-Bold": "HB", "Helvetica-Oblique": "HI",
                "Times-Roman": "TR", "Times-Bold": "TB", "Times-Italic": "TI", "Courier": "CR",
                "Courier-Bold": "CB", "Symbol": "S", "ZapfDingbats": "ZD"}


def troff_text(text: str) -> str:
    out = []
    for c in text:
        if c == "\\":
            out.append(r"\e")
        elif 0x20 <= ord(c) < 0x7F:
            out.append(c)
        else:
            out.append(f"\\[u{ord(c):04X}]")
    return "\\&" + "".join(out)


def troff_source(doc: Doc) -> str:
    lines = [".pl 842p", ".ll 595p", ".po 0", ".nf", ".nh", ".vs 0", ".ss 12 0"]
    for n, page in enumerate(resolve(doc)):
        if n:
            lines.append(".bp")
        for obj, font in sorted(page, key=lambda t: (t[0].y if isinstance(t[0], Item)
                                                      else min(t[0].y0, t[0].y1))):
            if isinstance(obj, Rule):
                y = min(obj.y0, obj.y1)
                x = obj.x0 if obj.y0 <= obj.y1 else obj.x1
                dx, dy = abs(obj.x1 - obj.x0), abs(obj.y1 - obj.y0)
                lines += [f".sp |{y:.1f}p", f"\\h'|{x:.1f}p'\\D'l {dx:.1f}p {dy:.1f}p'"]
                continue
            text = troff_text(obj.text)
            quote = next(q for q in "'\"|@#%^~" if q not in text)
            move = {"left": f"\\h'|{obj.x:.1f}p'",
                    "right": f"\\h'|{obj.x:.1f}p-\\w{quote}{text}{quote}u'",
                    "centre": f"\\h'|{obj.x:.1f}p-(\\w{quote}{text}{quote}u/2u)'"}[obj.anchor]
            lines += [f".sp |{obj.y:.1f}p", f"\\f[{_GROFF_FONTS[font[4:]]}]\\s[{obj.size:g}]"
                                            f"{move}{text}"]
    return "\n".join(lines) + "\n"


def _groff_ps_gs(doc: Doc, out: Path) -> None:
    ps = out.with_suffix(".ps")
    with open(ps, "wb") as fh:
        subprocess.run(["groff", "-Tps", "-P-pa4", "-dpaper=a4"], input=troff_source(doc).encode(),
                       stdout=fh, stderr=subprocess.DEVNULL, check=True, timeout=600)
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
                    f"-sOutputFile={out}", str(ps)], capture_output=True, check=True, timeout=600)
    ps.unlink()


def _groff_pdf(doc: Doc, out: Path) -> None:
    with open(out, "wb") as fh:
        subprocess.run(["groff", "-Tpdf", "-P-pa4", "-dpaper=a4"], input=troff_source(doc).encode(),
                       stdout=fh, stderr=subprocess.DEVNULL, check=True, timeout=600)


def reprint(producer: str, source: Path, out: Path) -> None:
    """`source` printed again by cairo or distilled again by Ghostscript."""
    if producer.startswith("cairo"):
        cmd = ["pdftocairo", "-pdf", str(source), str(out)]
    else:
        cmd = ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
               f"-sOutputFile={out}", str(source)]
    subprocess.run(cmd, capture_output=True, check=True, timeout=600)


@cache
def groff_glyphs(font: str, chars: str) -> str:
    """The characters of `chars` groff finds in its PostScript font `font` (it warns of the
    others and draws nothing)."""
    source = ".nf\n" + "".join(f".ft {font}\n{troff_text(c)}\n" for c in chars)
    done = subprocess.run(["groff", "-Tps", "-ww"], input=source.encode(), capture_output=True,
                          check=False, timeout=120)
    missing = {int(m, 16) for m in re.findall(rb"special character 'u([0-9A-F]{4,6})'",
                                              done.stderr)}
    missing |= {int(m, 16) for m in re.findall(rb"character 'u([0-9A-F]{4,6})_", done.stderr)}
    return "".join(c for c in chars if ord(c) not in missing)


def groff_available(device: str) -> bool:
    if shutil.which("groff") is None:
        return False
    done = subprocess.run(["groff", f"-T{device}"], input=b"x\n", capture_output=True,
                          check=False, timeout=60)
    return done.returncode == 0 and bool(done.stdout)


def producers() -> list[Producer]:
    """Every producer this benchmark knows, usable or with the reason it is not."""
    def module(name: str, install: str) -> str | None:
        return None if importlib.util.find_spec(name) else f"not installed ({install})"

    def program(name: str, install: str) -> str | None:
        return None if shutil.which(name) else f"{name} not on PATH ({install})"

    gs = program("gs", "apt-get install ghostscript")
    cairo = program("pdftocairo", "apt-get install poppler-utils")
    chrome = None if chromium_exe() else "chromium not on PATH (apt-get install chromium)"
    groff = None if shutil.which("groff") else "groff not on PATH (apt-get install groff)"
    weasy = module("weasyprint", "pip install weasyprint, or apt-get install weasyprint")
    if weasy and shutil.which("weasyprint"):
        weasy = None
    soffice = None if (shutil.which("soffice") or shutil.which("libreoffice")) else \
        "soffice not on PATH (apt-get install libreoffice-writer-nogui)"
    groff_pdf = groff or (None if groff_available("pdf") else
                          "groff -Tpdf needs gropdf (apt-get install groff)")
    return [
        Producer("reportlab-std14", _reportlab, module("reportlab", "pip install reportlab"),
                 "std", "standard 14 fonts, standard encodings"),
        Producer("reportlab-ttf", _reportlab, module("reportlab", "pip install reportlab"),
                 "ttf", "embedded TrueType subsets"),
        Producer("fpdf2-core", _fpdf, module("fpdf", "pip install fpdf2"), "std",
                 "core fonts, WinAnsi"),
        Producer("fpdf2-ttf", _fpdf, module("fpdf", "pip install fpdf2"), "ttf",
                 "embedded TrueType, HarfBuzz shaping"),
        Producer("pymupdf-base14", _mupdf_text, module("pymupdf", "pip install pymupdf"), "std",
                 "insert_text, base-14 (Latin-1)", std_encoding="latin-1"),
        Producer("pymupdf-font", _mupdf_text, module("pymupdf", "pip install pymupdf"), "cff",
                 "insert_text with font files (charts: TextWriter), subset"),
        Producer("pymupdf-html", _mupdf_html, module("pymupdf", "pip install pymupdf"), "cff",
                 "insert_htmlbox (Story), font files"),
        Producer("chromium", _chromium, chrome, "cff", "headless print-to-pdf (Skia)"),
        Producer("weasyprint", _weasyprint, weasy, "cff", "HTML to PDF"),
        Producer("soffice", _soffice, soffice, "ttf", "LibreOffice Writer/Web export"),
        Producer("pdflatex", _pdflatex, program("pdflatex", "apt-get install texlive-latex-base"
                                                " texlive-fonts-recommended lmodern"),
                 "std", "T1 Latin Modern, picture environment", std_encoding="latin-1"),
        Producer("groff-ps+gs", _groff_ps_gs, groff or gs, "std",
                 "groff -Tps distilled by Ghostscript", std_encoding="latin-1"),
        Producer("groff-pdf", _groff_pdf, groff_pdf, "std", "groff -Tpdf (gropdf)",
                 std_encoding="latin-1"),
        Producer("cairo(reportlab)", None, cairo, "derived", "pdftocairo -pdf",
                 ("reportlab-std14", "reportlab-ttf")),
        Producer("gs(reportlab)", None, gs, "derived", "gs pdfwrite",
                 ("reportlab-std14", "reportlab-ttf")),
        Producer("cairo(chromium)", None, cairo, "derived", "pdftocairo -pdf", ("chromium",)),
        Producer("gs(chromium)", None, gs, "derived", "gs pdfwrite", ("chromium",)),
    ]


def std_fonts(producer: Producer) -> dict[str, tuple[str, ...]]:
    fonts = {role: tuple(f"std:{n}" for n in names) for role, names in STD_FONTS.items()}
    if producer.name not in ("reportlab-std14", "fpdf2-core"):
        del fonts["symbol"]  # PyMuPDF writes WinAnsi on Symbol; groff's S has no such route
    return fonts


def ttf_fonts(producer: Producer) -> dict[str, tuple[str, ...]]:
    fonts = {role: tuple(present(rels)) for role, rels in KNOWN_FONTS.items()}
    if producer.kind == "cff":
        fonts["body"] += tuple(present(CFF_BODY_FONTS))
    fonts["body"] += script_fonts()
    return fonts


@cache
def script_fonts() -> tuple[str, ...]:
    """A font from beyond the known ones for each language they do not cover."""
    known = present(KNOWN_FONTS["body"])
    found: list[str] = []
    for text in SENTENCES.values():
        need = {ord(c) for c in "".join(text) if not c.isspace()}
        if any(need <= cmap(f) for f in known + found):
            continue
        for path in extra_fonts():
            if need <= cmap(path) and not is_cff(path):
                found.append(path)
                break
    return tuple(found)


def languages(producer: Producer, fonts: dict[str, tuple[str, ...]]) -> tuple[list[str], dict[
        str, str]]:
    """Languages the producer can set in its fonts, and why each other one is skipped."""
    usable, skipped = [], {}
    for lang, text in SENTENCES.items():
        if producer.kind == "std" and lang not in LATIN1_LANGS:
            continue
        need = {ord(c) for c in "".join(text) if not c.isspace()}
        if any(need <= cmap(f) for f in fonts["body"]):
            usable.append(lang)
        else:
            skipped[lang] = "no font on the machine covers it"
    return usable, skipped


@dataclass
class Plan:
    docs: list[Doc]
    derived: list[tuple[str, str]]  # (derived producer, source producer)
    notes: list[str]
    would_add: dict[str, int]


def plan(args: argparse.Namespace, chosen: list[Producer]) -> Plan:
    """The documents of the run, before anything is built."""
    pages_per_family = args.pages or (2 if args.quick else 20)
    prose_pages = max(1, pages_per_family // 2)
    chart_limit = 1 if args.quick else None
    families = set(args.families.split(",")) if args.families else None
    docs: list[Doc] = []
    notes: list[str] = []
    lang_notes: dict[str, str] = {}
    would_add: dict[str, int] = {}
    names = {p.name for p in chosen}
    for producer in producers():
        if producer.kind == "derived":
            continue
        usable = producer.name in names and producer.missing is None
        std = producer.kind == "std"
        fonts = std_fonts(producer) if std else ttf_fonts(producer)
        charset = Charset(rich=not std, symbol="symbol" in fonts)
        mine: list[Doc] = []

        def add(family: str, name: str, pages: list[Page], fonts: dict[str, tuple[str, ...]],
                mine: list[Doc] = mine, producer: Producer = producer) -> None:
            if families is None or family in families:
                mine.append(Doc(producer.name, family, name, pages, fonts))

        for family, make in FAMILIES.items():
            pages = [make(i, random.Random(f"{family}:{charset.rich}:{i}"), charset)
                     for i in range(pages_per_family)]
            add(family, family, pages, fonts)
        langs, skipped = languages(producer, fonts)
        for lang in langs:
            pages = [page_prose(lang, i, random.Random(f"prose:{lang}:{i}"))
                     for i in range(prose_pages)]
            add(f"prose-{lang}", f"prose-{lang}", pages, fonts)
        if usable:
            lang_notes.update({lang: why for lang, why in skipped.items()})
        for title, chars, glyph in chart_sets(producer):
            add("chart", f"chart-{title}", chart_pages(title, chars, chart_limit),
                {**fonts, "glyph": (glyph,)})
        if usable:
            docs += mine
        else:
            would_add[producer.name] = sum(len(d.pages) for d in mine)
    derived = []
    built = {d.producer: 0 for d in docs}
    for d in docs:
        built[d.producer] += len(d.pages)
    for producer in producers():
        if producer.kind != "derived":
            continue
        for source in producer.sources:
            if producer.name in names and producer.missing is None and source in built:
                derived.append((producer.name, source))
            elif producer.name in names:
                would_add[producer.name] = would_add.get(producer.name, 0) + built.get(source, 0)
    for lang, why in sorted(lang_notes.items()):
        notes.append(f"prose-{lang} skipped: {why}")
    return Plan(docs, derived, notes, would_add)


def chart_sets(producer: Producer) -> Iterator[tuple[str, list[str], str]]:
    """(title, characters, font) of each chart a producer draws: the whole repertoire."""
    if producer.kind == "std":
        for name in STD_CHARTS:
            if producer.name.startswith("pymupdf") and name in ("Symbol", "ZapfDingbats"):
                continue  # PyMuPDF declares WinAnsiEncoding on them: not a sound route
            if producer.name == "pdflatex" and name in ("Symbol", "ZapfDingbats"):
                continue
            chars = std_repertoire(name, producer.std_encoding)
            if producer.name.startswith("fpdf2") and name in ("Symbol", "ZapfDingbats"):
                # fpdf2 passes the codes through windows-1252, which has no 0x81, 0x8D...
                codec = "symbol" if name == "Symbol" else "zapfdingbats"
                chars = "".join(c for c in chars if not 0x80 <= c.encode(codec)[0] < 0xA0)
            if producer.name.startswith("groff") and shutil.which("groff"):
                chars = groff_glyphs(_GROFF_FONTS[name], chars)
            yield name, list(chars), f"std:{name}"
        return
    files = present(CHART_FONTS)
    if producer.kind == "cff":
        files += present(CFF_CHART_FONTS)
    for path in files:
        yield Path(path).stem, repertoire(path), path


# -- building ----------------------------------------------------------------------------------


@cache
def producer_table() -> dict[str, Producer]:
    return {p.name: p for p in producers()}


def folder_name(producer: str) -> str:
    return re.sub(r"[^A-Za-z0-9.+-]+", "-", producer).strip("-")


def doc_path(folder: str, doc: Doc) -> Path:
    return Path(folder) / folder_name(doc.producer) / f"{doc.name}.pdf"


def reprint_path(folder: str, producer: str, source: str) -> Path:
    src = Path(source)
    return Path(folder) / folder_name(producer) / f"{src.parent.name}-{src.name}"


def page_truth(doc: Doc) -> list[str]:
    """What each page draws (its chart labels and folios aside): the text a reader must get."""
    return ["\n".join(o.text for o in page if isinstance(o, Item) and o.role != "label")
            for page in doc.pages]


def build_job(job: tuple[Doc, str]) -> tuple[str, str, str, str | None, float]:
    """Build one document: (producer, family, PDF path, error or None, seconds)."""
    doc, folder = job
    out = doc_path(folder, doc)
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    error = None
    try:
        build = producer_table()[doc.producer].build
        assert build is not None
        build(doc, out)
    except Exception as exc:  # a producer that fails on one document is reported, not fatal
        error = one_line(exc)
        out.unlink(missing_ok=True)
    return doc.producer, doc.family, str(out), error, time.perf_counter() - start


def reprint_job(job: tuple[str, str, str, str]) -> tuple[str, str, str, str | None, float]:
    """Re-print one PDF of `source` with a derived producer (cairo, Ghostscript)."""
    producer, family, source, folder = job
    src = Path(source)
    out = reprint_path(folder, producer, source)
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    error = None
    try:
        reprint(producer, src, out)
    except Exception as exc:
        error = one_line(exc)
        out.unlink(missing_ok=True)
    return producer, family, str(out), error, time.perf_counter() - start


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:200]


# -- measuring ---------------------------------------------------------------------------------


def pdfium_chars(doc: Any, index: int) -> tuple[int, int, int]:
    """(characters, bad ones, map errors) of a page as PDFium extracts it (see
    pytest_textlayer.pdf.readers.pdfium_char_counts): bad is a Unicode map error, U+FFFD or a
    control character."""
    from pytest_textlayer.pdf.readers import pdfium_char_counts

    page = doc[index]
    textpage = page.get_textpage()
    try:
        return pdfium_char_counts(textpage)
    finally:
        textpage.close()
        page.close()


def recovered(truth: str, text: str) -> float:
    """Share of the characters a page draws that a reader's text has (in any order)."""
    from pytest_textlayer.pdf.readers import squeeze

    want = Counter(squeeze(truth))
    if not want:
        return 1.0
    return sum((want & Counter(squeeze(text))).values()) / sum(want.values())


def poppler_pages(path: str) -> list[str] | None:
    """pdftotext's text of every page (None without poppler-utils)."""
    exe = shutil.which("pdftotext")
    if exe is None:
        return None
    done = subprocess.run([exe, "-enc", "UTF-8", "-q", path, "-"], capture_output=True,
                          check=False, timeout=600)
    return done.stdout.decode("utf-8", errors="replace").split("\f")


def measure_job(job: tuple[str, str, str, str, list[str]]
                ) -> tuple[list[dict[str, Any]], str | None]:
    """Classify one PDF, check that its pages kept their text, apply the peer rules."""
    import io

    import pikepdf
    import pypdfium2 as pdfium

    from pytest_textlayer import classify
    from pytest_textlayer.pdf.content import scan_page
    from pytest_textlayer.pdf.pagetext import TEXT_BUDGET
    from pytest_textlayer.pdf.readers import pdfium_page_text, same_text, text_difference

    producer, family, path, folder, truths = job
    data = Path(path).read_bytes()
    poppler = poppler_pages(path)
    name = str(Path(path).relative_to(folder))
    report = classify(data, name=name)
    if report.error:
        return [], f"{name}: {report.error}"
    rows = []
    cache: dict[Any, Any] = {}
    with pikepdf.open(io.BytesIO(data)) as pdf:
        doc = pdfium.PdfDocument(data)
        try:
            for page in report.pages:
                index = page.number - 1
                try:
                    ours = scan_page(pdf, index, cache).text
                except ValueError as exc:
                    ours = f"<{exc}>"
                theirs = pdfium_page_text(doc, index)
                total, bad, errors = pdfium_chars(doc, index)
                cut = len(ours) >= TEXT_BUDGET
                agree = same_text(ours, theirs, cut)
                popplers = poppler[index] if poppler and index < len(poppler) else None
                agree_any = agree or (popplers is not None and same_text(ours, popplers, cut))
                truth = truths[index] if index < len(truths) else ""
                kept = max(recovered(truth, theirs), recovered(truth, poppler[index])
                           if poppler and index < len(poppler) else 0.0)
                rows.append({
                    "producer": producer, "family": family, "file": name,
                    "page": page.number, "verdict": page.verdict.value,
                    "ok": page.verdict.value in OK_VERDICTS,
                    "decided_by": page.decided_by,
                    "evidence": page.evidence[0] if page.evidence else "",
                    "chars": total, "bad": bad, "map_errors": errors,
                    "rule10": total > 0 and bad / total > 0.10, "maperr": errors > 0,
                    "agree": agree, "agree_any": agree_any, "cut": cut,
                    "diff": "" if agree else text_difference(ours, theirs),
                    "kept": round(kept, 4), "intact": kept >= INTACT,
                })
        finally:
            doc.close()
    return rows, None


# -- the run -----------------------------------------------------------------------------------


@dataclass
class Tally:
    """Pages of one cell of the table: the false alarms are counted on the intact ones."""

    pages: int = 0
    #: Pages the producer did not keep intact (no reader gets their text back) ...
    lost: int = 0
    #: ... and those of them `textlayer check` flags: right, not false alarms.
    caught: int = 0
    check: int = 0
    rule10: int = 0
    maperr: int = 0
    agree: int = 0
    agree_any: int = 0
    #: Intact pages PDFium maps without a map error, and those of them whose text ours agrees
    #: with: where PDFium itself can read a page, our reading must be its.
    mapped: int = 0
    agree_mapped: int = 0

    @property
    def intact(self) -> int:
        return self.pages - self.lost

    def add(self, row: dict[str, Any]) -> None:
        self.pages += 1
        if not row["intact"]:
            self.lost += 1
            self.caught += not row["ok"]
            return
        self.check += not row["ok"]
        self.rule10 += row["rule10"]
        self.maperr += row["maperr"]
        self.agree += row["agree"]
        self.agree_any += row["agree_any"]
        if not row["maperr"]:
            self.mapped += 1
            self.agree_mapped += row["agree"]

    def cells(self) -> str:
        n = max(self.intact, 1)
        lost = f"{self.lost} ({self.caught})" if self.lost else "0"
        return (f"{self.pages:>6}{lost:>10}{self.check:>7}{self.rule10:>7}{self.maperr:>8}"
                f"{self.agree / n:>8.1%}")


HEADER = f"{'pages':>6}{'lost':>10}{'check':>7}{'10%':>7}{'maperr':>8}{'agree':>8}"


def pool_map(fn: Callable[[Any], Any], jobs: list[Any], workers: int) -> Iterator[Any]:
    if workers <= 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
        return
    with Pool(workers, maxtasksperchild=40) as pool:
        yield from pool.imap_unordered(fn, jobs, chunksize=1)


def run(args: argparse.Namespace) -> dict[str, Any]:
    everything = producers()
    wanted = set(args.producers.split(",")) if args.producers else {p.name for p in everything}
    unknown = wanted - {p.name for p in everything}
    if unknown:
        raise SystemExit(f"unknown producers: {', '.join(sorted(unknown))} (known: "
                         f"{', '.join(p.name for p in everything)})")
    chosen = [p for p in everything if p.name in wanted]
    skipped = {p.name: p.missing for p in chosen if p.missing}
    the_plan = plan(args, chosen)
    if args.keep:
        folder = Path(args.keep).resolve()
        if folder == REPO or REPO in folder.parents:
            raise SystemExit(f"--keep {folder}: inside the repository; pick a folder outside it")
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="false-alarms-"))
    workers = args.jobs or os.cpu_count() or 1
    started = time.perf_counter()
    for name, why in skipped.items():
        extra = the_plan.would_add.get(name)
        print(f"skipped {name}: {why}" + (f"; would add ~{extra} pages" if extra else ""))
    for note in the_plan.notes:
        print(f"note: {note}")
    planned = sum(len(d.pages) for d in the_plan.docs)
    print(f"building {len(the_plan.docs)} documents ({planned} pages) with {workers} workers "
          f"in {folder}", flush=True)
    built: list[tuple[str, str, str]] = []
    truths = {str(doc_path(str(folder), d)): page_truth(d) for d in the_plan.docs}
    failures: list[str] = []
    seconds: Counter[str] = Counter()
    order = sorted(the_plan.docs, key=lambda d: -len(d.pages))
    for producer, family, path, error, spent in pool_map(
            build_job, [(d, str(folder)) for d in order], workers):
        seconds[producer] += spent
        if error:
            failures.append(f"{producer} {Path(path).name}: {error}")
        else:
            built.append((producer, family, path))
    reprints = [(derived, family, path, str(folder)) for derived, source in the_plan.derived
                for producer, family, path in built if producer == source]
    sources = {str(reprint_path(str(folder), derived, path)): path
               for derived, _, path, _ in reprints}
    for producer, family, path, error, spent in pool_map(reprint_job, reprints, workers):
        seconds[producer] += spent
        if error:
            failures.append(f"{producer} {Path(path).name}: {error}")
        else:
            built.append((producer, family, path))
            truths[path] = truths[sources[path]]
    build_time = time.perf_counter() - started
    print(f"built {len(built)} PDFs in {build_time:.0f} s; classifying", flush=True)
    rows: list[dict[str, Any]] = []
    jobs = [(p, f, path, str(folder), truths[path]) for p, f, path in built]
    jobs.sort(key=lambda j: -Path(j[2]).stat().st_size)
    for found, error in pool_map(measure_job, jobs, workers):
        rows += found
        if error:
            failures.append(error)
    rows.sort(key=lambda r: (r["producer"], r["family"], r["file"], r["page"]))
    check_time = time.perf_counter() - started - build_time
    result = report(rows, failures, skipped, the_plan, args, folder)
    result["seconds"] = {"build": round(build_time, 1), "check": round(check_time, 1),
                         "by_producer": {k: round(v, 1) for k, v in sorted(seconds.items())}}
    print(f"\n{len(rows)} pages; built in {build_time:.0f} s, checked in {check_time:.0f} s")
    if args.keep:
        print(f"PDFs kept in {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return result


def report(rows: list[dict[str, Any]], failures: list[str], skipped: dict[str, str | None],
           the_plan: Plan, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Print the tables and the lists; return the figures."""
    cells: dict[tuple[str, str], Tally] = {}
    per_producer: dict[str, Tally] = {}
    per_family: dict[str, Tally] = {}
    total = Tally()
    for row in rows:
        cells.setdefault((row["producer"], row["family"]), Tally()).add(row)
        per_producer.setdefault(row["producer"], Tally()).add(row)
        family = "prose" if row["family"].startswith("prose-") else row["family"]
        per_family.setdefault(family, Tally()).add(row)
        total.add(row)
    print("\nper producer and family. lost: pages the producer did not keep intact (PDFium and "
          f"poppler get back under {INTACT:.0%} of the characters drawn; in brackets those "
          "`textlayer check` flags, rightly); on the intact pages, false alarms of check (not "
          "readable/blank), of the 10 % rule (over 10 % of PDFium's characters unmapped) and "
          "of the map-error rule (any PDFium map error); agree: own text has PDFium's "
          "characters (order, whitespace and invisible characters aside)")
    print(f"{'producer':<18}{'family':<15}{HEADER}")
    for (producer, family), t in sorted(cells.items()):
        print(f"{producer:<18}{family:<15}{t.cells()}")
    print(f"\nper producer\n{'producer':<33}{HEADER}")
    for producer, t in sorted(per_producer.items()):
        print(f"{producer:<33}{t.cells()}")
    print(f"\nper family\n{'family':<33}{HEADER}")
    for family, t in sorted(per_family.items()):
        print(f"{family:<33}{t.cells()}")
    n = max(total.intact, 1)
    print(f"\ntotal: {total.pages} pages, {total.intact} intact, {total.lost} lost by their "
          f"producer ({total.caught} of them flagged by check)")
    print(f"false alarms on the {total.intact} intact pages: textlayer check {total.check} "
          f"({total.check / n:.2%}), 10 % rule {total.rule10} ({total.rule10 / n:.2%}), "
          f"map-error rule {total.maperr} ({total.maperr / n:.2%}); reader agreement "
          f"{total.agree / n:.2%} with PDFium ({total.intact - total.agree} pages differ), "
          f"{total.agree_any / n:.2%} with PDFium or poppler "
          f"({total.intact - total.agree_any} differ from both); on the {total.mapped} pages "
          f"PDFium maps without a map error, {total.agree_mapped / max(total.mapped, 1):.2%} "
          f"with PDFium ({total.mapped - total.agree_mapped} differ)")
    alarms = [r for r in rows if r["intact"] and not r["ok"]]
    print(f"\nfalse alarms of textlayer check: {len(alarms)}")
    for r in alarms:
        print(f"  {r['file']} p{r['page']}: {r['verdict']} ({r['decided_by'] or '?'}) | "
              f"{r['evidence'][:150]}")
    lost = [r for r in rows if not r["intact"]]
    print(f"\npages lost by their producer: {len(lost)}")
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in lost:
        groups.setdefault((r["producer"], r["family"]), []).append(r)
    for (producer, family), some in sorted(groups.items()):
        r = some[0]
        print(f"  {producer} {family}: {len(some)} pages, {sum(not x['ok'] for x in some)} "
              f"flagged; e.g. {r['file']} p{r['page']} kept {r['kept']:.0%}: {r['verdict']} | "
              f"{r['evidence'][:100]}")
    differ = [r for r in rows if r["intact"] and not r["agree"]]
    print(f"\nreader disagreements: {len(differ)} (first 10)")
    for r in differ[:10]:
        print(f"  {r['file']} p{r['page']}: {r['diff'][:170]}")
    if failures:
        print(f"\nbuild or read failures: {len(failures)}")
        for line in failures:
            print(f"  {line}")
    return {
        "pages": total.pages, "intact": total.intact, "lost": total.lost,
        "lost_flagged": total.caught,
        "totals": {"check": total.check, "rule10": total.rule10, "maperr": total.maperr,
                   "agree": total.agree, "agree_any": total.agree_any,
                   "mapped": total.mapped, "agree_mapped": total.agree_mapped},
        "rates": {"check": total.check / n, "rule10": total.rule10 / n,
                  "maperr": total.maperr / n, "agree": total.agree / n,
                  "agree_any": total.agree_any / n},
        "cells": [{"producer": p, "family": f, **asdict(t)} for (p, f), t in sorted(cells.items())],
        "producers": {p: asdict(t) for p, t in sorted(per_producer.items())},
        "families": {f: asdict(t) for f, t in sorted(per_family.items())},
        "pages_checked": [[r["file"], r["page"], r["verdict"], r["kept"], r["rule10"],
                           r["maperr"], r["agree"]] for r in rows],
        "false_alarms": alarms,
        "lost_pages": lost,
        "disagreements": differ,
        "failures": failures,
        "skipped": {k: {"why": v, "would_add_pages": the_plan.would_add.get(k, 0)}
                    for k, v in skipped.items()},
        "notes": the_plan.notes,
        "quick": bool(args.quick),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred pages")
    parser.add_argument("--producers", default="", help="comma list (default: all available)")
    parser.add_argument("--families", default="",
                        help="comma list: chart, fill, pagenum, toc, cells, code, ticks, math, "
                             "lorem, words, forms, prose-LANG (default: all)")
    parser.add_argument("--pages", type=int, default=0,
                        help="pages per family (default 20, 2 with --quick; prose gets half)")
    parser.add_argument("--jobs", "-j", type=int, default=0, help="worker processes (default: "
                        "one per core)")
    parser.add_argument("--keep", default="", metavar="DIR",
                        help="build the PDFs in DIR (outside the repository) and keep them")
    parser.add_argument("--json", default="", metavar="FILE", help="write the figures to FILE")
    args = parser.parse_args(argv)
    try:
        run(args)
    except SystemExit as exc:
        if exc.code not in (0, None):
            print(exc.code, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
