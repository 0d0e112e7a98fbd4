"""repair(): the right /ToUnicode from the file itself, checked by real readers.

No Tesseract here (``ocr="never"``): these are the repairs a file can get
from its own contents. The OCR paths are in test_repair_ocr.py.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import os
import subprocess
from pathlib import Path

import pytest
from test_repair_pdfs import DEJAVU, healthy_pdf, severed_pdf

from pytest_textlayer.errors import ExitCode, InputError, UsageError
from pytest_textlayer.model import Verdict
from pytest_textlayer.repairs.repairer import repair

pytestmark = pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")

PAGES = [
    "Le cœur a ses raisons que la raison\nne connaît point. On le sent en mille\n"
    "choses. C’est le cœur qui sent Dieu,\net non la raison.",
    "Voilà ce que c’est que la foi : Dieu\nsensible au cœur, non à la raison.\n"
    "La dernière démarche de la raison est\nde reconnaître qu’il y a une infinité\nde choses.",
]

#: family -> (glyph order, what the program keeps, source the repair must name)
FAMILIES = {
    "severed-recoverable-cmap": ("first-use", "cmap", "cmap"),
    "severed-recoverable-post": ("mac-standard", "post", "post"),
    "severed-mac-standard": ("mac-standard", "none", "mac-standard"),
}


def _words(text: str) -> list[str]:
    return text.replace("\u00a0", " ").split()


def _poppler(path: Path) -> list[str]:
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [p for p in out.split("\f")][: len(PAGES)]


def _pdfium(path: Path) -> list[str]:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def _pypdf(path: Path) -> list[str]:
    import pypdf

    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages]


def _renders(path: Path) -> list[bytes]:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(path))
    try:
        return [page.render(scale=1.5).to_pil().convert("L").tobytes() for page in doc]
    finally:
        doc.close()


@pytest.fixture(scope="module")
def repaired(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, object]]:
    """Each family written and repaired once for the whole module."""
    out: dict[str, tuple[Path, Path, object]] = {}
    folder = tmp_path_factory.mktemp("repair")
    for family, (order, keep, _) in FAMILIES.items():
        src = folder / f"{family}.pdf"
        src.write_bytes(severed_pdf(PAGES, order=order, keep=keep))
        dst = folder / f"{family}-fixed.pdf"
        out[family] = (src, dst, repair(src, dst, ocr="never"))
    return out


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_reader_extracts_the_truth_after_repair(repaired, family: str) -> None:
    src, dst, report = repaired[family]
    for reader in (_poppler, _pdfium, _pypdf):
        assert [_words(t) for t in reader(src)] != [_words(t) for t in PAGES], reader.__name__
        assert [_words(t) for t in reader(dst)] == [_words(t) for t in PAGES], reader.__name__


@pytest.mark.parametrize("family", list(FAMILIES))
def test_report_names_the_source_and_the_new_verdicts(repaired, family: str) -> None:
    _, dst, report = repaired[family]
    source = FAMILIES[family][2]
    assert report.ok
    assert report.written
    assert [p.action for p in report.pages] == ["tounicode", "tounicode"]
    assert all(p.sources == (source,) for p in report.pages)
    assert all(p.before is not Verdict.READABLE for p in report.pages)
    assert all(p.after is Verdict.READABLE for p in report.pages)
    assert [_words(p.sample_after) for p in report.pages] == [_words(t) for t in PAGES]
    [font] = report.fonts
    assert font.source == source and font.fixed_glyphs == font.bad_glyphs == font.glyphs
    assert report.ocr is None
    data = json.loads(json.dumps(report.to_dict()))
    assert data["ok"] is True and data["pages"][0]["action"] == "tounicode"
    assert data["pages"][0]["verdict"] == "readable" and data["fonts"][0]["source"] == source
    text = "\n".join(report.render_lines())
    assert text.startswith(f"Repaired: {dst}") and f"from {source}" in text


@pytest.mark.parametrize("family", list(FAMILIES))
def test_pages_render_as_before_and_size_barely_grows(repaired, family: str) -> None:
    src, dst, _ = repaired[family]
    assert _renders(dst) == _renders(src)
    assert dst.stat().st_size <= 1.1 * src.stat().st_size


def test_readable_pages_are_left_alone(tmp_path: Path) -> None:
    src = tmp_path / "good.pdf"
    src.write_bytes(healthy_pdf("Nothing is wrong with this page at all, it reads fine."))
    report = repair(src, tmp_path / "out.pdf", ocr="never")
    assert report.ok and [p.action for p in report.pages] == ["unchanged"]
    assert report.fonts == ()
    assert (tmp_path / "out.pdf").read_bytes() == src.read_bytes()  # a copy, not a rewrite


def test_unrepairable_font_without_ocr_is_reported_not_guessed(tmp_path: Path) -> None:
    """Glyph ids in first-use order, no cmap, no post: the file holds no answer."""
    src = tmp_path / "lost.pdf"
    src.write_bytes(severed_pdf(PAGES[:1], order="first-use", keep="none"))
    report = repair(src, tmp_path / "out.pdf", ocr="never")
    assert not report.ok
    assert report.written and (tmp_path / "out.pdf").exists()
    [page] = report.pages
    assert page.action == "unchanged" and page.after is Verdict.UNDECODABLE
    assert "NOT OK" in "\n".join(report.render_lines())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_input_is_never_modified(repaired) -> None:
    src, _, _ = repaired["severed-mac-standard"]
    before = _digest(src)
    repair(src, src.with_name("again.pdf"), ocr="never")
    assert _digest(src) == before


def _leftovers(folder: Path, keep: set[str]) -> set[str]:
    return {p.name for p in folder.iterdir()} - keep


def test_out_equal_to_in_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "doc.pdf"
    src.write_bytes(severed_pdf(PAGES[:1]))
    before = _digest(src)
    with pytest.raises(UsageError, match="output is the input"):
        repair(src, tmp_path / "." / "doc.pdf")
    os.symlink(src, tmp_path / "link.pdf")
    with pytest.raises(UsageError, match="output is the input"):
        repair(src, tmp_path / "link.pdf")
    assert _digest(src) == before
    assert _leftovers(tmp_path, {"doc.pdf", "link.pdf"}) == set()


def test_encrypted_input_is_an_input_error(tmp_path: Path) -> None:
    import pikepdf

    src = tmp_path / "locked.pdf"
    with pikepdf.open(io.BytesIO(severed_pdf(PAGES[:1]))) as pdf:
        pdf.save(src, encryption=pikepdf.Encryption(owner="o", user="secret"))
    with pytest.raises(InputError, match="encrypted") as info:
        repair(src, tmp_path / "out.pdf")
    assert info.value.exit_code == ExitCode.USAGE
    assert "\n" not in str(info.value)
    assert _leftovers(tmp_path, {"locked.pdf"}) == set()


def test_damaged_input_is_an_input_error(tmp_path: Path) -> None:
    src = tmp_path / "broken.pdf"
    src.write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    with pytest.raises(InputError) as info:
        repair(src, tmp_path / "out.pdf")
    assert str(src) in str(info.value) and "\n" not in str(info.value)
    assert _leftovers(tmp_path, {"broken.pdf"}) == set()


def test_output_folder_missing_is_a_usage_error(tmp_path: Path) -> None:
    src = tmp_path / "doc.pdf"
    src.write_bytes(severed_pdf(PAGES[:1]))
    with pytest.raises(UsageError, match="does not exist"):
        repair(src, tmp_path / "nowhere" / "out.pdf")
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(UsageError):
        repair(src, tmp_path / "file" / "out.pdf")
    assert _leftovers(tmp_path, {"doc.pdf", "file"}) == set()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_output_folder_is_a_usage_error(tmp_path: Path) -> None:
    src = tmp_path / "doc.pdf"
    src.write_bytes(severed_pdf(PAGES[:1]))
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(UsageError, match="not writable"):
            repair(src, locked / "out.pdf")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


def test_a_failing_write_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up half-way through the save: neither OUT nor the temporary file stays."""
    import pikepdf

    src = tmp_path / "doc.pdf"
    src.write_bytes(severed_pdf(PAGES[:1]))
    real_save = pikepdf.Pdf.save

    def failing_save(self, filename=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(filename, (str, os.PathLike)):
            Path(filename).write_bytes(b"%PDF-1.7\n% half written")
            raise OSError(28, "No space left on device")
        return real_save(self, filename, *args, **kwargs)

    class FullDisk(io.FileIO):
        def write(self, data):  # type: ignore[no-untyped-def,override]
            super().write(bytes(data)[: len(data) // 2])
            raise OSError(28, "No space left on device")

    real_open = builtins.open

    def failing_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file).endswith(".part") and "w" in mode:
            return FullDisk(file, "wb")
        return real_open(file, mode, *args, **kwargs)

    # OUT is saved by pikepdf, or written from the bytes the repair already classified.
    monkeypatch.setattr(pikepdf.Pdf, "save", failing_save)
    monkeypatch.setattr(builtins, "open", failing_open)
    with pytest.raises(UsageError, match="No space left"):
        repair(src, tmp_path / "out.pdf", ocr="never")
    assert _leftovers(tmp_path, {"doc.pdf"}) == set()


def test_bad_ocr_mode_is_a_usage_error(tmp_path: Path) -> None:
    src = tmp_path / "doc.pdf"
    src.write_bytes(severed_pdf(PAGES[:1]))
    with pytest.raises(UsageError, match="--ocr"):
        repair(src, tmp_path / "out.pdf", ocr="sometimes")


def test_never_mode_runs_without_tesseract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_textlayer.repairs import ocr

    monkeypatch.setenv("TEXTLAYER_TESSERACT", str(tmp_path / "no-tesseract-here"))
    ocr._probe.cache_clear()
    try:
        src = tmp_path / "doc.pdf"
        src.write_bytes(severed_pdf(PAGES[:1], order="first-use", keep="none"))
        report = repair(src, tmp_path / "out.pdf", ocr="never")
    finally:
        ocr._probe.cache_clear()
    assert report.written and not report.ok and report.ocr is None


def test_glyph_readings_that_contradict_a_fonts_own_map_condemn_it() -> None:
    """A map that reads as language but names the glyphs wrongly is caught by OCR's readings."""
    import pikepdf

    from pytest_textlayer.pdf import fonts
    from pytest_textlayer.repairs import fontusage, programmaps, recover
    from pytest_textlayer.repairs.ocr_fallback import contradiction
    from pytest_textlayer.repairs.plan import Plan
    from pytest_textlayer.repairs.tounicode_writer import attach

    text = "the quick brown fox jumps over the lazy dog again and again"
    pdf = pikepdf.open(io.BytesIO(severed_pdf([text], order="first-use", keep="cmap")))
    [usage] = fontusage.collect_fonts(pdf).values()
    truth = programmaps.from_program(usage)
    assert truth is not None
    attach(pdf, usage.font, truth.mapping)
    plan = Plan(usage, fonts.analyse_font(usage.font), set())
    letters = {c: t for c, t in truth.mapping.items() if t.isalpha()}

    def found(readings: dict[int, tuple[str, ...]]) -> recover.Recovery:
        return recover.Recovery({}, "ocr-glyphs", 0, usage.glyphs, "", readings)

    agreeing = {c: (t,) * 3 for c, t in letters.items()}
    assert contradiction(plan, found(agreeing)) is None
    shifted = {c: (chr(ord(t) + 1),) * 3 for c, t in letters.items()}
    share = contradiction(plan, found(shifted))
    assert share is not None and share > 0.9
    few = dict(list(shifted.items())[:3])
    assert contradiction(plan, found(few)) is None  # too little evidence to condemn


def test_a_repair_that_cannot_be_read_again_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repaired bytes are classified before they become OUT: bytes that cannot be read
    back (a fault faked here in that second reading) refuse IN in one line, and no OUT."""
    from pytest_textlayer.judge import classifier

    src = tmp_path / "doc.pdf"
    src.write_bytes(severed_pdf(PAGES[:1]))
    real = classifier.classify_or_raise
    calls: list[object] = []

    def second_fails(pdf, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(pdf)
        if len(calls) == 2:
            raise InputError(str(kwargs.get("name")), "truncated: no xref")
        return real(pdf, **kwargs)

    monkeypatch.setattr(classifier, "classify_or_raise", second_fails)
    with pytest.raises(InputError, match="damaged PDF: cannot be rewritten: truncated") as info:
        repair(src, tmp_path / "out.pdf", ocr="never")
    assert info.value.path == str(src)
    assert _leftovers(tmp_path, {"doc.pdf"}) == set()
