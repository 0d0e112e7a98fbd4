#!/usr/bin/env python3
"""False alarms on a PDF generator's own test suite: reportlab's, run here.

    python benchmarks/generator_suite.py [--keep DIR] [--json FILE] [-j N]

A generator's continuous integration writes hundreds of PDFs nobody broke:
charts of every code point of a font, missing glyphs, symbol fonts, tables of
HTML entities, barcodes, graphics with text. This fetches the source
distribution of the reportlab version installed beside this package from
PyPI, runs its test suite (``tests/runAll.py``) in a temporary folder, and
classifies every PDF it writes with ``textlayer check``. Every page that
carries text is meant to be readable; the script prints the verdicts, the
pages not OK with their first evidence line, and beside them two peer rules
on PDFium's text of the same pages (the 10 % rule: more than 10 % of the
characters are map errors, U+FFFD or controls; PDFium's map-error rule: any
character with a map error). Encrypted files the suite writes on purpose
are counted apart. Nothing is written into the repository. Exit status
0 once it ran (this is a benchmark, not a test), 1 when the source cannot be fetched.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the false-alarm benchmark's counts


def fetch_sdist(version: str, into: Path) -> Path:
    """reportlab's source distribution of `version`, unpacked under `into`."""
    with urllib.request.urlopen("https://pypi.org/pypi/reportlab/json", timeout=60) as reply:
        releases = json.load(reply)["releases"]
    url = next(u["url"] for u in releases[version] if u["packagetype"] == "sdist")
    if not url.startswith("https://"):  # a mirror's relative link: the files live on one host
        url = "https://files.pythonhosted.org/packages/" + url.split("packages/")[-1]
    archive = into / url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(url, timeout=300) as reply:
        archive.write_bytes(reply.read())
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return next(p for p in into.iterdir() if p.is_dir() and p.name.startswith("reportlab"))


def peer_rules(path: Path) -> list[tuple[bool, bool]]:
    """Per page: (10 % rule flags it, PDFium's map-error rule flags it), counted as the
    false-alarm benchmark counts them."""
    import pypdfium2 as pdfium
    from false_alarms import pdfium_chars

    doc = pdfium.PdfDocument(str(path))
    try:
        counts = [pdfium_chars(doc, index) for index in range(len(doc))]
    finally:
        doc.close()
    return [(chars > 0 and bad > 0.1 * chars, errors > 0) for chars, bad, errors in counts]


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it")
    ap.add_argument("--json", type=Path, help="write the figures and every page not OK here")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="textlayer check workers")
    args = ap.parse_args()
    import reportlab

    work = args.keep or Path(tempfile.mkdtemp(prefix="generator-suite-"))
    work.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    try:
        source = fetch_sdist(reportlab.Version, work)
    except (OSError, KeyError, StopIteration, tarfile.TarError) as exc:
        print(f"generator_suite: cannot fetch reportlab {reportlab.Version}'s source from PyPI: "
              f"{exc}", file=sys.stderr)
        return 1
    tests = source / "tests"
    suite = subprocess.run([sys.executable, "runAll.py"], cwd=tests, capture_output=True,
                           text=True, timeout=1800, check=False)
    pdfs = sorted(tests.rglob("*.pdf"))
    print(f"reportlab {reportlab.Version}: its test suite wrote {len(pdfs)} PDFs "
          f"({time.monotonic() - start:.0f} s, exit {suite.returncode})")
    record = work / "check.jsonl"
    record.unlink(missing_ok=True)
    textlayer = Path(sys.executable).with_name("textlayer")
    subprocess.run([str(textlayer), "check", "-q", "-j", str(args.jobs), "--jsonl", str(record),
                    *map(str, pdfs)], capture_output=True, check=False, timeout=3600)
    verdicts: Counter[str] = Counter()
    unreadable: Counter[str] = Counter()
    flagged: list[dict[str, object]] = []
    peers: Counter[str] = Counter()
    text_pages = 0
    for line in record.read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        if doc.get("error"):
            unreadable[str(doc["error"]).split(" (")[0]] += 1
            continue
        rules = peer_rules(Path(doc["path"]))
        for page in doc["pages"]:
            verdicts[page["verdict"]] += 1
            if page["glyphs"]:
                text_pages += 1
                ten, errors = rules[page["number"] - 1]
                peers["10 % rule"] += ten
                peers["PDFium map errors"] += errors
            if not page["ok"]:
                flagged.append({"file": Path(doc["path"]).name, "page": page["number"],
                                "verdict": page["verdict"], "evidence": page["evidence"][:1]})
    not_ok = [f for f in flagged if f["verdict"] != "absent"]
    print(f"pages: {sum(verdicts.values())}, {text_pages} with text; verdicts: "
          + ", ".join(f"{v} {n}" for v, n in verdicts.most_common()))
    print(f"files refused: {sum(unreadable.values())} "
          + ", ".join(f"({n} {why})" for why, n in unreadable.items()))
    print(f"pages with text called not OK by textlayer check: {len(not_ok)} of {text_pages}; "
          f"10 % rule: {peers['10 % rule']}; PDFium map-error rule: {peers['PDFium map errors']}")
    for f in flagged:
        print(f"  {f['file']} p{f['page']}: {f['verdict']} — {' '.join(f['evidence'])}")  # type: ignore[arg-type]
    if args.json:
        args.json.write_text(json.dumps({"verdicts": verdicts, "text_pages": text_pages,
                                         "peer_rules": peers, "not_ok": flagged}, indent=1))
    if args.keep is None:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
