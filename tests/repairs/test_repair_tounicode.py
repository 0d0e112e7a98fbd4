"""The ToUnicode writer: codespace, ranges, UTF-16BE, determinism, and real readers following it."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest

from pytest_textlayer.repairs.tounicode_writer import MAX_BLOCK, attach, build_cmap, clean_map


def _entries(cmap: bytes) -> dict[int, str]:
    """Decode the bfchar/bfrange entries of a CMap we wrote (a tiny independent reader)."""
    text = cmap.decode("ascii")
    out: dict[int, str] = {}
    for block in re.findall(r"beginbfchar\n(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(r"<([0-9A-F]+)> <([0-9A-F]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst).decode("utf-16-be")
    for block in re.findall(r"beginbfrange\n(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(r"<([0-9A-F]+)> <([0-9A-F]+)> <([0-9A-F]+)>", block):
            first = ord(bytes.fromhex(dst).decode("utf-16-be"))
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                out[code] = chr(first + i)
    return out


def _readers_text(pdf: object, path: Path) -> tuple[str, str]:
    """Page one's text as poppler (pdftotext) and PDFium read ``pdf`` saved to ``path``."""
    import pypdfium2

    pdf.save(path)  # type: ignore[attr-defined]
    poppler = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return poppler, pypdfium2.PdfDocument(str(path))[0].get_textpage().get_text_range()


def test_two_byte_codespace_and_round_trip() -> None:
    mapping = {3: " ", 36: "A", 37: "B", 38: "C", 0x1234: "é", 0x0100: "fi"}
    cmap = build_cmap(mapping, width=2)
    assert b"<0000> <FFFF>" in cmap
    assert _entries(cmap) == mapping
    assert b"<0024> <0026> <0041>" in cmap  # A..C as one range
    assert b"<0100> <00660069>" in cmap  # a ligature stays one bfchar with two characters


def test_one_byte_codespace() -> None:
    cmap = build_cmap({0x41: "A", 0xFF: "ÿ"}, width=1)
    assert b"<00> <FF>" in cmap
    assert _entries(cmap) == {0x41: "A", 0xFF: "ÿ"}


def test_supplementary_planes_use_surrogate_pairs() -> None:
    cmap = build_cmap({5: "\U0001d400", 6: "\U0001d401"}, width=2)
    assert b"<D835DC00>" in cmap and b"<D835DC01>" in cmap
    assert b"beginbfrange" not in cmap  # a range would have to carry into the high surrogate
    assert _entries(cmap) == {5: "\U0001d400", 6: "\U0001d401"}


def test_ranges_never_cross_a_high_byte_or_carry_the_destination() -> None:
    cmap = build_cmap({0x00FF: "a", 0x0100: "b", 0x10: "\u00ff", 0x11: "\u0100"}, width=2)
    assert b"<00FF> <0100>" not in cmap
    assert b"<0010> <0011>" not in cmap
    assert _entries(cmap) == {0x00FF: "a", 0x0100: "b", 0x10: "\u00ff", 0x11: "\u0100"}


def test_blocks_hold_at_most_100_entries_and_output_is_deterministic() -> None:
    mapping = {i * 2: chr(0x4E00 + i * 7) for i in range(250)}
    cmap = build_cmap(mapping, width=2)
    counts = [int(n) for n in re.findall(rb"(\d+) beginbfchar", cmap)]
    assert counts == [MAX_BLOCK, MAX_BLOCK, 50]
    assert build_cmap(dict(reversed(list(mapping.items()))), width=2) == cmap


def test_forbidden_values_and_out_of_space_codes_are_dropped() -> None:
    kept = clean_map({1: "\x00", 2: "\ufeff", 3: "", 4: "a", 0x1FF: "b"}, width=1)
    assert kept == {4: "a"}
    with pytest.raises(ValueError, match="1 or 2"):
        build_cmap({}, width=3)


def test_readers_follow_an_attached_tounicode(tmp_path: Path) -> None:
    """poppler, PDFium and pypdf all read the text through the stream attach() writes."""
    import pikepdf
    import pypdf
    from test_repair_pdfs import add_type0_font, subset_font

    text = "Zażółć gęślą jaźń"
    data, gids = subset_font(text, order="first-use", keep="none")
    pdf = pikepdf.new()
    font = add_type0_font(pdf, data, gids, "CCCCCC+DejaVuSans")
    page = pdf.add_blank_page(page_size=(400, 200))
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    codes = b"".join(gids[c].to_bytes(2, "big") for c in text)
    page.obj.Contents = pdf.make_stream(
        b"BT /F1 18 Tf 20 100 Td <" + codes.hex().encode() + b"> Tj ET"
    )
    written = attach(pdf, font, {g: c for c, g in gids.items()})
    assert written == len(set(text))
    assert font.ToUnicode.Filter == pikepdf.Name.FlateDecode
    path = tmp_path / "fixed.pdf"
    poppler, pdfium = _readers_text(pdf, path)
    assert poppler.strip() == text
    assert pdfium.strip() == text
    assert pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages[0].extract_text().strip() == text


