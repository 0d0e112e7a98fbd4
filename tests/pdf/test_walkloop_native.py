"""The compiled operator loop leaves the walk's state exactly as the walk's own loop leaves it.

Instruction lists are generated directly, with operands of every kind qpdf's
parser and the tokenizers give (floats, ints, booleans, None, names, strings,
arrays, numbers written as text) and in every number, so that operators are
skipped where their operands fail. Each list is walked twice over a page
with two fonts, once with `_walkloop.run` and once by the walk's own loop;
the text step records, at every shown string, what the state then is (both
matrices, the CTM, font, size, render mode, scale, rise, leading, the
ActualText span, the hidden depth, the path count), and each route must
record the same, raise the same and leave the same errors.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf import content
from pytest_textlayer.pdf.geometry import IDENTITY

pytestmark = pytest.mark.skipif(content._walkloop is None, reason="extension not built")

_VALUES = st.sampled_from([
    0.0, 1.0, -2.5, 12.0, 100.0, 1e300, -0.0, math.inf, math.nan, 3, -7, 2**70, True, False,
    None, "/F1", "/F2", "/Nope", "1.5", b"2", b"Hi", b"", [b"ab", -250.0, b"c"], [], (1.0,),
])
_OPERATORS = st.sampled_from([
    b"Tj", b"TJ", b"'", b'"', b"Td", b"TD", b"Tf", b"Tm", b"T*", b"TL", b"BT", b"ET", b"Tr",
    b"q", b"Q", b"cm", b"Tz", b"Ts", b"S", b"f*", b"sh", b"BMC", b"BDC", b"EMC", b"Do", b"W",
])


_SPAN = pikepdf.Dictionary(ActualText=pikepdf.String("fi"))


@st.composite
def _instruction(draw: Any) -> tuple[bytes, Any]:
    op = draw(_OPERATORS)
    if op == b"Tf" and draw(st.booleans()):  # mostly a font that is there
        return op, (draw(st.sampled_from(["/F1", "/F2"])), draw(st.sampled_from([9.0, 12, 0.5])))
    if op in (b"Tm", b"cm") and draw(st.booleans()):  # mostly six numbers
        return op, tuple(draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, -1.0, 0.5, 10.0]),
                                       min_size=6, max_size=6)))
    if op == b"BDC" and draw(st.booleans()):
        # an ActualText span, a hidden layer, or the marked-content id only (the tokenizer's
        # None: tagged files write it before every run of text; the compiled loop opens it)
        return op, draw(st.sampled_from([("/Span", _SPAN), ("/OC", "/L1"), ("/Span", "/L1"),
                                         ("/P", None), ("/OC", None), ("/Span", None)]))
    args = tuple(draw(st.lists(_VALUES, max_size=7)))
    return op, (list(args) if op == b"W" else args)


def _page() -> tuple[pikepdf.Pdf, Any]:
    pdf = pikepdf.new()
    fonts = pikepdf.Dictionary(
        F1=pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
            Encoding=pikepdf.Name.WinAnsiEncoding)),
        F2=pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Courier)))
    layer = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name="hidden"))
    pdf.Root.OCProperties = pikepdf.Dictionary(
        OCGs=[layer], D=pikepdf.Dictionary(OFF=[layer], ON=[]))
    return pdf, pikepdf.Dictionary(Font=fonts, Properties=pikepdf.Dictionary(L1=layer))


def _walk(pdf: pikepdf.Pdf, resources: Any, ops: list[tuple[bytes, Any]], compiled: bool,
          ) -> Any:
    records: list[Any] = []

    def show(walker: Any, items: Any, state: Any, resources: Any, tm: Any, depth: int,
             type3: bool, actual: Any) -> Any:
        records.append((repr(items), repr(tm), repr(state.ctm), state.font_key,
                        repr(state.size), repr(state.render), repr(state.scale),
                        repr(state.rise), repr(state.leading), repr(actual), walker.hidden,
                        walker.paths))
        return (*tm[:4], tm[4] + 1.5, tm[5])

    walker = content._Walker(pdf, {}, (0.0, 0.0, 300.0, 400.0))
    walker.instructions = lambda source, what: list(ops)  # type: ignore[method-assign]
    loop, text_step = content._walkloop.run, content._show
    with pytest.MonkeyPatch.context() as m:
        m.setattr(content, "_show", show)
        m.setattr(content, "compiled_loop", lambda: loop if compiled else None)
        content._walkloop.rules(show, content.skipped_errors(), IDENTITY)
        try:
            walker.walk(None, resources, content._State(), 0)
            outcome: Any = None
        except Exception as exc:  # noqa: BLE001 - each route must raise the same
            outcome = (type(exc).__name__, str(exc))
        finally:  # the walk's own text step again, for every other test
            content._walkloop.rules(text_step, content.skipped_errors(), IDENTITY)
    return records, outcome, walker.paths, walker.hidden, walker.errors


@pytest.fixture(scope="module")
def page() -> Iterator[tuple[pikepdf.Pdf, Any]]:
    pdf, resources = _page()
    with pdf:
        yield pdf, resources


@settings(max_examples=3000, deadline=None)
@given(ops=st.lists(_instruction(), max_size=30).map(lambda ops: [*ops, (b"Tj", (b"end",))]))
def test_generated_instructions_leave_the_same_state(page: tuple[pikepdf.Pdf, Any],
                                                      ops: list[tuple[bytes, Any]]) -> None:
    pdf, resources = page
    assert _walk(pdf, resources, ops, True) == _walk(pdf, resources, ops, False)


def test_every_operator_it_knows_is_recorded_by_the_text_step(
        page: tuple[pikepdf.Pdf, Any]) -> None:
    """One stream through every operator the loop interprets, each changing what the next
    string records: a loop that dropped or misread one would record otherwise."""
    pdf, resources = page
    ops = [(b"BT", ()), (b"/F1", ()), (b"Tf", ("/F1", 12.0)), (b"Tf", ("/F2", 9.0)),
           (b"Tf", ("/F1", 11.0)), (b"Tz", (50.0,)), (b"Ts", (3.0,)), (b"TL", (14.0,)),
           (b"Tr", (3.0,)), (b"cm", (2.0, 0.0, 0.0, 2.0, 5.0, 5.0)), (b"q", ()),
           (b"cm", (1.0, 0.0, 0.0, 1.0, 0.0, 3.0)), (b"Td", (10.0, 20.0)), (b"Tj", (b"a",)),
           (b"TD", (1.0, -2.0)), (b"Tj", (b"b",)),
           (b"T*", ()), (b"'", (b"c",)), (b"BDC", ("/Span", _SPAN)), (b"BMC", ("/X",)),
           (b"EMC", ()), (b'"', (1.0, 2.0, b"d")), (b"BDC", ("/OC", "/L1")),
           (b"Tm", (1.0, 0.0, 0.0, 1.0, 7.0, 8.0)), (b"TJ", ([b"e", -100.0, b"f"],)),
           (b"EMC", ()), (b"EMC", ()), (b"f", ()), (b"S", ()), (b"Q", ()), (b"Tj", (b"g",)),
           (b"ET", ()), (b"BT", ()), (b"Tj", (b"h",))]
    fast = _walk(pdf, resources, ops, True)
    assert fast == _walk(pdf, resources, ops, False)
    records = fast[0]
    assert len(records) == 7 and fast[2] == 2  # TJ shows once; f and S are paths
    assert len({r[1] for r in records}) == 7  # every string at a matrix of its own
    assert records[0][4:9] == ("11.0", "3", "0.5", "3.0", "14.0")
    assert records[0][2] == repr((2.0, 0.0, 0.0, 2.0, 5.0, 11.0))  # both cm
    assert records[-1][2] == repr((2.0, 0.0, 0.0, 2.0, 5.0, 5.0))  # Q undid the second
    assert records[-1][1] == repr(IDENTITY)  # BT
    assert records[3][9] == "['fi']" and records[4][9] == "['fi']"  # BMC-EMC inside the span
    assert records[4][10] == 1 and records[5][10] == 0  # the hidden layer, then none
