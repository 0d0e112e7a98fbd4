"""The compiled text-showing step and operator loop of the walk give exactly what
_Walker.show and _Walker.walk's own loop give in Python.

`content._show` is `_textshow.walk_show` when the extension is built, else
the method `_Walker.show`; the text it hands on goes through
`pagetext.show_text` the same way; `content.compiled_loop()` gives
`_walkloop.run`, which interprets the common operators before the walk's own
loop sees them. Generated content streams are walked by
every route over one page that has a one-byte font, an Identity-H font, a
font of mixed one- and two-byte codes, a Type3 font and a form, inside and
outside ActualText spans, hidden layers and annotations: every count, code,
word break and error must agree.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_textlayer.pdf import content, pagetext
from pytest_textlayer.pdf.content import scan_page
from pytest_textlayer.pdf.pagecontent import PageContent

native = pytest.mark.skipif(pagetext._textshow is None or content._walkloop is None,
                            reason="extensions not built")

_UNICODE = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /U def 1 begincodespacerange <0000> <FFFF> endcodespacerange
3 beginbfchar <0041> <0041> <0042> <0020> <0043> <FB01> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""
#: An encoding CMap of one- and two-byte codes: the walk splits its strings by the codespace.
_MIXED = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Mixed def /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def
2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange
1 begincidrange <00> <80> 0 endcidrange 1 begincidrange <8140> <9FFC> 200 endcidrange
endcmap CMapName currentdict /CMap defineresource pop end end"""


def _page() -> pikepdf.Pdf:
    pdf = pikepdf.new()
    helvetica = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
        Encoding=pikepdf.Name.WinAnsiEncoding))
    cid = pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name.Sub,
        CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0),
        W=[65, [500, 600, 700]])
    identity = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name.Sub,
        Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)],
        ToUnicode=pdf.make_stream(_UNICODE)))
    mixed = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name.Mixed,
        Encoding=pdf.make_stream(_MIXED), DescendantFonts=[pdf.make_indirect(cid)]))
    proc = pdf.make_stream(b"1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f BT /F1 1 Tf (x) Tj ET")
    type3 = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1000, 1000],
        FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=pikepdf.Dictionary(A=proc),
        Encoding=pikepdf.Dictionary(Differences=[65, pikepdf.Name("/A")]),
        FirstChar=65, LastChar=65, Widths=[1000]))
    fonts = pikepdf.Dictionary(F1=helvetica, F2=identity, F3=mixed, F4=type3)
    form = pdf.make_stream(b"BT /F1 9 Tf 5 5 Td (in a form) Tj [(A) -300 (B)] TJ ET",
                           pikepdf.Dictionary(Type=pikepdf.Name.XObject,
                                              Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100],
                                              Resources=pikepdf.Dictionary(Font=fonts)))
    layer = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name="hidden"))
    pdf.Root.OCProperties = pikepdf.Dictionary(
        OCGs=[layer], D=pikepdf.Dictionary(OFF=[layer], ON=[]))
    page = pdf.add_blank_page(page_size=(300, 400))
    page.Resources = pikepdf.Dictionary(
        Font=fonts, XObject=pikepdf.Dictionary(Fm=form),
        Properties=pikepdf.Dictionary(L1=layer,
                                      AT=pikepdf.Dictionary(ActualText=pikepdf.String("fi"))))
    return pdf


_NUMBERS = st.sampled_from([b"0", b"1", b"-1", b"12", b"0.5", b"-0.25", b"300", b"-300",
                            b"1000", b"7.5", b"-180", b"-181", b"180", b"1e3", b"100000"])
_STRINGS = st.sampled_from([b"(Hello)", b"( )", b"()", b"(a b)", b"<0041>", b"<00410042>",
                            b"<004100>", b"<41>", b"(\\201@AB)", b"<8140>", b"(AA)", b"(\\n)",
                            b"<0043 0042 0041>", b"(word)"])


@st.composite
def _operator(draw: Any) -> bytes:
    n = _NUMBERS
    kind = draw(st.integers(0, 22))
    if kind <= 3:
        return draw(_STRINGS) + b" Tj"
    if kind <= 6:
        items = draw(st.lists(st.one_of(_STRINGS, n), max_size=8))
        return b"[" + b" ".join(items) + b"] TJ"
    if kind == 7:
        return draw(_STRINGS) + b" '"
    if kind == 8:
        return draw(n) + b" " + draw(n) + b" " + draw(_STRINGS) + b' "'
    if kind == 9:
        return b"/F%d " % draw(st.integers(1, 5)) + draw(n) + b" Tf"
    if kind == 10:
        return draw(n) + b" " + draw(n) + b" " + draw(st.sampled_from([b"Td", b"TD"]))
    if kind == 11:
        return b" ".join(draw(st.lists(n, min_size=6, max_size=6))) + b" Tm"
    if kind == 12:
        return b" ".join(draw(st.lists(n, min_size=6, max_size=6))) + b" cm"
    if kind == 13:
        return draw(n) + b" " + draw(st.sampled_from([b"TL", b"Tz", b"Ts"]))
    if kind == 14:
        return b"%d Tr" % draw(st.integers(0, 7))
    if kind == 15:
        return draw(st.sampled_from([b"BT", b"ET", b"T*", b"q", b"Q"]))
    if kind == 16:
        return draw(st.sampled_from([b"/Span /AT BDC", b"/Span <</ActualText (ab)>> BDC",
                                     b"/OC /L1 BDC", b"/P <</MCID 1>> BDC", b"/X BMC"]))
    if kind == 17:
        return b"EMC"
    if kind == 18:
        return b"/Fm Do"
    if kind == 19:
        return b"BT /F4 20 Tf 10 10 Td (AB) Tj ET"
    if kind == 20:  # operands of the wrong kind or number: the operator is skipped, or not
        return draw(st.sampled_from([
            b"(x) 1 Td", b"1 Td", b"/N Tz", b"(2) Tr", b"2.7 Tr", b"1 2 3 4 5 cm",
            b"1 2 3 4 5 (x) cm", b"Tf", b"/F9 12 Tf", b"/F1 (big) Tf", b"/F1 Tf", b"(s) TL",
            b"1 2 3 4 5 6 7 Tm", b"1 2 3 4 5 /x Tm", b"Q Q", b"EMC EMC", b"'", b'1 2 "',
            b"BMC", b"Tj", b"TJ", b"[(a) (b)] (c) TJ", b"(a) (b) Tj", b"1 (x) TD", b"Ts",
            b"(1) TL T*", b"true Tz", b"null Ts", b"/F2 1e3 Tf", b"S f* B* b* sh n W"]))
    return b"BT /F%d 10 Tf 20 300 Td " % draw(st.integers(1, 3)) + draw(_STRINGS) + b" Tj ET"


