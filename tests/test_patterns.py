"""A pattern compiled at its first use is compiled once and is then the same object."""

from __future__ import annotations

import re

import pytest

from pytest_textlayer.patterns import on_first_use


def test_the_first_call_compiles_and_later_calls_reuse_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    suspect = on_first_use("[\ue000-\uf8ff\U000f0000-\U0010ffff]", re.IGNORECASE)
    assert compiled == []
    first = suspect()
    assert suspect() is first
    assert compiled == ["[\ue000-\uf8ff\U000f0000-\U0010ffff]"]
    assert first.flags & re.IGNORECASE and first.search("a\ue000b")


def test_bytes_patterns_stay_bytes() -> None:
    match = on_first_use(rb"dup\s+(\d+)")().match(b"dup 12")
    assert match is not None and match.group(1) == b"12"
