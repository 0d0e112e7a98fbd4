"""A shifted map of CJK prose comes back by its offset.

Japanese and Chinese punctuate inside what a split on spaces calls one
word ('検討し、来年度'); the order source's word-shape guard must let those
marks part words as spaces do, or no offset of such a font is ever judged
and the whole page stays shifted (MuPDF subsets of Droid Sans Fallback
shifted by -29: kana and rare ideographs on every page).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _producers import CJK_FONT, DEJAVU, repaired_first_page

from pytest_textlayer.repairs import ordermaps

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler")

JAPANESE = ("委員会は年次報告書を検討し、来年度の予算は新たな建設を始める前に既存の建物の維持管理を"
            "優先すべきであることに合意した。委員はまた、会計担当者に対し、住民が会費の使途を確認し"
            "次回の会合で質問できるよう、四半期ごとに会計報告を公表するよう求めた。")
CHINESE = ("委员会审议了年度报告，并同意明年的预算应优先用于现有建筑的维护，"
           "然后再开始任何新的建设。委员会还要求财务人员每季度公布一次财务报告，以便居民在下次会议上提出问题。")


def test_cjk_punctuation_parts_words_as_a_space_does() -> None:
    assert ordermaps.wordlike(JAPANESE) == 1.0
    assert ordermaps.wordlike("「検討」（予算）：建物・管理。") == 1.0
    # Full-width symbols are no punctuation of prose: a wrong offset's soup keeps failing.
    assert ordermaps.wordlike("／ＰＴＩＭ＄ＺＡ＋ＩＯＮ／ＯＦ") < 0.5


@pytest.mark.parametrize("text", [JAPANESE, CHINESE], ids=["ja", "zh"])
def test_shifted_cjk_subset_is_repaired_exactly(tmp_path: Path, text: str) -> None:
    pymupdf = pytest.importorskip("pymupdf")
    if not CJK_FONT.exists():
        pytest.skip("fonts-droid-fallback is needed")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(56, 56, 540, 780), "\n\n".join([text] * 4), fontsize=11,
                        fontname="Fcjk", fontfile=str(CJK_FONT))
    page.insert_text((290, 810), "1,234.50", fontsize=9, fontname="Fmono",
                     fontfile=str(DEJAVU / "DejaVuSansMono.ttf"))
    doc.subset_fonts()
    truth, got = repaired_first_page(tmp_path, bytes(doc.tobytes(garbage=3, deflate=True)),
                                     "shift")
    # (MuPDF's map may give a radical or compatibility form for an ideograph the text wrote.)
    assert "1,234.50" in truth and sum("\u4e00" <= ch <= "\u9fff" for ch in truth) > 200
    assert got == truth
