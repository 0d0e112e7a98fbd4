"""Content-stream instructions for the walk, tokenized by one regular expression when it is safe.

qpdf's parser (pikepdf.parse_content_stream) builds a Python object for every
operand and operator; on a dense page that costs more than everything else
the check does. Born-digital streams are regular: numbers, names, simple
strings and a few dozen operators. This module splits such a stream into
(operator, operand bytes) with one `findall` and parses only the operands
of the operators the walk reads, most of them from a memo.

Anything it is not sure of sends the whole stream to qpdf's parser instead,
so both routes give the walk the same instructions: nested or unusual
strings are handled by qpdf, unknown operators, unbalanced brackets,
characters no token accepts, a stream that cannot be decoded. An inline
image's binary data is cut out where qpdf's tokenizer ends it, and only
where qpdf's own test of that end cannot choose another (see
:func:`_around_inline_images`); the image itself is its size, which is all
the walk reads of it. Operands use plain Python values either way: numbers as
int or float, names as ``str`` ("/F1"), strings as ``bytes``, arrays as
lists; dictionaries (marked-content properties) stay pikepdf objects, except
that the properties of a BDC holding only a marked-content id (and a
language) are None on the fast route: the walk reads nothing in them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from operator import itemgetter
from typing import Any

from .streamguard import guard

#: Operators the walk interprets (inline images come from qpdf's parser only).
WALKED = frozenset(
    b"q Q cm BT ET Tf Tr Tm Td TD T* TL Tz Ts Tj TJ ' \" Do BDC BMC EMC "
    b"S s f F f* B B* b b* sh".split()
)
#: Every content-stream operator of PDF 32000 Annex A except the inline-image ones.
KNOWN = frozenset(
    b"b B b* B* BDC BMC BT BX c cm CS cs d d0 d1 Do DP EMC ET EX f F f* G g gs h i j J K k l m "
    b"M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf TJ Tj TL Tm Tr Ts Tw Tz v w "
    b"W W* y ' \"".split()
)
#: Operators whose operands the walk never reads.
_NO_OPERANDS = frozenset(b"q Q BT ET T* EMC S s f F f* B B* b b* sh".split())

#: Operators whose operands are numbers only.
_NUMERIC = frozenset(b"cm Tm Td TD TL Tz Ts Tr".split())
#: Operators whose operands `instructions` parses.
_PARSED = WALKED - _NO_OPERANDS
_BRACKET = re.compile(rb"[\[\]]|<<|>>")

_WS = rb"\x00\t\n\x0c\r "
#: The same white space as bytes (for strip and translate).
_WS_BYTES = b"\x00\t\n\x0c\r "
_DELIM = rb"()<>\[\]{}/%"
#: Bytes that end a word for qpdf's tokenizer: PDF's white space and delimiters, and the
#: vertical tab, which PDF's white space has not.
_QPDF_DELIMITERS = _WS + _DELIM + rb"\x0b"
_END = rb"(?=[" + _WS + _DELIM + rb"]|\Z)"
#: A byte of a regular token (a number, a name's body, an operator): none that ends a word
#: for qpdf. A vertical tab outside a string is then a byte no token here accepts, and the
#: stream goes to qpdf's parser.
_REGULAR = rb"[^" + _QPDF_DELIMITERS + rb"]"
#: Operand tokens, the frequent first. A number is a run of digits, signs and points: whether
#: it is well formed is settled where it is read (float() fails on `1.2.3` or `--1` and sends
#: the stream to qpdf); the operands of operators the walk skips are not read on either route.
#: Checking number syntax here cost a fifth of the tokenizing. Letters (`1e5`, which float()
#: would take) end no number: the stream goes to qpdf.
_OPERAND = (
    rb"[" + _WS + rb"]++"
    rb"|[+\-.0-9]++" + _END +
    rb"|/" + _REGULAR + rb"*+"
    rb"|\((?:[^()\\]++|\\[\s\S])*+\)"
    rb"|<<|>>|<[0-9A-Fa-f" + _WS + rb"]*+>|\[|\]"
    rb"|(?:true|false|null)" + _END
    + rb"|%[^\r\n]*+"
)
#: One instruction: its operands (possessive, never re-split), then an operator-like word or,
#: when nothing else fits, the one character that stopped the operands. That last match also
#: swallows the rest of the stream: the stream goes to qpdf anyway, and restarting the scan
#: at every following byte made a long run of digits (a damaged hex string) quadratic. An
#: operator-like word that is no operator (`true1`, `'x`) is not in KNOWN: qpdf decides.
_INSTRUCTION = re.compile(
    rb"((?:" + _OPERAND + rb")*+)(?:([A-Za-z'\"]" + _REGULAR + rb"*+)|([\s\S])[\s\S]*)"
)
#: Operands made of numbers and spaces only.
_NUMBERS = re.compile(rb"[0-9.+\-\t\n\x0c\r ]*")
#: A name without # escapes, then optionally numbers (Tf, Do, BMC).
_NAME_NUMBERS = re.compile(
    rb"[\t\n\x0c\r ]*/[^\x00-\x20\x7f-\xff()<>\[\]{}/%#]*[0-9.+\-\t\n\x0c\r ]*"
)
_LITERAL = re.compile(rb"[\t\n\x0c\r ]*\(([^()\\\r]*)\)[\t\n\x0c\r ]*")
_NUMBER = rb"[+-]?+(?:\d++\.?+\d*+|\.\d++)"
_HEX = rb"<[0-9A-Fa-f\x00\t\n\x0c\r ]*+>"
#: A TJ array of simple literal strings, hex strings and numbers (what most producers write).
_PLAIN_ARRAY = re.compile(
    rb"[\t\n\x0c\r ]*+\[(?:[\t\n\x0c\r ]*+(?:\([^()\\\r]*+\)|" + _HEX + rb"|" + _NUMBER
    + rb"))*+[\t\n\x0c\r ]*+\][\t\n\x0c\r ]*+"
)
#: One item of such an array, told by its first byte: ``(`` a string, ``<`` hex, else a number.
_ARRAY_ITEM = re.compile(rb"\([^()\\\r]*\)|" + _HEX + rb"|" + _NUMBER)
#: One hex string (Type0 fonts show their two-byte codes this way).
_HEX_STRING = re.compile(rb"[\t\n\x0c\r ]*+(" + _HEX + rb")[\t\n\x0c\r ]*+")
_HEX_SPACE = _WS_BYTES + b"<>"
#: A BDC whose properties are a marked-content id (and a language) only: what tagged office
#: files write before every run of text. Its properties say nothing the walk reads (no
#: ActualText, no optional content), so they are not built as a qpdf dictionary.
_MCID_ONLY = re.compile(
    rb"[\t\n\x0c\r ]*(/[A-Za-z0-9_.\-]+)[\t\n\x0c\r ]*<<[\t\n\x0c\r ]*/MCID[\t\n\x0c\r ]+\d+"
    rb"[\t\n\x0c\r ]*(?:/Lang[\t\n\x0c\r ]*\([^()\\\r]*\)[\t\n\x0c\r ]*)?>>[\t\n\x0c\r ]*"
)
_scan: Callable[..., Any] | None
try:  # the compiled tokenizer; absent (a build without a compiler), the Python one does it all
    from ._tokenize import scan as _scan
except ImportError:  # pragma: no cover - depends on the build
    _scan = None
_MEMO_LIMIT = 4096
_memo: dict[bytes, tuple[Any, ...]] = {}
_second = itemgetter(1)
_third = itemgetter(2)

Instruction = tuple[bytes, Any]


def instructions(source: Any) -> list[Instruction] | None:
    """The walked instructions of a page or stream, or None when qpdf's parser must decide."""
    data = _read(source)
    if data is None:
        return None
    return tokenize(data)


