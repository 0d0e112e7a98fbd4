"""Regular expressions compiled at their first use, for patterns most runs never need.

A pattern compiled at import is paid for by every run, and one whose class
spans the supplementary planes costs about half a millisecond. Patterns
that only a page our walk cannot decode, or an error message, asks for
wait here until a run needs them; those that read every page stay compiled
at import.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import AnyStr


def on_first_use(pattern: AnyStr, flags: int = 0) -> Callable[[], re.Pattern[AnyStr]]:
    """`re.compile(pattern, flags)` when first called; the same object at every call after."""

    @functools.cache
    def compiled() -> re.Pattern[AnyStr]:
        return re.compile(pattern, flags)

    return compiled


__all__ = ["on_first_use"]
