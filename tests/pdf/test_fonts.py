"""Static font analysis against real PDFs: reportlab output and pikepdf-built Type0/Type3 fonts.

Each broken route is built the way producers build it (a real subset of
DejaVu Sans embedded as a CID TrueType, a real ToUnicode CMap stream), then
checked two ways: what analyse_font says, and that a real reader (PDFium)
agrees that the text is or is not there.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from _cff import cff_program

from pytest_textlayer.model import FontStatus
from pytest_textlayer.pdf.cidfonts import predefined_ranges
from pytest_textlayer.pdf.cmaps import parse_cmap
from pytest_textlayer.pdf.content import scan_page
from pytest_textlayer.pdf.fontinfo import FontInfo
from pytest_textlayer.pdf.fonts import analyse_font

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
TEXT = "The quick brown fox jumps over the lazy dog"
pytestmark = pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")


# -- builders ----------------------------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def subset(
    text: str, *, drop_cmap: bool = False, post3: bool = False
) -> tuple[bytes, dict[str, int]]:
    """A real TrueType subset of DejaVu Sans and its char → GID map (CID = GID, as producers do)."""
    from fontTools import subset as ftsubset
    from fontTools.ttLib import TTFont

    font = TTFont(str(DEJAVU))
    options = ftsubset.Options()
    options.glyph_names = True
    options.notdef_outline = True
    sub = ftsubset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    best = font.getBestCmap()
    gids = {ch: font.getGlyphID(best[ord(ch)]) for ch in set(text)}
    if drop_cmap:
        del font["cmap"]
    if post3:
        font["post"].formatType = 3.0
    out = io.BytesIO()
    font.save(out)
    return out.getvalue(), gids


def tounicode_stream(pairs: dict[int, str], width: int = 2) -> bytes:
    lines = [
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
        "/CMapName /Test-UCS def /CMapType 2 def",
        f"1 begincodespacerange <{'00' * width}> <{'FF' * width}> endcodespacerange",
        f"{len(pairs)} beginbfchar",
    ]
    for code, text in sorted(pairs.items()):
        lines.append(f"<{code:0{2 * width}X}> <{text.encode('utf-16-be').hex().upper()}>")
    lines += ["endbfchar", "endcmap CMapName currentdict /CMap defineresource pop end end"]
    return "\n".join(lines).encode()


def dejavu_descriptor(**entries: Any) -> pikepdf.Dictionary:
    """The FontDescriptor of the DejaVu Sans subsets these tests embed (flag 4: symbolic)."""
    return pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/ABCDEF+DejaVuSans"),
        Flags=4,
        FontBBox=[-1021, -463, 1793, 1232],
        ItalicAngle=0,
        Ascent=928,
        Descent=-236,
        CapHeight=729,
        StemV=80,
        **entries,
    )


def type0_pdf(
    text: str = TEXT,
    *,
    tounicode: object = None,
    drop_cmap: bool = False,
    post3: bool = False,
    embed: bool = True,
    one_byte_cmap: bool = False,
) -> bytes:
    """One page drawing *text* with a CID TrueType Identity-H font, optionally broken."""
    program, gids = subset(text, drop_cmap=drop_cmap, post3=post3)
    pdf = pikepdf.new()
    descriptor = dejavu_descriptor()
    if embed:
        descriptor.FontFile2 = pdf.make_stream(program)
    cidfont = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.CIDFontType2,
            BaseFont=pikepdf.Name("/ABCDEF+DejaVuSans"),
            CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0),
            FontDescriptor=pdf.make_indirect(descriptor),
            CIDToGIDMap=pikepdf.Name.Identity,
            DW=600,
        )
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type0,
        BaseFont=pikepdf.Name("/ABCDEF+DejaVuSans"),
        Encoding=pikepdf.Name("/Identity-H"),
        DescendantFonts=[cidfont],
    )
    if isinstance(tounicode, dict):
        mapping = {gids[ch]: value for ch, value in tounicode.items()}
        font.ToUnicode = pdf.make_stream(tounicode_stream(mapping))
    elif isinstance(tounicode, str):
        font.ToUnicode = pikepdf.Name("/" + tounicode)
    hexcodes = "".join(f"{gids[ch]:04X}" for ch in text)
    if one_byte_cmap:
        # An embedded encoding CMap: one-byte codes (the ASCII value) mapped to the CIDs.
        pairs = "\n".join(f"<{ord(ch):02X}> <{ord(ch):02X}> {gids[ch]}" for ch in sorted(set(text)))
        cmap = (
            "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "1 begincodespacerange <00> <FF> endcodespacerange\n"
            f"{len(set(text))} begincidrange\n{pairs}\nendcidrange\nendcmap end end"
        )
        font.Encoding = pdf.make_stream(
            cmap.encode(), Type=pikepdf.Name.CMap, CMapName=pikepdf.Name("/Custom-H")
        )
        hexcodes = text.encode().hex()
    content = f"BT /F1 14 Tf 40 700 Td <{hexcodes}> Tj ET".encode()
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def simple_pdf(
    differences: list[str] | None,
    codes: bytes,
    *,
    subtype: str = "Type1",
    base: str = "Helvetica",
    tounicode: bytes | None = None,
) -> bytes:
    """One page with a non-embedded simple font whose Encoding carries *differences*."""
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name("/" + subtype),
        BaseFont=pikepdf.Name("/" + base),
    )
    if differences is not None:
        font.Encoding = pikepdf.Dictionary(
            Type=pikepdf.Name.Encoding,
            BaseEncoding=pikepdf.Name.WinAnsiEncoding,
            Differences=[codes[0]] + [pikepdf.Name("/" + n) for n in differences],
        )
    else:
        font.Encoding = pikepdf.Name.WinAnsiEncoding
    if tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 14 Tf 40 700 Td <" + codes.hex().encode() + b"> Tj ET")
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def type3_pdf(names: list[str], *, tounicode: bytes | None = None) -> bytes:
    """A Type3 font whose glyphs are squares, named *names* at codes 65.."""
    pdf = pikepdf.new()
    procs = pikepdf.Dictionary()
    for name in names:
        procs[f"/{name}"] = pdf.make_stream(b"1000 0 0 0 750 750 d1 0 0 750 750 re f")
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type3,
        FontBBox=[0, 0, 750, 750],
        FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
        CharProcs=procs,
        FirstChar=65,
        LastChar=64 + len(names),
        Widths=[1000] * len(names),
        Encoding=pikepdf.Dictionary(
            Type=pikepdf.Name.Encoding, Differences=[65] + [pikepdf.Name("/" + n) for n in names]
        ),
        Resources=pikepdf.Dictionary(),
    )
    if tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(T3=pdf.make_indirect(font)))
    codes = bytes(range(65, 65 + len(names))).hex().encode()
    page.Contents = pdf.make_stream(b"BT /T3 12 Tf 40 700 Td <" + codes + b"> Tj ET")
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def only_font(data: bytes) -> tuple[FontInfo, Counter[int], int]:
    """Analyse the single font a one-page PDF draws with: (info, codes drawn, bad glyphs)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = scan_page(pdf, 0, {})
    assert len(page.fonts) == 1
    use = page.fonts[0]
    return use.font, use.codes, use.bad_glyphs


