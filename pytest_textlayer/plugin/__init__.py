"""The pytest plugin: options, marker, fixtures, collected PDFs, summary. Nothing else.

The gate rule: ``--textlayer`` enforces. Without it, marked tests run and
their checks run (and show in the summary), but only an explicit
``assert_text_layer_readable`` fails a test. With it, every check fails its
test: ``textlayer.check``, the check of PDFs a marked test writes under its
``tmp_path``, and PDF files collected from the command line.

Settings resolve marker > command line > ini > default in
:mod:`pytest_textlayer.plugin.options`; the session record and its
renderings live in :mod:`pytest_textlayer.plugin.record`. This module only
adapts them to pytest's hooks. The package is the only one that imports
pytest; it may import the whole core and the fixture kit, and nothing else
in the package imports it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..model import DocumentReport
from ..settings import CheckSettings, SettingError
from .options import (
    MARKER_SIGNATURE,
    CollectScope,
    RawOptions,
    apply_marker,
    apply_overrides,
    describe,
    parse_timeout,
    resolve_base,
)
from .record import SessionRecord, reader_versions

if TYPE_CHECKING:
    from ..generators import Fixture, PageTruth
    from ..run.workers import Guard

#: Where the session's state lives on the config.
STATE = pytest.StashKey["TextLayerState"]()
#: An item's resolved settings (marker over session), computed at setup.
ITEM_SETTINGS = pytest.StashKey[CheckSettings]()
#: PDFs a test already checked or generated, which the after-test sweep skips.
ITEM_SEEN = pytest.StashKey[set[Path]]()
#: What xdist workers send back to the controller.
WORKER_KEY = "textlayer_checks"


@dataclass
class TextLayerState:
    """Per-session state: the gate, the base settings, what to collect, what was checked."""

    enforcing: bool
    base: CheckSettings
    report_path: Path | None
    scope: CollectScope
    record: SessionRecord = field(default_factory=SessionRecord)
    #: Why the JSON report could not be written, shown in the summary.
    report_error: str | None = None
    #: Folder of the HTML report (--textlayer-html), the file written, or why it was not.
    html_dir: Path | None = None
    html_written: Path | None = None
    html_error: str | None = None
    #: Seconds a collected PDF may take (--textlayer-timeout); None: no limit.
    timeout: float | None = None
    #: The worker that checks collected PDFs, started on first need.
    guard: Guard | None = None

    def check_collected(self, path: Path) -> DocumentReport:
        """A collected PDF, checked in a worker process under the command line's limits.

        A hostile or huge file then fails its own item in one line instead of
        hanging or exhausting the whole session (a test's own checks run in
        the test's process, as the test asked).
        """
        from ..run.limits import Limits
        from ..run.workers import Guard

        if self.guard is None:
            limits = Limits(timeout=self.timeout,
                            flags={"timeout": "--textlayer-timeout or textlayer_timeout"})
            # Under xdist every core already runs a session worker: no page helpers then.
            self.guard = Guard(self.base, limits=limits,
                               page_helper="PYTEST_XDIST_WORKER" not in os.environ)
        return self.guard.check((os.fspath(path), self.display(path))).report

    def display(self, path: Path) -> str:
        return self.scope.display(path)


# -- options and configuration ----------------------------------------------------------


def _number_or_text() -> dict[str, Any]:
    """The ini type of a key that takes a number or a text such as '5%'.

    pytest 9.2 types it `float | str`: a TOML number or string under both
    `[tool.pytest.ini_options]` and the native `[tool.pytest]` table, and an
    ini file's text as a number where it reads as one. Older pytest knows
    only one type a key, so the key stays a string there (a TOML number
    under `[tool.pytest]` then needs quotes). Either way the value goes
    through the parser the command line uses.
    """
    if pytest.version_tuple >= (9, 2):
        return {"type": float | str, "default": ""}
    return {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("textlayer", "PDF text layers (pytest-textlayer)")
    group.addoption(
        "--textlayer",
        action="store_true",
        default=False,
        help="enforce: every text-layer check fails its test, and PDF files or "
        "directories given as arguments are collected as test items.",
    )
    group.addoption(
        "--textlayer-allow",
        action="append",
        metavar="VERDICT",
        help="also accept these page verdicts (absent, undecodable, shifted, garbled); "
        "repeat or separate with commas.",
    )
    group.addoption(
        "--textlayer-lang", metavar="CODE", help="expected language (ISO 639, e.g. en, fra)."
    )
    group.addoption(
        "--textlayer-max-bad-glyphs",
        metavar="SHARE",
        help="share of a page's glyphs that may be unmappable (0..1 or N%%; default 0.10).",
    )
    group.addoption(
        "--textlayer-model",
        metavar="FILE",
        help="letter-pair language model written by 'textlayer fit'.",
    )
    group.addoption(
        "--textlayer-timeout",
        metavar="SECONDS",
        help="seconds each collected PDF may take before its item fails "
        "(default 120; 0: no limit).",
    )
    group.addoption(
        "--textlayer-report",
        metavar="FILE.json",
        help="write every check of the session as JSON ({\"documents\": [...]}).",
    )
    group.addoption(
        "--textlayer-html",
        metavar="DIR",
        help="write a static HTML report (DIR/index.html): each bad page drawn with its "
        "glyph boxes, extracted text and fonts.",
    )
    parser.addini("textlayer_allow", "page verdicts accepted besides blank and readable.",
                  type="linelist")
    parser.addini("textlayer_lang", "expected language (ISO 639 code).")
    parser.addini("textlayer_max_bad_glyphs",
                  "share of unmappable glyphs a page may have (0.05 or '5%').",
                  **_number_or_text())
    parser.addini("textlayer_model", "letter-pair model file (relative to the ini file).")
    parser.addini("textlayer_timeout", "seconds each collected PDF may take (0: no limit).",
                  **_number_or_text())
    parser.addini(
        "textlayer_paths",
        "globs of PDFs (relative to rootdir) collected on every --textlayer run.",
        type="linelist",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER_SIGNATURE)
    invocation = Path(config.invocation_params.dir)
    ini_dir = config.inipath.parent if config.inipath else config.rootpath
    cli = RawOptions(
        allow=config.getoption("textlayer_allow"),
        lang=config.getoption("textlayer_lang"),
        max_bad_glyphs=config.getoption("textlayer_max_bad_glyphs"),
        model=config.getoption("textlayer_model"),
    )
    ini = RawOptions(
        allow=_ini_str(config, "textlayer_allow"),
        lang=_ini_str(config, "textlayer_lang"),
        max_bad_glyphs=_ini_str(config, "textlayer_max_bad_glyphs"),
        model=_ini_str(config, "textlayer_model"),
    )
    try:
        base = resolve_base(cli, ini, cli_dir=invocation, ini_dir=ini_dir)
    except SettingError as exc:
        raise pytest.UsageError(str(exc)) from None
    try:
        timeout = parse_timeout(config.getoption("textlayer_timeout"), "--textlayer-timeout",
                                _ini_str(config, "textlayer_timeout"), "textlayer_timeout")
    except SettingError as exc:
        raise pytest.UsageError(str(exc)) from None
    report = config.getoption("textlayer_report")
    html = config.getoption("textlayer_html")
    scope = CollectScope(
        invocation_dir=invocation.resolve(),
        globs=[g.strip() for g in config.getini("textlayer_paths") if g.strip()],
        glob_root=config.rootpath.resolve(),
    )
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        for arg in config.args:
            scope.name_argument(arg)
    enforcing = bool(config.getoption("textlayer"))
    if enforcing:
        # Glob matches become collection arguments (pytest removes overlaps).
        config.args.extend(scope.expand_globs(config.args))
    config.stash[STATE] = TextLayerState(
        enforcing=enforcing,
        base=base,
        report_path=(invocation / report) if report else None,
        scope=scope,
        html_dir=(invocation / html) if html else None,
        timeout=timeout,
    )


def _ini_str(config: pytest.Config, name: str) -> str | None:
    value = config.getini(name)
    if isinstance(value, float) and value.is_integer():  # an ini file's "2" reads as 2.0
        value = int(value)
    text = " ".join(value) if isinstance(value, list) else str(value)
    return text.strip() or None


def pytest_report_header(config: pytest.Config) -> list[str]:
    """The plugin's header lines, only where it gates (--textlayer) or with -v: a run that
    checks no PDF (or --markers, --fixtures) is not told about a plugin it does not use."""
    state = config.stash[STATE]
    if not state.enforcing and config.get_verbosity() < 1:
        return []
    if state.enforcing:
        gate = "textlayer: gate on (--textlayer): every text-layer check fails its test"
    else:
        gate = (
            "textlayer: gate off: checks run and are reported; only "
            "assert_text_layer_readable fails a test (use --textlayer to enforce)"
        )
    return [
        gate,
        f"textlayer: {describe(state.base)}",
        f"textlayer readers: {', '.join(reader_versions(load=state.enforcing))}",
    ]


# -- collected PDF files ----------------------------------------------------------------


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> list[str]:
    """`pytest build/` without --textlayer collects nothing from the PDFs it names: say so,
    rather than leave "no tests ran" to explain itself."""
    state = config.stash.get(STATE, None)
    if state is None or state.enforcing or items:
        return []
    scope = state.scope
    named = [f for f in scope.files if f.suffix.lower() == ".pdf"]
    named += [d for d in scope.dirs if _holds_a_pdf(d)]
    if not named:
        return []
    names = sorted(scope.display(p) for p in named)
    return [f"textlayer: the PDFs under {', '.join(names[:3])} are checked only with "
            f"--textlayer (pytest --textlayer {names[0]})"]


def _holds_a_pdf(directory: Path) -> bool:
    try:
        return next(iter(directory.rglob("*.pdf")), None) is not None
    except OSError:  # a folder that cannot be searched: pytest reports it
        return False


@pytest.hookimpl(tryfirst=True)
def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Walk into a named directory (`build/` is in pytest's norecursedirs) unless --ignore'd.

    Without this, `pytest --textlayer . build/` would collect nothing from
    build/: pytest drops `build/` as overlapping `.`, then refuses to recurse
    into it.
    """
    state = config.stash.get(STATE, None)
    if state is None or not state.enforcing:
        return None
    return False if state.scope.walks_into(collection_path, config.getoption("ignore")) else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    state = parent.config.stash[STATE]
    if state.enforcing and state.scope.should_collect(file_path):
        return TextLayerFile.from_parent(parent, path=file_path)
    return None


class TextLayerFailure(Exception):
    """A collected PDF with bad pages (or unreadable): the message is the report's story."""


class TextLayerFile(pytest.File):
    """A PDF named on the command line (or by `textlayer_paths`): one item, its text layer."""

    def collect(self) -> Iterable[pytest.Item]:
        yield TextLayerItem.from_parent(self, name="textlayer")


class TextLayerItem(pytest.Item):
    """Passes when every page of the PDF is OK under the session's settings."""

    def runtest(self) -> None:
        from ..assertion import announce

        report = self.config.stash[STATE].check_collected(self.path)
        announce(report)
        if not report.ok:
            raise TextLayerFailure("\n".join(report.render_lines()))

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str | Any:
        if isinstance(excinfo.value, TextLayerFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.config.stash[STATE].display(self.path)}: text layer"


# -- marker, recording, after-test sweep ------------------------------------------------


def item_settings(item: pytest.Item) -> CheckSettings:
    """The item's settings: its ``textlayer`` marker over the session's (resolved once)."""
    cached = item.stash.get(ITEM_SETTINGS, None)
    if cached is not None:
        return cached
    base = item.config.stash[STATE].base
    marker = item.get_closest_marker("textlayer")
    if marker is None:
        settings = base
    else:
        settings = apply_marker(base, marker.args, marker.kwargs, item.config.rootpath)
    item.stash[ITEM_SETTINGS] = settings
    return settings


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("textlayer") is None:
        return
    try:
        item_settings(item)
    except SettingError as exc:
        problem = str(exc)
    else:
        return
    pytest.fail(problem, pytrace=False)  # outside the handler: one message, not a chain of two


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Every report made while the item runs (any API) goes into the session record."""
    from ..assertion import listening

    record = item.config.stash[STATE].record

    def remember(report: DocumentReport) -> None:
        record.add(item.nodeid, report)

    with listening(remember):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """After a marked test passes, check the PDFs it wrote under its ``tmp_path``."""
    result = yield
    if item.get_closest_marker("textlayer") is None:
        return result
    funcargs: dict[str, Any] = getattr(item, "funcargs", {})
    tmp = funcargs.get("tmp_path")
    if not isinstance(tmp, Path) or not tmp.is_dir():
        return result
    from ..assertion import check

    state = item.config.stash[STATE]
    seen = item.stash.get(ITEM_SEEN, set())
    failures: list[str] = []
    for pdf in sorted(tmp.rglob("*")):
        if pdf.suffix.lower() != ".pdf" or not pdf.is_file() or pdf.resolve() in seen:
            continue
        report, message = check(pdf, item_settings(item), name=str(pdf))
        if message is not None:
            _note(item, message, state.enforcing)
            failures.append("\n".join(message))
    if failures and state.enforcing:
        pytest.fail("\n\n".join(failures), pytrace=False)
    return result


def _note(item: pytest.Item, message: list[str], enforcing: bool) -> None:
    """Keep an unenforced finding visible in the test's report sections (-rA shows it)."""
    if not enforcing:
        item.add_report_section("call", "textlayer (not enforced)", "\n".join(message))


# -- fixtures ---------------------------------------------------------------------------


class TextLayerChecker:
    """The ``textlayer`` fixture: check PDFs under this test's settings, and record them."""

    def __init__(self, item: pytest.Item) -> None:
        self._item = item
        self.settings: CheckSettings = item_settings(item)
        self.enforcing: bool = item.config.stash[STATE].enforcing
        self.reports: list[DocumentReport] = []

    def _run(
        self, pdf: Any, contains: str | Iterable[str] | None, overrides: dict[str, Any]
    ) -> tuple[DocumentReport, list[str] | None]:
        from ..assertion import check

        try:
            settings = apply_overrides(
                self.settings, overrides, "textlayer.check", self._item.config.rootpath
            )
        except SettingError as exc:
            raise TypeError(str(exc)) from None
        if isinstance(pdf, (str, os.PathLike)):
            self._item.stash.setdefault(ITEM_SEEN, set()).add(Path(pdf).resolve())
        report, message = check(pdf, settings, contains=contains)
        self.reports.append(report)
        return report, message

    def check(
        self, pdf: Any, *, contains: str | Iterable[str] | None = None, **overrides: Any
    ) -> DocumentReport:
        """Check one PDF; with ``--textlayer`` a bad page (or missing text) fails the test."""
        __tracebackhide__ = True
        report, message = self._run(pdf, contains, overrides)
        if message is not None:
            if self.enforcing:
                pytest.fail("\n".join(message), pytrace=False)
            _note(self._item, message, self.enforcing)
        return report

    def assert_readable(
        self, pdf: Any, *, contains: str | Iterable[str] | None = None, **overrides: Any
    ) -> DocumentReport:
        """Like ``check``, but always enforced: an explicit assertion."""
        __tracebackhide__ = True
        report, message = self._run(pdf, contains, overrides)
        if message is not None:
            raise AssertionError("\n".join(message))
        return report


@pytest.fixture
def textlayer(request: pytest.FixtureRequest) -> TextLayerChecker:
    """A per-test checker: ``textlayer.check(pdf)`` returns the report and records it."""
    return TextLayerChecker(request.node)


@dataclass(frozen=True)
class GeneratedPdf:
    """A fixture PDF written into the test's tmp dir, with its ground truth per page."""

    path: Path
    fixture: Fixture

    @property
    def pages(self) -> tuple[PageTruth, ...]:
        return self.fixture.pages


@pytest.fixture
def textlayer_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[..., GeneratedPdf]]:
    """``textlayer_factory(family, text=None, **options)``: a generated PDF and its truth.

    Generated PDFs are deliberately broken, so a marked test's after-test
    sweep leaves them alone.
    """
    seen = request.node.stash.setdefault(ITEM_SEEN, set())

    def make(
        family: str, text: str | None = None, *, name: str | None = None, **options: Any
    ) -> GeneratedPdf:
        from ..generators import generate

        fixture = generate(family, text, **options)
        path = tmp_path / f"{name or family}.pdf"
        fixture.write(path)
        seen.add(path.resolve())
        return GeneratedPdf(path=path, fixture=fixture)

    yield make


