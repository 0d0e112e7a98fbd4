"""The pytest plugin, run for real through pytester on PDFs made by a real producer.

The PDFs come from the example project's invoicing code (reportlab with an
embedded DejaVu Sans): as written, and after its broken-font step re-embeds
the font as Identity-H without ToUnicode or cmap. Tests never assume which
bad verdict the classifier gives; they ask it once per session.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pikepdf  # (also see below)
import pypdfium2  # noqa: F401
import pytest
from _paths import REAL_CORPUS, ROOT

from pytest_textlayer.judge.classifier import classify

# pytester's in-process runs drop modules first imported during a run; pikepdf (a
# nanobind extension) aborts the process when imported twice. Importing the readers
# here, in the outer process, keeps them loaded across runs.

EXAMPLE = ROOT / "examples" / "invoice_project"

pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)


@dataclass(frozen=True)
class Pdfs:
    good: Path
    bad: Path
    mixed: Path  # page 1 readable (standard font), page 2 broken
    not_pdf: Path
    truncated: Path
    encrypted: Path
    bad_verdict: str


def _invoice_module():  # type: ignore[no-untyped-def]
    if str(EXAMPLE) not in sys.path:
        sys.path.insert(0, str(EXAMPLE))
    import invoice.cidfonts
    import invoice.render

    return invoice


def _mixed_pdf(invoice) -> bytes:  # type: ignore[no-untyped-def]
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("InvoiceSans", str(invoice.render.FONT_FILE)))
    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    pdf.setFont("Helvetica", 12)
    pdf.drawString(72, 700, "The terms of delivery are printed on the second page of this letter.")
    pdf.showPage()
    pdf.setFont("InvoiceSans", 12)
    pdf.drawString(72, 700, "Goods remain our property until the invoice has been paid in full.")
    pdf.showPage()
    pdf.save()
    return bytes(invoice.cidfonts.embed_as_identity_cid(out.getvalue()))


@pytest.fixture(scope="session")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> Pdfs:
    invoice = _invoice_module()
    root = tmp_path_factory.mktemp("pdfs")
    sample = invoice.render.SAMPLE
    good = invoice.render.write_invoice(sample, root / "good.pdf", broken_fonts=False)
    bad = invoice.render.write_invoice(sample, root / "bad.pdf", broken_fonts=True)
    mixed = root / "mixed.pdf"
    mixed.write_bytes(_mixed_pdf(invoice))
    not_pdf = root / "notes.pdf"
    not_pdf.write_text("these are meeting notes, saved with the wrong extension\n")
    truncated = root / "truncated.pdf"
    truncated.write_bytes(good.read_bytes()[:400])
    encrypted = root / "locked.pdf"
    with pikepdf.open(good) as pdf:
        pdf.save(encrypted, encryption=pikepdf.Encryption(owner="owner", user="user"))
    # Classifying both here also imports the whole core once, in this process: pytester's
    # in-process runs then reuse it instead of re-importing it on every run.
    assert classify(good).ok, classify(good).render()
    report = classify(bad)
    assert not report.ok, report.render()
    return Pdfs(good, bad, mixed, not_pdf, truncated, encrypted, report.pages[0].verdict.value)


@pytest.fixture(autouse=True)
def _quiet_inner_runs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    # Inner runs need no hypothesis; its plugin re-imports hypothesis (~1 s) on every
    # in-process run. Set after pytester, which clears PYTEST_ADDOPTS when it starts.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest")


def _copy(pytester: pytest.Pytester, src: Path, name: str | None = None) -> Path:
    dest = pytester.path / (name or src.name)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    return dest


# -- options, help, header --------------------------------------------------------------


def test_help_section_is_pinned(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    result.stdout.fnmatch_lines(
        [
            "PDF text layers (pytest-textlayer):",
            "  --textlayer * enforce: every text-layer check fails its test, and PDF",
            "*--textlayer-allow=VERDICT",
            "*--textlayer-lang=CODE",
            "*--textlayer-max-bad-glyphs=SHARE",
            "*--textlayer-model=FILE",
            "*--textlayer-report=FILE.json",
        ]
    )
    share = "float | string" if pytest.version_tuple >= (9, 2) else "string"  # a TOML number
    result.stdout.fnmatch_lines(
        [
            "  textlayer_allow (linelist):*",
            "  textlayer_lang (string):*",
            f"  textlayer_max_bad_glyphs ({share}):*",
            "  textlayer_model (string):*",
            "  textlayer_paths (linelist):*",
        ]
    )


def test_marker_is_registered_with_its_signature(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(
        ["@pytest.mark.textlayer(allow=(), lang=None, pages=None, min_glyphs=0, max_bad_glyphs=*"]
    )


def test_header_says_whether_the_gate_is_on(pytester: pytest.Pytester) -> None:
    quiet = pytester.runpytest()
    assert not any(line.startswith("textlayer") for line in quiet.outlines)  # not in use
    off = pytester.runpytest("-v")
    off.stdout.fnmatch_lines(
        [
            "textlayer: gate off: checks run and are reported; only assert_text_layer_readable*",
            "textlayer: ok=blank,readable max-bad-glyphs=0.1",
            "textlayer readers: pypdfium2 *, pikepdf *",
        ]
    )
    on = pytester.runpytest("--textlayer", "--textlayer-allow=absent", "--textlayer-lang=fr")
    on.stdout.fnmatch_lines(
        [
            "textlayer: gate on (--textlayer): every text-layer check fails its test",
            "textlayer: ok=absent,blank,readable max-bad-glyphs=0.1 lang=fr",
            "textlayer readers: pypdfium2 * (PDFium *), pikepdf * (qpdf *)",
        ]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--textlayer-allow=sideways"], "--textlayer-allow: unknown verdict 'sideways'*"),
        (["--textlayer-max-bad-glyphs=many"], "--textlayer-max-bad-glyphs: 'many' is not a*"),
        (["--textlayer-max-bad-glyphs=2"], "--textlayer-max-bad-glyphs: '2' is not between 0*"),
        (["--textlayer-lang=French language"], "--textlayer-lang: 'French language' is not*"),
        (["--textlayer-model=missing.json"], "--textlayer-model: model file 'missing.json'*"),
    ],
    ids=["allow", "max-bad-glyphs-word", "max-bad-glyphs-range", "lang", "model"],
)
def test_bad_option_values_are_usage_errors(
    pytester: pytest.Pytester, args: list[str], message: str
) -> None:
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])


def test_bad_ini_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ntextlayer_max_bad_glyphs = half\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: ini textlayer_max_bad_glyphs: 'half' is not a share*"])


# -- collected PDF files ----------------------------------------------------------------


def test_collected_files_pass_and_fail_with_the_page_story(
    pytester: pytest.Pytester, pdfs: Pdfs
) -> None:
    _copy(pytester, pdfs.good, "out/good.pdf")
    _copy(pytester, pdfs.bad, "out/bad.pdf")
    result = pytester.runpytest("--textlayer", "out/good.pdf", "out/bad.pdf", "-rA")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["PASSED out/good.pdf::textlayer"])
    result.stdout.fnmatch_lines(
        [
            "*_ out/bad.pdf: text layer _*",
            "PDF text layer is not readable: out/bad.pdf (1 of 1 pages bad)",
            f"  page 1: {pdfs.bad_verdict} — *",
            "  page 1 extracts as: *",
            "  next: textlayer repair out/bad.pdf -o fixed.pdf*",
        ]
    )
    # The story is the whole failure: no traceback through the plugin.
    result.stdout.no_fnmatch_line("*plugin.py*")
    result.stdout.no_fnmatch_line("*Traceback*")


def test_a_collected_pdf_over_the_time_limit_fails_alone(
    pytester: pytest.Pytester, pdfs: Pdfs
) -> None:
    """Collected PDFs run in a killable worker: a slow one fails its item, the rest pass."""
    with pikepdf.open(pdfs.good) as pdf:
        for _ in range(3000):  # about half a minute to check, unlimited
            pdf.pages.append(pdf.pages[0])
        pdf.save(pytester.path / "slow.pdf")
    _copy(pytester, pdfs.good, "good.pdf")
    result = pytester.runpytest("--textlayer", "--textlayer-timeout=1", "slow.pdf", "good.pdf")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*slow.pdf: took longer than the limit of 1 s"
        " (--textlayer-timeout or textlayer_timeout)*",
    ])


def test_a_bad_time_limit_is_a_usage_error(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    _copy(pytester, pdfs.good, "good.pdf")
    result = pytester.runpytest("--textlayer", "--textlayer-timeout=soon", "good.pdf")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --textlayer-timeout: expected seconds, not 'soon'"])
    pytester.makeini("[pytest]\ntextlayer_timeout = -3\n")
    result = pytester.runpytest("--textlayer", "good.pdf")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: textlayer_timeout: expected 0 (no limit) or more*"])


def test_directories_are_searched_for_pdfs(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    _copy(pytester, pdfs.good, "build/a/good.pdf")
    _copy(pytester, pdfs.bad, "build/b/bad.pdf")
    (pytester.path / "build" / "readme.txt").write_text("not a pdf")
    result = pytester.runpytest("--textlayer", "build", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["build/a/good.pdf::textlayer PASSED*", "build/b/bad.pdf::textlayer FAILED*"]
    )


def test_a_named_build_dir_is_walked_inside_another_argument(
    pytester: pytest.Pytester, pdfs: Pdfs
) -> None:
    # pytest drops `build` as overlapping `.` and never recurses into build/ (norecursedirs).
    _copy(pytester, pdfs.bad, "build/out.pdf")
    _copy(pytester, pdfs.good, "dist/skipped.pdf")  # dist/ is in norecursedirs, and unnamed
    pytester.makepyfile("def test_plain(): pass")
    result = pytester.runpytest("--textlayer", ".", "build", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["build/out.pdf::textlayer FAILED*"])
    result.stdout.no_fnmatch_line("*skipped.pdf*")
    ignored = pytester.runpytest("--textlayer", ".", "build", "--ignore=build")
    ignored.assert_outcomes(passed=1)


def test_without_the_gate_pdfs_are_not_collected(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    _copy(pytester, pdfs.bad, "build/bad.pdf")
    pytester.makepyfile("def test_plain(): pass")
    result = pytester.runpytest(".")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*bad.pdf*")


def test_pdfs_in_testpaths_are_not_collected_unless_named(
    pytester: pytest.Pytester, pdfs: Pdfs
) -> None:
    # Test data under tests/ (often broken on purpose) is left alone by a bare `--textlayer`.
    _copy(pytester, pdfs.bad, "tests/data/broken-on-purpose.pdf")
    pytester.makepyfile(**{"tests/test_x.py": "def test_plain(): pass"})
    pytester.makeini("[pytest]\ntestpaths = tests\n")
    result = pytester.runpytest("--textlayer")
    result.assert_outcomes(passed=1)


def test_textlayer_paths_globs_are_collected(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    _copy(pytester, pdfs.good, "dist/one.pdf")
    _copy(pytester, pdfs.bad, "dist/two.pdf")
    _copy(pytester, pdfs.good, "docs/_build/manual.pdf")
    _copy(pytester, pdfs.good, "docs/_build/en/guide.pdf")
    _copy(pytester, pdfs.bad, "elsewhere/ignored.pdf")
    pytester.makepyfile(**{"tests/test_x.py": "def test_plain(): pass"})
    pytester.makeini(
        "[pytest]\ntestpaths = tests\n"
        "textlayer_paths =\n    dist/*.pdf\n    docs/_build/**/*.pdf\n"
    )
    on = pytester.runpytest("--textlayer", "-v")
    on.assert_outcomes(passed=4, failed=1)
    on.stdout.fnmatch_lines(["dist/one.pdf::textlayer PASSED*", "dist/two.pdf::textlayer FAILED*"])
    on.stdout.fnmatch_lines(["docs/_build/en/guide.pdf::textlayer PASSED*"])
    on.stdout.fnmatch_lines(["docs/_build/manual.pdf::textlayer PASSED*"])
    on.stdout.no_fnmatch_line("*ignored.pdf*")
    off = pytester.runpytest("-v")
    off.assert_outcomes(passed=1)


def test_unreadable_pdfs_fail_their_own_item_in_one_line(
    pytester: pytest.Pytester, pdfs: Pdfs
) -> None:
    _copy(pytester, pdfs.not_pdf, "in/notes.pdf")
    _copy(pytester, pdfs.truncated, "in/truncated.pdf")
    _copy(pytester, pdfs.encrypted, "in/locked.pdf")
    _copy(pytester, pdfs.good, "in/good.pdf")
    result = pytester.runpytest("--textlayer", "in", "-rf")
    result.assert_outcomes(passed=1, failed=3)
    result.stdout.fnmatch_lines(
        [
            "PDF could not be read: in/locked.pdf: encrypted PDF (a password is needed)",
            "PDF could not be read: in/notes.pdf: not a PDF (no %PDF- header)",
            "PDF could not be read: in/truncated.pdf: *",
        ]
    )
    failure = result.stdout.str().split("_ in/notes.pdf: text layer _")[1]
    story = [line for line in failure.splitlines() if line.strip() and "____" not in line]
    assert story[0].startswith("PDF could not be read: in/notes.pdf")
    assert "Traceback" not in failure.split("short test summary")[0]


# -- the gate rule ----------------------------------------------------------------------


CHECK_TESTS = """
from pathlib import Path
from pytest_textlayer import assert_text_layer_readable

