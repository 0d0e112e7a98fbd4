"""Decompression bombs stopped where the classifier reads a stream, not by reading every object.

qpdf decodes a stream whole when it is read. A few kilobytes of nested
deflates can hold gigabytes, so a stream is measured first: its stored size,
then what its filters decode it to, counted a chunk at a time and cut past
the limit, so measuring a bomb costs the limit, never the bomb.

`textlayer check` measures each stream as the walk reaches it (content
streams, forms, glyph procedures, fonts, CMaps), inside :func:`bounded`: a
file is no longer parsed whole before its first page (on a 198-page document
joined from six kinds of PDF, 4 % of the CPU and 4 MiB of peak memory), and
a stream no page reads is never inflated. The repair, which hands the file to qpdf whole, still
measures every stream first (``run.limits.precheck``).
"""

from __future__ import annotations

import base64
import contextlib
import string
import zlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

#: Deflate's largest expansion (RFC 1951: a 258-byte match costs at least two bits per
#: three bytes' code, ~1032:1), so small streams need not be inflated to be bounded.
MAX_DEFLATE_RATIO = 1032
#: Decompression reads this much output at a time, so a bomb never lands in memory whole.
CHUNK = 4 * 1024 * 1024

#: Filters whose output is measured, bounded; the others (images' DCT, JPX, JBIG2, CCITT;
#: Crypt) end the chain: the classifier never decodes them.
_FLATE, _HEX, _A85, _RL, _LZW = (("/FlateDecode", "/Fl"), ("/ASCIIHexDecode", "/AHx"),
                                 ("/ASCII85Decode", "/A85"), ("/RunLengthDecode", "/RL"),
                                 ("/LZWDecode", "/LZW"))

#: LZW's largest expansion: a 12-bit code names one of at most 4,096 entries, the longest
#: 3,839 bytes (each entry one byte longer than one before it, from two bytes at 258).
MAX_LZW_RATIO = 2560
#: The most one pass of each filter decodes a byte of input to: deflate and LZW as above,
#: run length 128 bytes from two, ASCII85's ``z`` four zero bytes from one, hex half a byte.
#: A filter not named here is not decoded (its output is the input's size).
_MAX_RATIO = {**dict.fromkeys(_FLATE, MAX_DEFLATE_RATIO), **dict.fromkeys(_LZW, MAX_LZW_RATIO),
              **dict.fromkeys(_RL, 64), **dict.fromkeys(_A85, 4), **dict.fromkeys(_HEX, 1)}

#: The largest decoded size a stream read in this context may have (None: unbounded).
_LIMIT: ContextVar[int | None] = ContextVar("textlayer_stream_limit", default=None)


class StreamTooLarge(BaseException):
    """A stream the walk was about to read passes the limit: the document is refused.

    A BaseException, as a timeout would be: the walk's many ``except Exception``
    turn a damaged object into a finding about one page or font, and a refused
    document must not become one.
    """

    def __init__(self, objgen: tuple[int, int], how: str, limit: int) -> None:
        super().__init__(objgen, how, limit)
        self.objgen, self.how, self.limit = objgen, how, limit


@contextlib.contextmanager
def bounded(limit: int | None) -> Iterator[None]:
    """Streams read inside decode to at most ``limit`` bytes, or raise StreamTooLarge."""
    token = _LIMIT.set(limit)
    try:
        yield
    finally:
        _LIMIT.reset(token)


def guard(stream: Any) -> bytes | None:
    """Raise StreamTooLarge when ``stream`` (a pikepdf.Stream) would decode past the limit;
    else its decoded bytes when measuring made them (see :func:`read_bytes`), or None."""
    limit = _LIMIT.get()
    if limit is None:
        return None
    how, inflated = _measure(stream, limit)
    if how is not None:
        raise StreamTooLarge(stream.objgen, how, limit)
    return inflated


def read_bytes(stream: Any) -> bytes:
    """``stream.read_bytes()``, measured first; raises as qpdf's read does.

    A stream measured by inflating it whole (one plain /FlateDecode, big enough
    to need it: large font programs) gives those bytes, so it is not inflated
    twice; any other is read by qpdf.
    """
    measured = guard(stream)
    return measured if measured is not None else bytes(stream.read_bytes())


def oversized(stream: Any, limit: int) -> str | None:
    """How ``stream`` passes ``limit`` ("is larger than", "inflates to more than") or None.

    A stream whose dictionary or data qpdf cannot read passes: reading it
    fails the same way, and the caller reports that.
    """
    return _measure(stream, limit)[0]


