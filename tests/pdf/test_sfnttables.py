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
            "print(prog.error, len(prog.cmap), prog.post_format, 'fontTools.ttLib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    cmap = len(fontprogram.load_program("TrueType", VERA).cmap)
    assert done.stdout.split() == ["None", str(cmap), "2.0", "False"]


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