def tokenize(data: bytes) -> list[Instruction] | None:
    """The walked instructions of decoded content `data`, or None when qpdf's parser must decide.

    The compiled tokenizer (``_tokenize.c``, built with the package) reads the streams it is
    sure of; it hands back every other one, and the pure-Python tokenizer below decides, so
    the result is the same with the extension or without it.
    """
    ops = _native(data)
    return tokenize_python(data) if isinstance(ops, _HandedBack) else ops


class _HandedBack:
    """What :func:`_native` returns when the extension is absent or leaves content to the
    Python route."""


_HANDED_BACK = _HandedBack()


def _native(data: bytes) -> list[Instruction] | None | _HandedBack:
    """The extension's instructions of `data`; None when qpdf must decide."""
    if _scan is None or _unlike_qpdf(data):
        return _HANDED_BACK
    try:
        found = _scan(data, operands)
        if found is None:
            return _HANDED_BACK
        ops: list[Instruction] = found[0]
        for span in set(found[1]):  # as in tokenize_python: qpdf must parse them
            _parsed(span)
        return ops
    except Exception:  # an operand only qpdf can make sense of
        return None


def _between_images(data: bytes) -> list[Instruction] | None:
    """:func:`tokenize` of content that shows no inline image (the parts between them)."""
    ops = _native(data)
    return _tokenize_plain(data) if isinstance(ops, _HandedBack) else ops


