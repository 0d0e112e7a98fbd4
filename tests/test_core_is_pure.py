"""The core never imports pytest: an installed plugin loads in every pytest run."""

from __future__ import annotations

import subprocess
import sys

CORE_MODULES = [
    "pytest_textlayer",
    "pytest_textlayer.model",
    "pytest_textlayer.settings",
    "pytest_textlayer.classifier",
    "pytest_textlayer.cli",
    "pytest_textlayer.assertion",
    "pytest_textlayer.generators",
    "pytest_textlayer.langmodel",
    "pytest_textlayer.textrepair",
    "pytest_textlayer.repairer",
    "pytest_textlayer.pagescan",
    "pytest_textlayer.letterfreq",
    "pytest_textlayer.workers",
]


def test_core_imports_no_pytest() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'pytest' or m.startswith('_pytest'))\n"
        "assert not bad, bad\n"
    )
    _run_fresh(code)


def test_package_import_is_cheap() -> None:
    """Importing the package loads none of the heavy PDF libraries."""
    code = (
        "import sys, pytest_textlayer\n"
        "heavy = {'pikepdf', 'pypdfium2', 'fontTools', 'reportlab', 'ocrmypdf', 'pypdf'}\n"
        "loaded = sorted(heavy & set(sys.modules))\n"
        "assert not loaded, loaded\n"
    )
    _run_fresh(code)


def test_public_functions_stay_functions_once_their_modules_load() -> None:
    """A submodule named like an exported function would replace it on import."""
    code = (
        "import pytest_textlayer.cli, pytest_textlayer.classifier, pytest_textlayer.repairer\n"
        "import pytest_textlayer.assertion, pytest_textlayer.textrepair\n"
        "import pytest_textlayer as t, types\n"
        "for name in ('classify', 'repair', 'repair_text', 'assert_text_layer_readable'):\n"
        "    assert not isinstance(getattr(t, name), types.ModuleType), name\n"
        "    assert callable(getattr(t, name)), name\n"
    )
    _run_fresh(code)


def _run_fresh(code: str) -> None:
    """Run `code` in a new interpreter: modules this session loaded cannot hide a fault."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
