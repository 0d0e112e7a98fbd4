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
