"""The ``cmap`` subtables read here are the ones fontTools reads, whole fonts kept as runs."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from _producers import CJK_FONT, DEJAVU, FONTS
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import table__c_m_a_p

from pytest_textlayer.pdf.crosscheck import _cmap_usable, _glyph_texts
from pytest_textlayer.pdf.fontprogram import _GlyphIds, load_program
from pytest_textlayer.pdf.sfntcmap import CodeRuns, cmap_subtables

WHOLE_FONTS = [DEJAVU / "DejaVuSans.ttf", FONTS / "liberation" / "LiberationSans-Regular.ttf",
               CJK_FONT]


def _fonttools_subtables(raw: bytes) -> list[tuple[int, int, dict[int, int]]]:
    table = table__c_m_a_p("cmap")
    table.decompile(raw, _GlyphIds())
    return [(t.platformID, t.platEncID, dict(t.cmap)) for t in table.tables]


def _format4(segments: list[tuple[int, int, int, list[int] | None]]) -> bytes:
    """A (3,1) cmap of one format 4 subtable: (first, last, delta, glyph ids or None) each, the
    closing 0xFFFF segment added."""
    segments = [*segments, (0xFFFF, 0xFFFF, 1, None)]
    count = len(segments)
    offsets: list[int] = []
    glyphs: list[int] = []
    for i, (_, _, _, ids) in enumerate(segments):
        # the offset counts from this segment's own idRangeOffset entry to its first glyph id
        offsets.append(0 if ids is None else 2 * (count - i + len(glyphs)))
        glyphs.extend(ids or ())
    body = struct.pack(f">{count}H", *(s[1] for s in segments)) + b"\0\0"
    body += struct.pack(f">{count}H", *(s[0] for s in segments))
    body += struct.pack(f">{count}H", *(s[2] & 0xFFFF for s in segments))
    body += struct.pack(f">{count}H", *offsets) + struct.pack(f">{len(glyphs)}H", *glyphs)
    head = struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * count, 0, 0, 0)
    return struct.pack(">HHHHL", 0, 1, 3, 1, 12) + head + body


@pytest.mark.parametrize("path", WHOLE_FONTS, ids=lambda p: p.name)
def test_whole_fonts_subtables_are_fonttools_own(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is not installed")
    raw = TTFont(path, lazy=True).getTableData("cmap")
    ours = cmap_subtables(raw)
    assert ours is not None
    theirs = _fonttools_subtables(raw)
    assert [(p, e, list(t.cmap.items())) for p, e, t in ours] == [
        (p, e, list(m.items())) for p, e, m in theirs]
    assert any(isinstance(t.cmap, CodeRuns) for _, _, t in ours)


@pytest.mark.parametrize("path", WHOLE_FONTS, ids=lambda p: p.name)
def test_runs_answer_the_cross_check_as_the_whole_dictionary_does(path: Path) -> None:
    """The few glyphs a ToUnicode maps, and the count of codes that are their glyph's id, come
    from the runs without building the dictionary; the answers are the dictionary's."""
    if not path.exists():
        pytest.skip(f"{path} is not installed")
    cmap = load_program("TrueType", path.read_bytes()).cmap
    assert isinstance(cmap, CodeRuns)
    whole = dict(cmap.items())
    gids = set(sorted(set(whole.values()))[::97]) | {0, 10**6}
    assert _glyph_texts(cmap, gids) == _glyph_texts(whole, gids)
    assert list(_glyph_texts(cmap, gids)) == list(_glyph_texts(whole, gids))
    assert _cmap_usable(cmap) == _cmap_usable(whole) is True
    assert cmap.fixed_points() == sum(code == gid for code, gid in whole.items())
    for code in (*list(whole)[::501], -1, 0, 0x41, 0x10FFFF):
        assert cmap.get(code) == whole.get(code)
        assert (code in cmap) == (code in whole)


def test_runs_give_each_code_once_and_glyph_zero_never() -> None:
    long_run = (0x20, 0x7E, 3 - 0x20, None)  # 95 codes from glyph 3 on
    wrapping = (0x100, 0x140, -0x120, None)  # gid wraps past 0xFFFF, 0 left out, on from 1
    by_array = (0x200, 0x204, 0, [5, 0, 7, 7, 9])
    fixed = (0x400, 0x47F, 0, None)  # code = glyph id: 128 of them
    raw = _format4([long_run, wrapping, by_array, fixed])
    ours = cmap_subtables(raw)
    assert ours is not None
    (_, _, table), = ours
    assert isinstance(table.cmap, CodeRuns)
    (_, _, theirs), = _fonttools_subtables(raw)
    assert list(table.cmap.items()) == list(theirs.items())
    assert 0 not in table.cmap.values() and len(table.cmap) == len(theirs)
    assert table.cmap.fixed_points() == 128
    assert table.cmap.codes_of({7, 4, 0x401}) == [
        (0x21, 4), (0x24, 7), (0x124, 4), (0x127, 7), (0x202, 7), (0x203, 7), (0x401, 0x401)]


def test_overlapping_segments_are_read_as_fonttools_reads_them() -> None:
    """A later segment over an earlier one wins code by code: no runs, fontTools' dictionary."""
    raw = _format4([(0x20, 0x7E, 3, None), (0x40, 0x60, 100, None), (0x50, 0x52, 0, [0, 9, 9])])
    ours = cmap_subtables(raw)
    assert ours is not None
    (_, _, table), = ours
    assert not isinstance(table.cmap, CodeRuns)
    (_, _, theirs), = _fonttools_subtables(raw)
    assert list(table.cmap.items()) == list(theirs.items())
