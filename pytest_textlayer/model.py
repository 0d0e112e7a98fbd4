"""The report model: one frozen object that every output renders.

The assertion message, the command line, pytest items, the terminal summary
and the JSON file are all views of a :class:`DocumentReport`, so they can
never disagree about a page.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import Any

#: How much of a sample the human renderings show before cutting it.
SAMPLE_CHARS = 80
#: How many bad pages a rendering lists before summarising the rest.
MAX_PAGES_SHOWN = 10
#: How many evidence lines one page shows in a rendering.
MAX_EVIDENCE_SHOWN = 4


#: A UTF-16 surrogate standing alone: a ToUnicode may map a code to one, a code number may be
#: one, and a file name may carry one (undecodable bytes); no UTF-8 output can hold it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD, as PDFium itself prints them.

    Reports are written as UTF-8 (JSON, JSON Lines, HTML, the terminal): one
    such character in one page's sample must not cost the whole run's output.
    """
    return _LONE_SURROGATE.sub("\ufffd", text)


def printable_fields(report: Any) -> None:
    """Make every text field of a frozen report printable (strings and tuples of strings).

    Most fields are ASCII, which holds no surrogate: only the others are searched.
    """
    for name in _field_names(report.__class__):
        value = getattr(report, name)
        if isinstance(value, str):
            if value.isascii():
                continue
            clean: Any = printable(value)
        elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            if all(v.isascii() for v in value):
                continue
            clean = tuple(printable(v) for v in value)
        else:
            continue
        if clean != value:
            object.__setattr__(report, name, clean)


@functools.cache
def _field_names(cls: Any) -> tuple[str, ...]:
    """A report class's fields, looked up once (every page and font report is made clean)."""
    return tuple(f.name for f in fields(cls))


class Verdict(str, enum.Enum):
    """The page verdicts of the contract, in the order they are decided."""

    BLANK = "blank"
    ABSENT = "absent"
    UNDECODABLE = "undecodable"
    SHIFTED = "shifted"
    GARBLED = "garbled"
    READABLE = "readable"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, value: str) -> Verdict:
        """Turn a user's word into a verdict, naming the choices when it is wrong."""
        try:
            return cls(value.strip().lower())
        except ValueError:
            choices = ", ".join(v.value for v in cls)
            raise ValueError(f"unknown verdict {value!r} (choose from {choices})") from None


#: Verdicts a gate accepts unless told otherwise.
DEFAULT_OK: frozenset[Verdict] = frozenset({Verdict.BLANK, Verdict.READABLE})


class FontStatus(str, enum.Enum):
    """Whether a font's glyphs reach the right Unicode, by the taxonomy's routes."""

    #: A route the PDF specification defines works (ToUnicode, named encoding, AGL names, UCS2).
    USABLE = "usable"
    #: No specified route, but the file still holds the answer (an embedded cmap, post names).
    RECOVERABLE = "recoverable"
    #: No route at all: the characters are lost from the file.
    SEVERED = "severed"
    #: A route exists but leads to the wrong characters (PUA, collapsed or scrambled map).
    WRONG = "wrong"

    def __str__(self) -> str:
        return self.value

    @property
    def is_bad(self) -> bool:
        """Standard readers do not get the right text from such a font."""
        return self is not FontStatus.USABLE


@dataclass(frozen=True)
class FontReport:
    """One font as it is used on one page."""

    name: str
    subtype: str
    encoding: str | None
    route: str
    status: FontStatus
    glyphs: int
    unmapped: int = 0
    problem: str | None = None

    def __post_init__(self) -> None:
        printable_fields(self)

    def describe(self) -> str:
        """`font NAME (Type0, Identity-H): problem` — the evidence line for this font."""
        kind = ", ".join(x for x in (self.subtype, self.encoding) if x)
        text = f"font {self.name} ({kind})" if kind else f"font {self.name}"
        return f"{text}: {self.problem}" if self.problem else text

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.subtype,
            "encoding": self.encoding,
            "route": self.route,
            "status": self.status.value,
            "glyphs": self.glyphs,
            "unmapped": self.unmapped,
            "problem": self.problem,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FontReport:
        return cls(
            name=data["name"], subtype=data.get("type", ""), encoding=data.get("encoding"),
            route=data["route"], status=FontStatus(data.get("status", "usable")),
            glyphs=data.get("glyphs", 0), unmapped=data.get("unmapped", 0),
            problem=data.get("problem"),
        )


