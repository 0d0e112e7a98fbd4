"""Write a correct /ToUnicode CMap: the one route every reader follows.

A repaired font keeps its glyphs, widths and content stream untouched; only
this stream is added (or replaced). The output is deterministic (same map,
same bytes), so repaired files can be compared and cached.

The CMap follows Adobe Technical Note #5411 and ISO 32000 §9.10.3: one
codespace range of the font's code width (1 byte for simple fonts, 2 bytes
for Identity-encoded composite fonts), ``bfrange`` for runs of consecutive
codes mapping to consecutive single characters in the same high byte, and
``bfchar`` for the rest, at most 100 entries per block. Values are UTF-16BE,
with surrogate pairs above the Basic Multilingual Plane.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The specification limits each bfchar / bfrange block to 100 entries.
MAX_BLOCK = 100

#: Values a ToUnicode must never give (PDF/A and PDF/UA forbid the first three; the rest is noise).
FORBIDDEN = frozenset({"\x00", "\ufeff", "\ufffe", "\uffff"})


def _hex_code(code: int, width: int) -> str:
    return f"<{code:0{2 * width}X}>"


def _hex_text(text: str) -> str:
    data = text.encode("utf-16-be", errors="surrogatepass")
    return "<" + data.hex().upper() + ">"


def clean_map(mapping: Mapping[int, str], width: int) -> dict[int, str]:
    """The entries worth writing: codes inside the codespace, values that are real text."""
    limit = 1 << (8 * width)
    out: dict[int, str] = {}
    for code, text in mapping.items():
        if not 0 <= code < limit or not text:
            continue
        if any(ch in FORBIDDEN or 0xD800 <= ord(ch) <= 0xDFFF for ch in text):
            continue
        out[code] = text
    return out


def _runs(items: list[tuple[int, str]]) -> Iterable[tuple[int, int, str] | tuple[int, str]]:
    """Split sorted (code, text) pairs into ranges (lo, hi, first_text) and single chars."""
    i = 0
    while i < len(items):
        code, text = items[i]
        j = i
        if len(text) == 1 and ord(text) < 0x10000:
            # Extend while the next code and the next character both follow on, in one high byte.
            while (
                j + 1 < len(items)
                and items[j + 1][0] == items[j][0] + 1
                and len(items[j + 1][1]) == 1
                and ord(items[j + 1][1]) < 0x10000
                and ord(items[j + 1][1]) == ord(items[j][1]) + 1
                and (items[j + 1][0] >> 8) == (code >> 8)
                and (ord(items[j + 1][1]) & 0xFF) != 0  # the last byte must not carry over
            ):
                j += 1
        if j > i:
            yield (code, items[j][0], text)
        else:
            yield (code, text)
        i = j + 1


def build_cmap(
    mapping: Mapping[int, str], *, width: int, name: str = "TextLayer-Repair-UCS"
) -> bytes:
    """The bytes of a ToUnicode CMap stream for ``{code: text}`` with codes of ``width`` bytes."""
    if width not in (1, 2):
        raise ValueError(f"code width must be 1 or 2 bytes, not {width}")
    entries = sorted(clean_map(mapping, width).items())
    ranges: list[tuple[int, int, str]] = []
    chars: list[tuple[int, str]] = []
    for run in _runs(entries):
        if len(run) == 3:
            ranges.append(run)  # type: ignore[arg-type]
        else:
            chars.append(run)  # type: ignore[arg-type]
    hi = (1 << (8 * width)) - 1
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        f"/CMapName /{name} def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"{_hex_code(0, width)} {_hex_code(hi, width)}",
        "endcodespacerange",
    ]
    for start in range(0, len(chars), MAX_BLOCK):
        block = chars[start : start + MAX_BLOCK]
        lines.append(f"{len(block)} beginbfchar")
        lines.extend(f"{_hex_code(c, width)} {_hex_text(t)}" for c, t in block)
        lines.append("endbfchar")
    for start in range(0, len(ranges), MAX_BLOCK):
        rblock = ranges[start : start + MAX_BLOCK]
        lines.append(f"{len(rblock)} beginbfrange")
        lines.extend(
            f"{_hex_code(lo, width)} {_hex_code(up, width)} {_hex_text(t)}" for lo, up, t in rblock
        )
        lines.append("endbfrange")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end", ""]
    return "\n".join(lines).encode("ascii")


def code_width(font: Any) -> int:
    """Bytes per code of a pikepdf font dictionary: 2 for composite (Type0) fonts, else 1."""
    import pikepdf

    return 2 if font.get("/Subtype") == pikepdf.Name.Type0 else 1


def attach(pdf: Any, font: Any, mapping: Mapping[int, str], *, width: int | None = None) -> int:
    """Give ``font`` (a pikepdf font dictionary of ``pdf``) a new /ToUnicode; return its size.

    The stream is Flate-compressed. An existing /ToUnicode (stream or name) is
    replaced, since callers pass the whole map they verified.
    """
    if width is None:
        width = code_width(font)
    return attach_all(pdf, [Attachment(font, mapping, width)])[0]


@dataclass(frozen=True)
class Attachment:
    """One font's new map, and the codes the font draws (None: not known)."""

    font: Any
    mapping: Mapping[int, str]
    width: int
    drawn: frozenset[int] | None = None


