"""The README's first command runs `textlayer demo`: it must tell the whole story, correctly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pytest_textlayer.demo import DEMO_CASES, run_demo


def test_demo_classifies_and_repairs_every_fixture(tmp_path: Path) -> None:
    out = io.StringIO()
    status = run_demo(tmp_path / "demo", out=out)
    text = out.getvalue()
    assert f"{len(DEMO_CASES)} of {len(DEMO_CASES)} fixtures got the expected verdict" in text
    assert "MISS" not in text
    assert "pdftotext  : \"81,7('" in text  # the severed page really extracts as mojibake
    repaired = sorted(p.name for p in (tmp_path / "demo" / "repaired").glob("*.pdf"))
    assert "severed-mac-standard.pdf" in repaired and "shifted-29.pdf" in repaired
    assert "shifted-29.pdf               shifted     -> readable" in text
    assert status == 0, text


def test_the_next_step_names_a_command_that_runs_from_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`./dev demo` runs textlayer from .venv, which no shell has activated: the hint it ends
    with must run as printed, with PATH as it is (the system's only, here)."""
    import os
    import shlex
    import subprocess

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    out = io.StringIO()
    run_demo(tmp_path / "demo", out=out)
    (line,) = [ln for ln in out.getvalue().splitlines() if ln.startswith("next: ")]
    first = line[len("next: "):].split("   |   ")[0]
    done = subprocess.run(shlex.split(first), capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1, done.stderr  # the demo's broken fixtures fail the check
    assert "fixtures" not in done.stderr and "PDF text layer is not readable" in done.stdout
