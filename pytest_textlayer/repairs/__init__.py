"""Repairing a text layer: new maps for broken fonts, OCR where no map can be had.

Owns `repairer` (`repair`: the driver), `recover` (what a recovered map is
and may carry), `fontusage` (the fonts drawing text, their codes and glyphs),
`programmaps` and `ordermaps` (maps from the font program; from the glyph
order, judged by the language), `glyphocr`, `glyphsettle`,
`specimen` and `blankglyphs` (reading severed fonts by their glyphs),
`tounicode_writer` (writing `/ToUnicode`) and `ocr` (the OCRmyPDF fallback).

May import: the foundation modules, `pdf`, `lang`, `judge`. Never
`report`, `run`, `plugin` or `generators`.
"""
