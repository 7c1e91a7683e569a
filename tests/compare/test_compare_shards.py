"""``acescore compare`` in document shards (acescore.compare.shards): every shard's REF read
and built once, each system scored against it shard by shard; the comparison, the warnings,
the coverage and the signature's DOCTYPEs those of the systems scored in one process each,
and where the plan does not hold (an ID in two shards) the systems are scored that way."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from acescore.compare import systems as compare_systems
from acescore.compare.analysis import compare
from acescore.compare.systems import score_systems
from acescore.model.errors import AceError, AceInputError
from acescore.model.options import Options
from acescore.run import entry, shards
from acescore.run.pipeline import discover

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"
SYSTEMS = ("sys-heavy", "sys-coref", "sys-perfect")


@pytest.fixture
def sharded(monkeypatch):
    """Shards at the golden corpus's size (10 documents, 0.5 MB): no small run, and a shard
    of at most a fifth of its REF bytes; the list collects what the shards returned."""
    monkeypatch.setattr(entry, "SMALL_RUN_BYTES", 0)
    total = sum(os.path.getsize(p) for p in discover(str(SMALL / "ref")))
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", total // 5 + 1)
    got: list = []
    real = compare_systems.score_in_shards

    def spy(plans, options, names):
        out = real(plans, options, names)
        got.append((len(plans), out is not None))
        return out

    monkeypatch.setattr(compare_systems, "score_in_shards", spy)
    return got


def _scored(ref: Path, systems: list, jobs: int, literature: bool = True, nist: str = "ace08"):
    opts = Options(mentions=True, jobs=jobs, literature=literature, nist=nist)
    return score_systems(discover(str(ref)), [discover(str(s)) for s in systems], opts)


def _alone(monkeypatch, ref: Path, systems: list, literature: bool = True, nist: str = "ace08"):
    """The systems scored one after the other, each in one piece (no shards)."""
    with monkeypatch.context() as m:
        m.setattr(compare_systems, "applicable", lambda *a: None)
        return _scored(ref, systems, 1, literature, nist)


def _same(a, b) -> None:
    assert compare(a, 200, 500, 7) == compare(b, 200, 500, 7)
    assert a.warnings == b.warnings and a.dtd == b.dtd and a.coverage == b.coverage
    assert a.docids == b.docids
    for sa, sb in zip(a.systems, b.systems):
        assert sa.absent == sb.absent and list(sa.tasks) == list(sb.tasks)
        for t, ta in sa.tasks.items():
            tb = sb.tasks[t]
            assert ta.value == tb.value and (ta.x == tb.x).all(), t
            assert ta.partners == tb.partners, t


@pytest.mark.slow
@pytest.mark.parametrize(("jobs", "nist"), [(1, "ace08"), (2, "ace08"), (2, "ace05")])
def test_shards_give_the_comparison_of_one_process(sharded, monkeypatch, jobs, nist):
    systems = [SMALL / s for s in SYSTEMS]
    one = _alone(monkeypatch, SMALL / "ref", systems, nist=nist)
    assert sharded == []
    many = _scored(SMALL / "ref", systems, jobs, nist=nist)
    assert sharded and sharded[0][0] >= 4 and sharded[0][1]  # more shards than processes
    assert any(one.warnings[n] for n in one.warnings if n != "REF")  # (warnings to merge)
    _same(one, many)


_ENTITY = re.compile(r'<entity ID="([^"]+)"([^>]*)>')


def _reuse_id(sys_dir: Path, same_attributes: bool) -> None:
    """An entity of the last document given the ID of one of the first document's (with
    the same attributes, or not)."""
    files = sorted(sys_dir.iterdir())
    first = _ENTITY.findall(files[0].read_text(encoding="utf-8"))
    text = files[-1].read_text(encoding="utf-8")
    pairs = [
        (a, b) for a, attrs in first for b, battrs in _ENTITY.findall(text) if (attrs == battrs)
    ]
    if not same_attributes:
        pairs = [(a, b) for a, attrs in first for b, battrs in _ENTITY.findall(text)][-1:]
    assert pairs
    old, new = pairs[0][1], pairs[0][0]
    files[-1].write_text(text.replace(f'"{old}"', f'"{new}"'), encoding="utf-8")


@pytest.mark.slow
def test_an_id_in_two_shards_scores_in_one_process(sharded, monkeypatch, tmp_path):
    """A SYS entity ID used in the first and the last document (one element for the NIST
    tool): the shards cannot bear out the plan, the systems are scored as before; where
    that element's attributes conflict, the error is that of one process."""
    sys_dir = tmp_path / "sys"
    shutil.copytree(SMALL / "sys-heavy", sys_dir)
    _reuse_id(sys_dir, True)
    systems = [sys_dir, SMALL / "sys-coref"]
    one = _alone(monkeypatch, SMALL / "ref", systems, literature=False)
    many = _scored(SMALL / "ref", systems, 2, literature=False)
    assert sharded and not sharded[0][1]
    _same(one, many)
    shutil.rmtree(sys_dir)
    shutil.copytree(SMALL / "sys-heavy", sys_dir)
    _reuse_id(sys_dir, False)
    with pytest.raises(AceInputError) as alone:
        _alone(monkeypatch, SMALL / "ref", systems, literature=False)
    assert "attribute value conflict" in str(alone.value)
    with pytest.raises(AceError) as in_shards:  # (said by a worker scoring a system)
        _scored(SMALL / "ref", systems, 2, literature=False)
    assert str(in_shards.value) == str(alone.value)
