"""Fonts are released after the last page that can draw them, and no verdict changes."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest
from _spies import spy

from pytest_textlayer.generators import generate
from pytest_textlayer.judge.classifier import classify
from pytest_textlayer.judge.fonttrust import FontTrust
from pytest_textlayer.pdf import fontreach


def _font(pdf: pikepdf.Pdf, name: str, **extra: Any) -> pikepdf.Dictionary:
    return pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name(name),
        **extra))


def _resources(**fonts: Any) -> pikepdf.Dictionary:
    return pikepdf.Dictionary(Font=pikepdf.Dictionary(**fonts))


def test_a_font_is_last_reached_through_forms_type3_patterns_and_appearances() -> None:
    pdf = pikepdf.new()
    body, in_form, in_glyph, in_state, in_pattern = (
        _font(pdf, n) for n in ("/Body", "/Form", "/Glyph", "/State", "/Pattern"))
    nested = pdf.make_stream(b"", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                             BBox=[0, 0, 1, 1], Resources=_resources(F=in_form))
    form = pdf.make_stream(b"/N Do", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                           BBox=[0, 0, 1, 1],
                           Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(N=nested)))
    type3 = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, Resources=_resources(G=in_glyph)))
    pattern = pdf.make_stream(b"", PatternType=1, Resources=_resources(P=in_pattern))
    on = pdf.make_stream(b"", Resources=_resources(S=in_state))
    annot = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Widget,
                               Rect=[0, 0, 1, 1],
                               AP=pikepdf.Dictionary(N=pikepdf.Dictionary(On=on)))
    pages = [pdf.add_blank_page() for _ in range(4)]
    pages[0].obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(B=body),
                                                XObject=pikepdf.Dictionary(X=form))
    pages[1].obj.Resources = _resources(T=type3)
    pages[1].obj.Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(annot)]))
    pages[2].obj.Resources = pdf.make_indirect(_resources(B=body))
    pages[3].obj.Resources = pikepdf.Dictionary(Pattern=pikepdf.Dictionary(P=pattern))

    first, last = fontreach.reaching_pages(pdf, range(4))
    assert last == {body.objgen: 2, in_form.objgen: 0, type3.objgen: 1, in_glyph.objgen: 1,
                    in_state.objgen: 1, in_pattern.objgen: 3}
    assert first == {**last, body.objgen: 0}
    assert fontreach.last_reaching_page(pdf, range(4)) == last
    # Pages left out of a selection reach nothing: page 3's body font ends with page 1.
    assert fontreach.last_reaching_page(pdf, [0, 1, 3])[body.objgen] == 0
    # What only content the page walk does not read can draw (the repair keeps those maps
    # unshared): glyph procedures, annotation appearances and patterns, not forms.
    reach = fontreach.FontReach()
    assert [reach.page(p.obj)[1] for p in pages] == [
        set(), {in_glyph.objgen, in_state.objgen}, set(), {in_pattern.objgen}]


def test_a_document_of_many_parts_releases_its_fonts_with_the_same_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A document joined from many parts: each part's fonts end with it. The report is the
    one a check that keeps every font gives."""
    data = generate("mixed", families=["readable", "severed", "scrambled", "mixed-fonts",
                                       "shifted", "partial"] * 2).pdf
    forgotten = spy(monkeypatch, FontTrust, "forget")
    released = classify(data)
    assert len(forgotten) >= 6, "no font was released"
    monkeypatch.setattr(fontreach, "reaching_pages", lambda qpdf, indices: ({}, {}))
    forgotten.clear()
    kept = classify(data)
    assert forgotten == []
    assert released.pages == kept.pages


def test_pages_walked_from_the_end_release_fonts_before_their_first_page() -> None:
    cache: dict[Any, Any] = {"a": 1, "b": 2, "c": 3, "kept": 4}
    starts = fontreach.starts_of({"a": 0, "b": 5, "c": 9})
    fontreach.release_after(cache, starts, 9)
    assert set(cache) == {"a", "b", "c", "kept"}
    fontreach.release_after(cache, starts, 8)
    assert set(cache) == {"a", "b", "kept"}
    fontreach.release_after(cache, starts, 2)
    assert set(cache) == {"a", "kept"}
    fontreach.release_after(cache, starts, 0)
    assert set(cache) == {"a", "kept"} and starts == [(0, "a")]


def test_a_page_whose_resources_cannot_be_read_keeps_the_fonts_around_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged page might draw any font: those known before it are kept until it, those
    known after it from it on; the rest of the document still lets its fonts go."""
    pdf = pikepdf.new()
    early, late, both, far = (_font(pdf, n) for n in ("/Early", "/Late", "/Both", "/Far"))
    pages = [pdf.add_blank_page() for _ in range(6)]
    fonts = [{"E": early, "B": both}, {"E": early}, {}, {"L": late, "B": both}, {}, {"F": far}]
    for page, named in zip(pages, fonts, strict=True):
        page.obj.Resources = _resources(**named)
    damaged = pages[2].obj.objgen
    real = fontreach.FontReach.page

    def page_2_fails(self: fontreach.FontReach, page: Any) -> Any:
        if page.objgen == damaged:  # a failure path: qpdf raising on a damaged object
            raise pikepdf.PdfError("damaged resources")
        return real(self, page)

    monkeypatch.setattr(fontreach.FontReach, "page", page_2_fails)
    first, last = fontreach.reaching_pages(pdf, range(6))
    assert last == {early.objgen: 2, both.objgen: 3, late.objgen: 3, far.objgen: 5}
    assert first == {early.objgen: 0, both.objgen: 0, late.objgen: 2, far.objgen: 2}


def test_a_resource_that_fails_is_read_again_by_the_next_page_that_shares_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure is not remembered as 'reaches nothing' for the pages after."""
    pdf = pikepdf.new()
    body = _font(pdf, "/Body")
    shared = pdf.make_indirect(_resources(B=body))
    pages = [pdf.add_blank_page() for _ in range(2)]
    for page in pages:
        page.obj.Resources = shared
    calls: list[int] = []
    real = fontreach.FontReach._scan

    def fails_once(self: fontreach.FontReach, resources: Any, depth: int) -> Any:
        calls.append(depth)
        if len(calls) == 1:
            raise pikepdf.PdfError("damaged on first read")
        return real(self, resources, depth)

    monkeypatch.setattr(fontreach.FontReach, "_scan", fails_once)
    first, last = fontreach.reaching_pages(pdf, range(2))
    assert (first, last) == ({body.objgen: 0}, {body.objgen: 1})
    assert len(calls) == 2


def test_a_document_with_a_damaged_page_still_releases_its_fonts_with_the_same_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = generate("mixed", families=["readable", "severed", "scrambled", "mixed-fonts",
                                       "shifted", "partial"] * 2).pdf
    kept = classify(data)
    forgotten: list[Any] = []
    real_forget, real_page = FontTrust.forget, fontreach.FontReach.page
    seen: list[Any] = []

    def counted(self: FontTrust, font: Any) -> None:
        forgotten.append(font)
        real_forget(self, font)

    def fifth_fails(self: fontreach.FontReach, page: Any) -> Any:
        seen.append(page)
        if len(seen) == 5:  # a failure path: qpdf raising on a damaged object
            raise pikepdf.PdfError("damaged resources")
        return real_page(self, page)

    monkeypatch.setattr(FontTrust, "forget", counted)
    monkeypatch.setattr(fontreach.FontReach, "page", fifth_fails)
    released = classify(data)
    assert len(seen) == len(kept.pages) and len(forgotten) >= 10  # before: none at all
    assert released.pages == kept.pages
