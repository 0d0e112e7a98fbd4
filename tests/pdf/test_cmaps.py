"""The CMap parser on what it is given: any token soup fails in one line or gives text, and
its shortcuts (plain bfchar sections, the skipped preamble) read every CMap as its
token-by-token reading does."""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf import cmaps

_TOKENS = st.sampled_from(
    [
        b"<0041>",
        b"<41>",
        b"<00>",
        b"<D83D>",
        b"<DE00>",
        b"<D83DDE00>",
        b"<00660069>",
        b"<FFFF>",
        b"<0>",
        b"<041>",
        b"<00 41>",
        b"<>",
        b"[",
        b"]",
        b"12",
        b"/Name",
        b"/Xbeginbfchar",
        b"beginbfchar",
        b"endbfchar",
        b"beginbfrange",
        b"endbfrange",
        b"begincodespacerange",
        b"endcodespacerange",
        b"begincidchar",
        b"endcidchar",
        b"/Parent usecmap",
        b"begincidrange",
        b"endcidrange",
        b"(beginbfchar)",
        b"(a\\)b)",
        b"%beginbfchar\n",
        b"%c\n",
        b"<<",
        b">>",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKENS, max_size=40).map(b" ".join))
def test_the_parser_never_fails_except_with_valueerror(data: bytes) -> None:
    try:
        cmap = cmaps.parse_cmap(data)
    except ValueError as exc:
        assert "\n" not in str(exc)
        return
    assert all(isinstance(v, str) for v in cmap.unicode.values())
    assert all(w >= 1 for w in cmap.widths)


def _read(data: bytes) -> cmaps.CMap | str:
    try:
        return cmaps.parse_cmap(data)
    except ValueError as exc:
        return str(exc)


def _read_token_by_token(data: bytes) -> cmaps.CMap | str:
    never = mock.Mock(fullmatch=lambda text: None)
    with mock.patch.object(cmaps, "_PLAIN_RUN", never), \
            mock.patch.object(cmaps, "_preamble_end", lambda data: 0):
        return _read(data)


@settings(max_examples=400, deadline=None)
@given(st.lists(_TOKENS, max_size=40).map(b" ".join))
def test_shortcuts_read_as_token_by_token(data: bytes) -> None:
    assert _read(data) == _read_token_by_token(data)


def test_a_usual_tounicode_takes_the_shortcuts_and_reads_right() -> None:
    data = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /Adobe-Identity-UCS def\n"
        b"1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        b"5 beginbfchar\n<0003> <0020>\n<0024> <0041>\n<0025> <D835DC00>\n"
        b"<0026> <00660069>\n<0027> <DE00>\nendbfchar\n"
        b"1 beginbfrange\n<0044> <0046> <0061>\nendbfrange\n"
        b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    plain = mock.Mock(wraps=cmaps._plain_bfchar)
    with mock.patch.object(cmaps, "_plain_bfchar", plain):
        cmap = cmaps.parse_cmap(data)
    assert plain.call_count == 1
    assert cmaps._preamble_end(data) == data.index(b"begincodespacerange")
    assert cmap.unicode == {3: " ", 0x24: "A", 0x25: "\U0001d400", 0x26: "fi", 0x27: "\ufffd",
                            0x44: "a", 0x45: "b", 0x46: "c"}
    assert cmap.code_widths == {2}
    assert cmap == _read_token_by_token(data)
