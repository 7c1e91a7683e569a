"""Small runs (acescore.run.entry.SMALL_RUN_BYTES): below that many bytes of REF files a run
forks no worker process whatever ``--jobs`` says -- no shards, no second chain of passes,
no rendering process -- and its report is the golden one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from acescore import api
from acescore.model.options import Options
from acescore.run import entry
from acescore.run.entry import SMALL_RUN_BYTES, plan_run, small_run

TINY = Path(__file__).parent.parent / "data" / "golden" / "tiny"


@pytest.fixture
def real_threshold(monkeypatch):
    """The threshold the program runs with (tests/conftest.py sets it to 0 for the rest)."""
    monkeypatch.setattr(entry, "SMALL_RUN_BYTES", SMALL_RUN_BYTES)


@pytest.fixture
def no_fork(monkeypatch):
    """A run that tries to fork fails the test."""

    def refuse():
        raise AssertionError("a small run forked a process")

    monkeypatch.setattr(os, "fork", refuse)


def _files(tmp_path: Path, sizes: list) -> list:
    out = []
    for i, n in enumerate(sizes):
        p = tmp_path / f"f{i}.apf.xml"
        p.write_bytes(b"x" * n)
        out.append(str(p))
    return out


def test_small_run_threshold(tmp_path, real_threshold):
    """Below SMALL_RUN_BYTES of files (summed) a run is small; at it, not; a file that
    cannot be read counts nothing."""
    assert SMALL_RUN_BYTES == 512 << 10
    half = SMALL_RUN_BYTES // 2
    assert small_run(_files(tmp_path, [half, half - 1]))
    assert not small_run(_files(tmp_path, [half, half]))
    assert small_run([str(tmp_path / "missing.apf.xml")])


def test_plan_of_a_small_run(real_threshold):
    """The golden tiny corpus (84 KB of REF files) with --jobs 4: no shards, --jobs 1."""
    plans, opts = plan_run(str(TINY / "ref"), str(TINY / "sys-heavy"), Options(jobs=4))
    assert plans is None and opts.jobs == 1
    plans, opts = plan_run(str(TINY / "ref"), str(TINY / "sys-heavy"), Options(jobs=1))
    assert plans is None and opts.jobs == 1


def test_plan_above_the_threshold(monkeypatch):
    """The same corpus planned as a large one (threshold 0): three shards for --jobs 4,
    and --jobs stays 4."""
    monkeypatch.setattr(entry, "SMALL_RUN_BYTES", 0)
    plans, opts = plan_run(str(TINY / "ref"), str(TINY / "sys-heavy"), Options(jobs=4))
    assert plans is not None and len(plans) == 3 and opts.jobs == 4


@pytest.mark.slow
def test_small_run_forks_nothing(real_threshold, no_fork):
    """--jobs 4 on the tiny corpus: no fork at all, and the golden report."""
    res = api.score(str(TINY / "ref"), str(TINY / "sys-heavy"), "local_2008", True, jobs=4)
    expected = (TINY / "expected" / "heavy__m.txt").read_text().split("\n", 1)[1]
    assert res.shards is None
    assert res.to_text() == expected
