"""Choosing a font's reading: the candidates its sources propose, the evidence, one chooser.

When the document settles a font (:mod:`.settle`), several sources each
propose a whole reading of it (a :class:`Candidate`): the document's offset,
the font's own program, its character codes read as text. Each piece of
evidence (an :class:`Evidence` in :data:`EVIDENCE`) says whether a candidate
may replace the font's present reading, and why. :func:`choose` is the one
place where they meet: a new source is one more proposer in
:data:`.settle.PROPOSERS`, a new piece of evidence one more entry here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .plan import Plan
from .readings import (
    PageRuns,
    confirms,
    program_reads_as_well,
    reads_better,
    reads_better_in_context,
)

#: What proposed a candidate: the document's offset, the font's program, its codes as text.
KINDS = ("offset", "program", "codes")


@dataclass(frozen=True)
class Candidate:
    """One whole reading of a font, as a source proposes it."""

    #: offset | program | codes: which proposer offered it.
    kind: str
    #: The name the repair records: offset, codes, or the program's (cmap, post, encoding...).
    source: str
    #: Each code the font draws -> its text under this reading.
    mapping: dict[int, str]
    #: What the reading is, for the font's detail ("ToUnicode values shifted back by -3...").
    what: str


@dataclass
class Judging:
    """One font and what its candidates are weighed against: its present reading, the
    program's and the document offset's readings, and the document's findings."""

    plan: Plan
    #: Each code the font draws -> its present text (the repair so far included).
    present: dict[int, str]
    #: The font's program's reading ({} without one).
    program: dict[int, str]
    #: The document's offset (None: no offset dominates).
    offset: int | None
    #: The font's values moved back by the document's offset ({} without one).
    moved: dict[int, str]
    #: The document's other programs overrule their ToUnicode maps.
    overrule: bool
    #: Another font of the document was read by its character codes.
    by_codes: bool
    page_runs: PageRuns
    model: Any
    lang: str | None
    #: Each candidate's text, by kind (one candidate of each kind per font).
    _texts: dict[str, str] = field(default_factory=dict, init=False, repr=False)

    def text(self, candidate: Candidate) -> str:
        """The font's text under ``candidate`` (its first pages: the model's verdict on them
        is enough, and fast on a long book)."""
        from . import ordermaps

        if candidate.kind not in self._texts:
            text: str = self.plan.usage.text(candidate.mapping)[: ordermaps.VERIFY_CHARS]
            self._texts[candidate.kind] = text
        return self._texts[candidate.kind]

    @functools.cached_property
    def present_text(self) -> str:
        from . import ordermaps

        text: str = self.plan.usage.text(self.present)[: ordermaps.VERIFY_CHARS]
        return text


@dataclass(frozen=True)
class Evidence:
    """One reason a candidate of the given kinds may replace the font's present reading."""

    #: What the font's detail says when this evidence decides.
    because: str
    kinds: frozenset[str]
    holds: Callable[[Judging, Candidate], bool]


def _program_agrees(j: Judging, c: Candidate) -> bool:
    """The document's offset agrees with the program's independent reading."""
    return bool(j.program) and confirms(j.plan.usage, c.mapping, j.program)


def _order_agrees(j: Judging, c: Candidate) -> bool:
    """The document's offset agrees with the glyph order the font's own text chose (a short
    heading's Mac-standard reading leaves out the accented letters the offset gives back)."""
    plan = j.plan
    return (plan.shift is None and bool(plan.mapping) and not j.program
            and confirms(plan.usage, j.moved, plan.mapping))


def _programs_overrule_too(j: Judging, c: Candidate) -> bool:
    """The document's other programs overrule their ToUnicode maps, this font's was not,
    and its program's reading reads as well."""
    return j.overrule and not j.plan.overruled and program_reads_as_well(
        j.present_text, j.text(c), j.model, j.lang
    )


def _reads_better(j: Judging, c: Candidate) -> bool:
    return reads_better(
        j.present_text, j.text(c), j.model, j.lang, shifted=j.plan.shift is not None
    )


def _reads_better_in_context(j: Judging, c: Candidate) -> bool:
    """A font too thin to judge alone (a fallback font's letters) is judged with the words its
    letters sit in, for the offset the document's fonts proved."""
    return reads_better_in_context(j.page_runs, j.plan, c.mapping, j.model, j.lang)


#: The evidence, strongest first: a candidate's first one that holds is why it is taken.
EVIDENCE: tuple[Evidence, ...] = (
    Evidence("the program agrees", frozenset({"offset"}), _program_agrees),
    Evidence("the glyph order agrees", frozenset({"offset"}), _order_agrees),
    Evidence(
        "the document's other programs overrule their ToUnicode too",
        frozenset({"program"}),
        _programs_overrule_too,
    ),
    Evidence("the text reads better", frozenset(KINDS), _reads_better),
    Evidence("the text around it reads better", frozenset({"offset"}), _reads_better_in_context),
)


def score(judging: Judging, candidate: Candidate) -> Evidence | None:
    """The strongest evidence that holds for ``candidate``, None when none does (a reading
    the same as the present one has none). Evidence is weighed lazily, strongest first."""
    if candidate.mapping == judging.present:
        return None
    for evidence in EVIDENCE:
        if candidate.kind in evidence.kinds and evidence.holds(judging, candidate):
            return evidence
    return None


def choose(
    judging: Judging, candidates: list[Candidate]
) -> tuple[Candidate, Evidence] | None:
    """The reading the font takes, and why: the first candidate, in the order the sources
    propose them, that any evidence supports (None: the font keeps its present reading).

    The order of the proposers is their rank (the document's offset, the
    program, the codes): evidence decides whether a candidate may replace the
    present reading, not which of two supported candidates is better.
    """
    for candidate in candidates:
        evidence = score(judging, candidate)
        if evidence is not None:
            return candidate, evidence
    return None
