"""The one-regex content tokenizer gives the walk exactly what qpdf's parser gives, or defers.

For every stream, `instructions` either returns None (qpdf's parser will
decide) or the same operators with the same operands as
`pikepdf.parse_content_stream`; streams are written by hand for the hard
cases and generated from PDF tokens by hypothesis for the rest.
"""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf.content import OPERATORS
from pytest_textlayer.pdf.contentstream import WALKED, from_pikepdf, instructions

_PDF = pikepdf.new()  # streams live as long as their Pdf


def _stream(data: bytes) -> Any:
    return _PDF.make_stream(data)


def by_qpdf(data: bytes) -> list[tuple[bytes, Any]] | None:
    try:
        parsed = pikepdf.parse_content_stream(_stream(data), OPERATORS)
    except Exception:
        return None
    return [(op, args) for op, args in from_pikepdf(parsed) if op in WALKED or op == b"BI"]


def agree(data: bytes) -> bool:
    """True when the fast route deferred, or gave exactly qpdf's instructions."""
    fast = instructions(_stream(data))
    if fast is None:
        return True
    slow = by_qpdf(data)
    assert slow is not None, f"qpdf cannot parse what the fast route accepted: {data!r}"
    assert [op for op, _ in fast] == [op for op, _ in slow], data
    for (op, a), (_, b) in zip(fast, slow, strict=True):
        if op in (b"q", b"Q", b"BT", b"ET", b"T*", b"EMC") or op in (b"S", b"f", b"B", b"sh"):
            continue  # operands the walk never reads
        if op == b"BDC" and len(a) == 2 and a[1] is None and b[1] is not None:
            # Properties of a marked-content id (and language) only are not built: the walk
            # reads nothing in them (no ActualText, no optional content).
            assert a[0] == b[0] != "/OC", (a, b, data)
            assert isinstance(b[1], pikepdf.Dictionary), (a, b, data)
            assert set(b[1].keys()) <= {"/MCID", "/Lang"}, (a, b, data)
            continue
        assert list(a) == list(b), (op, a, b, data)
    return False


@pytest.mark.parametrize("data", [
    b"0 null BDC ",  # a null where the properties go: both routes give None (hypothesis)
    b"BT /F1 12 Tf 1 0 0 1 72 700 Tm (Hello) Tj T* [(W) 80 (orld) -250 (!)] TJ ET",
    b"q 1 0 0 1 .5 -.5 cm 0 0 10 10 re f Q",
    b"BT /F1 12 Tf (a\\(b\\)c\\\\d\\n\\101\\7\\0123) Tj ET",
    b"BT /F1 12 Tf <48656c6c6f> Tj <48 65 6> Tj ET",
    b"BT /F1 12 Tf (line one\\\ncontinued) Tj (cr\rlf\r\nend) Tj ET",
    b"BT /F#31 12 Tf (x) Tj ET",
    b"/P <</MCID 3>> BDC BT /F1 12 Tf (tagged) Tj ET EMC",
    b"/Span <</ActualText (fi)>> BDC BT /F1 12 Tf (\\001) Tj ET EMC",
    b"/OC /oc1 BDC /Im0 Do EMC /Artifact BMC EMC",
    b"BT /F1 12 Tf 2 Tr 110 Tz 3 Ts 14 TL 1 2 TD (a) ' 1 2 (b) \" ET",
    b"% a comment (with a paren\nBT /F1 12 Tf (x) Tj ET % trailing",
    b"BT /F1 12 Tf +3 -4. Td (x)Tj[(y)]TJ ET",
    b"BT\x00/F1\x0c12\x00Tf\x00(x)\x00Tj\x00ET",
    b"0.5 g 1 0 0 RG 3 w [3 2] 0 d /GS0 gs BT /F1 12 Tf (x) Tj ET",
    b"BT /F1 12 Tf true false null Tj (x) Tj ET",
    b"/Span <</MCID 12 >> BDC /P<</MCID 3/Lang (en-GB)>>BDC EMC EMC",
    b"/OC <</MCID 1>> BDC /P <</MCID 3 /ActualText (x)>> BDC EMC EMC",
    # inline images: the data cut where qpdf cuts it, the image read as its size
    b"q 2 0 0 2 0 0 cm BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\x01\x02\x03 EI Q",
    b"BI /W 2 /H 3 /BPC 8 /CS /G ID \x00\x01EI\x02\x03\x04\x05 EI Q BT /F1 9 Tf (x) Tj ET",
    b"BI /Width 3 /Height 1 /IM true /D [1 0] /F /AHx ID ff00ff> EI q 1 0 0 1 5 5 cm Q",
    b"BI /W 7.0 /H /Bad /BPC 1 /IM true ID \x00%\n(\x00 EI\nBT /F1 9 Tf [(a)] TJ ET",
    b"BT /F1 9 Tf (BI ID EI) Tj ET % BI /W 1 ID x EI\n",
    b"BI /W 2 /H 1 /BPC 8 /CS /G ID \x0b< %\x0b EI Q",  # image data may hold either
    b"/P <</MCID 1>> BDC % <a comment>\nBT /F1 9 Tf <41> Tj ET EMC",
    b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI q 1 0 0 1 0 0 cm 0 0 m 1 1 l S Q "
    b"BI /W 2 /H 1 /BPC 8 /CS /G ID \x01\x02 EI",
    # brackets shown as text: strings, not arrays or dictionaries
    b"BT /F1 12 Tf ([) Tj [(]H) -23.1 (U)] TJ (<<) Tj (a>>b) ' [(1]) 2 ([)] TJ ET",
])
def test_hand_written_streams_agree(data: bytes) -> None:
    assert agree(data) is False  # these are the regular streams: the fast route must take them


