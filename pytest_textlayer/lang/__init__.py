"""Text, not PDFs: the letter-pair language model and what it decides about strings.

Owns `langmodel` (fit, score, the built-in reference in `data/`),
`textrepair` (constant-offset and Mac-order repair of text), `textshape`
(is a string prose, a grid, code?) and `glyphorder` (glyph orders that
fonts number codes in).

May import: the foundation modules. Never `pdf`: a string is all it sees.
"""