def shown(data: bytes) -> bytes:
    """The bytes of the one string the page shows."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for inst in pikepdf.parse_content_stream(pdf.pages[0], "Tj"):
            if isinstance(inst, pikepdf.ContentStreamInstruction):
                return bytes(inst.operands[0])
    raise AssertionError("no Tj on the page")


def pdfium_text(data: bytes) -> str:
    import pypdfium2

    doc = pypdfium2.PdfDocument(data)
    try:
        return str(doc[0].get_textpage().get_text_range())
    finally:
        doc.close()


# -- Type0 Identity fonts ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def good_map() -> dict[str, str]:
    return {ch: ch for ch in set(TEXT)}


def test_identity_with_sane_tounicode_is_usable(good_map: dict[str, str]) -> None:
    data = type0_pdf(tounicode=good_map)
    info, codes, bad = only_font(data)
    assert (info.route, info.status, bad) == ("tounicode", FontStatus.USABLE, 0)
    assert "".join(info.to_unicode(c) or "?" for c in info.split_codes(shown(data))) == TEXT
    assert pdfium_text(data).strip() == TEXT


def test_identity_without_tounicode_but_cmap_is_recoverable() -> None:
    data = type0_pdf()
    info, codes, bad = only_font(data)
    assert info.status is FontStatus.RECOVERABLE and info.route == "cmap"
    assert bad == sum(codes.values()) == len(TEXT)
    # The recovery is real: inverting the cmap gives the text back, code by code.
    assert "".join(info.recover(c) or "?" for c in info.split_codes(shown(data))) == TEXT
    assert pdfium_text(data).strip() != TEXT  # PDFium does not invert cmaps: not usable by the spec


def test_identity_without_cmap_or_post_names_is_severed() -> None:
    info, _, bad = only_font(type0_pdf(drop_cmap=True, post3=True))
    assert info.status is FontStatus.SEVERED and info.route == "severed"
    assert info.problem == "no ToUnicode, embedded TrueType has no cmap and post format 3"
    assert bad == len(TEXT)


def test_identity_with_post_names_only_is_recoverable_by_post() -> None:
    info, _, bad = only_font(type0_pdf(drop_cmap=True))
    assert (info.status, info.route) == (FontStatus.RECOVERABLE, "post")
    assert info.recover(next(iter(info.recovered))) in set(TEXT)
    assert bad == len(TEXT)


def test_embedded_encoding_cmap_splits_one_byte_codes_and_recovers_through_cids() -> None:
    data = type0_pdf(one_byte_cmap=True)
    info, codes, bad = only_font(data)
    assert info.encoding == "Custom-H" and set(codes) <= set(TEXT.encode())
    assert (info.status, info.route, bad) == (FontStatus.RECOVERABLE, "cmap", len(TEXT))
    assert "".join(info.recover(c) or "?" for c in info.split_codes(shown(data))) == TEXT


def test_non_embedded_identity_font_is_severed() -> None:
    info, _, _ = only_font(type0_pdf(embed=False))
    assert info.status is FontStatus.SEVERED
    assert info.problem is not None and "not embedded" in info.problem


def test_tounicode_given_as_a_name_is_severed_route_name() -> None:
    info, _, bad = only_font(type0_pdf(tounicode="Identity-H", drop_cmap=True, post3=True))
    assert (info.route, info.status) == ("name", FontStatus.SEVERED)
    assert info.problem is not None and info.problem.startswith("ToUnicode is the name /Identity-H")
    assert bad == len(TEXT)


def test_tounicode_into_the_pua_is_wrong(good_map: dict[str, str]) -> None:
    pua = {ch: chr(0xE000 + i) for i, ch in enumerate(sorted(good_map))}
    data = type0_pdf(tounicode=pua)
    info, codes, bad = only_font(data)
    assert (info.route, info.status) == ("pua", FontStatus.WRONG)
    assert bad == len(TEXT)
    assert all(0xE000 <= ord(c) <= 0xF8FF for c in pdfium_text(data).strip().replace(" ", ""))
    # The repairer can still read the right text from the program's cmap, code by code.
    with pikepdf.open(io.BytesIO(data)) as pdf:
        again = analyse_font(pdf.pages[0].Resources.Font.F1)
        assert "".join(again.recover(c) or "?" for c in again.split_codes(shown(data))) == TEXT


def test_tounicode_collapsed_onto_one_value_is_wrong(good_map: dict[str, str]) -> None:
    collapsed = {ch: "a" for ch in good_map}
    info, codes, bad = only_font(type0_pdf(tounicode=collapsed))
    assert (info.route, info.status) == ("collapsed", FontStatus.WRONG)
    assert bad == len(TEXT)
    status, route, problem = info.judge_use(codes)
    assert (status, route) == (FontStatus.WRONG, "collapsed")


def test_tounicode_all_fffd_carries_no_information(good_map: dict[str, str]) -> None:
    info, codes, bad = only_font(type0_pdf(tounicode={ch: "\ufffd" for ch in good_map}))
    assert (info.route, info.status) == ("null", FontStatus.SEVERED)
    n = len(good_map)
    assert info.problem == f"ToUnicode maps {n} of {n} codes to U+FFFD"


def test_tounicode_into_control_characters_is_wrong(good_map: dict[str, str]) -> None:
    """Glyph-id-like values (U+0001…) are a route to the wrong text, not a missing one."""
    controls = {ch: chr(1 + i) for i, ch in enumerate(sorted(good_map))}
    info, codes, bad = only_font(type0_pdf(tounicode=controls))
    assert (info.route, info.status, bad) == ("control", FontStatus.WRONG, len(TEXT))
    assert info.judge_use(codes)[:2] == (FontStatus.WRONG, "control")


def test_partial_tounicode_makes_the_missing_codes_bad(good_map: dict[str, str]) -> None:
    keep = {ch: ch for ch in "Tqu"}
    info, codes, bad = only_font(type0_pdf(tounicode=keep))
    assert info.status is FontStatus.USABLE  # the map itself is sane...
    covered = sum(TEXT.count(ch) for ch in keep)
    assert bad == len(TEXT) - covered  # ...but it misses the codes drawn
    status, route, problem = info.judge_use(codes)
    assert (status, route) == (FontStatus.SEVERED, "partial")
    assert problem == f"ToUnicode covers {covered} of {len(TEXT)} glyphs drawn"
    with pikepdf.open(io.BytesIO(type0_pdf(tounicode=keep))) as pdf:
        report = scan_page(pdf, 0, {}).fonts[0].report()
    assert (report.status, report.unmapped, report.glyphs) == (status, bad, len(TEXT))
    assert report.describe().endswith(problem)


# -- simple fonts ------------------------------------------------------------------------------
def test_reportlab_base14_and_embedded_ttf_are_usable(tmp_path: Path) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVuTest", str(DEJAVU)))
    path = tmp_path / "rl.pdf"
    c = canvas.Canvas(str(path))
    c.setFont("Helvetica", 12)
    c.drawString(72, 720, "Grüße, naïve café")
    c.setFont("DejaVuTest", 12)
    c.drawString(72, 700, "Ελληνικά и русский")
    c.save()
    with pikepdf.open(path) as pdf:
        page = scan_page(pdf, 0, {})
    assert page.glyphs > 30 and page.bad_glyphs == 0
    assert {u.font.status for u in page.fonts} == {FontStatus.USABLE}
    routes = {u.font.name.split("+")[-1]: u.font.route for u in page.fonts}
    assert routes["Helvetica"] == "encoding"
    assert routes["DejaVuSans"] == "tounicode"  # symbolic TrueType without Encoding, by ToUnicode


@pytest.mark.parametrize(
    ("names", "route", "status"),
    [
        (["g12", "g13", "g14"], "agl", FontStatus.SEVERED),
        (["gid00043", "gid00044", "gid00045"], "agl", FontStatus.SEVERED),
        (["uni0041", "uni00E9", "f_f_i"], "agl", FontStatus.USABLE),
        (["Asmall", "Bsmall", "Csmall"], "pua", FontStatus.WRONG),
    ],
)
def test_differences_names(names: list[str], route: str, status: FontStatus) -> None:
    info, codes, bad = only_font(simple_pdf(names, bytes([65, 66, 67])))
    assert (info.route, info.status) == (route, status)
    assert bad == (0 if status is FontStatus.USABLE else 3)
    if status is FontStatus.SEVERED:
        assert info.problem is not None and names[0] in info.problem


def test_winansi_codes_without_a_glyph_draw_nothing_in_a_font_not_embedded() -> None:
    """A line feed inside a string, NULs padding a field: .notdef of a standard font draws
    nothing, so nothing legible is lost (the wild corpus's qpdf and pdfcpu samples)."""
    info, codes, bad = only_font(simple_pdf(None, bytes([1, 2, 3, 10, 65])))
    assert info.status is FontStatus.USABLE and bad == 0
    assert info.judge_use(codes)[0] is FontStatus.USABLE


def test_winansi_codes_without_a_glyph_are_bad_in_an_embedded_program() -> None:
    """An embedded program may still draw a letter at such a code (viewers fall back to it)."""
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                              BaseFont=pikepdf.Name("/TestCFF"),
                              Encoding=pikepdf.Name.WinAnsiEncoding)
    data = cff_font_pdf(font, cff_program(("A", "B", "C")), "Type1C", bytes([1, 2, 3, 65]))
    info, codes, bad = only_font(data)
    assert info.status is FontStatus.USABLE  # the font is fine...
    assert bad == 3  # ...the codes drawn have no glyph in WinAnsiEncoding
    assert info.judge_use(codes)[0] is FontStatus.SEVERED


