#!/usr/bin/env python3
"""Repair against OCRmyPDF --force-ocr: text recovered, file size and time, same pages, same run.

    python benchmarks/repair_vs_ocrmypdf.py [--languages en,fr,ru] [--limit N]
                                            [--real CORPUS | --no-real] [--no-generated]
                                            [--ocrmypdf-sample 6] [--no-ocr] [--json FILE]

Two sources of broken pages:

* (a) the generator corpus (``write_corpus``) in the chosen languages: every
  page whose truth verdict is not readable or blank, the truth being the
  text the page shows;
* (b) the broken copies of the real corpus's readable pages
  (``benchmarks/broken_real.py``'s breakers on all fonts), the truth being
  poppler's text of the unbroken original.

For every file, ``repair(ocr="never")`` runs first (the ToUnicode path, no
Tesseract); files with pages still bad run again with ``ocr="auto"`` (glyph
OCR, then OCRmyPDF for what is left). Per broken page: exact match of
pdftotext's text of OUT with the truth, both whitespace-normalised (runs of
whitespace to one space); beside it, never instead of it, the same match up to
Unicode compatibility forms (NFKC: ``ﬁ`` and ``fi``, an Arabic presentation
form and its letter: a producer's ToUnicode may write either for one glyph);
the share whose character similarity (difflib ratio) is at least 0.99, the
measure the issue uses for "exactly"; character similarity and word
agreement (shared words, as a multiset, over the longer word count). Per
file: OUT size over IN size, and seconds per page.

Groups: ``tounicode`` are the pages a ToUnicode can repair without OCR
(generated: severed-recoverable with cmap or post, shifted, severed in
Mac-standard order for Latin-script languages;
real: shifted copies, and copies whose broken fonts keep a cmap, post names
or a CFF charset in their program); ``ocr`` is the rest. Targets: exact
match >= 95 % and size <= 1.1x for ``tounicode``; repair >= 20x faster than
OCRmyPDF per page.

OCRmyPDF (``--force-ocr --output-type pdf -l LANG``, in process through its
API) runs on a sample of files only, since it costs about a second a page;
its word agreement is reported beside the repair's on the same pages.
Everything is written to a temporary folder, never into the repository.
"""

from __future__ import annotations

import argparse
import difflib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from broken_real import DEFAULT_CORPUS, variants  # noqa: E402

#: Generated families (stem prefixes) a ToUnicode repairs without OCR: the answer is in the
#: font program, or one constant moves every value back. (severed-recoverable-name has neither:
#: its glyphs are numbered in order of first use and its program has no cmap and no post.)
TOUNICODE_FAMILIES = ("severed-recoverable-cmap-", "severed-recoverable-post-", "shifted-")
#: The Macintosh standard glyph order names Latin letters only: a repair by that order is
#: complete for these languages, and needs OCR for the others.
MAC_ORDER_LANGUAGES = ("en", "fr", "de", "es")
#: ISO 639-1 -> Tesseract language pack.
TESSERACT = {"en": "eng", "fr": "fra", "de": "deu", "es": "spa", "pl": "pol", "ru": "rus",
             "el": "ell"}


#: The issue's own measure of "returned the original text exactly": character similarity
#: (difflib ratio) at least this. Printed beside the strict equality, never instead of it.
SIMILAR = 0.99


def norm(text: str) -> str:
    return " ".join(text.replace("\x0c", " ").split())


def unwritable(text: str) -> list[str]:
    """Characters of a truth that no ToUnicode repair writes: controls and private use.

    A page whose truth holds them (the original's own map gave U+0008, a
    private-use code point, or the original shows a shifted run) cannot match
    exactly however well it is repaired; the report names them beside the
    strict figure, which stays as it is.
    """
    import unicodedata

    found = sorted({ch for ch in norm(text)
                    if unicodedata.category(ch) in ("Cc", "Co")})
    return [f"U+{ord(ch):04X}" for ch in found]


def word_agreement(truth: str, got: str) -> float:
    a, b = Counter(truth.split()), Counter(got.split())
    longest = max(sum(a.values()), sum(b.values()))
    return sum((a & b).values()) / longest if longest else 1.0


