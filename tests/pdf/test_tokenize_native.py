"""The compiled tokenizer gives exactly what the Python one gives, or hands the stream back.

`contentstream.tokenize` reads a stream with the extension built from
`pytest_textlayer/pdf/_tokenize.c` when it is installed; `tokenize_python` is the
route of the streams it hands back and of builds without a compiler. Both
must give the walk the same instructions, operand for operand (a float's
sign and bits included), on streams generated token by token, on pages real
producers write, and on every content stream of the corpora beside the
checkout when they are present.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from _paths import REAL_CORPUS, WILD_CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf import contentstream
from pytest_textlayer.pdf.contentstream import tokenize, tokenize_python

native = pytest.mark.skipif(contentstream._scan is None, reason="extension not built")


def same(v: Any) -> Any:
    """A value with floats as their bits and qpdf objects as their text, for exact comparison."""
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(same(x) for x in v))
    if isinstance(v, float):
        return ("float", v.hex())
    if isinstance(v, (bytes, str, int)) or v is None:
        return (type(v).__name__, v)
    return (type(v).__name__, repr(v))


def both(data: bytes) -> tuple[Any, Any]:
    contentstream._memo.clear()
    fast = tokenize(data)
    contentstream._memo.clear()
    slow = tokenize_python(data)
    return (None if fast is None else same(fast)), (None if slow is None else same(slow))


def handled(data: bytes) -> bool:
    """Did the extension read `data` itself (rather than hand it to the Python route)?"""
    try:
        return contentstream._scan is not None and contentstream._scan(
            data, contentstream.operands) is not None
    except Exception:
        return True  # an operand qpdf rejects: read, and refused, by the extension


_TOKENS = st.sampled_from([
    b"0", b"12", b"-3.5", b".25", b"+7", b"4.", b"-0", b"1.2.3", b"0.1", b"123456789012345678",
    b"3.14159265358979323846", b"/F1", b"/Name#20x", b"/\xe9", b"/", b"(abc)", b"(a\\)b)",
    b"(\\101\\12)", b"(a\rb)", b"(\x00A)", b"()", b"(50%)", b"<414243>", b"<4 1>", b"<>",
    b"<41\x0042>", b"[", b"]", b"<<", b">>", b"<</K 1>>", b"<</MCID 3>>",
    b"<</MCID 3 /Lang (en)>>", b"true", b"false", b"null", b"BT", b"ET", b"Tf", b"Tj", b"TJ",
    b"Td", b"TD", b"Tm", b"T*", b"'", b'"', b"cm", b"q", b"Q", b"Do", b"BDC", b"BMC", b"EMC",
    b"re", b"f", b"S", b"Tz", b"Tr", b"%c\n", b"%c", b"gs", b"d", b"d0", b"W*", b"xyz", b"BI",
    b"(", b")", b"{", b"}", b"1-2", b"--1", b"/P", b"/OC", b"/Span", b"/MCID", b"/Lang",
    b"(a\\(b)", b"(\\101\\n\\t\\b\\f\\r\\\\)", b"(\\777)", b"(x\\\ny)", b"(x\\\r\ny)", b"(\\q)",
    b"(\\0)", b"(\\12a)", b"%(x\n", b"% [ <<\r", b"(%)", b"%)\n", b"(\\%)", b"%",
    b"([)", b"(]>>)", b"(<<[)",
])
_SPACES = st.sampled_from([b" ", b"\n", b"\r\n", b"\t", b"", b"\x00", b"\x0c", b"\r", b"\x0b"])


@native
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(_TOKENS, _SPACES), max_size=40))
def test_generated_streams_give_the_same_instructions(parts: list[tuple[bytes, bytes]]) -> None:
    data = b"".join(token + space for token, space in parts)
    fast, slow = both(data)
    assert fast == slow, data


@native
@pytest.mark.parametrize("data", [
    b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Hello) Tj T* [(W) 80 (orld) -250 (!)] TJ ET",
    b"BT /F1 12 Tf [(a) 1.2.3 (b)] TJ ET",  # the Python route reads two numbers there
    b"BT /F1 -0 Tf -0 0 Td [<00 41> -.5 (x\x00y)] TJ ET",
    b"/P <</MCID 0>> BDC BT /F1 9 Tf (x) Tj ET EMC /OC /L1 BDC EMC",
    b"[] 0 d 0 J q 1 0 0 1 0 0 cm /Im1 Do Q % done\n",
    b"BT /F1 12 Tf (50%) Tj ET",
    b"BT /F1 12 Tf (a(b)c) Tj ET",
    b"BT\x00/F1 12 Tf\x00(x) Tj 1\x000 Td ET",
    # escapes, qpdf's integers and marked-content ids, read in C as the Python route reads them
    b"BT /F1 12 Tf (a\\(b\\) \\101\\n) Tj [(x\\051) -250 (y) 0.5 -0] TJ 2 3 (q\\)) \" ET",
    b"BT (long\\\nline) Tj (\\777) Tj (a\\qb) Tj (c\\\r\nd) Tj ET",
    b"/Span <</MCID 3 /Lang (en)>> BDC EMC /P <</MCID 12>> BDC EMC /OC <</MCID 1>> BDC EMC",
    b"/PlacedGraphic /MC0 BDC EMC /Artifact <</Type /Pagination>> BDC EMC /P <</MCID -1>> BDC",
    b"",
])
def test_hand_written_streams_give_the_same_instructions(data: bytes) -> None:
    fast, slow = both(data)
    assert fast == slow


@pytest.mark.parametrize("data", [
    b"% mps graphic 2: end\n1 0 0 1 -552.75608 -44.54673 cm BT /F1 %size\n 12 Tf ET",
    b"BT /F1 12 Tf [(a) % a kern follows\n -250 (b)] TJ (50%) Tj (\\(%\\)) Tj ET",
    b"q 1 0 0 1 5 5 cm% no space before it\rQ %(unbalanced in a comment\n",
])
def test_comments_are_white_space_as_qpdf_reads_them(data: bytes) -> None:
    """TeX and MetaPost write comments between operands: read as qpdf reads them, not handed
    to qpdf's parser (a LuaTeX manual's pages went there two in five)."""
    from pytest_textlayer.pdf.content import OPERATORS
    from pytest_textlayer.pdf.contentstream import WALKED, from_pikepdf

    pdf = pikepdf.new()
    def floats(v: Any) -> Any:  # qpdf's integers are the tokenizers' floats
        if isinstance(v, (list, tuple)):
            return type(v)(floats(x) for x in v)
        return float(v) if isinstance(v, int) else v

    qpdf = [(op, floats(args))
            for op, args in from_pikepdf(pikepdf.parse_content_stream(pdf.make_stream(data),
                                                                      OPERATORS))
            if op in WALKED]
    ours = tokenize(data)
    assert ours is not None and same(ours) == same(qpdf)
    assert same(tokenize_python(data)) == same(ours)
    if contentstream._scan is not None:
        assert handled(data)


def _reportlab_pages() -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=A4)
    for n in range(3):
        t = c.beginText(72, 760)
        t.setFont("Helvetica", 11)
        t.setCharSpace(0.2)
        for line in range(40):
            t.textLine(f"Page {n + 1}, line {line}: (parentheses), back\\slash, 100% done; é ü")
        c.drawText(t)
        c.setDash([3, 1], 0)
        c.rect(50, 50, 200, 100, stroke=1, fill=0)
        c.showPage()
    c.save()
    return out.getvalue()


def _content_streams(pdf: pikepdf.Pdf) -> list[bytes]:
    """Every page's joined content and every form and glyph procedure of `pdf`."""
    found = []
    for page in pdf.pages:
        data = contentstream._read(page)
        if data is not None:
            found.append(data)
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == pikepdf.Name.Form:
            try:
                found.append(obj.read_bytes())
            except Exception:
                continue
    for font in pdf.objects:
        procs = font.get("/CharProcs") if isinstance(font, pikepdf.Dictionary) else None
        if isinstance(procs, pikepdf.Dictionary):
            for proc in procs.values():
                if isinstance(proc, pikepdf.Stream):
                    found.append(proc.read_bytes())
    return found


