"""A full disk loses nothing and leaves nothing half-written behind.

The disk is a small tmpfs mounted for the test (root with the capability to
mount, as on the development and CI machines; skipped with the reason where
mounting is refused), filled to within a few kilobytes: the HTML report,
the pytest JSON report and the JSON Lines log must each fail in one line
naming the file, leave no temporary file, and a ``--resume`` after space is
freed must finish the run with every line whole.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_textlayer.errors import UsageError
from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.plugin.record import SessionRecord
from pytest_textlayer.report.html_report import write_html


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs with 4 KiB left free."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip() or done.returncode}")
    try:
        (mount / "filler").write_bytes(b"\0" * 60 * 1024)
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough documents that their JSON Lines records overflow 4 KiB."""
    root = tmp_path_factory.mktemp("pdfs")
    for i, family in enumerate(("readable", "severed", "pua", "shifted", "scrambled") * 3):
        (root / f"{i:02d}-{family}.pdf").write_bytes(generate(family).pdf)
    return root


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name != "filler" and p.is_file()
                  and (p.name.endswith((".tmp", ".part")) or p.name.startswith(".")))


def _textlayer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_textlayer", *args],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "TEXTLAYER_PAGE_HELPER": "0"})


def test_the_html_report_on_a_full_disk_fails_in_one_line_and_leaves_nothing(
        full_disk: Path, pdfs: Path) -> None:
    done = _textlayer("check", str(pdfs), "-q", "--html", str(full_disk / "html"))
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "html" in line and "No space left on device" in line
    assert _leftovers(full_disk) == []


def test_the_pytest_report_on_a_full_disk_leaves_nothing(full_disk: Path, pdfs: Path) -> None:
    record = SessionRecord()
    for path in sorted(pdfs.iterdir()):
        record.add(f"t.py::test_{path.stem}", classify(path))
    with pytest.raises(OSError):
        record.write_json(full_disk / "report.json")
    assert not (full_disk / "report.json").exists()
    assert _leftovers(full_disk) == []


def test_the_library_html_report_on_a_full_disk_is_a_usage_error(
        full_disk: Path, pdfs: Path) -> None:
    reports = [classify(path) for path in sorted(pdfs.iterdir())]
    with pytest.raises(UsageError, match="No space left on device"):
        write_html(reports, full_disk / "html", max_pages=0)
    assert _leftovers(full_disk) == []


def test_jsonl_on_a_full_disk_names_the_file_and_resume_finishes_the_run(
        full_disk: Path, pdfs: Path) -> None:
    log = full_disk / "run.jsonl"
    done = _textlayer("check", str(pdfs), "-q", "--jsonl", str(log))
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert str(log) in line and "No space left on device" in line
    (full_disk / "filler").unlink()
    done = _textlayer("check", str(pdfs), "-q", "--resume", str(log))
    assert done.returncode == 1, done.stderr  # the broken fixtures fail the gate
    records = [json.loads(text) for text in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(Path(r["path"]).name for r in records) == sorted(p.name for p in pdfs.iterdir())