#: What a hex string holds before its ``>``: hex digits and white space.
_HEX_OR_SPACE = b"0123456789abcdefABCDEF" + _WS_BYTES
#: How far back from a ``%`` a hex string's ``<`` is looked for; a longer run of hex digits
#: and spaces before one counts as a hex string (the stream goes to qpdf's parser).
_HEX_LOOKBACK = 64
#: A stream with more ``%`` than this goes to qpdf's parser unlooked at: each costs a Python
#: step here, and a hostile stream may be made of nothing else.
_PERCENT_LOOKS = 4096


def _unlike_qpdf(data: bytes) -> bool:
    """Would the tokenizers read `data` otherwise than qpdf? A ``%`` inside a hex string
    does: qpdf ends the string there as a bad token, where comment stripping would drop the
    rest of the line. Such content goes to qpdf's parser, and so does a ``%`` in a literal
    string or a comment that looks the same from its last 64 bytes."""
    at = data.find(b"%")
    if at >= 0 and data.count(b"%", at) > _PERCENT_LOOKS:
        return True
    while at >= 0:
        before = data[max(0, at - _HEX_LOOKBACK):at].rstrip(_HEX_OR_SPACE)
        opened = len(before) - len(before.rstrip(b"<"))  # "<<" opens a dictionary
        if opened % 2 or (not before and at >= _HEX_LOOKBACK):
            return True
        at = data.find(b"%", at + 1)
    return False


_STRING_OR_COMMENT_BYTE = re.compile(rb"[\\()%]")
_END_OF_LINE = re.compile(rb"[\r\n]")


def strip_comments(data: bytes) -> bytes:
    """`data` without its comments: each ``%`` outside a string up to its end of line.

    qpdf's parser reads a comment as white space, and TeX and MetaPost write
    them between the operands of ``cm``, ``Tf`` and ``TJ``; dropped here,
    such streams are read by the tokenizers instead of qpdf's slower parser.
    Strings nest and take backslash escapes (a ``%`` inside one is text).
    The extension drops them the same way, before it scans.
    """
    if b"%" not in data:
        return data
    kept: list[bytes] = []
    start = pos = depth = 0
    while (found := _STRING_OR_COMMENT_BYTE.search(data, pos)) is not None:
        at, byte = found.start(), data[found.start()]
        pos = at + 1
        if depth:
            if byte == 0x5C:  # a backslash: the next byte is escaped
                pos = at + 2
            elif byte == 0x28:
                depth += 1
            elif byte == 0x29:
                depth -= 1
        elif byte == 0x28:
            depth = 1
        elif byte == 0x25:
            kept.append(data[start:at])
            end = _END_OF_LINE.search(data, at)
            start = pos = end.start() if end is not None else len(data)
    kept.append(data[start:])
    return b"".join(kept)


def tokenize_python(data: bytes) -> list[Instruction] | None:
    """:func:`tokenize` in Python alone (the route of streams the extension hands back)."""
    if b"ID" in data and b"EI" in data:  # perhaps inline images (the extension hands them back)
        return _around_inline_images(data)
    return _tokenize_plain(data)


#: Where qpdf's tokenizer ends an inline image's data: the first ``EI`` after ``ID`` followed
#: by a delimiter or the end (QPDFTokenizer::findEI), if the tokens after it pass its test.
_IMAGE_END = re.compile(rb"EI(?=[" + _QPDF_DELIMITERS + rb"]|\Z)")
#: A token as qpdf's test after an image's end counts them (comments stripped first).
_TOKEN = re.compile(
    rb"\((?:[^()\\]++|\\[\s\S])*+\)|<<|>>|<[^<>]*+>|[\[\]]"
    rb"|/" + _REGULAR + rb"*+|" + _REGULAR + rb"++"
)
#: qpdf accepts an image's end once this many tokens after it look like content (or the
#: stream ends); a word of letters and digits, such as ``d0``, is a bad token to it.
_ACCEPTED_AFTER = 10


