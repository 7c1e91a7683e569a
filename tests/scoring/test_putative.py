"""The putative pairs of the relation/event passes (acescore/scoring/putative.py) leave out
only pairs that get no value: scoring with them gives exactly what valuing every REF/SYS
pair of a document gives (every result of every relation/event pass, and the warnings)."""

from __future__ import annotations

import pytest
from test_releves_golden import load

import acescore.scoring.releves as releves
from acescore.model.params import get_params
from acescore.rules.database import check_docs
from acescore.scoring.engine import run_scoring
from acescore.scoring.putative import putative_pairs

RESULTS = (
    "doc_value",
    "value",
    "doc_fa",
    "fa_value",
    "doc_mv",
    "doc_costs",
    "pair_value",
    "mapping",
    "argument_map",
    "arg_errors",
    "mention_map",
)


def every_pair(sc) -> dict:
    """What the tool values: every REF/SYS pair with a document in common."""
    out: dict = {}
    for rid, r in sc.ref.items():
        for sid, s in sc.sys.items():
            if set(r.docs) & set(s.docs) & set(sc.rside.documents):
                out.setdefault(rid, set()).add(sid)
    return out


def scored(corpus, sysname, pname, monkeypatch, pairs):
    p = get_params(pname)
    w: list = []
    ref = load(corpus, "ref.list", p, "REF", w)
    sys_ = load(corpus, f"sys-{sysname}.list", p, "SYS", w, ref.documents)
    check_docs(ref, sys_, w)
    monkeypatch.setattr(releves, "putative_pairs", pairs)
    run = run_scoring(ref, sys_, p, True, w)
    return {r.task: r for r in run.passes if r.kind in ("relation", "event")}, w


@pytest.mark.slow
@pytest.mark.parametrize(
    "pname", ["local_2008", "local_2007", "global_2008", "global_2008_with_mentions"]
)
@pytest.mark.parametrize(
    "corpus,sysname", [("small", "heavy"), ("small", "coref"), ("global", "heavy")]
)
def test_screened_pairs_score_as_every_pair(corpus, sysname, pname, monkeypatch):
    left_out = []

    def counting(sc):
        mine, every = putative_pairs(sc), every_pair(sc)
        assert all(s in every.get(r, ()) for r, ss in mine.items() for s in ss)
        left_out.append(sum(map(len, every.values())) - sum(map(len, mine.values())))
        return mine

    fast, w_fast = scored(corpus, sysname, pname, monkeypatch, counting)
    full, w_full = scored(corpus, sysname, pname, monkeypatch, every_pair)
    assert sum(left_out) > 0  # the screening does leave pairs out here
    assert w_fast == w_full
    assert list(fast) == list(full) and fast
    for task in full:
        for name in RESULTS:
            assert getattr(fast[task], name) == getattr(full[task], name), (task, name)
