"""The few facts `check` needs from a bare CFF program, read without fontTools.

A CFF program tells the classifier three things: whether it is CID-keyed
(and in which collection), its glyph names by glyph id (the charset) and
its built-in encoding. Importing ``fontTools.cffLib`` to learn them costs
about 70 ms a process, more than reading a whole page; these structures are
a header, four INDEXes and two small tables (Adobe Technical Note #5176),
read here in a few hundred microseconds.

The reading follows fontTools' (names made unique the same way, the same
predefined charsets, encoding supplements applied) and fails where it
fails, so a program fontTools cannot read is still reported as broken.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ._cffstrings import (
    EXPERT_CHARSET,
    EXPERT_SUBSET_CHARSET,
    ISO_ADOBE_CHARSET,
    STANDARD_STRINGS,
)


class CffError(ValueError):
    """The program is not a CFF font this reader can follow."""


@dataclass(frozen=True)
class CffFacts:
    #: (registry, ordering) of a CID-keyed font, None for a name-keyed one.
    ros: tuple[str, str] | None
    cid_keyed: bool
    #: Glyph name by glyph id (``cid00042`` in a CID-keyed font); empty when there is none.
    charset: list[str]
    #: "StandardEncoding", "ExpertEncoding", or code → glyph name.
    encoding: str | dict[int, str]


_ROS, _CHARSET, _ENCODING, _CHARSTRINGS = (12, 30), 15, 16, 17
#: Top DICT operators whose operands are string ids (read, so a bad id fails as in fontTools).
_SID_OPERATORS = {0, 1, 2, 3, 4, (12, 0), (12, 21), (12, 22), (12, 38)}
_REAL_NIBBLES = "0123456789.EE?-?"


def read_cff(data: bytes) -> CffFacts:
    """The CID keying, charset and encoding of the first font of a CFF program."""
    try:
        return _read(data)
    except (IndexError, struct.error, ValueError) as exc:
        if isinstance(exc, CffError):
            raise
        raise CffError(f"truncated or damaged CFF program ({type(exc).__name__})") from None


def _read(data: bytes) -> CffFacts:
    if len(data) < 4:
        raise CffError("no CFF header")
    major, _minor, header_size = data[0], data[1], data[2]
    if major != 1:
        raise CffError(f"CFF major version {major}")
    names = _Index(data, header_size)
    top_dicts = _Index(data, names.end)
    strings = _Index(data, top_dicts.end)
    _Index(data, strings.end)  # the global subroutines: read only to fail where fontTools fails
    if not names:
        raise CffError("no font in the Name INDEX")
    top = _dict(top_dicts[0], strings)
    ros = None
    if _ROS in top:
        registry, ordering, _supplement = top[_ROS]
        ros = (_string(int(registry), strings), _string(int(ordering), strings))
    cid_keyed = ros is not None
    glyph_count = None
    if _CHARSTRINGS in top:
        glyph_count = _card16(data, int(top[_CHARSTRINGS][-1]))
    charset = _charset(data, top.get(_CHARSET, [0])[-1], glyph_count, cid_keyed, strings,
                       _CHARSTRINGS in top)
    encoding: str | dict[int, str] = "StandardEncoding"
    if not cid_keyed:
        encoding = _encoding(data, int(top.get(_ENCODING, [0])[-1]), charset, strings)
    return CffFacts(ros, cid_keyed, charset, encoding)


def _card16(data: bytes, pos: int) -> int:
    if pos < 0 or pos + 2 > len(data):
        raise IndexError(pos)
    return int(data[pos]) << 8 | data[pos + 1]


def _card8(data: bytes, pos: int) -> int:
    if pos < 0:
        raise IndexError(pos)
    return data[pos]


class _Index:
    """An INDEX read in place: an item's two offsets are read when it is asked for."""

    def __init__(self, data: bytes, pos: int) -> None:
        self.data = data
        self.count = _card16(data, pos)
        self.size = _card8(data, pos + 2) if self.count else 0
        if self.count and not 1 <= self.size <= 4:
            raise CffError(f"INDEX offset size {self.size}")
        self.start = pos + 3
        self.base = self.start + (self.count + 1) * self.size - 1
        #: Where the next structure starts.
        self.end = pos + 2 if self.count == 0 else self.base + self._offset(self.count)
        if self.base >= len(data) or self.end > len(data):
            raise IndexError(self.end)

    def _offset(self, k: int) -> int:
        at = self.start + k * self.size
        return int.from_bytes(self.data[at:at + self.size], "big")

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, k: int) -> bytes:
        if not 0 <= k < self.count:
            raise IndexError(k)
        a, b = self._offset(k), self._offset(k + 1)
        if b < a:
            raise IndexError(k)
        return self.data[self.base + a:self.base + b]


