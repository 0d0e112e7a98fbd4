"""The release a stranger installs: build the wheel, install it in a fresh venv, use it.

The package's dependencies come from the project's environment (a path file
pointing at its site-packages, whose editable install of this source tree is
*not* activated there), so the test runs offline after the build and in well
under two minutes; the package itself comes only from the wheel. It checks
that the wheel carries its data (the reference model), its console script
and its pytest entry point, by running `textlayer check` and a pytester run
against the installed copy, from a folder outside the source tree.

Slow (a wheel build, a venv): set TEXTLAYER_SKIP_WHEEL=1 to skip it locally.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from pytest_textlayer.generators import generate

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(bool(os.environ.get("TEXTLAYER_SKIP_WHEEL")),
                                reason="TEXTLAYER_SKIP_WHEEL is set")


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)  # type: ignore[call-overload, no-any-return]


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy, so the build writes nothing into the checkout
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "pytest_textlayer", src / "pytest_textlayer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    dist = tmp / "dist"
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
                 str(src)])
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = dist.glob("pytest_textlayer-*.whl")
    env_dir = tmp / "venv"
    made = run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)])
    assert made.returncode == 0, made.stderr
    python = env_dir / "bin" / "python"
    site = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site.stdout.strip(), "project-deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    installed = run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                     "--no-deps", "--no-index", str(wheel)])
    assert installed.returncode == 0, installed.stderr[-2000:]
    return env_dir


def test_the_installed_package_is_the_wheel_not_the_source_tree(venv: Path,
                                                                 tmp_path: Path) -> None:
    where = run([str(venv / "bin" / "python"), "-c",
                 "import pytest_textlayer, pytest_textlayer.langmodel as m; "
                 "print(pytest_textlayer.__file__); m.reference_model()"], cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert where.stdout.strip().startswith(str(venv))


def test_installed_console_script_checks_a_pdf(venv: Path, tmp_path: Path) -> None:
    good = generate("readable").write(tmp_path / "good.pdf")
    bad = generate("severed").write(tmp_path / "bad.pdf")
    done = run([str(venv / "bin" / "textlayer"), "check", "--json", "-j", "2", str(good),
                str(bad)], cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    verdicts = [d["pages"][0]["verdict"] for d in json.loads(done.stdout)["documents"]]
    assert verdicts == ["readable", "undecodable"]
    assert done.stderr == ""


def test_installed_plugin_runs_under_pytester(venv: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    generate("readable").write(project / "good.pdf")
    generate("severed").write(project / "bad.pdf")
    (project / "test_gate.py").write_text(textwrap.dedent(f"""
        import shutil

        import pytest_textlayer

        def test_gate(pytester):
            assert pytest_textlayer.__file__.startswith({str(venv)!r})
            shutil.copy({str(project / "good.pdf")!r}, pytester.path / "good.pdf")
            shutil.copy({str(project / "bad.pdf")!r}, pytester.path / "bad.pdf")
            result = pytester.runpytest_subprocess("--textlayer", "good.pdf", "bad.pdf")
            result.assert_outcomes(passed=1, failed=1)
            result.stdout.fnmatch_lines(["*bad.pdf*undecodable*"])
    """))
    done = run([str(venv / "bin" / "python"), "-m", "pytest", "-p", "pytester", "-q",
                "-p", "no:cacheprovider", "--rootdir", str(project), str(project)],
               cwd=project)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout


def test_the_wheel_says_its_licence_and_carries_the_notices(venv: Path) -> None:
    code = ("import importlib.metadata as m; d = m.metadata('pytest-textlayer'); "
            "print(d['License-Expression']); print(sorted(d.get_all('License-File')))")
    done = run([str(venv / "bin" / "python"), "-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "MIT"
    assert "LICENSE-langdetect.txt" in done.stdout and "'LICENSE'" in done.stdout