def _around_inline_images(data: bytes) -> list[Instruction] | None:
    """The instructions of a stream that may show inline images, each as
    ``(b"BI", (width, height))``; None when qpdf's parser must decide.

    qpdf's tokenizer ends an image's binary data at the first ``EI`` followed
    by a delimiter, and keeps it when the next ten tokens look like content
    (or the stream ends there). Here the content between images must
    tokenize whole, a stricter test than qpdf's, so the end kept is the one
    qpdf keeps, except where qpdf's test could see what this one does not:
    fewer than ten tokens before the next image's data, or a word such as
    ``d0`` (or a name with ``#00``) after an image. Those streams go to qpdf.
    """
    import pikepdf

    ops: list[Instruction] = []
    start = 0
    padded = data + b"\nEX"  # as in _tokenize_plain: trailing operands end at an operator
    while True:
        found = next((m for m in _INSTRUCTION.finditer(padded, start)
                      if m.group(3) or m.group(2) == b"BI"), None)
        if found is None or found.group(3):  # no image left; or bytes only qpdf reads
            tail = _between_images(data[start:]) if found is None else None
            if tail is None or (ops and _BAD_WORD.search(data, start)):
                return None
            return ops + tail
        head = _INSTRUCTION.match(data, found.end())
        if (found.group(1).strip(_WS_BYTES) or head is None or head.group(2) != b"ID"
                or head.group(3) or _unlike_qpdf(head.group(1))):
            return None
        end = _IMAGE_END.search(data, head.end())
        if end is None or end.start() <= head.end() + 1:  # no data: qpdf reads no further
            return None
        before = _between_images(data[start:found.start(2)])
        if before is None or (ops and (_BAD_WORD.search(data, start, found.start(2)) or _tokens(
                data[start:head.end()]) < _ACCEPTED_AFTER)):
            return None
        try:
            image = pikepdf.PdfInlineImage(  # what qpdf's parser makes of the dictionary
                image_data=pikepdf.String(data[head.end() + 1:end.start()]),
                image_object=tuple(pikepdf.Object.parse(b"[" + head.group(1) + b"\n]")))
        except Exception:  # a dictionary only qpdf can make sense of (or not)
            return None
        ops += before
        ops.append((b"BI", image_size(image)))
        start = end.end()


#: What qpdf's test of an image's end calls a bad token though the tokenizers take it: the
#: operators that are letters with a digit (Type3 glyph widths, which no page's content shows
#: after an image), and a name holding ``#00``.
_BAD_WORD = re.compile(rb"(?<![^" + _QPDF_DELIMITERS + rb"])d[01](?![^" + _QPDF_DELIMITERS
                       + rb"])|#00")


def _tokens(content: bytes) -> int:
    return len(_TOKEN.findall(strip_comments(content)))


def image_size(image: Any) -> tuple[Any, Any]:
    """(width, height) of a PdfInlineImage as pikepdf reads them; None for one it cannot."""
    size = []
    for side in ("width", "height"):
        try:
            size.append(getattr(image, side))
        except Exception:  # the walk counts it as a small image, as it does any unreadable
            size.append(None)
    return size[0], size[1]


def _tokenize_plain(data: bytes) -> list[Instruction] | None:
    if _unlike_qpdf(data):
        return None
    data = strip_comments(data)
    # The sentinel operator (not walked) takes any trailing operands, as qpdf drops them, so
    # every match starts where the last ended: nothing is read from inside a skipped token.
    found = _INSTRUCTION.findall(data + b"\nEX")
    if any(map(_third, found)) or not KNOWN.issuperset(map(_second, found)):
        return None
    try:
        if b"[" in data or b"]" in data or b"<<" in data or b">>" in data:
            # Operands the walk skips must still parse: an array or dictionary spanning an
            # operator makes qpdf reject the stream. Each distinct span once: pages repeat
            # the same few (`[] 0 d`), and most are plain numbers the search rejects. Each
            # span parses as one whole array's items or fails, and the walked operators'
            # operands are read as strictly, so the brackets balance stream-wide: counting
            # them again over the bytes would count those inside strings (a `[` shown as
            # text), which sent a third of some documents' content to qpdf's parser.
            skipped = {span for span, op, _ in found if op not in _PARSED}
            for span in [span for span in skipped if _BRACKET.search(span)]:
                _parsed(span)
        # Numbers only: a span that is anything else fails float() and sends the stream to qpdf.
        return [
            (op, tuple(map(float, span.split())) if op in _NUMERIC
             else () if op in _NO_OPERANDS else operands(span, op))
            for span, op, _ in found
            if op in WALKED
        ]
    except Exception:  # an operand only qpdf can make sense of
        return None


