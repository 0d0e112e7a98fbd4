"""Tesseract and OCRmyPDF, used only where a text layer cannot be repaired otherwise.

Two uses:

* :func:`recognise` reads one rendered page with Tesseract's hOCR output and
  its per-character boxes; :mod:`.recover` aligns those characters with the
  glyph codes drawn there to build a ToUnicode (the page stays vector).
* :func:`ocr_pages` runs OCRmyPDF on the pages that still cannot be read —
  ``--force-ocr`` for pages whose visible text is garbage, plain OCR for
  pages that are only images — and puts those pages back into the document,
  so readable pages are never rasterised.

Glyph OCR's readings go through Tesseract kept loaded in this process
(:mod:`.tessapi`) when tesserocr is installed and built on the program's own
Tesseract, else through the ``tesseract`` program. A missing Tesseract or language pack is a
:class:`~.errors.MissingOCR` that names the Debian package to install (exit
status 3).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import MissingOCR, TextLayerError

#: ISO 639-1 code -> Tesseract traineddata name (and Debian's tesseract-ocr-NAME package).
TESSERACT_CODES: dict[str, str] = {
    "en": "eng",
    "fr": "fra",
    "de": "deu",
    "es": "spa",
    "it": "ita",
    "pt": "por",
    "nl": "nld",
    "pl": "pol",
    "cs": "ces",
    "sk": "slk",
    "sl": "slv",
    "hr": "hrv",
    "sr": "srp",
    "ro": "ron",
    "hu": "hun",
    "fi": "fin",
    "sv": "swe",
    "da": "dan",
    "no": "nor",
    "nb": "nor",
    "is": "isl",
    "et": "est",
    "lv": "lav",
    "lt": "lit",
    "ru": "rus",
    "uk": "ukr",
    "be": "bel",
    "bg": "bul",
    "mk": "mkd",
    "el": "ell",
    "tr": "tur",
    "ca": "cat",
    "eu": "eus",
    "gl": "glg",
    "ga": "gle",
    "cy": "cym",
    "la": "lat",
    "ar": "ara",
    "fa": "fas",
    "he": "heb",
    "hi": "hin",
    "th": "tha",
    "vi": "vie",
    "id": "ind",
    "ms": "msa",
    "zh": "chi_sim",
    "ja": "jpn",
    "ko": "kor",
}
#: Chinese subtags (BCP 47 script or region) -> the pack of the characters written there.
_CHINESE = {"hans": "chi_sim", "cn": "chi_sim", "sg": "chi_sim",
            "hant": "chi_tra", "tw": "chi_tra", "hk": "chi_tra", "mo": "chi_tra"}


def pack_of(tag: str) -> str | None:
    """The Tesseract pack of a language tag, or None for a language it has no pack for.

    Tags come from a catalog's /Lang (``ru-RU``, ``zh-Hant-TW``), a user or the
    letter-pair model (``zh-cn``, ``zh-tw``). Only Chinese needs its subtags:
    its two packs read different characters, and a Traditional text read in
    ``chi_sim`` comes back as other characters.
    """
    parts = tag.strip().replace("_", "-").lower().split("-")
    if parts[0] in ("zh", "zho", "chi"):
        return next((_CHINESE[p] for p in parts[1:] if p in _CHINESE), "chi_sim")
    return TESSERACT_CODES.get(parts[0])


#: Script Tesseract's OSD reports -> the language pack that reads it best by default.
SCRIPT_LANG = {
    "Latin": "eng",
    "Cyrillic": "rus",
    "Greek": "ell",
    "Arabic": "ara",
    "Hebrew": "heb",
    "Han": "chi_sim",
    "Japanese": "jpn",
    "Korean": "kor",
}
#: Resolution pages are rendered at for character recognition.
OCR_DPI = 300
#: Seconds one Tesseract or OCRmyPDF run may take before it is given up.
TIMEOUT = 600


@dataclass(frozen=True)
class TesseractInfo:
    version: str
    languages: frozenset[str]
    #: The folder the program reads its packs from, as it names it: the in-process engine
    #: (:mod:`.tessapi`) reads the same packs.
    tessdata: str | None = None


def debian_package(lang: str) -> str:
    return "tesseract-ocr-" + lang.replace("_", "-").lower()


@functools.lru_cache(maxsize=1)
def _probe(program: str) -> TesseractInfo | None:
    exe = shutil.which(program)
    if exe is None:
        return None
    try:
        ver = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
        langs = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    first = (ver.stdout or ver.stderr).strip().splitlines()
    version = first[0].split()[-1] if first else "unknown"
    names = [ln.strip() for ln in langs.stdout.splitlines()[1:] if ln.strip()]
    folder = re.search(r'"([^"]+)"', langs.stdout.split("\n", 1)[0])
    return TesseractInfo(version, frozenset(names), folder.group(1) if folder else None)


def tesseract_program() -> str:
    """The Tesseract executable (``TEXTLAYER_TESSERACT`` overrides it: tests, odd installs)."""
    return os.environ.get("TEXTLAYER_TESSERACT", "tesseract")


def tesseract_info() -> TesseractInfo:
    """Version and installed languages, or MissingOCR naming the package to install."""
    info = _probe(tesseract_program())
    if info is None:
        raise MissingOCR("Tesseract OCR", "apt-get install tesseract-ocr")
    return info


def tesseract_lang(code: str) -> str:
    """A user's language code (ISO 639-1 ``fr``, Tesseract ``fra``, ``eng+fra``) for Tesseract."""
    parts = [p.strip().lower() for p in code.split("+") if p.strip()]
    if not parts:
        raise ValueError(f"empty language code {code!r}")
    return "+".join(pack_of(p) or p for p in parts)


