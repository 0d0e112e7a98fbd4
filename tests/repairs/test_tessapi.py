"""Tesseract kept loaded in this process (tesserocr) against the ``tesseract`` program.

The engine must read what the program reads, be made once per pack and mode,
and give way to the program, silently, whenever it is not there or cannot
load a pack. Skipped without Tesseract's English and OSD packs; the engine's
own tests without tesserocr.
"""

from __future__ import annotations

import subprocess
import sys
from collections import OrderedDict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from _tesseract import packs, program_runs

from pytest_textlayer.repairs import ocr, tessapi

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
ENGLISH = ["The library on Quarry Street closes for six weeks",
           "while its roof is replaced; borrowed books go back",
           "to the mobile library by the swimming pool."]
RUSSIAN = ["Библиотека на улице Каменоломен закрывается",
           "на шесть недель, пока меняют крышу здания."]


pytestmark = [
    pytest.mark.skipif(not packs("eng", "rus", "osd"), reason="tesseract eng, rus, osd needed"),
    pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core draws the pictures"),
]
def _kept() -> bool:
    try:
        return ocr.kept_engine(ocr.tesseract_info()) is not None
    except Exception:  # noqa: BLE001 - no Tesseract at all
        return False


needs_tesserocr = pytest.mark.skipif(
    not _kept(),
    reason="tesserocr built on the program's Tesseract is not installed (./dev builds it)")


def _picture(lines: list[str]) -> Any:
    """Lines of 12 pt text at 300 dpi, grey, as glyph OCR renders its pages."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(DEJAVU), 50)
    image = Image.new("L", (2000, 80 + 75 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((40, 40 + 75 * row), line, font=font, fill=0)
    return image


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """No engine kept from other tests, no reading remembered; the program's runs, counted."""
    monkeypatch.setattr(tessapi, "_ENGINES", OrderedDict())
    monkeypatch.setattr(tessapi, "_FAILED", set())
    monkeypatch.setattr(ocr, "_READ", {})
    monkeypatch.delenv(tessapi.FORCE_CLI, raising=False)
    return program_runs(monkeypatch)


