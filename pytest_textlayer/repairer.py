"""Repair a PDF's text layer: the right /ToUnicode where the file holds the answer, OCR elsewhere.

The order is the order of cost to the document:

1. classify IN; for every font that draws glyphs without a usable route,
   build a map from the best source (:mod:`.recover`: the embedded
   program's tables, an order hypothesis the letter-pair model accepts, the
   glyphs read by Tesseract) and write it as a /ToUnicode — the page keeps
   its vector content, only a small stream is added. Before OCR, the
   document settles the fonts with too little text to judge alone: the
   offset most shifted fonts read under, or their own program's reading
   when the rest of the document's programs overrule their maps
   (:func:`_settle_with_document`);
2. classify the result; pages still not readable, and pages that are only
   images, go through OCRmyPDF (``--force-ocr`` for visible garbage, plain
   OCR for images), page by page, so readable pages are never rasterised;
3. classify OUT again: the report's verdicts are those of the file written.

OUT is written to a temporary file beside it and renamed into place only
when complete; IN is only read.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InputError, MissingOCR, TextLayerError, UsageError
from .model import SAMPLE_CHARS, DocumentReport, PageReport, Verdict, printable_fields, shorten
from .ocr import TESSERACT_CODES
from .settings import CheckSettings

OCR_MODES = ("auto", "never", "force")
#: How many fonts a rendering lists.
MAX_FONTS_SHOWN = 8


@dataclass(frozen=True)
class FontRepair:
    """One font given a new /ToUnicode."""

    name: str
    #: cmap | post | charset | encoding | offset | mac-standard | ocr-glyphs (of most codes)
    source: str
    #: Every source that contributed codes, best first.
    sources: tuple[str, ...]
    glyphs: int
    #: Drawn glyphs that had no usable route before.
    bad_glyphs: int
    #: Of those, glyphs the new map gives text for.
    fixed_glyphs: int
    pages: tuple[int, ...]
    detail: str = ""

    def __post_init__(self) -> None:
        printable_fields(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "sources": list(self.sources),
            "glyphs": self.glyphs,
            "bad_glyphs": self.bad_glyphs,
            "fixed_glyphs": self.fixed_glyphs,
            "pages": list(self.pages),
            "detail": self.detail,
        }


@dataclass(frozen=True)
class PageRepair:
    """What was done to one page, and what it reads as in OUT."""

    number: int
    #: unchanged | tounicode | ocr
    action: str
    sources: tuple[str, ...]
    before: Verdict
    after: Verdict
    ok: bool
    sample_before: str = ""
    sample_after: str = ""
    evidence: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        printable_fields(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "action": self.action,
            "sources": list(self.sources),
            "verdict_before": self.before.value,
            "verdict": self.after.value,
            "ok": self.ok,
            "sample_before": self.sample_before,
            "sample": self.sample_after,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True)
class RepairReport:
    """The story of one repair: per page what was done and the verdict of OUT."""

    input: str
    output: str
    pages: tuple[PageRepair, ...]
    fonts: tuple[FontRepair, ...] = ()
    #: "Tesseract 5.3.0, language fra (from the document's text)" when OCR ran, else None.
    ocr: str | None = None
    ocr_mode: str = "auto"
    written: bool = True
    after: DocumentReport | None = field(default=None, compare=False, repr=False)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        printable_fields(self)

    @property
    def ok(self) -> bool:
        return self.written and all(p.ok for p in self.pages)

    @property
    def bad_pages(self) -> tuple[PageRepair, ...]:
        return tuple(p for p in self.pages if not p.ok)

    def action_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for page in self.pages:
            counts[page.action] = counts.get(page.action, 0) + 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "input": self.input,
            "output": self.output,
            "ok": self.ok,
            "written": self.written,
            "ocr": self.ocr,
            "ocr_mode": self.ocr_mode,
            "actions": self.action_counts(),
            "fonts": [f.to_dict() for f in self.fonts],
            "pages": [p.to_dict() for p in self.pages],
            "notes": list(self.notes),
        }

    def headline(self) -> str:
        counts = ", ".join(f"{n} {a}" for a, n in sorted(self.action_counts().items()))
        if self.ok:
            return f"Repaired: {self.output} reads on every page ({counts})"
        return (
            f"Repaired only in part: {self.output} has {len(self.bad_pages)} of "
            f"{len(self.pages)} pages still not readable ({counts})"
        )

    def render_lines(self, *, verbose: bool = False) -> list[str]:
        """For people: headline, fonts repaired, pages that changed or still fail."""
        lines = [self.headline()]
        for font in self.fonts[:MAX_FONTS_SHOWN]:
            lines.append(
                f"  font {font.name}: /ToUnicode from {'+'.join(font.sources)}, "
                f"{font.fixed_glyphs} of {font.bad_glyphs} bad glyphs mapped"
                + (f" ({font.detail})" if font.detail else "")
            )
        if len(self.fonts) > MAX_FONTS_SHOWN:
            lines.append(f"  … and {len(self.fonts) - MAX_FONTS_SHOWN} more font(s)")
        if self.ocr:
            lines.append(f"  OCR: {self.ocr}")
        shown = [p for p in self.pages if verbose or p.action != "unchanged" or not p.ok]
        for page in shown[:10]:
            how = page.action + (f" ({'+'.join(page.sources)})" if page.sources else "")
            state = "ok" if page.ok else "NOT OK"
            lines.append(
                f"  page {page.number}: {how}; {page.before.value} → {page.after.value} ({state})"
            )
            if page.action != "unchanged" or not page.ok:
                if page.sample_before:
                    lines.append(f"      before: {shorten(page.sample_before, SAMPLE_CHARS)}")
                if page.sample_after:
                    lines.append(f"      after:  {shorten(page.sample_after, SAMPLE_CHARS)}")
            if not page.ok and page.evidence:
                lines.append(f"      {page.evidence[0]}")
        if len(shown) > 10:
            lines.append(f"  … and {len(shown) - 10} more page(s); use --json for all of them")
        lines.extend(f"  note: {note}" for note in self.notes)
        return lines

    def render(self, *, verbose: bool = False) -> str:
        return "\n".join(self.render_lines(verbose=verbose))


# --------------------------------------------------------------------------- paths


def _check_paths(
    in_pdf: str | os.PathLike[str], out_pdf: str | os.PathLike[str]
) -> tuple[Path, Path]:
    src, dst = Path(in_pdf), Path(out_pdf)
    if not src.exists():
        raise InputError(str(src), "no such file")
    if src.is_dir():
        raise InputError(str(src), "is a directory, not a PDF")
    try:
        same = dst.exists() and os.path.samefile(src, dst) or src.resolve() == dst.resolve()
    except (OSError, RuntimeError):  # a symlink loop: refused below as a link
        same = False
    if same:
        raise UsageError(f"{dst}: output is the input file; write the repaired copy elsewhere")
    _refuse_special_output(dst)
    if dst.is_dir():
        raise UsageError(f"{dst}: output is a directory; give a file name")
    parent = dst.parent if str(dst.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"{dst}: output folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{dst}: output folder {parent} is not writable")
    if dst.exists() and not os.access(dst, os.W_OK):
        raise UsageError(f"{dst}: output file is not writable")
    return src, dst


def _refuse_special_output(dst: Path) -> None:
    """OUT is replaced by a rename: a device, a FIFO or a socket would be replaced, not
    written to, and a symbolic link would lose its target; refuse them all."""
    import stat

    try:
        st = os.lstat(dst)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsageError(f"{dst}: output cannot be looked up: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise UsageError(f"{dst}: output is a symbolic link; give the file it should be")
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{dst}: output is a device, FIFO or socket, not a file")


def _write_atomically(
    pdf: Any, dst: Path, src: Path, same: bytes | None = None,
    verify: Callable[[Path], None] | None = None,
) -> None:
    """Save to a temporary file beside ``dst``, then rename: never a partial OUT.

    With ``same`` (IN's bytes, when nothing was changed), OUT is a byte-for-byte copy.
    ``verify`` reads the saved file before it takes OUT's name: a file damaged past
    what qpdf repairs may save into one it cannot open again, and that is no OUT.
    """
    import pikepdf

    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".part", dir=dst.parent or ".")
    os.close(fd)
    try:
        # mkstemp makes the file private; give OUT the mode any new file would get.
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        if same is not None:
            with open(tmp, "wb") as handle:
                handle.write(same)
        else:
            with _quiet():
                pdf.save(
                    tmp,
                    compress_streams=True,
                    object_stream_mode=pikepdf.ObjectStreamMode.generate,
                )
        if verify is not None:
            try:
                verify(Path(tmp))
            except InputError as exc:
                raise InputError(
                    str(src), f"damaged PDF: cannot be rewritten: {exc.problem}"
                ) from None
        os.replace(tmp, dst)
    except OSError as exc:
        raise UsageError(f"{dst}: cannot write: {exc.strerror or exc}") from None
    except pikepdf.PdfError as exc:
        problem = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise InputError(str(src), f"damaged PDF: cannot be rewritten: {problem}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence pikepdf's PageCopyWarning: form widgets stay where they were, the hint is noise."""
    import warnings

    import pikepdf

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
        yield


def _pdf_bytes(pdf: Any) -> bytes:
    import io

    buf = io.BytesIO()
    with _quiet():
        pdf.save(buf)
    return buf.getvalue()


# --------------------------------------------------------------------------- fonts


def _base(text: str) -> str:
    import unicodedata

    return "".join(
        ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)
    ).casefold()


