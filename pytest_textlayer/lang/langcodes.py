"""Language names as `--lang` takes them, matched with the codes of the reference languages.

Users name languages the way Tesseract spells them (`fra`, `chi_sim`,
`fra+eng`) or by the reference's two-letter codes (`fr`, `zh-cn`); `zh`
names any Chinese. The judgement (:mod:`.langmodel`) uses this to keep to the
expected language, and the classifier to check that a page speaks it.
"""

from __future__ import annotations

#: ISO 639-2/3 codes (as Tesseract spells them) of the reference languages.
_ISO3 = {
    "afr": "af", "ara": "ar", "bul": "bg", "ben": "bn", "cat": "ca", "ces": "cs", "cze": "cs",
    "cym": "cy", "dan": "da", "deu": "de", "ger": "de", "ell": "el", "gre": "el", "eng": "en",
    "spa": "es", "est": "et", "fas": "fa", "per": "fa", "fin": "fi", "fra": "fr", "fre": "fr",
    "guj": "gu", "heb": "he", "hin": "hi", "hrv": "hr", "hun": "hu", "ind": "id", "ita": "it",
    "jpn": "ja", "kan": "kn", "kor": "ko", "lit": "lt", "lav": "lv", "mkd": "mk", "mal": "ml",
    "mar": "mr", "nep": "ne", "nld": "nl", "dut": "nl", "nor": "no", "pan": "pa", "pol": "pl",
    "por": "pt", "ron": "ro", "rum": "ro", "rus": "ru", "slk": "sk", "slo": "sk", "slv": "sl",
    "som": "so", "sqi": "sq", "alb": "sq", "swe": "sv", "swa": "sw", "tam": "ta", "tel": "te",
    "tha": "th", "tgl": "tl", "tur": "tr", "ukr": "uk", "urd": "ur", "vie": "vi",
    "chi_sim": "zh-cn", "chi_tra": "zh-tw", "zho": "zh", "chi": "zh",
}


def reference_code(pack: str) -> str | None:
    """The reference's code for the language a Tesseract pack reads (``nor`` -> ``no``), or
    None."""
    return _ISO3.get(pack)


def lang_matches(model_lang: str, wanted: str) -> bool:
    """`fr`, `fra`, `zh` (any Chinese), `zh-cn`, `fra+eng` all name reference languages."""
    for part in wanted.lower().replace("_", "-").split("+"):
        code = _ISO3.get(part.replace("-", "_"), part)
        if model_lang == code or model_lang.startswith(code + "-"):
            return True
    return False



def speaks(found: str | None, wanted: str) -> bool:
    """Is `wanted` among the languages `found` by :func:`best_language` (``ja+en``)?"""
    return found is not None and any(lang_matches(part, wanted) for part in found.split("+"))
