"""Parse CMap streams: a font's /ToUnicode, or an embedded encoding CMap of a Type0 font.

Real-world CMaps are often sloppy (missing ``end`` keywords, junk between
sections, single-byte destinations, odd-length hex strings), so the parser is
a tolerant regular-expression tokenizer rather than a PostScript interpreter.
It keeps what the classifier needs as evidence: the mapping, the codespace
(the byte widths codes are read in) and the count of malformed hex tokens.
Garbage that holds no CMap section at all raises a one-line ``ValueError``.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace

#: One CMap token: a hex string, a literal string, array brackets, a name or keyword, a number.
_TOKEN = re.compile(
    rb"<([0-9A-Fa-f\s]*)>"  # 1 hex string
    rb"|\(((?:\\.|[^\\)])*)\)"  # 2 literal string (no nested parentheses)
    rb"|(\[)|(\])"  # 3, 4 array brackets
    rb"|(/?[A-Za-z_.][^\s<>\[\]()/%{}]*)"  # 5 name or keyword
    rb"|(-?\d+)"  # 6 integer
    rb"|%[^\r\n]*",  # comment
    re.S,
)
_SPACE = re.compile(rb"\s+")
#: A run of hex-string tokens (what _TOKEN would find one at a time), and its items' digits.
_HEX_RUN = re.compile(rb"(?:\s*<[0-9A-Fa-f\s]*>)+")
_HEX_ITEM = re.compile(rb"<([0-9A-Fa-f\s]*)>")
#: The first section's keyword, a whole token: what comes before it is the CMap's preamble.
_FIRST_SECTION = re.compile(
    rb"(?<![^\s])begin(?:codespacerange|bfchar|bfrange|cidchar|cidrange|notdefchar|notdefrange)"
    rb"(?![^\s<>\[\]()/%{}])"
)
#: A run of hex strings of whole bytes with no white space inside (what writers write).
_PLAIN_RUN = re.compile(rb"(?:\s*<(?:[0-9A-Fa-f][0-9A-Fa-f])+>)+")
#: The most codes a single range may expand to (guards against 0000-FFFFFFFF bombs).
MAX_RANGE = 0x10000
#: The most codes all ranges of one CMap may expand to together: a real CMap covers at most
#: a two-byte codespace, while 50 repeated full-width ranges cost seconds.
MAX_EXPANDED = 4 * 0x10000
_SECTIONS = {
    b"begincodespacerange": b"codespace",
    b"beginbfchar": b"bfchar",
    b"beginbfrange": b"bfrange",
    b"begincidchar": b"cidchar",
    b"begincidrange": b"cidrange",
    b"beginnotdefchar": b"notdef",
    b"beginnotdefrange": b"notdef",
}


@dataclass
class CMap:
    """What one CMap stream says.

    ``unicode`` holds the bf mappings (ToUnicode), ``cids`` the cid mappings
    (encoding CMaps); ``codespace`` lists ``(width, low, high)`` ranges.
    """

    unicode: dict[int, str] = field(default_factory=dict)
    cids: dict[int, int] = field(default_factory=dict)
    codespace: list[tuple[int, int, int]] = field(default_factory=list)
    #: Byte widths of the source codes actually written in the mappings.
    code_widths: set[int] = field(default_factory=set)
    #: Hex tokens with an odd number of digits (a sign of a broken writer).
    odd_tokens: int = 0
    #: Name given by ``usecmap`` (the parent CMap), if any.
    usecmap: str | None = None
    #: Codes the ranges have expanded to so far (bounded by MAX_EXPANDED).
    expanded: int = 0

    def room(self, first: int, last: int) -> int:
        """The last code of ``first..last`` still within the range and total bounds."""
        allowed = min(MAX_RANGE, MAX_EXPANDED - self.expanded)
        last = min(last, first + allowed - 1)
        self.expanded += max(0, last - first + 1)
        return last

    def copy(self) -> CMap:
        """A CMap with containers of its own (a reading kept for later fonts stays as read)."""
        return replace(self, unicode=dict(self.unicode), cids=dict(self.cids),
                       codespace=list(self.codespace), code_widths=set(self.code_widths))

    @property
    def widths(self) -> set[int]:
        """Byte widths of the codespace, or of the mapped codes when no codespace is given."""
        return {w for w, _, _ in self.codespace} or set(self.code_widths)


def _hex(token: bytes, cmap: CMap) -> bytes:
    try:  # the usual token (pairs of digits, white space between pairs only) in one step
        return bytes.fromhex(token.decode("ascii"))
    except ValueError:  # odd digits, white space inside a pair, other characters
        pass
    digits = _SPACE.sub(b"", token)
    if len(digits) % 2:
        cmap.odd_tokens += 1
        digits += b"0"  # the spec's rule for a final odd digit
    return bytes.fromhex(digits.decode("ascii"))


def _literal(token: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(token):
        c = token[i]
        if c == 0x5C and i + 1 < len(token):  # backslash escape
            i += 1
            nxt = token[i : i + 3]
            octal = re.match(rb"[0-7]{1,3}", nxt)
            if octal:
                out.append(int(octal.group(), 8) & 0xFF)
                i += len(octal.group())
                continue
            out.append({0x6E: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12}.get(token[i], token[i]))
        else:
            out.append(c)
        i += 1
    return bytes(out)


def decode_utf16(data: bytes) -> str:
    """A ToUnicode destination: UTF-16BE with surrogate pairs; one byte is read as Latin-1."""
    if len(data) == 1:
        return chr(data[0])
    if len(data) % 2:
        data = b"\x00" + data
    # joins surrogate pairs, replaces lone ones; the codec called directly, not looked up by
    # name on every one of a CMap's thousands of destinations
    return codecs.utf_16_be_decode(data, "replace", True)[0]


def _add_offset(text: str, offset: int) -> str:
    """bfrange destination for the n-th code: the base string with its last character moved by n."""
    if not text:
        return text
    last = ord(text[-1]) + offset
    if not 0 <= last <= 0x10FFFF:
        return text[:-1] + "\ufffd"
    return text[:-1] + chr(last)


def parse_cmap(data: bytes) -> CMap:
    """Parse a CMap stream; ``ValueError`` with one line when it holds no CMap section."""
    cmap = CMap()
    tokens: list[tuple[int, bytes]] = []
    sections = 0
    section: bytes | None = None
    plain = False  # the section's tokens are all plain hex strings (see _PLAIN_RUN)
    last: tuple[int, bytes] = (0, b"")
    pos = _preamble_end(data)
    while True:
        if section is not None:
            # A section's usual body, hex strings only: the tokens of the whole run in one step.
            run = _HEX_RUN.match(data, pos)
            if run is not None:
                text = run.group()
                tokens.extend([(1, digits) for digits in _HEX_ITEM.findall(text)])
                plain = plain and _PLAIN_RUN.fullmatch(text) is not None
                pos = run.end()
        match = _TOKEN.search(data, pos)
        if match is None:
            break
        pos = match.end()
        kind = match.lastindex or 0
        if kind == 0:  # comment
            continue
        value = match.group(kind)
        if kind == 5 and not value.startswith(b"/"):
            name = _SECTIONS.get(value)
            if name is not None:
                section, tokens, plain = name, [], True
                sections += 1
                continue
            if section is not None and value.startswith(b"end"):
                _apply(section, tokens, cmap, plain)
                section, tokens = None, []
                continue
            if value == b"usecmap" and last[0] == 5:
                cmap.usecmap = last[1].lstrip(b"/").decode("latin-1")
        if section is not None:
            tokens.append((kind, value))
            plain = False
        else:
            last = (kind, value)
    if section is not None:  # unterminated last section: use what is there
        _apply(section, tokens, cmap, plain)
    if not sections:
        raise ValueError("not a CMap: no codespacerange, bfchar, bfrange or cid section")
    return cmap


def _preamble_end(data: bytes) -> int:
    """Where tokenizing may start: the first section, when what precedes it can only be
    tokens that set nothing (no comment or string that could hide a keyword; no usecmap
    anywhere, which takes its name from the last token outside a section)."""
    first = _FIRST_SECTION.search(data)
    if first is None or b"usecmap" in data:
        return 0
    preamble = data[: first.start()]
    if b"%" in preamble or b"(" in preamble:
        return 0
    return first.start()


def _apply(section: bytes, tokens: list[tuple[int, bytes]], cmap: CMap, plain: bool = False,
           ) -> None:
    """Interpret the tokens of one section, skipping malformed entries instead of failing;
    `plain`: every token is a hex string of whole bytes with no white space inside."""
    if section == b"bfchar" and plain:
        _plain_bfchar(tokens, cmap)
        return
    values: list[object] = []
    i = 0
    while i < len(tokens):
        kind, raw = tokens[i]
        if kind == 1:
            values.append(_hex(raw, cmap))
        elif kind == 2:
            values.append(_literal(raw))
        elif kind == 6:
            values.append(int(raw))
        elif kind == 3:
            array: list[bytes] = []
            i += 1
            while i < len(tokens) and tokens[i][0] != 4:
                if tokens[i][0] == 1:
                    array.append(_hex(tokens[i][1], cmap))
                elif tokens[i][0] == 2:
                    array.append(_literal(tokens[i][1]))
                i += 1
            values.append(array)
        elif kind == 5:
            values.append(raw)  # a name destination (rare, e.g. /space)
        i += 1
    if section == b"codespace":
        for lo, hi in zip(values[0::2], values[1::2], strict=False):
            if isinstance(lo, bytes) and isinstance(hi, bytes) and lo and len(lo) == len(hi):
                cmap.codespace.append(
                    (len(lo), int.from_bytes(lo, "big"), int.from_bytes(hi, "big"))
                )
    elif section == b"bfchar":
        for src, dst in zip(values[0::2], values[1::2], strict=False):
            if isinstance(src, bytes) and src:
                cmap.code_widths.add(len(src))
                code = int.from_bytes(src, "big")
                if isinstance(dst, bytes):
                    cmap.unicode[code] = decode_utf16(dst)
                elif isinstance(dst, int):
                    cmap.unicode[code] = chr(dst) if 0 <= dst <= 0x10FFFF else "\ufffd"
    elif section == b"bfrange":
        for lo, hi, dst in zip(values[0::3], values[1::3], values[2::3], strict=False):
            if not (isinstance(lo, bytes) and isinstance(hi, bytes) and lo):
                continue
            cmap.code_widths.add(len(lo))
            first, last = int.from_bytes(lo, "big"), int.from_bytes(hi, "big")
            last = cmap.room(first, last)
            if isinstance(dst, bytes):
                base = decode_utf16(dst)
                start = ord(base[-1]) if base else 0
                if len(base) == 1 and start + last - first <= 0x10FFFF:
                    cmap.unicode.update(
                        zip(
                            range(first, last + 1),
                            map(chr, range(start, start + last - first + 1)),
                            strict=True,
                        )
                    )
                    continue
                for n, code in enumerate(range(first, last + 1)):
                    cmap.unicode[code] = _add_offset(base, n)
            elif isinstance(dst, list):
                for code, item in zip(range(first, last + 1), dst, strict=False):
                    cmap.unicode[code] = decode_utf16(item)
    elif section == b"cidchar":
        for src, cid in zip(values[0::2], values[1::2], strict=False):
            if isinstance(src, bytes) and src and isinstance(cid, int):
                cmap.code_widths.add(len(src))
                cmap.cids[int.from_bytes(src, "big")] = cid
    elif section == b"cidrange":
        for lo, hi, cid in zip(values[0::3], values[1::3], values[2::3], strict=False):
            if isinstance(lo, bytes) and isinstance(hi, bytes) and lo and isinstance(cid, int):
                cmap.code_widths.add(len(lo))
                first, last = int.from_bytes(lo, "big"), int.from_bytes(hi, "big")
                for n, code in enumerate(range(first, cmap.room(first, last) + 1)):
                    cmap.cids[code] = cid + n


def _plain_bfchar(tokens: list[tuple[int, bytes]], cmap: CMap) -> None:
    """A bfchar section of plain hex strings, read as :func:`_apply` reads it, in fewer steps:
    a ToUnicode is mostly such pairs, thousands of them in a CJK font's."""
    digits = [raw for _, raw in tokens]
    sources = digits[0:len(digits) - 1:2]  # a source with no destination maps nothing
    cmap.code_widths.update({len(src) >> 1 for src in sources})
    cmap.unicode.update(zip([int(src, 16) for src in sources], map(_destination, digits[1::2]),
                            strict=True))


def _destination(digits: bytes) -> str:
    """:func:`decode_utf16` of plain hex digits; one UTF-16 unit without building bytes."""
    if len(digits) == 4:
        value = int(digits, 16)
        return "\ufffd" if 0xD800 <= value <= 0xDFFF else chr(value)
    if len(digits) == 2:
        return chr(int(digits, 16))
    return decode_utf16(bytes.fromhex(digits.decode("ascii")))