@pytest.mark.parametrize("data", [
    # an "EI" in the data followed by a delimiter: only qpdf's test of what follows decides
    b"q BI /W 4 /H 1 /BPC 8 /CS /G ID \x00 EI \x80\x81 EI Q",
    # the next image's data within ten tokens of an image's end: qpdf's test reads into it
    b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI BI /W 1 /H 1 ID \x80 EI",
    b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI 0 0 d0 Q",  # a word qpdf's test calls bad
    b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI /G#00S gs Q",  # and a name it calls bad
    b"BI /W 1 /H 1 ID \x00",  # no end
    # a vertical tab ends a name for qpdf (PDF's white space has none): the next word is no
    # part of the name, and may be an operator, or hide an image's BI and ID
    b"q /GS\x0bQ",
    b"BT /F1\x0bET",
    b"BI /W 1 /H 1 ID \x01 EI /X\x0bQ",
    b"q /X\x0bBI /W 2 /H 3 /BPC 8 /CS /G /Y /Z\x0bID /a\x0bEI Q",
    # a % inside a hex string ends it for qpdf: no comment to strip
    b"BT /F1 9 Tf <41%c\n42> Tj ET",
    b"BT /F1 9 Tf [<41%c\n42>] TJ ET",
    b"q <4%\n> Tj Q",
    b"q <4%BI /W 1 /H 1 ID \x00\x01 EI\n> Tj Q",
    b"BT /F1 12 Tf (nested (parens) here) Tj ET",
    b"BT /F1 12 Tf (unterminated Tj ET",
    b"BT /F1 12 Tf 12Tf (x) Tj ET",
    b"BT /F1 12 Tf (x) Tj foo ET",
    b"BT /F1 12 Tf [(x) Tj ET",
    b"1 0 R Do",
    b"BT /F1 12 Tf (x) Tj ET }",
])
def test_unusual_streams_go_to_qpdf(data: bytes) -> None:
    assert instructions(_stream(data)) is None


def test_a_page_with_several_content_streams_is_read_as_one() -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = pdf.pages[0]
    page.obj.Contents = pikepdf.Array([pdf.make_stream(b"BT /F1 12 Tf (one) Tj"),
                                       pdf.make_stream(b"(two) Tj ET")])
    fast = instructions(page)
    assert fast is not None
    assert [(op, list(args)) for op, args in fast] == [
        (b"BT", []), (b"Tf", ["/F1", 12.0]), (b"Tj", [b"one"]), (b"Tj", [b"two"]), (b"ET", [])]


_TOKENS = st.sampled_from([
    b"0", b"12", b"-3.5", b".25", b"+7", b"4.", b"/F1", b"/Name#20x", b"/", b"(abc)", b"(a\\)b)",
    b"(\\101\\12)", b"()", b"<414243>", b"<4 1>", b"<>", b"[", b"]", b"<<", b">>", b"<</K 1>>",
    b"true", b"null", b"BT", b"ET", b"Tf", b"Tj", b"TJ", b"Td", b"TD", b"Tm", b"T*", b"'", b'"',
    b"cm", b"q", b"Q", b"Do", b"BDC", b"BMC", b"EMC", b"re", b"f", b"S", b"Tz", b"Tr", b"%c\n",
    b"gs", b"d0", b"W*", b"xyz", b"(", b")", b"{", b"}", b"1-2", b"--1", b"([)", b"(]>>)",
    b"<41%", b"<4", b">",
])
_SPACES = st.sampled_from([b" ", b"\n", b"\r\n", b"\t", b"", b"\x00", b"\x0c", b"\x0b"])
#: Inline images whose data holds what cutting it may trip on: "EI" before a delimiter or not,
#: "%", parentheses, bytes no token takes.
_IMAGE_BYTES = st.lists(st.sampled_from([b"EI", b" ", b"\n", b"%", b"(", b")", b"/", b"Q",
                                         b"\x00", b"\x80", b"\xff", b"1", b"d0", b"BI"]),
                        max_size=8).map(b"".join)
_INLINE_IMAGES = st.builds(
    lambda head, data, end: b"BI " + head + b" ID " + data + end,
    st.sampled_from([b"/W 2 /H 1 /BPC 8 /CS /G", b"/Width 1 /Height 3 /IM true",
                     b"/W 1 /H 1 /D [1 0] /F /AHx", b"/W /X /H 2", b"", b"/W 1 /H"]),
    _IMAGE_BYTES, st.sampled_from([b" EI", b"\nEI", b"EI", b" EI\n", b""]))


@pytest.mark.filterwarnings("ignore:Unexpected end of stream")  # qpdf on trailing operands
@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.one_of(_TOKENS, _INLINE_IMAGES), _SPACES), max_size=40))
def test_generated_streams_agree_or_defer(parts: list[tuple[bytes, bytes]]) -> None:
    data = b"".join(token + space for token, space in parts)
    agree(data)


def test_a_stream_of_comments_past_the_limit_goes_to_qpdf_unlooked_at() -> None:
    """Each ``%`` is looked at in Python (is it inside a hex string?): past a bound the stream
    goes to qpdf's parser rather than cost a Python step per byte of a hostile stream."""
    from pytest_textlayer.pdf import contentstream

    many = b"q %c\n" * (contentstream._PERCENT_LOOKS + 1) + b"Q"
    assert instructions(_stream(many)) is None
    assert agree(many) is True  # deferred
    few = b"q %c\n" * 10 + b"Q"
    assert instructions(_stream(few)) == [(b"q", ())] * 10 + [(b"Q", ())]
