"""Streams measured where they are read: the bytes are qpdf's, a bomb is refused unread."""

from __future__ import annotations

import random
import zlib

import pikepdf
import pytest

from pytest_textlayer.pdf.streamguard import StreamTooLarge, bounded, guard, read_bytes

MIB = 1024 * 1024


def _stream(pdf: pikepdf.Pdf, raw: bytes, **keys: object) -> pikepdf.Stream:
    stream = pikepdf.Stream(pdf, raw)
    for key, value in keys.items():
        stream[pikepdf.Name("/" + key)] = value
    return pdf.make_indirect(stream)


def _cases(pdf: pikepdf.Pdf) -> list[pikepdf.Stream]:
    rng = random.Random(7)
    # Big enough that measuring inflates them (over a 1 KiB limit / 1032): the bytes
    # measuring made are handed back, and must be qpdf's.
    text = bytes(rng.choice(b"abc de\n") for _ in range(200_000))
    packed = zlib.compress(text, 9)
    flate = pikepdf.Name.FlateDecode
    return [
        _stream(pdf, packed, Filter=flate),
        _stream(pdf, packed + b"\n", Filter=flate),  # a line end after the zlib stream
        _stream(pdf, packed + b"trailing junk", Filter=flate),
        _stream(pdf, packed[: len(packed) // 2], Filter=flate),  # cut short
        _stream(pdf, packed, Filter=pikepdf.Array([flate])),
        _stream(pdf, zlib.compress(packed), Filter=pikepdf.Array([flate, flate])),
        _stream(pdf, text),  # stored plain
    ]


@pytest.mark.parametrize("limit", [None, 64 * MIB])
def test_guarded_reads_give_the_bytes_qpdf_gives(limit: int | None) -> None:
    pdf = pikepdf.new()
    for stream in _cases(pdf):
        try:
            expected: bytes | type[Exception] = bytes(stream.read_bytes())
        except pikepdf.PdfError:
            expected = pikepdf.PdfError
        with bounded(limit):
            if expected is pikepdf.PdfError:
                with pytest.raises(pikepdf.PdfError):
                    read_bytes(stream)
            else:
                assert read_bytes(stream) == expected


def test_a_stream_past_the_limit_is_refused_before_it_is_inflated() -> None:
    pdf = pikepdf.new()
    bomb = _stream(pdf, zlib.compress(b"\0" * (32 * MIB), 9), Filter=pikepdf.Name.FlateDecode)
    with bounded(8 * MIB), pytest.raises(StreamTooLarge) as refused:
        read_bytes(bomb)
    assert (refused.value.objgen, refused.value.how) == (bomb.objgen, "inflates to more than")
    stored = _stream(pdf, b" " * (2 * MIB))
    with bounded(MIB), pytest.raises(StreamTooLarge, match="is larger than"):
        guard(stored)
    guard(bomb)  # outside bounded(): no limit, nothing measured
    with bounded(None):
        guard(bomb)


def test_a_refusal_is_no_exception_the_walk_would_swallow() -> None:
    """The walk turns a damaged object's Exception into a finding about a page or a font."""
    assert not issubclass(StreamTooLarge, Exception)
