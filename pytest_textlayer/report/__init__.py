"""Rendering reports beyond the terminal: the HTML report and JSON Lines records.

The report object itself is `pytest_textlayer.model`; this package owns
its other renderings: `html_report`, `html_parts` and `glyphboxes` (pages
drawn by PDFium with every glyph's route coloured) and `jsonl` (records
for corpus runs, resumable and mergeable).

May import: the foundation modules, `pdf`, `lang`, `judge`, `repairs`.
Never `run`, `plugin` or `generators`.
"""
