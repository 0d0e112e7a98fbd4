"""docs/install.md's recipes: the commands they give are the ones run here, and they gate."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_textlayer.generators import generate

ROOT = Path(__file__).resolve().parent.parent
INSTALL = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent


def _commands(prefix: str) -> set[str]:
    """The commands of the recipes that start with `prefix`, as the page gives them."""
    found = set(re.findall(rf"(?:- run: |- |commands = )({re.escape(prefix)}[^\n]*)", INSTALL))
    for call in re.findall(r"session\.run\(([^)]*)\)", INSTALL):  # nox
        words = " ".join(w.strip().strip('"') for w in call.split(","))
        if words.startswith(prefix):
            found.add(words)
    return found


def _project(tmp_path: Path, family: str) -> Path:
    (tmp_path / "build").mkdir()
    generate(family).write(tmp_path / "build" / "out.pdf")
    return tmp_path


@pytest.mark.parametrize("family, status", [("readable", 0), ("severed", 1)])
def test_the_check_recipes_gate_the_build(tmp_path: Path, family: str, status: int) -> None:
    commands = _commands("textlayer check")
    assert commands == {"textlayer check build/ -q -j 0"}  # GitHub Actions and GitLab CI
    project = _project(tmp_path, family)
    for command in commands:
        done = subprocess.run([str(BIN / "textlayer"), *command.split()[1:]], cwd=project,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == status, done.stdout + done.stderr


@pytest.mark.parametrize("family, status", [("readable", 0), ("severed", 1)])
def test_the_pytest_recipes_gate_the_build(tmp_path: Path, family: str, status: int) -> None:
    commands = _commands("pytest --textlayer")
    assert commands == {"pytest --textlayer build/"}  # tox and nox
    project = _project(tmp_path, family)
    (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "--textlayer", "build/",
                           "-p", "no:cacheprovider"], cwd=project, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == status, done.stdout[-2000:]


def test_the_pre_commit_hook_runs_its_entry_on_the_pdfs_a_commit_changes(
        tmp_path: Path) -> None:
    """The hook's entry, with the args the docs show, on the files pre-commit would pass."""
    import yaml

    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "textlayer" and hook["language"] == "python"
    assert re.search(hook["files"], "out.PDF") and not re.search(hook["files"], "out.txt")
    shown = re.search(r"args: \[(.*)\]", INSTALL)
    assert shown is not None
    args = [a.strip().strip('"') for a in shown.group(1).split(",")]
    entry = hook["entry"].split()
    project = _project(tmp_path, "severed")
    generate("readable").write(project / "good.pdf")
    for files, status in ((["good.pdf"], 0), (["good.pdf", "build/out.pdf"], 1)):
        done = subprocess.run([str(BIN / entry[0]), *entry[1:], *args, *files], cwd=project,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == status, done.stdout + done.stderr


def test_the_pre_commit_tool_accepts_the_hook_file(tmp_path: Path) -> None:
    if shutil.which("pre-commit", path=str(BIN)) is None:
        pytest.skip("pre-commit is not installed")
    done = subprocess.run([str(BIN / "pre-commit"), "validate-manifest",
                           str(ROOT / ".pre-commit-hooks.yaml")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