def record(page: PageContent) -> Any:
    """Everything the walk found on the page, floats as their bits."""
    def plain(v: Any) -> Any:
        if isinstance(v, float):
            return "nan" if math.isnan(v) else v.hex()
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v

    uses = [(u.font.name, u.glyphs, u.bad_glyphs, u.invisible_glyphs, u.actual_text_glyphs,
             u.offpage_glyphs, u.coded, u.text, sorted(u.codes.items())) for u in page.fonts]
    fields = {f.name: getattr(page, f.name) for f in dataclasses.fields(page) if f.name != "fonts"}
    return uses, {k: plain(v) for k, v in fields.items()}


def _walk_both(pdf: pikepdf.Pdf, stream: bytes, annotated: bool) -> tuple[Any, Any]:
    page = pdf.pages[0].obj
    page.Contents = pdf.make_stream(stream)
    if annotated:
        appearance = pdf.make_stream(stream, pikepdf.Dictionary(
            Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 300, 400],
            Resources=page.Resources))
        page.Annots = pdf.make_indirect(pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.FreeText, Rect=[0, 0, 150, 200],
            AP=pikepdf.Dictionary(N=appearance))]))
    elif "/Annots" in page:
        del page.Annots
    found = []
    for route in ("native", "python loop", "python"):
        with pytest.MonkeyPatch.context() as m:
            if route != "native":  # the walk's own operator loop (_walkloop.c's, natively)
                m.setattr(content, "compiled_loop", lambda: None)
            if route == "python":
                m.setattr(content, "_show", content._Walker.show)
                m.setattr(content, "show_text", pagetext.TextSink.show)
            try:
                found.append(record(scan_page(pdf, 0, {}, text_budget=200)))
            except ValueError as exc:
                found.append(str(exc))
    assert found[0] == found[1], "the compiled operator loop and the walk's own differ"
    return found[0], found[2]


@pytest.fixture(scope="module")
def pdf() -> Any:
    with _page() as made:
        yield made


@native
@settings(max_examples=1500, deadline=None)
@given(stream=st.lists(_operator(), max_size=40).map(b"\n".join), annotated=st.booleans())
def test_generated_streams_are_walked_alike(pdf: pikepdf.Pdf, stream: bytes,
                                           annotated: bool) -> None:
    fast, slow = _walk_both(pdf, stream, annotated)
    assert fast == slow, stream


@native
def test_the_fonts_take_each_route_of_the_codes(pdf: pikepdf.Pdf) -> None:
    """One-byte, two-byte and mixed codespaces and a Type3 font, each read alike."""
    stream = (b"BT /F1 12 Tf 20 300 Td (Hello) Tj /F2 12 Tf [<0041> -300 <00420043>] TJ "
              b"/F3 12 Tf (\\201@AB) Tj /F4 20 Tf (AA) Tj 3 Tr (hid) Tj ET /Fm Do")
    fast, slow = _walk_both(pdf, stream, True)
    assert fast == slow
    assert {use[0] for use in fast[0]} == {"Helvetica", "Sub", "Mixed", "(unnamed)"}


@native
def test_matrices_the_walk_does_not_build_go_to_the_python_method() -> None:
    """A text matrix of ints (no operator makes one) is read by the method itself."""
    from pytest_textlayer.pdf.content import _State, _Walker
    from pytest_textlayer.pdf.fonts import analyse_font

    with _page() as made:
        font = made.pages[0].Resources.Font.F1
        info = analyse_font(font)
        pagetext.remember_width(info, font)
        routes = []
        for show in (pagetext._textshow.walk_show, _Walker.show):
            walker = _Walker(made, {}, (0.0, 0.0, 300.0, 400.0))
            state = _State(font=info, font_key=(1, 0), text_font=pagetext.text_font(info),
                           size=12.0)
            moved = show(walker, [b"Hi", -400, b"there"], state, None, (1, 0, 0, 1, 20, 30),
                         0, False, None)
            routes.append((moved, walker.text.text(), walker.text_operators,
                           [u.glyphs for u in walker.uses.values()]))
        assert routes[0] == routes[1]
        assert routes[0][1] == "Hi there"