@native
def test_a_reportlab_document_is_read_by_the_extension_alike() -> None:
    with pikepdf.open(io.BytesIO(_reportlab_pages())) as pdf:
        streams = _content_streams(pdf)
    assert streams and all(handled(data) for data in streams)
    for data in streams:
        fast, slow = both(data)
        assert fast is not None and fast == slow


def _corpus_files(folder: Path, limit: int | None = None) -> list[Path]:
    files = sorted(folder.glob("*.pdf")) if folder.is_dir() else []
    return files[:limit] if limit else files


@native
@pytest.mark.parametrize("folder", [REAL_CORPUS, WILD_CORPUS], ids=["real", "wild"])
def test_every_content_stream_of_the_corpora_is_read_alike(folder: Path) -> None:
    files = _corpus_files(folder)
    if not files:
        pytest.skip(f"no corpus at {folder}")
    streams = read = 0
    for path in files:
        try:
            pdf = pikepdf.open(path)
        except Exception:
            continue
        with pdf:
            for data in _content_streams(pdf):
                if len(data) > 2_000_000:
                    continue
                fast, slow = both(data)
                assert fast == slow, (path.name, data[:120])
                streams += 1
                read += handled(data)
    assert streams and read > streams // 2  # the extension reads most real streams itself


def test_without_the_extension_the_python_route_reads_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"BT /F1 12 Tf 72 700 Td [(a) -20 <0041>] TJ ET"
    monkeypatch.setattr(contentstream, "_scan", None)
    assert tokenize(data) == [
        (b"BT", ()), (b"Tf", ("/F1", 12.0)), (b"Td", (72.0, 700.0)),
        (b"TJ", ([b"a", -20.0, b"\x00A"],)), (b"ET", ())]


def test_a_form_drawn_by_every_page_is_kept_from_the_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_textlayer.pdf.content import scan_page

    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
        Encoding=pikepdf.Name.WinAnsiEncoding))
    form = pdf.make_stream(b"BT /F1 10 Tf 0 0 Td (shared footer) Tj ET", pikepdf.Dictionary(
        Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 200, 20],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))))
    for n in range(4):
        pdf.add_blank_page()
        page = pdf.pages[n]
        page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Fx=form))
        page.obj.Contents = pdf.make_stream(f"q 1 0 0 1 72 {40 + n} cm /Fx Do Q".encode())
    read: list[Any] = []
    real = contentstream.instructions
    monkeypatch.setattr(contentstream, "instructions", lambda s: read.append(s) or real(s))
    cache: dict[Any, Any] = {}
    glyphs = [scan_page(pdf, n, cache).glyphs for n in range(4)]
    assert glyphs == [13, 13, 13, 13]
    forms = [s for s in read if isinstance(s, pikepdf.Stream) and s.objgen == form.objgen]
    # read for the first page, kept when the second draws it again, then read from the cache
    assert len(forms) == 2 and len(read) == 6  # four pages, the form twice
