"""A second pair of eyes: documents built the way real producers build them.

Each case is made by a real producer (reportlab, Ghostscript's pdfwrite,
poppler's cairo writer, qpdf, groff + ps2pdf, OCRmyPDF over a rendered scan)
and, for the broken ones, damaged the way the wild damages fonts (ToUnicode
removed, shifted, collapsed, sent into the Private Use Area, given as a name).
Readable pages must pass, broken pages must be flagged. The cases marked
``xfail(strict=True)`` pin false alarms and misses found in review; each
reason names the rung that decides wrongly.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_textlayer import classify

pytest.importorskip("reportlab")
pikepdf = pytest.importorskip("pikepdf")

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
GOOD = {"readable", "blank"}

EN = ("The committee reviewed the annual report and agreed that the budget for the coming year "
      "should prioritise maintenance of the existing buildings before any new construction begins. "
      "Members noted that several roofs leak during heavy rain and that the heating system is old.")
TEXTS = {
    "en": EN,
    "fr": "Le comité a examiné le rapport annuel et a convenu que le budget de l'année prochaine "
          "devrait donner la priorité à l'entretien des bâtiments existants avant toute nouvelle "
          "construction.",
    "ru": "Комитет рассмотрел годовой отчёт и согласился, что бюджет на следующий год должен "
          "отдавать приоритет содержанию существующих зданий, прежде чем начнётся новое "
          "строительство.",
    "el": "Η επιτροπή εξέτασε την ετήσια έκθεση και συμφώνησε ότι ο προϋπολογισμός του επόμενου "
          "έτους πρέπει να δώσει προτεραιότητα στη συντήρηση των υφιστάμενων κτιρίων.",
    "ar": "راجعت اللجنة التقرير السنوي واتفقت على أن ميزانية العام المقبل يجب أن تعطي الأولوية "
          "لصيانة المباني القائمة قبل البدء في أي بناء جديد.",
    "he": "הוועדה בחנה את הדוח השנתי והסכימה שהתקציב לשנה הבאה צריך לתת עדיפות לתחזוקת המבנים "
          "הקיימים לפני כל בנייה חדשה.",
    "zh": "委员会审查了年度报告，并同意明年的预算应优先考虑维护现有建筑，"
          "然后再开始任何新的建设项目。屋顶在大雨时漏水，供暖系统也很旧。",
}
CID_FONTS = {"zh": "STSong-Light", "ja": "HeiseiMin-W3", "ko": "HYSMyeongJo-Medium"}
CJK_TEXTS = {
    "zh": TEXTS["zh"],
    "ja": "委員会は年次報告書を検討し、来年度の予算は新しい建設を始める前に"
          "既存の建物の維持管理を優先すべきであることに合意した。",
    "ko": "위원회는 연례 보고서를 검토하고 내년 예산은 새로운 건설을 시작하기 전에 "
          "기존 건물의 유지 관리를 우선시해야 한다는 데 동의했다.",
}


# ---------------------------------------------------------------- producers

def _register() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfbase.ttfonts import TTFont

    if not (DEJAVU / "DejaVuSans.ttf").exists():
        pytest.skip("DejaVu fonts are not installed")
    pdfmetrics.registerFont(TTFont("RvSans", str(DEJAVU / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("RvMono", str(DEJAVU / "DejaVuSansMono.ttf")))
    for name in CID_FONTS.values():
        pdfmetrics.registerFont(UnicodeCIDFont(name))


def _wrap(c: object, text: str, font: str, size: float, x: float, y: float,
          width: float, cjk: bool = False) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    units = list(text) if cjk else text.split(" ")
    sep = "" if cjk else " "
    line = ""
    for unit in units:
        cand = line + sep + unit if line else unit
        if stringWidth(cand, font, size) > width and line:
            c.drawString(x, y, line)  # type: ignore[attr-defined]
            y -= size * 1.3
            line = unit
        else:
            line = cand
    if line:
        c.drawString(x, y, line)  # type: ignore[attr-defined]
        y -= size * 1.3
    return y


def _doc(path: Path, paragraphs: list[tuple[str, str]], *, cjk: bool = False,
         size: float = 11) -> Path:
    """One reportlab page of (font, text) paragraphs, each repeated twice."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    y = 800.0
    for font, text in paragraphs:
        c.setFont(font, size)
        for _ in range(2):
            y = _wrap(c, text, font, size, 60, y, 470, cjk=cjk) - 8
    c.showPage()
    c.save()
    return path


