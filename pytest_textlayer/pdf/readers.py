"""What real readers extract, and the signals they give about it.

PDFium (through pypdfium2) is the reader the classifier asks when its own
decoding of a page is not enough: for fonts it cannot decode, for suspect
pages, and for the sample of what a real reader shows. Poppler and pypdf
are run by tests, the demo and the fixture truth, through the helpers here,
so that "what a standard reader extracts" always means the same thing.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..errors import MissingDependency
from ..patterns import on_first_use


@dataclass(frozen=True)
class TextSignals:
    """Counts over one page's extracted text that betray an unmapped or mis-mapped layer."""

    chars: int  # non-whitespace characters
    replacement: int  # U+FFFD, U+FFFF, U+FFFE
    controls: int  # C0/C1 controls other than tab and line ends
    pua: int  # Private Use Area
    cid_escapes: int  # pdfminer's "(cid:N)"

    @property
    def unmapped(self) -> int:
        """Characters that stand for a glyph the reader could not map."""
        return self.replacement + self.controls + self.cid_escapes

    def share(self, count: int) -> float:
        return count / self.chars if self.chars else 0.0


_SPACE = on_first_use(r"[^\S\x1c-\x1f\x85]")
_REPLACEMENT = on_first_use("[\ufffd\uffff\ufffe]")
_CONTROL = on_first_use("[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")
_PUA = on_first_use("[\ue000-\uf8ff\U000f0000-\U0010ffff]")


def text_signals(text: str) -> TextSignals:
    """Count the telltale characters of a page's extracted text (regex scans run in C)."""
    return TextSignals(
        chars=len(text) - len(_SPACE().findall(text)),
        replacement=len(_REPLACEMENT().findall(text)),
        controls=len(_CONTROL().findall(text)),
        pua=len(_PUA().findall(text)),
        cid_escapes=text.count("(cid:"),
    )


def qpdf_version() -> str:
    import pikepdf

    return f"qpdf {pikepdf.__libqpdf_version__} (pikepdf {pikepdf.__version__})"


def pdfium_version() -> str:
    import pypdfium2 as pdfium

    return f"PDFium {pdfium.version.PDFIUM_INFO} (pypdfium2 {pdfium.version.PYPDFIUM_INFO})"


def pdfium_page_text(doc: Any, index: int) -> str:
    """One page's text as PDFium extracts it (the lines joined by newlines)."""
    page = doc[index]
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range() if textpage.count_chars() else ""
            return _clean_pdfium(text)
        finally:
            textpage.close()
    finally:
        page.close()


def pdfium_char_counts(textpage: Any) -> tuple[int, int, int]:
    """(characters drawn, unmapped ones, map errors) of a PDFium text page.

    Characters PDFium generated (spaces, line ends) and whitespace are not
    counted; unmapped is a Unicode map error (``FPDFText_HasUnicodeMapError``,
    where this PDFium has it), U+FFFD/FFFE/FFFF or a control character: the
    reader's own signals that a glyph reached no character.
    """
    import unicodedata

    import pypdfium2.raw as raw

    has_error = getattr(raw, "FPDFText_HasUnicodeMapError", None)
    chars = unmapped = errors = 0
    for k in range(raw.FPDFText_CountChars(textpage.raw)):
        if raw.FPDFText_IsGenerated(textpage.raw, k) == 1:
            continue
        code = raw.FPDFText_GetUnicode(textpage.raw, k)
        error = has_error is not None and has_error(textpage.raw, k) == 1
        c = chr(code) if code <= 0x10FFFF else "\ufffd"
        if c.isspace() and not error:
            continue
        chars += 1
        errors += error
        unmapped += error or c in "\ufffd\ufffe\uffff" or unicodedata.category(c) == "Cc"
    return chars, unmapped, errors


def _clean_pdfium(text: str) -> str:
    # PDFium joins lines with CRLF and marks generated hyphens with U+0002.
    return text.replace("\r\n", "\n").replace("\x02", "")


def poppler_text(path: str, *, page: int | None = None, timeout: float = 120) -> str:
    """`pdftotext -enc UTF-8` (poppler): the reader most pipelines use."""
    exe = shutil.which("pdftotext")
    if exe is None:
        raise MissingDependency("pdftotext (poppler)", "apt-get install poppler-utils")
    args = [exe, "-enc", "UTF-8", "-q"]
    if page is not None:
        args += ["-f", str(page), "-l", str(page)]
    done = subprocess.run([*args, path, "-"], capture_output=True, check=False, timeout=timeout)
    return done.stdout.decode("utf-8", errors="replace")


def pypdf_text(data: bytes) -> list[str]:
    """pypdf's extraction, one string per page."""
    import io

    try:
        import pypdf
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("pypdf", "pip install pypdf") from None
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [page.extract_text() or "" for page in reader.pages]


def pdfium_text_of(data: bytes) -> list[str]:
    """PDFium's extraction of every page, for tests and the demo."""
    from .source import PdfSource, open_pdfium

    doc = open_pdfium(PdfSource("<bytes>", data))
    try:
        return [pdfium_page_text(doc, i) for i in range(len(doc))]
    finally:
        doc.close()


# -- agreement between two readers' text of one page -------------------------------------------
def squeeze(text: str) -> str:
    """All whitespace removed, NFKC (which composes jamo into syllables, so the spaces go
    first), whitespace removed again: what two readers must agree on."""
    return "".join(unicodedata.normalize("NFKC", "".join(text.split())).split())


#: Characters no reader shows: controls, format characters (soft hyphen, zero-width and
#: bidi marks, ...), the combining grapheme joiner, the Hangul fillers and the variation
#: selectors (Unicode's default ignorables), the blank braille pattern, the object
#: replacement character (a placeholder for something that is not text, which PDFium drops);
#: and the hyphens, which PDFium turns into its soft-hyphen marks (U+FFFE, U+FFFF) at the end
#: of a line where poppler keeps the hyphen drawn.
_UNSEEN = frozenset({0x2D, 0x2010, 0x034F, 0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0, 0xFFFC,
                     0xFFFE, 0xFFFF} | set(range(0xFE00, 0xFE10)) | set(range(0xE0100, 0xE01F0)))


def seen(text: str) -> Counter[str]:
    """The characters of a page's text that readers must agree on, as a multiset: order
    (right-to-left text is stored in either order) and the invisible aside."""
    return Counter(c for c in squeeze(text) if ord(c) not in _UNSEEN
                   and unicodedata.category(c) not in ("Cc", "Cf"))


def same_text(ours: str, theirs: str, cut: bool = False) -> bool:
    """Do two texts of a page hold the same characters (`ours` a part of `theirs`, when `cut`
    short by a budget), up to whitespace, reading order and what no reader shows?"""
    a, b = seen(ours), seen(theirs)
    return not (a - b) if cut else a == b


def text_difference(ours: str, theirs: str) -> str:
    """The characters only one of two texts has, with the first place they part."""
    a, b = seen(ours), seen(theirs)
    only_ours = "".join(sorted((a - b).elements()))[:24]
    only_theirs = "".join(sorted((b - a).elements()))[:24]
    x, y = squeeze(ours), squeeze(theirs)
    k = next((n for n, (c, d) in enumerate(zip(x, y, strict=False)) if c != d),
             min(len(x), len(y)))
    lo = max(0, k - 12)
    return (f"only ours {_visible(only_ours)!r}, only theirs {_visible(only_theirs)!r}; "
            f"first parting at {k}: ours {_visible(x[lo:k + 24])!r} theirs "
            f"{_visible(y[lo:k + 24])!r}")


def _visible(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)
