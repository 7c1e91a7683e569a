"""The column-wise report code against plain one-record-at-a-time reference implementations.

acescore.report.counts.tables and .recognition compute records, condition values, cell sums and
recognition counts over whole columns (encoded keys, one look at each element); the
references below follow docs/rules/report.md record by record, as the original code did.  Random
passes cover multi-document elements, missing attributes, partly mapped elements and
values on the bin boundaries.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_report_fixtures import (
    entity,
    event,
    finish,
    glob,
    mention,
    relation,
    timex2,
    tiny_entities,
    tiny_relations,
    value,
)

from acescore.model.apf import Entity
from acescore.model.params import get_params
from acescore.report.counts import recognition as rec
from acescore.report.counts import releve_recognition as rrec
from acescore.report.counts.condition_values import ConditionValues
from acescore.report.counts.conditions import (
    ARG_COUNT_BINS,
    ARG_ERROR_BINS,
    ATTRIBUTE_FIELDS,
    ENTITY_MENTION_COUNT_BINS,
    ENTROPY_BINS,
    EPS,
    ERROR_ATTRIBUTES,
    OTHER_MENTION_COUNT_BINS,
    RAW_ATTRIBUTE_KEYS,
    RECOGNITION_ATTRIBUTES,
    VALUE_BINS,
    XDOC_BINS,
    attribute_codes,
    attribute_tuple_getter,
    bin_codes,
    bin_of,
    encode,
    table_specs,
)
from acescore.report.counts.grouped import Summands
from acescore.report.counts.records import (
    DOC_STATUSES,
    ELEMENT_STATUSES,
    attribute_errors,
    build_records,
)
from acescore.report.counts.tables import Keys, PassTables, grouped_sums
from acescore.scoring.result import PassResult

P = get_params("local_2008")
DOCS = ("D1", "D2", "D3")
BOUNDARY_VALUES = (
    None,
    0.0,
    -0.0,
    0.2,
    0.200005,
    0.2000050001,
    0.5,
    1.0,
    1.00000501,
    2.0,
    4.0,
    4.000005,
    4.0000051,
    7.5,
    -1.0,
)


# ---- random passes -------------------------------------------------------------------


def _entity_doc(rng, eid, d, etype):
    n = rng.choice((1, 1, 2, 3, 5, 9))
    mentions = [
        mention(
            f"{eid}-{d}-{k}",
            rng.choice(("NAM", "NOM", "PRO")),
            10 * k,
            10 * k + rng.randint(0, 6),
            rng.choice((etype, "PER", "ORG")),
            rng.choice(("LITERAL", "LITERAL", "METONYMIC")),
        )
        for k in range(n)
    ]
    subtype = rng.choice(("Individual", "Group", "Government", None))
    cls = rng.choice(("SPC", "GEN", "USP", None))
    names = tuple(sorted({rng.choice(("a", "b", "c")) for _ in range(rng.randint(0, 2))}))
    return entity(eid, etype, subtype, cls, mentions, names)


def random_entity_pass(seed: int, multi: bool = True, b3: bool = False) -> PassResult:
    rng = random.Random(seed)

    def elements(prefix, n):
        out = {}
        for i in range(n):
            eid = f"{prefix}{i:02d}"
            k = rng.choice((1, 1, 2, 3)) if multi else 1
            etype = rng.choice(("PER", "ORG", "GPE"))
            docs = {d: _entity_doc(rng, eid, d, etype) for d in rng.sample(DOCS, k)}
            out[eid] = glob(
                "entity", eid, docs, name_entropy=rng.choice((None, 0.1, 0.3, 0.300005, 0.7, 2.0))
            )
        return out

    ref, sys = elements("E", 40), elements("S-E", 35)
    res = PassResult("entity", "entity", ref, sys)
    sids = list(sys)
    rng.shuffle(sids)
    for rid in ref:
        if sids and rng.random() < 0.7:
            res.mapping[rid] = sids.pop()
    for d in DOCS:
        res.sources[d] = rng.choice(("newswire", "weblog"))
    for side, coll in (("REF", ref), ("SYS", sys)):
        for eid, g in coll.items():
            for d in g.docs:
                res.doc_value[(side, eid, d)] = rng.choice(BOUNDARY_VALUES[1:])
                res.languages[(side, eid, d)] = rng.choice(("English", "Arabic", None, ""))
            if rng.random() < 0.3:
                res.value[(side, eid)] = rng.choice(BOUNDARY_VALUES)
            if side == "SYS":
                for d in g.docs:
                    if rng.random() < 0.9:
                        res.doc_fa[(eid, d)] = -rng.random()
    for rid, sid in res.mapping.items():
        for d in ref[rid].docs:
            if d in sys[sid].docs and rng.random() < 0.85:
                res.doc_costs[(rid, sid, d)] = tuple(
                    rng.random() * 10.0 ** rng.randint(-9, 0) for _ in range(4)
                )
                res.doc_mv[(rid, sid, d)] = res.doc_value[("REF", rid, d)] - rng.choice(
                    (0.0, 1e-9, 0.01, 0.3)
                )
                res.mention_map[(rid, sid, d)] = {
                    i: i
                    for i in range(
                        min(len(ref[rid].docs[d].mentions), len(sys[sid].docs[d].mentions))
                    )
                    if rng.random() < 0.8
                }
                res.name_map[(rid, sid, d)] = (
                    {0: 0} if (ref[rid].docs[d].names and sys[sid].docs[d].names) else {}
                )
    finish(res)
    if b3:
        from test_report_fixtures import perfect_b3

        res.b3 = perfect_b3(res)
    return res


def random_relation_pass(seed: int) -> PassResult:
    rng = random.Random(seed)
    ref, sys = {}, {}
    for coll, prefix, n in ((ref, "R", 30), (sys, "S-R", 25)):
        for i in range(n):
            rid = f"{prefix}{i:02d}"
            args = [("Arg-1", f"E{rng.randint(0, 5)}"), ("Arg-2", f"E{rng.randint(0, 5)}")]
            if rng.random() < 0.3:
                args.append(("Time-Within", f"T{rng.randint(0, 2)}"))
            r = relation(
                rid,
                rng.choice(("ORG-AFF", "PHYS")),
                rng.choice(("Employment", "Located", None)),
                args,
                modality=rng.choice(("Asserted", "Other")),
            )
            coll[rid] = glob("relation", rid, {DOCS[0]: r})
    res = PassResult("relation", "relation", ref, sys)
    sids = list(sys)
    rng.shuffle(sids)
    for rid in ref:
        if sids and rng.random() < 0.7:
            sid = sids.pop()
            res.mapping[rid] = sid
            res.doc_costs[(rid, sid, DOCS[0])] = (0.0, 0.1, 0.0, 0.0)
            res.doc_mv[(rid, sid, DOCS[0])] = 0.5
            res.arg_errors[rid] = rng.choice((0, 0, 1, 2))
            amap = {}
            for (role, a), (srole, sa) in zip(ref[rid].arg_pairs, sys[sid].arg_pairs):
                if rng.random() < 0.7:
                    amap[(srole, sa)] = (role, a)
            res.argument_map[(rid, sid)] = amap
    for side, coll in (("REF", ref), ("SYS", sys)):
        for eid in coll:
            res.doc_value[(side, eid, DOCS[0])] = rng.choice(BOUNDARY_VALUES[1:])
    return finish(res)


PASSES = (
    [pytest.param(lambda s=s: random_entity_pass(s), id=f"entity-multi-{s}") for s in range(4)]
    + [
        pytest.param(lambda s=s: random_entity_pass(s, multi=False), id=f"entity-{s}")
        for s in range(3)
    ]
    + [
        pytest.param(lambda: random_entity_pass(7, b3=True), id="entity-b3"),
        pytest.param(lambda: random_relation_pass(1), id="relation-1"),
        pytest.param(lambda: random_relation_pass(2), id="relation-2"),
        pytest.param(tiny_entities, id="tiny-entities"),
        pytest.param(tiny_relations, id="tiny-relations"),
    ]
)


# ---- the reference: one record at a time ---------------------------------------------------


def reference_records(res):
    """Records as (side, eid, docid, status, cost, norm, comps, d) and (side, eid, status)."""
    docs, elems = [], []
    releve = res.kind in ("relation", "event")
    for rid in sorted(res.ref):
        g = res.ref[rid]
        sid = res.mapping.get(rid)
        sg = res.sys.get(sid) if sid is not None else None
        for d in sorted(g.docs):
            rd = g.docs[d]
            v = res.doc_value.get(("REF", rid, d), 0.0)
            comps = res.doc_costs.get((rid, sid, d)) if sg is not None and d in sg.docs else None
            if comps is not None:
                cost = v - res.doc_mv.get((rid, sid, d), 0.0)
                if cost < EPS:
                    cost = 0.0
                errs = attribute_errors(res.kind, rd, sg.docs[d])
                if releve:
                    errs += res.arg_errors.get(rid, 0)
                docs.append(("REF", rid, d, "error" if errs else "correct", cost, v, comps, rd))
            else:
                docs.append(("REF", rid, d, "miss", v, v, None, rd))
        elems.append(("REF", rid, "mapped" if sid is not None else "miss"))
    for sid in sorted(res.sys):
        g = res.sys[sid]
        rid = res.rmapping.get(sid)
        rg = res.ref.get(rid) if rid is not None else None
        for d in sorted(g.docs):
            if rg is not None and d in rg.docs:
                continue
            docs.append(("SYS", sid, d, "fa", -res.doc_fa.get((sid, d), 0.0), 0.0, None, g.docs[d]))
        if rid is None:
            elems.append(("SYS", sid, "fa"))
    return docs, elems


def reference_value(res, side, eid, docid, cond):
    """The condition value of a record (docid None: element level), docs/rules/report.md §3.2."""
    cv = ConditionValues(res)
    g = (res.ref if side == "REF" else res.sys)[eid]
    v = cv._compute(side, eid, g, docid, cond)
    return "<null>" if v is None or v == "" else v


def reference_cells(res, cond):
    """Row key -> (doc sums, doc counts, element counts), sums added one record at a time."""
    docs, elems = reference_records(res)
    out: dict = {}
    for side, eid, d, status, cost, norm, comps, _ in docs:
        key = reference_value(res, side, eid, d, cond)
        sums, counts, _ = out.setdefault(key, ([0.0] * 9, [0] * 4, [0] * 3))
        col = DOC_STATUSES.index(status)
        counts[col] += 1
        row = [0.0] * 9
        row[col] = cost
        if comps is not None:
            row[4:8] = comps
        row[8] = norm
        for j in range(9):
            sums[j] += row[j]
    for side, eid, status in elems:
        key = reference_value(res, side, eid, None, cond)
        _, _, ecounts = out.setdefault(key, ([0.0] * 9, [0] * 4, [0] * 3))
        ecounts[ELEMENT_STATUSES.index(status)] += 1
    return out


def cell_tuple(c):
    return (
        [
            c.c_correct,
            c.c_error,
            c.c_miss,
            c.c_fa,
            c.attr_err,
            c.miss_sub,
            c.err_sub,
            c.fa_sub,
            c.norm,
        ],
        [c.correct, c.error, c.miss, c.fa],
        [c.mapped, c.emiss, c.efa],
    )


def _same_floats(a, b):
    return all(x == y and str(x) == str(y) for x, y in zip(a, b)) and len(a) == len(b)


# ---- records and cells ----------------------------------------------------------------


@pytest.mark.parametrize("make", PASSES)
def test_records_match_reference(make):
    res = make()
    docs, elems = build_records(res)
    ref_docs, ref_elems = reference_records(res)
    assert [(r.side, r.eid, r.docid, r.status, r.comps, r.d) for r in docs] == [
        (s, e, d, st, comps, el) for s, e, d, st, _, _, comps, el in ref_docs
    ]
    assert _same_floats([r.cost for r in docs], [x[4] for x in ref_docs])
    assert _same_floats([r.norm for r in docs], [x[5] for x in ref_docs])
    assert [(r.side, r.eid, r.status) for r in elems] == ref_elems
    # the lazily built records of PassTables are the same
    t = PassTables(res)
    assert [(r.side, r.eid, r.docid, r.status) for r in t.docs] == [
        (r.side, r.eid, r.docid, r.status) for r in docs
    ]


@pytest.mark.parametrize("make", PASSES)
def test_cells_match_reference(make):
    res = make()
    t = PassTables(res)
    conds = {
        c for s in table_specs(res.kind, P, ["newswire", "weblog"]) for c in (s.cond1, s.cond2) if c
    }
    for cond in sorted(conds):
        cells = t.single(cond)
        expected = reference_cells(res, cond)
        got = {k: cell_tuple(c) for k, c in cells.items() if k != "total"}
        assert set(got) == set(expected), cond
        for k, (sums, counts, ecounts) in expected.items():
            gs, gc, ge = got[k]
            assert _same_floats(gs, [s + 0.0 for s in sums]), (cond, k)
            assert (gc, ge) == (counts, ecounts), (cond, k)


@pytest.mark.parametrize("make", PASSES[:3])
def test_restricted_element_keys_give_the_same_tables(make):
    """PassTables computes element-level values only for elements with records (no B3)."""
    res = make()
    t = PassTables(res)
    cv = ConditionValues(res)  # unrestricted
    for cond in ("TYPE", "LEVEL", "LANGUAGE", "VALUE", "MENTION COUNT", "SOURCE"):
        full = cv.element_values(cond)
        codes, names = t.cv.element_keys(cond)
        used = set(t.cols.elem_ei) | set(t.cols.ei)
        assert all(names[codes[i]] == full[i] for i in used), cond
        assert t.cv.element_values(cond) == full, cond


def test_double_condition_cells_match_reference():
    res = random_entity_pass(3)
    t = PassTables(res)
    cells, keys2 = t.double("TYPE", "LEVEL")
    docs, _ = reference_records(res)
    for side, eid, d, *_ in docs:
        k2 = reference_value(res, side, eid, d, "LEVEL")
        k1 = reference_value(res, side, eid, d, "TYPE")
        assert k2 in keys2 and (k2, k1) in cells


# ---- bins, codes, sums ----------------------------------------------------------------


@pytest.mark.parametrize(
    "bins",
    [
        VALUE_BINS,
        ENTROPY_BINS,
        XDOC_BINS,
        ARG_COUNT_BINS,
        ARG_ERROR_BINS,
        ENTITY_MENTION_COUNT_BINS,
        OTHER_MENTION_COUNT_BINS,
    ],
)
def test_bin_codes_equal_bin_of(bins):
    rng = random.Random(5)
    values = list(BOUNDARY_VALUES) + [0, 1, 2, 3, 4, 5, 8, 9, 100, float("inf"), float("-inf")]
    for b in bins:  # every bound, just below, at and above its +0.000005
        try:
            x = float(b.split("-")[-1].lstrip("<=>"))
        except ValueError:
            continue
        values += [
            x,
            x + 0.000005,
            np.nextafter(x + 0.000005, 0),
            np.nextafter(x + 0.000005, 10),
            x + 0.0000049999,
        ]
    values += [rng.uniform(-1, 10) for _ in range(500)]
    values = [float(v) if isinstance(v, np.floating) else v for v in values]
    codes = bin_codes(values, bins)
    assert [bins[c] for c in codes] == [bin_of(v, bins) for v in values]
    plain = [v for v in values if v is not None]  # a list without None, a tuple, an iterator
    assert [bins[c] for c in bin_codes(plain, bins)] == [bin_of(v, bins) for v in plain]
    assert bin_codes(tuple(values), bins) == codes == bin_codes(iter(values), bins)


def test_encode_base_and_null():
    codes, names = encode(["b", None, "a", "", "b"], base=["x", "<null>"], nn=True)
    assert names[:2] == ["x", "<null>"]
    assert [names[c] for c in codes] == ["b", "<null>", "a", "<null>", "b"]
    codes, names = encode(iter(["a", "b", "a"]))
    assert (codes, names) == ([0, 1, 0], ["a", "b"])


@pytest.mark.parametrize("nkeys", [5, 40, 100])
def test_grouped_sums_many_keys_sequential(nkeys):
    """Per key, each column added one record after the other from 0.0, and the labels
    counted: with few keys (combined key-and-label codes counted byte by byte), up to 256
    combined codes (counted as bytes) and more (counted as integers)."""
    rng = np.random.default_rng(11)
    n = 5000
    vals = rng.random((n, 3)) * 10.0 ** rng.integers(-12, 4, size=(n, 1))
    vals[rng.random(n) < 0.05] *= -1
    vals[rng.random(n) < 0.05] = -0.0
    keys = [int(k) for k in rng.integers(0, nkeys, size=n)]
    labels = rng.integers(0, 3, size=n).tolist()
    out = grouped_sums(Keys.encode(keys), Summands(vals.T.tolist(), bytes(labels), 3))
    expected: dict = {}
    for k, lab, row in zip(keys, labels, vals.tolist()):
        s, c = expected.setdefault(k, ([0.0, 0.0, 0.0], [0, 0, 0]))
        for j in range(3):
            s[j] += row[j]
        c[lab] += 1
    assert list(out) == list(expected)  # key-code (first seen) order
    for k, (s, c) in expected.items():
        assert [x.hex() for x in out[k][0]] == [x.hex() for x in s]
        assert out[k][1] == c


def test_grouped_sums_one_key_is_every_record():
    """A grouping with one key has the sums of all records, made once (the total row, and
    a condition with one value): the same object, the same numbers."""
    vals = [[0.1, 0.2, 0.3, -0.1], [1e-17, 1.0, -1.0, 0.0]]
    summands = Summands(vals, bytes([0, 1, 1, 0]), 2)
    total = grouped_sums(Keys.constant("total", 4), summands)
    assert total == {"total": ([0.1 + 0.2 + 0.3 + -0.1, 1e-17 + 1.0 + -1.0], [2, 2])}
    again = grouped_sums(Keys.encode(["x"] * 4), summands)
    assert again["x"] is total["total"]
    assert grouped_sums(Keys([0, 0, 1, 1], ["a", "b"]), summands) == {
        "a": ([0.1 + 0.2, 1e-17 + 1.0], [1, 1]),
        "b": ([0.3 + -0.1, -1.0 + 0.0], [1, 1]),
    }


def test_grouped_sums_sparse_columns_same_sums():
    """Sums over the nonzero values of sparse columns are the sums over all values, bit for
    bit: zeros of both signs, values that cancel to 0, a column of -0.0 only, one empty
    key, a column without zeros (no positions) and sparse columns side by side."""

    rng = np.random.default_rng(3)
    n = 4000
    vals = rng.random((n, 5)) * 10.0 ** rng.integers(-12, 4, size=(n, 1))
    vals[:, 0] += 1.0  # dense: no zero
    vals[rng.random(n) < 0.9, 1] = 0.0  # sparse
    vals[rng.random(n) < 0.9, 2] = -0.0
    vals[:, 3] = -0.0  # nothing but -0.0
    vals[:, 4] = 0.0
    vals[:6, 4] = [1e-300, -1e-300, 0.5, -0.5, 3.0, -3.0]  # sums that cancel to 0
    keys = Keys.encode([int(k) for k in rng.integers(0, 30, size=n)])
    keys.codes[:6] = [keys.codes[0]] * 6
    keys.names.append("never")
    labels = bytes(rng.integers(0, 2, size=n).tolist())
    cols = vals.T.tolist()
    summands = Summands(cols, labels, 2)
    assert [p[0] is None for p in summands.parts] == [True, False, False, False, False]
    assert [len(p[1]) for p in summands.parts[3:]] == [0, 6]
    every = Summands(cols, labels, 2)
    every.parts = [(None, c) for c in cols]  # every value added
    dense = grouped_sums(keys, every)
    out = grouped_sums(keys, summands)
    assert list(out) == list(dense) and "never" not in out
    for k in dense:
        assert [x.hex() for x in out[k][0]] == [x.hex() for x in dense[k][0]]
        assert out[k][1] == dense[k][1]
    assert out[keys.names[keys.codes[0]]][0][4] == 0.0
    assert all(str(v[0][3]) == "0.0" for v in out.values())  # -0.0 sums print as 0


# ---- attribute tuples ------------------------------------------------------------------


def _elements():
    return [
        entity("E1", "PER", "Group", "SPC", [mention("m", "NAM", 0, 3)]),
        entity("E2", "PER", None, None, [mention("m", "PRO", 0, 3)]),
        relation("R1", "PHYS", "Located", [("Arg-1", "E1")]),
        relation("R2", "PHYS", None, [("Arg-1", "E1")], modality=None),
        event("V1", "Life", "Die", [], tense="Past"),
        event("V2", "Life", "Die", [], genericity=None),
        value("X1", "Numeric", "Percent"),
        value("X2", "Numeric"),
        timex2("T1", VAL="2003", MOD="APPROX"),
        timex2("T2"),
    ]


@pytest.mark.parametrize("el", _elements(), ids=lambda e: e.id)
def test_attribute_getters_read_attributes(el):
    names = {
        a
        for attrs in list(ERROR_ATTRIBUTES.values()) + list(RECOGNITION_ATTRIBUTES.values())
        for a in attrs
    }
    lists = (
        list(ERROR_ATTRIBUTES.values())
        + list(RECOGNITION_ATTRIBUTES.values())
        + [(a,) for a in sorted(names)]
        + [("TYPE", "CLASS"), ("NOPE", "TYPE")]
    )
    a = el.attributes()
    for attrs in lists:
        assert attribute_tuple_getter(type(el), attrs)(el) == tuple(a.get(x) for x in attrs)
    fields = ATTRIBUTE_FIELDS.get(type(el))
    if fields is not None:
        # (a relation's TENSE is read by the older versions only: None and not listed else)
        assert set(fields) == set(a) | ({"TENSE"} if type(el).__name__ == "Relation" else set())
        assert all(getattr(el, f) == a.get(n) for n, f in fields.items())


@pytest.mark.parametrize("el", _elements(), ids=lambda e: e.id)
def test_raw_attribute_key_determines_attributes(el):
    """Elements that agree on the raw key agree on attributes(): changing every other
    field keeps attributes() (the fast path of attribute_codes relies on it)."""
    import dataclasses

    key = RAW_ATTRIBUTE_KEYS[type(el)]
    raw_fields = {f for f in key.__reduce__()[1]}
    changes = {}
    for f in dataclasses.fields(el):
        if f.name in raw_fields or not f.init:
            continue
        v = getattr(el, f.name)
        changes[f.name] = (
            v + "x"
            if isinstance(v, str)
            else ()
            if isinstance(v, tuple)
            else 7
            if isinstance(v, int)
            else v
        )
    other = dataclasses.replace(el, **changes)
    assert key(other) == key(el)
    assert other.attributes() == el.attributes()


def test_attribute_codes_fast_and_general_paths_agree():
    els = _elements()
    ents = [e for e in els if isinstance(e, Entity)]
    for rds, sds in ((ents, ents[::-1]), (els, els[::-1])):
        for attrs in (ERROR_ATTRIBUTES["entity"], ("TYPE",), ("VAL", "TYPE")):
            rc, sc, names = attribute_codes(rds, sds, attrs, {})
            assert [names[c] for c in rc] == [
                tuple(x.attributes().get(a) for a in attrs) for x in rds
            ]
            assert [names[c] for c in sc] == [
                tuple(x.attributes().get(a) for a in attrs) for x in sds
            ]


# ---- recognition -----------------------------------------------------------------------


def reference_attribute_stats(res, attributes):
    stats: dict = {}
    for g, sg, d in rec.doc_mapped_pairs(res):
        ra, sa = g.docs[d].attributes(), sg.docs[d].attributes()
        for a in attributes:
            x, y = ra.get(a), sa.get(a)
            if x is None and y is None:
                continue
            x = x if x not in (None, "", "0") else "<undef>"
            y = y if y not in (None, "", "0") else "<undef>"
            row = stats.setdefault(a, {}).setdefault(x, {})
            row[y] = row.get(y, 0) + 1
    return stats


def reference_role_stats(res):
    stats: dict = {lv: {} for lv in rrec.ROLE_LEVELS}

    def inc(t, a, b):
        row = t.setdefault(a, {})
        row[b] = row.get(b, 0) + 1

    for rid in sorted(res.ref):
        sid = res.mapping.get(rid)
        if sid is None:
            continue
        g, sg = res.ref[rid], res.sys[sid]
        amap = res.argument_map.get((rid, sid)) or {}
        ref_to_sys = {(rr, ra): sr for (sr, sa), (rr, ra) in amap.items()}
        pairs = [
            (role, ref_to_sys.get((role, a), "<undef>"))
            for role in sorted(g.arguments)
            for a in g.arguments[role]
        ]
        pairs += [
            ("<undef>", role)
            for role in sorted(sg.arguments)
            for a in sg.arguments[role]
            if (role, a) not in amap
        ]
        for d in sorted(g.docs):
            if d not in sg.docs:
                continue
            rd, sd = g.docs[d], sg.docs[d]
            for r, t in pairs:
                inc(stats["MAPPED"], r, t)
                if (rd.type or "") == (sd.type or ""):
                    inc(stats["MATCHING_TYPE"], r, t)
                if (rd.subtype or "") == (sd.subtype or ""):
                    inc(stats["MATCHING_SUBTYPE"], r, t)
    return stats


@pytest.mark.parametrize("make", PASSES)
def test_recognition_counts_match_reference(make):
    res = make()
    t = PassTables(res)
    pairs = t.cols.pairs
    assert list(pairs) == rec.doc_mapped_pairs(res)
    attrs = RECOGNITION_ATTRIBUTES[res.kind]
    expected = reference_attribute_stats(res, attrs)
    assert rec.attribute_stats(res, attrs, pairs) == expected
    assert rec.attribute_stats(res, attrs) == expected
    for a in attrs:
        assert rec.attribute_stats(res, (a,), pairs).get(a) == expected.get(a)
    if res.kind == "relation":
        stats = rrec.role_stats(res, pairs)
        # the older versions' block: once per mapped element (one document each here)
        element = stats.pop("ELEMENT")
        if all(len(g.docs) == 1 for g in list(res.ref.values()) + list(res.sys.values())):
            assert element == stats["MAPPED"]
        assert stats == reference_role_stats(res)
        stats = rrec.role_stats(res)
        del stats["ELEMENT"]
        assert stats == reference_role_stats(res)
        assert rrec.subtype_stats(res, pairs) == rrec.subtype_stats(res)
    if res.kind == "entity":
        assert rec.name_stats(res, pairs) == rec.name_stats(res, rec.doc_mapped_pairs(res))
        assert rec.mention_stats(res, P, pairs) == rec.mention_stats(res, P)


# ---- B-cubed summands and document values -------------------------------------------------


def reference_b3_summand(mention, totals):
    """One mention at a time (docs/rules/report.md §2.7): count score max COUNT / N, value score max VALUE / V
    (0 without V), both 0 without partners or without N; summands (count score,
    self * value score, self)."""
    n, v = totals.get(mention.entity_id, (0, 0.0))
    count_score = value_score = 0.0
    if mention.count and n:
        count_score = max(mention.count.values()) / n
        if v:
            value_score = max(mention.value.values(), default=0) / v
    return (count_score, mention.self_score * value_score, mention.self_score)


def test_b3_summands_match_one_mention_at_a_time():
    """Mentions with and without partners, partners only on one of COUNT/VALUE, hosts
    without totals or with N or V of 0, values that are ints or floats."""
    from acescore.report.counts.tables import _b3_summands
    from acescore.scoring.result import B3Mention

    rng = random.Random(5)
    totals = {"E0": (3, 1.6), "E1": (0, 0.0), "E2": (2, 0.0), "E3": (5, 2)}
    mentions = []
    for _ in range(300):
        count = {f"S{j}": rng.choice((1, 2, 3, 0.5)) for j in range(rng.choice((0, 0, 1, 2, 3)))}
        value = (
            {f"S{j}": rng.random() for j in range(rng.choice((0, 1, 2)))}
            if count
            else rng.choice(({}, {"S9": 0.25}))
        )
        mentions.append(
            B3Mention(
                None,
                rng.choice(("E0", "E1", "E2", "E3", "E4")),
                "D1",
                rng.choice((1.0, 0.5, 0.1, 0)),
                count,
                value,
            )
        )
    out = _b3_summands(
        [m.entity_id for m in mentions],
        [m.count for m in mentions],
        [m.value for m in mentions],
        [m.self_score for m in mentions],
        totals,
    )
    expected = [reference_b3_summand(m, totals) for m in mentions]
    assert [tuple(map(float.hex, row)) for row in zip(*out)] == [
        tuple(float(x).hex() for x in row) for row in expected
    ]
    assert _b3_summands([], [], [], [], {}) == [[], [], []]


@pytest.mark.parametrize("make", PASSES)
def test_doc_values_columns(make):
    """The nine columns of document values: cost in its status column, the four cost
    components of valued records, the REF value -- as the records say; floats."""
    res = make()
    t = PassTables(res)
    cols = t.cols.doc_columns()
    assert len(cols) == 9 and all(len(c) == len(t.docs) for c in cols)
    assert all(type(x) is float for c in cols for x in c)
    vals = list(zip(*cols))
    for i, r in enumerate(t.docs):
        row = [0.0] * 9
        row[DOC_STATUSES.index(r.status)] = r.cost
        if r.comps is not None:
            row[4:8] = r.comps
        row[8] = r.norm
        assert list(vals[i]) == row
