"""The release a stranger installs: build the sdist and the wheel, install them, use them.

`python -m build` makes the sdist and then the wheel from the sdist (so the
sdist is complete enough to build). Each fresh virtual environment gets the
wheel by `pip install`, with its dependencies resolved by pip as a user's
would be: one with `pytest-textlayer` alone, one with `pytest-textlayer[ocr]`.
In both, from a folder outside the source tree, the gate (`pytest
--textlayer`), `textlayer check` and `textlayer repair --ocr never` run;
without the extra, a repair that needs OCR says in one line what to install
(exit 3); with it, the same repair OCRs the page. The pre-commit hook runs
through the real `pre-commit` tool on a scratch git repository: a commit
that adds a PDF nobody can read is refused.

Slow (a build, two environments, one more for the hook: about a minute with
pip's cache): set TEXTLAYER_SKIP_WHEEL=1 to skip it locally.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import pytest

from pytest_textlayer.generators import generate

ROOT = Path(__file__).resolve().parents[1]
#: What a build needs from the source tree (the rest of the checkout stays out of it).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "MANIFEST.in", "CHANGELOG.md",
           "conftest.py", ".pre-commit-hooks.yaml")
TREES = ("pytest_textlayer", "tests", "docs", "examples", "benchmarks")

pytestmark = [
    pytest.mark.skipif(bool(os.environ.get("TEXTLAYER_SKIP_WHEEL")),
                       reason="TEXTLAYER_SKIP_WHEEL is set"),
    pytest.mark.xdist_group("release"),  # one build and one set of environments per run
]


def run(cmd: list[str | Path], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True,  # type: ignore[call-overload, no-any-return]
                          timeout=600, **kw)


def _copy_source(dest: Path) -> Path:
    """The files a release is built from, copied, so a build writes nothing into the checkout."""
    dest.mkdir()
    for name in SOURCES:
        shutil.copy(ROOT / name, dest / name)
    for name in TREES:
        shutil.copytree(ROOT / name, dest / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.so"))
    return dest


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("dist")
    src = _copy_source(tmp / "src")
    built = run([sys.executable, "-m", "build", "--outdir", tmp / "dist", src])
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    [wheel] = (tmp / "dist").glob("pytest_textlayer-*.whl")
    [sdist] = (tmp / "dist").glob("pytest_textlayer-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist, "src": src}


def _venv(where: Path, requirement: str) -> Path:
    made = run([sys.executable, "-m", "venv", where])
    assert made.returncode == 0, made.stderr
    installed = run([where / "bin" / "python", "-m", "pip", "install", "-q",
                     "--disable-pip-version-check", requirement])
    assert installed.returncode == 0, installed.stderr[-3000:]
    return where


@pytest.fixture(scope="module")
def plain(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(tmp_path_factory.mktemp("plain") / "venv", str(dist["wheel"]))


@pytest.fixture(scope="module")
def with_ocr(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _venv(tmp_path_factory.mktemp("ocr") / "venv", f"{dist['wheel']}[ocr]")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A user's project outside the source tree: a build that wrote a good and a bad PDF."""
    (tmp_path / "build").mkdir()
    generate("readable").write(tmp_path / "build" / "good.pdf")
    generate("severed").write(tmp_path / "build" / "bad.pdf")
    generate("shifted").write(tmp_path / "shifted.pdf")
    generate("image-only").write(tmp_path / "scan.pdf")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return tmp_path


