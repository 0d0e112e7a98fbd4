"""A TrueType program read without fontTools reads, and fails, as fontTools reads it.

`fontprogram.load_program` answers a program of the usual shape from its own
table directory (`sfnttables.PlainSfnt`) and hands everything else to
fontTools' TTFont. Each program here, whole and damaged in the ways real
files are (truncated, a directory or ``maxp`` byte changed, a table past the
end), must give the same Program either way, errors included; the real
corpus's embedded TrueType programs too, where it is present.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pikepdf
import pytest
import reportlab
from _paths import REAL_CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf import fontprogram, sfnttables

FONTS = Path(reportlab.__file__).parent / "fonts"
VERA = (FONTS / "Vera.ttf").read_bytes()  # a whole TrueType: cmap, post format 2 names


def _described(prog: fontprogram.Program) -> dict[str, str]:
    out = {}
    for f in dataclasses.fields(prog):
        value: Any = getattr(prog, f.name)
        if isinstance(value, fontprogram._LazyNames):
            value = list(value)
        elif hasattr(value, "items"):
            value = sorted(value.items())
        out[f.name] = repr(value)
    return out


def _both(data: bytes) -> tuple[dict[str, str], dict[str, str]]:
    plain = _described(fontprogram.load_program("TrueType", data))
    with mock.patch.object(sfnttables.PlainSfnt, "of", classmethod(lambda cls, d: None)):
        tools = _described(fontprogram.load_program("TrueType", data))
    return plain, tools


def _tables(data: bytes) -> dict[str, tuple[int, int]]:
    found = sfnttables.PlainSfnt.of(data)
    assert found is not None
    return found._tables


def _damaged(data: bytes) -> list[bytes]:
    maxp, cmap = _tables(data)["maxp"], _tables(data)["cmap"]
    variants = [data[:n] for n in (0, 4, 11, 12, 27, 28, 200, cmap[0] + 3, maxp[0] + 5)]
    for at, value in ((4, 0), (5, 1), (5, 0xFF), (0, ord("O")), (maxp[0], 9), (maxp[0] + 3, 0),
                      (maxp[0] + 4, 0xFF), (cmap[0] + 1, 7)):
        changed = bytearray(data)
        changed[at] = value
        variants.append(bytes(changed))
    short_maxp = bytearray(data)  # maxp said to be 8 bytes long: fontTools faults on it
    entry = 12 + 16 * sorted(_tables(data)).index("maxp")
    short_maxp[entry + 12:entry + 16] = (8).to_bytes(4, "big")
    variants.append(bytes(short_maxp))
    return variants


def test_a_whole_program_and_its_damaged_copies_read_alike() -> None:
    for variant in [VERA, *_damaged(VERA)]:
        plain, tools = _both(variant)
        assert plain == tools, len(variant)
    whole = _both(VERA)[0]
    assert whole["error"] == "None" and whole["post_format"] == "2.0"
    assert _both(VERA[:100])[0]["error"] == "'TTLibError'"  # the tables past the end


@settings(max_examples=300, deadline=None)
@given(at=st.integers(0, 600), value=st.integers(0, 255), cut=st.integers(0, len(VERA)))
def test_a_byte_changed_or_the_end_cut_reads_alike(at: int, value: int, cut: int) -> None:
    changed = bytearray(VERA[:cut])
    if at < len(changed):
        changed[at] = value
    plain, tools = _both(bytes(changed))
    assert plain == tools


def test_the_usual_program_is_read_without_importing_fonttools(tmp_path: Path) -> None:
    font = tmp_path / "font.ttf"
    font.write_bytes(VERA)
    code = ("import sys; from pytest_textlayer.pdf.fontprogram import load_program; "
            f"prog = load_program('TrueType', open({str(font)!r}, 'rb').read()); "
            "print(prog.error, len(prog.cmap), prog.post_format, len(prog.glyph_names), "
            "'fontTools' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    prog = fontprogram.load_program("TrueType", VERA)
    assert done.stdout.split() == ["None", str(len(prog.cmap)), "2.0",
                                   str(len(prog.glyph_names)), "False"]


def _glyph_orders(data: bytes) -> tuple[Any, Any]:
    """(this module's glyph order, fontTools'), each an exception's name where it raises."""
    import io

    from fontTools.ttLib import TTFont

    def named(read: Any) -> Any:
        try:
            return read()
        except Exception as exc:  # noqa: BLE001 - each must raise alike
            return type(exc).__name__

    plain = sfnttables.PlainSfnt.of(data)
    assert plain is not None
    return (named(plain.getGlyphOrder),
            named(lambda: TTFont(io.BytesIO(data), lazy=True, fontNumber=0).getGlyphOrder()))


