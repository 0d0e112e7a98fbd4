"""Calls of a real function recorded as they pass: the function still runs.

A test that asks whether the code took a route (a font released, a pass made
in which process) listens to the function at the end of that route instead of
replacing it: what the test then checks is the real run's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str,
        record: Callable[..., Any] = lambda *args: args) -> list[Any]:
    """`owner.name` made to append ``record(*args)`` to the returned list at each call (a
    method's first argument is its instance), then to run as before."""
    calls: list[Any] = []
    real = getattr(owner, name)

    def listening(*args: Any, **kwargs: Any) -> Any:
        calls.append(record(*args))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, listening)
    return calls
