"""The passes of a sharded run rendered in several processes once the shards are done
(acescore.run.assemble._render_passes, acescore.run.parallel.map_in_processes): the same report,
every pass from one process or another, and a process that fails changes nothing."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from acescore import api
from acescore.model.options import Options
from acescore.run import assemble, parallel, shards

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"

pytestmark = pytest.mark.skipif(
    not parallel.fork_available(), reason="rendering processes are forked (Linux)"
)


def test_balanced_groups_hand_computed():
    # heaviest first, each to the lightest group so far (ties: the first group):
    # 5 -> A, 4 -> B, 3 -> B (7), 2 -> A (7), 1 -> A (tie at 7: the first)
    assert parallel.balanced_groups([5, 1, 4, 2, 3], 2) == [[0, 1, 3], [2, 4]]
    # 5 -> A, 4 -> B, 3 -> C, 2 -> C (5), 1 -> B (4 is the lightest)
    assert parallel.balanced_groups([5, 1, 4, 2, 3], 3) == [[0], [1, 2], [3, 4]]
    assert parallel.balanced_groups([1, 1], 4) == [[0], [1]]  # no empty groups
    assert parallel.balanced_groups([7], 1) == [[0]]


def test_map_in_processes_keeps_the_order_and_uses_the_processes():
    parent = os.getpid()
    out = parallel.map_in_processes(
        lambda x: (x * x, os.getpid()), list(range(7)), [1, 9, 2, 8, 3, 7, 4], 3
    )
    assert [v for v, _ in out] == [x * x for x in range(7)]
    pids = {p for _, p in out}
    assert parent in pids and len(pids) == 3
    # positions 1 and 3 (the two heaviest) went to different processes
    assert out[1][1] != out[3][1]


def test_map_in_processes_redoes_a_failed_group_here():
    parent = os.getpid()

    def fn(x):
        if os.getpid() != parent:
            raise RuntimeError("a worker that fails")
        return x + 1

    assert parallel.map_in_processes(fn, [1, 2, 3, 4], [1, 1, 1, 1], 2) == [2, 3, 4, 5]


def test_map_in_processes_computes_here_what_cannot_be_forked(monkeypatch):
    """A worker that cannot be forked (EAGAIN: too many processes, no memory): its group
    is computed here, the others where they were sent."""
    parent = os.getpid()
    real_child = parallel.Child
    forks: list = []

    def child(work, before=None):
        forks.append(1)
        if len(forks) == 1:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return real_child(work, before)

    monkeypatch.setattr(parallel, "Child", child)
    out = parallel.map_in_processes(lambda x: (x, os.getpid()), [0, 1, 2], [3, 2, 1], 3)
    assert [x for x, _ in out] == [0, 1, 2] and len(forks) == 2
    # groups [0], [1], [2]: the first worker (item 1) failed to fork, item 2 went to one
    assert out[0][1] == parent and out[1][1] == parent and out[2][1] != parent


def test_map_in_processes_without_fork_is_a_loop(monkeypatch):
    monkeypatch.setattr(parallel, "fork_available", lambda: False)
    parent = os.getpid()
    out = parallel.map_in_processes(lambda x: os.getpid(), [1, 2, 3], [1, 1, 1], 3)
    assert out == [parent] * 3


def _score(monkeypatch, processes: int, **kw):
    """The sharded run of the small golden corpus with ``processes`` CPUs; the PID that
    rendered each pass."""
    monkeypatch.setattr(parallel, "available_cpus", lambda: processes)
    ref = api.discover(str(SMALL / "ref"))
    # shards of a quarter of the corpus: sharded with one process too
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", sum(os.path.getsize(p) for p in ref) // 4 + 1)
    real = assemble.render_pass

    def render(*a, **k):
        out = real(*a, **k)
        out.rendered_by = os.getpid()
        return out

    monkeypatch.setattr(assemble, "render_pass", render)
    opts = Options(params="local_2008", mentions=True, jobs=processes, literature=False, **kw)
    res = shards.score_paths(ref, api.discover(str(SMALL / "sys-heavy")), opts)
    assert res is not None and res.shards >= 2
    return res, [getattr(p, "rendered_by", None) for p in res.outputs]


@pytest.mark.slow
def test_passes_rendered_in_several_processes_give_the_golden_report(monkeypatch):
    expected = (SMALL / "expected" / "heavy__m.txt").read_text(encoding="utf-8")
    res, pids = _score(monkeypatch, 3)
    assert res.to_text() == expected.split("\n", 1)[1]
    printed = [pid for p, pid in zip(res.outputs, pids) if p.printed]
    assert os.getpid() in printed and len(set(printed)) == 3
    one, pids1 = _score(monkeypatch, 1)
    assert set(pids1) == {os.getpid()}
    assert [p.data for p in one.outputs] == [p.data for p in res.outputs]
    assert [p.documents for p in one.outputs] == [p.documents for p in res.outputs]


@pytest.mark.slow
def test_listings_are_rendered_here(monkeypatch):
    """With -a the passes' listings would have to come back through a pipe: no processes."""
    _, pids = _score(monkeypatch, 3, all_mappings=True)
    assert set(pids) == {os.getpid()}


def test_map_in_processes_kills_its_workers_when_this_process_fails(monkeypatch):
    """Ctrl-C while this process renders its own group: the workers, still busy, are
    killed and reaped, not left behind."""
    parent = os.getpid()
    made: list = []
    real_child = parallel.Child

    def child(work, before=None):
        made.append(real_child(work, before))
        return made[-1]

    monkeypatch.setattr(parallel, "Child", child)

    def fn(x):
        if os.getpid() == parent:
            raise KeyboardInterrupt
        time.sleep(30)  # a worker still busy when this process gives up
        return x

    with pytest.raises(KeyboardInterrupt):
        parallel.map_in_processes(fn, [1, 2, 3], [1, 1, 1], 3)
    assert len(made) == 2 and all(c.done for c in made)
    for c in made:
        with pytest.raises(ChildProcessError):  # killed and already reaped
            os.waitpid(c.pid, os.WNOHANG)
