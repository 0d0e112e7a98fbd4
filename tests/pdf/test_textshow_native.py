"""The compiled text assembly gives exactly what TextSink.show gives in Python.

The walk calls `pagetext.show_text`: the extension built from
`pytest_textlayer/pdf/_textshow.c` when it is installed, else the method
`TextSink.show`. Both must leave the sink in the same state (its parts,
size, completeness, last position and per-font text) and return the same
advance, bit for bit, on generated runs of shown strings and TJ arrays:
word breaks hang on float comparisons, so a different rounding would show
as a different text.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf import pagetext
from pytest_textlayer.pdf.pagetext import TextFont, TextSink

native = pytest.mark.skipif(pagetext._textshow is None, reason="extension not built")


def same(v: Any) -> Any:
    """A value with floats as their bits, for exact comparison (NaN equals NaN)."""
    if isinstance(v, dict):
        return ("dict", tuple((same(k), same(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(same(x) for x in v))
    if isinstance(v, float):
        return ("float", v.hex() if not math.isnan(v) else "nan")
    return (type(v).__name__, v)


def state(sink: TextSink) -> Any:
    return same((sink.parts, sink.size, sink.complete, sink._last, sink._by_font, sink.text()))


# Decoders as pagetext._decoder makes them, with tables that give spaces, line breaks,
# nothing and several characters for a code: the cases the assembly treats apart.
_CHARS = "".join(" " if c in (32, 0x41) else "\n" if c == 10 else chr(c) for c in range(256))
_DECODERS = [
    pagetext._latin1,
    functools.partial(pagetext._charmap, _CHARS),
    functools.partial(pagetext._two_byte_text, None),
    functools.partial(pagetext._two_byte_text, {0x41: "", 0x42: "ff", 0x43: " ", 0x44: "\n"}),
    functools.partial(pagetext._codes_text, pagetext.ONE_BYTE, {0x61: "", 0x62: " x", 0x63: "\n"}),
]
_FONTS = st.builds(
    TextFont,
    st.sampled_from(_DECODERS),
    st.booleans(),
    st.sampled_from([0.5, 0.278, 0.0, 1.0, 0.6000000000000001, 1e-300]),
)
_FLOATS = st.one_of(
    st.integers(-8, 40).map(lambda n: n * 0.5),  # on a grid: gaps fall on the thresholds
    st.integers(-8, 40).map(lambda n: n * 0.5),
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 12.0, 0.3, -0.3, 1e308, math.inf, -math.inf, math.nan]),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.floats(min_value=-2000, max_value=2000),
)
_SHIFTS = st.one_of(
    st.sampled_from([-180.0, -181.0, -179.99999999999997, -250.0, 80.0, -0.0, 0.0, -1000.0,
                     -20.0, -20, 3, True, math.nan, -math.inf]),
    st.floats(min_value=-1200, max_value=1200),
)
_STRINGS = st.one_of(
    st.sampled_from([b"", b" ", b"\n", b"A", b"AB", b"a", b"abc", b"\x00A", b"\x00 ", b"Hello"]),
    st.binary(max_size=6),
)
_OTHER = st.sampled_from(["/F1", "12", "1e3", "x", None, [1.0], object(), bytearray(b"7")])
_ARRAY = st.lists(st.one_of(_STRINGS, _SHIFTS, _SHIFTS, _OTHER), max_size=24)
_ITEMS = st.one_of(_STRINGS.map(lambda s: (s,)), _ARRAY, _ARRAY.map(tuple))
_SHOW = st.tuples(
    _FONTS, _ITEMS, st.tuples(_FLOATS, _FLOATS), _FLOATS,
    st.sampled_from([1.0, 0.5, 1.2, 0.0, -1.0]),
    st.sampled_from([None, 1, 2]),
    st.sampled_from([None, None, None, "", " ", "\n", "ff", "A B"]),
)


def _run(show: Any, calls: list[Any], budget: int) -> tuple[Any, Any]:
    sink = TextSink(budget)
    out = []
    for font, items, origin, em, scale, key, instead in calls:
        try:
            out.append(same(show(sink, font, items, origin, em, scale, key, instead)))
        except Exception as exc:  # noqa: BLE001 - both routes must fail alike
            out.append(type(exc).__name__)
    return out, state(sink)


@native
@settings(max_examples=3000, deadline=None)
@given(st.lists(_SHOW, max_size=30), st.sampled_from([6000, 40, 3]))
def test_generated_runs_of_strings_assemble_alike(calls: list[Any], budget: int) -> None:
    assert _run(pagetext._textshow.show, calls, budget) == _run(TextSink.show, calls, budget)


@native
@settings(max_examples=3000, deadline=None)
@given(_FONTS, _ARRAY, st.sampled_from([0.5, 0.0, 0.3333333333333333, 7.25]))
def test_tj_arrays_give_the_same_text_and_advance(font: TextFont, items: list[Any],
                                                  width: float) -> None:
    assert same(pagetext._textshow.pieces(font, items, width)) == same(
        pagetext._pieces(font, items, width))
    assert same(pagetext._textshow.usual_adjustment(items)) == same(
        pagetext._usual_adjustment(items))


@native
def test_the_walk_calls_the_compiled_assembly() -> None:
    assert pagetext.show_text is pagetext._textshow.show


@native
def test_letter_spacing_and_word_gaps_read_alike() -> None:
    """cairo's monospace arrays (every glyph spaced alike) and pdfTeX's word arrays."""
    font = TextFont(pagetext._latin1, True, 0.5)
    cairo = [b"H", -400.0, b"e", -400.0, b"l", -400.0, b"l", -400.0, b"o", -900.0, b"w"]
    tex = [b"Hello", -333.0, b"world", -333.0, b"and", -333.0, b"more", -333.0, b"words"]
    for items in (cairo, tex):
        assert pagetext._textshow.pieces(font, items, 0.5) == pagetext._pieces(font, items, 0.5)
    assert pagetext._textshow.pieces(font, cairo, 0.5)[0] == "Hello w"
    assert pagetext._textshow.pieces(font, tex, 0.5)[0] == "Hello world and more words"


@native
@settings(max_examples=500, deadline=None)
@given(st.sampled_from([1, 2]), st.lists(st.binary(min_size=1, max_size=3), max_size=60))
def test_codes_are_counted_as_a_counter_counts_them(width: int, strings: list[bytes]) -> None:
    """FontUse.codes counts a page's one- and two-byte codes in C: the same counts, in the
    order a Counter keeps (the order codes first occur), as Counter over split_codes."""
    from collections import Counter

    from pytest_textlayer.pdf.fontinfo import split_codes

    data = b"".join(strings)
    counted = pagetext._textshow.count_codes(data, width)
    if len(data) % width:
        assert counted is None  # not whole codes: the caller counts them in Python
        return
    expected = Counter(split_codes(data, ((width, 0, 0xFFFF),)))
    assert list(counted.items()) == list(expected.items())


@native
def test_codes_of_other_widths_are_left_to_python() -> None:
    assert pagetext._textshow.count_codes(b"\x00\x01\x00", 0) is None  # a mixed codespace
    assert pagetext._textshow.count_codes(b"\x00\x01\x02\x03", 4) is None
    assert pagetext._textshow.count_codes(b"", 2) == {}
    assert list(pagetext._textshow.count_codes(b"\xff\xff\x00\x00\xff\xff", 2).items()) == [
        (0xFFFF, 2), (0, 1)]
