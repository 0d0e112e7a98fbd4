"""One font's repair in the making: the codes it draws, the map built for them, and why.

A :class:`Plan` is what every step of the repair shares: the font's map
is filled from its own evidence (:mod:`.fontmap`), settled with the rest of
the document (:mod:`.settle`), corrected by glyph OCR and written
(:mod:`.aswritten`). The helpers here read the font's present text, which
the new map keeps or replaces.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def base_letters(text: str) -> str:
    import unicodedata

    return "".join(
        ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)
    ).casefold()


@dataclass
class Plan:
    usage: Any
    info: Any
    bad: set[int]
    mapping: dict[int, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    #: Codes mapped by an order hypothesis beyond ASCII, which OCR may still correct.
    unverified: set[int] = field(default_factory=set)
    #: The font draws on a page the classifier condemned.
    on_bad_page: bool = False
    #: The offset its ToUnicode values were shifted back by, when that is how it was repaired.
    shift: int | None = None
    #: What the embedded program says of the font's codes (used or not), each with its source.
    program: list[Any] = field(default_factory=list)
    #: Some codes had no usable route before the repair (the analyser's own finding).
    flagged: bool = False
    #: Its ToUnicode read as no language and its program's reading replaced it.
    overruled: bool = False
    #: The values its ToUnicode stream itself holds (not the encoding's names), once read.
    written_map: dict[int, str] | None = None

    def written(self, code: int) -> str | None:
        """The value the font's ToUnicode stream gives ``code`` (None: no entry, no stream)."""
        if self.written_map is None:
            import pikepdf

            from ..pdf.cmaps import parse_cmap

            self.written_map = {}
            entry = self.usage.font.get("/ToUnicode")
            if isinstance(entry, pikepdf.Stream):
                with contextlib.suppress(Exception):  # unreadable: nothing written
                    self.written_map = parse_cmap(entry.read_bytes()).unicode
        return self.written_map.get(code)

    def drawn(self) -> dict[int, str]:
        """Each code the font draws -> the text its present route gives ('' when none)."""
        return {c: self.info.to_unicode(c) or "" for c in self.usage.codes()}

    def missing(self) -> set[int]:
        return self.bad - set(self.mapping)

    def correct(self, recovery: Any) -> None:
        """Let OCR's votes replace unverified letters whose base letter it reads differently.

        Only a different base letter counts: OCR in a language without the
        accent drops it (é read as e), which is no evidence against the map.
        A font with codes left unmapped also has its numbered glyph names
        (``/g32``, read as code 32 as poppler does) judged so: beside glyphs
        nothing names, a number is more often the glyph's place than its text.
        """
        from ..pdf.encodings import is_index_name

        numbered = set()
        if self.info is not None and self.bad:
            numbered = {
                c for c, name in self.info.glyph_names.items() if is_index_name(name)
            } - self.bad
        changed = 0
        for code in self.unverified | numbered:
            seen = recovery.mapping.get(code)
            now = self.mapping.get(code)
            if now is None and code in numbered and self.info is not None:
                now = self.info.to_unicode(code)
            if seen and now and base_letters(seen) != base_letters(now):
                self.mapping[code] = seen
                changed += 1
        if changed and recovery.source not in self.sources:
            self.sources.append(recovery.source)

    def add(self, recovery: Any) -> None:
        from .recover import usable_text

        new = {
            c: t
            for c, t in recovery.mapping.items()
            if c in self.bad and c not in self.mapping and usable_text(t)
        }
        if new:
            self.mapping.update(new)
            self.sources.append(recovery.source)
            if recovery.detail:
                self.details.append(recovery.detail)

    def add_order(self, recovery: Any) -> None:
        before = set(self.mapping)
        self.add(recovery)
        if recovery.source == "mac-standard":
            self.unverified |= {
                c for c in set(self.mapping) - before if not " " <= self.mapping[c] <= "~"
            }

    def glyph_counts(self) -> tuple[int, int, int]:
        codes = self.usage.codes()
        total = sum(codes.values())
        bad = sum(n for c, n in codes.items() if c in self.bad)
        fixed = sum(n for c, n in codes.items() if c in self.bad and c in self.mapping)
        return total, bad, fixed


