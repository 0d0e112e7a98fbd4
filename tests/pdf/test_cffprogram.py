"""The CFF reader against fontTools, on programs Ghostscript and fontTools really write."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from _cff import cff_program
from _producers import GHOSTSCRIPT

from pytest_textlayer.pdf.cffprogram import CffError, CffFacts, read_cff

#: Four of the base fonts, one re-encoded (Latin-1: a custom built-in encoding), one symbolic.
_POSTSCRIPT = rb"""%!PS
/reenc { findfont dup length dict begin {1 index /FID ne {def} {pop pop} ifelse} forall
  /Encoding ISOLatin1Encoding def currentdict end definefont pop } def
/TR-Latin1 /Times-Roman reenc
/TR-Latin1 findfont 14 scalefont setfont 72 700 moveto (Caf\351 na\357ve \340 la cr\350me) show
/Helvetica-Bold findfont 14 scalefont setfont 72 680 moveto (Plain ASCII: fi fl 0123) show
/Symbol findfont 14 scalefont setfont 72 660 moveto (abgdp) show
/Courier findfont 14 scalefont setfont 72 640 moveto (code = x + y;) show
showpage
"""


def fonttools_facts(data: bytes) -> CffFacts:
    """What fontTools reads from the same program, in the reader's terms."""
    from fontTools.cffLib import CFFFontSet

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(data), None)
    top = cff[cff.fontNames[0]]
    cid_keyed = hasattr(top, "ROS")
    ros = (str(top.ROS[0]), str(top.ROS[1])) if cid_keyed else None
    encoding = "StandardEncoding" if cid_keyed else getattr(top, "Encoding", "StandardEncoding")
    if not isinstance(encoding, str):
        encoding = {c: n for c, n in enumerate(encoding) if n != ".notdef"}
    return CffFacts(ros, cid_keyed, list(top.charset or []), encoding)


def programs(pdf: bytes) -> list[tuple[str, bytes]]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [(str(obj.FontName), bytes(obj.FontFile3.read_bytes())) for obj in doc.objects
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor"
                and "/FontFile3" in obj]


@pytest.fixture(scope="module")
def ghostscript_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page above as Ghostscript's pdfwrite writes it, every font embedded (Type1C)."""
    if GHOSTSCRIPT is None:
        pytest.skip("needs Ghostscript (apt-get install ghostscript)")
    tmp_path = tmp_path_factory.mktemp("cff")
    source, target = tmp_path / "page.ps", tmp_path / "page.pdf"
    source.write_bytes(_POSTSCRIPT)
    assert GHOSTSCRIPT is not None
    subprocess.run([GHOSTSCRIPT, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite",
                    "-dPDFSETTINGS=/prepress", f"-sOutputFile={target}", str(source)],
                   check=True, capture_output=True, timeout=120)
    return target


def test_ghostscript_subsets_read_as_fonttools_reads_them(ghostscript_pdf: Path) -> None:
    found = programs(ghostscript_pdf.read_bytes())
    assert len(found) == 4
    for name, data in found:
        ours = read_cff(data)
        assert ours == fonttools_facts(data), name
        assert isinstance(ours.encoding, dict) and ours.charset[0] == ".notdef"
    latin = read_cff(next(data for name, data in found if "Times" in name))
    assert {0xE9: "eacute", 0xEF: "idieresis"}.items() <= latin.encoding.items()  # type: ignore[union-attr]


def test_checking_cff_fonts_leaves_fonttools_cfflib_unimported(ghostscript_pdf: Path) -> None:
    """Its import alone costs about 70 ms a process: more than `check` spends on a page."""
    probe = ("import sys; from pytest_textlayer import classify; "
             "r = classify(sys.argv[1]); "
             "print(r.pages[0].verdict.value, 'fontTools.cffLib' in sys.modules)")
    ran = subprocess.run([sys.executable, "-c", probe, str(ghostscript_pdf)], capture_output=True,
                         text=True, check=True, timeout=120)
    assert ran.stdout.split() == ["readable", "False"]


def test_fonttools_built_program_with_names_outside_the_standard_strings() -> None:
    data = cff_program(("A", "B", "uni0416", "f_i"))
    ours = read_cff(data)
    assert ours == fonttools_facts(data)
    assert ours.charset == [".notdef", "A", "B", "uni0416", "f_i"]
    assert ours.encoding == "StandardEncoding" and not ours.cid_keyed


def test_charset_offset_zero_is_the_predefined_iso_adobe_charset() -> None:
    """Offset 0 names the ISOAdobe charset (fontTools reads it so too)."""
    data = _charset_at_zero(cff_program(("space", "exclam", "quotedbl")))
    assert read_cff(data).charset == [".notdef", "space", "exclam", "quotedbl"]
    assert read_cff(data) == fonttools_facts(data)


#: The same number 0 written as long as the operand it replaces (CFF DICT number encodings).
_ZERO_BY_LENGTH = {1: bytes([139]), 2: bytes([30, 0x0F]), 3: bytes([28, 0, 0]),
                   5: bytes([29, 0, 0, 0, 0])}


def _charset_at_zero(data: bytes) -> bytes:
    """`data` with the Top DICT's charset operand rewritten as 0, nothing moved."""
    from fontTools.cffLib import CFFFontSet

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(data), None)
    index = cff.topDictIndex
    start, end = index.offsetBase + index.offsets[0], index.offsetBase + index.offsets[1]
    top = bytearray(data[start:end])
    i, operand = 0, 0
    while i < len(top):
        b0 = top[i]
        size = (1 if 32 <= b0 <= 246 else 2 if 247 <= b0 <= 254 else 3 if b0 == 28
                else 5 if b0 == 29 else 0)
        if b0 == 15:
            top[operand:i] = _ZERO_BY_LENGTH[i - operand]
            return data[:start] + bytes(top) + data[end:]
        if size == 0:  # another operator (12 x: two bytes); real numbers do not occur here
            i += 2 if b0 == 12 else 1
            operand = i
        else:
            i += size
    raise AssertionError("the built program has no charset operator")


@pytest.mark.parametrize("cut", [3, 10, 40])
def test_truncated_program_is_an_error_not_a_crash(cut: int) -> None:
    data = cff_program(("A", "B"))
    with pytest.raises(CffError):
        read_cff(data[:cut])


def test_cff2_and_garbage_are_refused() -> None:
    with pytest.raises(CffError):
        read_cff(b"\x02\x00\x05\x00\x00\x00\x00")
    with pytest.raises(CffError):
        read_cff(b"%!PS-AdobeFont-1.0: Times")
