"""Builders of real broken PDFs for the repair tests, and checks that they are broken.

Fonts are real DejaVu subsets made by fontTools, written into real PDFs by
pikepdf the way broken producers write them: a Type0 Identity-H font whose
CIDs are glyph ids and which has no /ToUnicode. What the embedded program
keeps (a Unicode cmap, post names, neither) and the order of its glyphs
(Macintosh standard order, order of first use) make the families.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DEJAVU_SERIF = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")

pytestmark = pytest.mark.skipif(not DEJAVU.exists(), reason="fonts-dejavu-core is not installed")


def subset_font(
    text: str, *, order: str, keep: str, source: Path = DEJAVU
) -> tuple[bytes, dict[str, int]]:
    """A TrueType subset of ``source`` for ``text``; returns (font bytes, char -> glyph id).

    order: "mac-standard" (glyph ids in the 258-name Macintosh order) or "first-use".
    keep: "cmap" (cmap and post), "post" (post names only) or "none" (neither).
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    chars = sorted(set(text) - {"\n"})
    opts = subset.Options()
    opts.layout_features = []
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.glyph_names = True
    opts.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "FFTM"]
    font = TTFont(str(source))
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in chars])
    sub.subset(font)
    cmap = font.getBestCmap()
    used = [cmap[ord(c)] for c in chars if ord(c) in cmap]
    glyf = font["glyf"]
    hmtx = font["hmtx"]
    for name in font.getGlyphOrder():
        glyf[name]  # decompile now: composite glyphs name their parts by the current order
    if order == "mac-standard":
        new_order = list(standardGlyphOrder)
        from fontTools.ttLib.tables._g_l_y_f import Glyph

        for name in new_order:
            if name not in glyf.glyphs:
                glyf.glyphs[name] = Glyph()
                hmtx.metrics[name] = (0, 0)
        extra = [g for g in font.getGlyphOrder() if g not in set(new_order)]
        new_order += extra
    else:
        first: list[str] = [".notdef"]
        for c in text:
            name = cmap.get(ord(c))
            if name and name not in first:
                first.append(name)
        new_order = first + [g for g in font.getGlyphOrder() if g not in set(first)]
    font.setGlyphOrder(new_order)
    glyf.glyphOrder = new_order
    font["maxp"].numGlyphs = len(new_order)
    font["hhea"].numberOfHMetrics = len(new_order)
    gid = {name: i for i, name in enumerate(new_order)}
    char_gid = {c: gid[cmap[ord(c)]] for c in chars if ord(c) in cmap}
    if keep in ("post", "none"):
        del font["cmap"]
        cmap_table = newTable("cmap")
        cmap_table.tableVersion = 0
        cmap_table.tables = []
        font["cmap"] = cmap_table
    post = font["post"]
    if keep == "none":
        post.formatType = 3.0
    else:
        post.formatType = 2.0
        post.extraNames = []
        post.mapping = {}
    del used
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue(), char_gid


def add_type0_font(pdf, font_bytes: bytes, char_gid: dict[str, int], name: str):
    """A Type0 Identity-H font over a CIDFontType2, no /ToUnicode: codes are glyph ids."""
    import pikepdf
    from fontTools.ttLib import TTFont

    tt = TTFont(io.BytesIO(font_bytes))
    upem = tt["head"].unitsPerEm
    order = tt.getGlyphOrder()
    widths = []
    for gid in sorted(set(char_gid.values())):
        widths += [gid, [round(tt["hmtx"].metrics[order[gid]][0] * 1000 / upem)]]
    stream = pikepdf.Stream(pdf, font_bytes)
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/" + name),
        Flags=4,
        FontBBox=[-1021, -463, 1793, 1232],
        ItalicAngle=0,
        Ascent=928,
        Descent=-236,
        CapHeight=729,
        StemV=80,
        FontFile2=stream,
    )
    cidfont = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType2,
        BaseFont=pikepdf.Name("/" + name),
        CIDSystemInfo=pikepdf.Dictionary(
            Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
        ),
        FontDescriptor=pdf.make_indirect(descriptor),
        W=pikepdf.Array(widths),
        DW=600,
        CIDToGIDMap=pikepdf.Name.Identity,
    )
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type0,
            BaseFont=pikepdf.Name("/" + name),
            Encoding=pikepdf.Name("/Identity-H"),
            DescendantFonts=[pdf.make_indirect(cidfont)],
        )
    )


