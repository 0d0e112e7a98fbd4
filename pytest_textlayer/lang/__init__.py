"""Text, not PDFs: the letter-pair language model and what it decides about strings.

Owns `langmodel` (the model of many languages, the built-in reference in
`data/`, a text's symbols, score and judge), the pieces it is made of
(`scripts`, `textsymbols`, `onelanguage`, `textsigns`, `langcodes`),
`fitting` (a model fitted on trusted pages), `textrepair` (constant-offset
and Mac-order repair of one text; the readings it tries in `textshift`,
lines and documents in `documentrepair`), `textshape` (is a string prose, a
grid, code?) and `glyphorder` (glyph orders that fonts number codes in).

May import: the foundation modules. Never `pdf`: a string is all it sees.
"""
