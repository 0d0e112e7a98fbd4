"""Where OUT may be written and how: refused paths, then a temporary file renamed into place.

A repair never leaves a partial OUT and never writes IN; these checks and
the atomic write are the driver's only contact with the file system.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..errors import InputError, UsageError


def check_paths(
    in_pdf: str | os.PathLike[str], out_pdf: str | os.PathLike[str]
) -> tuple[Path, Path]:
    src, dst = Path(in_pdf), Path(out_pdf)
    if not src.exists():
        raise InputError(str(src), "no such file")
    if src.is_dir():
        raise InputError(str(src), "is a directory, not a PDF")
    try:
        same = dst.exists() and os.path.samefile(src, dst) or src.resolve() == dst.resolve()
    except (OSError, RuntimeError):  # a symlink loop: refused below as a link
        same = False
    if same:
        raise UsageError(f"{dst}: output is the input file; write the repaired copy elsewhere")
    _refuse_special_output(dst)
    if dst.is_dir():
        raise UsageError(f"{dst}: output is a directory; give a file name")
    parent = dst.parent if str(dst.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{dst}: output folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{dst}: output folder {parent} is not writable")
    if dst.exists() and not os.access(dst, os.W_OK):
        raise UsageError(f"{dst}: output file is not writable")
    return src, dst


def _refuse_special_output(dst: Path) -> None:
    """OUT is replaced by a rename: a device, a FIFO or a socket would be replaced, not
    written to, and a symbolic link would lose its target; refuse them all."""
    import stat

    try:
        st = os.lstat(dst)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"{dst}: output cannot be looked up: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise UsageError(f"{dst}: output is a symbolic link; give the file it should be")
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{dst}: output is a device, FIFO or socket, not a file")


def write_atomically(
    pdf: Any, dst: Path, src: Path, same: bytes | None = None,
    verify: Callable[[Path], None] | None = None,
) -> None:
    """Save to a temporary file beside ``dst``, then rename: never a partial OUT.

    With ``same`` (IN's bytes when nothing was changed, or the :func:`pdf_bytes` a repair
    already classified), OUT is those bytes.
    ``verify`` reads the saved file before it takes OUT's name: a file damaged past
    what qpdf repairs may save into one it cannot open again, and that is no OUT.
    """
    import pikepdf

    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".part", dir=dst.parent or ".")
    os.close(fd)
    try:
        # mkstemp makes the file private; give OUT the mode any new file would get.
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        if same is not None:
            with open(tmp, "wb") as handle:
                handle.write(same)
        else:
            _save(pdf, tmp)
        if verify is not None:
            try:
                verify(Path(tmp))
            except InputError as exc:
                raise InputError(
                    str(src), f"damaged PDF: cannot be rewritten: {exc.problem}"
                ) from None
        os.replace(tmp, dst)
    except OSError as exc:
        raise UsageError(f"{dst}: cannot write: {exc.strerror or exc}") from None
    except pikepdf.PdfError as exc:
        problem = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise InputError(str(src), f"damaged PDF: cannot be rewritten: {problem}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence pikepdf's PageCopyWarning: form widgets stay where they were, the hint is noise."""
    import warnings

    import pikepdf

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
        yield


def pdf_bytes(pdf: Any) -> bytes:
    """The bytes OUT would hold now: saved as :func:`write_atomically` saves, so a repair that
    needs no OCR writes the very bytes it classified (``same=``) instead of saving again."""
    import io

    buf = io.BytesIO()
    _save(pdf, buf)
    return buf.getvalue()


def _save(pdf: Any, target: Any) -> None:
    """Object streams on, so OUT is rarely bigger than IN after a ToUnicode repair."""
    import pikepdf

    with _quiet():
        pdf.save(target, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
