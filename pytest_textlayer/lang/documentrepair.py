"""Repair of many texts at once, lines or pages, with the reading most of them share.

One font usually spoils many lines or pages the same way. The reading most
repaired texts used (or, for a document, the one found on its bad pages
taken together) is tried on the others, and short corrupted tokens inside
clean texts are read through it too. One text alone: :mod:`.textrepair`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from . import langmodel
from .langmodel import LetterPairModel
from .textrepair import CONTROL, MIN_REPAIR_PAIRS, TextRepair, find_shift, repair_text
from .textshift import mac_standard, shift

#: Letters a token needs before its letter pairs can speak for it.
TOKEN_MIN_LETTERS = 4
#: How much better (nats per pair) a token must read through the document's reading.
TOKEN_GAIN = 1.2


def _dominant(repairs: Iterable[TextRepair]) -> tuple[str, int | None] | None:
    """The reading most repairs used, when it has at least 80 % of them."""
    votes = Counter((r.method or "", r.offset) for r in repairs if r.changed)
    if not votes:
        return None
    (method, offset), n = votes.most_common(1)[0]
    if n < 0.8 * sum(votes.values()):
        return None
    return method, offset


def _token_pass(text: str, dominant: tuple[str, int | None], model: LetterPairModel,
                lang: str | None) -> str:
    """Repair short corrupted tokens inside a clean text with the document's reading.

    Only with the document's reading, never one guessed from the token. A
    token is touched on a strong signal: a control character inside it, or
    letters that read as nothing in the page's language while the reading
    makes them read well (TOKEN_GAIN nats per pair better, above the
    language's threshold). Digits alone are never a signal: numbers in
    prose stay as they are.
    """
    method, offset = dominant
    page = langmodel.judge(text, model, lang=lang, min_pairs=MIN_REPAIR_PAIRS)
    names = (page.lang or "").split("+")
    lm = model.languages.get(names[0]) if names[0] else None

    def read(token: str) -> str | None:
        return mac_standard(token) if method == "mac-standard" else shift(token, offset or 0)

    def fix(match: re.Match[str]) -> str:
        token = match.group()
        if CONTROL.search(token):
            repaired = read(token)
            return token if repaired is None or CONTROL.search(repaired) else repaired
        if lm is None or sum(c.isalpha() for c in token) < TOKEN_MIN_LETTERS:
            return token
        repaired = read(token)
        if repaired is None or sum(c.isalpha() for c in repaired) < len(token.strip(".,;:")):
            return token
        now = lm.score_counts(langmodel.pair_counts(token))
        then = lm.score_counts(langmodel.pair_counts(repaired))
        if now < lm.threshold <= then and then - now >= TOKEN_GAIN:
            return repaired
        return token

    return re.sub(r"\S+", fix, text)


def repair_lines(lines: Sequence[str], *, model: LetterPairModel | None = None,
                 lang: str | None = None) -> list[TextRepair]:
    """Repair each line; a reading most repaired lines share is then tried on the others."""
    model = model or langmodel.reference_model()
    first = [repair_text(line, model=model, lang=lang) for line in lines]
    dominant = _dominant(first)
    if dominant is None:
        return first
    method, offset = dominant
    out: list[TextRepair] = []
    for line, rep in zip(lines, first, strict=True):
        if rep.changed:
            out.append(rep)
            continue
        again = repair_text(line, model=model, lang=lang, offset=offset,
                            method=method or None)
        if again.changed:
            out.append(again)
            continue
        tokens = _token_pass(line, dominant, model, lang)
        if tokens != line:
            out.append(TextRepair(tokens, True, method, offset, 0.5,
                                  f"corrupted tokens read through the document's {method}"))
        else:
            out.append(rep)
    return out


def repair_document(pages: Sequence[str], *, model: LetterPairModel | None = None,
                    lang: str | None = None) -> list[TextRepair]:
    """Repair each page with the document's dominant reading.

    The reading is found on the pages that do not read as language, taken
    together (one font usually spoils many pages the same way); each page is
    then repaired with it when that makes the page read clearly better, and
    clean pages get the token pass for short corrupted tokens.
    """
    model = model or langmodel.reference_model()
    bad = [p for p in pages if langmodel.judge(p, model, lang=lang).passes is False]
    found = find_shift("\n".join(bad), model, lang=lang) if bad else None
    if found is None:
        return [repair_text(p, model=model, lang=lang) for p in pages]
    dominant = (found.method, found.offset)
    out: list[TextRepair] = []
    for page in pages:
        rep = repair_text(page, model=model, lang=lang, offset=found.offset,
                          method=found.method)
        if not rep.changed:
            tokens = _token_pass(page, dominant, model, lang)
            if tokens != page:
                rep = TextRepair(tokens, True, found.method, found.offset, 0.5,
                                 f"corrupted tokens read through {found.describe()}")
        out.append(rep)
    return out