def test_simple_font_tounicode_overrides_and_falls_back() -> None:
    cmap = tounicode_stream({65: "Z"}, width=1)
    info, codes, bad = only_font(simple_pdf(None, b"AB", tounicode=cmap))
    assert info.to_unicode(65) == "Z" and info.to_unicode(66) == "B" and bad == 0


def test_type3_without_tounicode_and_private_names_is_severed() -> None:
    info, _, bad = only_font(type3_pdf(["T3_0_65", "T3_0_66"]))
    assert (info.subtype, info.route, info.status) == ("Type3", "agl", FontStatus.SEVERED)
    assert bad == 2


def test_type3_with_agl_names_or_tounicode_is_usable() -> None:
    info, _, bad = only_font(type3_pdf(["A", "B"]))
    assert (info.status, bad) == (FontStatus.USABLE, 0)
    cmap = tounicode_stream({65: "x", 66: "y"}, width=1)
    info, _, bad = only_font(type3_pdf(["c65", "c66"], tounicode=cmap))
    assert (info.route, info.status, bad) == ("tounicode", FontStatus.USABLE, 0)


# -- codes, CMaps and caching ------------------------------------------------------------------
def test_split_codes_follows_the_codespace() -> None:
    euc = FontInfo(
        "x",
        "Type0",
        "GBK-EUC-H",
        "collection",
        FontStatus.USABLE,
        None,
        code_ranges=predefined_ranges("GBK-EUC-H"),
    )
    assert euc.split_codes(b"A\xb0\xa1B") == [0x41, 0xB0A1, 0x42]
    rksj = FontInfo(
        "x",
        "Type0",
        "90ms-RKSJ-H",
        "collection",
        FontStatus.USABLE,
        None,
        code_ranges=predefined_ranges("90ms-RKSJ-H"),
    )
    assert rksj.split_codes(b"\x82\xa0\xb1a") == [0x82A0, 0xB1, 0x61]
    ident = FontInfo(
        "x",
        "Type0",
        "Identity-H",
        "cmap",
        FontStatus.RECOVERABLE,
        None,
        code_ranges=((2, 0, 0xFFFF),),
    )
    assert ident.split_codes(b"\x00\x41\x01\x02\x03") == [0x41, 0x102]


