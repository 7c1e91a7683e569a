"""The entity valuation's shortcuts give what the plain computations give, exactly:

- one ElementPass under two weightings (``map_level_weighting``: the mapping weighting's
  values computed in the scoring pass's loops) against two separate passes;
- the mention correspondences of promoted mentions derived from the entity pass's
  (:func:`promoted_correspondences`) against the overlap sweep on the promoted elements;
- a run whose mention chains find no entity correspondences of the document chain (as when
  acescore.run.parallel runs the chains in separate processes) against one that does.

Synthetic corpora (tools/acesynth.py), local and cross-document, with profiles that
make multi-mention entities with split, merged, shifted and mistyped mentions."""

from __future__ import annotations

from pathlib import Path

import pytest
from synth import make_corpus

from acescore import api
from acescore.model.params import get_params
from acescore.model.tasks import CHAINS
from acescore.run.pipeline import load
from acescore.scoring.correspondences import correspondences, promoted_correspondences
from acescore.scoring.elements import ElementPass
from acescore.scoring.engine import new_run, run_chain
from acescore.scoring.promote import promote_elements
from acescore.scoring.reference import SharedReference

#: the results of a pass that the reports and later passes read, under its weighting
RESULTS = (
    "doc_value",
    "value",
    "doc_fa",
    "fa_value",
    "doc_mv",
    "doc_costs",
    "pv",
    "name_map",
    "sigma_r",
    "sigma_s",
    "corr",
    "is_ref_mention",
    "cand",
    "rcand",
    "mv",
    "ev_self",
)


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("fused")
    return {
        "local": make_corpus(base / "local", 8, "fused-local", "heavy,coref,attributes"),
        "global": make_corpus(base / "global", 8, "fused-global", "heavy,coref", "--global"),
    }


def _sides(corpus: Path, profile: str, params: str):
    loaded = load(str(corpus / "ref"), str(corpus / f"sys-{profile}"), api.options(params, True))
    return loaded.ref, loaded.sys, get_params(params)


CASES = [
    ("local", "heavy", "local_2008"),
    ("local", "coref", "local_2008"),
    ("local", "attributes", "local_2008"),
    ("global", "coref", "global_2008"),
    ("global", "heavy", "global_2008_with_mentions"),
]


def _assert_twin_matches(kind, ref, sys, p, score_lw: bool) -> None:
    plain_map = ElementPass(kind, ref, sys, p, not score_lw).run()
    plain_score = ElementPass(kind, ref, sys, p, score_lw).run()
    twin = ElementPass(kind, ref, sys, p, score_lw, map_level_weighting=not score_lw).run()
    assert twin.twin
    for name in RESULTS:
        assert getattr(twin, name) == getattr(plain_score, name), name
    assert twin.map_pv == plain_map.pv
    assert twin.map_fa_value == plain_map.fa_value
    assert twin.map_doc_fa == plain_map.doc_fa
    assert twin.map_value == {k: v for k, v in plain_map.value.items() if k[0] == "SYS"}
    assert twin.mention_map == plain_map.mention_map
    # the weightings differ on these sides, so the comparison above is not vacuous
    assert plain_map.pv != plain_score.pv and plain_map.pv


@pytest.mark.slow
@pytest.mark.parametrize("where,profile,params", CASES)
def test_one_pass_under_two_weightings_equals_two_passes(corpora, where, profile, params):
    ref, sys, p = _sides(corpora[where], profile, params)
    for score_lw in (True, False):
        _assert_twin_matches("entity", ref.of("entity"), sys.of("entity"), p, score_lw)


@pytest.mark.slow
def test_one_pass_under_two_weightings_promoted_mentions(corpora):
    ref, sys, p = _sides(corpora["local"], "heavy", "local_2008")
    r_prom, _ = promote_elements(ref.of("entity"))
    s_prom, _ = promote_elements(sys.of("entity"))
    _assert_twin_matches("entity", r_prom, s_prom, p, True)


def test_no_twin_for_values_or_one_weighting(corpora):
    ref, sys, p = _sides(corpora["local"], "heavy", "local_2008")
    assert not ElementPass("value", ref.of("value"), sys.of("value"), p, True, False).twin
    one = ElementPass("entity", ref.of("entity"), sys.of("entity"), p, True, True).run()
    assert not one.twin and one.map_pv is one.pv and one.map_fa_value is one.fa_value