def test_the_sdist_holds_the_tests_docs_and_examples(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("LICENSE", "conftest.py", "README.md", "docs/install.md", "docs/cli.md",
                   "tests/test_wheel.py", "tests/conftest.py", ".pre-commit-hooks.yaml",
                   "examples/invoice_project/pyproject.toml",
                   "pytest_textlayer/lang/data/LICENSE-langdetect.txt"):
        assert needed in names, needed


@pytest.mark.parametrize("env", ["plain", "with_ocr"])
def test_the_installed_wheel_gates_checks_and_repairs(
        env: str, request: pytest.FixtureRequest, project: Path) -> None:
    venv: Path = request.getfixturevalue(env)
    bin_ = venv / "bin"
    where = run([bin_ / "python", "-c",
                 "import pytest_textlayer; print(pytest_textlayer.__file__)"], cwd=project)
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr  # not the checkout

    gate = run([bin_ / "pytest", "--textlayer", "build/", "-p", "no:cacheprovider"], cwd=project)
    assert gate.returncode == 1, gate.stdout[-3000:]
    assert "1 failed, 1 passed" in gate.stdout and "bad.pdf" in gate.stdout

    check = run([bin_ / "textlayer", "check", "build/", "--json", "-j", "0"], cwd=project)
    assert check.returncode == 1, check.stderr
    assert [(Path(d["path"]).name, d["pages"][0]["verdict"])
            for d in json.loads(check.stdout)["documents"]] == [
        ("bad.pdf", "undecodable"), ("good.pdf", "readable")]

    repair = run([bin_ / "textlayer", "repair", "shifted.pdf", "-o", "fixed.pdf",
                  "--ocr", "never"], cwd=project)
    assert repair.returncode == 0, repair.stdout + repair.stderr
    assert run([bin_ / "textlayer", "check", "fixed.pdf", "-q"], cwd=project).returncode == 0


def test_without_the_extra_ocr_is_one_line_naming_the_install(plain: Path,
                                                              project: Path) -> None:
    assert run([plain / "bin" / "python", "-c", "import ocrmypdf"]).returncode == 1
    done = run([plain / "bin" / "textlayer", "repair", "scan.pdf", "-o", "text.pdf",
                "--lang", "en"], cwd=project)
    if shutil.which("tesseract") is None:  # Tesseract is said first when both are missing
        assert done.returncode == 3 and "Tesseract" in done.stderr
        return
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stderr == ("textlayer: error: OCRmyPDF is not available; install it with: "
                           "pip install 'pytest-textlayer[ocr]'\n")
    assert not (project / "text.pdf").exists()


def test_with_the_extra_a_scan_is_ocred(with_ocr: Path, project: Path) -> None:
    if shutil.which("tesseract") is None:
        pytest.fail("Tesseract is needed (./dev installs it)")
    done = run([with_ocr / "bin" / "textlayer", "repair", "scan.pdf", "-o", "text.pdf",
                "--lang", "en", "--json"], cwd=project)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [page] = json.loads(done.stdout)["pages"]
    assert page["action"].startswith("ocr") and page["ok"], page


def test_the_installed_plugin_runs_under_pytester(plain: Path, project: Path) -> None:
    """The pytest11 entry point of the installed wheel: a pytester run inside that venv."""
    (project / "test_gate.py").write_text(textwrap.dedent(f"""
        import shutil

        def test_gate(pytester):
            for name in ("good.pdf", "bad.pdf"):
                shutil.copy({str(project / "build")!r} + "/" + name, pytester.path / name)
            result = pytester.runpytest_subprocess("--textlayer", "good.pdf", "bad.pdf")
            result.assert_outcomes(passed=1, failed=1)
            result.stdout.fnmatch_lines(["*bad.pdf*undecodable*"])
    """))
    done = run([plain / "bin" / "python", "-m", "pytest", "-p", "pytester", "-q",
                "-p", "no:cacheprovider", "test_gate.py"], cwd=project)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout


def test_the_wheel_carries_the_compiled_extensions(plain: Path) -> None:
    """The release is built from the sdist's sources (setup.py, the C files), not the checkout."""
    code = ("from pytest_textlayer.pdf import contentstream, pagetext, _tokenize, _textshow; "
            "print(contentstream._scan is not None, pagetext.show_text is _textshow.show, "
            "_tokenize.__file__, _textshow.__file__)")
    done = run([plain / "bin" / "python", "-c", code], cwd=plain)  # not the checkout's copy
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True True ") and done.stdout.count("/site-packages/") == 2, (
        done.stdout)


def test_the_wheel_says_its_licence_and_carries_the_notices(plain: Path) -> None:
    code = ("import importlib.metadata as m; d = m.metadata('pytest-textlayer'); "
            "print(d['License-Expression']); print(sorted(d.get_all('License-File')))")
    done = run([plain / "bin" / "python", "-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "MIT"
    assert "LICENSE-langdetect.txt" in done.stdout and "'LICENSE'" in done.stdout


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    return run(["git", "-C", repo, *args], env=env)


def test_the_pre_commit_hook_refuses_a_commit_that_adds_an_unreadable_pdf(
        dist: dict[str, Path], tmp_path: Path) -> None:
    """The real pre-commit tool installs the hook from a git repository of this source (as it
    would from a tag of the public one) and runs it on the PDFs a commit stages."""
    pre_commit = Path(sys.executable).with_name("pre-commit")
    assert pre_commit.exists(), "pre-commit is a dev dependency (pip install -e '.[dev]')"
    hooks = tmp_path / "hooks"
    shutil.copytree(dist["src"], hooks, ignore=shutil.ignore_patterns(*TREES[1:]))
    assert _git(hooks, "init", "-q").returncode == 0
    _git(hooks, "add", "-A")
    assert _git(hooks, "commit", "-qm", "release").returncode == 0
    rev = _git(hooks, "rev-parse", "HEAD").stdout.strip()

    install = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    shown = install[install.index("repos:"):].split("```")[0]  # docs/install.md's config
    config = shown.replace("<this repository's URL>", str(hooks)).replace("<a release tag>", rev)
    user = tmp_path / "user"
    user.mkdir()
    _git(user, "init", "-q")
    (user / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    generate("readable").write(user / "good.pdf")
    (user / "notes.txt").write_text("not a PDF: the hook leaves it alone\n", encoding="utf-8")
    _git(user, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    env.pop("VIRTUAL_ENV", None)
    first = run([pre_commit, "run"], cwd=user, env=env)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-2000:]
    assert "PDF text layers are readable" in first.stdout and "Passed" in first.stdout
    _git(user, "commit", "-qm", "a readable PDF")

    generate("severed").write(user / "severed.pdf")
    _git(user, "add", "severed.pdf")
    second = run([pre_commit, "run"], cwd=user, env=env)
    assert second.returncode == 1, second.stdout[-3000:]
    assert "Failed" in second.stdout
    assert "PDF text layer is not readable: severed.pdf" in second.stdout  # which, and why
    assert "1 document(s), 1 page(s): 1 undecodable" in second.stdout  # only the new file
