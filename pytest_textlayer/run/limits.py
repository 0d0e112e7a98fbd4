"""Bounds on what one hostile document may cost: time, memory, pages, decompression.

A PDF is a program of sorts: a few kilobytes can declare a million pages, a
stream that inflates to gigabytes, or a Form XObject that draws itself. The
classifier walks what is there; these limits decide, before and around it,
how much walking a single document may ask for, so a corpus run always ends
with one line per file.

- ``max_pages`` and ``max_stream_bytes`` are checked *before* classifying, by
  :func:`precheck`, in the worker that classifies (the command line, the
  pytest plugin, :func:`pytest_textlayer.run.workers.run_guarded`); ``classify()``
  called alone applies no limit: call :func:`precheck` first (docs/limits.md).
- ``timeout`` and ``max_memory`` are enforced by :mod:`pytest_textlayer.run.workers`,
  which runs each document in a worker process it can kill: a worker over
  its time is killed, a worker over its address-space cap fails its
  allocation and is replaced.
"""

from __future__ import annotations

import base64
import string
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..pdf.source import PdfSource, open_pikepdf

MIB = 1024 * 1024

#: Seconds one document may take before its worker is killed.
DEFAULT_TIMEOUT = 120.0
#: Address space (bytes) of one worker process; allocations beyond it fail.
DEFAULT_MAX_MEMORY = 2048 * MIB
#: Documents with more pages are refused (pages are streamed, so this bounds time, not memory).
DEFAULT_MAX_PAGES = 20_000
#: Largest decompressed size of one content, font or CMap stream.
DEFAULT_MAX_STREAM_BYTES = 128 * MIB
#: Deflate's largest expansion (RFC 1951: a 258-byte match costs at least two bits per
#: three bytes' code, ~1032:1), so small streams need not be inflated to be bounded.
MAX_DEFLATE_RATIO = 1032
#: Decompression reads this much output at a time, so a bomb never lands in memory whole.
_CHUNK = 4 * MIB


#: The command line's options for each limit.
CLI_FLAGS = {"timeout": "--timeout", "max_memory": "--max-memory", "max_pages": "--max-pages",
             "max_stream_bytes": "--max-stream-mb"}


@dataclass(frozen=True)
class Limits:
    """What one document may cost. ``None`` (or 0 on the command line) means no limit."""

    timeout: float | None = DEFAULT_TIMEOUT
    max_memory: int | None = DEFAULT_MAX_MEMORY
    max_pages: int | None = DEFAULT_MAX_PAGES
    max_stream_bytes: int | None = DEFAULT_MAX_STREAM_BYTES
    #: The option that sets each limit, named in messages (the pytest plugin names its own).
    flags: Mapping[str, str] = field(default_factory=lambda: dict(CLI_FLAGS), compare=False)

    def flag(self, name: str) -> str:
        """`` (--timeout)``: what a message adds to name the option, or nothing."""
        option = self.flags.get(name)
        return f" ({option})" if option else ""

    def __post_init__(self) -> None:
        for name in ("timeout", "max_memory", "max_pages", "max_stream_bytes"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive (or None for no limit), not {value}")

    @property
    def bounded(self) -> bool:
        """Whether a document must be vetted before it is read (a page or stream limit)."""
        return self.max_pages is not None or self.max_stream_bytes is not None

    @classmethod
    def none(cls) -> Limits:
        """No bound at all: trusted input only."""
        return cls(timeout=None, max_memory=None, max_pages=None, max_stream_bytes=None)


def precheck(source: PdfSource, limits: Limits, password: str = "") -> None:
    """Refuse, in one line, a document whose page count or streams pass the limits.

    For callers that hand the file to another process afterwards (the
    repair); `check` vets the document it has already opened instead
    (:func:`vet_opened`), so qpdf parses the file once.
    """
    if not limits.bounded:
        return
    try:
        pdf = open_pikepdf(source, password)
    except InputError:  # the classifier asks PDFium (readerpages), or says why neither reads it
        _pdfium_page_limit(source, limits, password)
        return
    try:
        vet_opened(pdf, source, limits, password)
    finally:
        pdf.close()


def vet_opened(pdf: Any, source: PdfSource, limits: Limits, password: str = "") -> None:
    """The limits on a document qpdf has opened (`pdf`), or, with None, on one only PDFium opens.

    Streams are inflated a chunk at a time and only counted, so a
    decompression bomb costs time bounded by the limit, never memory. Images,
    attachments and metadata are skipped: the classifier reads their
    dictionaries, never their data.
    """
    if pdf is None:
        _pdfium_page_limit(source, limits, password)
        return
    if limits.max_pages is not None:
        try:
            count = len(pdf.pages)
        except Exception as exc:  # a broken page tree raises from qpdf
            raise InputError(source.name, f"page tree cannot be read: {_line(exc)}") from None
        if count > limits.max_pages:
            raise InputError(
                source.name,
                f"has {count} pages, over the limit of {limits.max_pages}"
                f"{limits.flag('max_pages')}",
            )
    if limits.max_stream_bytes is not None:
        size = limits.max_stream_bytes
        for objgen, how in _oversized_streams(pdf, size):
            raise InputError(
                source.name,
                f"stream {objgen[0]} {objgen[1]} R {how} {_mib(size)}, "
                f"over the limit{limits.flag('max_stream_bytes')}",
            )


def _pdfium_page_limit(source: PdfSource, limits: Limits, password: str) -> None:
    """The page limit of a file only PDFium opens (its streams are PDFium's to bound)."""
    if limits.max_pages is None:
        return
    from ..pdf.source import open_pdfium

    try:
        doc = open_pdfium(source, password or None)
    except InputError:
        return
    try:
        count = len(doc)
    finally:
        doc.close()
    if count > limits.max_pages:
        raise InputError(source.name, f"has {count} pages, over the limit of "
                                      f"{limits.max_pages}{limits.flag('max_pages')}")


#: Streams the classifier never inflates: samples, attachments, metadata, and the
#: cross-reference and object streams qpdf has already read to open the file.
_UNREAD_SUBTYPES = ("/Image", "/XML")
_UNREAD_TYPES = ("/EmbeddedFile", "/Metadata", "/XRef", "/ObjStm")


def _oversized_streams(pdf: Any, limit: int) -> Iterator[tuple[tuple[int, int], str]]:
    import pikepdf

    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Stream):
            continue
        try:
            if obj.get("/Subtype") in _UNREAD_SUBTYPES or obj.get("/Type") in _UNREAD_TYPES:
                continue
            filters = obj.get("/Filter")
            if isinstance(filters, pikepdf.Array):
                names = [str(f) for f in filters]
            elif filters is None:
                names = []
            else:
                names = [str(filters)]
            raw = bytes(obj.read_raw_bytes())
        except Exception:
            continue  # unreadable here is unreadable for the classifier too: it reports it
        if len(raw) > limit:  # stored (or encoded) bigger than the limit already
            yield obj.objgen, "is larger than"
        elif len(names) == 1 and len(raw) * MAX_DEFLATE_RATIO <= limit:
            continue  # one deflate pass cannot reach the limit: nothing to inflate
        elif names and decoded_size(raw, names, limit) > limit:
            yield obj.objgen, "inflates to more than"


