"""`python -m pytest_textlayer` is the `textlayer` command."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
