"""A per-user cache of what the package derives from its own data files.

Building the language reference from its JSON costs about 25 ms in every
process, a tenth of checking a 300-page document; the pickle of the built
object loads in about 5 ms. The cache only ever saves time: a missing, stale,
corrupt, foreign or unwritable entry costs the build, never an error, and
nothing else reads or writes there.

An entry's name carries a digest of what shaped it (the size and modification
time of the data file and of the modules that derive from it, the Python
version), so an upgrade or an edit never reads a stale entry. Writing an
entry keeps the KEEP newest of its kind and removes the rest: two
installations side by side (a project's virtualenv and a tool's) each keep
their entry instead of rebuilding it in turn, and the folder stays small.

Where: ``$TEXTLAYER_CACHE_DIR``, else ``$XDG_CACHE_HOME/pytest-textlayer``,
else ``~/.cache/pytest-textlayer``. ``TEXTLAYER_CACHE_DIR=""`` turns it off.
Entries are pickles, so they are loaded only from a folder and files owned by
the current user.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ENV = "TEXTLAYER_CACHE_DIR"
#: Entries kept per kind (one per installation or version in use).
KEEP = 4


def cache_dir() -> Path | None:
    """The cache folder, or None when the user turned the cache off."""
    chosen = os.environ.get(ENV)
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "pytest-textlayer"


def entry_key(kind: str, shaped_by: Iterable[Path]) -> str:
    """``kind-DIGEST``: the digest changes whenever a file that shapes the entry changes."""
    h = hashlib.sha256(sys.version.encode())
    for path in shaped_by:
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return f"{kind}-{h.hexdigest()[:16]}"


def package_files(package: str, *names: str) -> list[Path]:
    """Files of an installed package, found without importing it (importing fontTools' glyph
    list is the very cost an entry spares), for `shaped_by`; none when it is not installed."""
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations)))
    return [folder / name for name in names]


def _owned(path: Path) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is None or path.stat().st_uid == getuid()


def cached(kind: str, shaped_by: Iterable[Path], build: Callable[[], T]) -> T:
    """The cached value of ``build()`` for these files, building (and storing) it when needed."""
    folder = cache_dir()
    if folder is None:
        return build()
    try:
        key = entry_key(kind, shaped_by)
    except OSError:
        return build()
    entry = folder / f"{key}.pickle"
    with contextlib.suppress(Exception):  # any failure to load means: build it
        if _owned(folder) and _owned(entry):
            with entry.open("rb") as fh:
                value: T = pickle.load(fh)
            return value
    value = build()
    _store(folder, kind, entry, value)
    return value


def _store(folder: Path, kind: str, entry: Path, value: object) -> None:
    tmp = entry.with_name(f".{entry.name}.{os.getpid()}.part")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tmp.open("wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)  # readers see the old entry or the whole new one
        others = sorted((p for p in folder.glob(f"{kind}-*.pickle") if p != entry),
                        key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in others[KEEP - 1:]:
            old.unlink(missing_ok=True)
    except Exception:  # a read-only home, a full disk, an unpicklable value: just slower
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


__all__ = ["ENV", "cache_dir", "cached", "entry_key"]