def font_plans(pdf: Any, bad_pages: set[int]) -> list[Plan]:
    """Fonts to repair: any with drawn codes lacking a route, and on bad pages any font at all.

    A font whose route looks fine but draws on a page the classifier found
    bad may carry a scrambled or shifted ToUnicode; :func:`.fontmap.recover_plan` decides
    whether its codes are opened. A font whose route is sound by the
    specification (see :mod:`.soundroute`) is never rewritten for sharing a
    page with a bad one: its map is the truth, and a "repair" could only
    lose the text it gives.
    """
    from ..pdf import fonts
    from ..pdf.soundroute import font_is_sound
    from . import fontusage

    plans: list[Plan] = []
    for usage in fontusage.collect_fonts(pdf).values():
        try:
            info = fonts.analyse_font(usage.font)
        except Exception:  # noqa: BLE001 - a font the analyser cannot read is repaired from scratch
            info = None
        codes = usage.codes()
        bad = set(codes) if info is None else {c for c in codes if info.is_bad_code(c)}
        if not bad and info is not None and font_is_sound(info, codes):
            continue
        if bad or bad_pages & set(usage.pages):
            plans.append(Plan(usage, info, bad, flagged=bool(bad)))
    return plans


def spec_text(plan: Plan) -> dict[int, str]:
    """What the font's own route gives for its good codes, so a new ToUnicode keeps them."""
    from .recover import usable_text

    out: dict[int, str] = {}
    if plan.info is None:
        return out
    for code in plan.usage.codes():
        if code in plan.bad:
            continue
        text = plan.info.to_unicode(code)
        if text is not None and usable_text(text):
            out[code] = text
    return out


def named_codes(plan: Plan) -> dict[int, str]:
    """Codes whose present text is what their glyph name says (a simple font's encoding).

    Such a value is vouched for by the name: a ToUnicode shifted by a
    constant cannot give it, so it is not shifted back (a code the shifted
    ToUnicode left out reads through its name, 'space', and stays a space).
    """
    from .recover import agl

    if plan.info is None:
        return {}
    out: dict[int, str] = {}
    for code, name in plan.info.glyph_names.items():
        text = plan.info.to_unicode(code)
        if text and text == agl(name):
            out[code] = text
    return out


def shift_base(plan: Plan) -> dict[int, str]:
    """The present values of the font's codes that a shift back may move."""
    if plan.info is None:
        return {}
    named = named_codes(plan)
    return {
        c: t
        for c in plan.usage.codes()
        if (t := plan.info.to_unicode(c)) and named.get(c) != t
    }


#: Share of the glyphs whose program text and ToUnicode text must differ by one constant for
#: the font to count as shifted by it.
PROGRAM_SHIFT_SHARE = 0.9


def program_shift(plan: Plan, program: Mapping[int, str]) -> int | None:
    """The constant the font's ToUnicode values sit away from its program's, if there is one."""
    if plan.info is None:
        return None
    counts = plan.usage.codes()
    tally: dict[int, int] = {}
    total = 0
    for code, n in counts.items():
        now, right = plan.info.to_unicode(code), program.get(code)
        if not now or not right or len(now) != len(right):
            continue
        total += n
        steps = {ord(b) - ord(a) for a, b in zip(now, right, strict=True)}
        if len(steps) == 1:
            step = steps.pop()
            tally[step] = tally.get(step, 0) + n
    if not tally or total < 0.5 * sum(counts.values()):
        return None
    step, n = max(tally.items(), key=lambda kv: kv[1])
    return step if step and n >= PROGRAM_SHIFT_SHARE * total else None
