"""Turn what a user hands us (path, bytes, file object) into bytes and a name.

Everything downstream reads bytes, so an input file is opened once,
read-only, and never written. Errors become one-line `InputError`s that name
the file and the problem.
"""

from __future__ import annotations

import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Union

from ..errors import InputError, MissingDependency
from ..patterns import on_first_use

PdfInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]

#: Largest input read into memory; larger files are refused rather than risked.
MAX_INPUT_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class PdfSource:
    """The bytes of one PDF and the name reports call it by."""

    name: str
    data: bytes


def read_source(pdf: PdfInput, name: str | None = None) -> PdfSource:
    """Read a path, bytes or binary file object; refuse what is plainly not a PDF."""
    if isinstance(pdf, (bytes, bytearray, memoryview)):
        data = bytes(pdf)
        label = name or "<bytes>"
    elif isinstance(pdf, (str, os.PathLike)):
        path = Path(pdf)
        label = name or str(pdf)
        try:
            info = path.stat()
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if not stat.S_ISREG(info.st_mode):  # a pipe or a device would block or never end
                raise InputError(label, "not a regular file")
            if info.st_size > MAX_INPUT_BYTES:
                raise InputError(label, f"file is {info.st_size} bytes, "
                                        f"over the {MAX_INPUT_BYTES} limit")
            with path.open("rb") as fh:  # read-only, once: inputs are never written
                # read(n) allocates n bytes first: ask for the size stat gave, not the limit
                data = fh.read(info.st_size)
                if fh.read(1):
                    raise InputError(label, "file is growing while it is read")
        except IsADirectoryError:
            if not os.access(path, os.R_OK | os.X_OK):  # a folder the search could not open
                raise InputError(label, "a folder that cannot be read (permission denied)") \
                    from None
            raise InputError(label, "is a directory, not a PDF") from None
        except FileNotFoundError:
            raise InputError(label, "no such file") from None
        except PermissionError:
            raise InputError(label, "permission denied") from None
        except OSError as exc:
            raise InputError(label, exc.strerror or str(exc)) from None
    elif hasattr(pdf, "read"):
        label = name or str(getattr(pdf, "name", "<stream>"))
        if isinstance(pdf, io.TextIOBase):  # reading would decode the PDF's bytes as text
            raise InputError(label, "file object is open in text mode; open it with 'rb'")
        try:
            raw: Any = pdf.read()
        except UnicodeDecodeError:
            raise InputError(label, "file object is open in text mode; open it with 'rb'") \
                from None
        if isinstance(raw, str):
            raise InputError(label, "file object is open in text mode; open it with 'rb'")
        data = bytes(raw)
    else:
        raise TypeError(f"expected a path, bytes or a binary file object, not {type(pdf).__name__}")
    if not data:
        raise InputError(label, "file is empty")
    if b"%PDF-" not in data[:1024]:
        raise InputError(label, "not a PDF (no %PDF- header)")
    return PdfSource(label, data)


def open_pikepdf(source: PdfSource, password: str = "") -> Any:
    """Open with qpdf through pikepdf; encrypted or broken files give one line."""
    try:
        import pikepdf
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("pikepdf", "pip install pikepdf") from None
    try:
        return pikepdf.open(io.BytesIO(source.data), password=password)
    except pikepdf.PasswordError:
        raise InputError(source.name, "encrypted PDF (a password is needed)") from None
    except pikepdf.PdfError as exc:
        raise InputError(source.name, f"damaged PDF: {_one_line(exc)}") from None
    except Exception as exc:  # qpdf raises a few other types on hostile input
        raise InputError(source.name, f"cannot be read as a PDF: {_one_line(exc)}") from None


def open_pdfium(source: PdfSource, password: str | None = None) -> Any:
    """Open with PDFium; the document keeps a reference to the bytes it reads."""
    try:
        import pypdfium2 as pdfium
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("pypdfium2", "pip install pypdfium2") from None
    try:
        return pdfium.PdfDocument(source.data, password=password)
    except pdfium.PdfiumError as exc:
        message = _one_line(exc)
        if "password" in message.lower():
            raise InputError(source.name, "encrypted PDF (a password is needed)") from None
        raise InputError(source.name, f"PDFium cannot read it: {message}") from None


#: How qpdf names an in-memory input in its messages: noise (and a new address every run).
_STREAM_NAME = on_first_use(r"(?:stream )?<_io\.BytesIO object at 0x[0-9a-fA-F]+>:? ?")


def _one_line(exc: BaseException) -> str:
    text = " ".join(_STREAM_NAME().sub("", str(exc)).split())
    return text[:200] or type(exc).__name__