def require(lang: str) -> TesseractInfo:
    """Check Tesseract and every pack of ``lang`` (Tesseract form) are installed."""
    info = tesseract_info()
    missing = [p for p in lang.split("+") if p not in info.languages]
    if missing:
        raise missing_packs(missing)
    return info


def missing_packs(missing: list[str]) -> MissingOCR:
    """The error for Tesseract packs that are not installed, naming the Debian packages."""
    return MissingOCR(
        f"Tesseract language pack {'+'.join(missing)!r}",
        "apt-get install " + " ".join(debian_package(p) for p in missing),
    )


def ocrmypdf_available() -> bool:
    try:
        import ocrmypdf  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- characters


@dataclass(frozen=True)
class OcrChar:
    """One character Tesseract recognised, with its box in image pixels (top-left origin)."""

    text: str
    box: tuple[float, float, float, float]
    conf: float
    word: int
    line: int
    #: The candidates Tesseract weighed for this character, with confidences (lstm_choice_mode).
    choices: tuple[tuple[str, float], ...] = ()
    #: Tesseract's confidence in the word the character is in: low where the pack is not the
    #: script's, whose characters it still reads with confidence, each as some letter it knows.
    word_conf: float = 0.0


_BBOX = re.compile(r"(?:bbox|x_bboxes)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)")
_CONF = re.compile(r"x_conf\s+([\d.]+)")
_CHOICE_CONF = re.compile(r"x_confs\s+([\d.]+)")
_WORD_CONF = re.compile(r"x_wconf\s+([\d.]+)")


def parse_hocr(data: str) -> list[OcrChar]:
    """Characters of a Tesseract hOCR document made with ``hocr_char_boxes=1``."""
    root = ET.fromstring(data)
    # (character, its candidates): the candidates follow the character they belong to,
    # and are gathered before the frozen character is made (six or so a character: making
    # it again for each cost more than all the rest of the parse).
    found: list[tuple[OcrChar, list[tuple[str, float]]]] = []
    word_no = line_no = 0
    word_conf = 0.0
    for elem in root.iter():
        cls = elem.get("class", "")
        if cls in ("ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"):
            line_no += 1
        elif cls == "ocrx_word":
            word_no += 1
            found_conf = _WORD_CONF.search(elem.get("title", ""))
            word_conf = float(found_conf.group(1)) if found_conf else 0.0
        elif cls == "ocrx_cinfo" and "x_confs" in elem.get("title", "") and found:
            # One of the candidates Tesseract weighed for the character just read.
            weight = _CHOICE_CONF.search(elem.get("title", ""))
            found[-1][1].append(
                ("".join(elem.itertext()), float(weight.group(1)) if weight else 0.0)
            )
        elif cls == "ocrx_cinfo":
            title = elem.get("title", "")
            box = _BBOX.search(title)
            conf = _CONF.search(title)
            text = "".join(elem.itertext())
            if box and text.strip():
                x0, y0, x1, y1 = (float(v) for v in box.groups())
                char = OcrChar(
                    text, (x0, y0, x1, y1), float(conf.group(1)) if conf else 0.0, word_no,
                    line_no, word_conf=word_conf,
                )
                found.append((char, []))
    return [
        dataclasses.replace(char, choices=tuple(choices)) if choices else char
        for char, choices in found
    ]


