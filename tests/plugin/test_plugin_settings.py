"""Precedence and validation of the plugin's settings, as pure functions (no pytest run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_textlayer.model import DEFAULT_OK, Verdict
from pytest_textlayer.plugin.options import (
    MARKER_KEYWORDS,
    RawOptions,
    apply_marker,
    parse_timeout,
    resolve_base,
)
from pytest_textlayer.settings import (
    DEFAULT_MAX_BAD_GLYPHS,
    CheckSettings,
    SettingError,
    parse_allow,
    parse_ratio,
)

NONE = RawOptions()


def test_defaults_when_nothing_is_given() -> None:
    assert resolve_base(NONE, NONE) == CheckSettings()


@pytest.mark.parametrize(
    ("ini", "cli", "expected"),
    [
        (None, None, DEFAULT_MAX_BAD_GLYPHS),
        ("0.2", None, 0.2),
        (None, "0.3", 0.3),
        ("0.2", "0.3", 0.3),
        ("0", "5%", 0.05),
    ],
    ids=["default", "ini", "cli", "cli-over-ini", "percent"],
)
def test_max_bad_glyphs_precedence(ini: str | None, cli: str | None, expected: float) -> None:
    settings = resolve_base(RawOptions(max_bad_glyphs=cli), RawOptions(max_bad_glyphs=ini))
    assert settings.max_bad_glyphs == pytest.approx(expected)


@pytest.mark.parametrize("source", ["ini", "cli", "marker"])
def test_every_level_overrides_the_one_below(source: str) -> None:
    ini = RawOptions(allow="absent", lang="fr", max_bad_glyphs="0.2")
    cli = RawOptions(allow="shifted", lang="de", max_bad_glyphs="0.3")
    base = resolve_base(cli if source != "ini" else NONE, ini)
    if source == "marker":
        base = apply_marker(base, (), {"allow": ["garbled"], "lang": "pl", "max_bad_glyphs": 0})
    expected = {
        "ini": ({Verdict.ABSENT}, "fr", 0.2),
        "cli": ({Verdict.SHIFTED}, "de", 0.3),
        "marker": ({Verdict.GARBLED}, "pl", 0.0),
    }[source]
    assert base.ok_verdicts == DEFAULT_OK | expected[0]
    assert base.lang == expected[1]
    assert base.max_bad_glyphs == pytest.approx(expected[2])


def test_marker_keeps_what_it_does_not_name() -> None:
    base = resolve_base(RawOptions(lang="de", allow="absent"), NONE)
    marked = apply_marker(base, (), {"pages": "1-2", "min_glyphs": 5})
    assert marked.lang == "de"
    assert Verdict.ABSENT in marked.ok_verdicts
    assert marked.pages == frozenset({1, 2})
    assert marked.min_glyphs == 5


def test_allow_accepts_commas_repeats_and_verdicts() -> None:
    assert parse_allow(["absent,shifted", "garbled"], "x") == {
        Verdict.ABSENT,
        Verdict.SHIFTED,
        Verdict.GARBLED,
    }
    assert parse_allow(Verdict.ABSENT, "x") == {Verdict.ABSENT}


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        (RawOptions(allow="fuzzy"), "--textlayer-allow: unknown verdict 'fuzzy'"),
        (RawOptions(max_bad_glyphs="lots"), "--textlayer-max-bad-glyphs: 'lots' is not a share"),
        (RawOptions(max_bad_glyphs="1.5"), "--textlayer-max-bad-glyphs: '1.5' is not between"),
        (RawOptions(lang="English!"), "--textlayer-lang: 'English!' is not an ISO 639"),
        (RawOptions(model="no/such/model.json"), "--textlayer-model: model file"),
    ],
    ids=["allow", "ratio-word", "ratio-range", "lang", "model"],
)
def test_bad_values_name_the_option_and_value(raw: RawOptions, needle: str) -> None:
    with pytest.raises(SettingError) as info:
        resolve_base(raw, NONE)
    assert needle in str(info.value)


def test_bad_ini_values_name_the_ini_key() -> None:
    with pytest.raises(SettingError, match="ini textlayer_allow: unknown verdict 'nope'"):
        resolve_base(NONE, RawOptions(allow="nope"))


ENGLISH = [
    "The invoice lists every service we delivered during the month, with its price.",
    "Payment is due within thirty days of the date printed at the top of this page.",
    "Please quote the invoice number when you write to us about this account.",
]


def _model(path: Path) -> Path:
    from pytest_textlayer.lang.fitting import fit

    fit(ENGLISH).save(path)
    return path


def test_model_paths_resolve_against_their_source(tmp_path: Path) -> None:
    _model(tmp_path / "m.json")
    settings = resolve_base(NONE, RawOptions(model="m.json"), ini_dir=tmp_path)
    assert settings.model == tmp_path / "m.json"
    marked = apply_marker(CheckSettings(), (), {"model": "m.json"}, base=tmp_path)
    assert marked.model == tmp_path / "m.json"


def test_a_file_that_is_not_a_model_is_refused_up_front(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text('{"not": "a model"}')
    with pytest.raises(SettingError, match=r"^--textlayer-model: .*: not a letter-pair model"):
        resolve_base(RawOptions(model=str(tmp_path / "m.json")), NONE)


def test_unknown_marker_keywords_are_named() -> None:
    with pytest.raises(SettingError) as info:
        apply_marker(CheckSettings(), (), {"alow": ["absent"], "langs": "en", "lang": "en"})
    message = str(info.value)
    assert "unknown keyword(s) alow, langs" in message
    for known in MARKER_KEYWORDS:
        assert known in message


def test_positional_marker_arguments_are_refused() -> None:
    with pytest.raises(SettingError, match="keywords only"):
        apply_marker(CheckSettings(), ("absent",), {})


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"pages": "a-b"}, "pages=...): 'a-b'"),
        ({"pages": 0}, "page numbers start at 1"),
        ({"min_glyphs": -1}, "min_glyphs=...): -1"),
        ({"max_bad_glyphs": True}, "max_bad_glyphs=...): True"),
    ],
)
def test_bad_marker_values_are_named(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(SettingError) as info:
        apply_marker(CheckSettings(), (), kwargs)
    assert needle in str(info.value)


def test_ratio_edges() -> None:
    assert parse_ratio("0", "x") == 0.0
    assert parse_ratio("100%", "x") == 1.0
    assert parse_ratio(0.25, "x") == 0.25


def test_loading_the_plugin_loads_no_pdf_library() -> None:
    # An installed plugin loads in every pytest run of the environment: it must stay cheap.
    import subprocess
    import sys

    code = (
        "import sys, pytest_textlayer.plugin\n"
        "heavy = ('pikepdf', 'pypdfium2', 'fontTools', 'reportlab', 'ocrmypdf', 'pypdf')\n"
        "loaded = [m for m in heavy if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _tree(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"%PDF-1.7\n")


def test_collect_scope_takes_only_named_pdfs(tmp_path: Path) -> None:
    from pytest_textlayer.plugin.options import CollectScope

    _tree(tmp_path, "build/a.pdf", "build/sub/b.PDF", "tests/data/broken.pdf", "one.pdf", "x.txt")
    scope = CollectScope(invocation_dir=tmp_path, glob_root=tmp_path)
    for arg in ("build", "one.pdf::ignored-suffix"):
        scope.name_argument(arg)
    assert scope.should_collect(tmp_path / "build" / "a.pdf")
    assert scope.should_collect(tmp_path / "build" / "sub" / "b.PDF")
    assert scope.should_collect(tmp_path / "one.pdf")
    assert not scope.should_collect(tmp_path / "tests" / "data" / "broken.pdf")
    assert not scope.should_collect(tmp_path / "x.txt")
    assert scope.display(tmp_path / "build" / "a.pdf") == "build/a.pdf"


def test_collect_scope_globs_and_walking(tmp_path: Path) -> None:
    from pytest_textlayer.plugin.options import CollectScope

    _tree(tmp_path, "dist/a.pdf", "docs/_build/m.pdf", "docs/_build/en/g.pdf", "other/c.pdf")
    scope = CollectScope(
        invocation_dir=tmp_path, glob_root=tmp_path, globs=["dist/*.pdf", "docs/_build/**/*.pdf"]
    )
    new = scope.expand_globs([str(tmp_path / "dist" / "a.pdf")])
    assert sorted(Path(p).relative_to(tmp_path).as_posix() for p in new) == [
        "docs/_build/en/g.pdf",
        "docs/_build/m.pdf",
    ]
    assert scope.should_collect(tmp_path / "docs" / "_build" / "m.pdf")
    assert not scope.should_collect(tmp_path / "other" / "c.pdf")
    # dist/ is in pytest's norecursedirs; it is walked because a named file lies in it.
    assert scope.walks_into(tmp_path / "dist")
    assert not scope.walks_into(tmp_path / "other")
    assert not scope.walks_into(tmp_path / "dist", ignored=["dist"])


def test_time_limit_command_line_over_ini_over_default() -> None:
    assert parse_timeout(None, "--t", None, "t") == 120.0
    assert parse_timeout(None, "--t", "30", "t") == 30.0
    assert parse_timeout("5", "--t", "30", "t") == 5.0
    assert parse_timeout("0", "--t", "30", "t") is None
    assert parse_timeout("", "--t", "0", "t") is None
    for bad in ("soon", "-1", "nan"):
        with pytest.raises(SettingError, match="--t: expected"):
            parse_timeout(bad, "--t", None, "t")


def test_textlayer_allow_takes_a_toml_list_under_both_tables(pytester: pytest.Pytester) -> None:
    """pytest 9's native [tool.pytest] table refuses a list for a string key."""
    from pytest_textlayer.generators import generate

    generate("image-only").write(pytester.path / "scan.pdf")
    for table in ("tool.pytest", "tool.pytest.ini_options"):
        pytester.makefile(".toml", pyproject=f'[{table}]\ntextlayer_allow = ["absent"]\n')
        result = pytester.runpytest("--textlayer", "scan.pdf", "-p", "no:cacheprovider")
        assert result.ret == 0, (table, result.outlines[-5:])


