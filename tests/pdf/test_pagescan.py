"""A long document's pages walked by two processes give the report one process gives."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from _spies import spy

from pytest_textlayer.cli import main
from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.pdf import pagescan
from pytest_textlayer.pdf.content import scan_page
from pytest_textlayer.settings import CheckSettings


def _two_cores() -> bool:
    return (sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) >= 2
            and pagescan.cpu_quota() >= 2)


# Other threads (left by other tests in this worker) would rightly keep the helper from
# starting: these tests then run in a fresh interpreter (tests/conftest.py).
pytestmark = [pytest.mark.skipif(not _two_cores(), reason="needs Linux and two usable cores"),
              pytest.mark.fresh_process]

@pytest.fixture(autouse=True)
def _helper_whatever_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests run beside others, which load the machine: the helper is asked for."""
    monkeypatch.setenv(pagescan.ENV, "1")


#: Every verdict the generators make, several times over: more pages than MIN_PAGES, fonts
#: shared across pages (FontTrust carries what earlier pages proved) and broken ones.
FAMILIES = ["readable", "severed", "shifted", "scrambled", "pua", "image-only", "blank",
            "partial", "mixed-fonts", "collapsed"] * 3


@pytest.fixture(scope="module")
def long_mixed() -> bytes:
    return generate("mixed", families=FAMILIES).pdf


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts helper starts (the real start runs: this only listens)."""
    started: list[int] = []
    real = pagescan._Helper.start

    def counted(qpdf: Any, indices: list[int], cache: dict[Any, Any], *rest: Any) -> Any:
        started.append(len(indices))
        return real(qpdf, indices, cache, *rest)

    monkeypatch.setattr(pagescan._Helper, "start", staticmethod(counted))
    return started


def test_a_helper_gives_the_report_one_process_gives(long_mixed: bytes,
                                                     starts: list[int]) -> None:
    alone = classify(long_mixed)
    shared = classify(long_mixed, page_helper=True)
    assert starts == [len(FAMILIES) - 1]  # it may take any page after the first
    assert shared.to_dict() == alone.to_dict()
    assert len({p.verdict for p in shared.pages}) >= 5  # the shared pages were really judged


def test_a_file_read_in_place_gives_both_processes_their_own_places(
        long_mixed: bytes, tmp_path: Path, starts: list[int]) -> None:
    """The helper is a fork: had the two processes shared one file position, each would
    read the other's objects."""
    path = tmp_path / "long.pdf"
    path.write_bytes(long_mixed)
    shared = classify(path, page_helper=True)
    assert starts == [len(FAMILIES) - 1]
    assert shared.to_dict()["pages"] == classify(long_mixed).to_dict()["pages"]


