"""What a terminal shows after some output: enough of one to test progress displays.

Handles what the progress bars write (carriage return, line feed, erase to end
of line, cursor up); other escape sequences are dropped.
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
from collections.abc import Sequence

_ESCAPE = re.compile(r"\x1b\[(\d*)([A-Za-z])")


def screen(output: str) -> list[str]:
    """The lines left on the screen, trailing blanks removed."""
    lines: list[list[str]] = [[]]
    row = col = 0
    i = 0
    while i < len(output):
        char = output[i]
        found = _ESCAPE.match(output, i) if char == "\x1b" else None
        if found:
            count, command = int(found.group(1) or 1), found.group(2)
            if command == "K":
                del lines[row][col:]
            elif command == "A":
                row = max(0, row - count)
            i = found.end()
            continue
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
            col = 0
            while len(lines) <= row:
                lines.append([])
        else:
            line = lines[row]
            line.extend(" " * (col - len(line)))
            if col < len(line):
                line[col] = char
            else:
                line.append(char)
            col += 1
        i += 1
    return ["".join(line).rstrip() for line in lines]


def run_on_a_terminal(cmd: Sequence[str], *, columns: int = 100,
                      timeout: float = 120) -> tuple[int, str]:
    """Run `cmd` with a pseudo-terminal of `columns` as its stdout and stderr: the status and
    everything written to the terminal (line ends as the terminal driver makes them)."""
    import fcntl
    import pty
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    try:
        proc = subprocess.Popen(list(cmd), stdin=subprocess.DEVNULL, stdout=follower,
                                stderr=follower)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closes once the last writer is gone
                break
            if not chunk:
                break
            chunks.append(chunk)
        status = proc.wait(timeout=timeout)
    finally:
        os.close(leader)
    return status, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
