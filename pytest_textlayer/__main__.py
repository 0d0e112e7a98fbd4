"""`python -m pytest_textlayer` is the `textlayer` command."""

from __future__ import annotations

from .cli import entry

entry()
