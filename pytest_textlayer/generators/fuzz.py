"""Hostile PDFs on demand: mutations of good ones, for fuzzing the whole check.

Each mutation is a function ``(seed bytes, rng) -> bytes`` named after the
attack it models: cut files, flipped bits, a broken cross-reference table,
stream lengths that lie, nesting thousands deep, objects that contain
themselves, sizes no machine has, font programs and CMaps that lie. The
byte-level ones exercise the parsers (qpdf, PDFium); the structural ones
(built with pikepdf from a seed that parses) reach the classifier's own walk
of pages, fonts and content.

``benchmarks/fuzz.py`` runs thousands of them under the limits of
:mod:`pytest_textlayer.run.workers`; the test suite runs a quick budget.
"""

from __future__ import annotations

import io
import random
import re
import warnings
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Mutation = Callable[[bytes, random.Random], bytes]

_HUGE = (b"0", b"-1", b"2147483647", b"4294967296", b"99999999999999999999", b"1e308",
         b"-2147483648", b"3.4e38")


# byte level ------------------------------------------------------------------


def truncate(data: bytes, rng: random.Random) -> bytes:
    """A download cut short: everything after a random point is gone."""
    return data[: rng.randint(16, max(17, len(data) - 1))]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    """Bit rot: a few random bytes changed anywhere in the file."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 24)):
        i = rng.randrange(len(out))
        out[i] = rng.randrange(256) if rng.random() < 0.5 else out[i] ^ (1 << rng.randrange(8))
    return bytes(out)


def break_xref(data: bytes, rng: random.Random) -> bytes:
    """A cross-reference table or startxref offset that points to the wrong place."""
    choice = rng.randrange(4)
    if choice == 0:
        return re.sub(rb"startxref\s+\d+", b"startxref\n" + rng.choice(_HUGE), data)
    if choice == 1:
        return data.replace(b"xref", b"xref\n0 99999999\n", 1)
    if choice == 2:  # shuffle entry offsets
        def scramble(m: re.Match[bytes]) -> bytes:
            return b"%010d" % rng.randrange(10**10) + m.group(0)[10:]
        return re.sub(rb"\d{10} \d{5} [nf]", scramble, data)
    start = data.rfind(b"xref")
    return data[:start] + data[start:].replace(b"trailer", b"trailor") if start >= 0 else data


def bad_lengths(data: bytes, rng: random.Random) -> bytes:
    """Stream /Length values that lie: zero, off by some, huge, or a dangling reference."""
    def lie(m: re.Match[bytes]) -> bytes:
        if rng.random() < 0.4:
            return m.group(0)
        n = int(m.group(1))
        options = [b"0", b"%d" % (n + rng.randint(1, 500)), b"%d" % max(0, n - rng.randint(1, 50)),
                   *_HUGE, b"99999 0 R"]
        return b"/Length " + rng.choice(options)
    return re.sub(rb"/Length (\d+)(?! \d+ R)", lie, data)


def huge_numbers(data: bytes, rng: random.Random) -> bytes:
    """Declared sizes and counts no machine has: /Width, /Height, /Count, /Size, /N, boxes."""
    keys = rb"/(Width|Height|Count|Size|N|BitsPerComponent|FirstChar|LastChar|Columns|Rows)"
    def grow(m: re.Match[bytes]) -> bytes:
        return m.group(1) + b" " + rng.choice(_HUGE) if rng.random() < 0.6 else m.group(0)
    data = re.sub(keys.replace(b"/(", b"(/(") + rb")\s+\d+", grow, data)
    if rng.random() < 0.5:
        data = re.sub(rb"/MediaBox\s*\[[^\]]*\]", b"/MediaBox [0 0 1e38 -1e38]", data, count=1)
    return data


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    """Arrays or dictionaries nested thousands deep inside the catalog or a page."""
    depth = rng.choice((500, 5000, 50000))
    if rng.random() < 0.5:
        blob = b"[" * depth + b"1" + b"]" * depth
    else:
        blob = b"<</A " * depth + b"1" + b">>" * depth
    if rng.random() < 0.3:
        blob = blob[: len(blob) // 2]  # never closed
    for anchor in (b"/Type /Page\n", b"/Type /Page ", b"/Type/Page", b"/Type /Catalog",
                   b"/Type/Catalog"):
        at = data.find(anchor)
        if at >= 0:
            cut = at + len(anchor)
            return data[:cut] + b" /Deep " + blob + b" " + data[cut:]
    return data + b"\n" + blob


def splice(data: bytes, rng: random.Random) -> bytes:
    """A region of the file copied over another: duplicated objects, torn streams."""
    n = len(data)
    a, b = sorted(rng.randrange(n) for _ in range(2))
    at = rng.randrange(n)
    return data[:at] + data[a : min(b, a + 4096)] + data[at:]


# structural: built with pikepdf from a seed that parses -------------------------


def _edit(data: bytes, change: Callable[[Any, random.Random], None], rng: random.Random) -> bytes:
    import pikepdf

    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except Exception:
        return data
    with pdf:
        try:
            change(pdf, rng)
        except Exception:  # a seed this mutation does not fit: leave it as it was
            return data
        out = io.BytesIO()
        try:
            with warnings.catch_warnings():  # pikepdf's advice on the copies a mutation makes
                warnings.simplefilter("ignore")
                pdf.save(out, compress_streams=rng.random() < 0.5)
        except Exception:
            return data
        return out.getvalue()


def _child(parent: Any, key: str) -> Any:
    """``parent[key]``, created as an empty dictionary when missing (pikepdf has no setdefault)."""
    import pikepdf

    if key not in parent or not isinstance(parent[key], pikepdf.Dictionary):
        parent[key] = pikepdf.Dictionary()
    return parent[key]


def _fonts(pdf: Any) -> list[Any]:
    import pikepdf

    found = []
    for page in pdf.pages:
        fonts = page.obj.get("/Resources", {}).get("/Font", {})
        if isinstance(fonts, pikepdf.Dictionary):
            for _, font in fonts.items():
                found.append(font)
                for child in font.get("/DescendantFonts", []):
                    found.append(child)
    return found


def reference_cycles(data: bytes, rng: random.Random) -> bytes:
    """Objects that contain themselves: a form drawing itself, a page tree that loops."""
    def change(pdf: Any, rng: random.Random) -> None:
        import pikepdf

        page = pdf.pages[0]
        kind = rng.randrange(4)
        if kind == 0:  # a Form XObject that draws itself
            form = pdf.make_stream(b"q /Me Do Q BT /F1 12 Tf (loop) Tj ET")
            form["/Type"], form["/Subtype"] = pikepdf.Name.XObject, pikepdf.Name.Form
            form["/BBox"] = [0, 0, 100, 100]
            fonts = page.obj.get("/Resources", {}).get("/Font", pikepdf.Dictionary())
            form["/Resources"] = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Me=form),
                                                    Font=fonts)
            _child(_child(page.obj, "/Resources"), "/XObject")["/Me"] = form
            page.obj["/Contents"] = pdf.make_stream(b"/Me Do")
        elif kind == 1:  # a page tree node that is its own kid
            root = pdf.Root.Pages
            root.Kids.append(root)
        elif kind == 2:  # a page whose resources are its own page dictionary
            page.obj["/Resources"] = page.obj
        else:  # two forms drawing each other
            a = pdf.make_stream(b"/B Do")
            b = pdf.make_stream(b"/A Do")
            for form in (a, b):
                form["/Type"], form["/Subtype"] = pikepdf.Name.XObject, pikepdf.Name.Form
                form["/BBox"] = [0, 0, 10, 10]
            a["/Resources"] = pikepdf.Dictionary(XObject=pikepdf.Dictionary(B=b))
            b["/Resources"] = pikepdf.Dictionary(XObject=pikepdf.Dictionary(A=a))
            _child(_child(page.obj, "/Resources"), "/XObject")["/A"] = a
            page.obj["/Contents"] = pdf.make_stream(b"/A Do")
    return _edit(data, change, rng)


def nested_forms(data: bytes, rng: random.Random) -> bytes:
    """A chain of Form XObjects hundreds deep, each drawing the next (no cycle, just depth)."""
    def change(pdf: Any, rng: random.Random) -> None:
        import pikepdf

        depth = rng.choice((50, 400, 2000))
        inner = pdf.make_stream(b"BT /F1 9 Tf (deep) Tj ET")
        fonts = pdf.pages[0].obj.get("/Resources", {}).get("/Font", pikepdf.Dictionary())
        for _ in range(depth):
            for form in (inner,):
                form["/Type"], form["/Subtype"] = pikepdf.Name.XObject, pikepdf.Name.Form
                form["/BBox"] = [0, 0, 100, 100]
                if "/Resources" not in form:
                    form["/Resources"] = pikepdf.Dictionary(Font=fonts)
            outer = pdf.make_stream(b"q /X Do Q")
            outer["/Resources"] = pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=inner),
                                                     Font=fonts)
            inner = outer
        inner["/Type"], inner["/Subtype"] = pikepdf.Name.XObject, pikepdf.Name.Form
        inner["/BBox"] = [0, 0, 100, 100]
        page = pdf.pages[0]
        _child(_child(page.obj, "/Resources"), "/XObject")["/Top"] = inner
        page.obj["/Contents"] = pdf.make_stream(b"/Top Do")
    return _edit(data, change, rng)


def corrupt_font_program(data: bytes, rng: random.Random) -> bytes:
    """Embedded font programs with corrupt tables: flipped, truncated or zeroed directories."""
    def change(pdf: Any, rng: random.Random) -> None:
        import pikepdf

        streams = []
        for font in _fonts(pdf):
            descriptor = font.get("/FontDescriptor")
            if isinstance(descriptor, pikepdf.Dictionary):
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    if isinstance(descriptor.get(key), pikepdf.Stream):
                        streams.append(descriptor[key])
        if not streams:
            raise ValueError("no embedded font")
        stream = rng.choice(streams)
        program = bytearray(stream.read_bytes())
        how = rng.randrange(4)
        if how == 0 and program:
            program = program[: rng.randrange(len(program))]
        elif how == 1:
            for _ in range(rng.randint(1, 64)):
                if program:
                    program[rng.randrange(min(len(program), 512))] = rng.randrange(256)
        elif how == 2:  # table directory claims absurd offsets and lengths
            for at in range(12, min(len(program), 12 + 16 * 20), 16):
                program[at + 8 : at + 16] = rng.randbytes(8)
        else:
            program = bytearray(rng.randbytes(rng.choice((0, 4, 100, 5000))))
        stream.write(bytes(program))
    return _edit(data, change, rng)


_ABSURD_CMAPS = (
    b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
    b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange",
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"1 beginbfrange <0000> <FFFF> <FFFF> endbfrange",
    b"1 begincodespacerange <00> <FF> endcodespacerange\n"
    b"1 beginbfrange <FF> <00> <0041> endbfrange",
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"1 beginbfrange <0000> <FFFF> [<0041>] endbfrange",
    b"99999999 beginbfchar <01> <D800> <02> <> <03> <0041004100410041004100410041> endbfchar",
    b"1 begincodespacerange <> <> endcodespacerange 1 beginbfrange <> <> <> endbfrange",
    b"1 begincodespacerange <0000000000000000> <FFFFFFFFFFFFFFFF> endcodespacerange\n"
    b"1 beginbfrange <0000000000000000> <FFFFFFFFFFFFFFFF> <00000000> endbfrange",
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap " * 50,
)


def absurd_cmap(data: bytes, rng: random.Random) -> bytes:
    """ToUnicode CMaps with absurd ranges: 2^32 codes, reversed, empty, surrogates, unclosed."""
    def change(pdf: Any, rng: random.Random) -> None:
        import pikepdf

        fonts = [f for f in _fonts(pdf) if isinstance(f, pikepdf.Dictionary)]
        if not fonts:
            raise ValueError("no font")
        body = rng.choice(_ABSURD_CMAPS)
        if rng.random() < 0.3:
            body = body * rng.randint(2, 200)
        cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" + body
                + (b"\nendcmap CMapName currentdict /CMap defineresource pop end end"
                   if rng.random() < 0.7 else b""))
        for font in fonts:
            if rng.random() < 0.7:
                font["/ToUnicode"] = pdf.make_stream(cmap)
    return _edit(data, change, rng)


_OPERATOR_SOUP = (b"q", b"Q", b"BT", b"ET", b"Tj", b"TJ", b"'", b"\"", b"Tf", b"Td", b"TD", b"Tm",
                  b"T*", b"Tz", b"TL", b"Tr", b"Ts", b"Tc", b"Tw", b"cm", b"Do", b"re", b"f", b"BI",
                  b"ID", b"EI", b"d0", b"d1", b"BDC", b"EMC", b"sh", b"gs")


def hostile_content(data: bytes, rng: random.Random) -> bytes:
    """Content streams that lie: operator soup, 10^5 unbalanced saves, huge strings and sizes."""
    def change(pdf: Any, rng: random.Random) -> None:
        page = pdf.pages[rng.randrange(len(pdf.pages))]
        fonts = list(page.obj.get("/Resources", {}).get("/Font", {}).keys()) or ["/F1"]
        kind = rng.randrange(4)
        if kind == 0:
            parts = []
            for _ in range(rng.randint(10, 3000)):
                r = rng.random()
                if r < 0.5:
                    parts.append(rng.choice(_OPERATOR_SOUP))
                elif r < 0.7:
                    parts.append(rng.choice(_HUGE))
                elif r < 0.85:
                    parts.append(b"(" + rng.randbytes(rng.randint(0, 40)).replace(b")", b"") + b")")
                else:
                    parts.append(str(rng.choice(fonts)).encode())
            body = b" ".join(parts)
        elif kind == 1:
            body = b"q " * 100000 + b"BT " + str(fonts[0]).encode() + b" 12 Tf (x) Tj"
        elif kind == 2:
            body = (b"BT " + str(fonts[0]).encode() + b" 1e30 Tf 1e30 0 0 1e30 0 0 Tm <"
                    + b"41" * rng.choice((10, 100000, 1000000)) + b"> Tj ET")
        else:
            font = str(fonts[0]).encode()
            body = b"BT " + font + b" 12 Tf [" + b"(a) -1e38 " * 20000 + b"] TJ ET"
        page.obj["/Contents"] = pdf.make_stream(body)
    return _edit(data, change, rng)


def page_count_lie(data: bytes, rng: random.Random) -> bytes:
    """A page tree that declares millions of pages, or many real (empty) ones."""
    def change(pdf: Any, rng: random.Random) -> None:
        if rng.random() < 0.5:
            pdf.Root.Pages["/Count"] = rng.choice((10**6, 2**31 - 1, -5))
        else:
            page = pdf.pages[0]
            for _ in range(rng.choice((20, 200))):
                pdf.pages.append(page)
    return _edit(data, change, rng)


def inflation_bomb(data: bytes, rng: random.Random) -> bytes:
    """A small content stream that inflates to far more than the stream limit."""
    size = rng.choice((64, 300)) * 1024 * 1024
    return _with_bomb(data, size)


def _with_bomb(data: bytes, size: int) -> bytes:
    import pikepdf

    compressor = zlib.compressobj(9)
    chunk = b" " * (1024 * 1024)
    parts = [compressor.compress(chunk) for _ in range(size // len(chunk))]
    bomb = b"".join(parts) + compressor.flush()
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except Exception:
        return data
    with pdf:
        stream = pdf.make_stream(b"")
        stream.write(bomb, filter=pikepdf.Name.FlateDecode)
        pdf.pages[0].obj["/Contents"] = stream
        out = io.BytesIO()
        pdf.save(out, compress_streams=False)
        return out.getvalue()


#: Every mutation by name. A fuzz case applies one to three of them in turn.
MUTATIONS: dict[str, Mutation] = {
    "truncate": truncate,
    "flip-bytes": flip_bytes,
    "break-xref": break_xref,
    "bad-lengths": bad_lengths,
    "huge-numbers": huge_numbers,
    "deep-nesting": deep_nesting,
    "splice": splice,
    "reference-cycles": reference_cycles,
    "nested-forms": nested_forms,
    "corrupt-font-program": corrupt_font_program,
    "absurd-cmap": absurd_cmap,
    "hostile-content": hostile_content,
    "page-count-lie": page_count_lie,
}
#: Expensive to build and to reject: left to the long run and a dedicated test.
SLOW_MUTATIONS: dict[str, Mutation] = {"inflation-bomb": inflation_bomb}
#: Structural mutations need a seed that parses; byte ones run after them.
_STRUCTURAL = ("reference-cycles", "nested-forms", "corrupt-font-program", "absurd-cmap",
               "hostile-content", "page-count-lie", "inflation-bomb")


def mutate(seed: bytes, rng: random.Random, names: Iterable[str] | None = None
           ) -> tuple[list[str], bytes]:
    """Apply one to three mutations (structural first); return their names and the bytes."""
    table = {**MUTATIONS, **SLOW_MUTATIONS}
    pool = list(names) if names is not None else list(MUTATIONS)
    chosen = rng.sample(pool, k=min(len(pool), rng.choice((1, 1, 1, 2, 3))))
    chosen.sort(key=lambda n: n not in _STRUCTURAL)
    data = seed
    for name in chosen:
        data = table[name](data, rng)
    return chosen, data


def seed_pdfs(real_dirs: str | Sequence[str] | None = None, max_real_bytes: int = 120_000
              ) -> list[tuple[str, bytes]]:
    """Seeds: one fixture of every generator family, and the small real PDFs of each folder."""
    from pathlib import Path

    from . import FAMILIES, generate

    seeds = [(f"gen:{name}", generate(name).pdf) for name in FAMILIES]
    folders = [real_dirs] if isinstance(real_dirs, str) else list(real_dirs or ())
    for folder in folders:
        if Path(folder).is_dir():
            for path in sorted(Path(folder).glob("*.pdf")):
                if path.stat().st_size <= max_real_bytes:
                    seeds.append((f"{Path(folder).name}:{path.name}", path.read_bytes()))
    return seeds


__all__ = ["MUTATIONS", "SLOW_MUTATIONS", "Mutation", "mutate", "seed_pdfs"]
