"""The README's first command runs `textlayer demo`: it must tell the whole story, correctly."""

from __future__ import annotations

import io
from pathlib import Path

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
