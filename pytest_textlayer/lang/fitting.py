"""A letter-pair model fitted on the pages of a user's own trusted documents.

What `textlayer fit` writes and `--textlayer-model` reads back: one
language, counted on pages known to be good, whose threshold is the worst
page's score minus a margin. A fitted model is judged like the built-in
reference (:func:`.langmodel.judge`), with the same symbols.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .langmodel import MIN_PAIRS, LetterPairModel, pair_counts
from .onelanguage import LanguageModel
from .scripts import script_of, unseen_class
from .textsymbols import BOUNDARY

#: Default margin (nats per pair) below the worst training page, as in the reference design.
DEFAULT_MARGIN = 0.5


def fit(pages: Iterable[str], *, margin: float = DEFAULT_MARGIN, lang: str = "fit",
        min_count: int = 2) -> LetterPairModel:
    """Count the letter pairs of trusted pages; threshold = worst page's score − `margin`.

    Letters seen fewer than `min_count` times are counted as their script's
    unseen class, so the model knows how often "some other letter" occurs.
    Pages with fewer than MIN_PAIRS pairs count towards the pairs but not the
    threshold.
    """
    texts = list(pages)
    if not texts:
        raise ValueError("cannot fit a letter-pair model on no pages")
    per_page = [pair_counts(t) for t in texts]
    counts: Counter[str] = Counter()
    for c in per_page:
        counts.update(c)
    if not counts:
        raise ValueError("the training pages contain no letters")
    mass: Counter[str] = Counter()
    for key, n in counts.items():
        if key[0] != BOUNDARY:
            mass[key[0]] += n
    rare = {s for s, n in mass.items() if n < min_count}
    if rare:
        collapsed: Counter[str] = Counter()
        for key, n in counts.items():
            a, b = (unseen_class(script_of(s)) if s in rare else s for s in key)
            collapsed[a + b] += n
        counts = collapsed
    model = LanguageModel(lang=lang, pairs={k: float(v) for k, v in counts.items()},
                          threshold=0.0, name=f"fitted on {len(texts)} page(s)")
    scores = [model.score_counts(c) for c in per_page if sum(c.values()) >= MIN_PAIRS]
    if not scores:
        raise ValueError(f"no training page has {MIN_PAIRS} letter pairs or more")
    model.threshold = min(scores) - margin
    return LetterPairModel({lang: model}, source=f"fit on {len(texts)} page(s)")
