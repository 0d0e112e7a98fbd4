"""The fixture factory, proven with real readers: every family's defect is what its truth says.

The truth of a fixture is a prediction made by our code; these tests hold it
against poppler (pdftotext, pdffonts), PDFium (pypdfium2), pypdf and
fontTools reading the embedded programs.  Readers show control characters
differently (poppler turns U+0009 into a space, PDFium drops U+0002), so
extractions are compared with whitespace and control characters removed.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pytest_textlayer.errors import UsageError
from pytest_textlayer.generators import (
    CORPUS_LANGUAGES,
    FAMILIES,
    Fixture,
    default_text,
    generate,
    write_corpus,
)
from pytest_textlayer.model import Verdict

pikepdf = pytest.importorskip("pikepdf")
pdfium = pytest.importorskip("pypdfium2")
pypdf = pytest.importorskip("pypdf")

HAVE_POPPLER = shutil.which("pdftotext") is not None and shutil.which("pdffonts") is not None
needs_poppler = pytest.mark.skipif(not HAVE_POPPLER, reason="poppler-utils not installed")

VARIANTS = [
    pytest.param(name, dict(v), id="-".join([name, *map(str, v.values())]))
    for name, fam in FAMILIES.items()
    for v in fam.variants
]
#: families whose pages draw text with a font (vector glyphs)
VECTOR = {"severed", "severed-recoverable", "shifted", "partial", "pua", "scrambled", "collapsed",
          "type3-unnamed", "symbolic-truetype", "differences-unnamed", "readable", "mixed-fonts"}
#: families with no Unicode route at all in any font
NO_UNICODE = {"severed", "severed-recoverable", "type3-unnamed", "symbolic-truetype",
              "differences-unnamed"}


def key(name: str, options: Mapping[str, Any], lang: str = "en") -> str:
    return "-".join([name, *map(str, options.values()), lang])


@pytest.fixture(scope="session")
def built() -> dict[str, Fixture]:
    """Every family variant in English, plus severed, shifted and readable in every language."""
    out: dict[str, Fixture] = {}
    for name, fam in FAMILIES.items():
        for v in fam.variants:
            out[key(name, v)] = generate(name, **v)
    for lang in CORPUS_LANGUAGES:
        for name, v in (("severed", {"order": "mac-standard"}), ("shifted", {}),
                        ("readable", {"producer": "ttf"}), ("readable", {"producer": "type0"})):
            out.setdefault(key(name, v, lang), generate(name, lang=lang, **v))
    return out


@pytest.fixture(scope="session")
def files(built: dict[str, Fixture], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("fixtures")
    return {k: fx.write(folder / f"{k}.pdf") for k, fx in built.items()}


# readers -------------------------------------------------------------------------------------

def flat(text: str | None) -> str:
    """Text without whitespace and control characters: what all readers agree on."""
    return "".join(
        c for c in text or "" if not c.isspace() and unicodedata.category(c) != "Cc"
    )


def poppler(path: Path, page: int) -> str:
    result = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-f", str(page), "-l", str(page), str(path), "-"],
        capture_output=True, check=True,
    )
    return result.stdout.decode("utf-8")


def pdfium_text(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def pdfium_mapped_text(pdf: bytes) -> list[str]:
    """PDFium's text without the characters it flags as unmapped (it emits their CIDs)."""
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    try:
        pages = []
        for i in range(len(doc)):
            textpage = doc[i].get_textpage()
            pages.append("".join(
                chr(raw.FPDFText_GetUnicode(textpage.raw, k))
                for k in range(textpage.count_chars())
                if not raw.FPDFText_HasUnicodeMapError(textpage.raw, k)
            ))
        return pages
    finally:
        doc.close()