@pytest.mark.parametrize("where,profile,params", [c for c in CASES if c[2] != "global_2008"])
def test_promoted_correspondences_equal_the_sweep(corpora, where, profile, params):
    ref, sys, p = _sides(corpora[where], profile, params)
    rent, sent = ref.of("entity"), sys.of("entity")
    corr, _, _ = correspondences("entity", rent, sent, p)
    r_prom, _ = promote_elements(rent)
    s_prom, _ = promote_elements(sent)
    assert promoted_correspondences(corr, r_prom, s_prom, True) == correspondences(
        "entity", r_prom, s_prom, p
    )
    assert promoted_correspondences(corr, rent, s_prom, False) == correspondences(
        "entity", rent, s_prom, p
    )
    # subsets of either side (the mention-level argument passes value some elements only)
    r_some = {k: v for i, (k, v) in enumerate(sorted(rent.items())) if i % 3}
    s_some = {k: v for i, (k, v) in enumerate(sorted(s_prom.items())) if i % 2}
    got = promoted_correspondences(corr, r_some, s_some, False)
    assert got == correspondences("entity", r_some, s_some, p)
    assert got[0] and len(got[0]) < len(promoted_correspondences(corr, rent, s_prom, False)[0])


def _pass_numbers(run) -> list:
    out = []
    for res in run.passes:
        out.append(
            (
                res.task,
                res.doc_value,
                res.value,
                res.doc_fa,
                res.fa_value,
                res.mapping,
                res.doc_mv,
                res.doc_costs,
                res.pair_value,
                res.mention_map,
                res.name_map,
                res.corr,
                res.sigma_r,
                res.sigma_s,
            )
        )
    return out


def test_mention_chains_without_the_document_chains_correspondences(corpora):
    ref, sys, p = _sides(corpora["local"], "heavy", "local_2008")
    shared = new_run(ref, sys, p)
    for chain in CHAINS:
        run_chain(shared, chain, True)
    apart = new_run(ref, sys, p)
    for chain in CHAINS:
        apart.entity_corr = None  # each chain as if in a process of its own
        run_chain(apart, chain, True)
    tasks = [r.task for r in shared.passes]
    assert "mention_entity" in tasks and "mention_relation" in tasks
    assert _pass_numbers(shared) == _pass_numbers(apart)
    assert shared.mention_args.self_value == apart.mention_args.self_value
    assert shared.mention_args.pair_value == apart.mention_args.pair_value


def _scored(ref, sys, p, shared=None):
    run = new_run(ref, sys, p, [], shared=shared)
    for chain in CHAINS:
        run_chain(run, chain, True)
    return run


@pytest.mark.slow
def test_runs_sharing_their_reference_equal_runs_alone(corpora):
    """SharedReference (compare: several systems against one shard's REF side): what the
    first run computes of the REF side alone (promotions with their warnings, REF self
    values) taken by the others, their numbers and warnings are those of runs without it."""
    first = _sides(corpora["local"], "heavy", "local_2008")[0]
    shared = SharedReference(first, get_params("local_2008"))
    for profile in ("heavy", "coref", "attributes"):
        ref, sys, p = _sides(corpora["local"], profile, "local_2008")
        alone, sharing = _scored(ref, sys, p), _scored(first, sys, p, shared)
        assert sharing.shared is shared
        assert _pass_numbers(sharing) == _pass_numbers(alone)
        assert sharing.warnings == alone.warnings
        assert [r.task for r in sharing.passes][-2:] == ["mention_relation", "mention_event"]
    assert {k[0] for k in shared._kept} == {"promoted", "promoted releves", "self values"}
    assert not new_run(ref, sys, p, shared=shared).shared  # another REF side: not served


def test_name_similarity_of_one_name_each():
    """The one-name shortcut of entity_name_similarity: NS = (s + s) / 2 = s, map {0: 0};
    below the threshold (or no similarity at all) 0 and no map; an entity that is not NAM
    on both sides has no names to compare."""
    from types import SimpleNamespace as E

    from acescore.scoring.names import entity_name_similarity, name_maps

    a = E(level="NAM", names=("john smith",))
    b = E(level="NAM", names=("jon smith",))
    assert entity_name_similarity(a, b, 0.5) == (1 - 1 / 10, {0: 0})
    assert entity_name_similarity(a, b, 0.95) == (0, None)
    assert entity_name_similarity(a, E(level="NAM", names=("xyz",)), 0) == (0, None)
    assert entity_name_similarity(a, E(level="NOM", names=("jon smith",)), 0) == (0, None)
    # two names against one: the general path (best per name, averaged; bgm map)
    two = E(level="NAM", names=("jon smith", "john smith"))
    assert entity_name_similarity(two, a, 0.5) == ((0.9 + 1.0 + 1.0) / 3, {1: 0})
    g = lambda x: E(docs={"D": x})  # noqa: E731
    ref = {"R1": g(a), "R2": g(E(level="PRO", names=("he",))), "R3": g(two)}
    sys = {"S1": g(b), "S2": g(E(level="NAM", names=("he",))), "S3": g(a)}
    valued = {("R1", "S1", "D"): 1.0, ("R2", "S2", "D"): 0.5, ("R3", "S3", "D"): 0.7}
    mapping = {"R1": "S1", "R2": "S2", "R3": "S3"}
    assert name_maps(ref, sys, mapping, valued, 0.5) == {
        ("R1", "S1", "D"): {0: 0},
        ("R3", "S3", "D"): {1: 0},
    }