def similarity(truth: str, got: str) -> float:
    # autojunk off: on a long page it would drop the commonest letters from the match.
    return difflib.SequenceMatcher(None, truth, got, autojunk=False).ratio()


def pdftotext_pages(path: Path) -> list[str]:
    done = subprocess.run(["pdftotext", "-enc", "UTF-8", "-q", str(path), "-"],
                          capture_output=True, check=False, timeout=300)
    parts = done.stdout.decode("utf-8", errors="replace").split("\f")
    return parts[:-1] if parts and not parts[-1].strip() else parts


@dataclass
class Item:
    """One broken file: where it is, its truth per broken page, its group and language."""

    path: Path
    source: str  # generated | real
    kind: str  # family stem or breaker
    group: str  # tounicode | ocr
    lang: str | None  # ISO 639-1, when known
    truth: dict[int, str]
    pages: int


@dataclass
class Result:
    item: Item
    never_s: float = 0.0
    auto_s: float | None = None
    ocrmypdf_s: float | None = None
    size_in: int = 0
    size_never: int = 0
    size_auto: int | None = None
    actions: dict[str, int] = field(default_factory=dict)
    #: per broken page: (exact, ratio, words) after ocr=never; words after auto; words OCRmyPDF.
    never: dict[int, tuple[bool, float, float]] = field(default_factory=dict)
    #: per broken page after ocr=never: exact up to compatibility forms (NFKC).
    never_nfkc: dict[int, bool] = field(default_factory=dict)
    auto: dict[int, tuple[bool, float, float]] = field(default_factory=dict)
    ocrmypdf: dict[int, tuple[bool, float, float]] = field(default_factory=dict)
    error: str | None = None


def score(truth: dict[int, str], out: Path) -> dict[int, tuple[bool, float, float]]:
    texts = pdftotext_pages(out)
    res = {}
    for number, want in truth.items():
        got = norm(texts[number - 1]) if number <= len(texts) else ""
        w = norm(want)
        res[number] = (got == w, similarity(w, got), word_agreement(w, got))
    return res


def score_nfkc(truth: dict[int, str], out: Path) -> dict[int, bool]:
    """Per page: OUT's text equals the truth once both are in compatibility form (NFKC)."""
    import unicodedata

    texts = pdftotext_pages(out)
    res = {}
    for number, want in truth.items():
        got = norm(texts[number - 1]) if number <= len(texts) else ""
        want_nfkc = unicodedata.normalize("NFKC", norm(want))
        res[number] = unicodedata.normalize("NFKC", got) == want_nfkc
    return res


# --------------------------------------------------------------------------- sources


def generated_items(folder: Path, languages: list[str], limit: int | None) -> list[Item]:
    from pytest_textlayer.generators import write_corpus

    truth = json.loads(write_corpus(folder, languages).read_text(encoding="utf-8"))
    items = []
    for name, entry in sorted(truth["files"].items()):
        broken = {p["number"]: p["text"] for p in entry["pages"]
                  if p["verdict"] not in ("readable", "blank")}
        if not broken:
            continue
        stem = name[:-4]
        lang = entry.get("language") or ""
        group = "tounicode" if stem.startswith(TOUNICODE_FAMILIES) or (
            stem.startswith("severed-mac-standard-") and lang in MAC_ORDER_LANGUAGES) else "ocr"
        items.append(Item(folder / name, "generated", stem.rsplit("-", 1)[0], group,
                          entry.get("language"), broken, len(entry["pages"])))
    return items[:limit] if limit else items


def real_items(corpus: Path, folder: Path, limit: int | None) -> list[Item]:
    from pytest_textlayer.lang.langmodel import best_language

    items = []
    from pytest_textlayer.generators.breakers import BREAKERS

    for case in variants(corpus, list(BREAKERS), ["all"], limit):
        v = case.variant
        broken = {p.number: v.truth[p.number - 1] for p in v.broken_pages
                  if p.number in case.readable and p.number <= len(v.truth)}
        if not broken:
            continue
        path = folder / f"{case.file.stem}.{case.breaker}.pdf"
        path.write_bytes(v.pdf)
        recoverable = case.breaker == "shift" or all(f.program for f in v.fonts if f.changed)
        guess = best_language(" ".join(broken.values())) or ""
        lang = guess.split("+")[0].split("-")[0] or None
        items.append(Item(path, "real", case.breaker, "tounicode" if recoverable else "ocr",
                          lang, broken, len(v.pages)))
    return items


