"""Small hand-built PassResults for the report tests (docs/rules/report.md §7 and own cases).

Imported by the other ``test_report_*`` modules; holds a few sanity tests of its own.
"""

from __future__ import annotations

from acescore.model.apf import (
    Argument,
    Entity,
    EntityMention,
    Event,
    Locator,
    Relation,
    RelationMention,
    SimpleMention,
    Timex2,
    Value,
)
from acescore.rules.database import GlobalElement
from acescore.scoring.result import B3Data, B3Mention, PassResult

DOC = "DOC1"


def loc(start: int, end: int, text: str = "x") -> Locator:
    return Locator("text", start, end, text)


def mention(
    mid: str,
    mtype: str,
    start: int,
    end: int,
    role: str = "PER",
    style: str = "LITERAL",
    text: str = "x",
) -> EntityMention:
    return EntityMention(mid, mtype, role, style, loc(start, end, text), loc(start, end, text))


_LEVEL_ORDER = {"NAM": 0, "NOM": 1, "PRO": 2}


def entity(eid, etype, subtype, cls, mentions, names=()) -> Entity:
    level = min((m.level for m in mentions), key=_LEVEL_ORDER.get) if mentions else "PRO"
    return Entity(eid, etype, subtype, cls, tuple(mentions), tuple(names), level)


def glob(kind: str, eid: str, docs: dict, **kw) -> GlobalElement:
    """A global element from its document elements (attributes of the first document)."""
    first = docs[sorted(docs)[0]]
    attrs = {k: v for k, v in first.attributes().items() if v is not None}
    g = GlobalElement(eid, kind, dict(docs), attrs, level=attrs.get("LEVEL"), **kw)
    if kind in ("relation", "event"):
        args: dict = {}
        for d in docs.values():
            for a in d.arguments:
                args.setdefault(a.role, set()).add(a.refid)
        g.arguments = {r: tuple(sorted(ids)) for r, ids in args.items()}
    return g


def finish(res: PassResult, source: str = "newswire", language: str = "English") -> PassResult:
    """Fill the bookkeeping fields: rmapping, element values, sources, languages."""
    res.rmapping = {s: r for r, s in res.mapping.items()}
    for side, coll in (("REF", res.ref), ("SYS", res.sys)):
        for eid, g in coll.items():
            total = 0.0
            for d in sorted(g.docs):
                total += res.doc_value.get((side, eid, d), 0.0)
                res.sources.setdefault(d, source)
                res.languages.setdefault((side, eid, d), language)
            res.value.setdefault((side, eid), total)
    return res


# ---- the worked example of docs/rules/report.md §7.1 ------------------------------------------------------

E1_VALUE = 1.00000001
E2_VALUE = 0.500000005
E3_VALUE = 1.00000001


def tiny_entities(with_b3: bool = True, task: str = "entity") -> PassResult:
    """DOC1: E1 PER/Individual (NAM "John Smith", PRO "He"), E2 ORG/Commercial (NOM), E3
    GPE/Population-Center (NAM "Baghdad"); SYS identical but E2 is ORG/Government and E3's
    mention is one character shorter."""
    r1 = entity(
        "E1",
        "PER",
        "Individual",
        "SPC",
        [
            mention("E1-1", "NAM", 0, 9, "PER", text="John Smith"),
            mention("E1-2", "PRO", 20, 21, "PER", text="He"),
        ],
        ["john smith"],
    )
    r2 = entity("E2", "ORG", "Commercial", "SPC", [mention("E2-1", "NOM", 30, 36, "ORG")])
    r3 = entity(
        "E3",
        "GPE",
        "Population-Center",
        "SPC",
        [mention("E3-1", "NAM", 40, 46, "GPE", text="Baghdad")],
        ["baghdad"],
    )
    s1 = entity(
        "S-E1",
        "PER",
        "Individual",
        "SPC",
        [
            mention("S-E1-1", "NAM", 0, 9, "PER", text="John Smith"),
            mention("S-E1-2", "PRO", 20, 21, "PER", text="He"),
        ],
        ["john smith"],
    )
    s2 = entity("S-E2", "ORG", "Government", "SPC", [mention("S-E2-1", "NOM", 30, 36, "ORG")])
    s3 = entity(
        "S-E3",
        "GPE",
        "Population-Center",
        "SPC",
        [mention("S-E3-1", "NAM", 40, 45, "GPE", text="Baghda")],
        ["baghda"],
    )
    ref = {e.id: glob("entity", e.id, {DOC: e}) for e in (r1, r2, r3)}
    sys = {e.id: glob("entity", e.id, {DOC: e}) for e in (s1, s2, s3)}
    res = PassResult(task, "entity", ref, sys)
    res.mapping = {"E1": "S-E1", "E2": "S-E2", "E3": "S-E3"}
    for eid, v in (("E1", E1_VALUE), ("E2", E2_VALUE), ("E3", E3_VALUE)):
        res.doc_value[("REF", eid, DOC)] = v
        res.doc_value[("SYS", "S-" + eid, DOC)] = v
    res.doc_mv[("E1", "S-E1", DOC)] = E1_VALUE
    res.doc_mv[("E2", "S-E2", DOC)] = E2_VALUE - 0.0500000005
    res.doc_mv[("E3", "S-E3", DOC)] = E3_VALUE - 1.43e-9
    res.doc_costs[("E1", "S-E1", DOC)] = (0.0, 0.0, 0.0, 0.0)
    res.doc_costs[("E2", "S-E2", DOC)] = (0.0500000005, 0.0, 0.0, 0.0)
    res.doc_costs[("E3", "S-E3", DOC)] = (0.0, 0.0, 1.43e-9, 0.0)
    res.mention_map = {
        ("E1", "S-E1", DOC): {0: 0, 1: 1},
        ("E2", "S-E2", DOC): {0: 0},
        ("E3", "S-E3", DOC): {0: 0},
    }
    res.name_map = {("E1", "S-E1", DOC): {0: 0}, ("E3", "S-E3", DOC): {0: 0}}
    finish(res)
    if with_b3:
        res.b3 = perfect_b3(res)
    return res