def _cairo(src: Path, dst: Path) -> Path:
    subprocess.run(["pdftocairo", "-pdf", str(src), str(dst)], check=True, capture_output=True)
    return dst


def _gs(src: Path, dst: Path) -> Path:
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
                    f"-sOutputFile={dst}", str(src)], check=True, capture_output=True)
    return dst


def _qpdf(src: Path, dst: Path) -> Path:
    subprocess.run(["qpdf", "--object-streams=generate", "--linearize", str(src), str(dst)],
                   check=True, capture_output=True)
    return dst


# ---------------------------------------------------------------- breakers

def _fonts(pdf: object) -> list[object]:
    seen: set[tuple[int, int]] = set()
    out = []
    for obj in pdf.objects:  # type: ignore[attr-defined]
        if (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"
                and obj.objgen not in seen):
            seen.add(obj.objgen)
            out.append(obj)
    return out


def _strip(src: Path, dst: Path) -> Path:
    with pikepdf.open(src) as pdf:
        for font in _fonts(pdf):
            if "/ToUnicode" in font:  # type: ignore[operator]
                del font["/ToUnicode"]  # type: ignore[attr-defined]
        pdf.save(dst)
    return dst


def _parse_cmap(data: bytes) -> dict[int, tuple[int, str]]:
    table: dict[int, tuple[int, str]] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for a, b in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            table[int(a, 16)] = (len(a), bytes.fromhex(b.decode()).decode("utf-16-be", "replace"))
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
        triples = re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block)
        for a, b, c in triples:
            lo, hi = int(a, 16), int(b, 16)
            base = bytes.fromhex(c.decode()).decode("utf-16-be", "replace")
            for k in range(lo, hi + 1):
                table[k] = (len(a), base[:-1] + chr(ord(base[-1]) + k - lo))
    return table


def _emit_cmap(table: dict[int, tuple[int, str]]) -> bytes:
    width = next(iter(table.values()))[0]
    lines = ["/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
             f"1 begincodespacerange <{'0' * width}> <{'F' * width}> endcodespacerange"]
    items = sorted(table.items())
    for i in range(0, len(items), 100):
        chunk = items[i:i + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines += [f"<{code:0{w}X}> <{text.encode('utf-16-be').hex().upper()}>"
                  for code, (w, text) in chunk]
        lines.append("endbfchar")
    lines.append("endcmap CMapName currentdict /CMap defineresource pop end end")
    return "\n".join(lines).encode()


def _remap(src: Path, dst: Path, fn: Callable[[str], str]) -> Path:
    """Rewrite every ToUnicode stream through `fn` (the damage)."""
    with pikepdf.open(src) as pdf:
        for font in _fonts(pdf):
            stream = font.get("/ToUnicode")  # type: ignore[attr-defined]
            if isinstance(stream, pikepdf.Stream):
                table = _parse_cmap(stream.read_bytes())
                if table:
                    new = {k: (w, fn(t)) for k, (w, t) in table.items()}
                    font["/ToUnicode"] = pdf.make_stream(_emit_cmap(new))  # type: ignore[index]
        pdf.save(dst)
    return dst


def _shift(k: int) -> Callable[[str], str]:
    return lambda t: "".join(chr(ord(ch) + k) if ch.isalnum() else ch for ch in t)


def _scramble() -> Callable[[str], str]:
    letters = [chr(c) for c in range(0x61, 0x7B)]
    perm = letters[:]
    random.Random(7).shuffle(perm)
    table = dict(zip(letters, perm, strict=True))
    table.update({k.upper(): v.upper() for k, v in table.items()})
    return lambda t: "".join(table.get(ch, ch) for ch in t)


def _scan(src: Path, dst: Path, stamp: str | None = None, *, strip: bool = False) -> Path:
    """Render a page and put it back as a full-page image (a scan).

    `strip` keeps only the top band of the page (a few lines), so OCR stays quick.
    """
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    stem = dst.with_suffix("")
    crop = ["-x", "0", "-y", "0", "-W", "1240", "-H", "360"] if strip else []
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", *crop, str(src), str(stem)],
                   check=True)
    size = (A4[0], A4[0] * 360 / 1240) if strip else A4
    c = canvas.Canvas(str(dst), pagesize=size)
    c.drawImage(str(stem) + ".png", 0, 0, width=size[0], height=size[1])
    if stamp:
        c.setFont("Helvetica", 6)
        c.drawString(480, 10, stamp)
    c.showPage()
    c.save()
    return dst


