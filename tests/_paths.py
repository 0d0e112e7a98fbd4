"""Where the tests find material that lives outside the repository.

The labelled corpus of real third-party PDFs sits beside the checkout
(`../shared/corpus/real`) and is never copied in; `TEXTLAYER_REAL_CORPUS`
points elsewhere. Tests that need it skip when it is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The checkout: docs, examples and scripts the tests read.
ROOT = Path(__file__).resolve().parents[1]
REAL_CORPUS = Path(
    os.environ.get(
        "TEXTLAYER_REAL_CORPUS",
        Path(__file__).resolve().parents[2] / "shared" / "corpus" / "real",
    )
)
#: The unlabelled real PDFs of four other projects' test suites (`../shared/corpus/wild`).
WILD_CORPUS = Path(
    os.environ.get(
        "TEXTLAYER_WILD_CORPUS",
        Path(__file__).resolve().parents[2] / "shared" / "corpus" / "wild",
    )
)
