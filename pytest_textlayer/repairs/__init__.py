"""Repairing a text layer: new maps for broken fonts, OCR where no map can be had.

Owns `repairer` (`repair`: the driver) and `repair_report` (what it tells),
`plan` (one font's repair in the making), `fontmap` (a font's map from its own
evidence), `readings` (one reading judged against another), `settle` (fonts
settled with the rest of the document), `choice` (the candidate readings, their
evidence and the one chooser), `aswritten` (the values written),
`ocr_fallback` (what OCR brings, in which language), `outfile` (writing OUT),
`recover` (what a recovered map is and may carry), `fontusage` (the fonts
drawing text, their codes and glyphs), `programmaps` and `ordermaps` (maps
from the font program; from the glyph order, judged by the language),
`glyphocr`, `pageglyphs`, `glyphreading`,
`glyphlang`, `glyphsettle`, `specimen` and `blankglyphs` (reading severed
fonts by their glyphs),
`tounicode_writer` (writing `/ToUnicode`) and `ocr` (the OCRmyPDF fallback).

May import: the foundation modules, `pdf`, `lang`, `judge`. Never
`report`, `run`, `plugin` or `generators`.
"""
