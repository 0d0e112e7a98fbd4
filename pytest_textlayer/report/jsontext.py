"""A report as the indented JSON text `--json` prints, three times as fast as ``json.dumps``.

``json.dumps(..., indent=1)`` runs the json module's encoder in Python (its C
encoder cannot indent before Python 3.13): 7 ms of a 200-page report, in
the main process after the last page is judged. Reports hold only dicts,
lists, strings, numbers, booleans and None, which this writes the same way
(strings through the json module's own C escaping, numbers by their
``repr``); anything else gets ``json.dumps`` itself, so the text is always
the json module's.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring
from typing import Any


class _Unusual(Exception):
    """A value the short route does not write (json.dumps writes the whole document)."""


def dumps(document: Any) -> str:
    """``json.dumps(document, ensure_ascii=False, indent=1)``."""
    out: list[str] = []
    try:
        _value(document, out, "\n")
    except (_Unusual, RecursionError):  # a cycle too: json.dumps says so
        return json.dumps(document, ensure_ascii=False, indent=1)
    return "".join(out)


def _value(value: Any, out: list[str], newline: str) -> None:
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + " "
        separator = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            out.append(separator)
            out.append(encode_basestring(key))
            out.append(": ")
            _value(item, out, inner)
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + " "
        separator = "[" + inner
        for item in value:
            out.append(separator)
            _value(item, out, inner)
            separator = "," + inner
        out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float and math.isfinite(value):
        out.append(float.__repr__(value))
    else:  # NaN and the infinities, subclasses, anything else: json's own spelling
        raise _Unusual
