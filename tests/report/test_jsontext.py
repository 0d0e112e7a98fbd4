"""`--json`'s text is the json module's, whatever the report holds."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pytest_textlayer import classify
from pytest_textlayer.generators import generate
from pytest_textlayer.report.jsontext import dumps

_SCALARS = (st.none() | st.booleans() | st.integers() | st.floats()
            | st.text(st.characters(exclude_categories=["Cs"])))
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


def _json(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1)


@given(_DOCUMENTS)
def test_any_document_of_json_values_is_written_as_json_writes_it(document: Any) -> None:
    assert dumps(document) == _json(document)


def test_a_reports_document_is_written_as_json_writes_it() -> None:
    data = generate("mixed", families=["readable", "severed", "shifted", "image-only"]).pdf
    document = {"documents": [classify(data).to_dict()]}
    assert dumps(document) == _json(document)


class _Colour(str, Enum):
    RED = "red"


def test_values_the_short_route_does_not_write_are_written_by_json() -> None:
    for document in ({"a": float("nan")}, [float("-inf")], {1: "a"}, {"c": _Colour.RED},
                     [True, 1, 1.0, None, "\u00e9\n\x00"]):
        assert dumps(document) == _json(document)