def test_cmap_parser_handles_ranges_arrays_surrogates_and_junk() -> None:
    cmap = parse_cmap(
        b"%!junk\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
        b"2 beginbfchar <0001> <D835DC00> <0002> <00660069> endbfchar\n"
        b"2 beginbfrange <0010> <0012> <0041> <0020> <0021> [<0078> <0079>] endbfrange\n"
        b"1 beginbfchar <003> <0041> endbfchar garbage ) ] endcmap"
    )
    assert cmap.unicode[1] == "\U0001d400" and cmap.unicode[2] == "fi"
    assert [cmap.unicode[c] for c in (0x10, 0x11, 0x12, 0x20, 0x21)] == list("ABCxy")
    assert cmap.widths == {2} and cmap.odd_tokens == 1
    with pytest.raises(ValueError, match="not a CMap"):
        parse_cmap(b"\x00\x01 this is not a cmap")


def test_a_font_shared_by_many_pages_is_analysed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out)
    for i in range(5):
        c.setFont("Helvetica", 12)
        c.drawString(72, 720, f"page {i}")
        c.showPage()
    c.save()
    import pytest_textlayer.pdf.content as content

    calls: list[object] = []
    real = analyse_font

    def counting(font: pikepdf.Dictionary) -> FontInfo:
        calls.append(font.objgen)
        return real(font)

    monkeypatch.setattr(content, "analyse_font", counting)
    cache: dict[object, FontInfo] = {}
    with pikepdf.open(io.BytesIO(out.getvalue())) as pdf:
        pages = [scan_page(pdf, i, cache) for i in range(5)]
    assert len(calls) == 1 and all(p.glyphs == 6 for p in pages)