def _ocr(src: Path, dst: Path, lang: str) -> Path:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed")
    langs = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True).stdout
    if lang not in langs.split():
        pytest.skip(f"tesseract has no {lang} pack")
    pytest.importorskip("ocrmypdf")
    import os
    import sys

    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    subprocess.run([sys.executable, "-m", "ocrmypdf", "-q", "--jobs", "1", "-l", lang,
                    "--output-type", "pdf", str(src), str(dst)], check=True, env=env)
    return dst


# ---------------------------------------------------------------- the corpus

@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    for tool in ("pdftocairo", "gs", "qpdf", "pdftoppm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    _register()
    d = tmp_path_factory.mktemp("review")
    b: dict[str, Path] = {}
    for lang in ("en", "fr", "ru", "el", "ar", "he"):
        b[f"ttf_{lang}"] = _doc(d / f"ttf_{lang}.pdf", [("RvSans", TEXTS[lang])])
    for lang, font in CID_FONTS.items():
        b[f"cid_{lang}"] = _doc(d / f"cid_{lang}.pdf", [(font, CJK_TEXTS[lang])], cjk=True)
    b["base14"] = _doc(d / "base14.pdf", [("Helvetica-Bold", "Annual report"), ("Times-Roman", EN)])
    b["bilingual"] = _doc(d / "bilingual.pdf", [("RvSans", TEXTS["en"]), ("RvSans", TEXTS["ru"])])
    b["four_scripts"] = _doc(d / "four.pdf",
                             [("RvSans", TEXTS[k]) for k in ("en", "ru", "el", "ar")])
    b["mono_prose"] = _doc(d / "mono.pdf", [("RvMono", EN)], size=10)
    b["mono_prose_cairo"] = _cairo(b["mono_prose"], d / "mono_cairo.pdf")
    b["base14_gs"] = _gs(b["base14"], d / "base14_gs.pdf")
    b["base14_cairo"] = _cairo(b["base14"], d / "base14_cairo.pdf")
    b["ttf_en_cairo"] = _cairo(b["ttf_en"], d / "ttf_en_cairo.pdf")
    b["ttf_ru_cairo"] = _cairo(b["ttf_ru"], d / "ttf_ru_cairo.pdf")
    b["ttf_ru_qpdf"] = _qpdf(b["ttf_ru"], d / "ttf_ru_qpdf.pdf")
    b["cid_ja_gs"] = _gs(b["cid_ja"], d / "cid_ja_gs.pdf")
    b["cid_zh_qpdf"] = _qpdf(b["cid_zh"], d / "cid_zh_qpdf.pdf")
    groff = subprocess.run(["groff", "-Tps"], input=f"Annual report\n.sp\n{EN}\n.sp\n{EN}\n",
                           capture_output=True, text=True, check=True).stdout
    (d / "groff.ps").write_text(groff)
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
                    f"-sOutputFile={d / 'groff.pdf'}", str(d / "groff.ps")], check=True)
    b["groff_ps2pdf"] = d / "groff.pdf"
    return b


def _verdicts(path: Path) -> list[str]:
    return [page.verdict.value for page in classify(path).pages]


READABLE = ["ttf_en", "ttf_fr", "ttf_ru", "ttf_el", "ttf_ar", "ttf_he", "cid_zh", "cid_ja",
            "cid_ko", "base14", "bilingual", "mono_prose", "mono_prose_cairo", "base14_gs",
            "base14_cairo", "ttf_en_cairo", "ttf_ru_cairo", "ttf_ru_qpdf", "cid_ja_gs",
            "cid_zh_qpdf", "groff_ps2pdf"]


