"""`textlayer check` and friends: exit codes, JSON shape, per-file errors, parallel runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_textlayer.cli import main
from pytest_textlayer.generators import generate


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cli")
    (root / "sub").mkdir()
    made = {
        "good": generate("readable").write(root / "good.pdf"),
        "severed": generate("severed", "UNITED STATES DISTRICT COURT").write(
            root / "sub" / "sev.pdf"
        ),
        "shifted": generate("shifted").write(root / "shifted.pdf"),
    }
    (root / "notes.pdf").write_text("this is not a PDF")
    made["notapdf"] = root / "notes.pdf"
    truncated = made["good"].read_bytes()
    (root / "truncated.pdf").write_bytes(truncated[: len(truncated) // 3])
    made["truncated"] = root / "truncated.pdf"
    return {k: Path(v) for k, v in made.items()}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["check", "--json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_good_file_exits_0(pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(pdfs["good"])])
    out = capsys.readouterr().out
    assert code == 0
    assert "PDF text layer is readable" in out
    assert "1 document(s), 1 page(s): 1 readable" in out


def test_severed_file_exits_1_with_the_story(
    pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(pdfs["severed"])])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith(f"PDF text layer is not readable: {pdfs['severed']}")
    assert "page 1: undecodable — font " in out
    assert "Identity-H" in out
    assert "81,7(" in out
    assert f"next: textlayer repair {pdfs['severed']} -o fixed.pdf" in out


def test_json_shape_follows_the_contract(
    pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_json(capsys, str(pdfs["severed"]), str(pdfs["shifted"]))
    assert code == 1
    first, second = data["documents"]
    assert first["path"] == str(pdfs["severed"]) and first["ok"] is False and first["error"] is None
    page = first["pages"][0]
    assert page["number"] == 1 and page["verdict"] == "undecodable" and page["ok"] is False
    assert page["glyphs"] > 0 and page["unmapped_glyphs"] == page["glyphs"]
    assert page["fonts"][0]["route"] == "severed"
    assert any("no ToUnicode" in line for line in page["evidence"])
    shifted = second["pages"][0]
    assert shifted["verdict"] == "shifted"
    assert shifted["offset"] is not None


def test_unreadable_files_are_reported_per_file_and_exit_2(
    pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_json(capsys, str(pdfs["notapdf"]), str(pdfs["good"]), str(pdfs["truncated"]))
    assert code == 2
    bad, good, truncated = data["documents"]
    assert bad["pages"] == [] and "not a PDF" in bad["error"]
    assert good["ok"] is True and good["pages"][0]["verdict"] == "readable"
    assert truncated["pages"] == [] and truncated["error"]
    assert "\n" not in truncated["error"]


def test_directories_are_searched(
    pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_json(capsys, str(pdfs["severed"].parent))
    assert [d["path"] for d in data["documents"]] == [str(pdfs["severed"])]
    assert code == 1


def test_allow_makes_a_verdict_ok(
    pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_json(capsys, "--allow", "undecodable", str(pdfs["severed"]))
    assert code == 0 and data["documents"][0]["pages"][0]["ok"] is True


def test_parallel_jobs_keep_the_order(
    pdfs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(pdfs[k]) for k in ("good", "severed", "shifted", "notapdf")]
    code, data = run_json(capsys, "-j", "2", *paths)
    assert [d["path"] for d in data["documents"]] == paths
    assert code == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check"], "the following arguments are required"),
        (["check", "--allow", "fine", "x.pdf"], "unknown verdict 'fine'"),
        (["check", "--max-bad-glyphs", "2", "x.pdf"], "between 0 and 1"),
        (["check", "--pages", "0", "x.pdf"], "page numbers start at 1"),
        (["check", "-j", "-2", "x.pdf"], "--jobs must be 0 (one per core) or more"),
        (["generate", "nosuchfamily", "-o", "x.pdf"], "nosuchfamily"),
        ([], ""),
    ],
)
def test_usage_errors_exit_2_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err


def test_generate_writes_pdf_and_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sev.pdf"
    assert main(["generate", "severed", "-o", str(out), "--text", "Filter cartridge",
                 "--option", "order=first-use"]) == 0
    truth = json.loads(out.with_suffix(".json").read_text())
    assert out.read_bytes().startswith(b"%PDF-")
    assert "Filter cartridge" in json.dumps(truth)


def test_console_script_runs(pdfs: dict[str, Path]) -> None:
    """One real run of the installed entry point, as users call it."""
    exe = Path(sys.executable).with_name("textlayer")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pytest_textlayer"]
    done = subprocess.run([*cmd, "check", "--json", str(pdfs["severed"])], capture_output=True,
                          text=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 1
    assert json.loads(done.stdout)["documents"][0]["pages"][0]["verdict"] == "undecodable"
    assert done.stderr == ""


def test_sigterm_stops_a_run_and_its_workers(tmp_path: Path, pdfs: dict[str, Path]) -> None:
    """SIGTERM unwinds like Ctrl-C: exit 130, one line, no worker left running."""
    import contextlib
    import shutil
    import signal
    import time

    for i in range(400):
        shutil.copyfile(pdfs["good"], tmp_path / f"{i:03d}.pdf")
    exe = Path(sys.executable).with_name("textlayer")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pytest_textlayer"]
    out = tmp_path / "run.jsonl"
    proc = subprocess.Popen([*cmd, "check", str(tmp_path), "-j", "2", "--jsonl", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    children: list[str] = []
    deadline = time.monotonic() + 60
    while not (out.exists() and out.read_bytes().count(b"\n") >= 20):
        assert proc.poll() is None and time.monotonic() < deadline
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == "textlayer: interrupted\n"
    time.sleep(0.2)
    assert children and not [c for c in children if Path(f"/proc/{c}").exists()]
    lines = out.read_text().splitlines()
    assert all(json.loads(line)["ok"] for line in lines)


def test_every_check_option_is_in_the_command_line_reference() -> None:
    from pytest_textlayer.cli import build_parser

    reference = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    check = sub.choices["check"]  # type: ignore[index]
    options = [o for a in check._actions for o in a.option_strings if o.startswith("--")]
    missing = [o for o in options if o not in reference and o != "--help"]
    assert not missing


def test_docs_links_resolve() -> None:
    import re

    docs = Path(__file__).resolve().parents[1] / "docs"
    pages = [docs / f"{n}.md" for n in ("index", "cli", "limits", "corpus", "pipelines",
                                        "benchmarks")] + sorted((docs / "verdicts").glob("*.md"))
    broken = []
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(docs)} -> {target}")
    assert not broken


def test_owner_password_only_pdf_opens_without_a_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pikepdf

    path = tmp_path / "restricted.pdf"
    with pikepdf.open(generate("readable").write(tmp_path / "plain.pdf")) as pdf:
        pdf.save(path, encryption=pikepdf.Encryption(owner="owner", user="", R=6))
    assert main(["check", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["documents"][0]["pages"][0]["verdict"] == "readable"


def test_check_and_repair_write_the_html_report(
    pdfs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(pdfs["severed"]), str(pdfs["good"]),
                 "--html", str(tmp_path / "check")]) == 1
    page = (tmp_path / "check" / "index.html").read_text(encoding="utf-8")
    assert str(pdfs["severed"]) in page and "undecodable" in page
    assert "data:image/" in page  # the bad page is drawn inline
    fixed = tmp_path / "fixed.pdf"
    assert main(["repair", str(pdfs["shifted"]), "-o", str(fixed), "--ocr", "never",
                 "--html", str(tmp_path / "repair")]) == 0
    after = (tmp_path / "repair" / "index.html").read_text(encoding="utf-8")
    assert "tounicode" in after
    capsys.readouterr()


def test_html_report_into_an_unwritable_place_is_a_usage_error(
    pdfs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["check", str(pdfs["good"]), "--html", str(blocker / "sub")]) == 2
    assert "cannot write the HTML report" in capsys.readouterr().err


def test_json_output_cut_short_by_its_reader_is_not_taken_for_written() -> None:
    """With stdout unbuffered, a write the closing pipe took only part of returns quietly:
    the JSON's last piece is followed by one more write, which fails as it must."""
    import time

    script = ("from pytest_textlayer.cli.arguments import write_json\n"
              "write_json({'documents': [{'sample': '\u00e9' * 100} for _ in range(500)]})\n")
    proc = subprocess.Popen([sys.executable, "-u", "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # one piece, more than a pipe holds
    assert proc.stdout is not None and proc.stderr is not None
    time.sleep(0.5)  # the writer is blocked in its write, part of it in the pipe
    assert proc.stdout.read(10).startswith(b"{")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) != 0 and "BrokenPipeError" in err


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """`textlayer check --json ... | head -c 100`: the pipe closes, the command stops quietly."""
    import io

    import pikepdf

    from pytest_textlayer.generators import generate

    big = tmp_path / "big.pdf"
    with pikepdf.open(io.BytesIO(generate("readable").pdf)) as pdf:
        for _ in range(400):  # a JSON report far larger than a pipe's buffer
            pdf.pages.append(pdf.pages[0])
        pdf.save(big)
    exe = Path(sys.executable).with_name("textlayer")
    proc = subprocess.Popen([str(exe), "check", "--json", str(big)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(100).startswith(b"{")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_one_line_and_status_2(pdfs: dict[str, Path]) -> None:
    """`textlayer check ... > /dev/full` (a full disk): one line on stderr, no traceback."""
    exe = Path(sys.executable).with_name("textlayer")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([str(exe), "check", str(pdfs["good"])], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == "textlayer: error: No space left on device\n"


def test_check_reads_verdict_lists_and_shares_as_the_plugin_does(tmp_path: Path) -> None:
    """One parser: `absent,shifted` and `5%` mean the same on the command line and in pytest."""
    from pytest_textlayer.generators import generate

    pdf = generate("shifted").write(tmp_path / "shifted.pdf")
    assert main(["check", str(pdf), "--allow", "absent,shifted", "--max-bad-glyphs", "5%"]) == 0
    assert main(["check", str(pdf), "--max-bad-glyphs", "150%"]) == 2


def test_quiet_prints_the_summary_and_jobs_zero_means_every_core(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_textlayer.generators import generate

    bad = generate("severed").write(tmp_path / "bad.pdf")
    assert main(["check", "-q", "-j", "0", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.strip().splitlines() == ["1 document(s), 1 page(s): 1 undecodable"]
    assert main(["check", "-j", "-1", str(bad)]) == 2


def test_every_example_in_the_help_parses_and_the_exit_statuses_match_the_docs() -> None:
    """The help's examples are commands the parser takes; its exit statuses are docs/cli.md's."""
    import shlex

    from pytest_textlayer.cli import CHECK_EXAMPLES, EXIT_STATUSES, REPAIR_EXAMPLES, build_parser

    parser = build_parser()
    lines = [line.strip() for line in (CHECK_EXAMPLES + REPAIR_EXAMPLES).splitlines()
             if line.strip().startswith("textlayer ")]
    assert len(lines) >= 7
    for line in lines:
        command = line.split("  ")[0]  # the comment follows two spaces
        parser.parse_args(shlex.split(command)[1:])
    docs = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    for status in ("0", "1", "2", "3", "130"):
        assert f"\n  {status} " in EXIT_STATUSES and f"| {status} |" in docs


def _textlayer(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "pytest_textlayer", *args], input=stdin,
                          capture_output=True, timeout=120)


def test_a_dash_checks_the_pdf_piped_to_stdin(pdfs: dict[str, Path]) -> None:
    done = _textlayer("check", "-", str(pdfs["good"]), "--json",
                      stdin=pdfs["shifted"].read_bytes())
    assert done.returncode == 1, done.stderr
    documents = json.loads(done.stdout)["documents"]
    assert [(d["path"], d["pages"][0]["verdict"]) for d in documents] == [
        ("<stdin>", "shifted"), (str(pdfs["good"]), "readable")]
    told = _textlayer("check", "-", stdin=pdfs["shifted"].read_bytes()).stdout.decode()
    # the next step pipes the same bytes again: '<stdin>' in a shell would be a redirection
    assert "next: textlayer repair - -o fixed.pdf (the same PDF on stdin)" in told
    lines = _textlayer("check", "-", "--jsonl", "-", stdin=pdfs["good"].read_bytes())
    record = json.loads(lines.stdout.decode().splitlines()[0])
    assert record["path"] == "<stdin>" and record["file"] is None


def test_stdin_is_read_once_and_must_hold_a_pdf(pdfs: dict[str, Path]) -> None:
    twice = _textlayer("check", "-", "-", stdin=pdfs["good"].read_bytes())
    assert twice.returncode == 2
    assert twice.stderr.decode() == "textlayer: error: '-' (stdin) can be read only once\n"
    text = _textlayer("check", "-", stdin=b"hello\n")
    assert text.returncode == 2
    assert "textlayer: error: <stdin>: not a PDF (no %PDF- header)" in text.stderr.decode()
    resume = _textlayer("check", "-", "--resume", "run.jsonl", stdin=b"")
    assert resume.returncode == 2 and b"--resume" in resume.stderr


def test_repair_reads_a_dash_from_stdin(pdfs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "fixed.pdf"
    done = _textlayer("repair", "-", "-o", str(out), "--ocr", "never", "--json",
                      stdin=pdfs["shifted"].read_bytes())
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["input"] == "<stdin>" and report["output"] == str(out)
    assert main(["check", str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fixed.pdf"]
