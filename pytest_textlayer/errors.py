"""Errors with one-line messages and the exit codes of the contract."""

from __future__ import annotations

import enum
from typing import Any


class ExitCode(enum.IntEnum):
    """Exit statuses of the `textlayer` command (part of the public interface)."""

    OK = 0
    BAD_PAGES = 1
    USAGE = 2
    MISSING_OCR = 3


class TextLayerError(Exception):
    """Base class: the message is one line a user can act on."""

    exit_code: ExitCode = ExitCode.USAGE


class InputError(TextLayerError):
    """A file that cannot be read as a PDF (not a PDF, truncated, encrypted...)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str]]:
        return type(self), (self.path, self.problem)  # crosses from a worker process intact


class UsageError(TextLayerError):
    """Arguments that do not make sense (unknown family, font without a glyph...)."""


class MissingDependency(TextLayerError):
    """An optional library or program is needed and absent; the message says what to install."""

    def __init__(self, what: str, install: str, *, exit_code: ExitCode = ExitCode.USAGE) -> None:
        super().__init__(f"{what} is not available; install it with: {install}")
        self.what = what
        self.install = install
        self.exit_code = exit_code

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild_missing, (type(self), self.what, self.install, self.exit_code)


class MissingOCR(MissingDependency):
    """OCR was needed, but Tesseract or a language pack is missing (exit 3)."""

    def __init__(self, what: str, install: str) -> None:
        super().__init__(what, install, exit_code=ExitCode.MISSING_OCR)


def _rebuild_missing(cls: type[MissingDependency], what: str, install: str,
                     exit_code: ExitCode) -> MissingDependency:
    error = cls.__new__(cls)
    MissingDependency.__init__(error, what, install, exit_code=exit_code)
    return error