@dataclass(frozen=True)
class PageReport:
    """The verdict on one page, and the evidence behind it."""

    number: int
    verdict: Verdict
    ok: bool
    evidence: tuple[str, ...] = ()
    glyphs: int = 0
    unmapped_glyphs: int = 0
    fonts: tuple[FontReport, ...] = ()
    sample: str = ""
    score: float | None = None
    offset: int | None = None
    repaired_sample: str | None = None
    #: Which rung decided: presence, fonts, readers, language, shift.
    decided_by: str = ""

    def __post_init__(self) -> None:
        printable_fields(self)

    @property
    def bad_fonts(self) -> tuple[FontReport, ...]:
        return tuple(f for f in self.fonts if f.status.is_bad)

    def to_dict(self) -> dict[str, Any]:
        score = self.score
        if score is not None and score != score or score in (float("inf"), float("-inf")):
            score = None  # JSON has no NaN or infinity
        return {
            "number": self.number,
            "verdict": self.verdict.value,
            "ok": self.ok,
            "glyphs": self.glyphs,
            "unmapped_glyphs": self.unmapped_glyphs,
            "evidence": list(self.evidence),
            "fonts": [f.to_dict() for f in self.fonts],
            "sample": self.sample,
            "score": None if score is None else round(score, 3),
            "offset": self.offset,
            "repaired_sample": self.repaired_sample,
            "decided_by": self.decided_by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageReport:
        """Rebuild a page from its JSON (reports cross process boundaries under xdist)."""
        return cls(
            number=data["number"], verdict=Verdict(data["verdict"]), ok=data["ok"],
            evidence=tuple(data.get("evidence", ())), glyphs=data.get("glyphs", 0),
            unmapped_glyphs=data.get("unmapped_glyphs", 0),
            fonts=tuple(FontReport.from_dict(f) for f in data.get("fonts", ())),
            sample=data.get("sample", ""), score=data.get("score"), offset=data.get("offset"),
            repaired_sample=data.get("repaired_sample"), decided_by=data.get("decided_by", ""),
        )


@dataclass(frozen=True)
class DocumentReport:
    """Every page of one document, or the one-line reason it could not be read."""

    path: str
    pages: tuple[PageReport, ...] = ()
    error: str | None = None
    #: Which readers (and versions) produced the evidence.
    readers: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        printable_fields(self)

    @property
    def ok(self) -> bool:
        return self.error is None and all(p.ok for p in self.pages)

    @property
    def bad_pages(self) -> tuple[PageReport, ...]:
        return tuple(p for p in self.pages if not p.ok)

    def verdict_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for page in self.pages:
            counts[page.verdict.value] = counts.get(page.verdict.value, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "pages": [p.to_dict() for p in self.pages],
            "ok": self.ok,
            "error": self.error,
            "readers": list(self.readers),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocumentReport:
        return cls(
            path=data["path"], pages=tuple(PageReport.from_dict(p) for p in data.get("pages", ())),
            error=data.get("error"), readers=tuple(data.get("readers", ())),
        )

    def headline(self) -> str:
        if self.error is not None:
            return f"PDF could not be read: {self.path}: {self.error}"
        if self.ok:
            return f"PDF text layer is readable: {self.path} ({len(self.pages)} pages)"
        return (
            f"PDF text layer is not readable: {self.path} "
            f"({len(self.bad_pages)} of {len(self.pages)} pages bad)"
        )

    def render_lines(self, *, verbose: bool = False) -> list[str]:
        """The per-page story for people: headline, facts indented, next action."""
        lines = [self.headline()]
        if self.error is not None:
            return lines
        shown = self.pages if verbose else self.bad_pages
        for page in shown[:MAX_PAGES_SHOWN]:
            lines.extend(_render_page(page))
        hidden = len(shown) - MAX_PAGES_SHOWN
        if hidden > 0:
            lines.append(f"  … and {hidden} more page(s); use --json for all of them")
        if not self.ok:
            lines.append(f"  next: {next_action(self)}")
        return lines

    def render(self, *, verbose: bool = False) -> str:
        return "\n".join(self.render_lines(verbose=verbose))


def shorten(text: str, limit: int = SAMPLE_CHARS) -> str:
    """A one-line, bounded repr of extracted text (control characters stay visible)."""
    flat = " | ".join(part for part in text.splitlines() if part.strip()) or text
    cut = flat[:limit] + ("…" if len(flat) > limit else "")
    return repr(cut)


def _render_page(page: PageReport) -> Iterator[str]:
    first, *rest = page.evidence or ("",)
    sep = f" — {first}" if first else ""
    yield f"  page {page.number}: {page.verdict.value}{sep}"
    for line in rest[: MAX_EVIDENCE_SHOWN - 1]:
        yield f"          {line}"
    if page.sample:
        yield f"  page {page.number} extracts as: {shorten(page.sample)}"
    if page.repaired_sample:
        yield f"  page {page.number} reads, repaired: {shorten(page.repaired_sample)}"


#: The name a report gives a PDF read from standard input (`textlayer check -`).
STDIN_NAME = "<stdin>"


def next_action(report: DocumentReport) -> str:
    """The command that most likely fixes what the report found."""
    verdicts = {p.verdict for p in report.bad_pages}
    if report.path == STDIN_NAME:  # read from a pipe: the same bytes go in again the same way
        fix = "textlayer repair - -o fixed.pdf (the same PDF on stdin)"
    else:
        fix = f"textlayer repair {report.path} -o fixed.pdf"
    if verdicts <= {Verdict.ABSENT}:
        return f"{fix} (runs OCR), or produce the PDF with a text layer"
    return f"{fix}, or embed fonts with a ToUnicode CMap"


def summarise(reports: Iterable[DocumentReport]) -> dict[str, Any]:
    """Counts over many documents, for the terminal summary and the command line."""
    counts: dict[str, int] = {}
    docs = pages = errors = bad_docs = 0
    for report in reports:
        docs += 1
        errors += report.error is not None
        bad_docs += not report.ok
        pages += len(report.pages)
        for verdict, n in report.verdict_counts().items():
            counts[verdict] = counts.get(verdict, 0) + n
    return {"documents": docs, "pages": pages, "errors": errors, "bad_documents": bad_docs,
            "verdicts": counts}