def test_fonts_share_one_stream_only_when_each_reads_as_its_own_map() -> None:
    """A shared map may hold a code only one font maps when the other never draws it."""
    import pikepdf

    from pytest_textlayer.repairs.tounicode_writer import Attachment, attach_all

    pdf = pikepdf.new()
    fonts = [pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font)) for _ in range(6)]
    wanted = [
        ({1: "a", 2: "b"}, {1, 2}),
        ({2: "b", 3: "c"}, {2, 3}),  # joins the first: it agrees on 2 and draws no 1
        ({1: "x"}, {1}),  # 1 is 'a' in the first: a stream of its own
        ({4: "d"}, {1, 4}),  # draws 1 unmapped: the first's 'a' and the third's 'x' would map it
        ({2: "b"}, None),  # codes drawn unknown: never shared
        ({5: "e"}, {5}),  # disjoint from the first group: joins it
    ]
    counts = attach_all(pdf, [Attachment(f, m, 2, None if d is None else frozenset(d))
                              for f, (m, d) in zip(fonts, wanted, strict=True)])
    assert counts == [2, 2, 1, 1, 1, 1]
    streams = [f.ToUnicode.objgen for f in fonts]
    assert streams[0] == streams[1] == streams[5]
    assert len(set(streams)) == 4
    assert _entries(fonts[0].ToUnicode.read_bytes()) == {1: "a", 2: "b", 3: "c", 5: "e"}
    assert _entries(fonts[2].ToUnicode.read_bytes()) == {1: "x"}
    assert _entries(fonts[3].ToUnicode.read_bytes()) == {4: "d"}


def test_readers_follow_a_shared_tounicode(tmp_path: Path) -> None:
    """Two faces numbered by one glyph order (as WeasyPrint's subsets are) read from one map."""
    import pikepdf
    from test_repair_pdfs import add_type0_font, subset_font

    from pytest_textlayer.repairs.tounicode_writer import Attachment, attach_all

    first, second = "Zażółć gęślą", "jaźń"
    data, gids = subset_font(first + second, order="first-use", keep="none")
    pdf = pikepdf.new()
    regular = add_type0_font(pdf, data, gids, "CCCCCC+DejaVuSans")
    bold = add_type0_font(pdf, data, gids, "DDDDDD+DejaVuSans-Bold")
    page = pdf.add_blank_page(page_size=(400, 200))
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=regular, F2=bold))

    def shown(text: str) -> bytes:
        return b"<" + b"".join(gids[c].to_bytes(2, "big") for c in text).hex().encode() + b">"

    page.obj.Contents = pdf.make_stream(
        b"BT /F1 18 Tf 20 100 Td " + shown(first) + b" Tj /F2 18 Tf 0 -30 Td " + shown(second)
        + b" Tj ET"
    )
    attach_all(pdf, [
        Attachment(regular, {gids[c]: c for c in first}, 2, frozenset(gids[c] for c in first)),
        Attachment(bold, {gids[c]: c for c in second}, 2, frozenset(gids[c] for c in second)),
    ])
    assert regular.ToUnicode.objgen == bold.ToUnicode.objgen
    poppler, pdfium = _readers_text(pdf, tmp_path / "shared.pdf")
    assert poppler.split() == pdfium.split() == (first + " " + second).split()


def test_fonts_drawn_in_annotations_or_glyph_procedures_are_found() -> None:
    """The usage walk reads page content and its forms only: a font that also draws in an
    annotation's appearance (any state, through a form too, the down appearance too) or in a
    Type3 glyph procedure is named, so its map is never shared (its codes there are not in
    its usage)."""
    import pikepdf

    from pytest_textlayer.repairs.fontusage import collect_fonts, font_key, fonts_beyond_pages

    pdf = pikepdf.new()

    def font(name: str) -> pikepdf.Dictionary:
        return pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name(name)))

    body, in_state, in_form, in_glyph, in_down = (
        font(n) for n in ("/Body", "/State", "/Form", "/Glyph", "/Down"))
    glyph_proc = pdf.make_stream(b"0 0 0 0 0 0 d1 BT /G 1 Tf (x) Tj ET",
                                 Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(G=in_glyph)))
    type3 = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontMatrix=[1, 0, 0, 1, 0, 0],
        FontBBox=[0, 0, 1, 1], CharProcs=pikepdf.Dictionary(x=glyph_proc),
        Encoding=pikepdf.Dictionary(Differences=[120, pikepdf.Name.x]),
        FirstChar=120, LastChar=120, Widths=[1],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(G=in_glyph))))
    form = pdf.make_stream(b"BT /F 9 Tf (a) Tj ET", Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Form, BBox=[0, 0, 10, 10],
                           Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F=in_form)))
    states = pikepdf.Dictionary(
        On=pdf.make_stream(b"BT /S 9 Tf (b) Tj /B 9 Tf (c) Tj ET", Resources=pikepdf.Dictionary(
            Font=pikepdf.Dictionary(S=in_state, B=body))),
        Off=pdf.make_stream(b"/X Do", Resources=pikepdf.Dictionary(
            XObject=pikepdf.Dictionary(X=form))))
    annot = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Widget,
                               Rect=[0, 0, 10, 10], AP=pikepdf.Dictionary(
                                   N=states, D=pdf.make_stream(b"", Resources=pikepdf.Dictionary(
                                       Font=pikepdf.Dictionary(D=in_down)))))
    page = pdf.add_blank_page()
    page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(B=body, T=type3))
    page.obj.Contents = pdf.make_stream(b"BT /B 9 Tf (d) Tj /T 9 Tf (x) Tj ET")
    page.obj.Annots = pdf.make_indirect([pdf.make_indirect(annot)])

    beyond = fonts_beyond_pages(pdf)
    assert beyond == {font_key(f) for f in (body, in_state, in_form, in_glyph, in_down)}
    assert font_key(type3) not in beyond  # its own glyphs are drawn on the page, walked
    assert set(collect_fonts(pdf)) == {font_key(body), font_key(type3)}