def test_malformed_font_dictionary_does_not_raise() -> None:
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type0,
        BaseFont=pikepdf.Name("/Broken"),
        DescendantFonts=[1, 2],
    )
    info = analyse_font(font)
    assert info.status is FontStatus.SEVERED and info.is_bad_code(65)
    del pdf


def test_alternates_sharing_a_value_are_not_collapsed() -> None:
    """Swash and small variants of one letter in a small subset map to the same text."""
    text = "aaabcdefghijk"
    cmap = parse_cmap(tounicode_stream({i: ch for i, ch in enumerate(text)}))
    from pytest_textlayer.pdf.tounicode import judge_tounicode

    judged = judge_tounicode(cmap, 2)
    assert (judged.route, judged.status, judged.bad) == ("tounicode", FontStatus.USABLE, {})


def symbolic_truetype_pdf(text: str, *, drop_cmap: bool) -> bytes:
    """A simple TrueType flagged symbolic, with no Encoding and no ToUnicode (codes = ASCII)."""
    program, _ = subset(text, drop_cmap=drop_cmap, post3=True)
    pdf = pikepdf.new()
    descriptor = dejavu_descriptor(FontFile2=pdf.make_stream(program))
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.TrueType,
        BaseFont=pikepdf.Name("/ABCDEF+DejaVuSans"),
        FirstChar=32,
        LastChar=126,
        Widths=[600] * 95,
        FontDescriptor=pdf.make_indirect(descriptor),
    )
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(
        b"BT /F1 14 Tf 40 700 Td <" + text.encode().hex().encode() + b"> Tj ET"
    )
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_symbolic_truetype_without_encoding_reads_by_its_codes() -> None:
    """Every reader emits such a font's codes as the characters: where the codes are ASCII
    and its Unicode cmap agrees, that is the font's route. Without any cmap nothing ties the
    codes to the glyphs drawn: no route."""
    info, codes, bad = only_font(symbolic_truetype_pdf(TEXT, drop_cmap=False))
    assert (info.route, info.status, bad) == ("code", FontStatus.USABLE, 0)
    assert "".join(info.to_unicode(c) or "?" for c in TEXT.encode()) == TEXT
    assert info.is_bad_code(0x05) and info.is_bad_code(0xE9)
    info, codes, bad = only_font(symbolic_truetype_pdf(TEXT, drop_cmap=True))
    assert (info.route, info.status, bad) == ("severed", FontStatus.SEVERED, len(TEXT))
    assert info.problem == (
        "no ToUnicode, symbolic TrueType without encoding, embedded TrueType has no cmap "
        "and post format 3"
    )