def _dict(raw: bytes, strings: _Index) -> dict[object, list[float]]:
    """A DICT's operands by operator (one-byte operators as ints, escaped ones as pairs)."""
    out: dict[object, list[float]] = {}
    stack: list[float] = []
    i, n = 0, len(raw)
    while i < n:
        b0 = raw[i]
        i += 1
        if b0 <= 21:
            op: object = b0
            if b0 == 12:
                op = (12, raw[i])
                i += 1
            if op in _SID_OPERATORS:
                for value in stack:
                    _string(int(value), strings)
            out[op] = stack
            stack = []
        elif b0 == 28:
            stack.append(struct.unpack(">h", raw[i:i + 2])[0])
            i += 2
        elif b0 == 29:
            stack.append(struct.unpack(">l", raw[i:i + 4])[0])
            i += 4
        elif b0 == 30:
            number = ""
            while True:
                b = raw[i]
                i += 1
                high, low = b >> 4, b & 0xF
                if high == 0xF:
                    break
                number += _REAL_NIBBLES[high] + ("-" if high == 0xC else "")
                if low == 0xF:
                    break
                number += _REAL_NIBBLES[low] + ("-" if low == 0xC else "")
            stack.append(float(number))
        elif 32 <= b0 <= 246:
            stack.append(b0 - 139)
        elif 247 <= b0 <= 250:
            stack.append((b0 - 247) * 256 + raw[i] + 108)
            i += 1
        elif 251 <= b0 <= 254:
            stack.append(-(b0 - 251) * 256 - raw[i] - 108)
            i += 1
        else:  # 22-27, 31, 255: reserved
            raise CffError(f"reserved DICT byte {b0}")
    if stack:
        raise CffError("DICT ends with operands and no operator")
    return out


def _string(sid: int, strings: _Index) -> str:
    if sid < len(STANDARD_STRINGS):
        return STANDARD_STRINGS[sid]
    return strings[sid - len(STANDARD_STRINGS)].decode("latin-1")


def _charset(data: bytes, offset: float, glyph_count: int | None, cid_keyed: bool,
             strings: _Index, has_charstrings: bool) -> list[str]:
    offset = int(offset)
    if offset <= 2:
        if cid_keyed or not has_charstrings:
            return []
        predefined = (ISO_ADOBE_CHARSET, EXPERT_CHARSET, EXPERT_SUBSET_CHARSET)[offset]
        return list(predefined[:glyph_count])
    if glyph_count is None:
        raise CffError("charset without CharStrings")
    fmt = _card8(data, offset)
    pos = offset + 1
    ids: list[int] = []
    if fmt == 0:
        ids = list(struct.unpack_from(f">{max(glyph_count - 1, 0)}H", data, pos))
    elif fmt in (1, 2):
        step = 3 if fmt == 1 else 4
        while len(ids) + 1 < glyph_count:
            first = _card16(data, pos)
            left = _card8(data, pos + 2) if fmt == 1 else _card16(data, pos + 2)
            ids.extend(range(first, first + left + 1))
            pos += step
    else:
        raise CffError(f"charset format {fmt}")
    if cid_keyed:
        names = [".notdef"] + [f"cid{cid:05d}" for cid in ids]
    else:
        names = [".notdef"] + [_string(s, strings) for s in ids]
    if len(names) != glyph_count:
        raise CffError("charset does not cover the glyphs")
    return _unique(names)


def _unique(charset: list[str]) -> list[str]:
    """fontTools' rule for repeated names: the second ``a`` becomes ``a.1``."""
    if len(set(charset)) == len(charset):
        return charset
    seen: dict[str, int] = {}
    every = set(charset)
    out = []
    for name in charset:
        if name in seen:
            n = seen[name]
            while f"{name}.{n}" in every | set(seen):
                n += 1
            seen[name] = n + 1
            name = f"{name}.{n}"
        seen[name] = 1
        out.append(name)
    return out


def _encoding(data: bytes, offset: int, charset: list[str],
              strings: _Index) -> str | dict[int, str]:
    if offset == 0:
        return "StandardEncoding"
    if offset == 1:
        return "ExpertEncoding"
    fmt = _card8(data, offset)
    supplement, fmt = fmt & 0x80, fmt & 0x7F
    table = [".notdef"] * 256
    pos = offset + 1
    if fmt == 0:
        count = _card8(data, pos)
        for gid in range(1, count + 1):
            code = _card8(data, pos + gid)
            if code:
                table[code] = charset[gid]
        pos += count + 1
    elif fmt == 1:
        ranges = _card8(data, pos)
        gid = 1
        for k in range(ranges):
            code, left = _card8(data, pos + 1 + 2 * k), _card8(data, pos + 2 + 2 * k)
            for _ in range(left + 1):
                table[code] = charset[gid]
                code += 1
                gid += 1
        pos += 1 + 2 * ranges
    else:
        raise CffError(f"encoding format {fmt}")
    if supplement:
        for k in range(_card8(data, pos)):
            at = pos + 1 + 3 * k
            table[_card8(data, at)] = _string(_card16(data, at + 1), strings)
    return {code: name for code, name in enumerate(table) if name and name != ".notdef"}