#: Filters whose output the pre-check decodes, bounded; the others (images' DCT, JPX, JBIG2,
#: CCITT; Crypt) end the chain: the classifier never decodes them.
_FLATE, _HEX, _A85, _RL, _LZW = (("/FlateDecode", "/Fl"), ("/ASCIIHexDecode", "/AHx"),
                                 ("/ASCII85Decode", "/A85"), ("/RunLengthDecode", "/RL"),
                                 ("/LZWDecode", "/LZW"))


def decoded_size(raw: bytes, names: list[str], limit: int) -> int:
    """How many bytes a filter chain decodes `raw` to, counting at most about ``limit + 1``.

    Every layer is decoded with its output cut past the limit, so a chain of
    deflates (18 KB that are 4 GiB inside) costs at most the limit in memory
    and time, not the bomb's size. Predictors never enlarge data: not applied.
    """
    data = raw
    for name in names:
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
            data = _lzw(data, limit)
        else:
            break
        if len(data) > limit:
            return len(data)
    return len(data)


def _inflate(raw: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj()
    out = bytearray()
    data = raw
    try:
        while data and len(out) <= limit:
            out += inflater.decompress(data, min(_CHUNK, limit + 1 - len(out)) or 1)
            data = inflater.unconsumed_tail
    except zlib.error:
        pass  # damaged data stops where qpdf would stop too
    return bytes(out)


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


def _lzw(raw: bytes, limit: int) -> bytes:
    """LZW as PDF uses it (EarlyChange 1, codes of 9 to 12 bits), cut past the limit."""
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
            if len(table) + 1 >= 1 << width and width < 12:
                width += 1
    return bytes(out)


def inflated_size(raw: bytes, limit: int) -> int:
    """How many bytes zlib data inflates to, counting at most ``limit + 1``."""
    inflater = zlib.decompressobj()
    total = 0
    data = raw
    try:
        while data:
            out = inflater.decompress(data, _CHUNK)
            total += len(out)
            if total > limit:
                return total
            data = inflater.unconsumed_tail
            if not out and not data:
                break
    except zlib.error:
        return total  # damaged data stops where qpdf would stop too
    return total


def _mib(size: int) -> str:
    return f"{size // MIB} MiB" if size >= MIB else f"{size} bytes"


def _line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


__all__ = [
    "DEFAULT_MAX_MEMORY", "DEFAULT_MAX_PAGES", "DEFAULT_MAX_STREAM_BYTES", "DEFAULT_TIMEOUT",
    "Limits", "inflated_size", "precheck",
]
