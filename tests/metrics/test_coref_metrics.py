"""Coreference metrics from the literature (acescore.metrics.coref) and ``acescore coref``.

* Luo (2005), "On Coreference Resolution Performance Metrics", Tables 1 and 2: the Figure 1
  example, truth {1,2,3,4,5} {6,7} {8,9,A,B,C} and system responses (a)-(d).
* Cases with twinless mentions (key and response mention sets differ), hand-computed, some
  taken from the test-case descriptions of the CoNLL-2012 reference scorer (TC-A, TC-B).
* Mention alignment of APF documents (head overlap >= 0.3, maximum-weight one-to-one).
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as Fr
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from acescore.metrics import coref as C
from acescore.model.apf import Document, Entity, EntityMention, Locator
from acescore.rules.database import Side

GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "small"

# ---------------------------------------------------------------------------------------------
# Luo (2005), Figure 1

TRUTH = [[1, 2, 3, 4, 5], [6, 7], [8, 9, "A", "B", "C"]]
ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9, "A", "B", "C"]
SYSTEMS = {
    "a": [[1, 2, 3, 4, 5], [6, 7, 8, 9, "A", "B", "C"]],
    "b": [[1, 2, 3, 4, 5, 8, 9, "A", "B", "C"], [6, 7]],
    "c": [ALL],
    "d": [[m] for m in ALL],
}

# Table 1: F-measures (MUC, B-cube, CEAF phi3, CEAF phi4); MUC of (d) is printed "-" in the
# paper (no response links: 0/0); the CoNLL scorer and acescore give 0.
TABLE1 = {
    "a": (0.947, 0.865, 0.833, 0.733),
    "b": (0.947, 0.737, 0.583, 0.667),
    "c": (0.900, 0.545, 0.417, 0.294),
    "d": (None, 0.400, 0.250, 0.178),
}
# Table 2: B-cube R, P; phi3-CEAF R, P; phi4-CEAF R, P
TABLE2 = {
    "c": (1.0, 0.375, 0.417, 0.417, 0.196, 0.588),
    "d": (0.25, 1.0, 0.250, 0.250, 0.444, 0.111),
}


def r3(x: float) -> float:
    return round(x + 1e-12, 3)


@pytest.mark.parametrize("system", sorted(TABLE1))
def test_luo2005_table1(system):
    resp = SYSTEMS[system]
    muc_f, b3_f, c3_f, c4_f = TABLE1[system]
    if muc_f is None:
        assert C.muc(TRUTH, resp) == (0.0, 0.0, 0.0)
    else:
        assert r3(C.muc(TRUTH, resp)[2]) == muc_f
    assert r3(C.bcubed(TRUTH, resp)[2]) == b3_f
    assert r3(C.ceaf_m(TRUTH, resp)[2]) == c3_f
    assert r3(C.ceaf_e(TRUTH, resp)[2]) == c4_f


@pytest.mark.parametrize("system", sorted(TABLE2))
def test_luo2005_table2(system):
    resp = SYSTEMS[system]
    b3r, b3p, c3r, c3p, c4r, c4p = TABLE2[system]
    r, p, _ = C.bcubed(TRUTH, resp)
    assert (r3(r), r3(p)) == (b3r, b3p)
    r, p, _ = C.ceaf_m(TRUTH, resp)
    assert (r3(r), r3(p)) == (c3r, c3p)
    r, p, _ = C.ceaf_e(TRUTH, resp)
    assert (r3(r), r3(p)) == (c4r, c4p)


def test_luo2005_text_examples():
    # Section 3.1: MUC of (c) = recall 9/9, precision 9/11; CEAF phi4 of (a) = 11/15
    r, p, _ = C.muc(TRUTH, SYSTEMS["c"])
    assert r == 1.0 and p == pytest.approx(9 / 11)
    assert C.ceaf_e(TRUTH, SYSTEMS["a"])[2] == pytest.approx(11 / 15)
    # Section 2.2: phi3/phi4 examples through one-entity clusterings
    assert C.ceaf_m_counts([["a", "b", "c"]], [["a", "b"]])[0] == 2
    assert C.ceaf_e_counts([["a", "b", "c"]], [["a", "b"]])[0] == pytest.approx(0.8)
    assert C.ceaf_e_counts([["a", "b", "c"]], [["a"]])[0] == pytest.approx(0.5)


# ---------------------------------------------------------------------------------------------
# hand-computed cases, twinless mentions


def test_hand_case_twinless():
    """key {a b c} {d};  response {a b x} {c d}   (x twinless in the response)

    MUC:   key links 2+0 = 2, response links 2+1 = 3, common: |K1∩R1|-1 = 1
           R = 1/2, P = 1/3, F = 2/5
    B3:    R = (2²/3 + 1²/3 + 1²/1) / 4 = 2/3
           P = (2²/3 + 1²/2 + 1²/2) / 5 = 7/15, F = 28/51
    CEAFm: best map K1-R1 (2), K2-R2 (1): R = 3/4, P = 3/5, F = 2/3
    CEAFe: φ4(K1,R1) = 4/6, φ4(K2,R2) = 2/3: Φ = 4/3, R = P = F = 2/3
    BLANC: C_k = 3 links, C_r = 3 + 1 = 4, common coref link (a,b): R_c = 1/3, P_c = 1/4
           N_k = C(4,2) - 3 = 3, N_r = C(5,2) - 4 = 6, common (a,d) (b,d): R_n = 2/3,
           P_n = 1/3;  R = 1/2, P = 7/24, F = (2/7 + 4/9) / 2 = 23/63
    """
    key = [["a", "b", "c"], ["d"]]
    resp = [["a", "b", "x"], ["c", "d"]]
    assert C.muc(key, resp) == pytest.approx((1 / 2, 1 / 3, 2 / 5))
    assert C.bcubed(key, resp) == pytest.approx((2 / 3, 7 / 15, 28 / 51))
    assert C.ceaf_m(key, resp) == pytest.approx((3 / 4, 3 / 5, 2 / 3))
    assert C.ceaf_e(key, resp) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    assert C.blanc(key, resp) == pytest.approx((1 / 2, 7 / 24, 23 / 63))
    assert C.blanc_counts(key, resp) == (1, 3, 4, 2, 3, 6)


# CoNLL-2012 reference scorer, test/TestCases.README (expected values computed by hand there)
# key {a} {bc} {def}
CONLL_KEY = [["a"], ["b", "c"], ["d", "e", "f"]]
CONLL_CASES = {
    # name: (response, {metric: (recall, precision)})
    "TC-A-2": (
        [["a"], ["d", "e"]],
        {
            "bcub": (Fr(7, 18), 1),
            "muc": (Fr(1, 3), 1),
            "ceafm": (Fr(3, 6), 1),
            "ceafe": (Fr(9, 15), Fr(9, 10)),
            "blanc": ((Fr(1, 4) + Fr(2, 11)) / 2, 1),
        },
    ),
    "TC-A-3": (
        [["a"], ["b", "c", "x"], ["d", "e", "f", "y"], ["z"]],
        {
            "bcub": (1, Fr(55, 108)),
            "muc": (1, Fr(3, 5)),
            "ceafm": (1, Fr(6, 9)),
            "ceafe": ((1 + Fr(4, 5) + Fr(6, 7)) / 3, (1 + Fr(4, 5) + Fr(6, 7)) / 4),
            "blanc": (1, (Fr(4, 9) + Fr(11, 27)) / 2),
        },
    ),
    "TC-A-4": (
        [["a"], ["b", "c", "x"], ["d", "y"], ["z"]],
        {
            "bcub": (Fr(5, 9), Fr(17, 42)),
            "muc": (Fr(1, 3), Fr(1, 3)),
            "ceafm": (Fr(4, 6), Fr(4, 7)),
            "ceafe": (Fr(22, 30), Fr(22, 40)),
            "blanc": ((Fr(1, 4) + Fr(5, 11)) / 2, (Fr(1, 4) + Fr(5, 17)) / 2),
        },
    ),
    "TC-A-10": (
        [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]],
        {"bcub": (Fr(3, 6), 1), "muc": (0, 0), "blanc": ((0 + 1) / Fr(2), (0 + Fr(11, 15)) / 2)},
    ),
    "TC-A-11": (
        [["a", "b", "c", "d", "e", "f"]],
        {"bcub": (1, Fr(7, 18)), "muc": (1, Fr(3, 5)), "blanc": (Fr(1, 2), Fr(4, 15) / 2)},
    ),
    "TC-A-12": (
        [["a"], ["x"], ["y"], ["c"], ["d"], ["e"], ["z"]],
        {"bcub": (Fr(13, 36), Fr(4, 7)), "muc": (0, 0), "blanc": (Fr(5, 11) / 2, Fr(5, 21) / 2)},
    ),
    "TC-A-13": (
        [["a", "x", "y", "c", "d", "e", "z"]],
        {
            "bcub": (Fr(17, 36), Fr(6, 49)),
            "muc": (Fr(1, 3), Fr(1, 6)),
            "blanc": (Fr(1, 4) / 2, Fr(1, 21) / 2),
        },
    ),
}
FUNCS = {"muc": C.muc, "bcub": C.bcubed, "ceafm": C.ceaf_m, "ceafe": C.ceaf_e, "blanc": C.blanc}


@pytest.mark.parametrize("name", sorted(CONLL_CASES))
def test_conll_twinless_cases(name):
    resp, expected = CONLL_CASES[name]
    for metric, (er, ep) in expected.items():
        r, p, _ = FUNCS[metric](CONLL_KEY, resp)
        assert (r, p) == pytest.approx((float(er), float(ep))), metric


def test_conll_blanc_tc_b1():
    # key {ab} {cde}, response {bcx} {de}: R_c = P_c = 1/4, R_n = P_n = 2/6
    key = [["a", "b"], ["c", "d", "e"]]
    resp = [["b", "c", "x"], ["d", "e"]]
    assert C.blanc_counts(key, resp) == (1, 4, 4, 2, 6, 6)
    r, p, f = C.blanc(key, resp)
    assert (r, p, f) == pytest.approx(((1 / 4 + 1 / 3) / 2,) * 2 + ((1 / 4 + 1 / 3) / 2,))


def test_blanc_special_cases():
    # key without coreference links: only the non-coreference part
    assert C.blanc([["a"], ["b"], ["c"]], [["a", "b"], ["c"]]) == pytest.approx((2 / 3, 1.0, 0.8))
    # key without non-coreference links: only the coreference part
    assert C.blanc([["a", "b", "c"]], [["a", "b"], ["c"]]) == pytest.approx((1 / 3, 1.0, 0.5))
    # a single mention: no links at all
    assert C.blanc([["a"]], [["a"]]) == (0.0, 0.0, 0.0)


def test_empty_and_degenerate():
    for f in FUNCS.values():
        assert f([], []) == (0.0, 0.0, 0.0)
        assert f([["a", "b"]], []) == (0.0, 0.0, 0.0)
        assert f([], [["a", "b"]]) == (0.0, 0.0, 0.0)
    # singletons only, identical: no links for MUC, perfect elsewhere
    key = [["a"], ["b"]]
    assert C.muc(key, key) == (0.0, 0.0, 0.0)
    assert C.bcubed(key, key) == (1.0, 1.0, 1.0)
    assert C.ceaf_m(key, key) == (1.0, 1.0, 1.0)
    assert C.ceaf_e(key, key) == (1.0, 1.0, 1.0)
    assert C.blanc(key, key) == (1.0, 1.0, 1.0)
    # empty entities are ignored
    assert C.ceaf_e([["a"], []], [["a"]]) == (1.0, 1.0, 1.0)


def test_corpus_micro_average():
    """Numerators and denominators are summed over documents (CoNLL TOTALS), not F's.

    doc 1: key {a b}, response {a b}   -> MUC 1/1, 1/1
    doc 2: key {c d e}, response {c} {d} {e} -> MUC 0/2, 0/0
    corpus MUC: R = 1/3, P = 1/1
    """
    docs = [([["a", "b"]], [["a", "b"]]), ([["c", "d", "e"]], [["c"], ["d"], ["e"]])]
    s = C.corpus_scores(docs)
    assert (s["muc"]["recall"], s["muc"]["precision"]) == pytest.approx((1 / 3, 1.0))
    # B3: R = (2 + 3·1/3)/5 = 3/5, P = (2 + 3)/5 = 1
    assert (s["bcub"]["recall"], s["bcub"]["precision"]) == pytest.approx((3 / 5, 1.0))
    # CEAF-e: Φ = 1 + 2/4, key entities 2, response entities 4
    assert (s["ceafe"]["recall"], s["ceafe"]["precision"]) == pytest.approx((3 / 4, 3 / 8))
    # BLANC: counts summed: C: (1,1,1) + (0,3,0); N: (0,0,0) + (0,0,3) -> R_c = 1/4, P_c = 1,
    # key has no non-coreference links in total: coreference part only
    assert (s["blanc"]["recall"], s["blanc"]["precision"]) == pytest.approx((1 / 4, 1.0))
    assert set(s) == set(C.METRICS)
    for m in C.METRICS:
        assert set(s[m]) == {"recall", "precision", "f1"}


# ---------------------------------------------------------------------------------------------
# properties against brute-force definitions

clusterings = st.lists(st.lists(st.integers(0, 14), min_size=1, max_size=6), max_size=6)


def _partition(draw_lists):
    """Make entities disjoint (first occurrence wins)."""
    seen, out = set(), []
    for e in draw_lists:
        e2 = [m for m in dict.fromkeys(e) if m not in seen]
        seen.update(e2)
        if e2:
            out.append(e2)
    return out


def _muc_partition(key, resp):
    """Vilain et al.: Σ (|K| - |p(K)|) / Σ (|K| - 1), twinless mentions their own parts."""
    where = {m: i for i, e in enumerate(resp) for m in e}
    num = den = 0
    for k in key:
        parts = {where.get(m, ("alone", m)) for m in k}
        num += len(k) - len(parts)
        den += len(k) - 1
    return num, den


def _links(cl):
    co, non = set(), set()
    for e in cl:
        co.update(frozenset(p) for p in itertools.combinations(e, 2))
    for e1, e2 in itertools.combinations(cl, 2):
        non.update(frozenset((a, b)) for a in e1 for b in e2)
    return co, non


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(clusterings, clusterings)
def test_against_brute_force(k, r):
    key, resp = _partition(k), _partition(r)
    rn, rd, pn, pd = C.muc_counts(key, resp)
    assert (rn, rd) == _muc_partition(key, resp)
    assert (pn, pd) == _muc_partition(resp, key)
    kc, kn = _links(key)
    rc, rn_ = _links(resp)
    assert C.blanc_counts(key, resp) == (
        len(kc & rc),
        len(kc),
        len(rc),
        len(kn & rn_),
        len(kn),
        len(rn_),
    )
    # CEAF: brute force over one-to-one maps for small cases
    if len(key) <= 5 and len(resp) <= 5:
        best3 = best4 = 0.0
        small, big = (key, resp) if len(key) <= len(resp) else (resp, key)
        for perm in itertools.permutations(range(len(big)), len(small)):
            s3 = s4 = 0.0
            for i, j in enumerate(perm):
                c = len(set(small[i]) & set(big[j]))
                s3 += c
                s4 += 2 * c / (len(small[i]) + len(big[j]))
            best3, best4 = max(best3, s3), max(best4, s4)
        assert C.ceaf_m_counts(key, resp)[0] == pytest.approx(best3)
        assert C.ceaf_e_counts(key, resp)[0] == pytest.approx(best4)


@settings(max_examples=100, deadline=None)
@given(clusterings, clusterings)
@pytest.mark.slow
def test_symmetry(k, r):
    key, resp = _partition(k), _partition(r)
    for f in (C.muc, C.bcubed, C.ceaf_m, C.ceaf_e):
        a = f(key, resp)
        b = f(resp, key)
        assert (a[0], a[1], a[2]) == pytest.approx((b[1], b[0], b[2]))


@settings(max_examples=100, deadline=None)
@given(clusterings)
def test_identity_is_perfect(k):
    key = _partition(k)
    if not key:
        return
    for f in (C.bcubed, C.ceaf_m, C.ceaf_e):
        assert f(key, key) == (1.0, 1.0, 1.0)
    if any(len(e) > 1 for e in key):
        assert C.muc(key, key) == (1.0, 1.0, 1.0)
    if sum(len(e) for e in key) > 1:
        assert C.blanc(key, key) == (1.0, 1.0, 1.0)


# ---------------------------------------------------------------------------------------------
# APF: mention alignment


def _m(mid, start, end):
    loc = Locator("text", start, end)
    return EntityMention(mid, "NAM", "PER", "LITERAL", loc, Locator("text", start, end + 3))


def _e(eid, *mentions):
    return Entity(eid, "PER", "Individual", "SPC", tuple(mentions), (), "NAM")


def _doc(docid, *entities):
    return Document(
        docid, "newswire", docid + ".sgm", "text", docid + ".apf.xml", entities=tuple(entities)
    )


def test_align_mentions_threshold_and_weight():
    ref = [_m("r1", 0, 9)]
    # 0-9 vs 0-9: overlap 1;  5-9: 0.5;  0-1: 0.2 (< 0.3, never aligned)
    assert C.align_mentions(ref, [_m("s2", 5, 9), _m("s1", 0, 9)]) == {"s1": "r1"}
    assert C.align_mentions(ref, [_m("s3", 0, 1)]) == {}
    assert C.align_mentions(ref, [_m("s3", 0, 2)]) == {"s3": "r1"}  # exactly 0.3
    # one-to-one, maximum total overlap: r1 0-9, r2 10-19; s1 5-14 overlaps both by 0.5,
    # s2 10-19 is r2's exact twin -> s1-r1 (0.5) + s2-r2 (1.0)
    ref = [_m("r1", 0, 9), _m("r2", 10, 19)]
    sys = [_m("s1", 5, 14), _m("s2", 10, 19)]
    assert C.align_mentions(ref, sys) == {"s1": "r1", "s2": "r2"}


def test_coref_scores_apf_documents():
    """doc D1: REF A {a 0-4, b 10-14, c 20-22}, B {d 30-34};
    SYS X {0-4, 11-14 (overlap 4/5), 40-44 (twinless)}, Y {21-22 (overlap 2/3), 30-34}
    -> key {a b c} {d}, response {a b x} {c d}: the hand case above.
    doc D2: REF only (no SYS output): key {e f}, empty response."""
    ref = Side(
        "REF",
        documents={
            "D1": _doc(
                "D1",
                _e("A", _m("a", 0, 4), _m("b", 10, 14), _m("c", 20, 22)),
                _e("B", _m("d", 30, 34)),
            ),
            "D2": _doc("D2", _e("E", _m("e", 0, 4), _m("f", 10, 14))),
        },
    )
    sys = Side(
        "SYS",
        documents={
            "D1": _doc(
                "D1",
                _e("X", _m("x1", 0, 4), _m("x2", 11, 14), _m("x3", 40, 44)),
                _e("Y", _m("y1", 21, 22), _m("y2", 30, 34)),
            )
        },
    )
    _key, resp, al = C.document_clusterings(ref.documents["D1"], sys.documents["D1"])
    assert al == {"x1": "a", "x2": "b", "y1": "c", "y2": "d"}
    assert resp == [["a", "b", ("SYS", "x3")], ["c", "d"]]
    s = C.coref_scores(ref, sys, with_nist_b3=False)
    assert s["mentions"] == {"ref": 6, "sys": 5, "aligned": 4}
    # D1 MUC 1/2, 1/3 plus D2 0/1, 0/0 -> R = 1/3, P = 1/3
    assert (s["muc"]["recall"], s["muc"]["precision"]) == pytest.approx((1 / 3, 1 / 3))
    # B3: R = (8/3 + 0) / 6 = 4/9, P = (7/3) / 5 = 7/15
    assert (s["bcub"]["recall"], s["bcub"]["precision"]) == pytest.approx((4 / 9, 7 / 15))
    # CEAF-e: Φ = 4/3 over 3 key, 2 response entities
    assert (s["ceafe"]["recall"], s["ceafe"]["precision"]) == pytest.approx((4 / 9, 2 / 3))


def test_coref_scores_golden_small():
    from acescore.model.options import Options
    from acescore.run.pipeline import load

    def load_sides(ref, sys_):
        loaded = load(ref, sys_, Options())
        return loaded.ref, loaded.sys, loaded.params

    rside, sside, p = load_sides(str(GOLDEN / "ref"), str(GOLDEN / "sys-perfect"))
    s = C.coref_scores(rside, sside, p)
    for m in C.METRICS + ("bcub_nist",):
        assert s[m] == {"recall": 1.0, "precision": 1.0, "f1": 1.0}
    rside, sside, p = load_sides(str(GOLDEN / "ref"), str(GOLDEN / "sys-heavy"))
    s = C.coref_scores(rside, sside, p)
    # the NIST variant equals the tool's report (heavy__m.txt: B3 Unweighted 60.6 56.3 58.4)
    nist = s["bcub_nist"]
    assert (
        round(100 * nist["precision"], 1),
        round(100 * nist["recall"], 1),
        round(100 * nist["f1"], 1),
    ) == (60.6, 56.3, 58.4)
    for m in C.METRICS:
        assert 0 < s[m]["f1"] < 1


# ---------------------------------------------------------------------------------------------
# CLI


def _run(*args):
    from acescore.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.slow
def test_cli_coref_json_and_text(tmp_path):
    ref, sys = str(GOLDEN / "ref"), str(GOLDEN / "sys-heavy")
    res = _run("coref", ref, sys, "--format", "json", "-q")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    for m in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
        assert set(d[m]) == {"recall", "precision", "f1"}
        assert all(0.0 <= d[m][k] <= 100.0 for k in d[m])  # percent, as the text
    assert d["score_unit"] == "percent"
    assert d["conll_f1"] == pytest.approx((d["muc"]["f1"] + d["bcub"]["f1"] + d["ceafe"]["f1"]) / 3)
    assert d["signature"].endswith("|metric:coref|conll2012-v8|align:head")
    assert d["inputs"] == {"ref": ref, "sys": sys}
    res = _run("coref", ref, sys, "-q")
    assert res.exit_code == 0
    for label in ("MUC", "B-cubed", "CEAF-m", "CEAF-e", "BLANC", "Recall %"):
        assert label in res.output
    muc = next(ln for ln in res.output.splitlines() if ln.startswith("MUC"))
    assert muc.split()[1:] == [f"{d['muc'][k]:.2f}" for k in ("recall", "precision", "f1")]
    assert f"CoNLL F1 (mean of MUC, B-cubed, CEAF-e F1): {d['conll_f1']:.2f}" in res.output
    out = tmp_path / "c.json"
    res = _run("coref", ref, sys, "--format", "json", "-o", str(out), "-q")
    assert res.exit_code == 0 and res.output == ""
    assert json.loads(out.read_text()) == d


def test_cli_coref_bad_input(tmp_path):
    res = CliRunner().invoke(
        __import__("acescore.cli", fromlist=["main"]).main,
        ["coref", str(tmp_path / "nope"), str(GOLDEN / "sys-heavy")],
    )
    assert res.exit_code == 2
    assert "no such file or directory" in res.output
