"""`python -m pytest_textlayer.cli`, as `python -m pytest_textlayer`: the `textlayer` command."""

from __future__ import annotations

import sys

from . import main

sys.exit(main())