def pypdf_text(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def pdffonts(path: Path) -> list[dict[str, str]]:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    header, rule = lines[0], lines[1]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", rule)]
    names = [header[a:b + 1].strip() for a, b in spans]
    return [
        {n: row[a:b + 1].strip() for n, (a, b) in zip(names, spans, strict=True)}
        for row in lines[2:]
    ]


def dehyphenated(text: str) -> str:
    """pdftotext joins a line ending in a hyphen to the next one, dropping the hyphen."""
    return re.sub(r"-\n", "", text)


def poppler_matches(got: str, expected: str | None) -> bool:
    return flat(got) in {flat(expected), flat(dehyphenated(expected or ""))}


# the defect, as real readers see it ----------------------------------------------------------

@needs_poppler
def test_mac_standard_severed_page_reads_as_the_known_shift(tmp_path: Path) -> None:
    fx = generate("severed", "UNITED STATES DISTRICT COURT")
    path = fx.write(tmp_path / "court.pdf")
    assert flat(poppler(path, 1)) == "81,7('67$7(6',675,&7&2857"
    assert flat(pdfium_text(fx.pdf)[0]) == "81,7('67$7(6',675,&7&2857"
    assert fx.pages[0].extracted == "81,7('\x0367$7(6\x03',675,&7\x03&2857"
    assert fx.pages[0].verdict is Verdict.UNDECODABLE


@needs_poppler
def test_shifted_default_offset_reads_like_the_wild(tmp_path: Path) -> None:
    fx = generate("shifted", "Filter cartridge")
    path = fx.write(tmp_path / "filter.pdf")
    assert poppler(path, 1).rstrip("\n\f") == ")LOWHU\x03FDUWULGJH"
    assert fx.pages[0].verdict is Verdict.SHIFTED


@needs_poppler
@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_poppler_extracts_what_the_truth_says(
    name: str, options: dict[str, Any], built: dict[str, Fixture], files: dict[str, Path]
) -> None:
    fx, path = built[key(name, options)], files[key(name, options)]
    for number, truth in enumerate(fx.pages, 1):
        got = poppler(path, number)
        assert poppler_matches(got, truth.extracted), (number, got, truth.extracted)


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_pdfium_extracts_what_the_truth_says(
    name: str, options: dict[str, Any], built: dict[str, Fixture]
) -> None:
    fx = built[key(name, options)]
    texts = pdfium_mapped_text(fx.pdf) if name == "partial" else pdfium_text(fx.pdf)
    for got, truth in zip(texts, fx.pages, strict=True):
        assert flat(got) == flat(truth.extracted)


#: pypdf guesses differently for simple fonts without a route: glyph names, StandardEncoding.
PYPDF_OWN_GUESS = {"type3-unnamed", "symbolic-truetype", "differences-unnamed"}


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_pypdf_extracts_what_the_truth_says_or_fails_its_own_way(
    name: str, options: dict[str, Any], built: dict[str, Fixture]
) -> None:
    fx = built[key(name, options)]
    for got, truth in zip(pypdf_text(fx.pdf), fx.pages, strict=True):
        if name == "partial":  # pypdf emits the CIDs of the codes the ToUnicode leaves out
            assert (flat(got) == flat(truth.text)) == (truth.bad_glyphs == 0)
        elif name in PYPDF_OWN_GUESS:
            assert flat(got) != flat(truth.text)
            if name != "symbolic-truetype":  # pypdf writes the unknown glyph names out
                assert re.fullmatch(r"(/g\d+)+", flat(got))
        else:
            assert flat(got) == flat(truth.extracted)


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_bad_pages_really_are_bad_for_every_reader(
    name: str, options: dict[str, Any], built: dict[str, Fixture]
) -> None:
    fx = built[key(name, options)]
    readers = list(zip(pdfium_text(fx.pdf), pypdf_text(fx.pdf), strict=True))
    for truth, extracted in zip(fx.pages, readers, strict=True):
        shown = flat(truth.text)
        for got in map(flat, extracted):
            if name == "partial":
                assert (got == shown) == (truth.bad_glyphs == 0)
            elif truth.verdict is Verdict.READABLE and not truth.bad_glyphs:
                assert got == shown
            elif truth.verdict in (Verdict.ABSENT, Verdict.BLANK):
                assert got == ""
            elif truth.bad_glyphs == truth.glyphs:
                same = sum(a == b for a, b in zip(got, shown, strict=False))
                assert same < 0.2 * len(shown), "hardly a character comes out right"
            else:  # a bad heading over a good body: the body reads, the heading does not
                heading, _, body = truth.text.partition("\n")
                assert flat(body) in got and flat(heading) not in got


@needs_poppler
@pytest.mark.parametrize("producer", ["ttf", "base14", "type0"])
def test_readable_controls_extract_exactly(
    producer: str, built: dict[str, Fixture], files: dict[str, Path]
) -> None:
    name = key("readable", {"producer": producer})
    fx = built[name]
    assert poppler(files[name], 1).rstrip("\n\f") == fx.pages[0].text
    assert pdfium_text(fx.pdf)[0].replace("\r\n", "\n") == fx.pages[0].text
    assert pypdf_text(fx.pdf)[0].rstrip("\n") == fx.pages[0].text
    assert flat(fx.pages[0].text) == flat(default_text("en"))


@needs_poppler
@pytest.mark.parametrize("lang", CORPUS_LANGUAGES)
def test_every_language_severed_shifted_readable(
    lang: str, built: dict[str, Fixture], files: dict[str, Path]
) -> None:
    for name, options in (("severed", {"order": "mac-standard"}), ("shifted", {}),
                          ("readable", {"producer": "ttf"}), ("readable", {"producer": "type0"})):
        k = key(name, options, lang)
        fx = built[k]
        assert flat(fx.pages[0].text) == flat(default_text(lang))
        got_poppler = poppler(files[k], 1)
        got_pdfium = pdfium_text(fx.pdf)[0]
        assert poppler_matches(got_poppler, fx.pages[0].extracted)
        assert flat(got_pdfium) == flat(fx.pages[0].extracted)
        if name == "readable":
            assert got_poppler.rstrip("\n\f") == fx.pages[0].text
        else:
            assert flat(got_poppler) != flat(fx.pages[0].text)


def test_mac_standard_shift_is_29_for_ascii_in_every_language(built: dict[str, Fixture]) -> None:
    for lang in CORPUS_LANGUAGES:
        truth = built[key("severed", {"order": "mac-standard"}, lang)].pages[0]
        for shown, got in zip(truth.text, truth.extracted or "", strict=True):
            if "!" <= shown <= "~":
                assert ord(shown) - ord(got) == 29


def pdfium_unmapped(pdf: bytes) -> list[int]:
    """Per page, the characters PDFium itself flags as having no Unicode map."""
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(pdf)
    try:
        counts = []
        for i in range(len(doc)):
            textpage = doc[i].get_textpage()
            counts.append(sum(
                bool(raw.FPDFText_HasUnicodeMapError(textpage.raw, k))
                for k in range(textpage.count_chars())
            ))
        return counts
    finally:
        doc.close()


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_pdfium_flags_exactly_the_glyphs_without_a_route(
    name: str, options: dict[str, Any], built: dict[str, Fixture]
) -> None:
    """PDFium's own unmapped-character signal counts the glyphs the truth calls route-less.

    A ToUnicode that leads to the wrong characters (shifted, PUA, scrambled,
    collapsed, a wrong OCR layer) is still a map: PDFium flags nothing there.
    """
    fx = built[key(name, options)]
    for flagged, truth in zip(pdfium_unmapped(fx.pdf), fx.pages, strict=True):
        no_route = name in NO_UNICODE or name in ("mixed-fonts", "partial") or (
            name == "mixed" and "Identity-H, no ToUnicode" in truth.notes
        )
        assert flagged == (truth.bad_glyphs if no_route else 0)


# rendering and fonts -------------------------------------------------------------------------

def render(pdf: bytes, page: int = 0, dpi: int = 40) -> Any:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page].render(scale=dpi / 72, grayscale=True).to_pil()
    finally:
        doc.close()