def _recording_tables(monkeypatch) -> list:
    """Record every cost table that ElementPass._matching receives, with its rows' order."""
    tables = []
    matching = ElementPass._matching

    def record(self, rms, tms, fa_norm, fa_scores, scores_of, costs):
        tables.append([(j, list(row.items())) for j, row in costs.items()])
        return matching(self, rms, tms, fa_norm, fa_scores, scores_of, costs)

    monkeypatch.setattr(ElementPass, "_matching", record)
    return tables


def _matched_by_pairs(ep, rms, tms, fa_norm, fa_scores):
    """What ElementPass._matched_mentions gives with the cost table made by looking up
    every pair of mentions, SYS mention by SYS mention."""
    scores_of = [ep.corr.get(rm.id) for rm in rms]
    costs: dict = {}
    for j, tm in enumerate(tms):
        for i, sc in enumerate(scores_of):
            s = sc.get(tm.id) if sc is not None else None
            if s is not None:
                costs.setdefault(j, {})[i] = fa_norm * fa_scores[j] - s
    if not costs:
        return None, None, None, None
    return ep._matching(rms, tms, fa_norm, fa_scores, scores_of, costs)


@pytest.mark.parametrize("where,profile,params", [c for c in CASES if c[2] != "global_2008"])
def test_mention_costs_from_correspondences_equal_every_pair(
    corpora, where, profile, params, monkeypatch
):
    """The cost table of two document elements' mentions, made from each REF mention's
    corresponding SYS mentions, is the one made by looking up every pair of mentions: the
    same rows and costs in the same order (the matching's ties depend on it), the same
    map and values."""
    ref, sys, p = _sides(corpora[where], profile, params)
    tables = _recording_tables(monkeypatch)
    fast = ElementPass._matched_mentions
    seen = {"calls": 0, "rows": 0}

    def both(self, rms, tms, fa_norm, fa_scores):
        n = len(tables)
        got = fast(self, rms, tms, fa_norm, fa_scores)
        m = len(tables)
        want = _matched_by_pairs(self, rms, tms, fa_norm, fa_scores)
        assert got == want
        assert tables[n:m] == tables[m:]
        seen["calls"] += 1
        seen["rows"] = max([seen["rows"]] + [len(t) for t in tables[n:m]])
        return got

    monkeypatch.setattr(ElementPass, "_matched_mentions", both)
    ElementPass("entity", ref.of("entity"), sys.of("entity"), p, True).run()
    assert seen["calls"] > 10 and seen["rows"] > 2  # chains matched, not single pairs


def test_repeated_sys_mention_id_looks_up_every_pair(monkeypatch):
    """A SYS element whose mentions repeat an ID: every one of them gets its row (the
    table by pairs), in SYS index order."""
    from types import SimpleNamespace as NS

    tables = _recording_tables(monkeypatch)
    ep = ElementPass.__new__(ElementPass)
    ep.corr = {"r1": {"s1": 0.5}, "r2": {"s2": 0.25, "s1": 0.125}}
    ep.sigma_r = {"r1": 1.0, "r2": 1.0}
    rms = [NS(id="r1"), NS(id="r2")]
    tms = [NS(id="s2"), NS(id="s1"), NS(id="s1")]
    got = ep._matched_mentions(rms, tms, 1.0, [-1.0, -1.0, -1.0])
    assert tables == [
        [(0, [(1, -1.25)]), (1, [(0, -1.5), (1, -1.125)]), (2, [(0, -1.5), (1, -1.125)])]
    ]
    # without the repeated ID, the table from the correspondences: rows in SYS order
    tables.clear()
    ep._matched_mentions(rms, tms[:2], 1.0, [-1.0, -1.0])
    assert tables == [[(0, [(1, -1.25)]), (1, [(0, -1.5), (1, -1.125)])]]
    assert got[1] and got[0] is not None