BAD = Path({bad!r})
GOOD = Path({good!r})

def test_fixture_check_bad(textlayer):
    report = textlayer.check(BAD)
    assert not report.ok

def test_fixture_check_good(textlayer):
    assert textlayer.check(GOOD).ok

def test_explicit_assertion_bad():
    assert_text_layer_readable(BAD)

def test_explicit_assertion_good():
    report = assert_text_layer_readable(GOOD, contains=["Total due"])
    assert report.ok
"""


@pytest.mark.parametrize("gate", [False, True], ids=["gate-off", "gate-on"])
def test_gate_rule(pytester: pytest.Pytester, pdfs: Pdfs, gate: bool) -> None:
    pytester.makepyfile(CHECK_TESTS.format(bad=str(pdfs.bad), good=str(pdfs.good)))
    result = pytester.runpytest(*(["--textlayer"] if gate else []), "-rf")
    if gate:
        result.assert_outcomes(passed=2, failed=2)
        result.stdout.fnmatch_lines(["FAILED *::test_explicit_assertion_bad - *"])
        result.stdout.fnmatch_lines(["FAILED *::test_fixture_check_bad - *"])
    else:
        # Only the explicit assertion enforces without --textlayer.
        result.assert_outcomes(passed=3, failed=1)
        result.stdout.fnmatch_lines(["FAILED *::test_explicit_assertion_bad - *"])
        result.stdout.fnmatch_lines(["*not enforced: run with --textlayer to fail these tests"])


def test_fixture_failure_message_shape(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(CHECK_TESTS.format(bad=str(pdfs.bad), good=str(pdfs.good)))
    result = pytester.runpytest("--textlayer", "-k", "fixture_check_bad")
    result.stdout.fnmatch_lines(
        [
            "*_ test_fixture_check_bad _*",
            f"PDF text layer is not readable: {pdfs.bad} (1 of 1 pages bad)",
            f"  page 1: {pdfs.bad_verdict} — *",
            "  page 1 extracts as: *",
            f"  next: textlayer repair {pdfs.bad} -o fixed.pdf*",
        ]
    )
    result.stdout.no_fnmatch_line("*plugin.py*")


def test_explicit_assertion_message_hides_helper_frames(
    pytester: pytest.Pytester, pdfs: Pdfs
) -> None:
    pytester.makepyfile(CHECK_TESTS.format(bad=str(pdfs.bad), good=str(pdfs.good)))
    result = pytester.runpytest("-k", "explicit_assertion_bad")
    result.stdout.fnmatch_lines(
        [
            ">       assert_text_layer_readable(BAD)",
            f"E       AssertionError: PDF text layer is not readable: {pdfs.bad} (1 of 1 *",
            f"E         page 1: {pdfs.bad_verdict} — *",
            "E         next: textlayer repair *",
        ]
    )
    result.stdout.no_fnmatch_line("*assertion.py*")


def test_fixture_overrides_and_explicit_method(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        MIXED = {str(pdfs.mixed)!r}

        def test_call_overrides_win(textlayer):
            assert textlayer.check(MIXED, pages=[1]).ok
            assert [r.ok for r in textlayer.reports] == [True]

        def test_call_override_checked(textlayer):
            with pytest.raises(TypeError, match="textlayer.check[(]pages=...[)]"):
                textlayer.check(MIXED, pages="x")

        def test_assert_readable_always_enforces(textlayer):
            assert not textlayer.enforcing
            textlayer.assert_readable(MIXED)
        """
    )
    result = pytester.runpytest("-rf")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            ">       textlayer.assert_readable(MIXED)",
            "E       AssertionError: PDF text layer is not readable: *mixed.pdf (1 of 2 pages bad)",
        ]
    )
    result.stdout.fnmatch_lines(["FAILED *::test_assert_readable_always_enforces*"])


