"""The plugin's session record: reports gathered from tests, summarised once.

Pure (no pytest import). Reports cross process boundaries under
pytest-xdist as ``to_dict()`` payloads (read back with
``DocumentReport.from_dict``); the terminal summary and the JSON file are
rendered from the same list.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import atomic_path
from ..model import DocumentReport, Verdict, summarise

#: How many failing documents the terminal summary names.
MAX_WORST_SHOWN = 5


@dataclass(frozen=True)
class Checked:
    """One check made during the session: which test made it, and the report."""

    nodeid: str
    report: DocumentReport

    def to_dict(self) -> dict[str, Any]:
        return {**self.report.to_dict(), "test": self.nodeid}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Checked:
        return cls(str(data.get("test", "")), DocumentReport.from_dict(dict(data)))


@dataclass
class SessionRecord:
    """Every check of the session, in one process or gathered from xdist workers."""

    _checks: dict[tuple[str, str], Checked] = field(default_factory=dict)

    def add(self, nodeid: str, report: DocumentReport) -> None:
        """Record a check; the same file checked again by the same test replaces the first."""
        self._checks[(nodeid, report.path)] = Checked(nodeid, report)

    def merge(self, payload: Iterable[Mapping[str, Any]]) -> None:
        for item in payload:
            check = Checked.from_dict(item)
            self._checks[(check.nodeid, check.report.path)] = check

    def payload(self) -> list[dict[str, Any]]:
        return [c.to_dict() for c in self._checks.values()]

    def __len__(self) -> int:
        return len(self._checks)

    def ordered(self) -> list[Checked]:
        """Stable order whatever the order workers finished in."""
        return sorted(self._checks.values(), key=lambda c: (c.report.path, c.nodeid))

    def json_document(self) -> dict[str, Any]:
        """The `{"documents": [...]}` object of the contract, plus the test of each check."""
        return {"documents": [c.to_dict() for c in self.ordered()]}

    def write_json(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.json_document(), indent=2, ensure_ascii=False) + "\n"
        with atomic_path(path) as tmp:  # a full disk leaves no half-written report behind
            tmp.write_text(text, encoding="utf-8")

    def summary_lines(self, *, enforcing: bool) -> list[str]:
        """Pages checked, verdict counts, the worst documents: the terminal summary."""
        checks = self.ordered()
        if not checks:
            return ["no PDF checked"]
        totals = summarise(c.report for c in checks)
        verdicts = totals["verdicts"]
        order = [v.value for v in Verdict]
        counts = ", ".join(f"{verdicts[v]} {v}" for v in order if v in verdicts) or "no pages"
        lines = [
            f"{totals['documents']} PDF(s) checked, {totals['pages']} page(s): {counts}"
            + (f"; {totals['errors']} unreadable file(s)" if totals["errors"] else "")
        ]
        worst = sorted(
            (c for c in checks if not c.report.ok),
            key=lambda c: (c.report.error is None, -len(c.report.bad_pages), c.report.path),
        )
        for check in worst[:MAX_WORST_SHOWN]:
            lines.append(f"  {_worst_line(check.report)}  [{check.nodeid}]")
        if len(worst) > MAX_WORST_SHOWN:
            lines.append(f"  … and {len(worst) - MAX_WORST_SHOWN} more bad PDF(s)")
        if worst and not enforcing:
            lines.append("  not enforced: run with --textlayer to fail these tests")
        return lines


def _worst_line(report: DocumentReport) -> str:
    if report.error is not None:
        return f"{report.path}: unreadable: {report.error}"
    bad = report.bad_pages
    kinds: dict[str, int] = {}
    for page in bad:
        kinds[page.verdict.value] = kinds.get(page.verdict.value, 0) + 1
    what = ", ".join(f"{n} {v}" for v, n in kinds.items())
    return f"{report.path}: {len(bad)} of {len(report.pages)} page(s) bad ({what})"


def reader_versions(*, load: bool = True) -> list[str]:
    """Which readers (and the libraries inside them) the checks use, for the report header.

    With `load=False` nothing new is imported: the library versions are
    shown only for readers already loaded, the package versions otherwise.
    That matters beyond import time: pikepdf is a nanobind extension that
    aborts the process when imported a second time, which is what happens
    when pytester's in-process runs drop it from ``sys.modules`` and the
    next run imports it again.
    """
    import sys
    from importlib import metadata

    out: list[str] = []
    for package, describe in (("pypdfium2", _pdfium_lib), ("pikepdf", _qpdf_lib)):
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            out.append(f"{package} not installed")
            continue
        if load or package in sys.modules:
            try:
                version = f"{version} ({describe()})"
            except Exception as exc:  # a reader that cannot load is worth a line, not a crash
                version = f"{version} (cannot load: {type(exc).__name__})"
        out.append(f"{package} {version}")
    return out


def _pdfium_lib() -> str:
    import pypdfium2

    return f"PDFium {pypdfium2.version.PDFIUM_INFO}"


def _qpdf_lib() -> str:
    import pikepdf

    return f"qpdf {pikepdf.__libqpdf_version__}"
