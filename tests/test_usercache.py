"""The per-user cache saves start-up time and never changes an answer or raises."""

from __future__ import annotations

import inspect
import os
import pickle
from pathlib import Path

import pytest

from pytest_textlayer import usercache
from pytest_textlayer.lang import langmodel, onelanguage, scripts, textsymbols
from pytest_textlayer.pdf import encodings


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(usercache.ENV, str(folder))
    return folder


def _counting_build(calls: list[int], value: object) -> object:
    def build() -> object:
        calls.append(1)
        return value

    return build


def test_second_call_reads_the_entry_instead_of_building(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "data.txt"
    source.write_text("one")
    calls: list[int] = []
    first = usercache.cached("thing", [source], _counting_build(calls, {"a": 1}))
    second = usercache.cached("thing", [source], _counting_build(calls, {"a": 2}))
    assert first == second == {"a": 1}
    assert calls == [1]
    assert [p.name.split("-")[0] for p in cache.glob("*.pickle")] == ["thing"]
    assert (cache.stat().st_mode & 0o777) == 0o700


def test_a_changed_source_builds_again_and_keeps_only_the_newest_entries(
        cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "data.txt"
    calls: list[int] = []
    for n in range(1, usercache.KEEP + 3):
        source.write_text("x" * n)  # each size is another version of the data
        assert usercache.cached("thing", [source], _counting_build(calls, n)) == n
    assert len(calls) == usercache.KEEP + 2
    assert len(list(cache.glob("thing-*.pickle"))) == usercache.KEEP
    # the newest is still there: no build
    assert usercache.cached("thing", [source], _counting_build(calls, 0)) == usercache.KEEP + 2
    assert len(calls) == usercache.KEEP + 2


def test_two_installations_keep_their_own_entries(cache: Path, tmp_path: Path) -> None:
    """A project's virtualenv and a tool's, used in turn, do not rebuild each other's entry."""
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("first installation")
    two.write_text("second")
    calls: list[int] = []
    for _ in range(3):
        usercache.cached("thing", [one], _counting_build(calls, 1))
        usercache.cached("thing", [two], _counting_build(calls, 2))
    assert len(calls) == 2


def test_a_corrupt_entry_is_rebuilt(cache: Path, tmp_path: Path) -> None:
    source = tmp_path / "data.txt"
    source.write_text("one")
    key = usercache.entry_key("thing", [source])
    cache.mkdir(mode=0o700)
    (cache / f"{key}.pickle").write_bytes(b"not a pickle")
    assert usercache.cached("thing", [source], lambda: 7) == 7
    with (cache / f"{key}.pickle").open("rb") as fh:
        assert pickle.load(fh) == 7


def test_empty_setting_turns_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(usercache.ENV, "")
    monkeypatch.chdir(tmp_path)
    calls: list[int] = []
    for _ in range(2):
        usercache.cached("thing", [Path(__file__)], _counting_build(calls, 1))
    assert calls == [1, 1]
    assert list(tmp_path.iterdir()) == []


def test_an_unusable_folder_only_costs_the_build(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv(usercache.ENV, str(blocker / "cache"))
    assert usercache.cached("thing", [Path(__file__)], lambda: "built") == "built"
    assert blocker.read_text() == "a file where the folder should be"


def test_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(usercache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert usercache.cache_dir() == tmp_path / "pytest-textlayer"


TEXTS = [
    "The committee reviews the annual report and the auditors' notes on revenue.",
    "Le comité examine le rapport annuel et les notes des commissaires aux comptes.",
    "Комитет рассматривает годовой отчёт и замечания аудиторов о выручке компании.",
    "Η επιτροπή εξετάζει την ετήσια έκθεση και τις σημειώσεις των ελεγκτών της εταιρείας.",
    "81,7('67$7(6',675,&7&2857 )LOWHU FDUWULGJH )LOWHU FDUWULGJH )LOWHU",
    "委员会审查了年度报告和审计师关于收入确认的说明以及附录中的各项内容。",
]


def test_the_cached_reference_judges_exactly_as_a_fresh_build(cache: Path) -> None:
    _, fresh = langmodel._build_reference()
    restored = pickle.loads(pickle.dumps(fresh, protocol=pickle.HIGHEST_PROTOCOL))
    for text in TEXTS:
        assert langmodel.judge(text, restored) == langmodel.judge(text, fresh), text


def test_the_reference_entry_is_keyed_by_every_module_that_builds_it() -> None:
    """An edit to code that shapes the built reference must not read an entry built before it."""
    builders = (langmodel._build_reference, langmodel.LetterPairModel, onelanguage.LanguageModel,
                scripts.group_of, textsymbols.install_han_fold)
    for builder in builders:
        assert Path(inspect.getfile(builder)) in langmodel.REFERENCE_SHAPED_BY, builder
    assert all(path.is_file() for path in langmodel.REFERENCE_SHAPED_BY)


def test_named_encodings_from_the_cache_match_the_glyph_list(cache: Path) -> None:
    from fontTools import agl

    tables, meanings = encodings._build_standard()
    for name in encodings.NAMED_ENCODINGS:
        assert encodings.encoding_table(name) == tables[name] == encodings._build_table(name)
    for glyph, text in meanings.items():
        assert text == agl.toUnicode(glyph)
        assert encodings.name_to_unicode(glyph) == text
    assert encodings.name_to_unicode("a1", True) == agl.toUnicode("a1", isZapfDingbats=True)
    assert os.environ[usercache.ENV] == str(cache)


def test_the_mac_standard_table_from_the_cache_is_the_glyph_list_s(cache: Path) -> None:
    from pytest_textlayer.lang import glyphorder

    glyphorder.mac_standard_table.cache_clear()
    try:
        first = glyphorder.mac_standard_table()
        assert list(cache.glob("mac-standard-*.pickle"))  # stored, so the next process reads it
        glyphorder.mac_standard_table.cache_clear()
        assert glyphorder.mac_standard_table() == first == glyphorder._build()
        assert first[36] == "A" and first[3] == " " and first[0] == ""
    finally:
        glyphorder.mac_standard_table.cache_clear()


@pytest.mark.parametrize("ordering", ["Japan1", "GB1", "CNS1", "Korea1"])
def test_a_cid_collection_from_the_cache_is_poppler_data_s_table(cache: Path,
                                                               ordering: str) -> None:
    from pytest_textlayer.pdf import crosscheck

    table = Path(crosscheck.CID_TABLE_DIRS[0]) / f"Adobe-{ordering}"
    if not table.is_file():
        pytest.skip("poppler-data is not installed (./dev installs it)")
    crosscheck.collection_table.cache_clear()
    try:
        first = dict(crosscheck.collection_table(ordering).items())
        assert list(cache.glob(f"collection-{ordering}-*.pickle"))
        crosscheck.collection_table.cache_clear()
        again = crosscheck.collection_table(ordering)
        lines = table.read_text(encoding="ascii").split()
        assert dict(again.items()) == first
        assert len(again) == len(first) > 10_000
        for cid in range(0, len(lines), 97):  # line N is CID N; "0000" gives it no character
            code = int(lines[cid], 16)
            assert again.get(cid) == (chr(code) if code > 0x20 else None)
    finally:
        crosscheck.collection_table.cache_clear()


def test_package_files_are_found_without_importing_the_package() -> None:
    import sys

    found = usercache.package_files("fontTools", "agl.py")
    assert [path.name for path in found] == ["agl.py"] and found[0].is_file()
    assert usercache.package_files("no_such_package_here", "x.py") == []
    assert "no_such_package_here" not in sys.modules
