"""A font program shared by several fonts of a document is parsed once, and only for that document.

Fonts of one document often share one embedded program (a Type0 font per
slide over one CJK font, one face under two encodings): `stream_program`
keeps the last few parses by object number and document.
"""

from __future__ import annotations

import io

import pikepdf
import pytest

from pytest_textlayer import classify
from pytest_textlayer.generators import generate
from pytest_textlayer.pdf import fontprogram
from pytest_textlayer.pdf.fontprogram import forget_programs, load_program, stream_program


@pytest.fixture(autouse=True)
def _nothing_kept() -> None:
    forget_programs()


def _program_stream(pdf: pikepdf.Pdf) -> pikepdf.Object:
    font = next(iter(pdf.pages[0].Resources.Font.values()))
    return font.DescendantFonts[0].FontDescriptor.FontFile2


def _fixture() -> bytes:
    return generate("severed-recoverable", keep="cmap", lang="en", order="first-use").pdf


def test_a_program_stream_is_parsed_once_while_its_document_is_open() -> None:
    with pikepdf.open(io.BytesIO(_fixture())) as pdf:
        stream = _program_stream(pdf)
        first = stream_program("TrueType", stream)
        assert not first.error and first.cmap
        assert stream_program("TrueType", _program_stream(pdf)) is first
        again = load_program("TrueType", bytes(stream.read_bytes()))
        assert (again.cmap, again.post_format) == (first.cmap, first.post_format)


def test_the_same_object_number_in_another_document_is_read_anew() -> None:
    data = _fixture()
    with pikepdf.open(io.BytesIO(data)) as one, pikepdf.open(io.BytesIO(data)) as other:
        kept = stream_program("TrueType", _program_stream(one))
        assert _program_stream(other).objgen == _program_stream(one).objgen
        assert stream_program("TrueType", _program_stream(other)) is not kept


def test_forgetting_lets_the_documents_programs_go() -> None:
    with pikepdf.open(io.BytesIO(_fixture())) as pdf:
        kept = stream_program("TrueType", _program_stream(pdf))
        forget_programs()
        assert stream_program("TrueType", _program_stream(pdf)) is not kept


def test_only_the_last_few_programs_are_kept() -> None:
    with pikepdf.open(io.BytesIO(_fixture())) as pdf:
        stream = _program_stream(pdf)
        first = stream_program("TrueType", stream)
        for length1 in range(1, fontprogram.RECENT_PROGRAMS + 1):  # other keys push it out
            stream_program("TrueType", stream, length1)
        assert len(fontprogram._recent) == fontprogram.RECENT_PROGRAMS
        assert stream_program("TrueType", stream) is not first


def test_fonts_sharing_a_program_read_as_each_alone_and_the_check_keeps_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Type0 fonts over one program stream: the program is parsed once, the page reads
    as with one font, and once the document is checked no parse of it is kept."""
    with pikepdf.open(io.BytesIO(_fixture())) as pdf:
        page = pdf.pages[0]
        name, font = next(iter(page.Resources.Font.items()))
        twin = pdf.make_indirect(pikepdf.Dictionary(font))  # a second font dict, same program
        twin.DescendantFonts = pikepdf.Array([pdf.make_indirect(
            pikepdf.Dictionary(font.DescendantFonts[0]))])
        page.Resources.Font["/Twin"] = twin
        page.contents_add(pdf.make_stream(b"BT /Twin 12 Tf 72 72 Td <0001> Tj ET"))
        out = io.BytesIO()
        pdf.save(out)
    parsed: list[str | None] = []

    def counted(kind: str | None, data: bytes, length1: int = 0) -> fontprogram.Program:
        parsed.append(kind)
        return load_program(kind, data, length1)

    monkeypatch.setattr(fontprogram, "load_program", counted)
    report = classify(out.getvalue())
    assert parsed == ["TrueType"]
    alone = classify(_fixture())
    assert report.pages[0].verdict is alone.pages[0].verdict
    assert {f.route for f in report.pages[0].fonts} == {f.route for f in alone.pages[0].fonts}
    assert fontprogram._recent == {}
