"""Building blocks for mapping the check over a corpus with another engine (Dask, Spark...).

Both functions return the records of ``textlayer check --jsonl``, so what a
cluster produces can be written to one JSON Lines file, merged with other
runs, and resumed from with ``textlayer check --resume``.

- :func:`check_record` classifies one file in the calling process: cheapest,
  and the page and stream limits apply, but nothing can stop a document that
  runs long (engines that cannot kill a task cannot enforce a time limit).
- :func:`check_shard` runs ``textlayer check --jsonl -`` on a list of files in
  a child process, so every limit of the command applies (time, memory), at
  the cost of one process start per shard. Engines whose workers are daemon
  processes (Dask's) may use it, since it starts a program, not a
  multiprocessing child.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..report.jsonl import FileKey, record
from ..settings import CheckSettings
from .limits import Limits


def check_record(
    path: str | os.PathLike[str], *, settings: CheckSettings | None = None,
    password: str = "", limits: Limits | None = None,
) -> dict[str, Any]:
    """The JSON Lines record of one file, checked here; never raises for a bad file."""
    from .workers import check_one

    outcome = check_one(os.fspath(path), settings or CheckSettings(), password,
                        limits or Limits())
    return record(outcome.report, FileKey.of(path))


def check_shard(paths: Iterable[str | os.PathLike[str]], *,
                args: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Records of every file in the shard, from a `textlayer check` child with `args`.

    `args` are extra options of `textlayer check`, e.g. ``["--timeout", "60",
    "--lang", "de"]``. A shard that could not be run at all raises
    RuntimeError with the command's one-line error.
    """
    names = [os.fspath(p) for p in paths]
    if not names:
        return []
    exe = Path(sys.executable).with_name("textlayer")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pytest_textlayer"]
    done = subprocess.run([*cmd, "check", "--jsonl", "-", *args, "--", *names],
                          capture_output=True, text=True, encoding="utf-8")
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if done.returncode not in (0, 1, 2) or (done.returncode == 2 and not records):
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                           else f"textlayer check exited {done.returncode}")
    return records


__all__ = ["check_record", "check_shard"]
