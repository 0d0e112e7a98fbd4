"""The route to Unicode of a simple font (Type1, TrueType, Type3): its encoding and glyph names.

Owns the analysis of a font whose codes are single bytes: its base
encoding or its program's built-in one, the /Differences, the glyph names
read through the Adobe Glyph List, a ToUnicode over them, and the accounts
(the font's own texts per code, its advance widths, the codes that select
.notdef) that :class:`.fontinfo.FontInfo` reads on first need.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any

from ..model import FontStatus
from .crosscheck import name_texts, symbolic_texts
from .encodings import NAMED_ENCODINGS, encoding_table, is_index_name, name_to_unicode
from .fallbackroutes import codes_as_text, numeric_names, sfnt_detail, symbolic_cmap_text
from .fontinfo import FontInfo
from .fontprogram import Program, font_program, pdf_name, pdf_numbers, stream_program
from .tounicode import is_pua, judge_tounicode, tounicode


def _flags(descriptor: Any) -> int:
    try:
        return int(descriptor.get("/Flags", 0))
    except Exception:
        return 0


def _differences(diffs: Any) -> dict[int, str]:
    """Code -> glyph name of an /Encoding's /Differences array.

    Read from the array's text in one step when it holds only integers and names without
    `#` escapes (what producers write): reading its hundreds of items as qpdf objects one
    at a time cost more than the rest of the font's analysis. Anything else is read item
    by item, with the same result.
    """
    import pikepdf

    differences: dict[int, str] = {}
    text = diffs.unparse(resolved=True)
    if text[:1] == b"[" and text[-1:] == b"]" and b"#" not in text:
        try:
            code = 0
            for token in text[1:-1].split():
                if token[:1] == b"/":
                    if 0 <= code < 256:
                        differences[code] = token[1:].decode("ascii")
                    code += 1
                else:
                    code = int(token)
            return differences
        except (ValueError, UnicodeDecodeError):  # a real, a string, a non-ASCII name
            differences = {}
    code = 0
    for item in diffs:
        if isinstance(item, pikepdf.Name):
            if 0 <= code < 256:
                differences[code] = str(item)[1:]
            code += 1
        else:
            try:
                code = int(item)
            except (TypeError, ValueError):
                continue
    return differences


#: Distinct encodings whose glyph names' texts are kept read (see _texts_of_names).
NAMES_MEMO = 256


def _texts_of_names(names: dict[int, str], zapf: bool, numeric: dict[int, str],
                    ) -> tuple[dict[int, str], dict[int, str]]:
    """(code -> text, code -> why it is bad) of an encoding's glyph names (fresh dicts).

    A document's simple fonts mostly share a few encodings (WinAnsi, Standard, the same
    Differences in every subset a producer writes), so each distinct one is read once.
    """
    unicode, bad = _read_names(tuple(names.items()), zapf, tuple(numeric.items()))
    return dict(unicode), dict(bad)


@lru_cache(maxsize=NAMES_MEMO)
def _read_names(names: tuple[tuple[int, str], ...], zapf: bool,
                numeric: tuple[tuple[int, str], ...]) -> tuple[dict[int, str], dict[int, str]]:
    by_number = dict(numeric)
    unicode: dict[int, str] = {}
    bad: dict[int, str] = {}
    for code, glyph in names:
        text = name_to_unicode(glyph, zapf) or by_number.get(code, "")
        if not text:
            bad[code] = "nonagl"
            continue
        unicode[code] = text
        if is_pua(text):
            bad[code] = "pua"
    return unicode, bad


def analyse_simple(font: Any, base: str, subtype: str) -> FontInfo:
    import pikepdf

    descriptor = font.get("/FontDescriptor")
    flags = _flags(descriptor) if descriptor is not None else 0
    symbolic = bool(flags & 4) and not flags & 32
    kind, data = font_program(descriptor)
    embedded = kind is not None
    plain = base.split("+", 1)[-1]
    cmap, tu_name, tu_problem = tounicode(font)

    # The encoding: a name, or a dictionary with BaseEncoding and Differences.
    enc_obj = font.get("/Encoding")
    enc_label: str | None = None
    base_enc: str | None = None
    differences: dict[int, str] = {}
    if pdf_name(enc_obj) is not None:
        base_enc = pdf_name(enc_obj)
        enc_label = base_enc
    elif isinstance(enc_obj, pikepdf.Dictionary):
        base_enc = pdf_name(enc_obj.get("/BaseEncoding"))
        diffs = enc_obj.get("/Differences")
        if isinstance(diffs, pikepdf.Array):
            differences = _differences(diffs)
        enc_label = "custom" if differences else base_enc
    if base_enc not in NAMED_ENCODINGS:
        base_enc = None

    # Program is parsed only when it is needed: built-in encoding, symbolic TrueType, charset check.
    program: Program | None = None

    def get_program() -> Program:
        nonlocal program
        if program is None:
            length1 = 0
            try:
                stream = descriptor.get("/FontFile")
                length1 = int(stream.get("/Length1", 0)) if stream is not None else 0
            except Exception:
                length1 = 0
            program = stream_program(kind, data, length1)
        return program

    names: dict[int, str] = {}
    source = "encoding"
    if base_enc is not None:
        names.update(encoding_table(base_enc))
    elif subtype == "Type3":
        source = "Differences"
    elif kind in ("Type1", "CFF") or (kind == "OpenType" and subtype != "TrueType"):
        # An embedded Type1/CFF program's own encoding is the base (Table 114), symbolic or not.
        prog = get_program()
        if prog.builtin:
            names.update(prog.builtin)
            source = "built-in encoding"
        elif not symbolic:
            names.update(encoding_table("StandardEncoding"))
    elif subtype == "TrueType" and symbolic and not differences and kind and cmap is None:
        # Without ToUnicode or encoding only the program can name the glyphs (post names).
        prog = get_program()
        if prog.post_format in (1.0, 2.0) and prog.symbol_cmap and prog.glyph_names:
            gnames = prog.glyph_names
            for code, gid in prog.symbol_cmap.items():
                low = code & 0xFF if code >= 0xF000 else code
                if 0 <= low < 256 and gid < len(gnames):
                    names[low] = gnames[gid]
            source = "post"
    elif plain in ("Symbol", "ZapfDingbats") or plain.startswith(
        ("Symbol", "ZapfDingbats", "Wingdings")
    ):
        source = "builtin-symbol"
    elif not symbolic:
        names.update(encoding_table("StandardEncoding"))
    names.update(differences)

    zapf = plain.startswith("ZapfDingbats")
    numeric = numeric_names(enc_obj, names, zapf)
    unicode, bad = _texts_of_names(names, zapf, numeric)

    # A Type1/CFF program selects glyphs by name: a name it does not hold draws something else.
    # Checked only for Differences: stock encodings name stock glyphs, and parsing every
    # embedded program would cost more than the whole content walk.
    uncovered = cmap is None or any(c not in cmap.unicode for c in differences)
    if kind == "CFF" and differences and uncovered:
        prog = get_program()
        held = prog.names
        if held:
            for code, glyph in differences.items():
                if glyph not in held and code not in bad and glyph != "space":
                    bad[code] = "notinfont"

    # A code the encoding gives no glyph name selects .notdef. In a font that is not embedded
    # (the standard 14, system fonts, Type3 procedures) that draws nothing: a line feed inside a
    # string, a NUL padding a form field. Nothing legible is lost, so such codes are not bad. An
    # embedded program may still draw a letter there by code (viewers fall back so), unmapped.
    missing: str | None = "nocode" if embedded else None
    # Names read as numbers are poppler's guess, not the specification's route: their text is
    # given, but judged by language like any unverified map (soundroute).
    route = "numeric" if numeric else "agl" if differences else "encoding"
    status = FontStatus.USABLE
    problem: str | None = None
    enc_text = enc_label or ("built-in" if source == "built-in encoding" else None)

    if source == "builtin-symbol" and not embedded:
        route, missing = "encoding", None
    elif source == "post":
        # Simple TrueType: poppler, pdf.js and pdfminer read post names as its built-in encoding.
        route, enc_text = "post", enc_text or "built-in"
    elif cmap is None and not names and program and program.glyph_names and not program.builtin:
        # A built-in encoding we cannot read (CFF ExpertEncoding): judge by the program's names.
        named = [g for g in program.glyph_names if g != ".notdef"]
        pua = [g for g in named if is_pua(name_to_unicode(g))]
        if named and len(pua) * 2 > len(named):
            return FontInfo(
                base,
                subtype,
                enc_text or "built-in",
                "pua",
                FontStatus.WRONG,
                f"no ToUnicode, {len(pua)} of {len(named)} glyph names of the embedded font "
                f"map into the Private Use Area (e.g. {', '.join(pua[:3])})",
                missing="pua",
                embedded=embedded,
                program=kind,
            )
        route, status, missing = "severed", FontStatus.SEVERED, "font"
        problem = "no ToUnicode, the embedded font's built-in encoding could not be read"
    elif not names:
        why = "symbolic TrueType" if subtype == "TrueType" else f"{subtype} font"
        detail = ""
        if subtype == "TrueType" and program is not None and cmap is None:
            detail = sfnt_detail(program)
            recovered = symbolic_cmap_text(program)
            widths = cache(lambda: simple_widths(font))  # read once, here or for letter_widths
            by_code = codes_as_text(program, recovered, widths)
            if by_code is not None:
                return FontInfo(
                    base, subtype, enc_text, "code", FontStatus.USABLE, None,
                    unicode=by_code, missing="noascii", embedded=embedded, program=kind,
                    recovered=recovered, symbolic=symbolic, width_account=(by_code, widths),
                )
            if recovered:
                problem = (
                    f"no ToUnicode, {why} without encoding; its Unicode cmap gives the "
                    "characters (recoverable, not by the spec)"
                )
                return FontInfo(
                    base,
                    subtype,
                    enc_text,
                    "cmap",
                    FontStatus.RECOVERABLE,
                    problem,
                    missing="font",
                    recovered=recovered,
                    embedded=embedded,
                    program=kind,
                )
        route, status = "severed", FontStatus.SEVERED
        problem = f"no ToUnicode, {why} without encoding{detail}"
        missing = "font"
    else:
        # The producer's own choices (Differences) decide the font; the base encoding is stock.
        scope = differences or names
        kinds = Counter(bad[c] for c in scope if c in bad)
        n = len(scope)
        if kinds["nonagl"] * 2 > n:
            samples = sorted(g for c, g in scope.items() if bad.get(c) == "nonagl")[:3]
            route, status = "agl", FontStatus.SEVERED
            index = " (index-like)" if samples and all(is_index_name(s) for s in samples) else ""
            problem = (
                f"no ToUnicode, {kinds['nonagl']} of {n} glyph names outside the AGL{index}: "
                + ", ".join(samples)
            )
        elif kinds["pua"] * 2 > n:
            route, status = "pua", FontStatus.WRONG
            problem = (
                f"no ToUnicode, {kinds['pua']} of {n} glyph names map into the Private Use Area"
            )
        elif kinds["notinfont"] * 2 > n:
            route, status = "encoding", FontStatus.WRONG
            problem = (
                f"no ToUnicode, {kinds['notinfont']} of {n} encoded glyph names are not in the font"
            )

    if cmap is not None:
        judged = judge_tounicode(cmap, 1)
        merged = dict(unicode)
        merged_bad = {c: r for c, r in bad.items() if c not in cmap.unicode}
        merged.update(cmap.unicode)
        merged_bad.update(judged.bad)
        # Codes the ToUnicode misses fall back to the encoding (what readers do for simple fonts).
        return FontInfo(
            base,
            subtype,
            enc_text,
            judged.route,
            judged.status,
            judged.problem,
            unicode=merged,
            bad=merged_bad,
            missing=missing if names else "unmapped",
            embedded=embedded,
            program=kind,
            glyph_names=names,
            tounicode=True,
            symbolic=symbolic,
            own_account=(cmap.unicode, *_simple_account(names, zapf, subtype, symbolic, kind,
                                                        get_program)),
            width_account=(cmap.unicode, lambda: simple_widths(font)),
            notdef_account=_simple_notdef(kind, subtype, names, get_program),
        )
    extra = tu_problem or (f"ToUnicode is the name /{tu_name}" if tu_name else None)
    if extra:
        problem = f"{extra}; {problem}" if problem else extra
    return FontInfo(
        base,
        subtype,
        enc_text,
        route,
        status,
        problem,
        unicode=unicode,
        bad=bad,
        missing=missing,
        embedded=embedded,
        program=kind,
        glyph_names=names,
        symbolic=symbolic,
        held_names=(lambda: get_program().names) if kind in ("Type1", "CFF", "OpenType") else None,
        notdef_account=_simple_notdef(kind, subtype, names, get_program),
    )


def _simple_account(
    names: dict[int, str], zapf: bool, subtype: str, symbolic: bool, kind: str | None,
    get_program: Any,
) -> Any:
    """The zero-argument callable giving a simple font's own texts per code (see crosscheck).

    The glyph names its encoding selects, where they select the glyph: always
    for Type1 and CFF programs (and the standard fonts), for a TrueType only
    through a Unicode cmap. A symbolic TrueType, or one without a Unicode cmap,
    selects glyphs by code, so its own tables speak for it instead. Type3
    glyph names are only keys of its procedures: no account.
    """

    truetype = subtype == "TrueType" and kind in ("TrueType", "OpenType")

    def account() -> tuple[dict[int, frozenset[str]], str]:
        if subtype == "Type3":
            return {}, ""
        if truetype and (symbolic or not names):
            return symbolic_texts(get_program())
        return name_texts(names, zapf), "glyph names"

    def recheck() -> tuple[dict[int, frozenset[str]], str] | None:
        """Names that contradict the map select a TrueType's glyphs only through a Unicode
        cmap: read the program (only now, so clean fonts never pay for it)."""
        prog = get_program()
        return None if prog.cmap else symbolic_texts(prog)

    return account, (recheck if truetype else None)


def simple_widths(font: Any) -> dict[int, float]:
    """Advance width per code of a simple font, from /FirstChar and /Widths."""
    import pikepdf

    spec = font.get("/Widths")
    if not isinstance(spec, pikepdf.Array):
        return {}
    first = int(font.get("/FirstChar", 0))
    return {first + i: w for i, w in enumerate(pdf_numbers(spec))}


def _simple_notdef(kind: str | None, subtype: str, names: Mapping[int, str],
                   get_program: Callable[[], Program]) -> Callable[[], Any] | None:
    """For an embedded TrueType program: which codes select glyph 0, looked up as viewers do
    (the (3,0) or (1,0) subtable by code, then the Unicode subtable by the encoding's names)."""
    if subtype != "TrueType" or kind not in ("TrueType", "OpenType"):
        return None

    def account() -> Callable[[int], bool] | None:
        prog = get_program()
        if prog.error or not prog.cmap_kinds:
            return None  # no subtable: viewers take the code as the glyph id, unknown here

        def selects_notdef(code: int) -> bool:
            for key in (code, 0xF000 | code, 0xF100 | code, 0xF200 | code):
                if prog.symbol_cmap.get(key):
                    return False
            text = name_to_unicode(names[code]) if code in names else ""
            return not (len(text) == 1 and prog.cmap.get(ord(text)))

        return selects_notdef

    return account