@needs_tesserocr
def test_the_kept_engine_reads_what_the_program_reads(
        fresh: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same Tesseract in the process and as a program: the same characters, boxes,
    confidences and candidates."""
    image = _picture(ENGLISH)
    kept = ocr._recognise(image, "eng")
    assert fresh == [] and len(tessapi._ENGINES) == 1
    monkeypatch.setenv(tessapi.FORCE_CLI, "1")
    program = ocr._recognise(image, "eng")
    assert fresh == ["Tesseract"]
    assert ocr.chars_text(kept) == "\n".join(ENGLISH)
    assert kept == program


@needs_tesserocr
def test_script_detection_names_the_same_script(
        fresh: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    latin, cyrillic = _picture(ENGLISH), _picture(RUSSIAN)
    kept = [ocr.detect_script(latin), ocr.detect_script(cyrillic)]
    assert fresh == []
    monkeypatch.setenv(tessapi.FORCE_CLI, "1")
    program = [ocr.detect_script(latin), ocr.detect_script(cyrillic)]
    assert fresh == ["Tesseract OSD", "Tesseract OSD"]
    assert kept == program == ["eng", "rus"]


@needs_tesserocr
def test_one_engine_per_pack_and_mode_kept_and_the_oldest_closed(
        fresh: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    image = _picture(ENGLISH[:1])
    ocr._recognise(image, "eng")
    ocr._recognise(image, "eng")
    ocr._recognise(image, "eng", block=True)
    assert [key[2:] for key in tessapi._ENGINES] == [("eng", ocr.PSM_AUTO),
                                                     ("eng", ocr.PSM_BLOCK)]
    monkeypatch.setattr(tessapi, "KEEP", 2)
    ocr._recognise(_picture(RUSSIAN[:1]), "rus")
    assert [key[2:] for key in tessapi._ENGINES] == [("eng", ocr.PSM_BLOCK),
                                                     ("rus", ocr.PSM_AUTO)]
    assert fresh == []


def test_a_pack_the_engine_cannot_load_is_read_by_the_program(
        fresh: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """tesserocr refuses the pack (its RuntimeError): the program reads, the same text, and
    the engine is not tried again for that pack in this process."""
    made: list[str] = []

    def refuse(*, path: str, lang: str, psm: int) -> None:
        made.append(lang)
        raise RuntimeError(f"Failed to init API, possibly an invalid tessdata path: {path}")

    build = f"tesseract {ocr.tesseract_info().version}\n leptonica-1.82.0"
    monkeypatch.setattr(tessapi, "_module", lambda: SimpleNamespace(
        PyTessBaseAPI=refuse, tesseract_version=lambda: build))
    image = _picture(ENGLISH[:1])
    assert ocr.chars_text(ocr._recognise(image, "eng")) == ENGLISH[0]
    assert ocr.detect_script(_picture(ENGLISH)) == "eng"
    ocr._recognise(image, "eng")
    assert made == ["eng", "osd"]
    assert fresh == ["Tesseract", "Tesseract OSD", "Tesseract"]


def test_without_tesserocr_the_program_reads(
        fresh: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tessapi, "_module", lambda: None)
    assert not tessapi.enabled() and tessapi.version() is None
    assert ocr.chars_text(ocr._recognise(_picture(ENGLISH[:1]), "eng")) == ENGLISH[0]
    assert fresh == ["Tesseract"]
    info = ocr.tesseract_info()
    assert ocr.describe(info, "eng", "given", glyphs=True).startswith(f"Tesseract {info.version},")


def test_a_tesserocr_built_on_another_tesseract_gives_way_to_the_program(
        fresh: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another Tesseract version reads some letters otherwise (tesserocr's wheel bundles 5.5,
    which loses an ё Debian's 5.3 keeps): the engine must read as the program does, or not."""
    made: list[str] = []

    def engine(*, path: str, lang: str, psm: int) -> None:
        made.append(lang)

    monkeypatch.setattr(tessapi, "_module", lambda: SimpleNamespace(
        PyTessBaseAPI=engine, tesseract_version=lambda: "tesseract 99.1.0\n leptonica-1.84.1"))
    assert ocr.kept_engine(ocr.tesseract_info()) is None
    assert ocr.chars_text(ocr._recognise(_picture(ENGLISH[:1]), "eng")) == ENGLISH[0]
    assert made == [] and fresh == ["Tesseract"]


def test_the_program_is_used_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TEXTLAYER_TESSERACT_CLI=1``, or a program named by ``TEXTLAYER_TESSERACT``."""
    monkeypatch.setenv(tessapi.FORCE_CLI, "1")
    assert not tessapi.enabled()
    monkeypatch.setenv(tessapi.FORCE_CLI, "0")
    monkeypatch.setenv("TEXTLAYER_TESSERACT", "/opt/tesseract/bin/tesseract")
    assert not tessapi.enabled()


@needs_tesserocr
def test_the_report_names_the_engine_that_reads() -> None:
    info = ocr.tesseract_info()
    assert "(tesserocr)" in ocr.describe(info, "eng", "given", glyphs=True)
    # OCRmyPDF runs the program whatever is installed.
    assert ocr.describe(info, "eng", "given") == f"Tesseract {info.version}, language eng (given)"


def test_the_packs_folder_is_the_programs() -> None:
    folder = ocr.tesseract_info().tessdata
    assert folder is not None and Path(folder, "eng.traineddata").exists()


def test_importing_the_library_does_not_load_tesserocr() -> None:
    code = ("import sys, pytest_textlayer.repairs.ocr, pytest_textlayer.repairs.repairer; "
            "assert 'tesserocr' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
