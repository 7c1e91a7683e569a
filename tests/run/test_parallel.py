"""--jobs N (acescore.run.parallel): the same report, warnings, JSON and gates as a sequential
run, whatever the number of processes, and a failing worker never loses the run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from acescore import api
from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.run import parallel

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"
EXPECTED = SMALL / "expected"

pytestmark = pytest.mark.skipif(
    not parallel.fork_available(), reason="--jobs uses fork (Linux); elsewhere runs are sequential"
)


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


@pytest.fixture(scope="module")
def corpora():
    ref = api.read_corpus(api.discover(str(SMALL / "ref")), Options())
    heavy = api.read_corpus(api.discover(str(SMALL / "sys-heavy")), Options())
    return ref, heavy


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_golden_report_and_warnings(corpora, jobs):
    ref, heavy = corpora
    res = api.score(ref, heavy, "local_2008", True, jobs=jobs)
    expected = (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert res.to_text() == expected
    stderr = (EXPECTED / "heavy__m.stderr.txt").read_text(encoding="utf-8")
    assert _lines("".join(res.warnings)) == _lines(stderr)


@pytest.mark.parametrize(
    "opts",
    [{"all_mappings": True}, {"summary": True, "doc_scores": True}, {"error_mappings": True}],
)
@pytest.mark.slow
def test_diagnostics_identical(corpora, opts):
    ref, heavy = corpora
    seq = api.score(ref, heavy, "local_2007", True, **opts)
    par = api.score(ref, heavy, "local_2007", True, jobs=3, **opts)
    assert par.to_text() == seq.to_text()
    assert par.warnings == seq.warnings


@pytest.mark.slow
def test_duplicate_check_warnings_in_order(corpora):
    ref, _ = corpora
    seq = api.score(ref, ref, "local_2008", True, check_duplicates=True)
    par = api.score(ref, ref, "local_2008", True, jobs=2, check_duplicates=True)
    assert par.warnings == seq.warnings
    assert par.to_text() == seq.to_text()


@pytest.fixture(scope="module")
def sequential_and_sharded(corpora):
    """small/sys-heavy -m scored in one process and with --jobs 3 (once for the tests that
    compare the two)."""
    ref, heavy = corpora
    return api.score(ref, heavy, "local_2008", True), api.score(
        ref, heavy, "local_2008", True, jobs=3
    )


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_machine_readable_identical(sequential_and_sharded, fmt):
    seq, par = sequential_and_sharded
    if fmt == "json":
        assert par.to_json() == seq.to_json()
    else:
        from acescore.report.data.json_report import to_csv

        assert to_csv(par) == to_csv(seq)
    from acescore.report.data.json_report import gate_failures

    gates = [("edr", 99.0), ("emd", 1.0), ("vmd", 99.0)]
    assert gate_failures(par, gates) == gate_failures(seq, gates)
    assert len(gate_failures(seq, gates)) == 2


@pytest.mark.slow
def test_failing_worker_is_replaced_by_the_parent(corpora, sequential_and_sharded, monkeypatch):
    """A worker that dies (here: raises in the forked process) costs time, not results."""
    ref, heavy = corpora
    parent = os.getpid()
    real = parallel.run_chain

    scored_here = []

    def flaky(run, chain, *a, **kw):
        if os.getpid() != parent:
            raise RuntimeError("worker failure")
        scored_here.append(chain)
        return real(run, chain, *a, **kw)

    seq, _ = sequential_and_sharded
    monkeypatch.setattr(parallel, "run_chain", flaky)
    par = api.score(ref, heavy, "local_2008", True, jobs=3)
    assert scored_here == ["documents", "entity_mentions", "mention_releves"]
    assert par.to_text() == seq.to_text()
    assert par.warnings == seq.warnings


@pytest.mark.slow
def test_results_keep_no_passes_unless_asked(corpora):
    ref, heavy = corpora
    res = api.score(ref, heavy, "local_2008", True, jobs=2)
    with pytest.raises(AceUsageError, match="keep_passes=True"):
        _ = res.passes
    kept = api.score(ref, heavy, "local_2008", True, jobs=2, keep_passes=True)
    assert [p.task for p in kept.passes] == [o.task for o in res.outputs]
    assert kept.to_text() == res.to_text()


@pytest.mark.slow
def test_cli_jobs(tmp_path):
    """The command line, end to end: --jobs 3 prints what --jobs 1 prints; --jobs 0 is one
    process per CPU; a negative number is a usage error."""

    from click.testing import CliRunner

    from acescore.cli import main

    def run(*extra):  # in this process (the workers are forked from it all the same)
        args = ["score", str(SMALL / "ref"), str(SMALL / "sys-heavy"), "-m", "--format", "json"]
        return CliRunner().invoke(main, [*args, *extra])

    one, three, auto, default = run("-j", "1"), run("--jobs", "3"), run("--jobs", "0"), run()
    assert one.exit_code == three.exit_code == auto.exit_code == default.exit_code == 0
    assert (
        json.loads(one.stdout)
        == json.loads(three.stdout)
        == json.loads(auto.stdout)
        == json.loads(default.stdout)
    )
    assert one.stderr == three.stderr == auto.stderr == default.stderr
    bad = run("--jobs", "-1")
    assert bad.exit_code == 2, bad.stderr
    assert "Traceback" not in bad.stderr
    assert "-1 is not in the range 0<=x<=1024" in bad.stderr


@pytest.mark.slow
def test_every_format_from_any_results(corpora):
    """Results are rendered once, in every format: text, JSON and CSV are all there,
    whatever the number of processes."""
    ref, heavy = corpora
    res = api.score(ref, heavy, "local_2008", True, jobs=2)
    expected = (EXPECTED / "heavy__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert res.to_text() == expected
    assert json.loads(res.to_json())["tasks"]["emd"]["total"]["value"] is not None
    assert res.to_csv().startswith("task,condition,group,key,")


def _state(pid: int) -> str | None:
    """The kernel's state letter of process ``pid`` (Z: ended, not reaped), None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


@pytest.mark.slow
@pytest.mark.skipif(not parallel.fork_available(), reason="workers are forked on Linux only")
def test_worker_ends_when_its_parent_is_killed(tmp_path):
    """A worker whose parent is killed (SIGKILL: no clean-up runs) ends within a few
    heartbeats instead of working on alone."""
    script = (
        "import os, sys, time\n"
        "from acescore.run.parallel import Child\n"
        "c = Child(lambda: time.sleep(60))\n"
        "print(c.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(Path(parallel.__file__).parents[2])),
    )
    worker = int(parent.stdout.readline())
    assert _state(worker) not in (None, "Z")  # working
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while _state(worker) not in (None, "Z") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _state(worker) in (None, "Z")
