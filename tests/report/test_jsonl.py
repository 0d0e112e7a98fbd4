"""`textlayer check --jsonl/--resume`: streamed records; interrupted runs resume, nothing redone."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _signals import interruptible

from pytest_textlayer.cli import main
from pytest_textlayer.errors import UsageError
from pytest_textlayer.generators import generate
from pytest_textlayer.model import DocumentReport
from pytest_textlayer.report import jsonl

EXE = Path(sys.executable).with_name("textlayer")
CMD = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "pytest_textlayer"]
FAMILIES = ("readable", "severed", "shifted", "blank", "pua", "image-only")


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("src")
    return [generate(f).write(root / f"{f}.pdf") for f in FAMILIES]


def tree(root: Path, sources: list[Path], files: int) -> list[Path]:
    made = []
    for i in range(files):
        folder = root / f"d{i // 50:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        dst = folder / f"{i:04d}-{sources[i % len(sources)].name}"
        shutil.copyfile(sources[i % len(sources)], dst)
        made.append(dst)
    return made


def read(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_each_line_is_a_document_with_its_file_key(
    tmp_path: Path, sources: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run.jsonl"
    assert main(["check", "-j", "2", "--jsonl", str(out), *map(str, sources)]) == 1
    records = read(out)
    assert sorted(r["path"] for r in records) == sorted(map(str, sources))
    for record in records:
        path = Path(record["path"])
        assert record["file"] == {"path": str(path.resolve()), "size": path.stat().st_size,
                                  "mtime_ns": path.stat().st_mtime_ns}
        assert DocumentReport.from_dict(record).to_dict() == {
            k: v for k, v in record.items() if k != "file"}
    assert "6 document(s)" in capsys.readouterr().out


def test_resume_skips_unchanged_files_and_redoes_changed_ones(
    tmp_path: Path, sources: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    files = tree(tmp_path / "t", sources, 6)
    out = tmp_path / "run.jsonl"
    assert main(["check", "--jsonl", str(out), str(tmp_path / "t")]) == 1
    assert len(read(out)) == 6
    # One file changes (new content, new size): only it is checked again.
    shutil.copyfile(sources[1], files[0])
    capsys.readouterr()
    assert main(["check", "--json", "--resume", str(out), str(tmp_path / "t")]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [d["path"] for d in data["documents"]] == list(map(str, files))
    records = read(out)
    assert [r["path"] for r in records[6:]] == [str(files[0])]
    assert records[6]["pages"][0]["verdict"] == "undecodable"  # the severed fixture now
    # Nothing left to do: no new lines, same summary, same exit status.
    assert main(["check", "--resume", str(out), str(tmp_path / "t")]) == 1
    assert len(read(out)) == 7
    assert "6 document(s)" in capsys.readouterr().out


def test_jsonl_to_stdout_is_nothing_but_json_lines(sources: list[Path]) -> None:
    done = subprocess.run([*CMD, "check", "--jsonl", "-", *map(str, sources[:3])],
                          capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and all(json.loads(line)["path"] for line in lines)
    assert done.stderr.startswith("3 document(s)")


def test_json_and_jsonl_on_stdout_together_is_a_usage_error(
    sources: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--json", "--jsonl", "-", str(sources[0])]) == 2
    assert "choose one" in capsys.readouterr().err


def test_a_cut_last_line_is_dropped_and_redone(tmp_path: Path, sources: list[Path]) -> None:
    out = tmp_path / "run.jsonl"
    assert main(["check", "--jsonl", str(out), *map(str, sources[:2])]) == 1
    whole = out.read_text(encoding="utf-8")
    first_line = whole.splitlines()[0]
    out.write_text(whole.splitlines()[0] + "\n" + whole.splitlines()[1][:40], encoding="utf-8")
    assert len(jsonl.load(out)) == 1
    assert main(["check", "--resume", str(out), *map(str, sources[:2])]) == 1
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and lines[0] == first_line
    assert {json.loads(line)["path"] for line in lines} == set(map(str, sources[:2]))


def test_a_foreign_file_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jsonl"
    bad.write_text('{"hello": 1}\n{"path": "x"}\n', encoding="utf-8")
    with pytest.raises(UsageError, match="line 1 is not a textlayer record"):
        jsonl.load(bad)


def test_runs_merge_by_concatenation(tmp_path: Path, sources: list[Path]) -> None:
    """Two machines' JSON Lines concatenated resume as one run."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    main(["check", "--jsonl", str(a), *map(str, sources[:3])])
    main(["check", "--jsonl", str(b), *map(str, sources[3:])])
    merged = tmp_path / "all.jsonl"
    merged.write_bytes(a.read_bytes() + b.read_bytes())
    assert len(jsonl.load(merged)) == len(sources)
    main(["check", "--resume", str(merged), *map(str, sources)])
    assert len(read(merged)) == len(sources)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_interrupted_tree_run_resumes_without_redoing_finished_files(
    tmp_path: Path, sources: list[Path]
) -> None:
    files = tree(tmp_path / "tree", sources, int(os.environ.get("RESUME_FILES", "2000")))
    out = tmp_path / "run.jsonl"
    cmd = [*CMD, "check", str(tmp_path / "tree"), "-j", "2"]
    first = subprocess.Popen(interruptible([*cmd, "--jsonl", str(out)]), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while (out.exists() and out.read_bytes().count(b"\n")) < len(files) // 2:
        assert first.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 130 and err.strip() == "textlayer: interrupted"
    written = read(out)
    assert len(files) // 2 <= len(written) < len(files)
    second = subprocess.run([*cmd, "--resume", str(out), "--json"], capture_output=True,
                            text=True, timeout=300)
    records = read(out)
    paths = [r["path"] for r in records]
    assert len(paths) == len(set(paths)) == len(files)
    assert records[: len(written)] == written  # the first run's lines are kept as they were
    report = json.loads(second.stdout)["documents"]
    assert [d["path"] for d in report] == sorted(map(str, files))
    assert second.returncode == 1  # the tree holds bad fixtures; resumed ones count too
    assert not [p for p in (tmp_path / "tree").rglob("*") if p.suffix not in (".pdf", "")]
