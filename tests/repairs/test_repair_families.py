"""Repair against the fixture factory's families, in several languages and scripts.

Recoverable families must come back word for word in poppler, PDFium,
pypdf and pdfminer.six, render as before and stay small, with no OCR at all. Families that
hold no answer must be reported, not guessed.
"""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pytest

from pytest_textlayer.model import Verdict
from pytest_textlayer.repairs.repairer import repair

generators = pytest.importorskip("pytest_textlayer.generators")

#: (family, options, languages, source the report must name)
RECOVERABLE = [
    ("severed-recoverable", {"keep": "cmap"}, ("en", "fr", "ru", "el"), "cmap"),
    ("severed-recoverable", {"keep": "post"}, ("en", "pl", "ru", "el"), "post"),
    ("shifted", {}, ("en", "de", "ru"), "offset"),
    ("severed", {"order": "mac-standard"}, ("en", "fr", "de", "es"), "mac-standard"),
]
CASES = [
    pytest.param(family, options, lang, source, id=f"{family}-{'-'.join(options.values())}-{lang}")
    for family, options, langs, source in RECOVERABLE
    for lang in langs
]


def _words(text: str) -> list[str]:
    return text.split()


def _readers(path: Path) -> dict[str, list[str]]:
    import pypdf
    import pypdfium2

    poppler = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout.split("\f")
    doc = pypdfium2.PdfDocument(str(path))
    try:
        pdfium = [page.get_textpage().get_text_range() for page in doc]
        renders = [page.render(scale=1.0).to_pil().convert("L").tobytes() for page in doc]
    finally:
        doc.close()
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    out = {
        "poppler": poppler[: len(pdfium)],
        "pdfium": pdfium,
        "pypdf": [p.extract_text() for p in reader.pages],
        "render": [str(hash(r)) for r in renders],
    }
    try:
        from pdfminer.high_level import extract_text
    except ImportError:  # a dev extra: the other three readers still judge
        return out
    out["pdfminer"] = [extract_text(str(path), page_numbers=[i]) for i in range(len(pdfium))]
    return out


@pytest.mark.parametrize(("family", "options", "lang", "source"), CASES)
def test_recoverable_family_reads_right_in_every_reader(
    tmp_path: Path, family: str, options: dict[str, str], lang: str, source: str
) -> None:
    fixture = generators.generate(family, generators.default_text(lang), **options)
    src, dst = tmp_path / "in.pdf", tmp_path / "out.pdf"
    src.write_bytes(fixture.pdf)
    report = repair(src, dst, ocr="never")
    truth = [_words(p.text) for p in fixture.pages]
    before, after = _readers(src), _readers(dst)
    for reader in ("poppler", "pdfium", "pypdf", "pdfminer"):
        if reader in after:
            assert [_words(t) for t in after[reader]] == truth, reader
    assert after["render"] == before["render"]
    assert dst.stat().st_size <= 1.1 * src.stat().st_size
    assert report.ok
    assert all(p.action == "tounicode" and source in p.sources for p in report.pages)
    assert all(p.after is Verdict.READABLE for p in report.pages)


@pytest.mark.parametrize(
    ("family", "options"),
    [
        ("severed", {"order": "first-use"}),
        ("severed-recoverable", {"keep": "name"}),
        ("type3-unnamed", {}),
    ],
)
def test_family_without_an_answer_in_the_file_is_not_guessed(
    tmp_path: Path, family: str, options: dict[str, str]
) -> None:
    fixture = generators.generate(family, generators.default_text("en"), **options)
    src, dst = tmp_path / "in.pdf", tmp_path / "out.pdf"
    src.write_bytes(fixture.pdf)
    report = repair(src, dst, ocr="never")
    assert not report.ok
    assert all(p.after is not Verdict.READABLE for p in report.pages)
    assert all(p.action == "unchanged" for p in report.pages)


def test_readable_and_blank_pages_are_unchanged(tmp_path: Path) -> None:
    for family in ("readable", "blank"):
        fixture = generators.generate(family, generators.default_text("de"))
        src, dst = tmp_path / f"{family}.pdf", tmp_path / f"{family}-out.pdf"
        src.write_bytes(fixture.pdf)
        report = repair(src, dst, ocr="never")
        assert report.ok and report.fonts == ()
        assert all(p.action == "unchanged" for p in report.pages)


@pytest.mark.parametrize("lang", ["de", "es", "fr"])
def test_designer_order_gets_ascii_and_no_wrong_accents(tmp_path: Path, lang: str) -> None:
    """A font in its own glyph order matches the Mac order for ASCII only: the letters past
    it are left unmapped without OCR, never read through the Mac table as wrong letters."""
    fixture = generators.generate("severed", generators.default_text(lang), order="original")
    src, dst = tmp_path / "in.pdf", tmp_path / "out.pdf"
    src.write_bytes(fixture.pdf)
    report = repair(src, dst, ocr="never")
    assert all(p.action == "tounicode" for p in report.pages)
    truth = fixture.pages[0].text
    ascii_words = [w for w in truth.split() if w.isascii()]
    assert set(ascii_words) <= set(_readers(dst)["pdfium"][0].split())
    # What the written ToUnicode says: only characters of the text, nothing invented.
    import pikepdf

    from pytest_textlayer.pdf import fonts
    from pytest_textlayer.repairs import fontusage

    with pikepdf.open(dst) as pdf:
        [usage] = fontusage.collect_fonts(pdf).values()
        info = fonts.analyse_font(usage.font)
        written = {info.to_unicode(code) for code in usage.codes()} - {None}
    assert "".join(written) and set("".join(written)) <= set(truth)
