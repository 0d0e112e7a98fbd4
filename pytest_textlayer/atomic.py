"""Write a file whole or not at all: a temporary file beside the target, then a rename.

A reader of the target (a CI job, a second run) sees either the old file or
the complete new one, never a half-written one; an interrupt or an error
removes the temporary file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path in ``target``'s folder; rename it onto ``target`` on success."""
    folder = target.parent if str(target.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    os.close(fd)
    tmp = Path(name)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # the mode any new file would get, not mkstemp's 0600
        yield tmp
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


__all__ = ["atomic_path"]
