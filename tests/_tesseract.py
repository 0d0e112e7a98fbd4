"""Tesseract helpers shared by the OCR tests: which packs are installed, and the runs of
the ``tesseract`` program a test causes."""

from __future__ import annotations

import pytest

from pytest_textlayer.repairs import ocr


def packs(*names: str) -> bool:
    """Are these Tesseract packs installed (False without Tesseract at all)?"""
    try:
        return set(names) <= ocr.tesseract_info().languages
    except Exception:  # noqa: BLE001 - no Tesseract at all
        return False


def program_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each run of the ``tesseract`` program was for ("Tesseract", "Tesseract OSD"),
    in order; the runs themselves happen as usual."""
    runs: list[str] = []
    real = ocr._run

    def counted(args: list[str], what: str) -> object:
        runs.append(what)
        return real(args, what)

    monkeypatch.setattr(ocr, "_run", counted)
    return runs


def tesseract_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    """Tesseract's readings, whichever route reads (the kept engine or the program): what
    ran ("Tesseract", "Tesseract OSD"), in which pack ("osd" for script detection), on a
    picture how many pixels high."""
    runs: list[tuple[str, str, int]] = []
    recognise, script = ocr._recognise, ocr._script

    def read(image: object, lang: str, **kwargs: object) -> object:
        runs.append(("Tesseract", lang, image.height))  # type: ignore[attr-defined]
        return recognise(image, lang, **kwargs)  # type: ignore[arg-type]

    def detect(image: object, *args: object) -> object:
        runs.append(("Tesseract OSD", "osd", image.height))  # type: ignore[attr-defined]
        return script(image, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ocr, "_recognise", read)
    monkeypatch.setattr(ocr, "_script", detect)
    monkeypatch.setattr(ocr, "_READ", {})
    return runs