def test_symbolic_truetype_with_foreign_codes_is_not_read_by_them() -> None:
    """A subset numbered in order of first use: its cmap names the glyphs otherwise."""
    from pytest_textlayer.generators import generate

    fixture = generate("symbolic-truetype")
    with pikepdf.open(io.BytesIO(fixture.pdf)) as pdf:
        content = scan_page(pdf, 0, {})
    (use,) = content.fonts
    assert use.font.route != "code"
    assert content.bad_glyphs == content.glyphs > 0


# -- real producers ----------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("gs") is None, reason="ghostscript is not installed")
def test_ghostscript_redistilled_truetype_loses_its_tounicode(tmp_path: Path) -> None:
    """gs pdfwrite rewrites reportlab's symbolic TrueType subset without ToUnicode: text is lost."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVuGS", str(DEJAVU)))
    source, out = tmp_path / "rl.pdf", tmp_path / "gs.pdf"
    c = canvas.Canvas(str(source))
    c.setFont("DejaVuGS", 14)
    c.drawString(72, 720, "Zażółć gęślą jaźń")
    c.save()
    with pikepdf.open(source) as pdf:
        before = scan_page(pdf, 0, {})
    assert before.bad_glyphs == 0
    subprocess.run(["gs", "-q", "-o", str(out), "-sDEVICE=pdfwrite", str(source)], check=True)
    with pikepdf.open(out) as pdf:
        after = scan_page(pdf, 0, {})
    (use,) = after.fonts
    # Only the codes are left, read as the characters by every reader: ASCII survives ...
    assert use.font.route == "code" and use.font.tounicode is False
    assert use.font.to_unicode(ord("Z")) == "Z"
    # ... non-ASCII letters have no route left (gs encodes them as small codes); PDFium agrees.
    assert after.bad_glyphs >= 8
    assert "ż" not in pdfium_text(out.read_bytes())


# -- CFF programs ------------------------------------------------------------------------------
def cff_font_pdf(
    font_dict: pikepdf.Dictionary, program: bytes, subtype: str, shown: bytes
) -> bytes:
    pdf = pikepdf.new()
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/TestCFF"),
        Flags=4,
        FontBBox=[0, 0, 600, 700],
        ItalicAngle=0,
        Ascent=700,
        Descent=0,
        CapHeight=700,
        StemV=80,
        FontFile3=pdf.make_stream(program, Subtype=pikepdf.Name("/" + subtype)),
    )
    target: Any = font_dict
    if font_dict.Subtype == pikepdf.Name.Type0:
        target = font_dict.DescendantFonts[0]
    target.FontDescriptor = pdf.make_indirect(descriptor)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font_dict)))
    page.Contents = pdf.make_stream(b"BT /F1 14 Tf 40 700 Td <" + shown.hex().encode() + b"> Tj ET")
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_name_keyed_cff_in_a_cid_font_is_recoverable_by_charset() -> None:
    cidfont = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType0,
        BaseFont=pikepdf.Name("/TestCFF"),
        CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0),
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type0,
        BaseFont=pikepdf.Name("/TestCFF"),
        Encoding=pikepdf.Name("/Identity-H"),
        DescendantFonts=[cidfont],
    )
    data = cff_font_pdf(font, cff_program(("C", "A", "B")), "Type1C", b"\x00\x02\x00\x03\x00\x01")
    info, codes, bad = only_font(data)
    assert (info.route, info.status, bad) == ("charset", FontStatus.RECOVERABLE, 3)
    assert "".join(info.recover(c) or "?" for c in info.split_codes(shown(data))) == "ABC"


def test_differences_naming_glyphs_the_cff_lacks_are_wrong() -> None:
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type1,
        BaseFont=pikepdf.Name("/TestCFF"),
        Encoding=pikepdf.Dictionary(
            Differences=[65, pikepdf.Name.A, pikepdf.Name.B, pikepdf.Name.Q, pikepdf.Name.R]
        ),
    )
    info, codes, bad = only_font(cff_font_pdf(font, cff_program(("A", "B")), "Type1C", b"ABCD"))
    assert [info.why(c) for c in b"ABCD"] == [None, None, "notinfont", "notinfont"]
    assert bad == 2 and info.judge_use(codes)[0] is FontStatus.WRONG


def test_unicode_cmaps_give_their_codes_as_text() -> None:
    from pytest_textlayer.pdf.cidfonts import analyse_type0

    pdf = pikepdf.new()
    cidfont = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType0,
        BaseFont=pikepdf.Name("/STSong-Light"),
        CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="GB1", Supplement=4),
    )
    for name, data, text in (
        ("UniGB-UCS2-H", "中文".encode("utf-16-be"), "中文"),
        ("UniGB-UTF16-H", "中𠀀".encode("utf-16-be"), "中𠀀"),
    ):
        font = pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type0,
            BaseFont=pikepdf.Name("/STSong-Light"),
            Encoding=pikepdf.Name("/" + name),
            DescendantFonts=[pdf.make_indirect(cidfont)],
        )
        info = analyse_type0(font, "STSong-Light")
        assert (info.route, info.status) == ("collection", FontStatus.USABLE)
        codes = info.split_codes(data)
        assert "".join(info.to_unicode(c) or "?" for c in codes) == text
        assert not any(info.is_bad_code(c) for c in codes)


def test_a_glyph_mapped_to_white_space_loses_no_letter() -> None:
    """The issue's family 5: a space glyph mapped to TAB, a controlLF glyph to line feed."""
    cmap = tounicode_stream({65: "\t", 66: "\n", 67: "C"}, width=1)
    info, codes, bad = only_font(simple_pdf(None, b"ABCABC", tounicode=cmap))
    assert bad == 0 and info.judge_use(codes)[0] is FontStatus.USABLE
    cmap = tounicode_stream({65: "\x03", 66: "\x04", 67: "C"}, width=1)
    _, _, bad = only_font(simple_pdf(None, b"ABCABC", tounicode=cmap))
    assert bad == 4  # other controls still are


