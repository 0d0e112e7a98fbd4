"""Root conftest: what every test run of this repository needs before it starts.

pikepdf (nanobind) cannot be imported a second time in one process, and
pytester's in-process runs unload modules first imported during a run; so
import it here, once, before any test classifies a PDF.
"""

import pikepdf  # noqa: F401