def attach_all(pdf: Any, fonts: Sequence[Attachment]) -> list[int]:
    """Give each font its /ToUnicode; fonts whose maps can be one share one stream.

    A severed family's faces (regular, bold and italic subsets numbered by the
    family's glyph ids) need one map, not three: each CMap's fixed header and
    stream object cost about 350 bytes, a tenth of a one-page file. Maps are
    joined only when they give every shared code the same text and no font
    draws a code that only the other map holds (that code stays unmapped for
    it), so each font reads exactly as its own map would make it read. Fonts
    whose drawn codes are not known keep their own stream. Returns each
    font's own entry count, in order.
    """
    import zlib

    import pikepdf

    groups: list[_Group] = []
    own: list[dict[int, str]] = []
    for font in fonts:
        clean = clean_map(font.mapping, font.width)
        own.append(clean)
        group = next((g for g in groups if g.takes(font, clean)), None)
        if group is None:
            drawn = None if font.drawn is None else set(font.drawn)
            groups.append(_Group(font.width, dict(clean), drawn, [font.font]))
        else:
            group.join(font, clean)
    for group in groups:
        data = build_cmap(group.mapping, width=group.width)
        # Compressed here, so a save that does not recompress streams still writes it small.
        stream = pikepdf.Stream(pdf, zlib.compress(data, 9))
        stream[pikepdf.Name.Filter] = pikepdf.Name.FlateDecode
        shared = pdf.make_indirect(stream)
        for member in group.fonts:
            member[pikepdf.Name.ToUnicode] = shared
    return [len(clean) for clean in own]


@dataclass
class _Group:
    """Fonts sharing one ToUnicode: their joined map and every code they draw."""

    width: int
    mapping: dict[int, str]
    #: None: a font whose drawn codes are not known, which shares with no other.
    drawn: set[int] | None
    fonts: list[Any]

    def takes(self, font: Attachment, clean: Mapping[int, str]) -> bool:
        if self.drawn is None or font.drawn is None or font.width != self.width:
            return False
        if any(self.mapping.get(code, text) != text for code, text in clean.items()):
            return False
        if any(code in self.drawn for code in clean if code not in self.mapping):
            return False
        return not any(code in font.drawn for code in self.mapping if code not in clean)

    def join(self, font: Attachment, clean: Mapping[int, str]) -> None:
        assert self.drawn is not None and font.drawn is not None  # takes() said so
        self.mapping.update(clean)
        self.drawn.update(font.drawn)
        self.fonts.append(font.font)
