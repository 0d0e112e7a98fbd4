"""The HTML report: pure pieces on plain values, whole reports of real fixture PDFs.

Documents come from the fixture generators (real PDFs written by
reportlab, fontTools and pikepdf) and are judged by the real classifier and
repaired by the real repairer; glyph boxes come from PDFium. The page is
parsed back with the standard library's HTML parser, so the tests read what
a browser would get. The browser itself is in test_html_report_browser.py.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pytest_textlayer.errors import UsageError
from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.model import DocumentReport, FontReport, FontStatus, Verdict
from pytest_textlayer.report import html_parts as hp
from pytest_textlayer.report.glyphboxes import Glyph, open_document, page_glyphs
from pytest_textlayer.report.html_report import INDEX, write_html

pytestmark = pytest.mark.skipif(
    not Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists(),
    reason="fonts-dejavu-core is needed to build the PDFs",
)

FAMILIES = ["readable", "severed", "shifted", "pua", "image-only", "blank", "readable"]


# -- what the page holds, read back with html.parser --------------------------------------


@dataclass
class Parsed:
    articles: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    rects: dict[str, list[str]] = field(default_factory=dict)
    urls: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    labels_for: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    scripts: int = 0
    text: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.out = Parsed()
        self._article: str | None = None
        self._group = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.out.ids.append(str(a["id"]))
        for key in ("src", "href", "action", "data", "poster"):
            if a.get(key):
                self.out.urls.append(str(a[key]))
        if tag == "article":
            self._article = str(a["id"])
            self.out.articles.append(self._article)
            self.out.rects[self._article] = []
        elif tag == "img" and self._article:
            self.out.images.append(str(a["src"]))
        elif tag == "g" and self._article:
            self._group = str(a.get("class") or "")
        elif tag == "rect" and self._article:
            self.out.rects[self._article].append(self._group)
        elif tag == "label" and a.get("for"):
            self.out.labels_for.append(str(a["for"]))
        elif tag == "input":
            self.out.inputs.append(str(a["id"]))
        elif tag in ("script", "link", "iframe", "object", "embed"):
            self.out.scripts += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article = None

    def handle_data(self, data: str) -> None:
        self.out.text.append(data)


def parse(path: Path) -> Parsed:
    reader = _Reader()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader.out


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, DocumentReport]:
    root = tmp_path_factory.mktemp("mixed")
    path = root / "mixed doc.pdf"  # a space, to see the command quoted
    generate("mixed", families=FAMILIES).write(path)
    return path, classify(path)


@pytest.fixture(scope="module")
def written(mixed: tuple[Path, DocumentReport], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_html([mixed[1]], tmp_path_factory.mktemp("out") / "html")


# -- pure pieces --------------------------------------------------------------------------


def test_controls_become_visible_and_text_is_escaped() -> None:
    assert hp.visible("a\x01b\x7f\x85\n") == "a\u2401b\u2421\ufffd\n"
    assert hp.esc('<a href="x">&') == "&lt;a href=&quot;x&quot;&gt;&amp;"


def test_diff_marks_what_changed_on_each_side() -> None:
    left, right = hp.diff_html("81,7('67$7(6 <b>", "UNITED STATES <b>")
    assert "<del>" in left and "<ins>" not in left
    assert "<ins>" in right and "<del>" not in right
    assert left.endswith(" &lt;b&gt;") and right.endswith(" &lt;b&gt;")
    same_l, same_r = hp.diff_html("same", "same")
    assert (same_l, same_r) == ("same", "same")


def test_long_texts_are_diffed_on_a_bounded_head() -> None:
    before = "x" * (hp.DIFF_CHARS + 500)
    after = "y" * (hp.DIFF_CHARS + 500)
    left, right = hp.diff_html(before, after)
    assert left.count("x") == hp.DIFF_CHARS + 500 and right.count("y") == hp.DIFF_CHARS + 500
    assert left.startswith("<del>") and right.startswith("<ins>")


def _font(name: str, status: FontStatus) -> FontReport:
    return FontReport(name, "Type0", "Identity-H", "tounicode", status, glyphs=10)


def _glyph(font: str, *, error: bool = False) -> Glyph:
    return Glyph(0, "A", font, (0.0, 0.0, 1.0, 1.0), error)


def test_glyphs_join_their_font_by_name_with_or_without_the_subset_tag() -> None:
    fonts = [_font("ABCDEF+Body", FontStatus.USABLE), _font("GHIJKL+Head", FontStatus.WRONG)]
    lookup = hp.FontLookup(fonts)
    assert hp.glyph_route(_glyph("ABCDEF+Body"), lookup) == "usable"
    assert hp.glyph_route(_glyph("Head"), lookup) == "wrong"
    assert hp.glyph_route(_glyph("Other"), lookup) == "unknown"
    # A map error is severed whatever the font's status.
    assert hp.glyph_route(_glyph("ABCDEF+Body", error=True), lookup) == "severed"


def test_two_subsets_of_one_face_join_only_when_they_agree() -> None:
    twins = hp.FontLookup(
        [_font("ABCDEF+Sans", FontStatus.USABLE), _font("GHIJKL+Sans", FontStatus.SEVERED)]
    )
    assert hp.glyph_route(_glyph("Sans"), twins) == "unknown"
    assert hp.glyph_route(_glyph("GHIJKL+Sans"), twins) == "severed"
    agreeing = hp.FontLookup(
        [_font("ABCDEF+Sans", FontStatus.WRONG), _font("GHIJKL+Sans", FontStatus.WRONG)]
    )
    assert hp.glyph_route(_glyph("Sans"), agreeing) == "wrong"


def test_a_lone_font_takes_every_glyph() -> None:
    alone = hp.FontLookup([_font("T3Font_0", FontStatus.RECOVERABLE)])
    assert hp.glyph_route(_glyph(""), alone) == "recovered"


def test_the_repair_command_is_quoted_for_a_shell() -> None:
    assert hp.repair_command("out/a b.pdf", None) == (
        "textlayer repair 'out/a b.pdf' -o 'a b-fixed.pdf'"
    )
    assert hp.repair_command("x.pdf", None, after_repair=True).endswith("--ocr force")


# -- glyph boxes from PDFium --------------------------------------------------------------


def test_glyph_boxes_follow_the_page_rotation() -> None:
    import pikepdf

    data = generate("severed").pdf
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.pages[0].Rotate = 90
        out = io.BytesIO()
        pdf.save(out)
    upright_doc, turned_doc = open_document(data), open_document(out.getvalue())
    try:
        upright, turned = page_glyphs(upright_doc, 0), page_glyphs(turned_doc, 0)
    finally:
        upright_doc.close()
        turned_doc.close()
    assert (turned.width, turned.height) == (upright.height, upright.width)
    assert len(upright.glyphs) == len(turned.glyphs) > 0
    assert all(g.map_error for g in upright.glyphs)
    # PDFium may order the characters of a turned page differently: compare as sets.
    h = upright.height
    expected = sorted(
        (round(h - y1), round(x0), round(h - y0), round(x1))
        for x0, y0, x1, y1 in (g.box for g in upright.glyphs)
    )
    got = sorted(tuple(round(v) for v in g.box) for g in turned.glyphs)
    assert got == expected
    for x0, y0, x1, y1 in (g.box for g in upright.glyphs):
        assert 0 <= x0 < x1 <= upright.width and 0 <= y0 < y1 <= upright.height


def test_glyph_boxes_are_measured_from_the_crop_box_corner() -> None:
    import pikepdf

    data = generate("severed").pdf
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.pages[0].CropBox = [20, 10, 400, 575]
        out = io.BytesIO()
        pdf.save(out)
    full_doc, cropped_doc = open_document(data), open_document(out.getvalue())
    try:
        full, cropped = page_glyphs(full_doc, 0), page_glyphs(cropped_doc, 0)
    finally:
        full_doc.close()
        cropped_doc.close()
    assert (cropped.width, cropped.height) == (380, 565)
    # The crop box's top left corner is 20 pt right of and 20 pt below the media box's.
    for a, b in zip(full.glyphs, cropped.glyphs, strict=True):
        assert b.box == pytest.approx(tuple(v - 20 for v in a.box), abs=0.01)


def test_two_subsets_of_one_face_are_told_apart_by_their_programs(tmp_path: Path) -> None:
    """A good subset on the page, a broken one in a Form XObject, both 'DejaVuSans' to PDFium."""
    import pikepdf

    good = pikepdf.open(io.BytesIO(generate("readable", "Good body text.", producer="ttf").pdf))
    bad = pikepdf.open(io.BytesIO(generate("differences-unnamed", "Broken heading").pdf))
    good.pages[0].add_overlay(bad.pages[0], pikepdf.Rectangle(0, 0, 300, 300))
    path = tmp_path / "twins.pdf"
    good.save(path)
    good.close()
    bad.close()
    report = classify(path)
    statuses = {f.name: f.status for f in report.pages[0].fonts}
    assert sorted(statuses.values()) == [FontStatus.SEVERED, FontStatus.USABLE]
    assert len({n.partition("+")[2] for n in statuses}) == 1  # one face, two subsets
    doc = open_document(path.read_bytes())
    try:
        names = {g.font for g in page_glyphs(doc, 0).glyphs}
    finally:
        doc.close()
    assert names == {"DejaVuSans"}  # PDFium drops the subset tags of these simple fonts
    page = parse(write_html([report], tmp_path / "r"))
    routes = page.rects["d1p1"]
    counts = {r: routes.count(r) for r in set(routes)}
    by_status = {f.status: f.glyphs for f in report.pages[0].fonts}
    assert counts == {"r-usable": by_status[FontStatus.USABLE],
                      "r-severed": by_status[FontStatus.SEVERED]}


# -- whole reports ------------------------------------------------------------------------


def test_every_bad_page_has_a_picture_and_one_box_per_glyph(
    mixed: tuple[Path, DocumentReport], written: Path
) -> None:
    _, report = mixed
    page = parse(written)
    bad = report.bad_pages
    assert [p.verdict for p in bad] == [
        Verdict.UNDECODABLE, Verdict.SHIFTED, Verdict.GARBLED, Verdict.ABSENT
    ]
    assert page.articles == [f"d1p{p.number}" for p in bad]
    assert len(page.images) == len(bad)
    assert all(src.startswith("data:image/jpeg;base64,") for src in page.images)
    routes = {p.verdict: page.rects[f"d1p{p.number}"] for p in bad}
    assert routes[Verdict.UNDECODABLE] == ["r-severed"] * bad[0].glyphs
    assert routes[Verdict.GARBLED] == ["r-wrong"] * bad[2].glyphs
    assert routes[Verdict.ABSENT] == []
    assert len(routes[Verdict.SHIFTED]) == bad[1].glyphs


def test_the_report_is_self_contained(written: Path) -> None:
    page = parse(written)
    assert page.scripts == 0
    assert all(u.startswith(("data:", "#")) for u in page.urls), page.urls
    source = written.read_text(encoding="utf-8")
    assert "default-src 'none'" in source
    assert not re.search(r"url\(|@import|https?://", source)
    # Every in-page link and label points at an element that exists.
    ids = set(page.ids)
    assert {u[1:] for u in page.urls if u.startswith("#")} <= ids
    assert set(page.labels_for) == set(page.inputs)
    assert len(ids) == len(page.ids)


def test_texts_fonts_and_command_are_shown_for_each_bad_page(
    mixed: tuple[Path, DocumentReport], written: Path
) -> None:
    path, report = mixed
    text = "".join(parse(written).text)
    shifted = next(p for p in report.pages if p.verdict is Verdict.SHIFTED)
    assert shifted.repaired_sample
    assert "What the page shows (the classifier's reading)" in text
    assert shifted.repaired_sample.splitlines()[0] in text
    for page in report.bad_pages:
        for font in page.fonts:
            assert font.name in text and font.problem and font.problem in text
    assert text.count(f"textlayer repair '{path}' -o 'mixed doc-fixed.pdf'") == 4
    assert "only OCR can read it" in text  # the image-only page
    assert text.count("(no text)") == 1  # ... which extracts nothing
    # OK pages are rows of the table, not sections.
    assert "Page 1:" not in text and "Page 6:" not in text


def test_ok_runs_fold_into_one_row_and_the_page_cap_is_said(tmp_path: Path) -> None:
    families = ["readable", "readable", "readable", "severed", "severed", "blank"]
    path = tmp_path / "doc.pdf"
    generate("mixed", families=families).write(path)
    report = classify(path)
    html = write_html([report], tmp_path / "r", max_pages=1)
    page = parse(html)
    text = "".join(page.text)
    assert page.articles == ["d1p4"]
    assert "1–3" in text and "(not drawn: page limit)" in text
    assert "the first 1 are drawn" in text


def test_a_missing_file_or_an_unreadable_one_still_gets_its_tables(
    mixed: tuple[Path, DocumentReport], tmp_path: Path
) -> None:
    _, report = mixed
    moved = DocumentReport(str(tmp_path / "gone.pdf"), report.pages)
    broken = DocumentReport("junk.pdf", error="not a PDF (no %PDF- header)")
    page = parse(write_html([moved, broken], tmp_path / "r"))
    text = "".join(page.text)
    assert page.images == [] and len(page.articles) == len(report.bad_pages)
    assert "no picture: the PDF is not on disk" in text
    assert "Could not be read: not a PDF (no %PDF- header)" in text


def test_what_the_pdf_says_is_escaped(
    mixed: tuple[Path, DocumentReport], tmp_path: Path
) -> None:
    _, report = mixed
    evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    page = report.bad_pages[0]
    font = page.fonts[0]
    hostile = DocumentReport(
        f"{evil}.pdf",
        (replace(page, evidence=(evil,), sample=evil,
                 fonts=(replace(font, name=evil, problem=evil),)),),
    )
    parsed = parse(write_html([hostile], tmp_path / "r"))
    assert parsed.scripts == 0
    assert all(u.startswith(("data:", "#")) for u in parsed.urls)
    assert evil in "".join(parsed.text)


def test_relative_paths_resolve_against_base(
    mixed: tuple[Path, DocumentReport], tmp_path: Path
) -> None:
    path, report = mixed
    relative = DocumentReport(path.name, report.pages)
    page = parse(write_html([relative], tmp_path / "r", base=path.parent))
    assert len(page.images) == len(report.bad_pages)


def test_bad_arguments_are_one_line_usage_errors(tmp_path: Path) -> None:
    afile = tmp_path / "taken"
    afile.write_text("x")
    with pytest.raises(UsageError, match="HTML report folder is a file"):
        write_html([], afile)
    with pytest.raises(UsageError, match="max_pages"):
        write_html([], tmp_path / "r", max_pages=-1)


# -- before and after repair --------------------------------------------------------------


@pytest.fixture(scope="module")
def repaired(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, object]]:
    from pytest_textlayer.repairs.repairer import repair

    root = tmp_path_factory.mktemp("repair")
    src = root / "in.pdf"
    generate("mixed", families=["readable", "severed", "shifted", "pua"]).write(src)
    yield root, repair(src, root / "out.pdf", ocr="never")


def test_repair_shows_before_and_after_pictures_and_texts(
    repaired: tuple[Path, object]
) -> None:
    from pytest_textlayer.repairs.repair_report import RepairReport

    root, rep = repaired
    assert isinstance(rep, RepairReport)
    before = classify(rep.input)
    page = parse(write_html([before], root / "r", repairs=[rep]))
    text = "".join(page.text)
    bad = [p.number for p in rep.pages if p.before is not Verdict.READABLE]
    assert page.articles == [f"d1p{n}" for n in bad]
    assert len(page.images) == 2 * len(bad)  # IN and OUT
    assert "Extracted before repair" in text and "Extracted after repair" in text
    fixed = [p for p in rep.pages if p.action == "tounicode" and p.ok]
    assert fixed
    for p in fixed:
        rects = page.rects[f"d1p{p.number}"]
        half = len(rects) // 2
        assert set(rects[half:]) == {"r-usable"}  # after: every glyph has a usable route
        assert set(rects[:half]) != {"r-usable"}
    still_bad = [p for p in rep.pages if not p.ok]
    assert text.count("--ocr force") == len(still_bad)


def test_a_repair_given_alone_is_shown_from_its_input(repaired: tuple[Path, object]) -> None:
    root, rep = repaired
    html = write_html([], root / "alone", repairs=[rep])  # type: ignore[list-item]
    page = parse(html)
    assert page.articles and len(page.images) == 2 * len(page.articles)
    assert (root / "alone" / INDEX) == html
