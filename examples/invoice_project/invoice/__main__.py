"""`python -m invoice DIR`: write the sample invoice into DIR (the build step CI runs)."""

from __future__ import annotations

import sys
from pathlib import Path

from .render import SAMPLE, write_invoice


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "build")
    path = write_invoice(SAMPLE, out / f"invoice-{SAMPLE.number}.pdf")
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
