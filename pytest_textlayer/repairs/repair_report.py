"""What a repair tells: per font and per page what was done, and the verdicts of OUT.

The driver (:mod:`.repairer`) builds it; the command line, the HTML report
and the benchmarks read it without needing the machinery that wrote OUT.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import SAMPLE_CHARS, DocumentReport, Verdict, printable_fields, shorten

#: How many fonts a rendering lists.
MAX_FONTS_SHOWN = 8


@dataclass(frozen=True)
class FontRepair:
    """One font given a new /ToUnicode."""

    name: str
    #: cmap | post | charset | encoding | offset | mac-standard | ocr-glyphs (of most codes)
    source: str
    #: Every source that contributed codes, best first.
    sources: tuple[str, ...]
    glyphs: int
    #: Drawn glyphs that had no usable route before.
    bad_glyphs: int
    #: Of those, glyphs the new map gives text for.
    fixed_glyphs: int
    pages: tuple[int, ...]
    detail: str = ""

    def __post_init__(self) -> None:
        printable_fields(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "sources": list(self.sources),
            "glyphs": self.glyphs,
            "bad_glyphs": self.bad_glyphs,
            "fixed_glyphs": self.fixed_glyphs,
            "pages": list(self.pages),
            "detail": self.detail,
        }


@dataclass(frozen=True)
class PageRepair:
    """What was done to one page, and what it reads as in OUT."""

    number: int
    #: unchanged | tounicode | ocr
    action: str
    sources: tuple[str, ...]
    before: Verdict
    after: Verdict
    ok: bool
    sample_before: str = ""
    sample_after: str = ""
    evidence: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        printable_fields(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "action": self.action,
            "sources": list(self.sources),
            "verdict_before": self.before.value,
            "verdict": self.after.value,
            "ok": self.ok,
            "sample_before": self.sample_before,
            "sample": self.sample_after,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True)
class RepairReport:
    """The story of one repair: per page what was done and the verdict of OUT."""

    input: str
    output: str
    pages: tuple[PageRepair, ...]
    fonts: tuple[FontRepair, ...] = ()
    #: "Tesseract 5.3.0, language fra (from the document's text)" when OCR ran, else None.
    ocr: str | None = None
    ocr_mode: str = "auto"
    written: bool = True
    after: DocumentReport | None = field(default=None, compare=False, repr=False)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        printable_fields(self)

    @property
    def ok(self) -> bool:
        return self.written and all(p.ok for p in self.pages)

    @property
    def bad_pages(self) -> tuple[PageRepair, ...]:
        return tuple(p for p in self.pages if not p.ok)

    def action_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for page in self.pages:
            counts[page.action] = counts.get(page.action, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "input": self.input,
            "output": self.output,
            "ok": self.ok,
            "written": self.written,
            "ocr": self.ocr,
            "ocr_mode": self.ocr_mode,
            "actions": self.action_counts(),
            "fonts": [f.to_dict() for f in self.fonts],
            "pages": [p.to_dict() for p in self.pages],
            "notes": list(self.notes),
        }

    def headline(self) -> str:
        counts = ", ".join(f"{n} {a}" for a, n in sorted(self.action_counts().items()))
        if self.ok:
            return f"Repaired: {self.output} reads on every page ({counts})"
        return (
            f"Repaired only in part: {self.output} has {len(self.bad_pages)} of "
            f"{len(self.pages)} pages still not readable ({counts})"
        )

    def render_lines(self, *, verbose: bool = False) -> list[str]:
        """For people: headline, fonts repaired, pages that changed or still fail."""
        lines = [self.headline()]
        for font in self.fonts[:MAX_FONTS_SHOWN]:
            lines.append(
                f"  font {font.name}: /ToUnicode from {'+'.join(font.sources)}, "
                f"{font.fixed_glyphs} of {font.bad_glyphs} bad glyphs mapped"
                + (f" ({font.detail})" if font.detail else "")
            )
        if len(self.fonts) > MAX_FONTS_SHOWN:
            lines.append(f"  … and {len(self.fonts) - MAX_FONTS_SHOWN} more font(s)")
        if self.ocr:
            lines.append(f"  OCR: {self.ocr}")
        shown = [p for p in self.pages if verbose or p.action != "unchanged" or not p.ok]
        for page in shown[:10]:
            how = page.action + (f" ({'+'.join(page.sources)})" if page.sources else "")
            state = "ok" if page.ok else "NOT OK"
            lines.append(
                f"  page {page.number}: {how}; {page.before.value} → {page.after.value} ({state})"
            )
            if page.action != "unchanged" or not page.ok:
                if page.sample_before:
                    lines.append(f"      before: {shorten(page.sample_before, SAMPLE_CHARS)}")
                if page.sample_after:
                    lines.append(f"      after:  {shorten(page.sample_after, SAMPLE_CHARS)}")
            if not page.ok and page.evidence:
                lines.append(f"      {page.evidence[0]}")
        if len(shown) > 10:
            lines.append(f"  … and {len(shown) - 10} more page(s); use --json for all of them")
        lines.extend(f"  note: {note}" for note in self.notes)
        return lines

    def render(self, *, verbose: bool = False) -> str:
        return "\n".join(self.render_lines(verbose=verbose))


__all__ = ["FontRepair", "PageRepair", "RepairReport"]