@pytest.mark.parametrize("case", READABLE)
def test_readable_documents_from_real_producers_pass(built: dict[str, Path], case: str) -> None:
    assert set(_verdicts(built[case])) <= GOOD


BROKEN: dict[str, tuple[str, Callable[[Path, Path], Path]]] = {
    "ttf_ru_strip": ("ttf_ru", _strip),
    "ttf_ru_cairo_strip": ("ttf_ru_cairo", _strip),
    "ttf_el_shift1": ("ttf_el", lambda s, d: _remap(s, d, _shift(1))),
    "ttf_ar_shift1": ("ttf_ar", lambda s, d: _remap(s, d, _shift(1))),
    "ttf_he_shift1": ("ttf_he", lambda s, d: _remap(s, d, _shift(1))),
    "ttf_en_cairo_shift3": ("ttf_en_cairo", lambda s, d: _remap(s, d, _shift(3))),
    "ttf_fr_one_letter": ("ttf_fr", lambda s, d: _remap(s, d, lambda t: "e" if t.strip() else t)),
    "ttf_ru_cairo_fffd": ("ttf_ru_cairo", lambda s, d: _remap(s, d, lambda t: "\ufffd")),
    "ttf_en_pua": ("ttf_en", lambda s, d: _remap(
        s, d, lambda t: "".join(chr(0xE000 + (ord(ch) & 0xFFF)) for ch in t))),
    "base14_cairo_scramble": ("base14_cairo", lambda s, d: _remap(s, d, _scramble())),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_documents_are_flagged(built: dict[str, Path], case: str,
                                      tmp_path: Path) -> None:
    source, breaker = BROKEN[case]
    broken = breaker(built[source], tmp_path / f"{case}.pdf")
    assert not set(_verdicts(broken)) <= GOOD


def test_stripped_tounicode_whose_codes_are_ascii_stays_readable(
        built: dict[str, Path], tmp_path: Path) -> None:
    """reportlab gives an ASCII-only subset the ASCII codes: without its ToUnicode the font
    has no route by the specification, but every reader still prints the text right, so
    the page reads (the evidence still names the font)."""
    broken = _strip(built["ttf_en"], tmp_path / "ttf_en_strip.pdf")
    text = subprocess.run(["pdftotext", str(broken), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "committee reviewed the annual report" in " ".join(text.split())
    report = classify(broken)
    assert [p.verdict.value for p in report.pages] == ["readable"]
    assert any("codes read as ASCII" in line for line in report.pages[0].evidence), \
        report.pages[0].evidence


def test_tounicode_given_as_a_name_on_identity_font_is_flagged(built: dict[str, Path],
                                                               tmp_path: Path) -> None:
    with pikepdf.open(built["ttf_ru_cairo"]) as pdf:
        for font in pdf.pages[0].Resources.Font.values():
            if font.Subtype == "/Type0":
                font.ToUnicode = pikepdf.Name("/Identity-H")
        pdf.save(tmp_path / "name.pdf")
    assert _verdicts(tmp_path / "name.pdf") == ["undecodable"]


def test_image_only_scan_is_absent(built: dict[str, Path], tmp_path: Path) -> None:
    assert _verdicts(_scan(built["ttf_en"], tmp_path / "scan.pdf")) == ["absent"]


def test_ocrmypdf_layer_in_the_right_language_passes(built: dict[str, Path],
                                                      tmp_path: Path) -> None:
    scan = _scan(built["ttf_en"], tmp_path / "scan.pdf", strip=True)
    assert _verdicts(_ocr(scan, tmp_path / "ocr.pdf", "eng")) == ["readable"]


# ---------------------------------------------------------------- found in review

def test_multilingual_page_with_four_scripts_is_readable(built: dict[str, Path]) -> None:
    assert _verdicts(built["four_scripts"]) == ["readable"]


def test_shifted_tounicode_in_cairo_monospace_is_flagged(built: dict[str, Path],
                                                         tmp_path: Path) -> None:
    broken = _remap(built["mono_prose_cairo"], tmp_path / "mono_shift1.pdf", _shift(1))
    assert _verdicts(broken) != ["readable"]


def test_ocr_layer_in_the_wrong_script_is_flagged(built: dict[str, Path],
                                                  tmp_path: Path) -> None:
    """An English scan OCR'd as Russian ('Тре соттйее гемеме4 {Не аппиа!') reads as Bulgarian
    only moderately, and half its words mix letters with digits or brackets: the shapes
    Cyrillic lacks. Right-language OCR layers have a few such words at most."""
    scan = _scan(built["ttf_en"], tmp_path / "scan.pdf", strip=True)
    assert _verdicts(_ocr(scan, tmp_path / "ocr.pdf", "rus")) != ["readable"]
    assert _verdicts(_ocr(scan, tmp_path / "ocr_en.pdf", "eng")) == ["readable"]


@pytest.mark.xfail(strict=True, reason=(
    "miss: a full-page scan carrying only a 6 pt stamp of 22 glyphs is 'readable': the "
    "presence rung counts any drawn text, however little of the page it covers"))
def test_scan_with_only_a_tiny_stamp_is_flagged(built: dict[str, Path], tmp_path: Path) -> None:
    scan = _scan(built["ttf_en"], tmp_path / "stamp.pdf", stamp="Scanned 2024-03-01 p.1")
    assert _verdicts(scan) != ["readable"]


def _two_font_page(path: Path, broken_first: int, good: int) -> Path:
    """Paragraphs in Liberation Sans, then paragraphs in DejaVu Sans."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    liberation = Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")
    if not liberation.exists():
        pytest.skip("Liberation fonts are not installed")
    pdfmetrics.registerFont(TTFont("RvLib", str(liberation)))
    c = canvas.Canvas(str(path), pagesize=A4)
    y = 800.0
    for k in range(broken_first + good):
        font = "RvLib" if k < broken_first else "RvSans"
        c.setFont(font, 11)
        y = _wrap(c, EN, font, 11, 60, y, 470) - 6
    c.showPage()
    c.save()
    return path


def _remap_font(src: Path, dst: Path, base_font: str, fn: Callable[[str], str]) -> Path:
    with pikepdf.open(src) as pdf:
        for font in _fonts(pdf):
            if base_font in str(font.get("/BaseFont")):  # type: ignore[attr-defined]
                table = _parse_cmap(font.ToUnicode.read_bytes())  # type: ignore[attr-defined]
                new = {k: (w, fn(t)) for k, (w, t) in table.items()}
                font["/ToUnicode"] = pdf.make_stream(_emit_cmap(new))  # type: ignore[index]
        pdf.save(dst)
    return dst


def test_shifted_font_drawing_a_third_of_the_page_is_flagged(built: dict[str, Path],
                                                             tmp_path: Path) -> None:
    page = _two_font_page(tmp_path / "mix.pdf", 2, 4)
    broken = _remap_font(page, tmp_path / "mix_shift.pdf", "Liberation", _shift(2))
    assert _verdicts(broken) == ["shifted"]


def test_shifted_font_drawing_half_the_page_is_flagged(built: dict[str, Path],
                                                      tmp_path: Path) -> None:
    page = _two_font_page(tmp_path / "mix.pdf", 3, 3)
    broken = _remap_font(page, tmp_path / "mix_shift.pdf", "Liberation", _shift(2))
    assert _verdicts(broken) != ["readable"]


@pytest.mark.xfail(strict=True, reason=(
    "miss: pdftocairo draws Polish with a WinAnsi TrueType plus an Identity-H subset for "
    "the letters outside Latin-1 (ł ś ż ę ą); with that subset's ToUnicode gone, 32 of 600 "
    "glyphs (5 %) are severed, under the 10 % bad-glyph limit, yet a quarter of the words "
    "lose a letter ('przeanalizowaa', 'budet')"))
def test_polish_page_with_severed_accent_subset_is_flagged(built: dict[str, Path],
                                                           tmp_path: Path) -> None:
    source = _doc(tmp_path / "pl.pdf", [("RvSans", (
        "Komisja przeanalizowała sprawozdanie roczne i zgodziła się, że budżet na przyszły "
        "rok powinien traktować priorytetowo utrzymanie istniejących budynków."))])
    broken = _strip(_cairo(source, tmp_path / "pl_cairo.pdf"), tmp_path / "pl_strip.pdf")
    assert _verdicts(broken) != ["readable"]


def test_ghostscript_redistilled_ascii_truetype_is_readable(built: dict[str, Path],
                                                            tmp_path: Path) -> None:
    redistilled = _gs(built["ttf_en"], tmp_path / "ttf_en_gs.pdf")
    text = subprocess.run(["pdftotext", str(redistilled), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "committee reviewed the annual report" in " ".join(text.split())
    assert _verdicts(redistilled) == ["readable"]


def test_ocr_layer_in_latin_over_a_cyrillic_scan_is_flagged(built: dict[str, Path],
                                                             tmp_path: Path) -> None:
    scan = _scan(built["ttf_ru"], tmp_path / "scan.pdf", strip=True)
    assert _verdicts(_ocr(scan, tmp_path / "ocr.pdf", "eng")) != ["readable"]


def _slide(path: Path, items: list[str], image: Path | None = None) -> Path:
    """A slide: a title, bullets drawn in DejaVu Serif, short items in DejaVu Sans."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("RvSerif", str(DEJAVU / "DejaVuSerif.ttf")))
    c = canvas.Canvas(str(path), pagesize=A4)
    if image is not None:
        c.drawImage(str(image), 0, 0, width=A4[0], height=A4[1])
    c.setFont("RvSans", 28)
    c.drawString(60, 760, "Results")
    for row, item in enumerate(items):
        c.setFont("RvSerif", 20)
        c.drawString(70, 700 - row * 50, "•")
        c.setFont("RvSans", 20)
        c.drawString(100, 700 - row * 50, item)
    c.showPage()
    c.save()
    return path


def test_cover_page_over_a_full_bleed_photo_is_readable(built: dict[str, Path],
                                                        tmp_path: Path) -> None:
    """Guard for a fix of the tiny-stamp miss: big text over a full-page image is fine."""
    _scan(built["ttf_en"], tmp_path / "photo.pdf")
    page = _slide(tmp_path / "cover.pdf", ["Annual report of the city council",
                                           "Springfield, March 2024"],
                  image=tmp_path / "photo.png")
    assert _verdicts(page) == ["readable"]


def test_slide_with_private_use_bullets_is_readable(built: dict[str, Path],
                                                    tmp_path: Path) -> None:
    page = _slide(tmp_path / "slide.pdf", ["Q1 up 4%", "Q2 flat", "Lyon", "Hiring", "May"])
    with pikepdf.open(page) as pdf:
        for font in _fonts(pdf):
            if "DejaVuSerif" in str(font.get("/BaseFont")):  # type: ignore[attr-defined]
                table = _parse_cmap(font.ToUnicode.read_bytes())  # type: ignore[attr-defined]
                font["/ToUnicode"] = pdf.make_stream(  # type: ignore[index]
                    _emit_cmap({k: (w, "\uf0b7") for k, (w, _) in table.items()}))
        pdf.save(tmp_path / "slide_pua.pdf")
    assert _verdicts(tmp_path / "slide_pua.pdf") == ["readable"]


_ORDER_PROBE = """
import sys
from pytest_textlayer import classify
target, other = sys.argv[1], sys.argv[2]
first = classify(target).pages[0].verdict.value
classify(other)
print(first, classify(target).pages[0].verdict.value)
"""


def test_verdict_does_not_depend_on_the_documents_classified_before(
        built: dict[str, Path], tmp_path: Path) -> None:
    import sys

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = tmp_path / "symbols.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    y = 780
    for _ in range(15):  # Latin letters that Symbol lacks: reportlab falls back to ZapfDingbats
        c.setFont("Symbol", 14)
        c.drawString(60, y, "a + b = g,  \xf2 f(x) dx \xb3 \xe5 l\xb2 p")
        c.setFont("Times-Italic", 12)
        c.drawString(300, y, "x_i = y + 2z")
        y -= 30
    c.showPage()
    c.save()
    target = _gs(path, tmp_path / "symbols_gs.pdf")
    other = _gs(built["ttf_el"], tmp_path / "el_gs.pdf")
    out = subprocess.run([sys.executable, "-c", _ORDER_PROBE, str(target), str(other)],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[1]
