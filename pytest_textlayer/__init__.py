"""pytest-textlayer: know whether a PDF's text layer can be read, prove it in CI, repair it.

Importing this package is cheap and never imports pytest: the public
functions are loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import ExitCode, InputError, MissingDependency, MissingOCR, TextLayerError, UsageError
from .model import DocumentReport, FontReport, FontStatus, PageReport, Verdict
from .settings import CheckSettings

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .assertion import assert_text_layer_readable
    from .judge.classifier import classify
    from .lang.textrepair import repair_text
    from .repairs.repairer import repair

_LAZY = {
    "classify": "judge.classifier",
    "repair": "repairs.repairer",
    "repair_text": "lang.textrepair",
    "assert_text_layer_readable": "assertion",
}

__all__ = [
    "CheckSettings",
    "DocumentReport",
    "ExitCode",
    "FontReport",
    "FontStatus",
    "InputError",
    "MissingDependency",
    "MissingOCR",
    "PageReport",
    "TextLayerError",
    "UsageError",
    "Verdict",
    "assert_text_layer_readable",
    "classify",
    "repair",
    "repair_text",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_textlayer' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)