def test_contains_names_the_missing_strings(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(
        f"""
        def test_it(textlayer):
            textlayer.check({str(pdfs.good)!r}, contains=["Total due", "Net 60 days"])
        """
    )
    result = pytester.runpytest("--textlayer")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"PDF text layer lacks the expected text: {pdfs.good}",
            "  not extractable: 'Net 60 days'",
            "  page 1 extracts as: 'Invoice 2026-0042*",
        ]
    )
    result.stdout.no_fnmatch_line("*not extractable: 'Total due'*")


SWEEP_TESTS = """
import shutil
import pytest

@pytest.mark.textlayer
def test_marked_writes_bad(tmp_path):
    (tmp_path / "out").mkdir()
    shutil.copyfile({bad!r}, tmp_path / "out" / "report.pdf")

@pytest.mark.textlayer
def test_marked_writes_good(tmp_path):
    shutil.copyfile({good!r}, tmp_path / "REPORT.PDF")

def test_unmarked_writes_bad(tmp_path):
    shutil.copyfile({bad!r}, tmp_path / "report.pdf")
"""


@pytest.mark.parametrize("gate", [False, True], ids=["gate-off", "gate-on"])
def test_marked_tests_check_what_they_write(
    pytester: pytest.Pytester, pdfs: Pdfs, gate: bool
) -> None:
    pytester.makepyfile(SWEEP_TESTS.format(bad=str(pdfs.bad), good=str(pdfs.good)))
    result = pytester.runpytest(*(["--textlayer"] if gate else []), "-rA", "--strict-markers")
    if gate:
        result.assert_outcomes(passed=2, failed=1)
        result.stdout.fnmatch_lines(
            ["*_ test_marked_writes_bad _*", "PDF text layer is not readable: */out/report.pdf *"]
        )
    else:
        result.assert_outcomes(passed=3)
        # The finding stays visible in the test's report sections.
        result.stdout.fnmatch_lines(
            ["*textlayer (not enforced)*", "PDF text layer is not readable:*"]
        )
    # Two marked tests were swept; the unmarked one was not.
    result.stdout.fnmatch_lines(["2 PDF(s) checked, 2 page(s): *"])