def _show(lines: list[tuple[str, str, dict[str, int]]], size: float = 16) -> bytes:
    """Content drawing each (font resource, text, char->gid) line, one under the other."""
    out = []
    y = 760.0
    for res, text, char_gid in lines:
        codes = b"".join(char_gid[c].to_bytes(2, "big") for c in text if c in char_gid)
        out.append(f"BT /{res} {size} Tf 40 {y:.0f} Td <{codes.hex()}> Tj ET".encode())
        y -= size * 1.6
    return b"\n".join(out)


def severed_pdf(
    pages: list[str],
    *,
    order: str = "mac-standard",
    keep: str = "none",
    broken_lines: list[str] | None = None,
) -> bytes:
    """Pages of text in one broken font; ``broken_lines`` adds a second, first-use severed font.

    With ``broken_lines`` each page also draws those lines in a serif font whose glyph ids
    follow first use and whose program keeps no cmap and no post: only OCR can read it.
    """
    import pikepdf

    pdf = pikepdf.new()
    alltext = "".join(pages)
    data, gids = subset_font(alltext, order=order, keep=keep)
    font = add_type0_font(pdf, data, gids, "AAAAAA+DejaVuSans")
    fonts = {"F1": font}
    if broken_lines:
        data2, gids2 = subset_font(
            "".join(broken_lines), order="first-use", keep="none", source=DEJAVU_SERIF
        )
        fonts["F2"] = add_type0_font(pdf, data2, gids2, "BBBBBB+DejaVuSerif")
    for text in pages:
        lines = [("F1", line, gids) for line in text.split("\n")]
        if broken_lines:
            lines += [("F2", line, gids2) for line in broken_lines]
        page = pdf.add_blank_page(page_size=(612, 792))
        page.obj.Resources = pikepdf.Dictionary(
            Font=pikepdf.Dictionary({f"/{k}": v for k, v in fonts.items()})
        )
        page.obj.Contents = pdf.make_stream(_show(lines))
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def image_page_pdf(text: str) -> bytes:
    """A one-page scan: a text PDF by reportlab, rasterised by PDFium, placed as an image."""
    import pypdfium2
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.setFont("DejaVuSans", 18)
    for i, line in enumerate(text.split("\n")):
        c.drawString(50, 740 - 28 * i, line)
    c.showPage()
    c.save()
    doc = pypdfium2.PdfDocument(buf.getvalue())
    image = doc[0].render(scale=200 / 72).to_pil().convert("L")
    png = io.BytesIO()
    image.save(png, format="PNG")
    out = io.BytesIO()
    c2 = canvas.Canvas(out, pagesize=letter)
    from reportlab.lib.utils import ImageReader

    c2.drawImage(ImageReader(io.BytesIO(png.getvalue())), 0, 0, width=612, height=792)
    c2.showPage()
    c2.save()
    return out.getvalue()


def healthy_pdf(text: str) -> bytes:
    """A page reportlab writes correctly (subset TrueType with a ToUnicode)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    c.setFont("DejaVuSans", 14)
    for i, line in enumerate(text.split("\n")):
        c.drawString(50, 740 - 20 * i, line)
    c.showPage()
    c.save()
    return buf.getvalue()


def poppler(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils missing"
)


@needs_poppler
def test_severed_builder_really_loses_the_text(tmp_path: Path) -> None:
    """Without a repair, poppler prints glyph ids, not the words drawn."""
    path = tmp_path / "severed.pdf"
    path.write_bytes(severed_pdf(["The quick brown fox jumps over the lazy dog"]))
    out = poppler(path)
    assert "quick" not in out
    assert out.strip()
