"""Default texts per language, and how a text is cut into pages and lines.

The default texts are ordinary prose with the accented letters of each
language, so a fixture exercises more than ASCII: a repair that only
handles A–Z shows up as a failure on the French, Polish or Greek page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import UsageError

#: A couple of sentences per language: a heading line, then prose with its accents.
DEFAULT_TEXTS: dict[str, str] = {
    "en": (
        "UNITED STATES DISTRICT COURT\n"
        "The hearing resumes on Monday at nine o'clock. Both parties will file their "
        "final briefs before the weekend, and the clerk keeps the exhibits until then."
    ),
    "fr": (
        "TRIBUNAL JUDICIAIRE DE LYON\n"
        "L'audience reprendra lundi à neuf heures. Les deux parties déposeront leurs "
        "conclusions écrites avant vendredi ; le greffier reçoit les pièces jusqu'à midi."
    ),
    "de": (
        "AMTSGERICHT MÜNCHEN\n"
        "Die Verhandlung wird am Montag um neun Uhr fortgesetzt. Beide Parteien müssen "
        "ihre Schriftsätze bis Freitag einreichen; über die Kosten entscheidet das "
        "Gericht schließlich gemäß der Vereinbarung."
    ),
    "es": (
        "JUZGADO DE PRIMERA INSTANCIA\n"
        "La audiencia se reanudará el lunes a las nueve. Ambas partes presentarán sus "
        "alegaciones finales antes del viernes, y el secretario guardará los documentos "
        "hasta entonces. ¿Habrá acuerdo? Nadie lo sabe todavía."
    ),
    "pl": (
        "SĄD REJONOWY W KRAKOWIE\n"
        "Rozprawa zostanie wznowiona w poniedziałek o dziewiątej. Obie strony złożą "
        "końcowe pisma przed piątkiem, a sędzia żąda też zaświadczeń od świadków."
    ),
    "ru": (
        "РАЙОННЫЙ СУД ГОРОДА МОСКВЫ\n"
        "Слушание возобновится в понедельник в девять часов. Обе стороны представят "
        "свои последние доводы до пятницы, а решение будет объявлено позже."
    ),
    "el": (
        "ΠΡΩΤΟΔΙΚΕΙΟ ΑΘΗΝΩΝ\n"
        "Η ακρόαση θα συνεχιστεί τη Δευτέρα στις εννέα. Και τα δύο μέρη θα καταθέσουν "
        "τα τελικά υπομνήματα πριν από την Παρασκευή, και η απόφαση θα ανακοινωθεί αργότερα."
    ),
    "it": (
        "TRIBUNALE ORDINARIO DI ROMA\n"
        "L'udienza riprenderà lunedì alle nove. Entrambe le parti depositeranno le "
        "memorie finali entro venerdì, e la cancelleria custodirà i documenti."
    ),
    "pt": (
        "TRIBUNAL DA RELAÇÃO DE LISBOA\n"
        "A audiência será retomada na segunda-feira às nove horas. As duas partes "
        "apresentarão as alegações finais até sexta-feira, e a decisão virá depois."
    ),
    "cs": (
        "OKRESNÍ SOUD V BRNĚ\n"
        "Jednání bude pokračovat v pondělí v devět hodin. Obě strany předloží závěrečné "
        "návrhy do pátku a soud rozhodne o nákladech řízení později."
    ),
}

#: The languages `write_corpus` covers unless told otherwise.
CORPUS_LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "es", "pl", "ru", "el")


def default_text(language: str = "en") -> str:
    """The default text for *language*; UsageError naming the known languages otherwise."""
    try:
        return DEFAULT_TEXTS[language]
    except KeyError:
        known = ", ".join(sorted(DEFAULT_TEXTS))
        raise UsageError(f"no default text for language {language!r} (known: {known})") from None


def normalise(text: str) -> str:
    """NFC text with newlines and form feeds only: what the page will show.

    Tabs become spaces; any other control character is refused, because a
    fixture's truth must be text a person could read off the page.
    """
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\t", " "))
    for ch in text:
        if ch not in "\n\f" and unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn"):
            raise UsageError(f"text contains U+{ord(ch):04X}, which a page cannot show as text")
    return text


def split_pages(text: str, pages: int | None) -> list[str]:
    """Form feeds separate pages; ``pages=N`` makes N pages, cycling through the parts."""
    parts = [p.strip("\n ") for p in text.split("\f")]
    if pages is None:
        return parts
    if isinstance(pages, bool) or not isinstance(pages, int) or pages < 1:
        raise UsageError(f"pages must be a positive whole number, not {pages!r}")
    return [parts[i % len(parts)] for i in range(pages)]


@dataclass(frozen=True)
class Layout:
    """Page geometry shared by every family: small A5 pages, left-aligned lines."""

    width: float = 420.0  # A5 portrait, in points
    height: float = 595.0
    margin: float = 36.0

    @property
    def line_width(self) -> float:
        return self.width - 2 * self.margin



def wrap(text: str, measure: Callable[[str], float], width: float) -> list[str]:
    """Greedy word wrap: each paragraph (newline) becomes lines no wider than *width*.

    *measure* gives the width of a string in points.  A word wider than the
    line is cut between characters.  Empty paragraphs are kept as empty lines.
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if measure(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            while measure(word) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and measure(word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines

