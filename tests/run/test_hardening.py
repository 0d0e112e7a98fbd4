"""Hostile input ends in a report or one line, within the limits; inputs are never touched.

Every test here drives the real `textlayer` command or the real worker pool
on real PDFs (built by the generators, then damaged): the limits are
exercised by documents that actually pass them.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from _signals import interruptible

from pytest_textlayer.cli import main
from pytest_textlayer.errors import InputError
from pytest_textlayer.generators import generate
from pytest_textlayer.generators.fuzz import MUTATIONS, _with_bomb, mutate
from pytest_textlayer.run.limits import MIB, Limits, decoded_size
from pytest_textlayer.run.workers import INPUT, MEMORY, REPORT, TIMEOUT, run_guarded
from pytest_textlayer.settings import CheckSettings

EXE = Path(sys.executable).with_name("textlayer")
CMD = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "pytest_textlayer"]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def seeds() -> dict[str, bytes]:
    return {name: generate(name).pdf for name in ("readable", "severed", "mixed", "type3-unnamed")}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_every_attack_ends_in_a_report_or_one_line(seeds: dict[str, bytes],
                                                   mutation: str) -> None:
    """Each attack, on each seed, under the default limits: no traceback, no hang, one line."""
    rng = random.Random(mutation)
    cases = [(mutate(seed, rng, [mutation])[1], f"{name}+{mutation}.pdf")
             for name, seed in seeds.items()]
    outcomes = list(run_guarded(cases, CheckSettings(), jobs=2, limits=Limits(timeout=60)))
    assert len(outcomes) == len(cases)
    for outcome in outcomes:
        assert outcome.kind in (REPORT, INPUT), (outcome.report.error, outcome.detail)
        if outcome.report.error is not None:
            assert "\n" not in outcome.report.error
            assert outcome.report.pages == ()
        else:
            assert outcome.report.pages


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_every_attack_on_a_broken_copy_repairs_or_fails_in_one_line(
    seeds: dict[str, bytes], tmp_path: Path, mutation: str
) -> None:
    """`repair` walks every font's codes itself: a damaged operand (a TJ of null, an operator
    or a font name that is no UTF-8) must be passed over, and anything else end in one line,
    with nothing written."""
    from pytest_textlayer.errors import TextLayerError
    from pytest_textlayer.generators.breakers import break_pdf
    from pytest_textlayer.repairs.repairer import repair

    rng = random.Random("repair-" + mutation)
    for name, seed in seeds.items():
        shifted = break_pdf(seed, "shift")
        source = shifted.pdf if shifted.applies else seed
        for attempt in range(3):
            path = tmp_path / f"{name}-{attempt}.pdf"
            path.write_bytes(mutate(source, rng, [mutation])[1])
            out = tmp_path / f"{name}-{attempt}.fixed.pdf"
            try:
                repair(path, out, ocr="never")
            except TextLayerError as exc:
                assert "\n" not in str(exc) and str(path) in str(exc)
                assert not out.exists()


def test_damaged_operands_and_names_are_passed_over(tmp_path: Path) -> None:
    """A TJ whose operand is null, an operator and a font name that are not UTF-8: the
    codes around them are still collected."""
    import pikepdf

    from pytest_textlayer.repairs import fontusage

    with pikepdf.open(io.BytesIO(generate("readable").pdf)) as pdf:
        page = pdf.pages[0]
        page.Contents.write(b"null TJ () \xd1\xd7 " + page.Contents.read_bytes())
        font = next(iter(page.Resources.Font.values()))
        font.BaseFont = pikepdf.Name(b"/Bad\xd7Name".decode("latin-1"))
        usages = fontusage.collect_fonts(pdf)
        assert sum(u.glyphs for u in usages.values()) > 50


def _slow_document(path: Path, pages: int = 2500) -> Path:
    """A document that takes tens of seconds to check: one broken page, copied many times."""
    import pikepdf

    with pikepdf.open(io.BytesIO(generate("differences-unnamed").pdf)) as pdf:
        for _ in range(pages):
            pdf.pages.append(pdf.pages[0])
        pdf.save(path)
    return path


def test_timeout_kills_a_slow_document_and_the_others_carry_on(tmp_path: Path) -> None:
    """A 2,500-page document (half a minute) against a 1 s limit: one line, the rest checked."""
    big = _slow_document(tmp_path / "big.pdf")
    good = generate("readable").write(tmp_path / "good.pdf")
    done = subprocess.run([*CMD, "check", "--json", "--timeout", "1", "-j", "2", str(big),
                           str(good)], capture_output=True, text=True, timeout=60)
    data = json.loads(done.stdout)
    slow, fine = data["documents"]
    assert done.returncode == 2
    assert slow["error"] == "took longer than the limit of 1 s (--timeout)"
    assert fine["ok"] is True
    assert done.stderr == ""


def test_a_quadratic_content_stream_is_stopped_by_the_limit() -> None:
    """A content stream whose digit run tokenizes in quadratic time: a report or the limit, fast."""
    import pikepdf

    with pikepdf.open(io.BytesIO(generate("readable").pdf)) as pdf:
        pdf.pages[0].obj["/Contents"] = pdf.make_stream(b"BT " + b"4" * 300_000 + b"H Tj ET")
        out = io.BytesIO()
        pdf.save(out)
    [outcome] = run_guarded([(out.getvalue(), "digits.pdf")], CheckSettings(),
                            limits=Limits(timeout=3))
    assert outcome.kind in (REPORT, INPUT, TIMEOUT)


def test_inflation_bomb_is_refused_without_inflating_it_whole() -> None:
    bomb = _with_bomb(generate("readable").pdf, 64 * MIB)
    assert len(bomb) < MIB
    forked_at = _resident()  # a forked worker starts with this process's pages resident
    [outcome] = run_guarded([(bomb, "bomb.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=8 * MIB))
    assert outcome.kind == INPUT
    assert outcome.report.error is not None
    assert "inflates to more than 8 MiB, over the limit (--max-stream-mb)" in outcome.report.error
    # The worker's growth, not its peak: an xdist worker forked it with 490 MiB resident.
    assert outcome.peak_rss - forked_at < 32 * MIB


def test_inflating_stops_counting_at_the_limit() -> None:
    import zlib

    data = zlib.compress(b"x" * (10 * MIB))
    flate = ["/FlateDecode"]
    assert decoded_size(data, flate, MIB) <= MIB + 4 * MIB
    assert decoded_size(data, flate, 20 * MIB) == 10 * MIB
    assert decoded_size(b"not zlib", flate, 100) == 0


def test_deflate_cannot_expand_past_the_ratio_precheck_relies_on() -> None:
    """precheck skips inflating streams too small to reach the limit: the bound must hold."""
    import zlib

    from pytest_textlayer.run.limits import MAX_DEFLATE_RATIO

    for level in (1, 6, 9):
        packed = zlib.compress(bytes(8 * MIB), level)
        assert len(packed) * MAX_DEFLATE_RATIO >= 8 * MIB
    small_bomb = _with_bomb(generate("readable").pdf, 3 * MIB)
    [outcome] = run_guarded([(small_bomb, "bomb.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=2 * MIB))
    assert outcome.report.error is not None
    assert "inflates to more than 2 MiB" in outcome.report.error


def test_memory_cap_turns_an_oversized_document_into_one_line() -> None:
    """With the stream limit off, a 96 MiB content stream meets a 160 MiB address-space cap."""
    bomb = _with_bomb(generate("readable").pdf, 96 * MIB)
    [outcome] = run_guarded([(bomb, "big.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=None, max_memory=160 * MIB,
                                          timeout=60))
    assert outcome.kind in (MEMORY, INPUT), (outcome.kind, outcome.report.error)
    assert outcome.report.error is not None and "\n" not in outcome.report.error


def test_page_limit_refuses_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    import pikepdf

    many = tmp_path / "many.pdf"
    with pikepdf.open(io.BytesIO(generate("readable").pdf)) as pdf:
        for _ in range(30):
            pdf.pages.append(pdf.pages[0])
        pdf.save(many)
    assert main(["check", "--max-pages", "10", str(many)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"textlayer: error: {many}: has 31 pages, over the limit of 10 (--max-pages)")
    assert main(["check", "--max-pages", "0", "--json", str(many)]) == 0


@pytest.mark.parametrize("flag", ["--timeout", "--max-memory", "--max-pages", "--max-stream-mb"])
def test_negative_limits_are_usage_errors(flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", flag, "-1", "x.pdf"]) == 2
    assert "limits must not be negative" in capsys.readouterr().err


# encrypted PDFs ---------------------------------------------------------------


@pytest.fixture(scope="module")
def encrypted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import pikepdf

    path = tmp_path_factory.mktemp("enc") / "locked.pdf"
    with pikepdf.open(io.BytesIO(generate("readable").pdf)) as pdf:
        pdf.save(path, encryption=pikepdf.Encryption(owner="owner-pw", user="s3cret", R=6))
    return path


def test_encrypted_pdf_without_password_is_a_clear_error(
    encrypted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--json", str(encrypted)]) == 2
    doc = json.loads(capsys.readouterr().out)["documents"][0]
    assert doc["error"] == "encrypted PDF (a password is needed)"


def test_wrong_password_is_the_same_clear_error(
    encrypted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--json", "--password", "nope", str(encrypted)]) == 2
    assert "encrypted PDF" in json.loads(capsys.readouterr().out)["documents"][0]["error"]


def test_password_opens_it(encrypted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", "--password", "s3cret", str(encrypted)]) == 0
    doc = json.loads(capsys.readouterr().out)["documents"][0]
    assert doc["pages"][0]["verdict"] == "readable"


# data safety -------------------------------------------------------------------


def test_check_leaves_inputs_byte_identical(tmp_path: Path) -> None:
    files = [generate(f).write(tmp_path / f"{f}.pdf") for f in ("readable", "severed", "pua")]
    damaged = tmp_path / "damaged.pdf"
    damaged.write_bytes(files[0].read_bytes()[:500])
    files.append(damaged)
    before = {p: (sha(p), p.stat().st_mtime_ns) for p in files}
    listing = sorted(os.listdir(tmp_path))
    done = subprocess.run([*CMD, "check", "-j", "2", "--jsonl", str(tmp_path / "run.jsonl"),
                           *map(str, files)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert {p: (sha(p), p.stat().st_mtime_ns) for p in files} == before
    assert sorted(os.listdir(tmp_path)) == sorted([*listing, "run.jsonl"])


def _ocr_job(tmp_path: Path, pages: int | None = None) -> tuple[Path, Path, dict[str, str]]:
    src = generate("image-only", pages=pages).write(tmp_path / "scan.pdf")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    return src, out_dir, env


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _wait_for_grandchild(pid: int, timeout: float) -> bool:
    """True once the repair worker (a child) has a child of its own (OCR started), False when
    the command ends first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():
            return False
        if any(_children(child) for child in _children(pid)):
            return True
        time.sleep(0.02)
    return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_interrupted_repair_leaves_no_output_and_no_temporary_files(
    tmp_path: Path, how: str
) -> None:
    import shutil
    import signal

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed")
    # Three pages: OCR runs for seconds after it starts, so the signal lands in the middle of
    # it; on one page a loaded machine could finish between the first OCR process and the kill.
    src, out_dir, env = _ocr_job(tmp_path, pages=3)
    before = sha(src)
    out = out_dir / "fixed.pdf"
    proc = subprocess.Popen(interruptible([*CMD, "repair", str(src), "-o", str(out), "--ocr",
                                           "force"]),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    started = _wait_for_grandchild(proc.pid, 60)
    proc.send_signal(getattr(signal, how))
    _, err = proc.communicate(timeout=60)
    if not started:
        pytest.skip("repair finished before OCR started: nothing to interrupt")
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert list(out_dir.iterdir()) == []
    assert list((tmp_path / "scratch").iterdir()) == []
    assert sha(src) == before


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_killed_ocr_processes_fail_the_repair_in_one_line(tmp_path: Path) -> None:
    """Every Tesseract run is killed as it starts: no output, no temporary files, one line.

    (Killing only one run is survivable: repair tries several OCR passes and
    may still succeed, which is right.)
    """
    import shutil
    import signal

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed")
    src, out_dir, env = _ocr_job(tmp_path)
    out = out_dir / "fixed.pdf"
    proc = subprocess.Popen([*CMD, "repair", str(src), "-o", str(out), "--ocr", "force"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    killed = 0
    while proc.poll() is None:
        killed += _kill_descendants(proc.pid, "tesseract", signal.SIGKILL)
        time.sleep(0.005)
    _, err = proc.communicate(timeout=120)
    if not killed:
        pytest.skip("no tesseract process appeared to kill")
    # 2, or 3 when the kill hit Tesseract's language listing (then read as a missing pack)
    assert proc.returncode in (2, 3), err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Tesseract" in err
    assert list(out_dir.iterdir()) == []
    assert list((tmp_path / "scratch").iterdir()) == []


def _kill_descendants(root: int, name: str, sig: int) -> int:
    killed = 0
    for pid in _descendants(root):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == name:
                os.kill(pid, sig)
                killed += 1
        except (OSError, ProcessLookupError):
            continue
    return killed


def _descendants(root: int) -> list[int]:
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        try:
            kids = [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            continue
        found.extend(kids)
        todo.extend(kids)
    return found


def test_an_uncompressed_stream_over_the_limit_is_refused_too() -> None:
    import pikepdf

    with pikepdf.open(io.BytesIO(generate("readable").pdf)) as pdf:
        pdf.pages[0].obj["/Contents"] = pdf.make_stream(b" " * (3 * MIB) + b"BT ET")
        out = io.BytesIO()
        pdf.save(out, compress_streams=False)
    [outcome] = run_guarded([(out.getvalue(), "plain.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=2 * MIB))
    assert outcome.kind == INPUT
    assert outcome.report.error is not None
    assert "is larger than 2 MiB, over the limit (--max-stream-mb)" in outcome.report.error


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_pipes_and_devices_are_refused_not_read_forever(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    good = generate("readable").write(tmp_path / "good.pdf")
    # Reading the pipe would block forever (it has no writer): returning at all is the proof.
    assert main(["check", "--json", str(fifo), os.devnull, str(good)]) == 2
    pipe, device, fine = json.loads(capsys.readouterr().out)["documents"]
    assert pipe["error"] == device["error"] == "not a regular file"
    assert fine["ok"] is True


def test_guard_checks_documents_one_by_one_and_replaces_a_killed_worker(tmp_path: Path) -> None:
    import threading

    from pytest_textlayer.run.workers import Guard

    slow = _slow_document(tmp_path / "slow.pdf")
    good = generate("readable").write(tmp_path / "good.pdf")
    # A live thread in the parent (as in a pytest-xdist worker) must not be forked with it.
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with Guard(CheckSettings(), limits=Limits(timeout=1)) as guard:
            first = guard.check((str(good), "good.pdf"))
            killed = guard.check(str(slow))
            again = guard.check(str(good))
            assert guard._ctx.get_start_method() == "forkserver"
    finally:
        stop.set()
        thread.join()
    assert first.kind == REPORT and first.report.ok and first.report.path == "good.pdf"
    assert killed.kind == TIMEOUT
    assert killed.report.error == "took longer than the limit of 1 s (--timeout)"
    assert again.kind == REPORT and again.report.ok


def test_a_damaged_file_message_names_no_memory_address(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"%PDF-1.4 nothing else")
    done = subprocess.run([*CMD, "check", "--json", str(junk)], capture_output=True, text=True,
                          timeout=60)
    [doc] = json.loads(done.stdout)["documents"]
    assert done.returncode == 2
    assert doc["error"].startswith("damaged PDF: ")
    assert "0x" not in doc["error"] and "BytesIO" not in doc["error"]
    assert "<input>" not in doc["error"]  # nor the name qpdf gives a file read in place


def test_the_name_qpdf_gives_a_file_is_taken_from_the_head_of_its_message_only() -> None:
    from pytest_textlayer.pdf.source import one_line

    assert one_line(ValueError("/x/a.pdf: unable to find trailer"), Path("/x/a.pdf")) == (
        "unable to find trailer")
    damaged = ValueError("1 (object 1 0, offset 15): stream inflate: 1 error")
    assert one_line(damaged, "1") == "(object 1 0, offset 15): stream inflate: 1 error"


def test_a_broken_page_tree_is_refused_without_the_name_qpdf_gives_the_file(
        tmp_path: Path) -> None:
    """qpdf raises from the page tree with the file's path first: the refusal names the file
    once, as every other one does."""
    from pytest_textlayer.pdf.source import read_source
    from pytest_textlayer.run.limits import vet_opened

    path = generate("readable").write(tmp_path / "tree.pdf")

    class BrokenTree:  # a failure path qpdf rarely takes: it finds most loops when opening
        filename = str(path)

        @property
        def pages(self) -> list[object]:
            raise ValueError(f"{path} (object 2 0): Loop detected in /Pages structure")

    with pytest.raises(InputError) as refused:
        vet_opened(BrokenTree(), read_source(path), Limits(max_pages=10), streams=False)
    assert str(refused.value) == (f"{path}: page tree cannot be read: (object 2 0): "
                                  "Loop detected in /Pages structure")


def test_a_file_gone_after_its_header_was_read_is_a_one_line_error(tmp_path: Path) -> None:
    """A file is read where it lies, after its header was vetted: one that went away in
    between is refused in one line, as a missing file is."""
    from pytest_textlayer.judge.classifier import classify_or_raise
    from pytest_textlayer.pdf.source import read_source

    path = generate("readable").write(tmp_path / "gone.pdf")
    source = read_source(path)
    path.unlink()
    with pytest.raises(InputError) as refused:
        classify_or_raise(source)
    assert str(refused.value) == f"{path}: no such file"


@pytest.mark.parametrize("how", ["rewritten", "replaced"])
def test_a_file_changed_while_it_is_checked_is_a_one_line_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """qpdf and PDFium read the file part by part as the check goes: a file written again
    meanwhile (in place, or a new file renamed over it) would be reported from parts of two
    documents, so none is reported."""
    from pytest_textlayer.judge.classifier import classify, classify_or_raise
    from pytest_textlayer.pdf import pagescan

    path = generate("readable", pages=3).write(tmp_path / "moving.pdf")
    real_scan = pagescan.scan_page
    changes: list[Path] = []

    def scan_then_change(pdf: object, index: int, *rest: object) -> object:
        if not changes:  # the same document with a comment after it: still readable as it was
            changes.append(path)
            data = path.read_bytes() + b"\n% written again\n"
            if how == "rewritten":
                path.write_bytes(data)
            else:
                (tmp_path / "new.pdf").write_bytes(data)
                os.replace(tmp_path / "new.pdf", path)
        return real_scan(pdf, index, *rest)

    monkeypatch.setattr(pagescan, "scan_page", scan_then_change)
    with pytest.raises(InputError) as refused:
        classify_or_raise(path)
    assert str(refused.value) == (f"{path}: changed while it was being checked; "
                                  "check it again once it is written")
    changes.clear()
    report = classify(path)
    assert report.error is not None and not report.pages
    monkeypatch.setattr(pagescan, "scan_page", real_scan)
    assert classify(path).error is None  # left alone, the file as it now is checks as before


def test_repair_past_its_time_limit_stops_in_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    slow = _slow_document(tmp_path / "slow.pdf")
    before = sha(slow)
    out_dir, scratch = tmp_path / "out", tmp_path / "scratch"
    out_dir.mkdir()
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    done = subprocess.run([*CMD, "repair", str(slow), "-o", str(out_dir / "fixed.pdf"),
                           "--ocr", "never", "--timeout", "1"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 2
    assert done.stderr == (f"textlayer: error: {slow}: took longer than the limit of 1 s "
                           "(--timeout)\n")
    assert list(out_dir.iterdir()) == [] and list(scratch.iterdir()) == []
    assert sha(slow) == before


def test_repair_over_its_memory_limit_stops_in_one_line(tmp_path: Path) -> None:
    bomb = tmp_path / "big.pdf"
    bomb.write_bytes(_with_bomb(generate("severed").pdf, 400 * MIB))
    out = tmp_path / "fixed.pdf"
    done = subprocess.run([*CMD, "repair", str(bomb), "-o", str(out), "--ocr", "never",
                           "--max-memory", "160"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"textlayer: error: {bomb}: ")
    assert not out.exists()


def test_repair_limits_must_not_be_negative(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["repair", "in.pdf", "-o", "out.pdf", "--timeout", "-1"]) == 2
    assert "limits must not be negative" in capsys.readouterr().err


def test_a_long_repair_shows_the_seconds_on_a_terminal_only(tmp_path: Path) -> None:
    from _terminal import run_on_a_terminal, screen

    slow = _slow_document(tmp_path / "slow.pdf")
    args = [*CMD, "repair", str(slow), "-o", str(tmp_path / "fixed.pdf"), "--ocr", "never",
            "--timeout", "4"]
    status, text = run_on_a_terminal(args)
    assert status == 2
    assert "textlayer: repairing " in text and slow.name in text
    # the seconds tick while it runs (how many ticks a loaded machine shows varies)
    assert re.search(r"repairing .*slow\.pdf \(\d+ s\)", text), text
    # and are erased: the screen keeps only the error
    assert [line for line in screen(text) if line] == [
        f"textlayer: error: {slow}: took longer than the limit of 4 s (--timeout)"]
    piped = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert piped.stderr == (f"textlayer: error: {slow}: took longer than the limit of 4 s "
                            "(--timeout)\n")


def _double_bomb(size: int) -> bytes:
    """A readable page whose content stream is deflated twice: tiny on disk, `size` inside."""
    import io
    import zlib

    import pikepdf

    pdf = pikepdf.open(io.BytesIO(generate("readable").pdf))
    inner = zlib.compress(b" " * size, 9)
    stream = pikepdf.Stream(pdf, zlib.compress(inner, 9))
    stream.Filter = pikepdf.Array([pikepdf.Name.FlateDecode, pikepdf.Name.FlateDecode])
    pdf.pages[0].Contents = pdf.make_indirect(stream)
    out = io.BytesIO()
    pdf.save(out, compress_streams=False)
    return out.getvalue()


def test_a_chain_of_deflates_is_bounded_by_what_it_inflates_to() -> None:
    """The issue's bomb: /Filter [/FlateDecode /FlateDecode], 18 KB on disk, GiB inside."""
    bomb = _double_bomb(256 * MIB)
    assert len(bomb) < 64 * 1024
    forked_at = _resident()  # a forked worker starts with this process's pages resident
    [outcome] = run_guarded([(bomb, "bomb.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=8 * MIB))
    assert outcome.kind == INPUT and outcome.report.error is not None
    assert "inflates to more than 8 MiB" in outcome.report.error
    assert outcome.peak_rss - forked_at < 128 * MIB  # the inner layer alone is 256 MiB


def _resident() -> int:
    """This process's resident memory now, in bytes (the peak a test process reached can be
    far above it, and says nothing of what a worker forked now will add)."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_every_decoder_of_the_precheck_agrees_with_qpdf() -> None:
    import pikepdf

    text = b"The committee reviewed the annual report. " * 400 + bytes(range(256)) * 30
    run_length = bytes([2]) + b"abc" + bytes([256 - 99, ord("z")]) + bytes([128])
    hexed = text[:500].hex().encode() + b">"
    cases = [(["/LZWDecode"], _lzw_encode(text)), (["/RunLengthDecode"], run_length),
             (["/ASCIIHexDecode"], hexed)]
    pdf = pikepdf.new()
    for names, raw in cases:
        stream = pikepdf.Stream(pdf, raw)
        stream.Filter = pikepdf.Array([pikepdf.Name(n) for n in names])
        decoded = stream.read_bytes(pikepdf.StreamDecodeLevel.all)
        assert decoded_size(raw, names, 10 * MIB) == len(decoded), names
    assert decoded_size(_lzw_encode(text), ["/LZWDecode"], 1000) <= 1000 + 4096


def _font_bomb(size: int) -> bytes:
    """The severed fixture with its font program swapped for /FlateDecode twice over ``size``."""
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(generate("severed").pdf))
    [font] = pdf.pages[0].Resources.Font.values()
    descriptor = font.DescendantFonts[0].FontDescriptor
    stream = pikepdf.Stream(pdf, zlib.compress(zlib.compress(b"\0" * size, 9), 9))
    stream.Filter = pikepdf.Array([pikepdf.Name.FlateDecode, pikepdf.Name.FlateDecode])
    descriptor.FontFile2 = pdf.make_indirect(stream)
    out = io.BytesIO()
    pdf.save(out, compress_streams=False)
    return out.getvalue()


def test_a_bomb_in_a_font_program_is_refused_where_the_walk_reads_it() -> None:
    """Streams are measured as they are read: a font program, not only a content stream."""
    bomb = _font_bomb(64 * MIB)
    forked_at = _resident()
    [outcome] = run_guarded([(bomb, "font.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=8 * MIB))
    assert outcome.kind == INPUT and outcome.report.error is not None
    assert outcome.report.path == "font.pdf"
    assert "inflates to more than 8 MiB, over the limit (--max-stream-mb)" in outcome.report.error
    assert outcome.peak_rss - forked_at < 128 * MIB


def test_a_bomb_no_page_reads_costs_check_nothing_and_is_refused_by_repair() -> None:
    """`check` measures what its walk reads; `repair` hands qpdf the whole file: it measures
    every stream first (precheck)."""
    import pikepdf

    from pytest_textlayer.pdf.source import read_source
    from pytest_textlayer.run.limits import precheck

    pdf = pikepdf.open(io.BytesIO(generate("readable").pdf))
    stream = pikepdf.Stream(pdf, zlib.compress(zlib.compress(b"\0" * (64 * MIB), 9), 9))
    stream.Filter = pikepdf.Array([pikepdf.Name.FlateDecode, pikepdf.Name.FlateDecode])
    pdf.Root.Unread = pdf.make_indirect(stream)  # referenced, never drawn
    out = io.BytesIO()
    pdf.save(out, compress_streams=False)
    data = out.getvalue()
    [outcome] = run_guarded([(data, "unread.pdf")], CheckSettings(),
                            limits=Limits(max_stream_bytes=8 * MIB))
    assert outcome.kind == REPORT, outcome.report.error
    assert [p.verdict.value for p in outcome.report.pages] == ["readable"]
    with pytest.raises(InputError, match="inflates to more than 8 MiB"):
        precheck(read_source(data, "unread.pdf"), Limits(max_stream_bytes=8 * MIB))


def _lzw_encode(data: bytes, early: int = 1) -> bytes:
    """PDF's LZW (codes of 9 to 12 bits, ``/EarlyChange`` ``early``), a clear code first."""
    table = {bytes([i]): i for i in range(256)}
    next_code, width = 258, 9
    codes = [(256, 9)]
    word = b""
    for byte in data:
        longer = word + bytes([byte])
        if longer in table:
            word = longer
            continue
        codes.append((table[word], width))
        if next_code < 4096:
            table[longer] = next_code
            next_code += 1
            if next_code >= (1 << width) + 1 - early and width < 12:
                width += 1
        word = bytes([byte])
    codes += [(table[word], width), (257, width)]
    value = bits = 0
    out = bytearray()
    for code, size in codes:
        value, bits = value << size | code, bits + size
        while bits >= 8:
            bits -= 8
            out.append(value >> bits & 0xFF)
    if bits:
        out.append(value << (8 - bits) & 0xFF)
    return bytes(out)


def test_an_lzw_stream_past_deflates_ratio_is_still_measured() -> None:
    """LZW expands up to 2,560:1, past deflate's 1,032:1: a lone LZW stream too small to
    reach the limit by deflate's bound is decoded and counted, not waved through."""
    import pikepdf

    from pytest_textlayer.pdf.streamguard import MAX_DEFLATE_RATIO, _lzw, oversized

    plain = bytes(4 * MIB)
    packed = _lzw_encode(plain)
    assert _lzw(packed, 8 * MIB) == plain  # the encoder speaks the guard's LZW
    limit = len(packed) * MAX_DEFLATE_RATIO + 1
    assert limit < len(plain)
    with pikepdf.new() as pdf:
        stream = pikepdf.Stream(pdf, packed)
        stream.Filter = pikepdf.Name.LZWDecode
        assert bytes(stream.read_bytes()) == plain  # qpdf decodes it so too
        assert oversized(stream, limit) == "inflates to more than"
        assert oversized(stream, len(plain)) is None


def test_an_lzw_stream_is_measured_with_its_own_early_change() -> None:
    """``/EarlyChange 0`` widens codes one entry later: measured as EarlyChange 1, a 4 MiB
    stream decoded to a few bytes and passed any limit, and qpdf then decoded it whole."""
    import pikepdf

    from pytest_textlayer.pdf.streamguard import _lzw, oversized

    plain = bytes(4 * MIB)
    packed = _lzw_encode(plain, early=0)
    assert _lzw(packed, 8 * MIB, 0) == plain
    with pikepdf.new() as pdf:
        stream = pikepdf.Stream(pdf, zlib.compress(packed))
        stream.Filter = pikepdf.Array([pikepdf.Name.FlateDecode, pikepdf.Name.LZWDecode])
        stream.DecodeParms = pikepdf.Array([pikepdf.Dictionary(),
                                            pikepdf.Dictionary(EarlyChange=0)])
        assert bytes(stream.read_bytes()) == plain
        assert oversized(stream, MIB) == "inflates to more than"
        assert oversized(stream, len(plain)) is None


def test_an_lzw_stream_past_a_full_table_is_measured_where_qpdf_stops_reading_it() -> None:
    """Codes past a full table without a clear code: qpdf refuses the stream there ("table
    full"), so measuring it further only measured what no reader gives."""
    import random

    import pikepdf

    from pytest_textlayer.pdf.streamguard import _lzw

    plain = random.Random(7).randbytes(20_000)  # new pairs all along: the table fills
    packed = _lzw_encode(plain)  # keeps coding past the full table, as a damaged writer does
    with pikepdf.new() as pdf:
        stream = pikepdf.Stream(pdf, packed)
        stream.Filter = pikepdf.Name.LZWDecode
        with pytest.raises(RuntimeError, match="table full"):  # qpdf's own words
            stream.read_bytes()
    measured = _lzw(packed, 8 * MIB)
    assert 0 < len(measured) < len(plain) and plain.startswith(measured)
    assert _lzw(_lzw_encode(plain[:2_000]), 8 * MIB) == plain[:2_000]  # a table not full


# The worker must be forked from this process (it runs the function patched here): a test
# process with other threads starts its workers from a fork server instead.
@pytest.mark.fresh_process
def test_a_worker_collects_young_garbage_less_often_and_the_caller_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A check makes millions of short-lived objects and almost no cycles: the guarded worker
    runs the cyclic collector less often; the process that started it keeps its own setting."""
    import gc

    from pytest_textlayer.model import DocumentReport
    from pytest_textlayer.run import workers

    def report_threshold(pdf: object, *args: object) -> workers.Outcome:
        return workers.Outcome(0, DocumentReport(path=str(gc.get_threshold()[0])), REPORT,
                               0.0, 0)

    monkeypatch.setattr(workers, "check_one", report_threshold)  # the forked worker runs it
    before = gc.get_threshold()
    (outcome,) = run_guarded([generate("readable").pdf], CheckSettings())
    assert outcome.report.path == str(workers.YOUNG_COLLECTION) != str(before[0])
    assert gc.get_threshold() == before
