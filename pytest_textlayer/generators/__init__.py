"""The fixture factory: PDFs whose text layer is broken in a known way, with the truth beside them.

>>> fx = generate("severed", "UNITED STATES DISTRICT COURT")
>>> fx.pages[0].verdict, fx.pages[0].extracted   # doctest: +SKIP
(<Verdict.UNDECODABLE: 'undecodable'>, "81,7('\\x0367$7(6\\x03',675,&7\\x03&2857")
>>> fx.write("out/severed.pdf")                   # doctest: +SKIP

Each family is documented in docs/fixtures.md.  Heavy libraries (fontTools,
reportlab, pikepdf, Pillow) are imported only when a fixture is built.

The fixture kit users import: these generators, `breakers` (real PDFs
broken the way the wild breaks them, with their truth) and `fuzz` (hostile
mutations of good PDFs). It may import the core; the core never imports it.
"""

from __future__ import annotations

from .corpus import write_corpus
from .registry import FAMILIES, Family, generate, write_fixture
from .texts import CORPUS_LANGUAGES, DEFAULT_TEXTS, default_text
from .truth import Fixture, PageTruth

__all__ = [
    "CORPUS_LANGUAGES",
    "DEFAULT_TEXTS",
    "FAMILIES",
    "Family",
    "Fixture",
    "PageTruth",
    "default_text",
    "generate",
    "write_corpus",
    "write_fixture",
]
