"""Judging a text layer: the rungs from presence to shift, and the report they build.

Owns `classifier` (`classify`: opens a document and runs the rungs on each
page), the rungs in the order they run: `presence`, `staticfonts` (with
`sparedglyphs`, bad routes that still read right), `contradicted` (maps
the font itself contradicts), `readersignals`, `language` (and shift; with
`oddfonts`, fonts judged alone, and `fonttrust`, what earlier pages
proved); `decision` (what every rung returns), `readerpages` (what real
readers say of a page) and `letterfreq` (a page's letter frequencies
against the language's).

May import: the foundation modules, `pdf`, `lang`. Never `repairs`,
`report`, `run`, `plugin` or `generators`.
"""