def test_the_post_names_are_fonttools_own() -> None:
    """Formats 1 and 2 are read here (a name given twice numbered, a nameless glyph named by
    its id, the data running out), every other case by fontTools, alike."""
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    from pytest_textlayer.pdf._cffstrings import MAC_STANDARD_ORDER

    assert list(MAC_STANDARD_ORDER) == standardGlyphOrder
    assert sfnttables.PlainSfnt.of(VERA)._post_names() is not None  # type: ignore[union-attr]
    offset, length = _tables(VERA)["post"]
    variants = [VERA]
    for at, value in ((offset + 1, 1), (offset + 1, 3), (offset + 1, 0x50), (offset + 32, 0xFF),
                      (offset + 33, 7), (offset + 35, 0x01), (offset + 40, 0xFF),
                      (offset + length - 3, 0xFF), (offset + 100, 3)):
        changed = bytearray(VERA)
        changed[at] = value
        variants.append(bytes(changed))
    for variant in variants:
        ours, theirs = _glyph_orders(variant)
        assert ours == theirs


def _sfnt(glyphs: int, post: bytes) -> bytes:
    """A program of two tables: ``maxp`` (version 0.5, `glyphs` glyphs) and ``post``."""
    tables = {"maxp": (0x00005000).to_bytes(4, "big") + glyphs.to_bytes(2, "big"),
              "post": post}
    out = b"\x00\x01\x00\x00" + len(tables).to_bytes(2, "big") + bytes(6)
    offset = 12 + 16 * len(tables)
    body = b""
    for tag, data in tables.items():
        out += tag.encode() + bytes(4) + (offset + len(body)).to_bytes(4, "big")
        out += len(data).to_bytes(4, "big")
        body += data
    return out + body


def _post2(indices: list[int], strings: bytes, count: int | None = None) -> bytes:
    head = (0x00020000).to_bytes(4, "big") + bytes(28)
    named = len(indices) if count is None else count
    return head + named.to_bytes(2, "big") + b"".join(i.to_bytes(2, "big") for i in indices) \
        + strings


@pytest.mark.parametrize(("glyphs", "post"), [
    (3, _post2([258, 258, 259], b"\x01a\x03a.1")),  # a name given twice, and its .1 taken
    (4, _post2([0, 3, 300, 36], b"\x01x")),  # an index past the font's own names
    (3, _post2([258, 259, 260], b"\x02ab\x05cd")),  # the strings run out mid-name
    (3, _post2([258, 259], b"\x02ab\x02cd\x00\x00")),  # more data than names, fewer ids
    (2, _post2([258, 259, 36], b"\x01p\x01q", count=3)),  # more ids than glyphs
    (4, _post2([0, 0, 3], b"", count=3)),  # a glyph no index names
    (3, (0x00010000).to_bytes(4, "big") + bytes(28)),  # format 1: the standard names
    (300, (0x00010000).to_bytes(4, "big") + bytes(28)),  # past them: fontTools asks the cmap
])
def test_a_made_post_table_names_alike(glyphs: int, post: bytes) -> None:
    ours, theirs = _glyph_orders(_sfnt(glyphs, post))
    assert ours == theirs


@settings(max_examples=200, deadline=None)
@given(at=st.integers(0, 2000), value=st.integers(0, 255))
def test_a_post_byte_changed_names_alike(at: int, value: int) -> None:
    offset, length = _tables(VERA)["post"]
    changed = bytearray(VERA)
    changed[offset + at % length] = value
    ours, theirs = _glyph_orders(bytes(changed))
    assert ours == theirs


def _corpus_programs() -> list[bytes]:
    programs = []
    for path in sorted(REAL_CORPUS.glob("*.pdf")):
        try:
            with pikepdf.open(path) as pdf:
                for obj in pdf.objects:
                    if isinstance(obj, pikepdf.Dictionary) and "/FontFile2" in obj:
                        stream = obj.FontFile2
                        if isinstance(stream, pikepdf.Stream):
                            programs.append(stream.read_bytes())
        except pikepdf.PdfError:
            continue
    return programs


@pytest.mark.skipif(not REAL_CORPUS.is_dir(), reason="real corpus absent (../shared/corpus)")
def test_the_real_corpus_programs_read_alike() -> None:
    programs = _corpus_programs()
    assert len(programs) > 50
    assert sum(sfnttables.PlainSfnt.of(p) is not None for p in programs) > 0.9 * len(programs)
    for data in programs:
        plain, tools = _both(data)
        assert plain == tools
