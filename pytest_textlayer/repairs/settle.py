"""Settling the fonts whose text is too thin to judge alone with the rest of the document.

A heading or a page number has too few letters for the model to condemn
its map or pick an offset, so the document decides: the offset most of its
shifted fonts read under, or a font's own program's reading when the
document's other programs overrule their ToUnicode maps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .choice import Candidate, Judging, choose
from .plan import Plan, shift_base
from .readings import (
    PageRuns,
    compatible,
    han_share,
    junk,
    more_common_han,
    unspaced,
)

#: Share of the glyphs of the fonts repaired by a shift that one offset must hold to be the
#: document's: a producer that shifts one font's ToUnicode shifts them all alike.
DOCUMENT_SHIFT_SHARE = 0.6


def _document_shift(plans: list[Plan], model: Any, lang: str | None) -> int | None:
    """The offset that reads the most glyphs of the document's shifted fonts, when one dominates.

    Each font shifted back by the order source votes, with its glyphs, for
    every offset among those chosen under which its text passes the model,
    not only its own: a CJK font may pass under two offsets and pick the
    wrong one, while the document's other fonts pass under one only.
    """
    from ..lang import langmodel
    from . import ordermaps

    shifted = [p for p in plans if p.shift is not None and p.info is not None]
    offsets = sorted({p.shift for p in shifted if p.shift is not None})
    if not offsets:
        return None
    support: dict[int, tuple[int, float]] = {}
    for offset in offsets:
        glyphs, margins = 0, 0.0
        for plan in shifted:
            info = plan.info
            drawn = {c: t for c in plan.usage.codes() if (t := info.to_unicode(c))}
            moved = ordermaps.offset_map(plan.usage, offset, base=shift_base(plan))
            verdict = langmodel.judge(
                plan.usage.text({**drawn, **moved})[: ordermaps.VERIFY_CHARS], model, lang=lang
            )
            if verdict.passes:
                glyphs += plan.usage.glyphs
                margins += verdict.margin * plan.usage.glyphs
        support[offset] = (glyphs, margins)
    best = max(offsets, key=lambda k: support[k])
    total = sum(p.usage.glyphs for p in shifted)
    return best if support[best][0] >= DOCUMENT_SHIFT_SHARE * total else None


def _programs_overrule(plans: list[Plan]) -> bool:
    """Most glyphs of the fonts with a program reading on condemned pages were overruled by it.

    Then the document's ToUnicode maps are what is broken, and a font with too
    little text to be judged is more likely broken alike than right.
    """
    judged = [p for p in plans if p.program and p.on_bad_page]
    total = sum(p.usage.glyphs for p in judged)
    overruled = sum(p.usage.glyphs for p in judged if p.overruled)
    return bool(overruled) and overruled >= DOCUMENT_SHIFT_SHARE * total


def settle_with_document(plans: list[Plan], model: Any, lang: str | None) -> None:
    """Give the fonts their own text judged too thin to condemn the readings the rest supports.

    A font drawing a heading or a page number has too little text for the
    model to condemn its ToUnicode or pick an offset on its own (or several
    pass), so it stays wrong while the body beside it is repaired. Every font
    with bad codes or on a condemned page is offered a reading by each of
    :data:`PROPOSERS` (its values shifted back by the document's offset,
    :func:`_document_shift`; its program's own map; its codes as text), and
    takes the first one the evidence supports (:func:`.choice.choose`): the
    font's text then reads better, the offset and the program agree on it,
    or the document's other programs overruled their ToUnicode maps
    (:func:`_programs_overrule`) and it reads as well.
    """
    from . import ordermaps, recover

    offset = _document_shift(plans, model, lang)
    overrule = _programs_overrule(plans)
    # A font the model read by its character codes: the producer wrote the text's codes, and
    # its headings' fonts, too short to judge, are offered the same reading.
    by_codes = any("codes" in p.sources for p in plans)
    page_runs = PageRuns(plans)
    for plan in plans:
        if not (plan.on_bad_page or plan.flagged) or plan.info is None:
            continue
        usage = plan.usage
        now = {**plan.drawn(), **plan.mapping}
        program: dict[int, str] = {}
        for found in plan.program:
            program.update({c: t for c, t in found.mapping.items() if c not in program})
        moved = (
            ordermaps.offset_map(usage, offset, base=shift_base(plan)) if offset is not None else {}
        )
        if offset is not None and plan.shift == offset:
            # Shifted by the document's offset, repaired from another source that left codes
            # out: those move back too.
            rest = {c: t for c, t in moved.items() if c not in plan.mapping}
            if rest:
                plan.bad |= set(rest)
                plan.mapping.update(rest)
            continue
        judging = Judging(
            plan, now, program, offset, moved, overrule, by_codes, page_runs, model, lang
        )
        candidates = [
            c for propose in PROPOSERS
            if (c := propose(judging)) is not None
        ]
        chosen = choose(judging, candidates)
        if chosen is None:
            continue
        candidate, evidence = chosen
        source = candidate.source
        plan.bad = set(usage.codes())
        plan.mapping = {c: t for c, t in candidate.mapping.items() if recover.usable_text(t)}
        plan.unverified = set()
        plan.shift = offset if candidate.kind == "offset" else plan.shift
        plan.sources = [source, *(s for s in plan.sources if s != source)]
        plan.details.append(f"{candidate.what}: {evidence.because}")
    if offset is not None:
        _follow_proven_offset(plans, offset)


def _offset_reading(j: Judging) -> Candidate | None:
    """The font's values shifted back by the document's offset.

    An offset that leaves many proper values where they are (moved, they
    would not be text) does not apply to the font; junk values (PUA,
    controls) say nothing.
    """
    from . import ordermaps

    plan, moved, offset = j.plan, j.moved, j.offset
    proper = [c for c, t in shift_base(plan).items() if not junk(t)]
    counts = plan.usage.codes()
    if offset is None or plan.shift == offset or sum(
        counts[c] for c in proper if c in moved
    ) < ordermaps.MIN_ORDER_COVERAGE * sum(counts[c] for c in proper):
        return None
    then = {**plan.drawn(), **moved} if plan.shift is not None else {**j.present, **moved}
    return Candidate(
        "offset",
        "offset",
        then,
        f"ToUnicode values shifted back by {offset:+d}, the offset of the document's"
        " other shifted fonts",
    )


def _program_reading(j: Judging) -> Candidate | None:
    """The font's program's own map, for a font no offset repaired. Where the present text is
    the program's up to compatibility (ffi and ﬃ), it stays."""
    plan, now = j.plan, j.present
    if not j.program or plan.shift is not None:
        return None
    source = plan.program[0].source
    differ = {
        c: t for c, t in j.program.items() if compatible(now.get(c, "")) != compatible(t)
    }
    what = (
        "the glyph names of its encoding" if source == "encoding"
        else f"the embedded program's {source}"
    )
    return Candidate("program", source, {**now, **differ}, what)


def _codes_reading(j: Judging) -> Candidate | None:
    """The font's character codes read as WinAnsi text, when another font of the document
    was read so and the font has no program (a whole reading, not a filling of holes)."""
    from . import ordermaps

    codes = ordermaps.codes_map(j.plan.usage) if j.by_codes and not j.program else {}
    if not codes or "codes" in j.plan.sources:
        return None
    return Candidate(
        "codes",
        "codes",
        {**j.present, **codes},
        "character codes read as WinAnsi characters, as the document's other fonts",
    )


#: The sources that propose a reading of a font, in the order of their rank.
PROPOSERS: tuple[Callable[[Judging], Candidate | None], ...] = (
    _offset_reading,
    _program_reading,
    _codes_reading,
)


#: Fewest letters of the thin CJK fonts, moved back, that the repaired fonts draw too...
MIN_SHARED_LETTERS = 2
#: ...and the share of their letters these must be (then the moved text is the document's).
SHARED_SHARE = 0.5


def _seen(text: str, vocab: set[str]) -> int:
    return sum(ch in vocab for ch in text)


def _follow_proven_offset(plans: list[Plan], offset: int) -> None:
    """Move the unjudged CJK fonts of condemned pages together by an offset programs proved.

    A producer may draw a bold CJK heading through many Type3 fonts of one
    or two glyphs each, with no program: no font alone has text to judge
    (a shifted ideograph is still an ideograph), so each keeps its shifted
    values while the body beside it is repaired. When fonts whose programs
    overruled their maps show the document's offset, those thin fonts are
    judged as one text. Every one of them moves when, moved back, their
    ideographs are common ones where the present ones are not, or are mostly
    characters the repaired fonts draw (a heading says again what the body
    says) where the present ones are not, or when fonts of the same kind
    (no program) drawing as many glyphs were moved back by their own text;
    except a font whose own ideographs would become less common or less
    often drawn by the rest. A correct
    heading beside a shifted body reads as common ideographs already, and as
    the body's characters, and stays.
    """
    from . import ordermaps, recover

    if not any(p.overruled and p.shift == offset for p in plans):
        return
    group: list[tuple[Plan, str, str, dict[int, str]]] = []
    for plan in plans:
        if (not plan.on_bad_page or plan.info is None or plan.mapping or plan.program
                or plan.shift is not None):
            continue
        usage = plan.usage
        base = shift_base(plan)
        moved = ordermaps.offset_map(usage, offset, base=base)
        counts = usage.codes()
        proper = [c for c, t in base.items() if not junk(t)]
        if not proper or sum(counts[c] for c in proper if c in moved) < \
                ordermaps.MIN_ORDER_COVERAGE * sum(counts[c] for c in proper):
            continue
        drawn = plan.drawn()
        now, then = usage.text(drawn), usage.text({**drawn, **moved})
        group.append((plan, now, then, moved))
    # Fonts of the same kind (no program) that their own text moved back by the offset: the
    # producer drew the heading with all of them, and the breaker shifted all of them alike;
    # their text joins the judgement.
    siblings = [
        p for p in plans
        if p.on_bad_page and not p.program and p.shift == offset and "offset" in p.sources
        and p.info is not None
    ]
    drawn_of = {
        id(p): p.drawn() for p in siblings
    }
    now = "\n".join([g[1] for g in group] + [p.usage.text(drawn_of[id(p)]) for p in siblings])
    then = "\n".join(
        [g[2] for g in group] + [p.usage.text({**drawn_of[id(p)], **p.mapping}) for p in siblings]
    )
    if not group or not (unspaced(now) and unspaced(then)) or junk(then) > junk(now):
        return
    # The characters the repaired fonts draw: a heading says again what the body says.
    vocab = {
        ch for p in plans if p.shift == offset and p.mapping
        for ch in "".join(p.mapping.values()) if ch.isalpha()
    }
    seen_now, seen_then = _seen(now, vocab), _seen(then, vocab)
    letters = sum(ch.isalpha() for ch in then)
    shared = (
        seen_then >= MIN_SHARED_LETTERS
        and seen_then >= SHARED_SHARE * letters
        and seen_then > 2 * seen_now
    )
    alike = sum(p.usage.glyphs for p in siblings) >= sum(g[0].usage.glyphs for g in group)
    if not (shared or alike or more_common_han(now, then)):
        return
    for plan, font_now, font_then, moved in group:
        (n_now, s_now), (_, s_then) = han_share(font_now), han_share(font_then)
        if junk(font_then) > junk(font_now) or (n_now and s_then < s_now) or \
                _seen(font_now, vocab) > _seen(font_then, vocab):
            continue
        plan.bad = set(plan.usage.codes())
        plan.mapping = {c: t for c, t in moved.items() if recover.usable_text(t)}
        plan.shift = offset
        plan.sources = ["offset", *plan.sources]
        plan.details.append(
            f"ToUnicode values shifted back by {offset:+d}, the offset the document's programs"
            " show: the page's unjudged CJK fonts read as common ideographs together"
        )
