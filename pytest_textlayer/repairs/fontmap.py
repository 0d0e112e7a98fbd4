"""Choosing one font's map from its own evidence, most certain source first.

The embedded program's tables, the font analyser's reading, the font's own
ToUnicode shifted back, an order hypothesis the letter-pair model accepts:
each is taken only as far as the page's verdict allows (a font on a
condemned page may have every code replaced, others only their holes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .plan import Plan, named_codes, program_shift, shift_base, spec_text
from .readings import CONFIRM_SHARE, agreement, junk


def recover_plan(plan: Plan, model: Any, lang: str | None, on_bad_page: bool) -> None:
    """Fill the plan's map from the file's own evidence, most certain source first.

    When the font's present text reads as no language on a page the
    classifier condemned (a scrambled or shifted ToUnicode), every code is
    open to replacement, but only by a map whose text the model accepts.
    Otherwise only the codes without a route are filled.
    """
    from ..lang import langmodel
    from . import ordermaps, programmaps, recover

    usage = plan.usage
    spec = spec_text(plan)
    wrong = False
    if on_bad_page and spec:
        verdict = langmodel.judge(usage.text(spec), model, lang=lang)
        # Undecided on plenty of text (it looks like codes, not words) counts as wrong too.
        wrong = verdict.passes is False or (verdict.passes is None and verdict.pairs >= 20)
    # The font's own account (glyph names, cmap) naming most letters drawn as other letters
    # condemns the map as the classifier does, whatever the model makes of it: a scrambled
    # CJK map still reads as common ideographs.
    contradicted = on_bad_page and bool(spec) and _contradicted(plan)
    if wrong or contradicted:
        plan.bad = set(usage.codes())
    program = programmaps.from_program(usage)
    if program is not None:
        plan.program.append(program)
        if _program_heard(usage, spec, program.mapping, model, lang,
                          wrong=wrong, contradicted=contradicted):
            plan.add(program)
            if wrong or contradicted:
                plan.overruled = True
                plan.shift = program_shift(plan, program.mapping)
    if plan.info is not None and usage.codes():
        # A Type0 font with a ToUnicode has its program read on the first question only.
        plan.info.recover(next(iter(usage.codes())))
    if plan.info is not None and plan.info.recovered:
        # The font analyser reads programs this module does not (CID-keyed CFF through the
        # character collection's tables).
        codes = usage.codes()
        found = {c: t for c, t in plan.info.recovered.items() if c in codes}
        if found:
            how = plan.info.route if plan.info.route in ("cmap", "post", "charset") else "charset"
            analysed = recover.Recovery(
                found,
                how,
                recover.coverage(usage, found),
                usage.glyphs,
                f"embedded {plan.info.program or 'font'} program",
            )
            plan.program.append(analysed)
            if plan.missing() and _program_heard(usage, spec, found, model, lang,
                                                 wrong=wrong, contradicted=contradicted):
                plan.add(analysed)
                if wrong or contradicted:
                    plan.overruled = True
                if (wrong or contradicted) and plan.shift is None:
                    plan.shift = program_shift(plan, found)
    # The file's own map shifted back comes before reading codes as glyph ids: it keeps the
    # case the producer wrote, which a glyph-id offset can only guess (the letter-pair model
    # reads 'layout' and 'LAYOUT' alike, and offset -32 turns one into the other).
    if plan.missing() and (wrong or contradicted) and plan.info is not None:
        shifted = ordermaps.from_order(usage, model, lang, base=shift_base(plan))
        if shifted is not None:
            plan.add(shifted)
            # Codes their glyph names vouch for keep their text (no source of their own).
            plan.mapping.update({c: t for c, t in named_codes(plan).items() if c in plan.missing()})
            plan.shift = shifted.offset
    if plan.missing():
        order = ordermaps.from_order(usage, model, lang)
        if order is not None and (order.source != "codes" or _codes_agree(plan, order.mapping)):
            plan.add_order(order)


def _codes_agree(plan: Plan, codes: Mapping[int, str]) -> bool:
    """The codes-as-text reading agrees with the values the font keeps (those not condemned).

    That reading is a claim about the whole font: filling two holes of a
    heading whose other values it contradicts ('www' kept as its shifted
    'ZZZ') would hide the holes the document's offset repairs.
    """
    if plan.info is None:
        return True
    kept = {c: t for c, t in plan.drawn().items() if t and c not in plan.bad and c in codes}
    if not kept:
        return True
    same, total = agreement(plan.usage.codes(), kept, codes)
    return same >= CONFIRM_SHARE * total


def _program_heard(
    usage: Any, spec: Mapping[int, str], found: Mapping[int, str], model: Any,
    lang: str | None, *, wrong: bool, contradicted: bool,
) -> bool:
    """May the program's reading replace a map the page's verdict condemned?

    A map that reads as no language yields to a program whose text passes.
    A map the program contradicts letter by letter yields also when the
    model cannot tell the two apart (a fallback font drawing one accented
    letter at a time inside another font's words: 'ỹ', 'ể' and 'ườ' fail
    alike), as long as the program's text reads no worse.
    """
    from ..lang import langmodel
    from . import ordermaps

    if not (wrong or contradicted):
        return True
    then = usage.text({**spec, **found})[: ordermaps.VERIFY_CHARS]
    after = langmodel.judge(then, model, lang=lang)
    if after.passes or not contradicted:
        return bool(after.passes)
    if after.passes is None:
        return True
    now = usage.text(dict(spec))[: ordermaps.VERIFY_CHARS]
    before = langmodel.judge(now, model, lang=lang)
    return not before.passes and after.margin >= before.margin and junk(then) <= junk(now)


def _contradicted(plan: Plan) -> bool:
    """The font's own account names most letters it draws as other letters than its map gives
    (the classifier's cross-check, weighed on the codes the font draws)."""
    from ..judge.contradicted import MIN_CONTRADICTED_CODES

    found = plan.info.contradiction if plan.info is not None else None
    if found is None:
        return False
    compared, wrong, distinct = found.weigh(plan.usage.codes())
    return bool(wrong * 2 > compared) and (distinct >= MIN_CONTRADICTED_CODES or wrong == compared)