@pytest.mark.parametrize("items", [
    [32, "/space", "/exclam", 65, "/A", "/B", 300, "/beyond", -1, "/before"],
    [10, "/a b", "/c"],  # a name written with a # escape
    [10, "/x", 12.5, "/y"],  # a real where a code belongs
    [10, "/x", b"str", "/y"],  # a string
    ["/first", 5, "/caf\u00e9"],  # a name outside ASCII
])
def test_differences_read_in_one_step_are_those_read_item_by_item(items: list[Any]) -> None:
    from pytest_textlayer.pdf.simplefonts import _differences

    pdf = pikepdf.new()
    array = pdf.make_indirect(pikepdf.Array(
        [pikepdf.Name(i) if isinstance(i, str) else pikepdf.String(i) if isinstance(i, bytes)
         else i for i in items]))
    # PDF 32000 Table 112: a number sets the next code, each name takes one code and moves on
    # (a real sets its whole part, as int() of qpdf's number gives; a string is skipped).
    expected: dict[int, str] = {}
    code = 0
    for item in items:
        if isinstance(item, str):
            expected.update({code: item[1:]} if 0 <= code < 256 else {})
            code += 1
        elif not isinstance(item, bytes):
            code = int(item)
    assert _differences(array) == expected
    assert _differences(pdf.get_object(array.objgen)) == expected