def dark(image: Any) -> int:
    return sum(image.histogram()[:128])


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_pdfium_draws_the_glyphs(
    name: str, options: dict[str, Any], built: dict[str, Fixture]
) -> None:
    from PIL import ImageChops

    fx = built[key(name, options)]
    control = render(built[key("readable", {"producer": "type0"})].pdf)
    for index, truth in enumerate(fx.pages):
        image = render(fx.pdf, index)
        w, h = image.size
        text_area, below = image.crop((0, 0, w, h // 3)), image.crop((0, h // 2, w, h))
        if truth.verdict is Verdict.BLANK:
            continue
        assert dark(text_area) > 300, "the text is drawn where the lines are"
        if name in VECTOR and name not in ("readable", "mixed-fonts"):
            assert dark(below) == 0
            assert abs(dark(image) - dark(control)) < 0.1 * dark(control)
            if name != "type3-unnamed":  # Type3 paths are filled, not hinted: edges differ
                changed = sum(ImageChops.difference(image, control).histogram()[64:])
                assert changed < 0.1 * dark(control), "same glyphs, same place as the control"


@needs_poppler
@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_pdffonts_reports_unicode_maps_only_where_there_are(
    name: str, options: dict[str, Any], files: dict[str, Path]
) -> None:
    rows = pdffonts(files[key(name, options)])
    if name in NO_UNICODE:
        assert rows and all(r["uni"] == "no" for r in rows)
        assert all(r["emb"] == "yes" for r in rows)
    elif name in ("shifted", "partial", "pua", "scrambled", "collapsed") or options.get(
        "producer"
    ) in (
        "ttf", "type0"
    ):
        embedded = [r for r in rows if r["emb"] == "yes"]  # reportlab also lists Helvetica
        assert embedded and all(r["uni"] == "yes" for r in embedded)
    elif name == "mixed-fonts":
        assert sorted(r["uni"] for r in rows) == ["no", "yes"]
    elif name in ("image-only", "blank"):
        assert rows == []


_KEEP_OPEN: list[Any] = []


def font_objects(pdf: bytes) -> list[Any]:
    """The font dictionaries of every page (the document stays open while they are used)."""
    doc = pikepdf.open(io.BytesIO(pdf))
    _KEEP_OPEN.append(doc)  # pikepdf objects die with their document
    return [font for page in doc.pages for _, font in page.Resources.get("/Font", {}).items()]


def embedded_program(font: Any) -> Any:
    from fontTools.ttLib import TTFont

    if font.Subtype == "/Type0":
        font = font.DescendantFonts[0]
    return TTFont(io.BytesIO(font.FontDescriptor.FontFile2.read_bytes()))


@pytest.mark.parametrize("order", ["mac-standard", "first-use", "original"])
def test_severed_font_structure(order: str, built: dict[str, Fixture]) -> None:
    (font,) = font_objects(built[key("severed", {"order": order})].pdf)
    assert font.Subtype == "/Type0" and font.Encoding == "/Identity-H"
    assert "/ToUnicode" not in font
    cid = font.DescendantFonts[0]
    assert str(cid.CIDSystemInfo.Ordering) == "Identity" and cid.CIDToGIDMap == "/Identity"
    program = embedded_program(font)
    assert "cmap" not in program and "post" not in program
    if order == "mac-standard":
        assert program["maxp"].numGlyphs >= 258


@pytest.mark.parametrize("keep", ["cmap", "post", "name"])
def test_severed_recoverable_keeps_the_answer_in_the_file(
    keep: str, built: dict[str, Fixture]
) -> None:
    fx = built[key("severed-recoverable", {"keep": keep})]
    (font,) = font_objects(fx.pdf)
    program = embedded_program(font)
    shown = set(fx.pages[0].text) - {"\n"}
    if keep == "cmap":
        table = program["cmap"].getcmap(3, 1)
        assert table is not None and {chr(c) for c in table.cmap} == shown
        assert "post" not in program
    elif keep == "post":
        from fontTools.agl import toUnicode

        assert "cmap" not in program and program["post"].formatType == 2
        names = set(program.getGlyphOrder()) - {".notdef"}
        assert {toUnicode(n.split(".")[0]) for n in names} == shown
    else:
        assert font.ToUnicode == "/Identity-H"
        assert "cmap" not in program and "post" not in program


def test_simple_font_structures(built: dict[str, Fixture]) -> None:
    (symbolic,) = font_objects(built[key("symbolic-truetype", {})].pdf)
    assert symbolic.Subtype == "/TrueType" and int(symbolic.FontDescriptor.Flags) & 4
    assert "/ToUnicode" not in symbolic and "/Encoding" not in symbolic
    program = embedded_program(symbolic)
    assert program["post"].formatType == 3
    assert [(t.platformID, t.platEncID) for t in program["cmap"].tables] == [(3, 0)]
    text = built[key("symbolic-truetype", {})].pages[0].text
    codes = {c - 0xF000 for c in program["cmap"].tables[0].cmap}
    assert not codes & {ord(c) for c in text}

    (diffs,) = font_objects(built[key("differences-unnamed", {})].pdf)
    names = [str(x) for x in diffs.Encoding.Differences if isinstance(x, pikepdf.Name)]
    assert names and all(re.fullmatch(r"/g\d+", n) for n in names)
    assert "/ToUnicode" not in diffs

    (type3,) = font_objects(built[key("type3-unnamed", {})].pdf)
    assert type3.Subtype == "/Type3" and "/ToUnicode" not in type3
    assert all(re.fullmatch(r"/g\d+", str(k)) for k in type3.CharProcs)


# truth, pages, documents ---------------------------------------------------------------------

def test_truth_json_is_written_beside_the_pdf(tmp_path: Path) -> None:
    fx = generate("pua", "Ab cd")
    path = fx.write(tmp_path / "pua.pdf")
    assert path.read_bytes() == fx.pdf
    truth = json.loads(path.with_suffix(".json").read_text("utf-8"))
    assert truth == json.loads(json.dumps(fx.truth()))
    assert truth["family"] == "pua" and truth["pages"][0]["verdict"] == "garbled"
    assert truth["pages"][0]["extracted"] == "\ue000\ue001\ue002\ue003\ue004"
    assert not list(tmp_path.glob(".*tmp"))


@needs_poppler
def test_form_feeds_pages_and_long_text_make_pages(tmp_path: Path) -> None:
    two = generate("shifted", "First page\fSecond page")
    assert [p.text for p in two.pages] == ["First page", "Second page"]
    three = generate("severed", "Same text", pages=3)
    assert len(pdfium_text(three.pdf)) == 3 and {p.text for p in three.pages} == {"Same text"}
    long = generate("readable", " ".join([default_text("en")] * 12), producer="type0")
    assert len(long.pages) >= 2
    path = long.write(tmp_path / "long.pdf")
    for number, truth in enumerate(long.pages, 1):
        assert poppler(path, number).rstrip("\n\f") == truth.text
        assert all(len(line) < 80 for line in truth.text.splitlines())


def test_mixed_document_keeps_each_familys_truth(built: dict[str, Fixture]) -> None:
    fx = built[key("mixed", {})]
    assert [p.verdict for p in fx.pages] == [
        Verdict.READABLE, Verdict.UNDECODABLE, Verdict.SHIFTED, Verdict.ABSENT, Verdict.BLANK
    ]
    custom = generate("mixed", "Hello world", families=["pua", ["collapsed", {"to": "fffd"}]])
    assert [p.verdict for p in custom.pages] == [Verdict.GARBLED, Verdict.UNDECODABLE]
    assert pdfium_text(custom.pdf)[1] == "\ufffd" * len("Hello world")


def glyph_counts(pdf: bytes) -> tuple[int, int]:
    """(glyphs, glyphs of fonts without ToUnicode), counted from the content stream."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        fonts = page.Resources.Font
        total = bad = 0
        current = None
        for operands, operator in pikepdf.parse_content_stream(page):
            if str(operator) == "Tf":
                current = fonts[str(operands[0])]
            elif str(operator) == "Tj":
                n = len(bytes(operands[0])) // 2
                total += n
                assert current is not None
                bad += n if "/ToUnicode" not in current else 0
        return total, bad


def test_mixed_fonts_states_the_share_and_applies_the_ten_percent_rule(
    built: dict[str, Fixture]
) -> None:
    fx = built[key("mixed-fonts", {})]
    truth = fx.pages[0]
    assert (truth.glyphs, truth.bad_glyphs) == glyph_counts(fx.pdf)
    assert truth.bad_share > 0.10 and truth.verdict is Verdict.UNDECODABLE
    assert f"{truth.bad_glyphs} of {truth.glyphs}" in truth.notes
    small = generate("mixed-fonts", "Note\n" + " ".join(["Plain body text."] * 6))
    assert (small.pages[0].glyphs, small.pages[0].bad_glyphs) == glyph_counts(small.pdf)
    assert small.pages[0].bad_share <= 0.10 and small.pages[0].verdict is Verdict.READABLE


@pytest.mark.parametrize("lang", CORPUS_LANGUAGES)
def test_partial_tounicode_verdict_follows_the_ten_percent_rule(lang: str) -> None:
    fx = generate("partial", lang=lang)
    truth = fx.pages[0]
    shown = truth.text.replace("\n", "")
    holes = sum(ord(ch) > 0x7F for ch in shown)
    assert truth.bad_glyphs == holes == pdfium_unmapped(fx.pdf)[0]
    expected = Verdict.UNDECODABLE if holes > 0.10 * truth.glyphs else Verdict.READABLE
    assert truth.verdict is expected
    assert truth.extracted == "".join(ch for ch in truth.text if ord(ch) <= 0x7F)


def test_partial_with_named_holes() -> None:
    fx = generate("partial", "see the tree", missing="e")
    assert fx.pages[0].bad_glyphs == 5 and fx.pages[0].verdict is Verdict.UNDECODABLE
    assert flat(pdfium_mapped_text(fx.pdf)[0]) == "sthtr"


def test_ocr_layer_is_invisible_and_right_or_wrong(built: dict[str, Fixture]) -> None:
    right = built[key("image-with-ocr-layer", {"layer": "right"})]
    wrong = built[key("image-with-ocr-layer", {"layer": "wrong"})]
    assert flat(pdfium_text(right.pdf)[0]) == flat(right.pages[0].text)
    got, shown = flat(pdfium_text(wrong.pdf)[0]), flat(wrong.pages[0].text)
    assert got != shown and len(got) == len(shown)
    cipher = dict(zip(shown, got, strict=True))
    assert len(set(cipher.values())) == len(cipher), "a permutation: one letter for one letter"
    for a, b in cipher.items():
        assert a == b or (a.isalpha() and b.isalpha())
    assert right.pages[0].verdict is Verdict.READABLE and wrong.pages[0].verdict is Verdict.GARBLED
    with pikepdf.open(io.BytesIO(right.pdf)) as doc:
        ops = [str(op) for _, op in pikepdf.parse_content_stream(doc.pages[0])]
    assert "Tr" in ops and "Do" in ops


def test_image_options_change_the_picture() -> None:
    plain = generate("image-only", "Tilted", dpi=50)
    tilted = generate("image-only", "Tilted", dpi=50, rotation=5.0, noise=0.05)
    assert plain.pdf != tilted.pdf
    assert pdfium_text(tilted.pdf) == [""]
    with pikepdf.open(io.BytesIO(plain.pdf)) as doc:
        (image,) = doc.pages[0].Resources.XObject.values()
        assert int(image.Width) == round(420 * 50 / 72)


# determinism ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_same_call_same_bytes(
    name: str, options: dict[str, Any], built: dict[str, Fixture]
) -> None:
    again = generate(name, **options)
    assert again.pdf == built[key(name, options)].pdf
    assert again.truth() == built[key(name, options)].truth()


def test_same_bytes_in_another_process(built: dict[str, Fixture]) -> None:
    script = (
        "import sys, hashlib\n"
        "from pytest_textlayer.generators import generate, FAMILIES\n"
        "for name, fam in FAMILIES.items():\n"
        "    for v in fam.variants:\n"
        "        print(hashlib.sha256(generate(name, **v).pdf).hexdigest())\n"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    import hashlib

    expected = [hashlib.sha256(built[key(n, v)].pdf).hexdigest()
                for n, fam in FAMILIES.items() for v in fam.variants]
    assert out == expected


def test_write_corpus_covers_every_family_and_language(
    tmp_path: Path, built: dict[str, Fixture]
) -> None:
    truth_path = write_corpus(tmp_path / "corpus", languages=("en", "ru"))
    truth = json.loads(truth_path.read_text("utf-8"))
    families = {entry["family"] for entry in truth["files"].values()}
    assert families == set(FAMILIES)
    assert "readable-base14-ru.pdf" in truth["skipped"]
    for name, entry in truth["files"].items():
        assert (tmp_path / "corpus" / name).is_file()
        assert entry["pages"] and all(p["verdict"] in {v.value for v in Verdict}
                                      for p in entry["pages"])
    assert (tmp_path / "corpus" / "severed-mac-standard-en.pdf").read_bytes() == built[
        key("severed", {"order": "mac-standard"})
    ].pdf


def test_importing_the_factory_is_cheap() -> None:
    code = ("import sys, pytest_textlayer.generators\n"
            "heavy = {'fontTools', 'reportlab', 'pikepdf', 'PIL', 'pytest'} & set(sys.modules)\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# bad arguments -------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: generate("nonsense"), "unknown fixture family 'nonsense'"),
        (lambda: generate("severed", colour="red"), "has no option 'colour'"),
        (lambda: generate("severed", order="alphabetical"), "order must be one of"),
        (lambda: generate("shifted", offset=0), "offset must be a non-zero"),
        (lambda: generate("shifted", "abc", offset=200), "outside Unicode"),
        (lambda: generate("collapsed", to="two"), "to must be one of"),
        (lambda: generate("image-only", dpi=5), "dpi must be"),
        (lambda: generate("readable", default_text("ru"), producer="base14"), "WinAnsiEncoding"),
        (lambda: generate("severed", "x", pages=0), "pages must be a positive"),
        (lambda: generate("severed", lang="xx"), "no default text for language 'xx'"),
        (lambda: generate("scrambled", "a 1"), "at least two distinct letters"),
        (lambda: generate("severed", "bell\x07"), "U+0007"),
        (lambda: generate("mixed", families=["mixed"]), "mixed cannot contain mixed"),
        (lambda: generate("mixed", families="severed"), "non-empty list"),
        (lambda: generate("blank", art="maybe"), "art must be true or false"),
        (lambda: generate("mixed-fonts", heading_size=100), "heading_size must be"),
        (lambda: generate("severed", size="big"), "size must be"),
        (lambda: generate("severed", 42), "text must be a string"),
        (lambda: generate("severed", "x", font="/nonexistent/font.ttf"), "font file not found"),
    ],
)
def test_bad_arguments_raise_one_line_usage_errors(call: Any, message: str) -> None:
    with pytest.raises(UsageError) as info:
        call()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_font_without_a_glyph_and_non_font_files(tmp_path: Path) -> None:
    from pytest_textlayer.generators.fontprep import reportlab_font

    with pytest.raises(UsageError, match=r"Vera.ttf has no glyph for 'Ж' \(U\+0416\)"):
        generate("severed", "Жук", font=reportlab_font())
    junk = tmp_path / "junk.ttf"
    junk.write_bytes(b"not a font at all")
    with pytest.raises(UsageError, match="not a usable TrueType font"):
        generate("severed", "x", font=junk)


def test_reportlab_font_is_a_working_fallback(tmp_path: Path) -> None:
    from pytest_textlayer.generators.fontprep import reportlab_font

    fx = generate("severed", "UNITED STATES", font=reportlab_font())
    assert flat(pdfium_text(fx.pdf)[0]) == "81,7('67$7(6"


def test_unwritable_output_is_a_usage_error(tmp_path: Path) -> None:
    fx = generate("blank")
    with pytest.raises(UsageError, match="cannot write"):
        fx.write(tmp_path / "missing-folder" / "out.pdf")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UsageError, match="cannot create the corpus folder"):
        write_corpus(blocker / "corpus", languages=("en",))


# any text the font covers ------------------------------------------------------------------

def covered_alphabet() -> str:
    from pytest_textlayer.generators.fontprep import load_font

    cmap = load_font().cmap
    ranges = [(0x21, 0x7E), (0xC0, 0x17F), (0x391, 0x3C9), (0x410, 0x44F)]
    return "".join(chr(c) for lo, hi in ranges for c in range(lo, hi + 1)
                   if c in cmap and unicodedata.category(chr(c))[0] in "LNP"
                   and unicodedata.normalize("NFC", chr(c)) == chr(c))


def test_any_covered_text_round_trips_through_pdfium() -> None:
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    words = st.text(alphabet=covered_alphabet(), min_size=1, max_size=12)

    @hypothesis.settings(max_examples=15, deadline=None, database=None)
    @hypothesis.given(st.lists(words, min_size=1, max_size=8))
    def check(parts: list[str]) -> None:
        text = " ".join(parts)
        good = generate("readable", text, producer="type0")
        assert flat(pdfium_text(good.pdf)[0]) == flat(text)
        for order in ("mac-standard", "first-use", "original"):
            bad = generate("severed", text, order=order)
            assert flat(pdfium_text(bad.pdf)[0]) == flat(bad.pages[0].extracted)

    check()


TESSERACT_LANGS = {"en": "eng", "ru": "rus"}


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed")
@pytest.mark.parametrize("lang", sorted(TESSERACT_LANGS))
def test_image_only_page_shows_the_text_to_ocr(lang: str, tmp_path: Path) -> None:
    """The absent page is a real picture of the text: Tesseract reads its words back."""
    fx = generate("image-only", lang=lang)
    with pikepdf.open(io.BytesIO(fx.pdf)) as doc:
        (image,) = doc.pages[0].Resources.XObject.values()
        pikepdf.PdfImage(image).as_pil_image().save(tmp_path / "page.png", dpi=(100, 100))
    result = subprocess.run(
        ["tesseract", str(tmp_path / "page.png"), "-", "-l", TESSERACT_LANGS[lang]],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        pytest.skip(f"tesseract cannot read {TESSERACT_LANGS[lang]}: {result.stderr.strip()}")
    words = re.findall(r"\w+", fx.pages[0].text)
    read = set(re.findall(r"\w+", result.stdout))
    assert sum(w in read for w in words) >= 0.9 * len(words)


def test_write_corpus_refuses_unknown_or_no_languages(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no default text for language 'xx'"):
        write_corpus(tmp_path / "c", languages=("en", "xx"))
    with pytest.raises(UsageError, match="at least one language"):
        write_corpus(tmp_path / "c", languages=())
    assert not (tmp_path / "c").exists()