def chars_text(chars: Iterable[OcrChar]) -> str:
    """The recognised text: words joined by spaces, lines by newlines."""
    out: list[str] = []
    last: OcrChar | None = None
    for ch in chars:
        if last is not None:
            if ch.line != last.line:
                out.append("\n")
            elif ch.word != last.word:
                out.append(" ")
        out.append(ch.text)
        last = ch
    return "".join(out)


def _env() -> dict[str, str]:
    """Tesseract's environment: one OpenMP thread unless told otherwise.

    Tesseract's threads fight each other and every other process on a busy
    machine (a page took 3.2 s with them, 1.8 s without, on two loaded
    cores); OCRmyPDF sets the same limit for its own Tesseract runs.
    """
    env = dict(os.environ)
    env.setdefault("OMP_THREAD_LIMIT", "1")
    return env


def _run(args: list[str], what: str) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, env=_env())
    except FileNotFoundError:
        raise MissingOCR("Tesseract OCR", "apt-get install tesseract-ocr") from None
    except subprocess.TimeoutExpired:
        raise TextLayerError(f"{what} took longer than {TIMEOUT} s") from None
    return done


#: The last few pages read, by (image digest, language): choosing the language reads the
#: first page in its script's language, and glyph OCR must not read it again in the same one.
_READ: dict[tuple[str, str], list[OcrChar]] = {}
_READ_KEEP = 4


def recognise(image: Any, lang: str, *, block: bool = False) -> list[OcrChar]:
    """Tesseract's characters on a PIL image, with boxes and confidences.

    ``block``: the image is one block of lines, as a specimen sheet is by
    construction; Tesseract's page layout analysis (columns, blocks, tables)
    is skipped, which cut a sheet's reading time by 5-10 %.
    """
    require(lang)
    key = (_digest(image), lang) if not block else (_digest(image), lang + ":block")
    if key not in _READ:
        while len(_READ) >= _READ_KEEP:
            _READ.pop(next(iter(_READ)))
        _READ[key] = _recognise(image, lang, block=block)
    return list(_READ[key])


#: Bands of pages read while choosing the language: (page digest, language) -> (top, bottom,
#: characters in page pixels).
_BANDS: dict[tuple[str, str], tuple[float, float, list[OcrChar]]] = {}


def _digest(image: Any) -> str:
    import hashlib

    return hashlib.sha256(repr((image.size, image.mode)).encode() + image.tobytes()).hexdigest()


def remember_band(page: Any, lang: str, top: float, bottom: float, chars: list[OcrChar]) -> None:
    """Keep what was read on a horizontal band of ``page`` (band pixels, moved to the page)."""
    while len(_BANDS) >= _READ_KEEP:
        _BANDS.pop(next(iter(_BANDS)))
    moved = [
        dataclasses.replace(c, box=(c.box[0], c.box[1] + top, c.box[2], c.box[3] + top))
        for c in chars
    ]
    _BANDS[(_digest(page), lang)] = (top, bottom, moved)


def band_read(page: Any, lang: str) -> tuple[float, float, list[OcrChar]] | None:
    """A band of this page read earlier in this language: (top, bottom, characters)."""
    # No band kept (glyph OCR chose the language itself): no page's pixels to hash.
    return _BANDS.get((_digest(page), lang)) if _BANDS else None