def test_an_encoding_read_once_gives_each_font_maps_of_its_own() -> None:
    """Fonts sharing an encoding share its reading, never the maps their analyses hold."""
    from pytest_textlayer.pdf import simplefonts
    from pytest_textlayer.pdf.encodings import encoding_table

    names = {**encoding_table("WinAnsiEncoding"), 1: "g17", 2: "uniE001"}
    first_unicode, first_bad = simplefonts._texts_of_names(names, False, {})
    assert first_unicode[0x41] == "A" and first_bad == {1: "nonagl", 2: "pua"}
    first_unicode[0x41], first_bad[1] = "changed", "changed"
    again = simplefonts._texts_of_names(dict(names), False, {})
    assert again[0][0x41] == "A" and again[1] == {1: "nonagl", 2: "pua"}
    # numbers read as text are part of what is read (poppler's numeric names)
    assert simplefonts._texts_of_names(names, False, {1: "1"})[0][1] == "1"
    for n in range(simplefonts.NAMES_MEMO + 5):  # bounded
        simplefonts._texts_of_names({1: f"g{n}"}, False, {})
    assert simplefonts._read_names.cache_info().currsize <= simplefonts.NAMES_MEMO


def test_a_tounicode_read_again_is_parsed_once_and_each_font_gets_its_own_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_textlayer.pdf import tounicode as module

    data = (b"/CIDInit /ProcSet findresource begin 1 begincodespacerange <00> <FF> "
            b"endcodespacerange 2 beginbfchar <41> <0041> <42> <0062> endbfchar end")
    parsed: list[bytes] = []
    real = module.parse_cmap

    def counted(found: bytes) -> Any:
        parsed.append(found)
        return real(found)

    monkeypatch.setattr(module, "parse_cmap", counted)
    module._parsed_once.cache_clear()
    first = module._parsed(data)
    first.unicode[0x41] = "changed"
    second = module._parsed(bytes(data))
    assert second.unicode == {0x41: "A", 0x42: "b"} and second.codespace == [(1, 0, 255)]
    assert len(parsed) == 1
    big = data + b" " * module.MEMO_BYTES  # past the size kept: parsed each time
    module._parsed(big)
    module._parsed(big)
    assert len(parsed) == 3
