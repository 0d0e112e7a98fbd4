"""docs/corpus.md, run for real: the check mapped over files by a local Dask cluster of processes.

The records a cluster writes must be the records `textlayer check --jsonl`
writes, so that `--resume` over the cluster's output has nothing left to do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_textlayer.cli import main
from pytest_textlayer.generators import generate
from pytest_textlayer.run.corpus import check_record, check_shard

distributed = pytest.importorskip("distributed")
bag = pytest.importorskip("dask.bag")

FAMILIES = ("readable", "severed", "shifted", "blank", "pua", "mixed")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("dask")
    made = [generate(f).write(root / f"{f}.pdf") for f in FAMILIES]
    (root / "broken.pdf").write_bytes(made[0].read_bytes()[:300])
    return [*made, root / "broken.pdf"]


@pytest.fixture(scope="module")
def client() -> object:
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_records_from_a_cluster_resume_with_nothing_left(
    client: object, files: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cluster.jsonl"
    futures = client.map(check_record, [str(p) for p in files])  # type: ignore[attr-defined]
    with out.open("w", encoding="utf-8") as fh:
        for future in distributed.as_completed(futures):
            fh.write(json.dumps(future.result()) + "\n")
    records = [json.loads(line) for line in out.read_text().splitlines()]
    verdicts = {Path(r["path"]).stem: [p["verdict"] for p in r["pages"]] for r in records}
    assert verdicts["severed"] == ["undecodable"] and verdicts["readable"] == ["readable"]
    assert next(r for r in records if r["path"].endswith("broken.pdf"))["error"]
    # The command sees every file as done: nothing new is appended.
    assert main(["check", "--resume", str(out), *map(str, files)]) == 2
    assert len(out.read_text().splitlines()) == len(files)
    assert f"{len(files)} document(s)" in capsys.readouterr().out


def test_shards_through_the_command_keep_its_limits(
    client: object, files: list[Path]
) -> None:
    shards = bag.from_sequence([str(p) for p in files], npartitions=2)
    records = shards.map_partitions(check_shard, args=["--timeout", "30"]).compute()
    assert sorted(r["path"] for r in records) == sorted(map(str, files))
    direct = {r["path"]: r["pages"] for r in (check_record(p) for p in files)}
    assert {r["path"]: r["pages"] for r in records} == direct