# --------------------------------------------------------------------------- runs


def run_repair(item: Item, out_dir: Path, with_ocr: bool) -> Result:
    from pytest_textlayer.errors import TextLayerError
    from pytest_textlayer.repairs.repairer import repair

    res = Result(item, size_in=item.path.stat().st_size)
    out = out_dir / f"{item.path.stem}.never.pdf"
    start = time.perf_counter()
    try:
        report = repair(item.path, out, ocr="never")
    except TextLayerError as exc:
        res.error = str(exc)
        return res
    res.never_s = time.perf_counter() - start
    res.size_never = out.stat().st_size
    res.actions = report.action_counts()
    res.never = score(item.truth, out)
    res.never_nfkc = score_nfkc(item.truth, out)
    still_bad = any(not p.ok for p in report.pages if p.number in item.truth)
    tess = TESSERACT.get(item.lang or "")
    if with_ocr and still_bad:
        out2 = out_dir / f"{item.path.stem}.auto.pdf"
        start = time.perf_counter()
        try:
            repair(item.path, out2, ocr="auto", lang=tess)
        except TextLayerError as exc:
            res.error = f"auto: {exc}"
        else:
            res.auto_s = time.perf_counter() - start
            res.size_auto = out2.stat().st_size
            res.auto = score(item.truth, out2)
    return res


def run_ocrmypdf(res: Result, out_dir: Path) -> None:
    import logging

    import ocrmypdf

    logging.getLogger("ocrmypdf").setLevel(logging.ERROR)
    lang = TESSERACT.get(res.item.lang or "", "eng")
    out = out_dir / f"{res.item.path.stem}.ocrmypdf.pdf"
    start = time.perf_counter()
    try:
        ocrmypdf.ocr(res.item.path, out, force_ocr=True, output_type="pdf", language=[lang],
                     progress_bar=False)
    except Exception as exc:  # noqa: BLE001 - OCRmyPDF's own exceptions, reported per file
        res.error = f"ocrmypdf: {type(exc).__name__}: {exc}"
        return
    res.ocrmypdf_s = time.perf_counter() - start
    res.ocrmypdf = score(res.item.truth, out)


def pick_sample(results: list[Result], n: int) -> list[Result]:
    """Up to n files, spread over sources and groups, in a language Tesseract has."""
    ok = [r for r in results if r.error is None and (r.item.lang or "") in TESSERACT]
    buckets: dict[tuple[str, str], list[Result]] = {}
    for r in ok:
        buckets.setdefault((r.item.source, r.item.group), []).append(r)
    picked: list[Result] = []
    seen_kinds: set[tuple[str, str]] = set()
    while len(picked) < n and any(buckets.values()):
        for key in sorted(buckets, key=lambda k: (k[1] != "tounicode", k)):
            rest = buckets[key]
            fresh = [r for r in rest if (r.item.source, r.item.kind) not in seen_kinds] or rest
            if fresh and len(picked) < n:
                r = fresh[0]
                rest.remove(r)
                picked.append(r)
                seen_kinds.add((r.item.source, r.item.kind))
    return picked


# --------------------------------------------------------------------------- report


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def table(results: list[Result]) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str, str], list[Result]] = {}
    for r in results:
        rows.setdefault((r.item.source, r.item.group, r.item.kind), []).append(r)
    out = []
    print(f"{'source':<10}{'group':<10}{'kind':<30}{'files':>6}{'pages':>6}{'exact':>7}"
          f"{'ratio':>7}{'words':>7}{'w+ocr':>7}{'size':>6}{'ms/pg':>7}")
    for key in sorted(rows):
        rs = rows[key]
        never = [v for r in rs for v in r.never.values()]
        after = [(r.auto or r.never)[n][2] for r in rs for n in r.never]
        sizes = [r.size_never / r.size_in for r in rs if r.size_in and r.size_never]
        per_page = [r.never_s / r.item.pages for r in rs if r.never_s]
        row = {"source": key[0], "group": key[1], "kind": key[2], "files": len(rs),
               "pages": len(never), "exact": _mean([float(e) for e, _, _ in never]),
               "ratio": _mean([x for _, x, _ in never]), "words": _mean([w for _, _, w in never]),
               "words_after_ocr": _mean(after), "size": max(sizes) if sizes else float("nan"),
               "ms_per_page": 1000 * _mean(per_page),
               "errors": [r.error for r in rs if r.error]}
        out.append(row)
        print(f"{key[0]:<10}{key[1]:<10}{key[2][:29]:<30}{len(rs):>6}{len(never):>6}"
              f"{row['exact']:>7.1%}{row['ratio']:>7.3f}{row['words']:>7.1%}"
              f"{row['words_after_ocr']:>7.1%}{row['size']:>6.2f}{row['ms_per_page']:>7.0f}")
    return out


