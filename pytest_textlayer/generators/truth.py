"""The ground truth that travels with every generated PDF.

A fixture is only useful if what it *should* classify as, and what real
readers *do* extract from it, sit beside the bytes; both are written as JSON
next to the PDF so tests in other languages and tools can use them too.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..model import Verdict


@dataclass(frozen=True)
class PageTruth:
    """What one generated page shows, and what a correct classifier says about it."""

    #: The text the page shows (lines joined by newlines), as a person reads it.
    text: str
    #: What a correct classifier says (by the contract's verdict order and 10 % rule).
    verdict: Verdict
    #: What a standard reader (``pdftotext -enc UTF-8``) extracts, when predictable.
    extracted: str | None
    notes: str = ""
    #: Glyphs drawn on the page (spaces drawn as glyphs count), when the page has a text layer.
    glyphs: int = 0
    #: Of those, glyphs whose code has no route to the right character.
    bad_glyphs: int = 0

    @property
    def bad_share(self) -> float:
        """Share of the drawn glyphs that are bad (0 when nothing is drawn)."""
        return self.bad_glyphs / self.glyphs if self.glyphs else 0.0

    def to_dict(self, number: int) -> dict[str, Any]:
        return {
            "number": number,
            "text": self.text,
            "verdict": self.verdict.value,
            "extracted": self.extracted,
            "notes": self.notes,
            "glyphs": self.glyphs,
            "bad_glyphs": self.bad_glyphs,
        }


@dataclass(frozen=True)
class Fixture:
    """A generated PDF and its per-page ground truth."""

    family: str
    options: Mapping[str, Any]
    pdf: bytes
    pages: tuple[PageTruth, ...] = field(default=())

    def truth(self) -> dict[str, Any]:
        """The JSON-able ground truth: family, options and one entry per page (1-based)."""
        return {
            "family": self.family,
            "options": _jsonable(dict(self.options)),
            "pages": [p.to_dict(i) for i, p in enumerate(self.pages, 1)],
        }

    def write(self, path: str | os.PathLike[str]) -> Path:
        """Write the PDF to *path* and the truth to ``path.with_suffix('.json')``.

        Each file is written to a temporary name in the same directory and
        renamed into place, so a reader never sees half a fixture.
        """
        target = Path(path)
        if target.suffix.lower() == ".json":
            raise UsageError(f"{target}: the PDF path must not end in .json")
        truth = json.dumps(self.truth(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        atomic_write(target, self.pdf)
        atomic_write(target.with_suffix(".json"), truth.encode("utf-8"))
        return target


def atomic_write(target: Path, data: bytes) -> None:
    """Write *data* to *target* through a temporary file and a rename; UsageError if impossible."""
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise UsageError(f"{target}: cannot write here ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"{target}: cannot write ({exc.strerror or exc})") from None


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
