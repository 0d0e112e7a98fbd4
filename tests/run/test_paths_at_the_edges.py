"""Paths at the edges: outputs that are not plain files, folders that cannot be read."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_textlayer.generators import generate

EXE = Path(sys.executable).with_name("textlayer")
CMD = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "pytest_textlayer"]
#: Runs a command without the capabilities that let root read any folder.
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-all"]


def run(*args: str, unprivileged: bool = False) -> subprocess.CompletedProcess[str]:
    prefix = NO_DAC if unprivileged else []
    return subprocess.run([*prefix, *CMD, *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return generate("readable").write(tmp_path / "good.pdf")


def _special_outputs(tmp_path: Path) -> list[Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    outs = [fifo]
    if os.geteuid() == 0:  # a private copy of /dev/null, never the real one
        null = tmp_path / "null"
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        outs.append(null)
    dangling = tmp_path / "dangling.pdf"
    dangling.symlink_to(tmp_path / "nowhere" / "x.pdf")
    loop = tmp_path / "loop.pdf"
    loop.symlink_to(loop)
    return [*outs, dangling, loop]


def test_repair_refuses_outputs_that_are_not_plain_files(tmp_path: Path, good: Path) -> None:
    for out in _special_outputs(tmp_path):
        before = os.lstat(out)
        done = run("repair", str(good), "-o", str(out), "--ocr", "never")
        assert done.returncode == 2, (out, done.stderr)
        assert done.stderr.count("\n") == 1 and str(out) in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
        after = os.lstat(out)
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)


needs_setpriv = pytest.mark.skipif(shutil.which("setpriv") is None or os.geteuid() != 0,
                                   reason="drops root's capabilities with setpriv")


@needs_setpriv
def test_an_unreadable_folder_is_an_error_not_a_silent_pass(tmp_path: Path, good: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "ok").mkdir(parents=True)
    (tree / "locked").mkdir()
    shutil.copy(good, tree / "ok" / "a.pdf")
    shutil.copy(good, tree / "locked" / "b.pdf")
    (tree / "locked").chmod(0)
    try:
        done = run("check", str(tree), unprivileged=True)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "locked: a folder that cannot be read (permission denied)" in done.stderr
        assert "a.pdf" in done.stdout
        alone = run("check", str(tree / "locked"), unprivileged=True)
        assert alone.returncode == 2 and "permission denied" in alone.stderr
        both = run("check", str(tree / "ok" / "a.pdf"), str(tree / "locked" / "b.pdf"),
                   "--json", unprivileged=True)
        assert both.returncode == 2 and '"path"' in both.stdout and "a.pdf" in both.stdout
        assert '"error": "permission denied"' in both.stdout
    finally:
        (tree / "locked").chmod(0o755)


def test_a_folder_linking_to_itself_lists_each_pdf_once(tmp_path: Path, good: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    shutil.copy(good, tree / "a.pdf")
    (tree / "self").symlink_to(".")
    done = run("check", str(tree), "--jsonl", "-")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1


def test_a_file_opened_in_text_mode_is_the_documented_error(good: Path) -> None:
    from pytest_textlayer import classify

    with open(good, encoding="utf-8") as fh:
        report = classify(fh)  # type: ignore[arg-type]
    assert report.error is not None and "open it with 'rb'" in report.error


@pytest.mark.parametrize("textlayer", [[], ["--textlayer"]])
def test_pytest_names_a_path_it_cannot_look_up_as_pytest_does(
        tmp_path: Path, textlayer: list[str]) -> None:
    """A symlink loop given as an argument: pytest's own 'not found' (exit 4), no INTERNALERROR."""
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    done = subprocess.run([sys.executable, "-m", "pytest", "loop", "-p", "no:cacheprovider",
                           *textlayer], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "INTERNALERROR" not in done.stdout + done.stderr


def test_repair_has_the_limits_check_has(good: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    done = run("repair", str(good), "-o", str(out), "--ocr", "never", "--max-pages", "0")
    assert done.returncode == 0, done.stderr  # 0 turns a limit off
    out.unlink()
    two = tmp_path / "two.pdf"
    two.write_bytes(generate("readable", pages=2).pdf)
    done = run("repair", str(two), "-o", str(out), "--ocr", "never", "--max-pages", "1")
    assert done.returncode == 2 and "over the limit of 1 (--max-pages)" in done.stderr
    assert not out.exists()
    assert "default 1800" in run("repair", "--help").stdout


def test_on_a_terminal_the_progress_bar_never_shares_a_line_with_a_result(
        tmp_path: Path) -> None:
    """tqdm draws the bar on a terminal's stderr; it is taken off the screen while each
    result prints, and erased at the end: what stays on screen is the results alone."""
    from _terminal import run_on_a_terminal, screen

    files = [str(generate(family).write(tmp_path / f"{family}.pdf"))
             for family in ("readable", "severed", "blank")]
    status, raw = run_on_a_terminal([*CMD, "check", *files], columns=100)
    assert status == 1
    assert "| 1/3 [" in raw and "file/s" in raw  # the bar was drawn
    shown = [line for line in screen(raw) if line]
    assert not any("file/s" in line or "/3 [" in line for line in shown), shown
    assert [line for line in shown if line.startswith("PDF text layer")] == [
        f"PDF text layer is readable: {files[0]} (1 pages)",
        f"PDF text layer is not readable: {files[1]} (1 of 1 pages bad)",
        f"PDF text layer is readable: {files[2]} (1 pages)"]
    assert shown[-1] == "3 document(s), 3 page(s): 1 blank, 1 readable, 1 undecodable"


def test_the_progress_bar_never_reaches_json_or_a_pipe(tmp_path: Path) -> None:
    from _terminal import run_on_a_terminal

    files = [str(generate(family).write(tmp_path / f"{family}.pdf"))
             for family in ("readable", "blank")]
    # stdout a file, stderr the terminal: the JSON is whole, the bar went to the terminal only
    out = tmp_path / "report.json"
    status, raw = run_on_a_terminal(
        ["sh", "-c", f'exec "$@" > {out}', "sh", *CMD, "check", "--json", *files])
    assert status == 0 and "| 1/2 [" in raw
    import json

    assert [d["path"] for d in json.loads(out.read_text())["documents"]] == files
    piped = run("check", *files)  # no terminal at all: no bar, no escape, nothing on stderr
    assert piped.returncode == 0 and piped.stderr == "" and "\r" not in piped.stdout


def test_a_repair_that_cannot_fix_every_page_writes_a_whole_best_effort_copy(
        tmp_path: Path) -> None:
    """docs/contracts.md: exit 1 still writes OUT, whole, with the pages it could repair."""
    src = generate("mixed", families=("shifted", "image-only")).write(tmp_path / "in.pdf")
    out = tmp_path / "out.pdf"
    done = run("repair", str(src), "-o", str(out), "--ocr", "never", "--json")
    assert done.returncode == 1, done.stderr
    import json

    report = json.loads(done.stdout)
    assert out.exists() and report["written"] is True
    assert [p["ok"] for p in report["pages"]] == [True, False]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json", "in.pdf", "out.pdf"]