def test_the_helper_judges_the_pages_that_need_no_earlier_page(
        long_mixed: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    received: list[str] = []
    real = pagescan._Helper.receive

    def listening(self: Any, index: int) -> Any:
        got = real(self, index)
        received.append(type(got).__name__)
        return got

    monkeypatch.setattr(pagescan._Helper, "receive", listening)
    shared = classify(long_mixed, page_helper=True)
    assert shared.to_dict() == classify(long_mixed).to_dict()
    # sound pages come back judged; failing ones as facts, judged here in order
    assert received.count("Judged") >= 2
    assert received.count("PageContent") >= 2


def test_no_shared_semaphore_keeps_one_process(long_mixed: bytes, starts: list[int],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A container without /dev/shm refuses the claims' lock: the document is checked in
    one process, with the same report."""
    def refused(self: Any, count: int) -> None:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(pagescan._Claims, "__init__", refused)
    assert classify(long_mixed, page_helper=True).to_dict() == classify(long_mixed).to_dict()
    assert starts == []


def test_few_pages_and_the_environment_switch_keep_one_process(
        long_mixed: bytes, starts: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    few = generate("mixed", families=FAMILIES[:5]).pdf
    classify(few, page_helper=True)
    monkeypatch.setenv(pagescan.ENV, "0")
    classify(long_mixed, page_helper=True)
    classify(long_mixed)  # the default: a library call never forks
    assert starts == []


def test_no_helper_while_another_thread_runs() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not pagescan.helper_possible(1000)
    finally:
        stop.set()
        other.join()
    assert pagescan.helper_possible(1000)


def test_a_page_selection_is_shared_too(long_mixed: bytes, starts: list[int],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pagescan, "MIN_PAGES", 4)
    settings = CheckSettings(pages=frozenset({2, 3, 5, 8, 13, 21, 27}))
    shared = classify(long_mixed, settings=settings, page_helper=True)
    assert starts == [6]  # every selected page after the first
    assert [p.number for p in shared.pages] == [2, 3, 5, 8, 13, 21, 27]
    assert shared.to_dict() == classify(long_mixed, settings=settings).to_dict()


def _stops_after(pages: int, how: str) -> Any:
    """The helper ends after `pages` pages; a crash takes one more page first and sends
    nothing for it (a page it had taken and never finished)."""
    real = pagescan._serve

    def serve(conn: Any, qpdf: Any, indices: list[int], cache: Any, claims: Any,
              *rest: Any) -> None:
        taken = 0
        take = claims.take_last

        def take_some() -> int | None:
            nonlocal taken
            taken += 1
            return take() if taken <= pages else None

        claims.take_last = take_some
        real(conn, qpdf, indices, cache, claims, *rest)
        if how == "crash":
            assert take() is not None
            os.kill(os.getpid(), signal.SIGKILL)  # as a reader crash or the OOM killer ends it

    return serve


@pytest.mark.parametrize("how", ["exit", "crash"])
def test_a_helper_that_dies_hands_its_pages_back(long_mixed: bytes, starts: list[int],
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 how: str) -> None:
    monkeypatch.setattr(pagescan, "_serve", _stops_after(3, how))
    shared = classify(long_mixed, page_helper=True)
    assert starts
    assert shared.to_dict() == classify(long_mixed).to_dict()


def test_the_helper_judges_ahead_the_words_of_pages_it_sends_in_order(
        starts: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """An invisible OCR layer is judged by language, in order: the helper sends such a page
    as facts with the judgements of its words, and this process takes them instead of
    judging the same words again."""
    from pytest_textlayer.lang import ahead, langmodel

    document = generate("mixed", families=["readable", "image-with-ocr-layer", "blank"] * 10).pdf
    asked = spy(monkeypatch, ahead, "take", lambda key: key in ahead._given)
    made_here = spy(monkeypatch, langmodel, "_judge")  # this process's: the helper's is a copy
    shared = classify(document, page_helper=True)
    taken = sum(asked)
    assert starts and taken, "no judgement was made ahead"
    made_shared = len(made_here)
    made_here.clear()
    assert classify(document).to_dict() == shared.to_dict()
    # every judgement of the pages judged in order was made here or taken, never both
    assert made_shared + taken == len(made_here)


def _rebuilt_mid_read(pages: int = 30) -> bytes:
    """A file whose cross-reference table is wrong for one object only, met on the last
    page's resources: qpdf rebuilds its table when it reads that object, and from then on
    page 1's content, defined twice in the file, reads as the later definition."""
    def stream(text: str) -> bytes:
        return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text.encode())

    kids = " ".join(f"{10 + i} 0 R" for i in range(pages))
    objects: list[tuple[int, bytes]] = [
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
        (2, f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode()),
        (5, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
    ]
    for i in range(pages):
        extra = " /XObject << /X1 40 0 R >>" if i == pages - 1 else ""
        objects.append((10 + i, (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                                 f"/Resources << /Font << /F1 5 0 R >>{extra} >> "
                                 f"/Contents {50 + i} 0 R >>").encode()))
        objects.append((50 + i, stream(f"BT /F1 12 Tf 72 700 Td (The quick brown fox jumps "
                                       f"over the lazy dog, page {i + 1}) Tj ET")))
    objects.append((40, stream("").replace(b"<<", b"<< /Type /XObject /Subtype /Form "
                                                 b"/BBox [0 0 1 1]", 1)))
    objects.append((50, stream("BT /F1 12 Tf 72 700 Td (Zq xv Qj wk zzxq vvq) Tj ET")))
    out = bytearray(b"%PDF-1.4\n")
    offsets: dict[int, int] = {}
    for number, body in objects:
        offsets.setdefault(number, len(out))  # the table names the first definition
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    offsets[40] = offsets[5]  # the one wrong entry
    size = max(offsets) + 1
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        out += (b"%010d 00000 n \n" % offsets[number] if number in offsets
                else b"0000000000 65535 f \n")
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, table)
    return bytes(out)


def test_a_file_qpdf_rebuilds_while_reading_gets_one_report(starts: list[int]) -> None:
    """What a damaged file's objects read as can depend on what was read before them: the
    helper forks after the pass over every page's resources, so both processes read on from
    the state one process would be in."""
    document = _rebuilt_mid_read()
    shared = classify(document, page_helper=True)
    assert starts
    alone = classify(document)
    assert shared.to_dict() == alone.to_dict()
    assert shared.pages[0].sample == alone.pages[0].sample


def test_a_page_the_helper_cannot_read_costs_that_page_as_in_one_process(
        long_mixed: bytes, starts: list[int]) -> None:
    pdf = pikepdf.open(io.BytesIO(long_mixed))
    bad = pikepdf.Stream(pdf, b"this is not deflated")
    bad.Filter = pikepdf.Name.FlateDecode
    pdf.pages[-1].obj.Contents = bad  # the helper's first page: it starts from the end
    out = io.BytesIO()
    pdf.save(out)
    shared = classify(out.getvalue(), page_helper=True)
    assert starts
    assert shared.error is None
    page = shared.pages[-1]
    assert page.verdict.value == "undecodable" and page.decided_by == "readers"
    assert page.evidence[0].startswith(
        f"qpdf cannot read this page (page {len(FAMILIES)}: content stream")
    assert "PDFium" in page.evidence[0]
    assert [p.verdict.value for p in shared.pages[:5]] == \
        [p.verdict.value for p in classify(long_mixed).pages[:5]]
    assert shared.to_dict() == classify(out.getvalue()).to_dict()


def test_the_command_line_shares_a_long_document(tmp_path: Path, long_mixed: bytes,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`textlayer check` on one file lets its worker use a helper; the report is the same."""
    path = tmp_path / "long.pdf"
    path.write_bytes(long_mixed)
    assert main(["check", "--json", str(path)]) == 1
    shared = capsys.readouterr().out
    os.environ[pagescan.ENV] = "0"
    try:
        assert main(["check", "--json", str(path)]) == 1
    finally:
        del os.environ[pagescan.ENV]
    assert capsys.readouterr().out == shared


def test_a_helper_dies_with_its_parent(tmp_path: Path) -> None:
    """A worker killed at its deadline leaves no helper behind (PR_SET_PDEATHSIG)."""
    script = textwrap.dedent("""
        import sys, time
        from pytest_textlayer.pdf import pagescan
        pagescan.scan_page = lambda *args: time.sleep(600)  # a page that never ends
        helper = pagescan._Helper.start(None, [1], {}, pagescan._Claims(1))
        print(helper.pid, flush=True)
        time.sleep(600)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        helper = int(parent.stdout.readline())
        assert _alive(helper)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 30
    while _alive(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(helper)


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


def test_the_plugins_guard_shares_a_long_document(long_mixed: bytes, tmp_path: Path) -> None:
    """Collected PDFs are checked by a Guard's worker, which may use a helper too."""
    from pytest_textlayer.run.workers import Guard

    path = tmp_path / "long.pdf"
    path.write_bytes(long_mixed)
    with Guard(CheckSettings(), page_helper=True) as shared, Guard(CheckSettings()) as alone:
        assert (shared.check(str(path)).report.to_dict()
                == alone.check(str(path)).report.to_dict())


@pytest.mark.parametrize(("text", "cores"), [("max 100000\n", float("inf")),
                                              ("100000 100000\n", 1.0),
                                              ("250000 100000\n", 2.5),
                                              ("garbage", float("inf"))])
def test_a_cgroup_quota_counts_as_cores(tmp_path: Path, text: str, cores: float) -> None:
    """`docker --cpus=1` on a many-core host: one core, so no helper."""
    path = tmp_path / "cpu.max"
    path.write_text(text)
    assert pagescan.cpu_quota(str(path)) == cores
    assert pagescan.cpu_quota(str(tmp_path / "absent")) == float("inf")


def test_a_one_core_quota_starts_no_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pagescan, "cpu_quota", lambda: 1.0)
    assert not pagescan.helper_possible(1000)


def test_the_two_processes_take_every_page_once() -> None:
    """Pages are taken from both ends at once; every one is taken by exactly one side."""
    count = 20000
    claims = pagescan._Claims(count)
    ready, results = os.pipe(), os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper's side
        taken = []
        os.write(ready[1], b"go")
        while (position := claims.take_last()) is not None:
            taken.append(position)
        with os.fdopen(results[1], "w") as out:
            out.write(",".join(map(str, taken)))
        os._exit(0)
    os.close(results[1])
    os.read(ready[0], 2)  # both sides take at once
    mine = []
    while (position := claims.take_first()) is not None:
        mine.append(position)
    with os.fdopen(results[0]) as got:  # read to the end before waiting: the pipe is small
        theirs = [int(p) for p in got.read().split(",") if p]
    os.waitpid(pid, 0)
    for fd in ready:
        os.close(fd)
    assert mine and theirs
    assert mine == list(range(len(mine)))  # from the start, in order
    assert theirs == list(range(count - 1, count - 1 - len(theirs), -1))  # from the end
    assert len(mine) + len(theirs) == count and claims.met() == len(mine)
    claims.close()


def test_the_helper_analyses_the_fonts_of_its_own_pages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fonts are not all analysed before the fork: a document joined from parts rarely shares
    them, and the helper, taking pages from the end, analyses the last part's itself."""
    part = generate("readable", producer="ttf", pages=15).pdf
    joined = pikepdf.new()
    for _ in range(2):  # the same file twice: each copy's fonts are objects of their own
        joined.pages.extend(pikepdf.open(io.BytesIO(part)).pages)
    out = io.BytesIO()
    joined.save(out)
    log = tmp_path / "analysed"
    real = scan_page

    def logged(qpdf: Any, index: int, cache: dict[Any, Any], *rest: Any) -> Any:
        before = set(cache)
        found = real(qpdf, index, cache, *rest)
        with log.open("a") as fh:  # from either process
            fh.writelines(f"{os.getpid()} {key}\n" for key in set(cache) - before
                          if isinstance(key, tuple))
        return found

    monkeypatch.setattr(pagescan, "scan_page", logged)
    shared = classify(out.getvalue(), page_helper=True)
    assert shared.to_dict() == classify(out.getvalue()).to_dict()
    saved = pikepdf.open(io.BytesIO(out.getvalue()))
    last_fonts = {str(font.objgen) for font in saved.pages[-1].Resources.Font.values()}
    by_helper = {key for pid, key in (line.split(" ", 1) for line in log.read_text().splitlines())
                 if int(pid) != os.getpid()}
    assert last_fonts and last_fonts <= by_helper


def test_no_helper_on_a_busy_machine_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a core to spare the helper only takes turns with its parent."""
    cores = min(len(os.sched_getaffinity(0)), pagescan.cpu_quota())
    monkeypatch.delenv(pagescan.ENV)
    monkeypatch.setattr(pagescan, "load_average", lambda: cores + 2.0)
    assert not pagescan.helper_possible(1000)
    monkeypatch.setattr(pagescan, "load_average", lambda: cores - 0.5)
    assert pagescan.helper_possible(1000)
    monkeypatch.setattr(pagescan, "load_average", lambda: cores + 2.0)
    monkeypatch.setenv(pagescan.ENV, "1")
    assert pagescan.helper_possible(1000)


def test_pages_sent_as_facts_get_this_sides_fonts_while_the_helper_still_walks() -> None:
    """A page the helper could not judge is judged here once the two meet; its fonts are
    analysed as soon as it arrives, while the helper walks on, not in that serial tail."""
    from multiprocessing import Pipe

    pdf = pikepdf.open(io.BytesIO(generate("readable", pages=3).pdf))
    here, there = Pipe(duplex=False)
    helper = pagescan._Helper(0, here)
    facts = pagescan._portable(scan_page(pdf, 2, {}))
    assert facts is not None and all(use.font is None for use in facts.fonts)
    there.send((1, pagescan.Judged("report", False)))
    there.send((2, facts))
    helper.collect()
    cache: dict[Any, Any] = {}
    adopted: list[Any] = []

    def adopt(content: Any) -> Any:
        adopted.append(content)
        return pagescan._adopt(content, pdf, cache)

    helper.adopt_facts(adopt)
    assert adopted == [helper.sent[2]]  # the facts, not the judged page
    assert all(use.font is cache[use.font_key] for use in helper.sent[2].fonts)
    helper.adopt_facts(adopt)
    assert len(adopted) == 1  # once
    assert helper.receive(2) is adopted[0]  # the page the judging then gets, fonts and all
    there.close()
    here.close()
