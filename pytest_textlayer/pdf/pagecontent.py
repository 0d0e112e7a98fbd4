"""What the content walk found on a page: one FontUse per font drawn, one PageContent per page.

The walk (:mod:`.content`) fills these records; the classifier, the page
scan and the sound-route check read them. A FontUse also judges its own
glyphs (bad codes, route, evidence) from the font's analysis, lazily: most
pages never need their codes counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import FontReport, FontStatus
from .fontinfo import FontInfo, split_codes
from .pagetext import TEXT_BUDGET, _textshow


@dataclass
class FontUse:
    """One font as one page uses it."""

    font: FontInfo
    glyphs: int = 0
    bad_glyphs: int = 0
    #: The font object's key in the walk (its objgen when indirect).
    font_key: Any = field(default=None, repr=False)
    #: Glyphs drawn in render mode 3 or 7.
    invisible_glyphs: int = 0
    #: Glyphs inside marked content with /ActualText (counted as good).
    actual_text_glyphs: int = 0
    #: Glyphs whose string starts outside the page box (cropped away; readers may still extract).
    offpage_glyphs: int = 0
    #: Glyphs drawn outside ActualText (the ones the font's route must decode).
    coded: int = 0
    #: Their codes, one chunk per shown string, counted into :attr:`codes` when first asked:
    #: a font that cannot have bad codes never needs them counted. The chunks of one- and
    #: two-byte fonts are the strings' bytes (whole codes only), split in one step then.
    drawn: list[Sequence[int]] = field(default_factory=list, repr=False)
    #: The text this font drew on the page (bounded with the page's text; see pagetext).
    text: str = field(default="", repr=False)
    _codes: Counter[int] = field(default_factory=Counter, repr=False)
    _counted: bool = field(default=False, repr=False)
    _sound: bool | None = field(default=None, repr=False)

    @property
    def sound(self) -> bool:
        """Is this use's route sound by the specification? (see :mod:`.soundroute`; once)"""
        if self._sound is None:
            from .soundroute import is_sound

            self._sound = is_sound(self)
        return self._sound

    @property
    def codes(self) -> Counter[int]:
        """Codes drawn outside ActualText, with how often each is drawn."""
        if self.drawn:
            chunks, self.drawn = self.drawn, []
            if isinstance(chunks[0], bytes):
                data = b"".join(chunks)  # type: ignore[arg-type]
                font = self.font
                # One- and two-byte codes are counted in C, in the order a Counter keeps.
                counted = None if _textshow is None else _textshow.count_codes(
                    data, font.code_width)
                self._codes.update(counted if counted is not None else
                                   data if font.code_width == 1 else
                                   split_codes(data, font.code_ranges))
            else:
                for chunk in chunks:
                    self._codes.update(chunk)
        return self._codes

    def count_bad(self) -> None:
        """Set :attr:`bad_glyphs` once the walk is over (one C pass for one-byte fonts)."""
        font = self.font
        if not font.can_be_bad:
            self.bad_glyphs = 0
        elif (self.drawn and not self._codes and isinstance(self.drawn[0], bytes)
              and font.code_width == 1):
            self.bad_glyphs = len(b"".join(self.drawn).translate(None, font.good_bytes))  # type: ignore[arg-type]
        else:
            self.bad_glyphs = sum(n for code, n in self.codes.items() if font.is_bad_code(code))
        self._counted = True

    def judge(self) -> tuple[FontStatus, str, str | None]:
        """(status, route, evidence) for this page's glyphs; see :meth:`FontInfo.judge_use`."""
        if not self.font.can_be_bad or self._counted and not self.bad_glyphs:
            return self.font.judge_clean(self.coded)
        return self.font.judge_use(self.codes)

    @property
    def status(self) -> FontStatus:
        return self.judge()[0]

    @property
    def route(self) -> str:
        return self.judge()[1]

    @property
    def problem(self) -> str | None:
        return self.judge()[2]

    def report(self) -> FontReport:
        """This use as the report model's font line, judged by the glyphs this page draws."""
        status, route, problem = self.judge()
        return FontReport(
            name=self.font.name,
            subtype=self.font.subtype,
            encoding=self.font.encoding,
            route=route,
            status=status,
            glyphs=self.glyphs,
            unmapped=self.bad_glyphs,
            problem=problem,
        )


@dataclass
class PageContent:
    """What one page draws (see the module docstring)."""

    fonts: list[FontUse]
    glyphs: int
    bad_glyphs: int
    invisible_glyphs: int
    image_coverage: float
    images: int
    #: Images too small (in pixels or on the page) to hold text.
    small_images: int = 0
    #: Glyphs drawn by annotations' appearance streams.
    annotation_glyphs: int = 0
    #: Glyphs covered by /ActualText.
    actual_text_glyphs: int = 0
    #: Path-painting and shading operators (vector art).
    paths: int = 0
    #: Glyphs whose string starts outside the page box (included in ``glyphs``).
    offpage_glyphs: int = 0
    #: Page box used for coverage: (x0, y0, x1, y1).
    box: tuple[float, float, float, float] = (0.0, 0.0, 612.0, 792.0)
    #: Parts of the page that could not be read (skipped), one line each.
    errors: list[str] = field(default_factory=list)
    #: Text-showing operators (Tj, TJ, ', ") met with operands, whether or not a font was
    #: selected: PDFium shows a string without a font in a default one.
    text_operators: int = 0
    #: Content streams only qpdf's parser read (inline images, syntax our tokenizers refuse):
    #: where its reading and PDFium's may part (a stray ``ID`` hides the rest from qpdf).
    qpdf_parsed: int = 0
    #: The page's text through the fonts' declared routes, bounded (see pagetext).
    text: str = ""
    #: False when some font's codes need tables we do not ship: ask a real reader instead.
    text_complete: bool = True
    #: Characters of text the walk was allowed to collect (see :attr:`text_cut`).
    text_budget: int = TEXT_BUDGET
    #: What the page helper's process worked out ahead for this page's judging in order:
    #: the language judgements of its words (see lang.ahead). Not a fact of the page.
    ahead: dict[Any, Any] = field(default_factory=dict)

    @property
    def text_cut(self) -> bool:
        """Was the text cut short by a budget below the usual one (a lean walk)?

        A lean walk collects only enough text for the report's sample: on a
        page whose fonts earlier pages vouched for, nothing else reads it.
        The classifier walks the page again in full when a rung needs more.
        """
        return self.text_budget < TEXT_BUDGET and len(self.text) >= self.text_budget

    @property
    def surely_textless(self) -> bool:
        """Is it certain that no reader extracts text from this page? True when our own
        tokenizers read the whole content and it shows no string: then asking PDFium
        (opening it for this document, 15-20 ms) can only return nothing."""
        return self.text_operators == 0 and not self.errors and not self.qpdf_parsed

    @property
    def bad_share(self) -> float:
        """Share of drawn glyphs that have no usable route (0 when nothing is drawn)."""
        return self.bad_glyphs / self.glyphs if self.glyphs else 0.0
