"""Test-suite plumbing: tests that must run in a process with no other thread.

The page helper (pytest_textlayer.pdf.pagescan) refuses to fork a process where
another thread runs, as it should: a fork copies locks other threads hold.
Some tests leave threads behind in their xdist worker (dask's local
cluster, for one), so a test of the helper marked ``fresh_process`` runs in
a new interpreter whenever its own process has other threads, and passes or
fails with what it did there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

_INSIDE = "TEXTLAYER_TEST_FRESH_PROCESS"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fresh_process: run in a new interpreter when other threads are alive")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if (pyfuncitem.get_closest_marker("fresh_process") is None
            or threading.active_count() == 1 or os.environ.get(_INSIDE)):
        return None  # run here, as usual
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", pyfuncitem.nodeid],
        cwd=pyfuncitem.config.rootpath, env={**os.environ, _INSIDE: "1"},
        capture_output=True, text=True, timeout=900, check=False,
    )
    if proc.returncode != 0:
        pytest.fail(f"in a fresh process (other threads were alive here):\n{proc.stdout[-4000:]}",
                    pytrace=False)
    return True
