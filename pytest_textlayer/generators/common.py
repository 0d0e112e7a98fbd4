"""What every family shares: argument checks, text and font preparation, the letter permutation.

Every family function takes the text (None: the default text of ``lang``),
a font file (None: DejaVu Sans, else reportlab's Vera) and its own options,
and returns a Fixture whose verdicts follow the contract's order and 10 %
rule.  The ``extracted`` text is what standard readers map the glyphs to,
control characters included: readers differ in how they show those, so
compare ignoring whitespace and control characters.

A family only says which face draws the text and what the verdict is; the
checks that turn a bad argument into a one-line UsageError live here, so
every family words them the same way.
"""

from __future__ import annotations

import os
import random
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..model import Verdict
from . import compose, faces, fontprep
from .compose import Block
from .fontprep import SourceFont
from .texts import default_text, normalise, split_pages
from .truth import Fixture

FontArg = str | os.PathLike[str] | None


def flag(name: str, value: object) -> bool:
    """A yes/no option; the command line passes words, so 'false' and 'no' mean False."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "false", "no", "off"):
        return value.lower() in ("true", "yes", "on")
    raise UsageError(f"{name} must be true or false, not {value!r}")


def size_option(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 4 <= value <= 72:
        raise UsageError(f"{name} must be a number of points from 4 to 72, not {value!r}")
    return float(value)


def choice(name: str, value: object, choices: Sequence[str]) -> str:
    if value not in choices:
        raise UsageError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


@dataclass(frozen=True)
class Prepared:
    """The common inputs of a family: text cut into pages, font loaded and checked."""

    text: str
    parts: list[str]
    src: SourceFont
    chars: str
    options: dict[str, Any]


def prepare(
    text: str | None, font: FontArg, lang: str, pages: int | None, size: float,
    *, bold: bool = False, **options: Any,
) -> Prepared:
    body = normalise(default_text(lang) if text is None else text)
    parts = split_pages(body, pages)
    size_option("size", size)
    src = fontprep.load_font(font, bold=bold)
    shown = "\n".join(parts)
    src.require(shown)
    recorded = {"lang": lang if text is None else None, "font": src.path.name, "pages": pages,
                "size": size, **options}
    return Prepared(body, parts, src, fontprep.distinct(shown), recorded)


def single(
    family: str, p: Prepared, face: faces.Face, verdict: Verdict, notes: str, size: float
) -> Fixture:
    return compose.text_fixture(
        family, p.options, [[Block(face, part, size)] for part in p.parts], verdict, notes
    )


def permutation(text: str, seed: int) -> dict[str, str]:
    """A seeded derangement of the text's distinct letters, upper and lower case apart."""
    return derangement(fontprep.distinct("".join(ch for ch in text if ch.isalpha())), seed)


def derangement(letters: Iterable[str], seed: int) -> dict[str, str]:
    """A seeded permutation moving every letter, within its Unicode category (case kept apart).

    Shared by the scrambled fixtures and the breakers of real PDFs, so both
    scramble the same way.
    """
    groups: dict[str, list[str]] = {}
    for ch in sorted(set(letters)):
        groups.setdefault(unicodedata.category(ch), []).append(ch)
    mapping: dict[str, str] = {}
    for category in sorted(groups, key=lambda c: (_CATEGORY_ORDER.get(c, 9), c)):
        group = groups[category]
        if len(group) < 2:
            continue
        rng = random.Random(f"{seed}:{category}:{''.join(group)}")
        shuffled = group[:]
        while any(a == b for a, b in zip(group, shuffled, strict=True)):
            rng.shuffle(shuffled)
        mapping.update(zip(group, shuffled, strict=True))
    return mapping


_CATEGORY_ORDER = {c: i for i, c in enumerate(("Lu", "Ll", "Lo", "Lt", "Lm"))}




def readable_face(p: Prepared, salt: object = "readable") -> faces.Face:
    """Type0 Identity-H with a correct ToUnicode: the sound face the controls and OCR layers use."""
    return faces.type0(p.src, p.chars, tounicode=lambda ch: ch, bad=False,
                       description="readable", salt=salt)
