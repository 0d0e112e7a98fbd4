#!/usr/bin/env python3
"""Rebuild pytest_textlayer/lang/data/letterpairs.json from the `langdetect` profiles.

Source: the language profiles shipped in the `langdetect` package on PyPI
(a port of Shuyo Nakatani's language-detection library; profiles built from
Wikipedia; Apache License 2.0). Each profile holds the 1-, 2- and 3-gram
frequencies of one language, with pruned rare n-grams. We keep the 2-grams
(letter pairs, and word starts/ends as pairs with a space), map them onto the
symbols of `pytest_textlayer.lang.langmodel`, scale every language to the same
pseudo-count (so that add-one smoothing means the same everywhere), and set
each language's threshold from the score its own distribution gets.

    pip install langdetect        # build-time only (the `dev` extra)
    python scripts/build_reference_model.py

The output is deterministic: same langdetect version, same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_textlayer.lang import langmodel, onelanguage, scripts, textsymbols  # noqa: E402

#: Every language gets this many pseudo pairs (about the size of a few dozen pages of text).
PSEUDO_PAIRS = 30_000
#: Threshold = the language's expected score minus this (nats per pair).
REFERENCE_MARGIN = 1.0
#: Expected scores above this are taken as this: the profiles of small Wikipedias (many
#: bot-written articles) overstate how predictable real text in those languages is.
EXPECTED_CEILING = -2.5

NAMES = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "ca": "Catalan",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek", "en": "English",
    "es": "Spanish", "et": "Estonian", "fa": "Persian", "fi": "Finnish", "fr": "French",
    "gu": "Gujarati", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian",
    "id": "Indonesian", "it": "Italian", "ja": "Japanese", "kn": "Kannada", "ko": "Korean",
    "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian", "ml": "Malayalam", "mr": "Marathi",
    "ne": "Nepali", "nl": "Dutch", "no": "Norwegian", "pa": "Punjabi", "pl": "Polish",
    "pt": "Portuguese", "ro": "Romanian", "ru": "Russian", "sk": "Slovak", "sl": "Slovenian",
    "so": "Somali", "sq": "Albanian", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil",
    "te": "Telugu", "th": "Thai", "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian",
    "ur": "Urdu", "vi": "Vietnamese", "zh-cn": "Chinese (simplified)",
    "zh-tw": "Chinese (traditional)",
}


def han_classes() -> list[str]:
    """The profiles' Han folding: representative first, then every member."""
    from langdetect.utils.ngram import NGram

    groups: dict[str, list[str]] = {}
    for ch, rep in NGram.CJK_MAP.items():
        groups.setdefault(rep, []).append(ch)
    return [rep + "".join(sorted(set(m) - {rep})) for rep, m in sorted(groups.items())]


def symbol(ch: str) -> str:
    if ch == " ":
        return " "
    text = textsymbols.normalise(ch)
    sym = langmodel.symbols(text).strip()
    return sym if len(sym) == 1 else " "


def language_counts(profile: dict[str, object]) -> tuple[Counter[str], Counter[str]]:
    """(pair counts, symbol counts) of one profile, on the model's symbols.

    The symbol counts are the profile's 1-grams: they include the pairs the
    profile pruned, which the model spreads over unlisted continuations.
    """
    freq = profile["freq"]
    assert isinstance(freq, dict)
    pairs: Counter[str] = Counter()
    unigrams: Counter[str] = Counter()
    for gram, n in freq.items():
        if len(gram) == 1:
            sym = symbol(gram)
            if sym != " ":
                unigrams[sym] += int(n)
        elif len(gram) == 2:
            key = symbol(gram[0]) + symbol(gram[1])
            if key != "  ":
                pairs[key] += int(n)
    # word starts: as many as word ends
    unigrams[" "] = max(sum(n for k, n in pairs.items() if k[1] == " "),
                        sum(n for k, n in pairs.items() if k[0] == " "))
    return pairs, unigrams


def collapse(pairs: Counter[str], unigrams: Counter[str]) -> tuple[Counter[str], Counter[str]]:
    """Letters rarer than RARE_SHARE of the language become their script's unseen class."""
    letters = sum(n for k, n in unigrams.items() if k != " ")
    rare = {s for s, n in unigrams.items()
            if s != " " and n <= langmodel.RARE_SHARE * letters}

    def fold(sym: str) -> str:
        return scripts.unseen_class(scripts.script_of(sym)) if sym in rare else sym

    out_pairs: Counter[str] = Counter()
    for key, n in pairs.items():
        out_pairs[fold(key[0]) + fold(key[1])] += n
    out_uni: Counter[str] = Counter()
    for sym, n in unigrams.items():
        out_uni[fold(sym)] += n
    return out_pairs, out_uni


def build(out: Path) -> dict[str, object]:
    import langdetect

    profiles = Path(langdetect.__file__).with_name("profiles")
    classes = han_classes()
    textsymbols.install_han_fold(classes)
    languages = []
    for path in sorted(profiles.iterdir()):
        code = path.name
        profile = json.loads(path.read_text(encoding="utf-8"))
        pairs, unigrams = collapse(*language_counts(profile))
        scale = PSEUDO_PAIRS / sum(unigrams.values())
        scaled = {k: round(n * scale, 2) for k, n in pairs.items()}
        scaled = {k: v for k, v in scaled.items() if v >= 0.05}
        listed: Counter[str] = Counter()
        for k, v in scaled.items():
            listed[k[0]] += v
        rows = {s: round(n * scale, 2) for s, n in unigrams.items()}
        rows = {s: v for s, v in rows.items() if v > listed[s] + 0.05}
        lm = onelanguage.LanguageModel(lang=code, pairs=scaled, threshold=0.0,
                                     name=NAMES.get(code, code), rows=rows)
        expected = lm.expected_score()
        lm.expected = expected
        lm.threshold = min(expected, EXPECTED_CEILING) - REFERENCE_MARGIN
        languages.append(lm.to_json())
    import importlib.metadata

    version = importlib.metadata.version("langdetect")
    data: dict[str, object] = {
        "format": langmodel.FORMAT,
        "source": (f"letter pairs of the language-detection profiles in langdetect {version}"
                   " (Wikipedia n-gram frequencies; Apache License 2.0),"
                   " built by scripts/build_reference_model.py"),
        "pseudo_pairs": PSEUDO_PAIRS,
        "margin": REFERENCE_MARGIN,
        "expected_ceiling": EXPECTED_CEILING,
        "han_classes": classes,
        "languages": languages,
    }
    out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
                   + "\n", encoding="utf-8")
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=langmodel.REFERENCE_PATH)
    args = parser.parse_args()
    data = build(args.output)
    langs = data["languages"]
    assert isinstance(langs, list)
    print(f"wrote {args.output} ({args.output.stat().st_size // 1024} KiB,"
          f" {len(langs)} languages)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