def already_read(image: Any, lang: str, *, block: bool = False) -> list[OcrChar] | None:
    """What :func:`recognise` read on this image in this language earlier, if it still knows."""
    kind = lang + ":block" if block else lang
    if not any(key[1] == kind for key in _READ):
        return None  # nothing read in this language: no page's pixels to hash
    found = _READ.get((_digest(image), kind))
    return None if found is None else list(found)


def _write_image(image: Any, folder: str) -> Path:
    """The image as a file Tesseract reads: PNM, not PNG.

    Tesseract decodes either as fast, but PNG's compression cost this process
    15-20 ms a picture (more than the rest of a page's Python work on glyph boxes)
    for a file that is deleted a moment later.
    """
    path = Path(folder, "page.pnm")
    (image if image.mode in ("1", "L", "RGB") else image.convert("RGB")).save(path, "PPM")
    return path


#: Tesseract's variables for reading characters: a box for each, and the candidates behind
#: each (a glyph two codes share is told apart).
HOCR_VARIABLES = {"hocr_char_boxes": "1", "lstm_choice_mode": "2"}
#: Tesseract's variables for script detection: twenty characters name the script as surely
#: as fifty, in half the time.
OSD_VARIABLES = {"min_characters_to_try": "20"}
#: Page segmentation modes: the page's own layout analysis, or one block of lines.
PSM_AUTO, PSM_BLOCK = 3, 6


def kept_engine(info: TesseractInfo) -> str | None:
    """The packs folder readings go through Tesseract kept in this process (:mod:`.tessapi`)
    with, or None when the program reads.

    Only when tesserocr is built on the program's own Tesseract version: another version
    reads some letters otherwise (the 5.5 that tesserocr's wheel bundles reads the ё of
    "вернётся" as е where Debian's 5.3 program reads it right), and the engine is there to
    read faster, not differently. ``pip install --no-binary tesserocr tesserocr`` builds it
    on the system's Tesseract.
    """
    from . import tessapi

    return info.tessdata if tessapi.version() == info.version else None


def _recognise(image: Any, lang: str, *, block: bool = False) -> list[OcrChar]:
    """Read through the engine kept in this process, else through the program."""
    from . import tessapi

    psm = PSM_BLOCK if block else PSM_AUTO
    folder = kept_engine(tesseract_info())
    if folder is not None:
        try:
            return parse_hocr(tessapi.hocr(image, folder, lang, psm, _dpi(HOCR_VARIABLES)))
        except tessapi.Unavailable:
            pass
    return parse_hocr(_recognise_program(image, lang, psm))


def _dpi(variables: Mapping[str, str]) -> dict[str, str]:
    """The variables with the pictures' resolution, which the program takes as ``--dpi``."""
    return {**variables, "user_defined_dpi": str(OCR_DPI)}


def _settings(variables: Mapping[str, str]) -> list[str]:
    return [arg for name, value in variables.items() for arg in ("-c", f"{name}={value}")]


def _recognise_program(image: Any, lang: str, psm: int) -> str:
    """The hOCR document of the ``tesseract`` program's reading."""
    with tempfile.TemporaryDirectory(prefix="textlayer-ocr-") as tmp:
        picture = _write_image(image, tmp)
        base = Path(tmp, "out")
        done = _run(
            [
                tesseract_program(),
                str(picture),
                str(base),
                *(["--psm", str(psm)] if psm != PSM_AUTO else []),
                "-l",
                lang,
                "--dpi",
                str(OCR_DPI),
                *_settings(HOCR_VARIABLES),
                "hocr",
            ],
            "Tesseract",
        )
        out = base.with_suffix(".hocr")
        if done.returncode != 0 or not out.exists():
            raise TextLayerError(f"Tesseract failed: {_last_line(done.stderr)}")
        return out.read_text(encoding="utf-8")


def detect_script(image: Any) -> str | None:
    """The language pack for the script Tesseract's OSD sees on the image, if it can tell."""
    info = tesseract_info()
    if "osd" not in info.languages:
        return None
    name = _script(image, info)
    return SCRIPT_LANG.get(name) if name else None


