"""The layers hold: who may import whom, no import cycles, pytest only in the plugin.

docs/architecture.md draws the layers; this test is their definition. Each
part may import the parts listed for it (and itself); every import counts,
including the lazy ones inside functions, except those made only for type
checking. A new module lands in a part by its folder; a new top-level
module must be given a part here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pytest_textlayer"

FOUNDATION = {"errors", "model", "settings", "usercache", "atomic", "patterns"}
CORE = ("foundation", "pdf", "lang", "judge", "repairs", "report", "run")
#: part -> the parts it may import besides itself.
MAY_IMPORT: dict[str, set[str]] = {
    "foundation": set(),
    "pdf": {"foundation"},
    "lang": {"foundation"},
    "judge": {"foundation", "pdf", "lang"},
    "repairs": {"foundation", "pdf", "lang", "judge"},
    "report": {"foundation", "pdf", "lang", "judge", "repairs"},
    "run": {"foundation", "pdf", "lang", "judge", "repairs", "report"},
    # the public API: the package's lazy names and the assertion helper
    "api": {"foundation", "pdf", "lang", "judge", "repairs"},
    # the fixture kit users import; the core never imports it
    "generators": {*CORE, "api"},
    "cli": {*CORE, "api", "generators"},
    "plugin": {*CORE, "api", "generators"},
}
TOP_LEVEL = {
    **dict.fromkeys(FOUNDATION, "foundation"),
    "__init__": "api",
    "assertion": "api",
    "demo": "cli",
    "__main__": "cli",
}


def part_of(module: str) -> str:
    """`pytest_textlayer.pdf.fonts` -> `pdf`; a top-level module -> its entry in TOP_LEVEL."""
    parts = module.split(".")[1:]
    if not parts:
        return "api"
    if (PACKAGE / parts[0]).is_dir():
        return parts[0]
    return TOP_LEVEL[parts[0]]


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules (and `pytest`) that `module` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            submodules = [f"{target}.{alias.name}" for alias in node.names]
            # `from ..lang import langmodel` imports the module, not the package's names
            names = submodules if all(m in known for m in submodules) else [target, *submodules]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top in ("pytest", "_pytest", "pluggy"):
                found.add("pytest")
            elif name in known and name != module:
                found.add(name)
    return found


MODULES = _modules()
GRAPH = {name: imports_of(name, path, set(MODULES)) for name, path in MODULES.items()}


def test_every_import_follows_the_layers() -> None:
    wrong = sorted(
        f"{module} ({part_of(module)}) imports {target} ({part_of(target)})"
        for module, targets in GRAPH.items()
        for target in targets - {"pytest"}
        if part_of(target) != part_of(module)
        and part_of(target) not in MAY_IMPORT[part_of(module)]
        # a package's __init__ is its own part's
        and not module.startswith(target + ".")
    )
    assert not wrong, "\n".join(wrong)


def test_only_the_plugin_imports_pytest() -> None:
    importers = sorted(m for m, targets in GRAPH.items() if "pytest" in targets)
    assert importers and all(part_of(m) == "plugin" for m in importers), importers


def test_no_import_cycles() -> None:
    """Modules that import each other, even lazily, are one concern in two files."""
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in sorted(GRAPH[module] - {"pytest"}):
            if module.startswith(target + "."):
                continue  # a module importing its own package's __init__
            if state.get(target) == 1:
                cycles.append(" -> ".join([*stack[stack.index(target):], target]))
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)
    assert not cycles, "\n".join(cycles)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_has_a_part(module: str) -> None:
    assert part_of(module) in MAY_IMPORT


CORE_MODULES = [
    "pytest_textlayer",
    "pytest_textlayer.model",
    "pytest_textlayer.settings",
    "pytest_textlayer.judge.classifier",
    "pytest_textlayer.cli",
    "pytest_textlayer.assertion",
    "pytest_textlayer.generators",
    "pytest_textlayer.lang.langmodel",
    "pytest_textlayer.lang.textrepair",
    "pytest_textlayer.repairs.repairer",
    "pytest_textlayer.pdf.pagescan",
    "pytest_textlayer.judge.letterfreq",
    "pytest_textlayer.run.workers",
]


def test_core_imports_no_pytest() -> None:
    """An installed plugin loads in every pytest run: the core must not pull pytest in."""
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'pytest' or m.startswith('_pytest'))\n"
        "assert not bad, bad\n"
    )
    _run_fresh(code)


def test_package_import_is_cheap() -> None:
    """Importing the package loads none of the heavy PDF libraries."""
    code = (
        "import sys, pytest_textlayer\n"
        "heavy = {'pikepdf', 'pypdfium2', 'fontTools', 'reportlab', 'ocrmypdf', 'pypdf'}\n"
        "loaded = sorted(heavy & set(sys.modules))\n"
        "assert not loaded, loaded\n"
    )
    _run_fresh(code)


def test_public_functions_stay_functions_once_their_modules_load() -> None:
    """A submodule named like an exported function would replace it on import."""
    code = (
        "import pytest_textlayer.cli, pytest_textlayer.judge.classifier\n"
        "import pytest_textlayer.repairs.repairer, pytest_textlayer.assertion\n"
        "import pytest_textlayer.lang.textrepair\n"
        "import pytest_textlayer as t, types\n"
        "for name in ('classify', 'repair', 'repair_text', 'assert_text_layer_readable'):\n"
        "    assert not isinstance(getattr(t, name), types.ModuleType), name\n"
        "    assert callable(getattr(t, name)), name\n"
    )
    _run_fresh(code)


def _run_fresh(code: str) -> None:
    """Run `code` in a new interpreter: modules this session loaded cannot hide a fault."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