def _read(source: Any) -> bytes | None:
    """The decoded content of a page or stream, or None when qpdf's parser must read it.

    Every stream is measured first (:mod:`.streamguard`), whatever follows: when
    this gives up, qpdf's parser decodes the same streams whole."""
    import pikepdf

    if isinstance(source, pikepdf.Page):
        contents = source.obj.get("/Contents")
        parts = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    else:
        parts = [source]
    streams = [p for p in parts if isinstance(p, pikepdf.Stream)]
    measured = [guard(p) for p in streams]
    if len(streams) != len(parts) or (
            isinstance(source, pikepdf.Page) and source.obj.get("/Type") != pikepdf.Name.Page):
        return None
    try:
        return b"\n".join([bytes(p.read_bytes()) if made is None else made
                            for p, made in zip(streams, measured, strict=True)])
    except Exception:  # undecodable: qpdf's parser reports it
        return None


def operands(span: bytes, op: bytes = b"") -> tuple[Any, ...]:
    """The operands written in `span` (text the instruction pattern accepted) of operator `op`."""
    if op == b"Tj" or op == b"'":
        literal = _LITERAL.fullmatch(span)
        if literal is not None:
            return (literal.group(1),)
        hexed = _HEX_STRING.fullmatch(span)
        if hexed is not None:
            return (_unhex(hexed.group(1)),)
    elif op == b"TJ" and _PLAIN_ARRAY.fullmatch(span):
        return ([item[1:-1] if item[0] == 40 else _unhex(item) if item[0] == 60 else float(item)
                 for item in _ARRAY_ITEM.findall(span)],)
    found = _memo.get(span)
    if found is not None:
        return found
    if _NUMBERS.fullmatch(span):
        found = tuple(map(float, span.split()))
    elif _NAME_NUMBERS.fullmatch(span):
        first, *rest = span.split()
        found = (first.decode("ascii"), *map(float, rest))
    elif op == b"BDC" and (marked := _MCID_ONLY.fullmatch(span)) and marked.group(1) != b"/OC":
        found = (marked.group(1).decode("ascii"), None)
    else:
        literal = _LITERAL.fullmatch(span)
        if literal is not None:
            return (literal.group(1),)
        return _parsed(span)
    if len(span) < 80:
        if len(_memo) >= _MEMO_LIMIT:
            _memo.clear()
        _memo[span] = found
    return found


def _unhex(token: bytes) -> bytes:
    """A hex string's bytes (`<...>` with its delimiters); an odd last digit is followed by 0."""
    digits = token.translate(None, _HEX_SPACE)
    return bytes.fromhex((digits + b"0" if len(digits) % 2 else digits).decode("ascii"))


def _parsed(span: bytes) -> tuple[Any, ...]:
    import pikepdf

    array = pikepdf.Object.parse(b"[" + span + b"\n]")
    if not isinstance(array, pikepdf.Array):
        raise ValueError("operands did not parse as an array")
    return tuple(native(item) for item in array)


def from_pikepdf(parsed: Any) -> list[Instruction]:
    """qpdf's instructions in the same form; an inline image is (b"BI", (width, height))."""
    import pikepdf

    inline = pikepdf.ContentStreamInlineImage
    out: list[Instruction] = []
    for inst in parsed:
        if isinstance(inst, inline):
            out.append((b"BI", image_size(inst.iimage)))
        else:
            op = str(inst.operator).encode("latin-1")
            args = () if op in _NO_OPERANDS else tuple(map(native, inst.operands))
            out.append((op, args))
    return out


def native(obj: Any) -> Any:
    """A pikepdf operand as a plain value (see the module docstring)."""
    import pikepdf

    if isinstance(obj, (int, float, bool)) or obj is None:
        return obj
    if isinstance(obj, pikepdf.String):
        return bytes(obj)
    if isinstance(obj, pikepdf.Name):
        return str(obj)
    if isinstance(obj, pikepdf.Array):
        return [native(x) for x in obj]
    if isinstance(obj, Decimal):
        return float(obj)
    return obj