def _partial(path: Path) -> None:
    """A page with 8 of its 54 glyphs unmapped (15 %): 10 % fails it, 20 % passes it."""
    from pytest_textlayer.generators import generate

    generate("partial", "Grüße aus Köln: Bürger, Mädchen und Äpfel über Straßen").write(path)


@pytest.mark.skipif(pytest.version_tuple < (9, 2), reason="pytest < 9.2 types a key one way only")
@pytest.mark.parametrize("table", ["tool.pytest", "tool.pytest.ini_options"])
def test_numbers_and_shares_are_typed_under_both_tables(pytester: pytest.Pytester,
                                                        table: str) -> None:
    """A TOML number or '5%' for the threshold and a number for the time limit, with no
    type error or deprecation warning; a value out of range names the ini key."""
    _partial(pytester.path / "partial.pdf")
    for threshold, outcome in (("0", "failed"), ("0.5", "passed"), ("'20%'", "passed"),
                               ("'5%'", "failed")):
        pytester.makefile(".toml", pyproject=f"[{table}]\ntextlayer_max_bad_glyphs = "
                                             f"{threshold}\ntextlayer_timeout = 60\n")
        result = pytester.runpytest("--textlayer", "partial.pdf", "-p", "no:cacheprovider",
                                    "-W", "error::pytest.PytestDeprecationWarning", "-v")
        result.assert_outcomes(**{outcome: 1})
        assert "Warning" not in result.stdout.str() + result.stderr.str(), threshold
        result.stdout.fnmatch_lines(["textlayer: ok=blank,readable max-bad-glyphs=*"])
    pytester.makefile(".toml", pyproject=f"[{table}]\ntextlayer_max_bad_glyphs = 2\n")
    result = pytester.runpytest("--textlayer", "partial.pdf", "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: ini textlayer_max_bad_glyphs: '2' is not between 0 and 1*"])
    pytester.makefile(".toml", pyproject=f"[{table}]\ntextlayer_timeout = -1\n")
    result = pytester.runpytest("--textlayer", "partial.pdf", "-p", "no:cacheprovider")
    result.stderr.fnmatch_lines(["ERROR: textlayer_timeout: expected 0 (no limit) or more*"])


def test_an_ini_file_takes_a_share_as_a_number_or_a_percentage(
        pytester: pytest.Pytester) -> None:
    _partial(pytester.path / "partial.pdf")
    for threshold, outcome in (("0.5", "passed"), ("5%", "failed"), ("20%", "passed")):
        pytester.makeini(f"[pytest]\ntextlayer_max_bad_glyphs = {threshold}\n")
        result = pytester.runpytest("--textlayer", "partial.pdf", "-p", "no:cacheprovider")
        result.assert_outcomes(**{outcome: 1})