def test_unknown_marker_keyword_errors_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.textlayer(alow=["absent"], langauge="en")
        def test_typo(textlayer):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*@pytest.mark.textlayer: unknown keyword(s) alow, langauge (known: allow, lang, pages*"]
    )


def test_a_bad_marker_value_is_said_once(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.textlayer(allow=["absnt"])
        def test_typo(textlayer):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    # once in the error's report; the short summary's "ERROR ..." line may repeat it
    report = [line for line in out.splitlines() if not line.startswith("ERROR ")]
    said = [line for line in report if "unknown verdict 'absnt'" in line]
    assert len(said) == 1, out
    assert "During handling of the above exception" not in out


# -- precedence, end to end -------------------------------------------------------------

PRECEDENCE_TEST = """
import pytest

{marker}
def test_it(textlayer):
    textlayer.check({bad!r})
"""


@pytest.mark.parametrize(
    ("ini", "cli", "marker", "passes"),
    [
        (None, None, None, False),
        ("{v}", None, None, True),
        (None, "{v}", None, True),
        ("{v}", "garbled,absent", None, None),  # the command line replaces the ini value
        (None, None, "allow=['{v}']", True),
        (None, "{v}", "allow=()", False),  # the marker replaces the command line
        ("{v}", "{v}", "allow=[]", False),
    ],
    ids=["default", "ini", "cli", "cli-over-ini", "marker", "marker-over-cli", "marker-over-all"],
)
def test_allow_precedence(
    pytester: pytest.Pytester,
    pdfs: Pdfs,
    ini: str | None,
    cli: str | None,
    marker: str | None,
    passes: bool | None,
) -> None:
    v = pdfs.bad_verdict
    if passes is None:  # the cli names other verdicts; passes only if they include v
        passes = v in ("garbled", "absent")
    if ini is not None:
        pytester.makeini(f"[pytest]\ntextlayer_allow = {ini.format(v=v)}\n")
    mark = f"@pytest.mark.textlayer({marker.format(v=v)})" if marker else ""
    pytester.makepyfile(PRECEDENCE_TEST.format(marker=mark, bad=str(pdfs.bad)))
    args = ["--textlayer"] + ([f"--textlayer-allow={cli.format(v=v)}"] if cli else [])
    result = pytester.runpytest(*args)
    result.assert_outcomes(**({"passed": 1} if passes else {"failed": 1}))


def test_marker_pages_and_threshold(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        MIXED = {str(pdfs.mixed)!r}

        @pytest.mark.textlayer(pages=[1])
        def test_first_page_only(textlayer):
            assert [p.number for p in textlayer.check(MIXED).pages] == [1]

        @pytest.mark.textlayer(pages="2")
        def test_second_page(textlayer):
            textlayer.check(MIXED)
        """
    )
    result = pytester.runpytest("--textlayer", "-rf")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["FAILED *::test_second_page - *"])


def test_lang_option_reaches_the_check(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_cli(textlayer):
            assert textlayer.settings.lang == "de"
            assert textlayer.settings.max_bad_glyphs == 0.0

        @pytest.mark.textlayer(lang="en", max_bad_glyphs=0.5)
        def test_marker(textlayer):
            assert textlayer.settings.lang == "en"
            assert textlayer.settings.max_bad_glyphs == 0.5
        """
    )
    pytester.makeini("[pytest]\ntextlayer_lang = fr\ntextlayer_max_bad_glyphs = 0\n")
    result = pytester.runpytest("--textlayer-lang=de")
    result.assert_outcomes(passed=2)


# -- summary, JSON, xdist ---------------------------------------------------------------


def _summary_project(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.parametrize("n", range(3))
        def test_good(textlayer, n):
            textlayer.check({str(pdfs.good)!r})

        def test_bad(textlayer):
            textlayer.check({str(pdfs.bad)!r})

        def test_mixed(textlayer):
            textlayer.check({str(pdfs.mixed)!r})
        """
    )


def test_summary_counts_and_worst_documents(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    _summary_project(pytester, pdfs)
    result = pytester.runpytest("--textlayer")
    result.assert_outcomes(passed=3, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*- textlayer -*",
            "5 PDF(s) checked, 6 page(s): *",
            f"  {pdfs.bad}: 1 of 1 page(s) bad (1 {pdfs.bad_verdict})  [[]*::test_bad]",
        ]
    )
    assert result.stdout.str().count("- textlayer -") == 1


def test_json_report(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    _summary_project(pytester, pdfs)
    _copy(pytester, pdfs.not_pdf, "in/notes.pdf")
    result = pytester.runpytest("--textlayer", ".", "in", "--textlayer-report=out/report.json")
    result.stdout.fnmatch_lines(["textlayer report written to */out/report.json"])
    data = json.loads((pytester.path / "out" / "report.json").read_text())
    documents = data["documents"]
    assert len(documents) == 6
    by_test = {d["test"].split("::")[-1]: d for d in documents}
    assert by_test["test_bad"]["ok"] is False
    assert by_test["test_bad"]["pages"][0]["verdict"] == pdfs.bad_verdict
    assert by_test["test_bad"]["pages"][0]["evidence"]
    assert by_test["test_good[0]"]["ok"] is True
    assert by_test["textlayer"]["path"] == "in/notes.pdf"
    assert by_test["textlayer"]["pages"] == []
    assert by_test["textlayer"]["error"].startswith("not a PDF")


def test_xdist_gathers_reports_from_workers(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytest.importorskip("xdist")
    _summary_project(pytester, pdfs)
    _copy(pytester, pdfs.bad, "build/collected.pdf")
    result = pytester.runpytest(
        "-n", "2", "--textlayer", ".", "build", "--textlayer-report=report.json"
    )
    result.assert_outcomes(passed=3, failed=3)
    result.stdout.fnmatch_lines(["6 PDF(s) checked, 7 page(s): *"])
    assert result.stdout.str().count("- textlayer -") == 1
    documents = json.loads((pytester.path / "report.json").read_text())["documents"]
    assert len(documents) == 6
    assert {d["test"] for d in documents} >= {"build/collected.pdf::textlayer"}


# -- the fixture factory ----------------------------------------------------------------


def test_factory_writes_fixtures_with_their_truth(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        from pytest_textlayer.judge.classifier import classify

        @pytest.mark.textlayer
        def test_severed(textlayer_factory, tmp_path):
            made = textlayer_factory("severed", "UNITED STATES DISTRICT COURT")
            assert made.path == tmp_path / "severed.pdf"
            assert made.path.with_suffix(".json").is_file()
            assert made.pages[0].text == "UNITED STATES DISTRICT COURT"
            assert classify(made.path).pages[0].verdict == made.pages[0].verdict

        def test_unknown_family(textlayer_factory):
            with pytest.raises(Exception, match="unknown fixture family 'nope'"):
                textlayer_factory("nope")
        """
    )
    # The marked test's after-test sweep leaves deliberately broken fixtures alone
    # (a direct classify() call is the test's own business and is not recorded).
    result = pytester.runpytest("--textlayer")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*- textlayer -*", "no PDF checked"])


def test_json_report_that_cannot_be_written(pytester: pytest.Pytester, pdfs: Pdfs) -> None:
    pytester.makepyfile(f"def test_it(textlayer): textlayer.check({str(pdfs.good)!r})")
    (pytester.path / "taken").write_text("a file where a directory should be")
    result = pytester.runpytest("--textlayer-report=taken/report.json")
    result.stdout.fnmatch_lines(["textlayer report NOT written: */taken/report.json: *"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR





@pytest.mark.skipif(not REAL_CORPUS.is_dir(), reason="the real-PDF corpus is not on this machine")
def test_real_corpus_one_item_per_file_and_the_core_s_verdicts(pytester: pytest.Pytester) -> None:
    # Third-party PDFs from many producers, read in place (never copied): every file gets
    # exactly one item, a bad file never stops the session, and the items agree with the core.
    files = sorted(REAL_CORPUS.glob("*.pdf"))
    result = pytester.runpytest("--textlayer", str(REAL_CORPUS), "--textlayer-report=r.json")
    outcomes = result.parseoutcomes()
    documents = json.loads((pytester.path / "r.json").read_text())["documents"]
    assert outcomes.get("passed", 0) + outcomes.get("failed", 0) == len(files)
    assert "error" not in outcomes and "errors" not in outcomes
    assert len(documents) == len(files)
    assert outcomes.get("failed", 0) == sum(not d["ok"] for d in documents)
    for document in documents:
        path = REAL_CORPUS / Path(document["path"]).name
        core = classify(path)
        assert [p["verdict"] for p in document["pages"]] == [
            p.verdict.value for p in core.pages
        ], path.name
        assert document["error"] == core.error


def test_model_from_marker_command_line_and_ini(
    pytester: pytest.Pytester, pdfs: Pdfs, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_textlayer.lang.fitting import fit

    english = [
        "The invoice lists every service we delivered during the month, with its price.",
        "Payment is due within thirty days of the date printed at the top of this page.",
    ]
    (pytester.path / "models").mkdir()
    fit(english).save(pytester.path / "models" / "en.json")
    fit(english).save(pytester.path / "models" / "cli.json")
    pytester.makeini("[pytest]\ntextlayer_model = models/en.json\n")
    pytester.makepyfile(
        f"""
        import pytest

        import os

        def test_ini_or_cli(textlayer, request):
            expected = request.config.rootpath / "models" / os.environ["EXPECTED_MODEL"]
            assert textlayer.settings.model == expected
            assert textlayer.check({str(pdfs.good)!r}).pages

        @pytest.mark.textlayer(model="models/cli.json")
        def test_marker(textlayer, request):
            assert textlayer.settings.model == request.config.rootpath / "models" / "cli.json"
        """
    )
    monkeypatch.setenv("EXPECTED_MODEL", "en.json")
    pytester.runpytest().assert_outcomes(passed=2)
    monkeypatch.setenv("EXPECTED_MODEL", "cli.json")
    pytester.runpytest("--textlayer-model=models/cli.json").assert_outcomes(passed=2)
    (pytester.path / "models" / "notes.json").write_text('{"notes": []}')
    bad = pytester.runpytest("--textlayer-model=models/notes.json")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["ERROR: --textlayer-model: *notes.json: not a letter-pair model*"])


def test_naming_a_folder_of_pdfs_without_the_gate_says_how_to_check_them(
        pytester: pytest.Pytester) -> None:
    from pytest_textlayer.generators import generate

    (pytester.path / "build").mkdir()
    (pytester.path / "build" / "out.pdf").write_bytes(generate("readable").pdf)
    result = pytester.runpytest("build")
    result.stdout.fnmatch_lines(["textlayer: the PDFs under build are checked only with "
                                 "--textlayer (pytest --textlayer build)"])
    pytester.makepyfile("def test_one():\n    pass\n")
    result = pytester.runpytest("build", "test_naming_a_folder_of_pdfs_without_the_gate_says"
                                "_how_to_check_them.py")
    result.assert_outcomes(passed=1)
    assert "checked only with --textlayer" not in result.stdout.str()
