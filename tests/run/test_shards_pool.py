"""How document shards are run (acescore.run.shards, acescore.run.parallel.run_pool): as many shards
per process (no last round with one process alone), never more processes at a time than
CPUs, each shard's report checked as it comes in (a failing shard stops the pool), and the
same report whatever order the shards finish in."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from forks import count_shard_forks

from acescore import api
from acescore.model.options import Options
from acescore.run import parallel, shards

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"
EXPECTED = SMALL / "expected"

pytestmark = pytest.mark.skipif(
    not parallel.fork_available(), reason="shards are forked processes (Linux)"
)


def _paths(sub: str) -> list[str]:
    return api.discover(str(SMALL / sub))


def _opts(jobs: int = 2, **kw) -> Options:
    return Options(params="local_2008", mentions=True, jobs=jobs, literature=False, **kw)


def _expected() -> str:
    return (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]


def _overlap(log: Path) -> int:
    """The most workers between their "start" and "end" lines at any point of the log."""
    most = now = 0
    for line in log.read_text().split():
        now += 1 if line == "start" else -1
        most = max(most, now)
    return most


def _logging_start(log: Path, value, fail: bool = False):
    """A start of run_pool: a worker that logs "start", works a little, logs "end" (one
    write each, O_APPEND: lines never mix) and returns ``value`` (or raises)."""

    def work():
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.write(fd, b"start\n")
        sum(range(200_000))
        os.write(fd, b"end\n")
        os.close(fd)
        if fail:
            raise RuntimeError("worker failure")
        return value

    return lambda: parallel.Child(work)


@pytest.mark.parametrize("limit", [1, 2, 3])
@pytest.mark.slow
def test_pool_runs_at_most_limit_workers(tmp_path, limit):
    """A worker's "end" is written before its result pipe closes, and the pool starts the
    next one only after a result came in: the log shows the pool's concurrency."""
    log = tmp_path / "log"
    out = parallel.run_pool([_logging_start(log, i) for i in range(7)], limit)
    assert out == list(range(7))
    assert _overlap(log) <= limit
    assert log.read_text().split().count("start") == 7


@pytest.mark.slow
def test_on_result_sees_every_result_and_can_stop_the_pool(tmp_path):
    log = tmp_path / "log"
    seen = []

    def on_result(i, result):
        seen.append((i, result))
        return True

    out = parallel.run_pool([_logging_start(log, i * 10) for i in range(5)], 2, on_result=on_result)
    assert out == [0, 10, 20, 30, 40] and sorted(seen) == [(i, i * 10) for i in range(5)]

    # one at a time: the second worker fails, on_result says stop; the third, started
    # while the second's result was read, is killed, the rest never start
    log2 = tmp_path / "log2"
    seen.clear()
    started = []

    def start(i):
        def go():
            started.append(i)
            return _logging_start(log2, i, fail=(i == 1))()

        return go

    out = parallel.run_pool(
        [start(i) for i in range(5)], 1, on_result=lambda i, r: seen.append(i) or r is not None
    )
    assert out == [0, None, None, None, None] and seen == [0, 1]
    assert started in ([0, 1], [0, 1, 2])


def test_concurrency_is_capped_at_the_cpus(monkeypatch):
    monkeypatch.setattr(parallel, "available_cpus", lambda: 2)
    assert [shards.concurrency(j) for j in (1, 2, 3, 4, 8)] == [1, 2, 2, 2, 2]
    monkeypatch.setattr(parallel, "available_cpus", lambda: 16)
    assert [shards.concurrency(j) for j in (1, 2, 8)] == [1, 2, 8]


def test_shard_count_is_a_multiple_of_the_processes(monkeypatch):
    """3.5 x (2 processes x SHARD_REF_BYTES) of REF files: 8 shards, not 7 (with 7, the
    last round had one process scoring alone)."""
    r = _paths("ref")
    total = sum(os.path.getsize(p) for p in r)
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", int(total / 7) + 1)
    assert shards.shard_count(r, 2) == 8
    assert shards.shard_count(r, 3) == 9  # 7/3 rounds -> 3 rounds of 3
    assert shards.shard_count(r, 8) == 8
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", total + 1)
    assert shards.shard_count(r, 2) == 2


@pytest.mark.slow
def test_more_jobs_than_cpus_run_cpus_at_a_time(monkeypatch):
    """--jobs 8 on two CPUs: eight shards, two at a time; the report of one process."""
    monkeypatch.setattr(parallel, "available_cpus", lambda: 2)
    limits = []
    real = shards.run_pool

    def pool(starts, limit, *a, **kw):
        limits.append(limit)
        return real(starts, limit, *a, **kw)

    monkeypatch.setattr(shards, "run_pool", pool)
    res = shards.score_paths(_paths("ref"), _paths("sys-heavy"), _opts(jobs=8))
    assert res is not None and res.shards == 8 and limits == [2]
    assert res.to_text() == _expected()


@pytest.mark.slow
def test_shards_finishing_in_any_order_give_the_report_of_one_process(monkeypatch):
    """The pool hands the shards' reports to the checks as they come in: here in reverse
    order (the last shard first); the merged report is still byte for byte one
    process's."""
    real = parallel.run_pool
    order = []

    def reversed_pool(starts, limit, timeout=None, on_result=None):
        outs = real(starts, limit, timeout)
        for i in reversed(range(len(outs))):
            order.append(i)
            if on_result is not None and on_result(i, outs[i]) is False:
                return [None] * len(outs)
        return outs

    monkeypatch.setattr(shards, "run_pool", reversed_pool)
    res = shards.score_paths(_paths("ref"), _paths("sys-heavy"), _opts(jobs=4))
    assert order == [3, 2, 1, 0]
    assert res is not None and res.shards == 4 and res.to_text() == _expected()


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_arrivals_find_a_document_in_two_shards_in_any_order(order):
    def out(ref, sys_):
        return SimpleNamespace(docs=(ref, sys_))  # (a ShardResult's DOCIDs)

    shards_out = [out(["D1", "D2"], ["D1", "D2"]), out(["D3"], ["D3", "D2"])]
    arrivals = shards._Arrivals()
    assert [arrivals(i, shards_out[i]) for i in order] == [True, False]
    arrivals = shards._Arrivals()  # a REF document of two shards
    shards_out[1] = out(["D3", "D1"], ["D3"])
    assert [arrivals(i, shards_out[i]) for i in order] == [True, False]
    arrivals = shards._Arrivals()
    shards_out[1] = out(["D3"], ["D3", "D4"])
    assert [arrivals(i, shards_out[i]) for i in order] == [True, True]
    assert shards._Arrivals()(0, None) is False  # a failed shard


def test_a_failing_shard_stops_the_other_shards(monkeypatch):
    """A shard that fails makes the run go in one process: the shards not yet started are
    not started at all (one process at a time here, the first shard fails; the second
    starts while the first one's result is read, and is killed)."""
    monkeypatch.setattr(parallel, "available_cpus", lambda: 1)
    r = _paths("ref")
    total = sum(os.path.getsize(p) for p in r)
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", total // 4 + 1)
    first = r[0]
    real_shard = shards.score_shard

    def failing(rpaths, *a, **kw):
        if first in rpaths:
            raise RuntimeError("shard failure")
        return real_shard(rpaths, *a, **kw)

    monkeypatch.setattr(shards, "score_shard", failing)
    started = count_shard_forks(monkeypatch)
    assert shards.score_paths(r, _paths("sys-heavy"), _opts(jobs=4)) is None
    assert len(started) == 2
