"""Commands a test interrupts with SIGINT must be able to hear it.

A suite started in the background without job control (``nohup``, ``cmd &``
in a script) inherits SIGINT ignored, and a Python process keeps a signal
that was ignored at its start ignored: the command under test would never
see the Ctrl-C the test sends. The wrapper gives SIGINT its default
disposition back, then replaces itself with the command (exec keeps it).
"""

from __future__ import annotations

import sys

_RESTORE = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
            "os.execvp(sys.argv[1], sys.argv[1:])")


def interruptible(cmd: list[str]) -> list[str]:
    """`cmd`, started so that SIGINT reaches it whatever the suite's own disposition."""
    return [sys.executable, "-c", _RESTORE, *cmd]
