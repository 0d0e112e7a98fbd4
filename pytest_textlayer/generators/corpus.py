"""Write every family in every language into one directory with one truth file.

The corpus is what the classifier and the repairer are measured on before
they meet real documents: each file's truth says the verdict per page and
what standard readers extract, so a scorer needs nothing but this folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .registry import FAMILIES, generate
from .texts import CORPUS_LANGUAGES, default_text
from .truth import atomic_write

#: Families whose pages do not depend on the language (written once).
LANGUAGE_FREE = frozenset({"blank"})


def corpus_entries(languages: Iterable[str]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(file stem, family, language, options) for every family variant and language."""
    out = []
    for family in FAMILIES.values():
        for variant in family.variants:
            stem = "-".join([family.name, *(str(v) for v in variant.values())])
            if family.name in LANGUAGE_FREE:
                out.append((stem, family.name, "", dict(variant)))
                continue
            for lang in languages:
                out.append((f"{stem}-{lang}", family.name, lang, dict(variant)))
    return out


def write_corpus(
    directory: str | os.PathLike[str], languages: Iterable[str] = CORPUS_LANGUAGES
) -> Path:
    """Write ``FAMILY[-VARIANT]-LANG.pdf`` for every family x language, and ``truth.json``.

    Combinations a producer cannot write (reportlab's base-14 fonts have no
    Cyrillic, Greek or Polish letters) are listed under ``skipped`` with the
    reason.  Returns the path of ``truth.json``.
    """
    langs = tuple(languages)
    if not langs:
        raise UsageError("write_corpus needs at least one language")
    for lang in langs:
        default_text(lang)
    target = Path(directory)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{target}: cannot create the corpus folder ({exc.strerror})") from None
    files: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    for stem, family, lang, options in corpus_entries(langs):
        name = f"{stem}.pdf"
        try:
            fixture = generate(family, lang=lang or "en", **options)
        except UsageError as exc:
            skipped[name] = str(exc)
            continue
        atomic_write(target / name, fixture.pdf)
        files[name] = {**fixture.truth(), "language": lang or None}
    truth = {
        "generator": "pytest-textlayer",
        "version": 1,
        "languages": list(langs),
        "families": {name: f.description for name, f in FAMILIES.items()},
        "files": files,
        "skipped": skipped,
    }
    path = target / "truth.json"
    text = json.dumps(truth, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    atomic_write(path, text.encode("utf-8"))
    return path
