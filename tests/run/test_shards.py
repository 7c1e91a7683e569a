"""--jobs N in document shards (acescore.run.shards): each shard read and scored in a process of
its own, the report merged byte for byte; where the plan does not hold, no sharded result
(the caller scores as before); a stopped worker never makes the run wait forever."""

from __future__ import annotations

import os
import re
import shutil
import signal
from pathlib import Path

import pytest
from forks import count_shard_forks

from acescore import api
from acescore.model.options import Options
from acescore.report.data.json_report import gate_failures
from acescore.run import parallel, shards

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"
EXPECTED = SMALL / "expected"

pytestmark = pytest.mark.skipif(
    not parallel.fork_available(), reason="shards are forked processes (Linux)"
)


def _paths(sub: str, root: Path = SMALL) -> list[str]:
    return api.discover(str(root / sub))


def _opts(params: str = "local_2008", jobs: int = 2, **kw) -> Options:
    return Options(params=params, mentions=True, jobs=jobs, literature=False, **kw)


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [2, 3, 8])
def test_golden_report_in_shards(jobs):
    res = shards.score_paths(_paths("ref"), _paths("sys-heavy"), _opts(jobs=jobs))
    assert res is not None and res.shards == min(jobs, len(_paths("ref")))
    expected = (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert res.to_text() == expected
    stderr = (EXPECTED / "heavy__m.stderr.txt").read_text(encoding="utf-8")
    assert _lines("".join(res.warnings)) == _lines(stderr)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_more_shards_than_processes(monkeypatch, tmp_path, jobs):
    """A corpus larger than --jobs times SHARD_REF_BYTES goes in more shards than
    processes, at most --jobs of them at a time (--jobs 1: one after another); the report
    is the same."""
    r, s = _paths("ref"), _paths("sys-heavy")
    total = sum(os.path.getsize(p) for p in r)
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", total // 4 + 1)
    assert shards.shard_count(r, 2) == 4 and shards.shard_count(r, 6) == 6
    assert shards.shard_count(r, 1) == 4
    log = tmp_path / "log"

    def note(what: bytes) -> None:  # one O_APPEND write: lines never mix
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.write(fd, what)
        os.close(fd)

    def logged(work):
        def run():  # "end" before the result goes back: the log
            note(b"start\n")  # shows how many shards were scored at a time
            out = work()
            note(b"end\n")
            return out

        return run

    started = count_shard_forks(monkeypatch, logged)
    res = shards.score_paths(r, s, _opts(jobs=jobs))
    # --jobs 2: the last round's two shards' worth in two halves and four quarters
    n = 4 if jobs == 1 else 8
    assert res is not None and res.shards == n and len(started) == n
    most = now = 0
    for line in log.read_text().split():
        now += 1 if line == "start" else -1
        most = max(most, now)
    assert 1 <= most <= jobs
    expected = (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert res.to_text() == expected


def test_last_round_in_smaller_shards():
    """Several rounds of full shards: the last round's bytes in halves and quarters, so the
    processes end together; one process at a time, or a corpus of one round: full shards."""
    assert shards.shard_shares(18, 2, 2) == [1.0] * 16 + [0.5] * 2 + [0.25] * 4
    assert shards.shard_shares(24, 8, 2) == [1.0] * 22 + [0.5] * 2 + [0.25] * 4
    assert shards.shard_shares(18, 1, 1) == [1.0] * 18
    assert shards.shard_shares(8, 8, 2) == [1.0] * 8  # --jobs 8, a small corpus
    assert shards.shard_shares(3, 3, 2) == [1.0] * 3
    r, s = _paths("ref"), _paths("sys-heavy")
    plans = shards.plan(r, s, 4, shares=[2.0, 1.0, 0.5, 0.5])
    assert len(plans) == 4 and [x for rp, _ in plans for x in rp] == r
    sizes = [sum(os.path.getsize(p) for p in rp) for rp, _ in plans]
    total = sum(sizes)
    # shards end at the REF files nearest to 1/2, 3/4 and 7/8 of the bytes
    assert abs(sizes[0] - total / 2) < max(map(os.path.getsize, r))
    assert sizes[0] > sizes[1] > max(sizes[2:])
    # more shares than REF files: equal shards, one a file at most
    assert len(shards.plan(r, s, 4, shares=[1.0] * (len(r) + 1))) == 4


@pytest.mark.slow
def test_document_scores_and_gates_in_shards():
    from acescore.run.pipeline import spec_label

    r, s = _paths("ref"), _paths("sys-heavy")
    res = shards.score_paths(
        r, s, _opts(doc_scores=True), {"ref": spec_label(r), "sys": spec_label(s)}
    )
    expected = (EXPECTED / "heavy__m_d.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert res.to_text() == expected
    seq = api.score(
        _paths("ref"), _paths("sys-heavy"), "local_2008", True, doc_scores=True, literature=False
    )
    assert res.to_json() == seq.to_json() and res.to_csv() == seq.to_csv()
    gates = [("edr", 99.0), ("emd", 1.0), ("vmd", 99.0), ("rdr", 0.0)]
    assert gate_failures(res, gates) == gate_failures(seq, gates)
    assert len(gate_failures(seq, gates)) == 3  # edr, vmd, rdr (-1.7)


@pytest.mark.slow
def test_local_2007_in_shards():
    res = shards.score_paths(_paths("ref"), _paths("sys-heavy"), _opts("local_2007"))
    expected = (EXPECTED / "heavy__P_local_2007_m.txt").read_text(encoding="utf-8")
    assert res.to_text() == expected.split("\n", 1)[1]


def test_not_sharded_where_it_cannot_be():
    r, s = _paths("ref"), _paths("sys-heavy")
    # --jobs 1 and no more than SHARD_REF_BYTES of REF files: one shard, scored here
    assert shards.score_paths(r, s, _opts(jobs=1)) is None
    assert shards.score_paths(r[:1], s, _opts()) is None  # one REF file: no shards


def test_plan_keeps_documents_together():
    plans = shards.plan(_paths("ref"), _paths("sys-heavy"), 3)
    assert len(plans) == 3
    assert sorted(x for rp, _ in plans for x in rp) == sorted(_paths("ref"))
    for rp, sp in plans:
        assert sorted(Path(x).name for x in rp) == sorted(Path(x).name for x in sp)


@pytest.mark.slow
def test_id_shared_across_shards_means_one_process(tmp_path):
    """One entity ID in two documents is one element for the NIST tool: the documents
    cannot be scored apart, so there is no sharded result (the caller scores as before)."""
    for sub in ("ref", "sys-heavy"):
        shutil.copytree(SMALL / sub, tmp_path / sub)
    refs = sorted((tmp_path / "ref").glob("*.apf.xml"))
    first = re.search(r'<entity ID="([^"]+)"', refs[0].read_text(encoding="utf-8")).group(1)
    last = refs[-1].read_text(encoding="utf-8")
    other = re.search(r'<entity ID="([^"]+)"', last).group(1)
    refs[-1].write_text(last.replace(f'"{other}"', f'"{first}"'), encoding="utf-8")
    r, s = _paths("ref", tmp_path), _paths("sys-heavy", tmp_path)
    assert shards.score_paths(r, s, _opts()) is None
    seq = api.score(r, s, "local_2008", True, keep_passes=True)  # what the caller does instead
    assert len(seq.task("entity").ref[first].docs) == 2


def _link_documents(tmp_path, i: int, j: int):
    """A copy of the small corpus where REF documents i and j share an entity ID (one
    cross-document entity under a global parameter set)."""
    for sub in ("ref", "sys-heavy"):
        shutil.copytree(SMALL / sub, tmp_path / sub)
    refs = sorted((tmp_path / "ref").glob("*.apf.xml"))
    entity = re.compile(r'<entity ID="([^"]+)"([^>]*)>')
    text = refs[j].read_text(encoding="utf-8")
    mine = {attrs: eid for eid, attrs in entity.findall(text)}
    first, other = next(
        (eid, mine[attrs])
        for eid, attrs in entity.findall(refs[i].read_text(encoding="utf-8"))
        if attrs in mine
    )
    refs[j].write_text(text.replace(f'"{other}"', f'"{first}"'), encoding="utf-8")
    return _paths("ref", tmp_path), _paths("sys-heavy", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("params", ["global_2008", "global_2008_with_mentions"])
def test_global_sets_shard_by_linked_documents(tmp_path, params):
    r, s = _link_documents(tmp_path, 2, 4)
    plans = shards.plan(r, s, 3, linked=True)
    assert len(plans) == 3
    assert any({r[2], r[3], r[4]} <= set(rp) for rp, _ in plans)  # 2..4 in one shard
    res = shards.score_paths(r, s, _opts(params, 3, doc_scores=True))
    assert res is not None and res.shards == 3
    seq = api.score(r, s, params, True, doc_scores=True)
    assert res.to_text() == seq.to_text()
    assert res.warnings == seq.warnings


def _stop_in_worker(parent: int, real):
    """``real``, except that in a forked worker it first stops its own process."""

    def stopped(*args, **kw):
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGSTOP)
        return real(*args, **kw)

    return stopped


@pytest.mark.slow
def test_stopped_shard_worker_gives_up(monkeypatch):
    monkeypatch.setenv("ACESCORE_WORKER_TIMEOUT", "1")
    monkeypatch.setattr(shards, "score_shard", _stop_in_worker(os.getpid(), shards.score_shard))
    assert shards.score_paths(_paths("ref"), _paths("sys-heavy"), _opts()) is None


@pytest.mark.slow
def test_stopped_chain_worker_is_replaced(monkeypatch):
    monkeypatch.setenv("ACESCORE_WORKER_TIMEOUT", "1")
    monkeypatch.setattr(parallel, "_run_chains", _stop_in_worker(os.getpid(), parallel._run_chains))
    corpus = [api.read_corpus(_paths(x), Options()) for x in ("ref", "sys-heavy")]
    res = api.score(*corpus, "local_2008", True, jobs=2)  # read: chains, not shards
    expected = (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert res.to_text() == expected


@pytest.mark.slow
def test_collect_reaps_a_stopped_child(monkeypatch):
    child = parallel.Child(lambda: os.kill(os.getpid(), signal.SIGSTOP) or 42)
    assert parallel.collect([child], timeout=1) == [None]
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)
    ok = parallel.Child(lambda: 42)
    assert parallel.collect([ok], timeout=1) == [42]


def _random_runs(rng) -> tuple:
    """(sorted sort keys, the shards' runs of them: consecutive or interleaved)."""
    k = rng.randint(1, 4)
    keys = sorted(
        {
            (rng.randint(0, 1), "E%03d" % rng.randint(0, 60), "D%d" % rng.randint(0, 3))
            for _ in range(rng.randint(0, 40))
        }
    )
    runs: list = [[] for _ in range(k)]
    consecutive = rng.random() < 0.5
    for i, key in enumerate(keys):
        runs[i * k // len(keys) if consecutive else rng.randrange(k)].append(key)
    return keys, runs


def test_merge_order_of_shard_records():
    """The merged records of shards are in canonical order: consecutive shards need no
    sorting, interleaved ones are sorted (sort keys: side, element ID, DOCID)."""
    import random

    from acescore.report.counts.sections import _order, _ordering

    rng = random.Random(7)
    for _ in range(300):
        keys, runs = _random_runs(rng)
        flat = [x for r in runs for x in r]
        perm = _order(runs)
        assert (flat if perm is None else [flat[i] for i in perm]) == keys
        assert _ordering(runs).join(runs) == keys  # by segments, or by the permutation
    assert _order([[(0, "a"), (1, "a")], [(0, "b"), (1, "b")]]) == [0, 2, 1, 3]
    assert _order([[(0, "a"), (0, "b")], [(1, "a")]]) is None


def test_sort_keys_columns_are_the_tuples():
    """SortKeys (what shards send: the REF count and the columns) give the keys as tuples,
    and merge exactly as those tuples do."""
    import random

    from acescore.report.counts.sections import SortKeys, _order

    keys = SortKeys(2, (["E1", "E2", "E1", "E3"], ["D1", "D1", "D2", "D0"]))
    assert list(keys) == [(0, "E1", "D1"), (0, "E2", "D1"), (1, "E1", "D2"), (1, "E3", "D0")]
    assert (len(keys), keys[0], keys[2], keys[-1]) == (
        4,
        (0, "E1", "D1"),
        (1, "E1", "D2"),
        (1, "E3", "D0"),
    )
    assert list(SortKeys(0, ([],))) == [] and list(SortKeys(1, (["m"],))) == [(0, "m")]
    rng = random.Random(11)
    for _ in range(300):
        keys, runs = _random_runs(rng)
        cols = [
            SortKeys(sum(1 for x in r if x[0] == 0), ([x[1] for x in r], [x[2] for x in r]))
            for r in runs
        ]
        assert [list(c) for c in cols] == runs
        a, b = _order(runs), _order(cols)
        assert a == b


def test_recognition_counts_add_up_hand_checked():
    """The shards' recognition counts (nested dicts, tuples and lists of integers) add up
    leaf by leaf; what one side lacks is the other's."""
    from acescore.report.counts.sections import add_counts

    a = {"x": 1, "y": {"p": (1, 2), "q": None}, "z": [1, {"k": 2}]}
    b = {"x": 2, "y": {"p": (3, 4), "q": 5, "r": 7}, "z": [10, {"k": 3, "m": 1}], "w": None}
    assert add_counts(a, b) == {
        "x": 3,
        "y": {"p": (4, 6), "q": 5, "r": 7},
        "z": [11, {"k": 5, "m": 1}],
        "w": None,
    }
    assert add_counts(None, b) is b and add_counts(a, None) is a
    assert a == {"x": 1, "y": {"p": (1, 2), "q": None}, "z": [1, {"k": 2}]}  # unchanged


@pytest.mark.slow
def test_cli_jobs_1_scores_shards_one_after_another(monkeypatch):
    """``acescore score --jobs 1`` on a corpus over SHARD_REF_BYTES: shards forked one at a
    time (less CPU and memory than one process holding the corpus); the NIST report."""
    from click.testing import CliRunner

    from acescore.cli import main

    r = _paths("ref")
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", sum(os.path.getsize(p) for p in r) // 3 + 1)
    started = count_shard_forks(monkeypatch)
    out = CliRunner().invoke(
        main,
        ["score", str(SMALL / "ref"), str(SMALL / "sys-heavy"), "-m", "--jobs", "1", "-q"],
        catch_exceptions=False,
    )
    assert out.exit_code == 0, out.output
    assert len(started) == 3
    expected = (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert out.stdout.split("\n", 1)[1] == expected


def test_small_condition_codes_merge_as_wide_ones():
    """Shards send condition codes in the smallest unsigned type (bytes up to 256 names,
    16-bit up to 65536, else 64-bit); merged they are the same integer codes as from lists,
    names seen first in the first shard, the others remapped."""
    import random
    from array import array

    from acescore.report.counts.sections import _merge_codes, _Order, _small

    rng = random.Random(2)
    for n in (1, 256, 257, 70000):
        names = [f"v{i}" for i in range(n)]
        parts = []
        for _ in range(3):
            codes = [n - 1] + [rng.randrange(n) for _ in range(49)]
            parts.append((codes, names if rng.random() < 0.5 else names[::-1]))
        small = [(_small(c, nm), nm) for c, nm in parts]
        want = bytes if n <= 256 else array
        assert all(type(c) is want and list(c) == p[0] for (c, _), p in zip(small, parts))
        if want is array:
            assert small[0][0].typecode == ("H" if n <= 65536 else "q")
        perm = list(range(150))
        rng.shuffle(perm)
        wide, narrow = (
            _merge_codes(parts, _Order(perm=perm)),
            _merge_codes(small, _Order(perm=perm)),
        )
        assert narrow.names == wide.names and narrow.codes == wide.codes
        assert all(type(c) is int for c in narrow.codes)
        flat = [nm[x] for codes, nm in parts for x in codes]
        assert [narrow.names[c] for c in narrow.codes] == [flat[i] for i in perm]
