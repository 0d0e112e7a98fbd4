"""One frozen set of check settings, shared by the API, the command line and the plugin."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .model import DEFAULT_OK, Verdict

#: Share of a page's glyphs that may be bad before the page takes the bad verdict.
DEFAULT_MAX_BAD_GLYPHS = 0.10


@dataclass(frozen=True)
class CheckSettings:
    """What a check accepts. Built once; narrowed with :meth:`replace`."""

    #: Verdicts that count as OK (blank and readable unless allowed more).
    ok_verdicts: frozenset[Verdict] = DEFAULT_OK
    #: 1-based page numbers to check; None checks every page.
    pages: frozenset[int] | None = None
    #: Share of bad glyphs (0..1) above which a page takes the bad verdict.
    max_bad_glyphs: float = DEFAULT_MAX_BAD_GLYPHS
    #: Pages drawing fewer glyphs than this are not judged by the language model.
    min_glyphs: int = 0
    #: ISO 639 code of the expected language, or None to accept any the model knows.
    lang: str | None = None
    #: A letter-pair model written by `textlayer fit`, or None for the default reference.
    model: Path | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.max_bad_glyphs <= 1.0:
            raise ValueError(f"max_bad_glyphs must be between 0 and 1, not {self.max_bad_glyphs}")
        if self.min_glyphs < 0:
            raise ValueError(f"min_glyphs must not be negative, not {self.min_glyphs}")
        if self.pages is not None and any(p < 1 for p in self.pages):
            raise ValueError("page numbers start at 1")

    def replace(self, **changes: object) -> CheckSettings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def allowing(self, verdicts: Iterable[Verdict | str]) -> CheckSettings:
        """These settings, with more verdicts accepted as OK."""
        extra = {v if isinstance(v, Verdict) else Verdict.parse(v) for v in verdicts}
        return self.replace(ok_verdicts=self.ok_verdicts | extra)

    def is_ok(self, verdict: Verdict) -> bool:
        return verdict in self.ok_verdicts


def parse_pages(spec: str | Iterable[int] | None) -> frozenset[int] | None:
    """`"1-3,7"` or an iterable of ints → a set of 1-based page numbers."""
    if spec is None:
        return None
    if not isinstance(spec, str):
        pages = frozenset(int(p) for p in spec)
    else:
        out: set[int] = set()
        for part in spec.split(","):
            part = part.strip()
            if not part:
                continue
            lo, _, hi = part.partition("-")
            try:
                first, last = int(lo), int(hi or lo)
            except ValueError:
                raise ValueError(f"bad page range {part!r} (use forms like 1-3,7)") from None
            out.update(range(first, last + 1))
        pages = frozenset(out)
    if any(p < 1 for p in pages):
        raise ValueError("page numbers start at 1")
    return pages


class SettingError(ValueError):
    """One setting has a bad value; the message names where it came from and the value."""


def parse_allow(value: str | Verdict | Iterable[str | Verdict], where: str) -> frozenset[Verdict]:
    """`"absent,garbled"`, a list of words, or verdicts → a set of verdicts."""
    items: list[str | Verdict]
    if isinstance(value, (str, Verdict)):
        items = [value]
    else:
        try:
            items = list(value)
        except TypeError:
            raise SettingError(f"{where}: expected verdict names, not {value!r}") from None
    words: list[str | Verdict] = []
    for item in items:
        if isinstance(item, Verdict):
            words.append(item)
        elif isinstance(item, str):
            words.extend(w for w in re.split(r"[,\s]+", item) if w)
        else:
            raise SettingError(f"{where}: expected verdict names, not {item!r}")
    out: set[Verdict] = set()
    for word in words:
        try:
            out.add(word if isinstance(word, Verdict) else Verdict.parse(word))
        except ValueError as exc:
            raise SettingError(f"{where}: {exc}") from None
    return frozenset(out)


def parse_ratio(value: object, where: str) -> float:
    """`0.05`, `"0.05"` or `"5%"` → 0.05; the share must lie in 0..1."""
    text = str(value).strip()
    try:
        ratio = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise SettingError(f"{where}: {value!r} is not a share (use 0.05 or 5%)") from None
    if isinstance(value, bool) or not 0.0 <= ratio <= 1.0:
        raise SettingError(f"{where}: {value!r} is not between 0 and 1 (or 0% and 100%)")
    return ratio