def perfect_b3(res: PassResult) -> B3Data:
    """B3 data for a one-to-one mapping where every mention corresponds to its partner."""
    self_w = {"NAM": 1.0, "NOM": 0.5, "PRO": 0.1}
    b3 = B3Data()
    for side, coll, other in (("REF", res.ref, res.mapping), ("SYS", res.sys, res.rmapping)):
        out = b3.ref if side == "REF" else b3.sys
        totals = b3.ref_totals if side == "REF" else b3.sys_totals
        for eid in sorted(coll):
            g = coll[eid]
            n, v = 0, 0.0
            for d in sorted(g.docs):
                for m in g.docs[d].mentions:
                    n += 1
                    v += self_w[m.type]
            totals[eid] = (n, v)
            for d in sorted(g.docs):
                for m in g.docs[d].mentions:
                    bm = B3Mention(m, eid, d, self_w[m.type], {}, {})
                    if eid in other:
                        bm.count[other[eid]] = n
                        bm.value[other[eid]] = v
                    out.append(bm)
        out.sort(key=lambda b: b.mention.id)
    return b3


# ---- relations -----------------------------------------------------------------------


def relation(rid, rtype, subtype, args, modality="Asserted", ext=(0, 10)) -> Relation:
    arguments = tuple(Argument(role, a) for role, a in args)
    m = RelationMention(rid + "-1", loc(*ext), tuple(Argument(role, a + "-1") for role, a in args))
    return Relation(rid, rtype, subtype, modality, arguments, (m,))


def tiny_relations() -> PassResult:
    """docs/rules/report.md §7.3: one ORG-AFF/Employment relation E1-E2, mapped, costing 0.0500000005."""
    r = relation("R1", "ORG-AFF", "Employment", [("Arg-1", "E1"), ("Arg-2", "E2")])
    s = relation("S-R1", "ORG-AFF", "Employment", [("Arg-1", "S-E1"), ("Arg-2", "S-E2")])
    res = PassResult(
        "relation",
        "relation",
        {"R1": glob("relation", "R1", {DOC: r})},
        {"S-R1": glob("relation", "S-R1", {DOC: s})},
    )
    res.mapping = {"R1": "S-R1"}
    res.doc_value[("REF", "R1", DOC)] = 1.500000025
    res.doc_value[("SYS", "S-R1", DOC)] = 1.500000025
    res.doc_mv[("R1", "S-R1", DOC)] = 1.500000025 - 0.0500000005
    res.doc_costs[("R1", "S-R1", DOC)] = (0.0, 0.0, 0.0499999905, 0.0)
    res.argument_map[("R1", "S-R1")] = {
        ("Arg-1", "S-E1"): ("Arg-1", "E1"),
        ("Arg-2", "S-E2"): ("Arg-2", "E2"),
    }
    res.arg_errors["R1"] = 0
    return finish(res)


def event(vid, etype, subtype, args, **kw) -> Event:
    attrs = dict(genericity="Specific", modality="Asserted", polarity="Positive", tense="Past")
    attrs.update(kw)
    arguments = tuple(Argument(role, a) for role, a in args)
    return Event(
        vid,
        etype,
        subtype,
        attrs["genericity"],
        attrs["modality"],
        attrs["polarity"],
        attrs["tense"],
        arguments,
        (),
    )


def value(vid, vtype, subtype=None) -> Value:
    return Value(vid, vtype, subtype, (SimpleMention(vid + "-1", loc(0, 3)),))


def timex2(tid, **attrs) -> Timex2:
    return Timex2(tid, tuple(sorted(attrs.items())), (SimpleMention(tid + "-1", loc(0, 3)),))


# ---- sanity of the fixtures ----------------------------------------------------------


def test_fixture_values():
    res = tiny_entities()
    assert res.value[("REF", "E1")] == E1_VALUE
    assert res.rmapping == {"S-E1": "E1", "S-E2": "E2", "S-E3": "E3"}
    assert res.ref["E1"].attrs == {
        "CLASS": "SPC",
        "LEVEL": "NAM",
        "SUBTYPE": "Individual",
        "TYPE": "PER",
    }
    assert [b.mention.id for b in res.b3.ref] == ["E1-1", "E1-2", "E2-1", "E3-1"]


def test_fixture_relation():
    res = tiny_relations()
    assert res.ref["R1"].arguments == {"Arg-1": ("E1",), "Arg-2": ("E2",)}