def _script(image: Any, info: TesseractInfo) -> str | None:
    """The script OSD names, through the engine kept in this process, else the program."""
    from . import tessapi

    folder = kept_engine(info)
    if folder is not None:
        try:
            return tessapi.script(image, folder, _dpi(OSD_VARIABLES))
        except tessapi.Unavailable:
            pass
    with tempfile.TemporaryDirectory(prefix="textlayer-osd-") as tmp:
        picture = _write_image(image, tmp)
        done = _run(
            [tesseract_program(), str(picture), "-", "--psm", "0", "--dpi", str(OCR_DPI),
             *_settings(OSD_VARIABLES)],
            "Tesseract OSD",
        )
    match = re.search(r"Script:\s*(\w+)", done.stdout + done.stderr)
    return match.group(1) if match else None


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else "no message"


# --------------------------------------------------------------------------- whole pages


def _subset(data: bytes, indices: list[int], path: Path) -> None:
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as src, pikepdf.new() as out:
        for index in indices:
            out.pages.append(src.pages[index])
        out.save(path)


def _ocrmypdf(src: Path, dst: Path, lang: str, *, force: bool) -> None:
    args = [
        sys.executable,
        "-m",
        "ocrmypdf",
        "-l",
        lang,
        "--output-type",
        "pdf",
        "--optimize",
        "0",
        "--jobs",
        "1",
        "--quiet",
    ]
    args.append("--force-ocr" if force else "--skip-text")
    done = _run(args + [str(src), str(dst)], "OCRmyPDF")
    if done.returncode == 3:
        raise MissingOCR("Tesseract OCR (as OCRmyPDF needs it)", "apt-get install tesseract-ocr")
    if done.returncode != 0 or not dst.exists():
        raise TextLayerError(f"OCRmyPDF failed (exit {done.returncode}): {_last_line(done.stderr)}")


def ocr_pages(pdf: Any, modes: Mapping[int, str], lang: str) -> list[Any]:
    """OCR the 0-based pages of the open pikepdf ``pdf`` in place.

    ``modes`` maps a page index to ``"force"`` (rasterise visible garbage,
    add an OCR layer) or ``"plain"`` (an image-only page: add the layer).
    Only those pages are written out for OCRmyPDF; the rest of the
    document never leaves pikepdf, so its vector text stays as it was.
    Returns the opened OCR outputs: qpdf copies their stream data only when
    ``pdf`` is saved, so the caller closes them after saving.
    """
    import io

    import pikepdf

    if not modes:
        return []
    require(lang)
    if not ocrmypdf_available():
        raise MissingOCR("OCRmyPDF", "pip install 'pytest-textlayer[ocr]'")
    buf = io.BytesIO()
    pdf.save(buf)
    data = buf.getvalue()
    opened: list[Any] = []
    with tempfile.TemporaryDirectory(prefix="textlayer-ocrmypdf-") as tmp:
        for mode in ("force", "plain"):
            indices = sorted(i for i, m in modes.items() if m == mode)
            if not indices:
                continue
            src, dst = Path(tmp, f"{mode}-in.pdf"), Path(tmp, f"{mode}-out.pdf")
            _subset(data, indices, src)
            _ocrmypdf(src, dst, lang, force=mode == "force")
            # Read into memory: the temporary folder goes before the caller saves.
            done = pikepdf.open(io.BytesIO(dst.read_bytes()))
            opened.append(done)
            for position, index in enumerate(indices):
                pdf.pages[index] = done.pages[position]
    return opened


def describe(info: TesseractInfo, lang: str, how: str, *, glyphs: bool = False) -> str:
    """The OCR named in a repair's report. ``glyphs``: glyph OCR reads, in this process when
    :func:`kept_engine` says so; OCRmyPDF always runs the program."""
    from . import tessapi

    kept = tessapi.version() if glyphs and kept_engine(info) is not None else None
    engine = f"Tesseract {kept} (tesserocr)" if kept else f"Tesseract {info.version}"
    return f"{engine}, language {lang} ({how})"


def install_hint(langs: Iterable[str]) -> str:
    return "apt-get install tesseract-ocr " + " ".join(debian_package(x) for x in langs)
