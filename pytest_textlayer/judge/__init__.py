"""Judging a text layer: the rungs from presence to shift, and the report they build.

Owns `classifier` (`classify`: presence, static fonts, contradicted maps,
reader signals, language, shift), `readerpages` (what real readers say of
a page) and `letterfreq` (a page's letter frequencies against the
language's).

May import: the foundation modules, `pdf`, `lang`. Never `repairs`,
`report`, `run`, `plugin` or `generators`.
"""
