"""Sources of a broken font's map: program tables, verified orders, voted OCR readings."""

from __future__ import annotations

import io

import pytest
from test_repair_pdfs import DEJAVU, severed_pdf

from pytest_textlayer import recover

pytestmark = pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")

TEXT = (
    "Le cœur a ses raisons que la raison ne connaît point.\n"
    "On le sent en mille choses. Je dis que le cœur aime l’être universel naturellement."
)


def _usage(data: bytes) -> recover.FontUsage:
    import pikepdf

    pdf = pikepdf.open(io.BytesIO(data))
    usages = list(recover.collect_fonts(pdf).values())
    assert len(usages) == 1
    return usages[0]


@pytest.mark.parametrize(("keep", "source"), [("cmap", "cmap"), ("post", "post")])
@pytest.mark.parametrize("order", ["mac-standard", "first-use"])
def test_program_tables_give_the_drawn_text(order: str, keep: str, source: str) -> None:
    usage = _usage(severed_pdf([TEXT], order=order, keep=keep))
    found = recover.from_program(usage)
    assert found is not None
    assert found.source == source
    assert found.coverage == 1.0
    assert usage.text(found.mapping) == TEXT


def test_program_without_cmap_or_post_says_nothing() -> None:
    assert recover.from_program(_usage(severed_pdf([TEXT], keep="none"))) is None


def test_mac_standard_order_is_verified_and_maps_accents() -> None:
    usage = _usage(severed_pdf([TEXT], order="mac-standard", keep="none"))
    found = recover.from_order(usage)
    assert found is not None
    assert found.source == "mac-standard"
    assert usage.text(found.mapping) == TEXT  # œ, î, ê come through, which −29 cannot give


def test_first_use_order_is_not_guessed() -> None:
    """Glyph ids in order of first use make letter soup under many offsets: none is believed."""
    usage = _usage(severed_pdf([TEXT], order="first-use", keep="none"))
    assert recover.from_order(usage) is None


def test_offset_map_and_wordlike() -> None:
    usage = _usage(severed_pdf(["Hello world"], order="mac-standard", keep="none"))
    assert usage.text(recover.offset_map(usage, 29)) == "Hello world"
    assert recover.wordlike("Hello, world: (l’ami) 12,5 %") == 1.0
    assert recover.wordlike("9:;<=>?@ABCDEFG") == 0.0
    assert recover.wordlike("¦a¤ď¶³a¢a´") < 0.5


def test_votes_need_numbers_and_agreement() -> None:
    readings = {
        1: [("a", 99.0), ("a", 98.0), ("o", 60.0), ("a", 97.0)],  # 3 of 4 agree: mapped
        2: [("l", 95.0), ("I", 95.0)],  # split: stays unmapped
        3: [("q", 96.0)],  # drawn once, read confidently: mapped
        4: [("z", 96.0)],  # drawn twice but read once: too few votes
        5: [("x", 40.0)],  # drawn once, read unsurely
        6: [(" ", 100.0), (" ", 100.0)],
        7: [("mi", 99.0)],  # drawn once, two letters in one box: a swallowed neighbour
        8: [("µ", 95.0), ("μ", 96.0)],  # micro sign and mu are one reading
    }
    counts = {1: 4, 2: 2, 3: 1, 4: 2, 5: 1, 6: 2, 7: 1, 8: 2}
    assert recover.vote(readings, counts) == {1: "a", 3: "q", 6: " ", 8: "μ"}


def test_usable_text_rejects_what_a_tounicode_must_not_carry() -> None:
    assert recover.usable_text("fi")
    for bad in ("", "\x03", "\ufffd", "\ue001", "\ufeff", "a\x00"):
        assert not recover.usable_text(bad)


def test_collect_fonts_follows_form_xobjects_and_splits_tj_gaps() -> None:
    import pikepdf

    data = severed_pdf(["Hello world"], order="mac-standard", keep="none")
    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[0]
    font = page.obj.Resources.Font.F1
    form = pdf.make_stream(b"BT /F1 12 Tf 10 10 Td [<002B0048> -600 <004F>] TJ ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 100, 100]
    form.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.obj.Resources.XObject = pikepdf.Dictionary(X1=form)
    page.obj.Contents = pdf.make_stream(page.obj.Contents.read_bytes() + b"\nq /X1 Do Q")
    usage = list(recover.collect_fonts(pdf).values())[0]
    assert usage.pages[0][-2:] == [[0x2B, 0x48], [0x4F]]