# -- summary, JSON and xdist ------------------------------------------------------------


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash[STATE]
    if state.guard is not None:
        state.guard.close()
        state.guard = None
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the checks to the controller
        workeroutput[WORKER_KEY] = state.record.payload()
        return
    if state.report_path is not None:
        try:
            state.record.write_json(state.report_path)
        except OSError as exc:  # the run's own outcome matters more than its report file
            state.report_error = f"{state.report_path}: {exc.strerror or exc}"
            session.exitstatus = pytest.ExitCode.USAGE_ERROR
    if state.html_dir is not None:
        _write_html(state, state.html_dir, session)


def _write_html(state: TextLayerState, directory: Path, session: pytest.Session) -> None:
    """The HTML rendering of the session's checks, naming the tests that made each."""
    import json

    from ..errors import TextLayerError
    from ..report.html_report import write_html

    # One entry per file and outcome, with every test that got it: two tests that checked one
    # file alike share a row, two that judged it differently (other settings) get one each.
    checks: dict[tuple[str, str], tuple[DocumentReport, list[str]]] = {}
    for check in state.record.ordered():
        key = (check.report.path, json.dumps(check.report.to_dict(), sort_keys=True))
        checks.setdefault(key, (check.report, []))[1].append(check.nodeid)
    try:
        state.html_written = write_html(
            [report for report, _ in checks.values()], directory,
            base=state.scope.invocation_dir, tests=[ids for _, ids in checks.values()],
        )
    except TextLayerError as exc:
        state.html_error = str(exc)
        session.exitstatus = pytest.ExitCode.USAGE_ERROR


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist controller: merge the checks a worker made."""
    payload = getattr(node, "workeroutput", {}).get(WORKER_KEY)
    if payload:
        node.config.stash[STATE].record.merge(payload)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if hasattr(config, "workeroutput"):
        return
    state = config.stash[STATE]
    if not len(state.record) and not state.enforcing:
        return
    terminalreporter.write_sep("-", "textlayer")
    for line in state.record.summary_lines(enforcing=state.enforcing):
        terminalreporter.write_line(line)
    if state.report_error is not None:
        terminalreporter.write_line(f"textlayer report NOT written: {state.report_error}", red=True)
    elif state.report_path is not None:
        terminalreporter.write_line(f"textlayer report written to {state.report_path}")
    if state.html_error is not None:
        terminalreporter.write_line(
            f"textlayer HTML report NOT written: {state.html_error}", red=True
        )
    elif state.html_written is not None:
        terminalreporter.write_line(f"textlayer HTML report written to {state.html_written}")
