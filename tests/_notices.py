"""Short public notices a real producer typesets, severed by the tests that read them back.

A heading, then a paragraph with a phrase in italics (between ``*``), in
French and Russian: accents, apostrophes and Cyrillic in one font.
"""

from __future__ import annotations

import html
from pathlib import Path

NOTICES = {
    "fr": (
        "Avis aux habitants",
        "Les livres déjà empruntés pourront être rendus au bibliobus, garé près de la "
        "piscine chaque mardi et vendredi ; la mairie s'excuse de la gêne occasionnée et "
        "*un bénévole répond* chaque matin aux questions sur les pénalités.",
    ),
    "ru": (
        "Объявление для жителей",
        "Взятые книги можно вернуть в библиобус, который по вторникам и пятницам стоит у "
        "крытого бассейна; *волонтёр отвечает* каждое утро, а весь фонд вернётся на полки "
        "к середине апреля.",
    ),
}


def notice_page(folder: Path, lang: str, heading: str, body: str,
                font: str = "DejaVu Sans") -> Path:
    """The notice as an HTML page on A5-wide justified lines, the italics as ``<em>``."""
    parts = html.escape(body).split("*")
    body_html = "".join(f"<em>{p}</em>" if i % 2 else p for i, p in enumerate(parts))
    page = folder / f"{lang}.html"
    page.write_text(
        f"<!doctype html><html lang='{lang}'><meta charset='utf-8'><body style='font-family:"
        f" {font}; width: 11cm; text-align: justify'><h1>{html.escape(heading)}</h1>"
        f"<p>{body_html}</p></body></html>",
        encoding="utf-8",
    )
    return page
