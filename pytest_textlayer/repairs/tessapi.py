"""Tesseract kept loaded in this process (tesserocr), where that package is installed.

Why: the ``tesseract`` program starts a process and loads its language pack
(its recogniser, dictionaries and ambiguity tables) on every run before it
reads a pixel, and script detection loads the OSD pack the same way. A
severed document is read in one to four pictures (a specimen sheet, script
detection, sometimes a second language), a benchmark or a corpus run in
hundreds. One engine per (pack, page segmentation mode), kept for the
process's life, pays that load once.

:mod:`.ocr` asks here first and runs the program when tesserocr is not
installed (it is an optional extra, ``pytest-textlayer[tesserocr]``), is
built on another Tesseract version than the program's (``ocr.kept_engine``),
``TEXTLAYER_TESSERACT_CLI=1`` asks for the program, ``TEXTLAYER_TESSERACT``
names a program of its own, or an engine cannot load the pack
(:class:`Unavailable`). The packs are the ones the program reads (its
tessdata folder, passed explicitly: tesserocr's own Tesseract build looks
elsewhere by default), so the installed-pack checks and the Debian package
named for a missing one stay the program's.
"""

from __future__ import annotations

import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

#: Engines kept at once, the least recently used closed first: each holds its pack's
#: recogniser (12-50 MB; a CJK pack the most), and a run reads a few packs at a time
#: (the document's language, the script candidates, OSD).
KEEP = 6

#: Tesseract's page segmentation mode 0, orientation and script detection only.
OSD_ONLY = 0

#: Environment variable that sends every reading through the ``tesseract`` program.
FORCE_CLI = "TEXTLAYER_TESSERACT_CLI"


class Unavailable(Exception):
    """No engine in this process for that reading: run the program instead."""


#: (pid, tessdata, pack, psm) -> engine; the pid keeps a forked worker off its parent's.
_ENGINES: OrderedDict[tuple[int, str, str, int], Any] = OrderedDict()
#: Packs an engine failed to load: not tried again in this process.
_FAILED: set[tuple[str, str, int]] = set()
#: One reading at a time through the engines (an engine is not safe across threads).
_LOCK = threading.Lock()


def enabled() -> bool:
    """Whether readings may go through tesserocr here (it is importable and not refused);
    :func:`.ocr.kept_engine` also asks that its Tesseract be the program's version."""
    if os.environ.get(FORCE_CLI, "") not in ("", "0") or os.environ.get("TEXTLAYER_TESSERACT"):
        return False
    return _module() is not None


@functools.lru_cache(maxsize=1)
def _module() -> Any:
    """tesserocr, imported once; None when it is not installed or cannot load."""
    # The program's readings run on one OpenMP thread (see ocr._env): the library reads
    # the limit when it loads, so it is set before the import.
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    try:
        import tesserocr
    except ImportError:  # not installed (or its bundled libraries do not load)
        return None
    return tesserocr


def version() -> str | None:
    """The Tesseract version inside tesserocr, when readings go through it."""
    if not enabled():
        return None
    first = str(_module().tesseract_version()).split()
    return first[1] if len(first) > 1 else None


def _engine(tessdata: str, lang: str, psm: int, variables: Mapping[str, str]) -> Any:
    """The kept engine for (pack, mode), made on first use; Unavailable if it cannot be."""
    if not enabled() or (tessdata, lang, psm) in _FAILED:
        raise Unavailable(lang)
    key = (os.getpid(), tessdata, lang, psm)
    api = _ENGINES.get(key)
    if api is not None:
        _ENGINES.move_to_end(key)
        return api
    tesserocr = _module()
    try:
        api = tesserocr.PyTessBaseAPI(path=tessdata, lang=lang, psm=psm)
        for name, value in variables.items():
            if not api.SetVariable(name, value):
                raise RuntimeError(f"Tesseract has no variable {name}")
    except RuntimeError:  # tesserocr's error for a pack it cannot initialise
        _FAILED.add((tessdata, lang, psm))
        raise Unavailable(lang) from None
    while len(_ENGINES) >= KEEP:
        _, old = _ENGINES.popitem(last=False)
        old.End()
    _ENGINES[key] = api
    return api


def _set_image(api: Any, image: Any) -> None:
    """Hand the picture's pixels over as they are: ``SetImage`` would encode it as an image
    file for the library to decode again (20 ms a specimen sheet, the same hOCR)."""
    if image.mode not in ("L", "RGB"):
        image = image.convert("L" if image.mode == "1" else "RGB")
    depth = 1 if image.mode == "L" else 3
    api.SetImageBytes(image.tobytes(), image.width, image.height, depth, image.width * depth)


def hocr(image: Any, tessdata: str, lang: str, psm: int, variables: Mapping[str, str]) -> str:
    """The hOCR of one PIL image read in ``lang`` (the ``ocr_page`` element and its content).

    ``variables`` are set once, when the engine for (``lang``, ``psm``) is made: every
    caller of one mode passes the same.
    """
    with _LOCK:
        api = _engine(tessdata, lang, psm, variables)
        _set_image(api, image)
        try:
            text = api.GetHOCRText(0)
        except RuntimeError:  # the recognition failed: the program says why
            raise Unavailable(lang) from None
        finally:
            api.Clear()
    return str(text)


def script(image: Any, tessdata: str, variables: Mapping[str, str]) -> str | None:
    """The script OSD names on the image (``Latin``, ``Cyrillic`` ...), None if it cannot tell.

    ``variables`` are set once, when the OSD engine is made: every caller passes the same.
    """
    with _LOCK:
        api = _engine(tessdata, "osd", OSD_ONLY, variables)
        _set_image(api, image)
        try:
            found = api.DetectOrientationScript()
        finally:
            api.Clear()
    if not found:
        return None
    name = found.get("script_name")
    return str(name) if name else None
