"""Bounds on what one hostile document may cost: time, memory, pages, decompression.

A PDF is a program of sorts: a few kilobytes can declare a million pages, a
stream that inflates to gigabytes, or a Form XObject that draws itself. The
classifier walks what is there; these limits decide, before and around it,
how much walking a single document may ask for, so a corpus run always ends
with one line per file.

- ``max_pages`` is checked before classifying, in the worker that classifies
  (the command line, the pytest plugin,
  :func:`pytest_textlayer.run.workers.run_guarded`); ``max_stream_bytes`` there
  as the walk reads each stream (:mod:`pytest_textlayer.pdf.streamguard`).
  :func:`precheck` checks both on the whole file, for a caller that hands it
  to qpdf whole (the repair); ``classify()`` called alone applies no limit:
  call :func:`precheck` first (docs/limits.md).
- ``timeout`` and ``max_memory`` are enforced by :mod:`pytest_textlayer.run.workers`,
  which runs each document in a worker process it can kill: a worker over
  its time is killed, a worker over its address-space cap fails its
  allocation and is replaced.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..pdf.source import PdfSource, one_line, open_pikepdf
from ..pdf.streamguard import MAX_DEFLATE_RATIO, decoded_size, oversized

MIB = 1024 * 1024

#: Seconds one document may take before its worker is killed.
DEFAULT_TIMEOUT = 120.0
#: Address space (bytes) of one worker process; allocations beyond it fail.
DEFAULT_MAX_MEMORY = 2048 * MIB
#: Documents with more pages are refused (pages are streamed, so this bounds time, not memory).
DEFAULT_MAX_PAGES = 20_000
#: Largest decompressed size of one content, font or CMap stream.
DEFAULT_MAX_STREAM_BYTES = 128 * MIB


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

    For callers that hand the file to qpdf whole afterwards (the repair);
    `check` vets the page count of the document it has already opened
    (:func:`vet_opened` with ``streams=False``) and measures each stream as
    its walk reads it (:mod:`pytest_textlayer.pdf.streamguard`).
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


def vet_opened(pdf: Any, source: PdfSource, limits: Limits, password: str = "", *,
               streams: bool = True) -> None:
    """The limits on a document qpdf has opened (`pdf`), or, with None, on one only PDFium opens.

    Streams are decoded a chunk at a time and cut just past the limit, so a
    decompression bomb costs time and memory bounded by the limit, never its
    own size. Images, attachments and metadata are skipped: the classifier
    reads their dictionaries, never their data. ``streams=False`` leaves the streams to
    the walk, which measures each one it reads inside ``streamguard.bounded``
    (see :func:`stream_refusal`).
    """
    if pdf is None:
        _pdfium_page_limit(source, limits, password)
        return
    if limits.max_pages is not None:
        try:
            count = len(pdf.pages)
        except Exception as exc:  # a broken page tree raises from qpdf
            problem = one_line(exc, pdf.filename)  # without the name qpdf gives the file
            raise InputError(source.name, f"page tree cannot be read: {problem}") from None
        if count > limits.max_pages:
            raise InputError(
                source.name,
                f"has {count} pages, over the limit of {limits.max_pages}"
                f"{limits.flag('max_pages')}",
            )
    if streams and limits.max_stream_bytes is not None:
        for objgen, how in _oversized_streams(pdf, limits.max_stream_bytes):
            raise stream_refusal(source.name, limits, objgen, how)


def stream_refusal(name: str, limits: Limits, objgen: tuple[int, int], how: str) -> InputError:
    """The one line that refuses a document for a stream over ``limits.max_stream_bytes``."""
    size = limits.max_stream_bytes or 0
    return InputError(name, f"stream {objgen[0]} {objgen[1]} R {how} {_mib(size)}, "
                            f"over the limit{limits.flag('max_stream_bytes')}")


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
        except Exception:
            continue  # unreadable here is unreadable for the classifier too: it reports it
        how = oversized(obj, limit)
        if how is not None:
            yield obj.objgen, how


def _mib(size: int) -> str:
    return f"{size // MIB} MiB" if size >= MIB else f"{size} bytes"


__all__ = [
    "DEFAULT_MAX_MEMORY", "DEFAULT_MAX_PAGES", "DEFAULT_MAX_STREAM_BYTES", "DEFAULT_TIMEOUT",
    "Limits", "MAX_DEFLATE_RATIO", "decoded_size", "precheck",
]