def _measure(stream: Any, limit: int) -> tuple[str | None, bytes | None]:
    import pikepdf

    try:
        filters = stream.get("/Filter")
        if isinstance(filters, pikepdf.Array):
            names = [str(f) for f in filters]
        elif filters is None:
            names = []
        else:
            names = [str(filters)]
        raw = bytes(stream.read_raw_bytes())
        plain = names == ["/FlateDecode"] and stream.get("/DecodeParms") is None
        early = _early_changes(stream.get("/DecodeParms"), len(names))
    except Exception:
        return None, None
    if len(raw) > limit:  # stored (or encoded) bigger than the limit already
        return "is larger than", None
    if len(names) == 1 and len(raw) * _MAX_RATIO.get(names[0], 1) <= limit:
        return None, None  # one pass of this filter cannot reach the limit: nothing to decode
    if plain:
        inflated, whole = _inflate_whole(raw, limit)
        if len(inflated) > limit:
            return "inflates to more than", None
        return None, inflated if whole else None
    if names and decoded_size(raw, names, limit, early) > limit:
        return "inflates to more than", None
    return None, None


def _inflate_whole(raw: bytes, limit: int) -> tuple[bytes, bool]:
    """:func:`_inflate`, and whether the data inflated cleanly to its end (qpdf's bytes)."""
    inflater = zlib.decompressobj()
    out = bytearray()
    data = raw
    try:
        while data and len(out) <= limit:
            out += inflater.decompress(data, min(CHUNK, limit + 1 - len(out)) or 1)
            data = inflater.unconsumed_tail
    except zlib.error:
        return bytes(out), False
    return bytes(out), inflater.eof and not data and not inflater.unused_data


def _early_changes(parms: Any, count: int) -> list[int]:
    """Each filter's LZW ``/EarlyChange`` (1 unless its ``/DecodeParms`` say 0)."""
    import pikepdf

    each = list(parms) if isinstance(parms, pikepdf.Array) else [parms] * count
    out = []
    for i in range(count):
        one = each[i] if i < len(each) else None
        value = one.get("/EarlyChange") if isinstance(one, pikepdf.Dictionary) else None
        out.append(0 if value is not None and int(value) == 0 else 1)
    return out


def decoded_size(raw: bytes, names: list[str], limit: int,
                 early_changes: list[int] | None = None) -> int:
    """How many bytes a filter chain decodes `raw` to, counting at most about ``limit + 1``.

    Every layer is decoded with its output cut past the limit, so a chain of
    deflates (18 KB that are 4 GiB inside) costs at most the limit in memory
    and time, not the bomb's size. Predictors never enlarge data: not applied.
    ``early_changes`` gives each LZW layer's ``/EarlyChange`` (1 when not given).
    """
    data = raw
    for i, name in enumerate(names):
        if name in _FLATE:
            data = _inflate(data, limit)
        elif name in _HEX:
            digits = bytes(c for c in data.split(b">", 1)[0] if chr(c) in string.hexdigits)
            data = bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))
        elif name in _A85:
            try:
                data = base64.a85decode(data.split(b"~>", 1)[0] + b"~>", adobe=True)
            except ValueError:
                return len(data)  # damaged: decoding stops here, as qpdf's would
        elif name in _RL:
            data = _run_length(data, limit)
        elif name in _LZW:
            data = _lzw(data, limit, early_changes[i] if early_changes else 1)
        else:
            break
        if len(data) > limit:
            return len(data)
    return len(data)


def _inflate(raw: bytes, limit: int) -> bytes:
    return _inflate_whole(raw, limit)[0]


def _run_length(raw: bytes, limit: int) -> bytes:
    out = bytearray()
    i = 0
    while i < len(raw) and len(out) <= limit:
        n = raw[i]
        if n == 128:
            break
        if n < 128:
            out += raw[i + 1:i + 2 + n]
            i += n + 2
        else:
            out += raw[i + 1:i + 2] * (257 - n)
            i += 2
    return bytes(out)


#: Entries an LZW table holds (12-bit codes): a stream that needs one more without a clear
#: code is damaged, and qpdf stops reading it there ("table full").
LZW_TABLE = 4096


def _lzw(raw: bytes, limit: int, early: int = 1) -> bytes:
    """LZW as PDF uses it (codes of 9 to 12 bits, widened one code early unless ``early``
    is 0, the stream's ``/EarlyChange``), cut past the limit, and where qpdf's decoder
    stops: a full table, a code it does not know."""
    out = bytearray()
    table: list[bytes] = [bytes([i]) for i in range(256)] + [b"", b""]
    width, bits, value, previous = 9, 0, 0, b""
    for byte in raw:
        value = value << 8 | byte
        bits += 8
        while bits >= width:
            bits -= width
            code = value >> bits & ((1 << width) - 1)
            if code == 256:  # clear
                table = table[:258]
                width, previous = 9, b""
                continue
            if code == 257:  # end of data
                return bytes(out)
            if previous and len(table) >= LZW_TABLE:
                return bytes(out)  # a new entry past the table: qpdf's read fails here
            if code < len(table):
                entry = table[code]
                if previous:
                    table.append(previous + entry[:1])
            elif previous:
                entry = previous + previous[:1]
                table.append(entry)
            else:
                return bytes(out)  # damaged
            out += entry
            if len(out) > limit:
                return bytes(out)
            previous = entry
            if len(table) + early >= 1 << width and width < 12:
                width += 1
    return bytes(out)
