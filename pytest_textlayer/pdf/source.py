"""Turn what a user hands us (path, bytes, file object) into a PDF source and a name.

A file is read where it lies, never written: qpdf and PDFium read the parts
they need from it, so a check's memory does not grow with the file's size (a
9 MiB document held whole cost 9 MiB on top of everything else), and qpdf's
own positioned reads cost less than reading a copy in memory through Python.
Bytes and file objects are held as bytes. Errors become one-line
`InputError`s that name the file and the problem.
"""

from __future__ import annotations

import functools
import io
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Union

from ..errors import InputError, MissingDependency
from ..patterns import on_first_use

PdfInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]

#: Largest input accepted; larger files are refused rather than risked.
MAX_INPUT_BYTES = 2 * 1024**3

#: How much of a file is read to tell a PDF from something else: its header must be in it.
HEADER_BYTES = 1024


@dataclass(frozen=True)
class PdfSource:
    """One PDF, as bytes or as the regular file holding them, and the name reports call it by."""

    name: str
    given: bytes | None = None
    #: The file, when the PDF is one: the readers open it themselves.
    path: Path | None = None
    #: The file's size, modification time and inode when it was first read (see :meth:`changed`).
    stamp: tuple[int, int, int] | None = field(default=None, compare=False, repr=False)

    def changed(self) -> str | None:
        """Why the file is no longer the one first read, or None (bytes never change).

        qpdf and PDFium read the file where it lies, part by part, for as long
        as a check lasts: a file rewritten meanwhile (a build still writing it,
        a copy replacing it) gives them parts of two documents, and the report
        would describe neither.
        """
        if self.path is None or self.stamp is None:
            return None
        try:
            now = _stamp(self.path.stat())
        except OSError:
            return "went away while it was being checked"
        if now != self.stamp:
            return "changed while it was being checked; check it again once it is written"
        return None

    @functools.cached_property
    def data(self) -> bytes:
        """The whole PDF in memory, for callers that need bytes (the repair writes from them)."""
        if self.given is not None:
            return self.given
        assert self.path is not None
        try:
            with self.path.open("rb") as fh:
                return fh.read()
        except OSError as exc:  # the file went away, or cannot be read any more
            raise _refusal(self.name, exc) from None


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
            with path.open("rb") as fh:  # read-only: inputs are never written
                head = fh.read(HEADER_BYTES)
        except IsADirectoryError:
            if not os.access(path, os.R_OK | os.X_OK):  # a folder the search could not open
                raise InputError(label, "a folder that cannot be read (permission denied)") \
                    from None
            raise InputError(label, "is a directory, not a PDF") from None
        except OSError as exc:
            raise _refusal(label, exc) from None
        _refuse_non_pdf(label, head)
        return PdfSource(label, path=path, stamp=_stamp(info))
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
    _refuse_non_pdf(label, data[:HEADER_BYTES])
    return PdfSource(label, data)


def _stamp(info: os.stat_result) -> tuple[int, int, int]:
    return info.st_size, info.st_mtime_ns, info.st_ino


def _refusal(label: str, exc: OSError) -> InputError:
    if isinstance(exc, FileNotFoundError):
        return InputError(label, "no such file")
    if isinstance(exc, PermissionError):
        return InputError(label, "permission denied")
    return InputError(label, exc.strerror or str(exc))


def _refuse_non_pdf(label: str, head: bytes) -> None:
    if not head:
        raise InputError(label, "file is empty")
    if b"%PDF-" not in head:
        raise InputError(label, "not a PDF (no %PDF- header)")


def open_pikepdf(source: PdfSource, password: str = "") -> Any:
    """Open with qpdf through pikepdf; encrypted or broken files give one line."""
    try:
        import pikepdf
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("pikepdf", "pip install pikepdf") from None
    try:
        # from a path, qpdf reads the file itself with positioned reads: the page helper's
        # fork shares the descriptor but no file position (see pagescan)
        given: Any = source.path if source.path is not None else io.BytesIO(source.data)
        return pikepdf.open(given, password=password)
    except OSError as exc:  # the file went away, or cannot be opened any more
        raise _refusal(source.name, exc) from None
    except pikepdf.PasswordError:
        raise InputError(source.name, "encrypted PDF (a password is needed)") from None
    except pikepdf.PdfError as exc:
        raise InputError(source.name, f"damaged PDF: {one_line(exc, given)}") from None
    except Exception as exc:  # qpdf raises a few other types on hostile input
        raise InputError(source.name,
                         f"cannot be read as a PDF: {one_line(exc, given)}") from None


#: What qpdf says when it puts a sound file's page tree in order as it lists the pages (its
#: getAllPages): a page with no /Resources or /MediaBox, a page given directly, an /Annots
#: that is no array or names an annotation twice, a page listed twice, a wrong /Type. The
#: cross-reference table was read as written: no part of the file is missing.
_PAGE_TREE_ORDER = on_first_use(
    r"kid \d+ \(from 0\) (?:Resources is missing or invalid; repairing"
    r"|MediaBox is undefined; setting to letter / ANSI A|is direct; converting to indirect"
    r"|Annots is not an array; removing|Annots has duplicate entry for annotation \d+ \d+"
    r"|appears more than once in the pages tree; creating a new page object as a copy)$"
    r"|/Type key should be /Pages? but is not; overriding$"
)


def repaired_on_open(qpdf: Any) -> bool:
    """Did qpdf have to repair the file to open it (damaged, truncated, rebuilt), beyond
    putting its page tree in order? Such a file needs a second reader's word."""
    return not all(_PAGE_TREE_ORDER().search(warning) for warning in qpdf.get_warnings())


def open_pdfium(source: PdfSource, password: str | None = None) -> Any:
    """Open with PDFium, from the file itself or from bytes it keeps a reference to."""
    try:
        import pypdfium2 as pdfium
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("pypdfium2", "pip install pypdfium2") from None
    try:
        return pdfium.PdfDocument(source.path or source.data, password=password)
    except OSError as exc:  # the file went away, or cannot be opened any more
        raise _refusal(source.name, exc) from None
    except pdfium.PdfiumError as exc:
        message = one_line(exc)
        if "password" in message.lower():
            raise InputError(source.name, "encrypted PDF (a password is needed)") from None
        raise InputError(source.name, f"PDFium cannot read it: {message}") from None


#: How qpdf names an in-memory input in its messages: noise (and a new address every run).
_STREAM_NAME = on_first_use(r"(?:stream )?<_io\.BytesIO object at 0x[0-9a-fA-F]+>:? ?")


def one_line(exc: BaseException, opened: Any = None, limit: int = 200) -> str:
    """A reader's error as one line, without the name qpdf gives the input it `opened`
    (the file's path, or an in-memory stream's address): our messages name the file.

    qpdf puts the name first (``NAME (object 4 0, offset 281): ...``); it is taken from
    there only, so a file called ``1`` leaves the numbers of the message alone.
    """
    text = str(exc)
    if isinstance(opened, (str, os.PathLike)):
        name = str(opened)
        if name and text.startswith(name):
            text = text[len(name):].removeprefix(":")
    text = " ".join(_STREAM_NAME().sub("", text).split())
    return text[:limit] or type(exc).__name__

