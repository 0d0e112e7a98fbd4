"""JSON Lines for corpus runs: one line per finished document, resumable, mergeable.

A run over a large tree can be interrupted; the lines it wrote are whole
documents, flushed as each one finishes. ``--resume`` reads them back and
skips every file whose path, size and modification time are unchanged, so
a second run does only what the first left. Lines from several runs (or
several machines) concatenate into one valid file: a later line for the
same file wins.

Each line is the document object of ``--json`` plus a ``file`` key:
``{"path": ..., "pages": [...], "ok": ..., "error": ..., "readers": [...],
"file": {"path": "/abs/a.pdf", "size": 1234, "mtime_ns": 1700000000000000000}}``
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import UsageError
from ..model import DocumentReport, printable


@dataclass(frozen=True)
class FileKey:
    """What must be unchanged for an earlier verdict on a file to still hold."""

    path: str
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> FileKey | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        return cls(os.path.abspath(path), st.st_size, st.st_mtime_ns)

    def to_dict(self) -> dict[str, Any]:
        return {"path": printable(self.path), "size": self.size, "mtime_ns": self.mtime_ns}


def record(report: DocumentReport, key: FileKey | None) -> dict[str, Any]:
    """The JSON object of one line."""
    data = report.to_dict()
    data["file"] = key.to_dict() if key is not None else None
    return data


def load(path: str | os.PathLike[str]) -> dict[FileKey, DocumentReport]:
    """Reports already written, by file key; a missing file is an empty run.

    A last line cut short by a kill is ignored (its document is redone);
    any other line that is not a record is a usage error naming the line.
    """
    done: dict[FileKey, DocumentReport] = {}
    try:
        fh = open(path, encoding="utf-8")  # noqa: SIM115 - closed below; read a line at a time
    except FileNotFoundError:
        return done
    except OSError as exc:
        raise UsageError(f"cannot resume from {path}: {exc.strerror or exc}") from None
    with fh:
        try:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                    file = data["file"]
                    key = FileKey(str(file["path"]), int(file["size"]), int(file["mtime_ns"]))
                    report = DocumentReport.from_dict(data)
                except (ValueError, KeyError, TypeError):
                    if not line.endswith("\n"):  # the unfinished last line of a killed run
                        continue
                    raise UsageError(f"cannot resume from {path}: line {number} is not a "
                                     "textlayer record") from None
                done[key] = report
        except UnicodeDecodeError:
            raise UsageError(f"cannot resume from {path}: not UTF-8 text") from None
    return done


class Sink:
    """Appends records, one whole line per write, flushed so a kill loses at most one."""

    def __init__(self, target: str) -> None:
        self.target = target
        self._own = target != "-"
        if self._own:
            try:
                _cut_partial_line(Path(target))
                self._fh: IO[str] = open(target, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()
            except OSError as exc:
                raise self._failed(exc) from None
        else:
            self._fh = sys.stdout

    def write(self, data: dict[str, Any]) -> None:
        try:
            self._fh.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
            self._fh.flush()
        except OSError as exc:  # a full disk: the lines written stay whole, --resume goes on
            raise self._failed(exc) from None

    def _failed(self, exc: OSError) -> UsageError:
        where = "standard output" if not self._own else self.target
        return UsageError(f"{where}: cannot write the JSON Lines record: "
                          f"{exc.strerror or exc}")

    def write_all(self, items: Iterable[dict[str, Any]]) -> None:
        for item in items:
            self.write(item)

    def close(self) -> None:
        if self._own:
            # A failed write already said why; closing can lose nothing more.
            with contextlib.suppress(OSError):
                self._fh.close()


def _cut_partial_line(path: Path) -> None:
    """Drop an unfinished last line (a killed run), so appended lines stay whole."""
    try:
        with path.open("rb+") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            if size == 0:
                return
            fh.seek(size - 1)
            if fh.read(1) == b"\n":
                return
            fh.seek(0)
            data = fh.read()
            fh.truncate(data.rfind(b"\n") + 1)
    except FileNotFoundError:
        return


__all__ = ["FileKey", "Sink", "load", "record"]
