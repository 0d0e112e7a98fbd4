"""Glyph names read as the AGL specification reads them, without importing fontTools' list."""

from __future__ import annotations

import random
import subprocess
import sys

from fontTools import agl

from pytest_textlayer.pdf.encodings import name_to_unicode

#: The shapes subset fonts really use: list names, uniXXXX (one or several), uXXXX[XX],
#: ligatures joined by underscores, suffixes after a period, and the invalid variants.
_NAMES = [
    "a", "Euro", "afii10017", "uni0416", "uni00410042", "uniD800", "uni004", "uni0041.sc",
    "u1F600", "u0041", "uD800", "u110000", "u00041", "f_i", "f_f_i", "T_h", "a.sc", "A.alt01",
    "uni0041_uni0042", "space.fr", "g123", "cid00042", "_", "a_", "uni0041\n", "Uni0041",
    "uni0041a", "zero.oldstyle", "ff", "fi", "dotlessi", "Ohorn", "commaaccent",
]


def test_names_read_as_fonttools_agl_reads_them() -> None:
    rnd = random.Random(7)
    pool = "abcuniAFXYZ0123456789._"
    generated = {"".join(rnd.choice(pool) for _ in range(rnd.randint(1, 12)))
                 for _ in range(3000)}
    names = [*_NAMES, *sorted(agl.LEGACY_AGL2UV), *sorted(generated)]
    assert [n for n in names if name_to_unicode(n) != agl.toUnicode(n)] == []
    assert name_to_unicode("uni0416") == "Ж" and name_to_unicode("f_i") == "fi"


def test_zapf_dingbats_names_are_read_by_their_own_list() -> None:
    assert name_to_unicode("a1", zapf=True) == agl.toUnicode("a1", isZapfDingbats=True) == "✁"


def test_reading_glyph_names_leaves_fonttools_agl_unimported() -> None:
    """Its import alone costs about 15 ms a process (the list is kept in the user cache)."""
    probe = ("import sys\n"
             "from pytest_textlayer.pdf.encodings import name_to_unicode\n"
             "name_to_unicode('a')  # builds the user cache if it is cold\n"
             "for m in [m for m in sys.modules if m.startswith('fontTools')]:\n"
             "    del sys.modules[m]\n"
             "import pytest_textlayer.pdf.encodings as e\n"
             "e.name_to_unicode.cache_clear()\n"
             "print(e.name_to_unicode('uni0416'), e.name_to_unicode('f_i.alt'),"
             " 'fontTools.agl' in sys.modules)\n")
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=120)
    assert ran.stdout.split() == ["Ж", "fi", "False"]