def summary(results: list[Result]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    print()
    for source in ("generated", "real", "all"):
        for group in ("tounicode", "ocr"):
            rs = [r for r in results if r.item.group == group
                  and (source == "all" or r.item.source == source)]
            never = [v for r in rs for v in r.never.values()]
            if not never:
                continue
            after = [(r.auto or r.never)[n] for r in rs for n in r.never]
            sizes = sorted(r.size_never / r.size_in for r in rs if r.size_in and r.size_never)
            exact = _mean([float(e) for e, _, _ in never])
            nfkc = _mean([float(r.never_nfkc.get(n, False)) for r in rs for n in r.never])
            similar = _mean([float(x >= SIMILAR) for _, x, _ in never])
            key = f"{source}/{group}"
            out[key] = {
                "pages": len(never), "exact": exact, "exact_nfkc": nfkc, "similar": similar,
                "exact_after_ocr": _mean([float(e) for e, _, _ in after]),
                "ratio": _mean([x for _, x, _ in never]),
                "words": _mean([w for _, _, w in never]),
                "words_after_ocr": _mean([w for _, _, w in after]),
                "size_median": sizes[len(sizes) // 2] if sizes else None,
                "size_max": sizes[-1] if sizes else None,
            }
            s = out[key]
            print(f"{key:<20} {len(never):>4} pages: exact {exact:.1%} (NFKC {nfkc:.1%}, "
                  f"similarity >= {SIMILAR} {similar:.1%}; after OCR "
                  f"{s['exact_after_ocr']:.1%}), ratio {s['ratio']:.3f}, words {s['words']:.1%} "
                  f"(after OCR {s['words_after_ocr']:.1%}), size median {s['size_median']:.2f}x "
                  f"max {s['size_max']:.2f}x")
    return out


def speed(sample: list[Result]) -> dict[str, Any]:
    print(f"\nOCRmyPDF --force-ocr on {len(sample)} files (same files, same run):")
    print("(repair ms/pg: ocr=never, the ToUnicode path; +ocr: ocr=auto when pages stayed bad;"
          " x faster: OCRmyPDF over the repair as run, auto when it ran)")
    print(f"{'file':<44}{'group':<10}{'pages':>6}{'repair ms/pg':>13}{'+ocr ms/pg':>11}"
          f"{'ocrmypdf ms/pg':>15}{'x faster':>9}{'words repair':>13}{'words ocrmypdf':>15}")
    rows = []
    for r in sample:
        if r.ocrmypdf_s is None:
            print(f"{r.item.path.name[:43]:<44} failed: {r.error}")
            continue
        rep = (r.auto_s if r.auto_s is not None else r.never_s) / r.item.pages
        ocr = r.ocrmypdf_s / r.item.pages
        words_rep = _mean([(r.auto or r.never)[n][2] for n in r.never])
        words_ocr = _mean([v[2] for v in r.ocrmypdf.values()])
        never = r.never_s / r.item.pages
        auto = f"{1000 * r.auto_s / r.item.pages:.0f}" if r.auto_s is not None else "-"
        rows.append({"file": r.item.path.name, "group": r.item.group, "pages": r.item.pages,
                     "repair_ms_per_page": 1000 * rep, "ocrmypdf_ms_per_page": 1000 * ocr,
                     "never_ms_per_page": 1000 * never,
                     "ratio": ocr / rep, "words_repair": words_rep, "words_ocrmypdf": words_ocr,
                     "repair_path": "auto" if r.auto_s is not None else "never"})
        print(f"{r.item.path.name[:43]:<44}{r.item.group:<10}{r.item.pages:>6}{1000 * never:>13.0f}"
              f"{auto:>11}{1000 * ocr:>15.0f}{ocr / rep:>9.1f}{words_rep:>13.1%}"
              f"{words_ocr:>15.1%}")
    for group in ("tounicode", "ocr"):
        g = [x for x in rows if x["group"] == group]
        if g:
            rep = sum(x["repair_ms_per_page"] * x["pages"] for x in g) / sum(x["pages"] for x in g)
            ocr = sum(x["ocrmypdf_ms_per_page"] * x["pages"] for x in g) / sum(
                x["pages"] for x in g)
            pages = sum(x["pages"] for x in g)
            never = sum(x["never_ms_per_page"] * x["pages"] for x in g) / pages
            print(f"  {group}: repair {rep:.0f} ms/page as run ({never:.0f} ms/page ocr=never), "
                  f"OCRmyPDF {ocr:.0f} ms/page: {ocr / rep:.1f}x as run, {ocr / never:.1f}x "
                  f"ocr=never (median per file {sorted(x['ratio'] for x in g)[len(g) // 2]:.1f}x)")
    return {"files": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", default="en,fr,de,ru,el",
                        help="generator corpus languages (en fr de es pl ru el)")
    parser.add_argument("--limit", type=int, default=None,
                        help="first N generated files and first N real corpus files")
    parser.add_argument("--real", default=str(DEFAULT_CORPUS), help="real corpus folder")
    parser.add_argument("--no-real", action="store_true")
    parser.add_argument("--no-generated", action="store_true")
    parser.add_argument("--ocrmypdf-sample", type=int, default=6, help="files given to OCRmyPDF")
    parser.add_argument("--no-ocr", action="store_true", help="only the ocr=never path")
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    if shutil.which("pdftotext") is None:
        raise SystemExit("pdftotext (poppler-utils) is needed")
    with tempfile.TemporaryDirectory(prefix="repair-bench-") as tmp:
        root = Path(tmp)
        (root / "gen").mkdir()
        (root / "real").mkdir()
        (root / "out").mkdir()
        items: list[Item] = []
        if not args.no_generated:
            items += generated_items(root / "gen", args.languages.split(","), args.limit)
        if not args.no_real and Path(args.real).is_dir():
            items += real_items(Path(args.real), root / "real", args.limit)
        print(f"{len(items)} files with broken pages "
              f"({sum(len(i.truth) for i in items)} pages)", flush=True)
        results = []
        for item in items:
            results.append(run_repair(item, root / "out", with_ocr=not args.no_ocr))
        rows = table(results)
        overall = summary(results)
        sample = [] if args.no_ocr else pick_sample(results, args.ocrmypdf_sample)
        if sample:  # one untimed run first: OCRmyPDF's start-up is not charged to a file
            run_ocrmypdf(Result(sample[0].item), root / "out")
        for r in sample:
            run_ocrmypdf(r, root / "out")
        timing = speed(sample) if sample else {}
        errors = [(r.item.path.name, r.error) for r in results if r.error]
        if errors:
            print("\nerrors:")
            for name, err in errors:
                print(f"  {name}: {err}")
        misses = [(r.item.path.name, n, round(v[1], 3), r.never_nfkc.get(n, False),
                   unwritable(r.item.truth[n]))
                  for r in results for n, v in r.never.items()
                  if r.item.group == "tounicode" and not v[0]]
        if misses:
            odd = sum(1 for *_, chars in misses if chars)
            print(f"\ntounicode-group pages not matched exactly without OCR: {len(misses)}"
                  f" ({odd} whose truth holds control or private-use characters)")
            for name, n, ratio, nfkc, chars in misses:
                same = " (equal up to compatibility forms)" if nfkc else ""
                if chars:
                    same += f" (truth holds {', '.join(chars[:4])})"
                print(f"  {name} p{n}: ratio {ratio}{same}")
        if args.json:
            Path(args.json).write_text(json.dumps(
                {"rows": rows, "summary": overall, "speed": timing, "errors": errors,
                 "misses": misses}, indent=1, ensure_ascii=False, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