@dataclass
class _Plan:
    usage: Any
    info: Any
    bad: set[int]
    mapping: dict[int, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    #: Codes mapped by an order hypothesis beyond ASCII, which OCR may still correct.
    unverified: set[int] = field(default_factory=set)
    #: The font draws on a page the classifier condemned.
    on_bad_page: bool = False
    #: The offset its ToUnicode values were shifted back by, when that is how it was repaired.
    shift: int | None = None
    #: What the embedded program says of the font's codes (used or not), each with its source.
    program: list[Any] = field(default_factory=list)
    #: Some codes had no usable route before the repair (the analyser's own finding).
    flagged: bool = False
    #: Its ToUnicode read as no language and its program's reading replaced it.
    overruled: bool = False
    #: The values its ToUnicode stream itself holds (not the encoding's names), once read.
    written_map: dict[int, str] | None = None

    def written(self, code: int) -> str | None:
        """The value the font's ToUnicode stream gives ``code`` (None: no entry, no stream)."""
        if self.written_map is None:
            import pikepdf

            from .cmaps import parse_cmap

            self.written_map = {}
            entry = self.usage.font.get("/ToUnicode")
            if isinstance(entry, pikepdf.Stream):
                with contextlib.suppress(Exception):  # unreadable: nothing written
                    self.written_map = parse_cmap(entry.read_bytes()).unicode
        return self.written_map.get(code)

    def drawn(self) -> dict[int, str]:
        """Each code the font draws -> the text its present route gives ('' when none)."""
        return {c: self.info.to_unicode(c) or "" for c in self.usage.codes()}

    def missing(self) -> set[int]:
        return self.bad - set(self.mapping)

    def correct(self, recovery: Any) -> None:
        """Let OCR's votes replace unverified letters whose base letter it reads differently.

        Only a different base letter counts: OCR in a language without the
        accent drops it (é read as e), which is no evidence against the map.
        A font with codes left unmapped also has its numbered glyph names
        (``/g32``, read as code 32 as poppler does) judged so: beside glyphs
        nothing names, a number is more often the glyph's place than its text.
        """
        from .encodings import is_index_name

        numbered = set()
        if self.info is not None and self.bad:
            numbered = {
                c for c, name in self.info.glyph_names.items() if is_index_name(name)
            } - self.bad
        changed = 0
        for code in self.unverified | numbered:
            seen = recovery.mapping.get(code)
            now = self.mapping.get(code)
            if now is None and code in numbered and self.info is not None:
                now = self.info.to_unicode(code)
            if seen and now and _base(seen) != _base(now):
                self.mapping[code] = seen
                changed += 1
        if changed and recovery.source not in self.sources:
            self.sources.append(recovery.source)

    def add(self, recovery: Any) -> None:
        from .recover import usable_text

        new = {
            c: t
            for c, t in recovery.mapping.items()
            if c in self.bad and c not in self.mapping and usable_text(t)
        }
        if new:
            self.mapping.update(new)
            self.sources.append(recovery.source)
            if recovery.detail:
                self.details.append(recovery.detail)

    def add_order(self, recovery: Any) -> None:
        before = set(self.mapping)
        self.add(recovery)
        if recovery.source == "mac-standard":
            self.unverified |= {
                c for c in set(self.mapping) - before if not " " <= self.mapping[c] <= "~"
            }

    def glyph_counts(self) -> tuple[int, int, int]:
        codes = self.usage.codes()
        total = sum(codes.values())
        bad = sum(n for c, n in codes.items() if c in self.bad)
        fixed = sum(n for c, n in codes.items() if c in self.bad and c in self.mapping)
        return total, bad, fixed


def _plans(pdf: Any, bad_pages: set[int]) -> list[_Plan]:
    """Fonts to repair: any with drawn codes lacking a route, and on bad pages any font at all.

    A font whose route looks fine but draws on a page the classifier found
    bad may carry a scrambled or shifted ToUnicode; :func:`_recover` decides
    whether its codes are opened. A font whose route is sound by the
    specification (see :mod:`.soundroute`) is never rewritten for sharing a
    page with a bad one: its map is the truth, and a "repair" could only
    lose the text it gives.
    """
    from . import fonts, recover
    from .soundroute import font_is_sound

    plans: list[_Plan] = []
    for usage in recover.collect_fonts(pdf).values():
        try:
            info = fonts.analyse_font(usage.font)
        except Exception:  # noqa: BLE001 - a font the analyser cannot read is repaired from scratch
            info = None
        codes = usage.codes()
        bad = set(codes) if info is None else {c for c in codes if info.is_bad_code(c)}
        if not bad and info is not None and font_is_sound(info, codes):
            continue
        if bad or bad_pages & set(usage.pages):
            plans.append(_Plan(usage, info, bad, flagged=bool(bad)))
    return plans


def _spec_text(plan: _Plan) -> dict[int, str]:
    """What the font's own route gives for its good codes, so a new ToUnicode keeps them."""
    from .recover import usable_text

    out: dict[int, str] = {}
    if plan.info is None:
        return out
    for code in plan.usage.codes():
        if code in plan.bad:
            continue
        text = plan.info.to_unicode(code)
        if text is not None and usable_text(text):
            out[code] = text
    return out


def _named(plan: _Plan) -> dict[int, str]:
    """Codes whose present text is what their glyph name says (a simple font's encoding).

    Such a value is vouched for by the name: a ToUnicode shifted by a
    constant cannot give it, so it is not shifted back (a code the shifted
    ToUnicode left out reads through its name, 'space', and stays a space).
    """
    from .recover import _agl

    if plan.info is None:
        return {}
    out: dict[int, str] = {}
    for code, name in plan.info.glyph_names.items():
        text = plan.info.to_unicode(code)
        if text and text == _agl(name):
            out[code] = text
    return out


def _shift_base(plan: _Plan) -> dict[int, str]:
    """The present values of the font's codes that a shift back may move."""
    if plan.info is None:
        return {}
    named = _named(plan)
    return {
        c: t
        for c in plan.usage.codes()
        if (t := plan.info.to_unicode(c)) and named.get(c) != t
    }


#: Share of the glyphs whose program text and ToUnicode text must differ by one constant for
#: the font to count as shifted by it.
PROGRAM_SHIFT_SHARE = 0.9


def _program_shift(plan: _Plan, program: Mapping[int, str]) -> int | None:
    """The constant the font's ToUnicode values sit away from its program's, if there is one."""
    if plan.info is None:
        return None
    counts = plan.usage.codes()
    tally: dict[int, int] = {}
    total = 0
    for code, n in counts.items():
        now, right = plan.info.to_unicode(code), program.get(code)
        if not now or not right or len(now) != len(right):
            continue
        total += n
        steps = {ord(b) - ord(a) for a, b in zip(now, right, strict=True)}
        if len(steps) == 1:
            step = steps.pop()
            tally[step] = tally.get(step, 0) + n
    if not tally or total < 0.5 * sum(counts.values()):
        return None
    step, n = max(tally.items(), key=lambda kv: kv[1])
    return step if step and n >= PROGRAM_SHIFT_SHARE * total else None


def _recover(plan: _Plan, model: Any, lang: str | None, on_bad_page: bool) -> None:
    """Fill the plan's map from the file's own evidence, most certain source first.

    When the font's present text reads as no language on a page the
    classifier condemned (a scrambled or shifted ToUnicode), every code is
    open to replacement, but only by a map whose text the model accepts.
    Otherwise only the codes without a route are filled.
    """
    from . import langmodel, recover

    usage = plan.usage
    spec = _spec_text(plan)
    wrong = False
    if on_bad_page and spec:
        verdict = langmodel.judge(usage.text(spec), model, lang=lang)
        # Undecided on plenty of text (it looks like codes, not words) counts as wrong too.
        wrong = verdict.passes is False or (verdict.passes is None and verdict.pairs >= 20)
    # The font's own account (glyph names, cmap) naming most letters drawn as other letters
    # condemns the map as the classifier does, whatever the model makes of it: a scrambled
    # CJK map still reads as common ideographs.
    contradicted = on_bad_page and bool(spec) and _contradicted(plan)
    if wrong or contradicted:
        plan.bad = set(usage.codes())
    program = recover.from_program(usage)
    if program is not None:
        plan.program.append(program)
        if _program_heard(usage, spec, program.mapping, model, lang,
                          wrong=wrong, contradicted=contradicted):
            plan.add(program)
            if wrong or contradicted:
                plan.overruled = True
                plan.shift = _program_shift(plan, program.mapping)
    if plan.info is not None and usage.codes():
        # A Type0 font with a ToUnicode has its program read on the first question only.
        plan.info.recover(next(iter(usage.codes())))
    if plan.info is not None and plan.info.recovered:
        # The font analyser reads programs this module does not (CID-keyed CFF through the
        # character collection's tables).
        codes = usage.codes()
        found = {c: t for c, t in plan.info.recovered.items() if c in codes}
        if found:
            how = plan.info.route if plan.info.route in ("cmap", "post", "charset") else "charset"
            analysed = recover.Recovery(
                found,
                how,
                recover.coverage(usage, found),
                usage.glyphs,
                f"embedded {plan.info.program or 'font'} program",
            )
            plan.program.append(analysed)
            if plan.missing() and _program_heard(usage, spec, found, model, lang,
                                                 wrong=wrong, contradicted=contradicted):
                plan.add(analysed)
                if wrong or contradicted:
                    plan.overruled = True
                if (wrong or contradicted) and plan.shift is None:
                    plan.shift = _program_shift(plan, found)
    # The file's own map shifted back comes before reading codes as glyph ids: it keeps the
    # case the producer wrote, which a glyph-id offset can only guess (the letter-pair model
    # reads 'layout' and 'LAYOUT' alike, and offset -32 turns one into the other).
    if plan.missing() and (wrong or contradicted) and plan.info is not None:
        shifted = recover.from_order(usage, model, lang, base=_shift_base(plan))
        if shifted is not None:
            plan.add(shifted)
            # Codes their glyph names vouch for keep their text (no source of their own).
            plan.mapping.update({c: t for c, t in _named(plan).items() if c in plan.missing()})
            plan.shift = shifted.offset
    if plan.missing():
        order = recover.from_order(usage, model, lang)
        if order is not None and (order.source != "codes" or _codes_agree(plan, order.mapping)):
            plan.add_order(order)


def _codes_agree(plan: _Plan, codes: Mapping[int, str]) -> bool:
    """The codes-as-text reading agrees with the values the font keeps (those not condemned).

    That reading is a claim about the whole font: filling two holes of a
    heading whose other values it contradicts ('www' kept as its shifted
    'ZZZ') would hide the holes the document's offset repairs.
    """
    if plan.info is None:
        return True
    kept = {c: t for c, t in plan.drawn().items() if t and c not in plan.bad and c in codes}
    if not kept:
        return True
    same, total = _agreement(plan.usage.codes(), kept, codes)
    return same >= CONFIRM_SHARE * total


def _program_heard(
    usage: Any, spec: Mapping[int, str], found: Mapping[int, str], model: Any,
    lang: str | None, *, wrong: bool, contradicted: bool,
) -> bool:
    """May the program's reading replace a map the page's verdict condemned?

    A map that reads as no language yields to a program whose text passes.
    A map the program contradicts letter by letter yields also when the
    model cannot tell the two apart (a fallback font drawing one accented
    letter at a time inside another font's words: 'ỹ', 'ể' and 'ườ' fail
    alike), as long as the program's text reads no worse.
    """
    from . import langmodel, recover

    if not (wrong or contradicted):
        return True
    then = usage.text({**spec, **found})[: recover.VERIFY_CHARS]
    after = langmodel.judge(then, model, lang=lang)
    if after.passes or not contradicted:
        return bool(after.passes)
    if after.passes is None:
        return True
    now = usage.text(dict(spec))[: recover.VERIFY_CHARS]
    before = langmodel.judge(now, model, lang=lang)
    return not before.passes and after.margin >= before.margin and _junk(then) <= _junk(now)


def _contradicted(plan: _Plan) -> bool:
    """The font's own account names most letters it draws as other letters than its map gives
    (the classifier's cross-check, weighed on the codes the font draws)."""
    from .classifier import MIN_CONTRADICTED_CODES

    found = plan.info.contradiction if plan.info is not None else None
    if found is None:
        return False
    compared, wrong, distinct = found.weigh(plan.usage.codes())
    return bool(wrong * 2 > compared) and (distinct >= MIN_CONTRADICTED_CODES or wrong == compared)


#: Share of the glyphs of the fonts repaired by a shift that one offset must hold to be the
#: document's: a producer that shifts one font's ToUnicode shifts them all alike.
DOCUMENT_SHIFT_SHARE = 0.6
#: A font's text under another reading must beat its present text by this many nats per
#: letter pair (the prior is the other fonts or the program; the font's text only has to agree).
SHIFT_GAIN = 0.0
#: Fewest letter pairs of each reading their scores are compared on.
MIN_COMPARE_PAIRS = 6
#: Fewest letters a reading judged by the shape of its words must have.
MIN_WORD_LETTERS = 4
#: When both readings pass, the other must lead by this much to replace the present one.
PASSING_LEAD = 0.5


def _document_shift(plans: list[_Plan], model: Any, lang: str | None) -> int | None:
    """The offset that reads the most glyphs of the document's shifted fonts, when one dominates.

    Each font shifted back by the order source votes, with its glyphs, for
    every offset among those chosen under which its text passes the model,
    not only its own: a CJK font may pass under two offsets and pick the
    wrong one, while the document's other fonts pass under one only.
    """
    from . import langmodel, recover

    shifted = [p for p in plans if p.shift is not None and p.info is not None]
    offsets = sorted({p.shift for p in shifted if p.shift is not None})
    if not offsets:
        return None
    support: dict[int, tuple[int, float]] = {}
    for offset in offsets:
        glyphs, margins = 0, 0.0
        for plan in shifted:
            info = plan.info
            drawn = {c: t for c in plan.usage.codes() if (t := info.to_unicode(c))}
            moved = recover.offset_map(plan.usage, offset, base=_shift_base(plan))
            verdict = langmodel.judge(
                plan.usage.text({**drawn, **moved})[: recover.VERIFY_CHARS], model, lang=lang
            )
            if verdict.passes:
                glyphs += plan.usage.glyphs
                margins += verdict.margin * plan.usage.glyphs
        support[offset] = (glyphs, margins)
    best = max(offsets, key=lambda k: support[k])
    total = sum(p.usage.glyphs for p in shifted)
    return best if support[best][0] >= DOCUMENT_SHIFT_SHARE * total else None


def _junk(text: str) -> int:
    """Characters no text shows: controls, private use, unassigned, U+FFFD."""
    import unicodedata

    return sum(
        ch not in "\n\t"
        and (unicodedata.category(ch) in ("Cc", "Co", "Cn", "Cs") or ch == "\ufffd")
        for ch in text
    )


def _reads_better(now: str, then: str, model: Any, lang: str | None, *, shifted: bool) -> bool:
    """Does ``then`` (another reading of a font) read better than ``now`` (its present one)?

    It must not fail the letter-pair model nor add junk. Less junk than the
    present text (a shifted space or digit is a control character) decides,
    even if that text passes (two stray controls do not fail a heading). A
    font whose present text passes keeps it, unless the other passes too and
    either reads far better (a scramble within each case keeps enough letter
    pairs to pass) or the font was itself shifted back by another offset (two
    passing readings: the document's offset decides). Otherwise letters
    where there were none, or a better score decide. Passing alone does not:
    on a heading, symbol soup with more letter pairs may pass where the
    words, too few to judge, score better.
    """
    from . import langmodel

    after = langmodel.judge(then, model, lang=lang)
    junk_now, junk_then = _junk(now), _junk(then)
    if after.passes is False or junk_then > junk_now:
        return False
    if junk_now > junk_then:
        return True
    before = langmodel.judge(now, model, lang=lang)
    if _unspaced(now) or _unspaced(then):
        # A few ideographs or kana score no better than another few: a correct CJK heading
        # may score below its own +29 soup. Soup draws rare ideographs, text common ones.
        if shifted and before.passes and after.passes:
            return True
        return _more_common_han(now, then)
    if before.passes:
        return bool(after.passes) and (shifted or after.margin >= before.margin + PASSING_LEAD)
    if min(after.pairs, before.pairs or after.pairs) < MIN_COMPARE_PAIRS:
        # A score on a few letter pairs is noise ('פרק 3' scores below its soup); the shape
        # of the words is not: '1RWHV' and '§UJHU' are no words, 'Notes' and 'Ärger' are
        # (but 'oCa' from 'R&D' is not: too short, and a capital inside a word).
        from .recover import wordlike

        letters = sum(ch.isalpha() for ch in then)
        camel = any(a.islower() and b.isupper() for a, b in zip(then, then[1:], strict=False))
        return (
            letters >= MIN_WORD_LETTERS
            and not camel
            and wordlike(then) == 1.0
            and wordlike(now) < 0.5
        )
    if not before.pairs:
        return after.margin > 0
    return after.margin > before.margin + SHIFT_GAIN


#: Runs of a font whose context is read (each with the runs drawn just before and after it).
CONTEXT_RUNS = 200


#: Share of a font's runs that must sit between two runs of one other font for its letters
#: to be read inside that font's words.
SANDWICHED = 0.5


class _PageRuns:
    """Every planned font's runs on each page, in content order, and where each font's own
    runs stand in them (built once, on first use: a long book is walked once, not per font)."""

    def __init__(self, plans: list[_Plan]) -> None:
        self.plans = plans
        self.by_page: dict[int, list[tuple[int, int, _Plan, list[int]]]] = {}
        self.positions: dict[int, list[tuple[int, int]]] | None = None

    def of(self, target: _Plan) -> list[tuple[list[tuple[int, int, _Plan, list[int]]], int]]:
        """(the page's runs, the index of one of ``target``'s runs in them), in page order."""
        if self.positions is None:
            self.positions = {}
            for index, plan in enumerate(self.plans):
                if plan.info is None:
                    continue
                for number, runs in plan.usage.pages.items():
                    places = plan.usage.places.get(number, ())
                    self.by_page.setdefault(number, []).extend(
                        (place, index, plan, run) for place, run in zip(places, runs, strict=False)
                    )
            for number, drawn in self.by_page.items():
                drawn.sort(key=lambda item: (item[0], item[1]))
                for i, (_, _, plan, _) in enumerate(drawn):
                    self.positions.setdefault(id(plan), []).append((number, i))
        return [(self.by_page[page], i) for page, i in self.positions.get(id(target), [])]


def _in_context(
    page_runs: _PageRuns, target: _Plan, then: Mapping[int, str]
) -> tuple[str, str]:
    """The target font's runs between the runs drawn just before and after them on their
    page, under the target's present map and under ``then`` ('', '' unless most of its runs
    sit between two runs of one other font).

    A fallback font draws one accented letter at a time inside the main font's
    words ('Ng' 'ọ' 'n'): its own text is a list of letters no model can
    judge, its context is words. A heading over a body is no such thing: it
    has no run of the body's font before it, and its last letter and the
    body's first are no letter pair.
    """
    maps: dict[int, dict[int, str]] = {}

    def present(plan: _Plan) -> dict[int, str]:
        if id(plan) not in maps:
            maps[id(plan)] = {**plan.drawn(), **plan.mapping}
        return maps[id(plan)]

    now_parts: list[str] = []
    then_parts: list[str] = []
    runs = 0
    for drawn_runs, i in page_runs.of(target):
        runs += 1
        window = drawn_runs[max(0, i - 1): i + 2]
        if len(window) < 3 or window[0][2] is not window[2][2] or window[0][2] is target:
            continue
        for parts, own in ((now_parts, present(target)),
                           (then_parts, {**present(target), **then})):
            parts.append("".join(
                (own if other is target else present(other)).get(c, "")
                for _, _, other, run in window for c in run
            ))
        if len(now_parts) >= CONTEXT_RUNS:
            break
    if len(now_parts) < SANDWICHED * runs:
        return "", ""
    return "\n".join(now_parts), "\n".join(then_parts)


def _reads_better_in_context(
    page_runs: _PageRuns, plan: _Plan, then: Mapping[int, str], model: Any, lang: str | None
) -> bool:
    """Around the font's runs, the page reads better under ``then``: it passes, adds no junk,
    and scores higher (the neighbours' text is the same under both, so the font's letters
    decide)."""
    from . import langmodel

    now_text, then_text = _in_context(page_runs, plan, then)
    if now_text == then_text or _junk(then_text) > _junk(now_text):
        return False
    after = langmodel.judge(then_text, model, lang=lang)
    before = langmodel.judge(now_text, model, lang=lang)
    return bool(after.passes) and after.pairs >= MIN_COMPARE_PAIRS and (
        not before.passes or after.margin > before.margin
    )


def _unspaced(text: str) -> bool:
    """Most letters are of a script written without spaces (CJK, kana, Thai...)."""
    import unicodedata

    from .recover import _UNSPACED

    letters = [ch for ch in text if ch.isalpha()]
    unspaced = sum(unicodedata.name(ch, "").startswith(_UNSPACED) for ch in letters)
    return bool(letters) and unspaced > len(letters) / 2


#: Share of a text's Han characters that must be commonly used ones for it to read as text...
COMMON_HAN = 0.9
#: ...and at most this share for the text it replaces to read as soup.
SOUP_HAN = 0.75


def _is_han(ch: str) -> bool:
    return ("\u3400" <= ch <= "\u9fff" and not "\u4dc0" <= ch <= "\u4dff") or \
        "\uf900" <= ch <= "\ufaff"


#: A model whose alphabet holds this many ideographs writes in them (its own frequent ones).
MIN_MODEL_HAN = 10
#: The punctuation CJK text is written with (a shifted map gives the block's rarer marks).
_CJK_PUNCTUATION = frozenset(
    "、。〃々〆〇〈〉《》「」『』【】〔〕〜・ー（）！？：；，．％＆＋－＝～／［］｛｝＜＞　"
)


def _ordinary_cjk(ch: str) -> bool:
    """Kana, Hangul syllables, full-width letters and digits, and the usual CJK punctuation."""
    return (
        "\u3041" <= ch <= "\u3096" or "\u30a1" <= ch <= "\u30fa" or "\uac00" <= ch <= "\ud7a3"
        or "\uff10" <= ch <= "\uff19" or "\uff21" <= ch <= "\uff3a" or "\uff41" <= ch <= "\uff5a"
        or ch in _CJK_PUNCTUATION
    )


@functools.cache
def _common_han() -> frozenset[str]:
    """The commonly used Han characters: the reference profiles' groups, and the ideographs
    the CJK models keep as letters of their own (the most frequent, 年 and 的, are in no
    group)."""
    from . import langmodel

    model = langmodel.reference_model()  # the groups come with the reference profiles
    own: set[str] = set()
    for language in model.languages.values():
        han = {s for s in language.alphabet if len(s) == 1 and _is_han(s)}
        if len(han) >= MIN_MODEL_HAN:
            own |= han
    return langmodel.han_characters() | own


def _han_share(text: str) -> tuple[int, float]:
    """(characters of the CJK blocks in ``text``, share of them that are ordinary ones).

    Ordinary: commonly used Han characters, kana, Hangul syllables, the
    usual punctuation. A map shifted within these blocks gives rare
    ideographs, hexagrams, radicals, iteration and tone marks.
    """
    common = _common_han()
    cjk = [ch for ch in text if ord(ch) >= 0x2E80 and not 0xE000 <= ord(ch) <= 0xF8FF]
    ordinary = sum(ch in common or _ordinary_cjk(ch) for ch in cjk)
    return len(cjk), (ordinary / len(cjk) if cjk else 0.0)


def _more_common_han(now: str, then: str) -> bool:
    """``then`` is written in commonly used Han characters where ``now`` is not."""
    (n_now, s_now), (n_then, s_then) = _han_share(now), _han_share(then)
    return n_now >= 2 and n_then >= 2 and s_then >= COMMON_HAN and s_now <= SOUP_HAN


#: Latin ligatures (U+FB00-U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ).
_LATIN_LIGATURES = re.compile("[\ufb00-\ufb06]")


def _ligatures_as_written(plan: _Plan) -> dict[int, str]:
    """The plan's map, a Latin ligature found for a code (a program's cmap or glyph name)
    written as the font's present ToUnicode says the original was.

    As many proper characters as the ligature's letters (a shifted or
    permuted "ff": shaping producers, HarfBuzz, write the letters of the
    cluster) -> the letters. One character (the ligature moved by the
    offset the font was shifted by, even into unassigned code points) ->
    the ligature, as found. No evidence left (no value, private use,
    U+FFFD, a control such as U+0000, which poppler passes over to the
    glyph's name) -> the letters: the PDF reference's own ToUnicode example
    maps its ligature glyphs to "ff", "fi" and "ffl", poppler and PDFium show
    a simple font's ``fi`` name so when there is no ToUnicode, and most
    producers write them so (Word, LibreOffice, the TeX engines, Chromium,
    cairo and HarfBuzz-based ones write the cluster's letters); search finds
    "find" in them. (MuPDF writes the AGL's U+FB01: equal up to
    compatibility.)
    """
    import unicodedata

    from .recover import is_pua

    out = dict(plan.mapping)
    for code, text in plan.mapping.items():
        if not _LATIN_LIGATURES.search(text):
            continue
        letters = _LATIN_LIGATURES.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
        present = plan.written(code)
        as_written = bool(present) and not _junk(present or "") \
            and len(present or "") == len(letters) != len(text)
        unknown = not present or all(
            ch == "\ufffd" or is_pua(ch) or unicodedata.category(ch) == "Cc" for ch in present)
        if as_written or (unknown and len(text) == 1):
            out[code] = letters
    return out


def _same_kind(a: str, b: str) -> bool:
    """Characters of one kind: same length, same general category, letters of one script."""
    import unicodedata

    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        cat = unicodedata.category(x)
        if cat != unicodedata.category(y):
            return False
        if cat.startswith("L") and \
                unicodedata.name(x, "?").split()[0] != unicodedata.name(y, "?").split()[0]:
            return False
    return True


def _choices_as_written(plan: _Plan, mapping: dict[int, str]) -> dict[int, str]:
    """``mapping`` with the producer's own values back where a shifted map still shows them.

    The program's reading of a glyph is a guess among what it could stand
    for: one glyph often stands for several characters in its font's cmap
    (Arabic yeh U+064A and Farsi yeh U+06CC, U+00B7 and U+2219), and a
    producer may write another character of the same kind than the cmap
    gives (a '.' for B Nazanin's ',' glyph). A font whose ToUnicode sat a
    constant away from that reading (:attr:`_Plan.shift`) still carries what
    its producer wrote: moved back, it is kept when the cmap reaches the
    glyph by it, or when it is of the program's character's kind (category,
    script). Otherwise the program wins: a map that gave glyph ids as
    characters (Mac-standard order) moves accented letters back onto
    symbols and controls.
    """
    if plan.shift is None or plan.info is None:
        return mapping
    from .recover import usable_text

    choices = {c: t for found in plan.program for c, t in found.choices.items()}
    out = dict(mapping)
    for code, text in mapping.items():
        present = plan.written(code)
        if not present:
            continue
        moved = [ord(ch) + plan.shift for ch in present]
        if not all(0 < cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF for cp in moved):
            continue
        back = "".join(map(chr, moved))
        if back == text or not usable_text(back) or _junk(back):
            continue
        if back in choices.get(code, ()) or _same_kind(back, text):
            out[code] = back
    return out


def _compatible(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", text)


#: Share of the glyphs two readings of a font must agree on to confirm each other.
CONFIRM_SHARE = 0.9


def _agreement(counts: Mapping[int, int], a: Mapping[int, str],
               b: Mapping[int, str]) -> tuple[int, int]:
    """(glyphs drawn by codes both readings give alike, glyphs drawn by codes both give)."""
    both = [c for c in counts if c in a and c in b]
    return sum(counts[c] for c in both if a[c] == b[c]), sum(counts[c] for c in both)


def _confirms(usage: Any, a: Mapping[int, str], b: Mapping[int, str]) -> bool:
    """Two independent readings give the same text for nearly every glyph both cover."""
    counts = usage.codes()
    same, shared = _agreement(counts, a, b)
    if shared < 0.5 * sum(counts.values()):
        return False
    return same >= CONFIRM_SHARE * shared


def _programs_overrule(plans: list[_Plan]) -> bool:
    """Most glyphs of the fonts with a program reading on condemned pages were overruled by it.

    Then the document's ToUnicode maps are what is broken, and a font with too
    little text to be judged is more likely broken alike than right.
    """
    judged = [p for p in plans if p.program and p.on_bad_page]
    total = sum(p.usage.glyphs for p in judged)
    overruled = sum(p.usage.glyphs for p in judged if p.overruled)
    return bool(overruled) and overruled >= DOCUMENT_SHIFT_SHARE * total


def _program_reads_as_well(now: str, then: str, model: Any, lang: str | None) -> bool:
    """Under a document whose programs overrule its ToUnicode maps: the program's reading
    neither fails, nor adds junk, nor reads worse than the present text."""
    from . import langmodel

    after = langmodel.judge(then, model, lang=lang)
    if after.passes is False or _junk(then) > _junk(now):
        return False
    before = langmodel.judge(now, model, lang=lang)
    if before.passes and not after.passes:
        return False
    return not (before.passes and after.margin < before.margin)


def _settle_with_document(plans: list[_Plan], model: Any, lang: str | None) -> None:
    """Give the fonts their own text judged too thin to condemn the readings the rest supports.

    A font drawing a heading or a page number has too little text for the
    model to condemn its ToUnicode or pick an offset on its own (or several
    pass), so it stays wrong while the body beside it is repaired. Two
    readings are offered to every font with bad codes or on a condemned
    page: its values shifted back by the document's offset
    (:func:`_document_shift`), and its program's own map. One is taken
    when the font's text then reads better (:func:`_reads_better`), when
    the offset and the program agree on it, or, for the program's, when
    the document's other programs overruled their ToUnicode maps
    (:func:`_programs_overrule`) and it reads as well.
    """
    from . import recover

    offset = _document_shift(plans, model, lang)
    overrule = _programs_overrule(plans)
    # A font the model read by its character codes: the producer wrote the text's codes, and
    # its headings' fonts, too short to judge, are offered the same reading.
    by_codes = any("codes" in p.sources for p in plans)
    page_runs = _PageRuns(plans)
    for plan in plans:
        if not (plan.on_bad_page or plan.flagged) or plan.info is None:
            continue
        usage = plan.usage
        drawn = plan.drawn()
        now = {**drawn, **plan.mapping}
        program: dict[int, str] = {}
        for found in plan.program:
            program.update({c: t for c, t in found.mapping.items() if c not in program})
        readings: list[tuple[str, dict[int, str], str]] = []
        moved = (
            recover.offset_map(usage, offset, base=_shift_base(plan)) if offset is not None else {}
        )
        if offset is not None and plan.shift == offset:
            # Shifted by the document's offset, repaired from another source that left codes
            # out: those move back too.
            rest = {c: t for c, t in moved.items() if c not in plan.mapping}
            if rest:
                plan.bad |= set(rest)
                plan.mapping.update(rest)
            continue
        # An offset that leaves many proper values where they are (moved, they would not be
        # text) does not apply to this font; junk values (PUA, controls) say nothing.
        proper = [c for c, t in _shift_base(plan).items() if not _junk(t)]
        counts = usage.codes()
        if offset is not None and plan.shift != offset and sum(
            counts[c] for c in proper if c in moved
        ) >= recover.MIN_ORDER_COVERAGE * sum(counts[c] for c in proper):
            then = {**drawn, **moved} if plan.shift is not None else {**now, **moved}
            readings.append((
                "offset",
                then,
                f"ToUnicode values shifted back by {offset:+d}, the offset of the document's"
                " other shifted fonts",
            ))
        if program and plan.shift is None:
            source = plan.program[0].source
            # Where the present text is the program's up to compatibility (ffi and ﬃ), it stays.
            differ = {
                c: t for c, t in program.items() if _compatible(now.get(c, "")) != _compatible(t)
            }
            what = (
                "the glyph names of its encoding" if source == "encoding"
                else f"the embedded program's {source}"
            )
            readings.append((source, {**now, **differ}, what))
        # A whole reading, judged against the present one (not a filling of holes).
        codes = recover.codes_map(usage) if by_codes and not program else {}
        if codes and "codes" not in plan.sources:
            readings.append((
                "codes",
                {**now, **codes},
                "character codes read as WinAnsi characters, as the document's other fonts",
            ))
        for source, then, why in readings:
            if then == now:
                continue
            # (The model's verdict on a font's first pages is enough, and fast on a long book.)
            text_now = usage.text(now)[: recover.VERIFY_CHARS]
            text_then = usage.text(then)[: recover.VERIFY_CHARS]
            # The document's offset agreeing with an independent reading confirms it: the
            # program's, or the glyph order's that the font's own text chose (a short heading's
            # Mac-standard reading leaves out the accented letters the offset gives back).
            confirmed = source == "offset" and (
                (bool(program) and _confirms(usage, then, program))
                or (plan.shift is None and bool(plan.mapping) and not program
                    and _confirms(usage, moved, plan.mapping))
            )
            if source not in ("offset", "codes") and overrule and not plan.overruled:
                confirmed = _program_reads_as_well(text_now, text_then, model, lang)
            in_context = False
            if not confirmed and not _reads_better(
                text_now, text_then, model, lang, shifted=plan.shift is not None
            ):
                # A font too thin to judge alone (a fallback font's letters) is judged with
                # the words its letters sit in, for the offset the document's fonts proved.
                in_context = source == "offset" and _reads_better_in_context(
                    page_runs, plan, then, model, lang
                )
                if not in_context:
                    continue
            plan.bad = set(usage.codes())
            plan.mapping = {c: t for c, t in then.items() if recover.usable_text(t)}
            plan.unverified = set()
            plan.shift = offset if source == "offset" else plan.shift
            plan.sources = [source, *(s for s in plan.sources if s != source)]
            because = "the text around it reads better" if in_context else "the text reads better"
            if confirmed:
                because = (
                    "the document's other programs overrule their ToUnicode too"
                    if source != "offset"
                    else "the program agrees" if program else "the glyph order agrees"
                )
            plan.details.append(f"{why}: {because}")
            break
    if offset is not None:
        _follow_proven_offset(plans, offset)


#: Fewest letters of the thin CJK fonts, moved back, that the repaired fonts draw too...
MIN_SHARED_LETTERS = 2
#: ...and the share of their letters these must be (then the moved text is the document's).
SHARED_SHARE = 0.5


def _seen(text: str, vocab: set[str]) -> int:
    return sum(ch in vocab for ch in text)


def _follow_proven_offset(plans: list[_Plan], offset: int) -> None:
    """Move the unjudged CJK fonts of condemned pages together by an offset programs proved.

    A producer may draw a bold CJK heading through many Type3 fonts of one
    or two glyphs each, with no program: no font alone has text to judge
    (a shifted ideograph is still an ideograph), so each keeps its shifted
    values while the body beside it is repaired. When fonts whose programs
    overruled their maps show the document's offset, those thin fonts are
    judged as one text. Every one of them moves when, moved back, their
    ideographs are common ones where the present ones are not, or are mostly
    characters the repaired fonts draw (a heading says again what the body
    says) where the present ones are not, or when fonts of the same kind
    (no program) drawing as many glyphs were moved back by their own text;
    except a font whose own ideographs would become less common or less
    often drawn by the rest. A correct
    heading beside a shifted body reads as common ideographs already, and as
    the body's characters, and stays.
    """
    from . import recover

    if not any(p.overruled and p.shift == offset for p in plans):
        return
    group: list[tuple[_Plan, str, str, dict[int, str]]] = []
    for plan in plans:
        if (not plan.on_bad_page or plan.info is None or plan.mapping or plan.program
                or plan.shift is not None):
            continue
        usage = plan.usage
        base = _shift_base(plan)
        moved = recover.offset_map(usage, offset, base=base)
        counts = usage.codes()
        proper = [c for c, t in base.items() if not _junk(t)]
        if not proper or sum(counts[c] for c in proper if c in moved) < \
                recover.MIN_ORDER_COVERAGE * sum(counts[c] for c in proper):
            continue
        drawn = plan.drawn()
        now, then = usage.text(drawn), usage.text({**drawn, **moved})
        group.append((plan, now, then, moved))
    # Fonts of the same kind (no program) that their own text moved back by the offset: the
    # producer drew the heading with all of them, and the breaker shifted all of them alike;
    # their text joins the judgement.
    siblings = [
        p for p in plans
        if p.on_bad_page and not p.program and p.shift == offset and "offset" in p.sources
        and p.info is not None
    ]
    drawn_of = {
        id(p): p.drawn() for p in siblings
    }
    now = "\n".join([g[1] for g in group] + [p.usage.text(drawn_of[id(p)]) for p in siblings])
    then = "\n".join(
        [g[2] for g in group] + [p.usage.text({**drawn_of[id(p)], **p.mapping}) for p in siblings]
    )
    if not group or not (_unspaced(now) and _unspaced(then)) or _junk(then) > _junk(now):
        return
    # The characters the repaired fonts draw: a heading says again what the body says.
    vocab = {
        ch for p in plans if p.shift == offset and p.mapping
        for ch in "".join(p.mapping.values()) if ch.isalpha()
    }
    seen_now, seen_then = _seen(now, vocab), _seen(then, vocab)
    letters = sum(ch.isalpha() for ch in then)
    shared = (
        seen_then >= MIN_SHARED_LETTERS
        and seen_then >= SHARED_SHARE * letters
        and seen_then > 2 * seen_now
    )
    alike = sum(p.usage.glyphs for p in siblings) >= sum(g[0].usage.glyphs for g in group)
    if not (shared or alike or _more_common_han(now, then)):
        return
    for plan, font_now, font_then, moved in group:
        (n_now, s_now), (_, s_then) = _han_share(font_now), _han_share(font_then)
        if _junk(font_then) > _junk(font_now) or (n_now and s_then < s_now) or \
                _seen(font_now, vocab) > _seen(font_then, vocab):
            continue
        plan.bad = set(plan.usage.codes())
        plan.mapping = {c: t for c, t in moved.items() if recover.usable_text(t)}
        plan.shift = offset
        plan.sources = ["offset", *plan.sources]
        plan.details.append(
            f"ToUnicode values shifted back by {offset:+d}, the offset the document's programs"
            " show: the page's unjudged CJK fonts read as common ideographs together"
        )


#: Readings of a font's mapped letters that must disagree with its map to condemn it.
CONTRADICTION = 0.25
#: Fewest readings of mapped letters that such a judgement is made on.
MIN_CONTRADICTION_READINGS = 20


#: Sources that read a font by an order hypothesis (the codes' own numbers, moved or looked up).
_ORDER_SOURCES = frozenset({"offset", "mac-standard", "codes"})
#: Codes both an order hypothesis and glyph OCR map, at least, before OCR may overrule it.
MIN_OVERRULE_CODES = 4
#: Share of those codes on whose base letter the two disagree that overrules the order.
OVERRULE_SHARE = 0.5


def _overrule_order(plan: _Plan, found: Any) -> None:
    """Drop an order hypothesis the glyphs themselves contradict, so OCR's map replaces it.

    The letter-pair model accepts an order on a short text now and then (an
    italic phrase of thirty glyphs read through glyph ids - 17): when OCR
    reads most of the codes both map as other letters, the order was a
    coincidence, and all its codes go, not only those OCR saw.
    """
    if not plan.sources or not set(plan.sources) <= _ORDER_SOURCES:
        return
    compared = disagree = 0
    for code, text in found.mapping.items():
        now = plan.mapping.get(code)
        if now is None or len(text) != 1 or not text.isalnum():
            continue
        compared += 1
        disagree += _base(text) != _base(now)
    if compared < MIN_OVERRULE_CODES or disagree / compared <= OVERRULE_SHARE:
        return
    plan.mapping.clear()
    plan.unverified.clear()
    plan.sources.clear()
    plan.shift = None
    plan.details[:] = [f"an order hypothesis dropped: the glyphs read otherwise on "
                        f"{disagree} of {compared} codes"]


def _contradiction(plan: _Plan, found: Any) -> float | None:
    """Share of OCR readings of the font's mapped letters that read as another letter.

    A font whose declared map OCR contradicts draws the same code with two
    shapes, or its map is simply wrong for codes that look fine (letters
    named one thing, drawn as another): no ToUnicode can describe it, so its
    pages need whole-page OCR. None when there is no such evidence.
    """
    spec = _spec_text(plan)
    agree = disagree = 0
    for code, readings in found.readings.items():
        text = spec.get(code)
        if code in plan.mapping or text is None or len(text) != 1 or not text.isalpha():
            continue
        for reading in readings:
            if len(reading) != 1 or not reading.isalpha():
                continue
            if _base(reading) == _base(text):
                agree += 1
            else:
                disagree += 1
    total = agree + disagree
    if total < MIN_CONTRADICTION_READINGS or disagree / total <= CONTRADICTION:
        return None
    return disagree / total


def _width(plan: _Plan) -> int:
    if plan.info is not None:
        widths = {r[0] for r in plan.info.code_ranges}
        if len(widths) == 1:
            return int(next(iter(widths)))
    return int(plan.usage.width)


# --------------------------------------------------------------------------- language


#: Installed packs that stand in for a detected language of the same script when its own is missing.
_SCRIPT_FALLBACK = {
    **dict.fromkeys(("rus", "ukr", "bel", "bul", "mkd", "srp"), "rus"),
    "ell": "ell",
}


def _installed_or_fallback(code: str, installed: frozenset[str]) -> tuple[str, str | None]:
    """``code`` when installed, else an installed pack of the same script, with a note.

    Latin-script languages fall back to English, Cyrillic to Russian. A
    script with no installed pack at all is MissingOCR: OCR in another
    script would read nothing but garbage.
    """
    from . import ocr

    parts = code.split("+")
    missing = [p for p in parts if p not in installed]
    if not missing:
        return code, None
    kept = [p for p in parts if p in installed]
    for part in missing:
        stand_in = _SCRIPT_FALLBACK.get(part, "eng" if part in _LATIN else None)
        if stand_in is None or stand_in not in installed:
            raise ocr.missing_packs(missing)
        kept.append(stand_in)
    chosen = "+".join(dict.fromkeys(kept))
    packs = " ".join(ocr.debian_package(p) for p in missing)
    return (
        chosen,
        f"language pack {'+'.join(missing)} is missing; used {chosen} ({packs} reads it better)",
    )


#: ISO codes of the languages in TESSERACT_CODES that are not written in the Latin script.
_NOT_LATIN = (
    "ru",
    "uk",
    "be",
    "bg",
    "mk",
    "sr",
    "el",
    "ar",
    "fa",
    "he",
    "hi",
    "th",
    "zh",
    "ja",
    "ko",
)
#: Tesseract packs of languages written in the Latin script.
_LATIN = frozenset(c for iso, c in TESSERACT_CODES.items() if iso not in _NOT_LATIN)


def _choose_lang(
    lang: str | None, readable_text: str, page_images: Iterator[Any], notes: list[str]
) -> tuple[str, str]:
    """Tesseract language and how it was chosen: given, from the text, from OSD, or eng.

    A language the user gives must be installed (MissingOCR otherwise); a
    detected one may stand in with an installed pack of its script, noted.
    """
    from . import langmodel, ocr

    if lang:
        code = ocr.tesseract_lang(lang)
        ocr.require(code)
        return code, "given"
    installed = ocr.tesseract_info().languages
    if readable_text.strip():
        best = langmodel.best_language(readable_text)
        if best:
            codes = [ocr.TESSERACT_CODES.get(p) for p in best.split("+")]
            known = [c for c in codes if c]
            if known:
                code, note = _installed_or_fallback("+".join(dict.fromkeys(known)), installed)
                if note:
                    notes.append(note)
                return code, "from the document's readable text"
    for page in page_images:
        image, top = _text_band(page)
        script = ocr.detect_script(image) or "eng"
        ocr.require(script)
        # A first pass in the script's default language, then the model names the language;
        # when that is the script's own language, glyph OCR uses the band's reading too.
        chars = ocr.recognise(image, script)
        ocr.remember_band(page, script, top, top + image.height, chars)
        best = langmodel.best_language(ocr.chars_text(chars))
        found = ocr.TESSERACT_CODES.get((best or "").split("+")[0])
        if found and found in installed:
            return found, "from a first OCR pass of the page"
        return script, "from Tesseract's script detection"
    return "eng", "default"


#: Height of the band of text the language is guessed from, in pixels at 300 dpi (a third
#: of an A4 page's text): enough words to name the language, a third of the time of a page.
LANG_BAND = 1000


def _text_band(image: Any) -> tuple[Any, int]:
    """The first :data:`LANG_BAND` pixels of the page's inked area, full width, and its top."""
    ink = image.point(lambda v: 255 if v < 128 else 0).getbbox()
    if ink is None:
        return image, 0
    top = ink[1]
    return image.crop((0, top, image.width, min(image.height, top + LANG_BAND))), top


def _page_images(data: bytes, indices: list[int]) -> Iterator[Any]:
    import pypdfium2

    doc = pypdfium2.PdfDocument(data)
    try:
        for index in indices:
            yield doc[index].render(scale=300 / 72).to_pil().convert("L")
    finally:
        doc.close()


# --------------------------------------------------------------------------- repair


def repair(
    in_pdf: str | os.PathLike[str],
    out_pdf: str | os.PathLike[str],
    *,
    ocr: str = "auto",
    lang: str | None = None,
    settings: CheckSettings | None = None,
) -> RepairReport:
    """Write a copy of ``in_pdf`` whose text layer reads right, as far as can be done.

    ``ocr``: ``"auto"`` (OCR only what nothing else repairs), ``"never"``
    (no Tesseract at all), ``"force"`` (every page not OK in IN goes through
    OCRmyPDF, even if a /ToUnicode made it readable). ``lang``: the
    document's language (ISO 639-1 or Tesseract code) for OCR; by default it
    comes from the document's readable text, else Tesseract's script
    detection, else English.

    Raises InputError (unreadable, encrypted or damaged IN), UsageError
    (bad arguments, OUT == IN, unwritable OUT) and MissingOCR (OCR needed
    but Tesseract or the language pack is missing). Nothing is written then.
    """
    from . import langmodel, recover, tounicode_writer
    from . import ocr as ocrlib
    from .classifier import classify_or_raise
    from .source import open_pikepdf, read_source

    if ocr not in OCR_MODES:
        raise UsageError(f"--ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    settings = settings or CheckSettings()
    if lang is not None:
        try:
            ocrlib.tesseract_lang(lang)
        except ValueError as exc:
            raise UsageError(f"--lang: {exc}") from None
    src, dst = _check_paths(in_pdf, out_pdf)
    source = read_source(src)
    before = classify_or_raise(source.data, settings=settings, name=str(src))
    pdf = open_pikepdf(source)
    keep: list[Any] = []
    try:
        return _repair_open(
            pdf,
            source.data,
            before,
            src,
            dst,
            ocr,
            lang,
            settings,
            keep,
            langmodel=langmodel,
            ocrlib=ocrlib,
            recover=recover,
            writer=tounicode_writer,
            classify=classify_or_raise,
        )
    except (TextLayerError, OSError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged file the checks let through: one line
        problem = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        raise InputError(
            str(src),
            f"cannot be repaired ({problem}): a damaged file, or a pytest-textlayer bug to report",
        ) from exc
    finally:
        pdf.close()
        for other in keep:
            other.close()


def _repair_open(
    pdf: Any,
    data: bytes,
    before: DocumentReport,
    src: Path,
    dst: Path,
    ocr: str,
    lang: str | None,
    settings: CheckSettings,
    keep: list[Any],
    *,
    langmodel: Any,
    ocrlib: Any,
    recover: Any,
    writer: Any,
    classify: Any,
) -> RepairReport:
    from . import glyphocr

    bad_before = {p.number - 1 for p in before.pages if not p.ok}
    model = langmodel.reference_model()
    model_lang = settings.lang
    plans = _plans(pdf, bad_before)
    notes: list[str] = []
    for plan in plans:
        plan.on_bad_page = bool(bad_before & set(plan.usage.pages))
        _recover(plan, model, model_lang, plan.on_bad_page)
    _settle_with_document(plans, model, model_lang)
    ocr_desc: str | None = None
    tess_lang: str | None = None
    #: Pages drawn by a font whose own map the glyphs contradict: no ToUnicode can fix those.
    contradicted: set[int] = set()
    open_plans = [p for p in plans if p.missing() or p.unverified]
    if open_plans and ocr != "never":
        try:
            info = ocrlib.tesseract_info()
            readable = "\n".join(
                [p.sample for p in before.pages if p.verdict is Verdict.READABLE]
                + [p.usage.text(p.mapping) for p in plans if p.mapping]
            )
            pages = sorted({i for p in open_plans for i in p.usage.pages})
            tess_lang, how = _choose_lang(lang, readable, iter(()), notes)
            if how == "default":  # nothing names it: glyph OCR's first pass, else the page's
                tess_lang, how = glyphocr.choose_lang(data, [p.usage for p in open_plans]) \
                    or _choose_lang(lang, readable, _page_images(data, pages[:1]), notes)
            ocr_desc = ocrlib.describe(info, tess_lang, how)
            found = glyphocr.from_glyphs(data, [p.usage for p in open_plans], tess_lang)
            for plan in open_plans:
                if plan.usage.key in found:
                    _overrule_order(plan, found[plan.usage.key])
                    plan.correct(found[plan.usage.key])
                    plan.add(found[plan.usage.key])
                    share = _contradiction(plan, found[plan.usage.key])
                    if share is not None:
                        contradicted.update(plan.usage.pages)
                        notes.append(
                            f"font {plan.usage.name}: OCR reads {share:.0%} of its mapped letters"
                            " as other letters; its pages are OCR'd whole"
                        )
        except MissingOCR:
            if ocr == "force":
                raise
            notes.append("glyph OCR skipped: Tesseract or the language pack is missing")
    fonts: list[FontRepair] = []
    repaired_pages: dict[int, set[str]] = {}
    for plan in plans:
        if not plan.mapping:
            continue
        full = {**_spec_text(plan), **_choices_as_written(plan, _ligatures_as_written(plan))}
        writer.attach(pdf, plan.usage.font, full, width=_width(plan))
        total, bad, fixed = plan.glyph_counts()
        if not plan.bad:
            bad = fixed = total
        fonts.append(
            FontRepair(
                plan.usage.name,
                plan.sources[0],
                tuple(dict.fromkeys(plan.sources)),
                total,
                bad,
                fixed,
                tuple(i + 1 for i in sorted(plan.usage.pages)),
                "; ".join(plan.details),
            )
        )
        for index in plan.usage.pages:
            repaired_pages.setdefault(index, set()).update(plan.sources)

    middle = classify(_pdf_bytes(pdf), settings=settings, name=str(dst)) if fonts else before
    todo: dict[int, str] = {}
    for page in middle.pages:
        index = page.number - 1
        forced = (ocr == "force" and index in bad_before) or index in contradicted
        needed = not page.ok and ocr != "never" and page.verdict is not Verdict.BLANK
        if forced or needed:
            todo[index] = "plain" if page.verdict is Verdict.ABSENT else "force"
    if todo:
        if tess_lang is None:
            info = ocrlib.tesseract_info()
            readable = "\n".join(p.sample for p in middle.pages if p.verdict is Verdict.READABLE)
            images = _page_images(_pdf_bytes(pdf), sorted(todo)[:1])
            tess_lang, how = _choose_lang(lang, readable, images, notes)
            ocr_desc = ocrlib.describe(info, tess_lang, how)
        keep.extend(ocrlib.ocr_pages(pdf, todo, tess_lang))
    # Nothing changed: OUT is IN, byte for byte, not a rewrite of it. OUT is classified
    # before it takes its name: one that cannot be read again is not written.
    written: list[DocumentReport] = []
    _write_atomically(
        pdf, dst, src, same=None if fonts or todo else data,
        verify=lambda path: written.append(classify(str(path), settings=settings, name=str(dst))),
    )
    after = written[0]
    story = tuple(
        _page_repair(b, a, todo, repaired_pages)
        for b, a in zip(before.pages, after.pages, strict=True)
    )
    return RepairReport(
        str(src), str(dst), story, tuple(fonts), ocr_desc, ocr, True, after, tuple(notes)
    )


def _page_repair(
    before: PageReport, after: PageReport, todo: Mapping[int, str], repaired: Mapping[int, set[str]]
) -> PageRepair:
    index = before.number - 1
    sources: tuple[str, ...]
    if index in todo:
        action, sources = "ocr", ("ocrmypdf-" + todo[index],)
    elif index in repaired:
        action, sources = "tounicode", tuple(sorted(repaired[index]))
    else:
        action, sources = "unchanged", ()
    return PageRepair(
        before.number,
        action,
        sources,
        before.verdict,
        after.verdict,
        after.ok,
        before.sample,
        after.sample,
        after.evidence,
    )


__all__ = ["FontRepair", "PageRepair", "RepairReport", "repair"]
