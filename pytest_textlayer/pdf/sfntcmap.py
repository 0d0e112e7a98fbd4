"""A TrueType ``cmap`` table's subtables, decoded as fontTools decodes them, without a Python
step per code where it can.

fontTools decodes a whole CJK font's cmap (tens of thousands of codes) one code at a time,
and a dictionary of every code costs milliseconds per font to build and to scan, though the
cross-check of a ToUnicode asks only about the few glyphs it maps. So formats 4 and 12 are
kept as their runs of consecutive glyph ids (:class:`CodeRuns`), which answer those questions
per run. A module of its own: :mod:`.fontprogram` finds and parses programs, this reads one
table's bytes.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import (
    Collection,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from dataclasses import dataclass
from itertools import compress, islice
from operator import eq


@dataclass
class _Decoded:
    """A subtable decoded here: code → glyph id; `shared` when another record points at it."""

    cmap: Mapping[int, int]
    shared: bool = False


def cmap_subtables(raw: bytes) -> list[tuple[int, int, _Decoded]] | None:
    """A ``cmap`` table's subtables (formats 0, 4, 6 and 12) as fontTools reads them, without
    a Python step per code where it can; None when anything is unusual (fontTools decides).

    fontTools decodes a whole CJK font's cmap (tens of thousands of codes) one code at a
    time; here a run of codes with consecutive glyph ids is one C-level dictionary update.
    """
    import struct

    try:
        if len(raw) < 4:
            return None
        _, count = struct.unpack(">HH", raw[:4])
        found: list[tuple[int, int, _Decoded]] = []
        seen: dict[int, _Decoded] = {}
        for i in range(count):
            entry = raw[4 + i * 8 : 12 + i * 8]
            if len(entry) < 8:
                return None
            platform, encoding, offset = struct.unpack(">HHL", entry)
            if offset + 4 > len(raw):
                return None
            form, length = struct.unpack(">HH", raw[offset : offset + 4])
            if form == 12:
                if offset + 8 > len(raw):
                    return None
                form, _, length = struct.unpack(">HHL", raw[offset : offset + 8])
            if form not in (0, 4, 6, 12) or not length:
                return None
            if length < (16 if form == 12 else 6) or offset + length > len(raw):
                return None
            if offset in seen:
                seen[offset].shared = True
                found.append((platform, encoding, _Decoded(seen[offset].cmap, True)))
                continue
            cmap = _decode_subtable(form, raw[offset : offset + length])
            if cmap is None:
                return None
            seen[offset] = table = _Decoded(cmap)
            found.append((platform, encoding, table))
        return found
    except (struct.error, ValueError, IndexError, OverflowError):
        return None


def big_endian_array(typecode: str, data: bytes) -> array[int]:
    """`data` read as big-endian unsigned numbers (``H``: 16 bits, ``I``: 32 bits), a partial
    last one left out: one C call for a whole table or string, not a Python step each."""
    values = array(typecode)
    values.frombytes(data[: len(data) // values.itemsize * values.itemsize])
    if sys.byteorder != "big":
        values.byteswap()
    return values


def _decode_subtable(form: int, data: bytes) -> Mapping[int, int] | None:
    """Code → glyph id (glyph 0 left out) of one subtable, as fontTools decodes it; formats 4
    and 12 as :class:`CodeRuns` (a dict when their segments overlap or run backwards)."""
    import struct

    if form == 0:
        if len(data) != 262:
            return None
        return {code: gid for code, gid in enumerate(data[6:]) if gid}
    if form == 6:
        first, entries = struct.unpack(">HH", data[6:10])
        body = data[10 : 10 + 2 * entries]
        if len(body) % 2:
            return None
        gids = big_endian_array("H", body)
        return {code: gid for code, gid in zip(range(first, first + len(gids)), gids, strict=True)
                if gid}
    pieces = _format12_pieces(data) if form == 12 else _format4_pieces(data)
    return None if pieces is None else CodeRuns.of(pieces)


#: A stretch of a subtable in the order fontTools reads it: codes lo..hi to consecutive glyph
#: ids from gid (lo, hi, gid), or the codes of one segment read through its glyph id array.
_Piece = tuple[int, int, int] | dict[int, int]


def _format12_pieces(data: bytes) -> list[_Piece] | None:
    import struct

    groups_count = struct.unpack(">L", data[12:16])[0]
    if len(data) != 16 + groups_count * 12:
        return None
    groups = big_endian_array("I", data[16:])
    if groups.itemsize != 4:
        return None
    pieces: list[_Piece] = []
    last_end = 0
    for start, end, gid in zip(*[iter(groups)] * 3, strict=True):
        end = min(end, 0x10FFFF)
        if start > end or start < last_end:
            continue  # fontTools skips unsorted and overlapping groups
        last_end = end
        if gid == 0:  # the missing glyph maps only the group's first code
            start += 1
            gid += 1
        if start <= end:
            pieces.append((start, end, gid))
    return pieces


def _format4_pieces(data: bytes) -> list[_Piece] | None:
    """Segments of codes, each its glyphs by a delta or through the glyph id array."""
    import struct

    if len(data) < 14 or len(data) % 2:
        return None
    seg_count = struct.unpack(">H", data[6:8])[0] // 2
    codes = big_endian_array("H", data[14:])
    ends = codes[:seg_count]
    rest = codes[seg_count + 1 :]
    starts = rest[:seg_count]
    rest = rest[seg_count:]
    deltas = rest[:seg_count]
    rest = rest[seg_count:]
    range_offsets = rest[:seg_count]
    glyph_ids = rest[seg_count:]
    pieces: list[_Piece] = []
    for i in range(len(starts) - 1):  # the last segment (0xFFFF) is not read
        first, last, delta, range_offset = starts[i], ends[i], deltas[i], range_offsets[i]
        if range_offset == 0:
            # gid = (code + delta) mod 65536: consecutive ids, wrapping once past 0xFFFF;
            # glyph 0 (the missing glyph) maps nothing and erases no earlier mapping.
            wrap = 0x10000 - delta
            for low, high, step in ((first, min(last, wrap - 1), delta),
                                    (max(first, wrap), last, delta - 0x10000)):
                if low <= high and low + step == 0:
                    low += 1
                if low <= high:
                    pieces.append((low, high, low + step))
            continue
        if first > last:
            continue
        partial = range_offset // 2 - first + i - len(range_offsets)
        if first + partial < 0 or last + partial >= len(glyph_ids):
            return None  # fontTools refuses the table
        gids = glyph_ids[first + partial : last + partial + 1]
        if delta:
            gids = array("H", [(gid + delta) & 0xFFFF if gid else 0 for gid in gids])
        pieces.append(dict(compress(zip(range(first, last + 1), gids, strict=True), gids)))
    return pieces


class CodeRuns(Mapping[int, int]):
    """A Unicode subtable (code → glyph id) kept as its runs of consecutive glyph ids.

    A whole font maps tens of thousands of codes, mostly in long runs (GNU
    Unifont: three), and the cross-check of a ToUnicode asks only about the few
    glyphs the ToUnicode maps and how many codes are their own glyph id: a run
    answers both at once, where a dictionary of every code costs milliseconds
    per font to build and to scan. Short runs and glyph-id-array segments are
    one dictionary (`extra`), so a fragmented table costs no Python step per
    run either. Built only from runs that ascend without overlap, so the codes
    are in the order fontTools gives them; the whole dictionary, when a caller
    iterates, is built once.
    """

    #: Runs shorter than this are kept in `extra`: a step per run costs more than its codes.
    MIN_RUN = 32

    def __init__(self, runs: list[tuple[int, int, int]], extra: dict[int, int],
                 order: list[int], size: int) -> None:
        self.runs = runs  # (first code, last code, first glyph id), ascending
        self._starts = [run[0] for run in runs]
        self.extra = extra
        self._order = order  # -1: the next run; n > 0: the next n entries of `extra`
        self._size = size
        self._whole: dict[int, int] | None = None

    @classmethod
    def of(cls, pieces: Sequence[_Piece]) -> Mapping[int, int]:
        """The map the pieces make, read in order (a later code wins, as in fontTools): runs
        when they ascend without overlap, else the dictionary."""
        runs: list[tuple[int, int, int]] = []
        extra: dict[int, int] = {}
        order: list[int] = []
        last = -1
        for piece in pieces:
            if isinstance(piece, dict):
                if not piece:
                    continue
                low, high = next(iter(piece)), next(reversed(piece))  # its codes ascend
            else:
                low, high, _ = piece
            if low <= last:
                return _replay(pieces)
            last = high
            if isinstance(piece, tuple) and high - low + 1 >= cls.MIN_RUN:
                runs.append(piece)
                order.append(-1)
                continue
            before = len(extra)
            extra.update(_piece_items(piece))
            if order and order[-1] > 0:
                order[-1] += len(extra) - before
            else:
                order.append(len(extra) - before)
        size = len(extra) + sum(high - low + 1 for low, high, _ in runs)
        return cls(runs, extra, order, size)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, code: int) -> int:
        if code in self.extra:
            return self.extra[code]
        at = bisect_right(self._starts, code) - 1
        if at >= 0:
            low, high, gid = self.runs[at]
            if code <= high:
                return gid + code - low
        raise KeyError(code)

    def __contains__(self, code: object) -> bool:
        try:
            self[code]  # type: ignore[index]
        except (KeyError, TypeError):
            return False
        return True

    def whole(self) -> dict[int, int]:
        """Every code and its glyph, in the table's order (built once, on first need)."""
        if self._whole is None:
            out: dict[int, int] = {}
            runs = iter(self.runs)
            entries = iter(self.extra.items())
            for step in self._order:
                out.update(_piece_items(next(runs)) if step < 0 else islice(entries, step))
            self._whole = out
        return self._whole

    def __iter__(self) -> Iterator[int]:
        return iter(self.whole())

    def keys(self) -> KeysView[int]:
        return self.whole().keys()

    def items(self) -> ItemsView[int, int]:
        return self.whole().items()

    def values(self) -> ValuesView[int]:
        return self.whole().values()

    def fixed_points(self) -> int:
        """How many codes select the glyph of their own number."""
        extra: int = sum(map(eq, self.extra.keys(), self.extra.values()))
        return extra + sum(high - low + 1 for low, high, gid in self.runs if gid == low)

    def codes_of(self, gids: Collection[int]) -> list[tuple[int, int]]:
        """(code, glyph id) of every code that selects one of `gids`, in the table's order."""
        found = list(compress(self.extra.items(), map(gids.__contains__, self.extra.values())))
        wanted = sorted(gids)
        for low, high, gid in self.runs:
            last = gid + high - low
            for at in range(bisect_left(wanted, gid), bisect_right(wanted, last)):
                found.append((low + wanted[at] - gid, wanted[at]))
        found.sort()
        return found


def _piece_items(piece: _Piece) -> Iterable[tuple[int, int]]:
    if isinstance(piece, dict):
        return piece.items()
    low, high, gid = piece
    return zip(range(low, high + 1), range(gid, gid + high - low + 1), strict=True)


def _replay(pieces: Sequence[_Piece]) -> dict[int, int]:
    out: dict[int, int] = {}
    for piece in pieces:
        out.update(_piece_items(piece))
    return out
