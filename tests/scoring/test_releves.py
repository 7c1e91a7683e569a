"""Relations and events (docs/rules/relations-events.md): the worked example of §15 and unit checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from acescore.model.params import EPSILON, get_params
from acescore.reading.apf import read_apf
from acescore.rules.database import Side, add_files, check_docs, finish
from acescore.scoring.engine import run_scoring
from acescore.scoring.releve_values import Weights, releve_value

DATA = Path(__file__).parent.parent / "data" / "releves"
EPS = EPSILON


def run_example(pname: str, mentions: bool = True):
    p = get_params(pname)
    w: list = []
    ref = Side("REF")
    add_files(ref, [read_apf(str(DATA / "ref.apf.xml"), p)], p, w)
    finish(ref, p, w)
    sys_ = Side("SYS")
    add_files(sys_, [read_apf(str(DATA / "sys.apf.xml"), p)], p, w, ref.documents)
    finish(sys_, p, w)
    check_docs(ref, sys_, w)
    run = run_scoring(ref, sys_, p, mentions, w)
    return {r.task: r for r in run.passes}, run


def value_pct(r) -> float:
    """Value (%) of the total row (docs/rules/report.md §2.6), accumulated as the report does (R27)."""
    norm = 0.0
    costs = {"correct": 0.0, "error": 0.0, "miss": 0.0}
    fa = 0.0
    for rid in sorted(r.ref):
        g = r.ref[rid]
        for d in sorted(g.docs):
            v = r.doc_value[("REF", rid, d)]
            norm += v
            s = r.doc_mapped(rid, d)
            if s is not None and (rid, s, d) in r.doc_costs:
                c = v - r.doc_mv[(rid, s, d)]
                if c < EPS:
                    c = 0
                ra, sa = g.docs[d].attributes(), r.sys[s].docs[d].attributes()
                err = any(ra.get(a) != sa.get(a) for a in set(ra) | set(sa)) or r.arg_errors[rid]
                costs["error" if err else "correct"] += c
            else:
                costs["miss"] += v
    for sid in sorted(r.sys):
        for d in sorted(r.sys[sid].docs):
            if r.sys_doc_mapped(sid, d) is None:
                fa += -r.doc_fa[(sid, d)]
    vc = norm - costs["miss"] - costs["error"] - costs["correct"]
    return 100 / norm * (vc - fa)


def uncond(r, index: int) -> float:
    """Unconditioned cost column (%) of one of ATTR_ERR, MISS_SUB, ERR_SUB, FA_SUB."""
    norm = sum(
        r.doc_value[("REF", rid, d)] for rid in sorted(r.ref) for d in sorted(r.ref[rid].docs)
    )
    total = 0.0
    for rid in sorted(r.ref):
        for d in sorted(r.ref[rid].docs):
            s = r.doc_mapped(rid, d)
            if s is not None and (rid, s, d) in r.doc_costs:
                total += r.doc_costs[(rid, s, d)][index]
    return 100 / norm * total


ATTR, MISS, ERR, FA = range(4)


# ---------------------------------------------------------------------------------------------
# §15.3 document level


@pytest.mark.parametrize("pname", ["local_2008", "local_2007", "global_2008_with_mentions"])
def test_worked_example_document_level(pname):
    passes, _ = run_example(pname)
    rel, ev = passes["relation"], passes["event"]
    assert rel.value[("REF", "R1")] == pytest.approx(2.00000003, rel=1e-12)
    assert rel.value[("REF", "R2")] == pytest.approx(2.00000003, rel=1e-12)
    assert ev.value[("REF", "EV1")] == pytest.approx(4.200000062, rel=1e-12)
    assert rel.mapping == {"R1": "S-R1", "R2": "S-R2"}
    assert ev.mapping == {"EV1": "S-EV1"}
    assert rel.doc_mv[("R1", "S-R1", "D1")] == pytest.approx(1.464285733, abs=1e-9)
    assert rel.doc_mv[("R2", "S-R2", "D1")] == pytest.approx(1.296666687, abs=1e-9)
    assert ev.doc_mv[("EV1", "S-EV1", "D1")] == pytest.approx(1.952380951, abs=1e-9)
    # cost components
    c = rel.doc_costs[("R1", "S-R1", "D1")]
    assert c[ATTR] == pytest.approx(0.5000000050, abs=1e-10)
    assert c[ERR] == pytest.approx(0.0357142820, abs=1e-9)
    assert c[MISS] == 0 and c[FA] == 0
    c = rel.doc_costs[("R2", "S-R2", "D1")]
    assert c[ERR] == pytest.approx(0.7033333, abs=1e-7)
    c = ev.doc_costs[("EV1", "S-EV1", "D1")]
    assert c[ATTR] == pytest.approx(4.2e-8, rel=1e-2)
    assert c[MISS] == pytest.approx(1.2, abs=1e-7)
    assert c[ERR] == pytest.approx(0.297619, abs=1e-6)
    assert c[FA] == pytest.approx(0.75, abs=1e-7)
    # argument maps: R2 swapped, EV1 with a role error and a spurious argument
    assert rel.argument_map[("R2", "S-R2")] == {
        ("Arg-1", "S-E4"): ("Arg-2", "E4"),
        ("Arg-2", "S-E1"): ("Arg-1", "E1"),
    }
    assert ev.argument_map[("EV1", "S-EV1")] == {
        ("Entity", "S-E1"): ("Entity", "E1"),
        ("Entity", "S-E2"): ("Entity", "E2"),
        ("Destination", "S-E3"): ("Place", "E3"),
    }
    # argument mapping errors (docs/rules/report.md §3.4): R1 0; R2 2 + 2 - 2 - 0; EV1 4 + 4 - 3 - 2
    assert rel.arg_errors == {"R1": 0, "R2": 2}
    assert ev.arg_errors == {"EV1": 3}
    # table totals
    assert "%.1f" % value_pct(rel) == "69.0"
    assert "%.1f" % value_pct(ev) == "46.5"
    assert "%.2f" % uncond(rel, ATTR) == "12.50"
    assert "%.2f" % uncond(rel, ERR) == "18.48"
    assert "%.2f" % uncond(ev, FA) == "17.86"
    assert "%.2f" % uncond(ev, MISS) == "28.57"
    assert "%.2f" % uncond(ev, ERR) == "7.09"
    # role statistics data: the argument pairs of the mapped pair (REF Time-Within and one
    # SYS Entity argument stay unpaired)
    am = ev.argument_map[("EV1", "S-EV1")]
    assert sorted((r[0], s[0]) for s, r in am.items()) == [
        ("Entity", "Entity"),
        ("Entity", "Entity"),
        ("Place", "Destination"),
    ]


def test_worked_example_sys_value_quirk():
    passes, _ = run_example("local_2008")
    rel = passes["relation"]
    # docs/rules/relations-events.md §5 [QUIRK]: the sys "VALUE" looks sys argument IDs up in the ref database
    assert rel.doc_value[("SYS", "S-R1", "D1")] == pytest.approx(EPS)
    assert rel.fa_value["S-R1"] == pytest.approx(-0.75 * 2.00000003, rel=1e-12)


def test_worked_example_global_2008():
    passes, _ = run_example("global_2008")
    rel, ev = passes["relation"], passes["event"]
    assert "mention_relation" not in passes
    assert rel.doc_mv[("R1", "S-R1", "D1")] == pytest.approx(1.5, abs=1e-7)
    assert rel.doc_mv[("R2", "S-R2", "D1")] == pytest.approx(1.33, abs=1e-7)
    assert ev.doc_mv[("EV1", "S-EV1", "D1")] == pytest.approx(2.0, abs=1e-7)
    assert value_pct(rel) == pytest.approx(70.75000008, abs=1e-8)
    assert "%.1f" % value_pct(rel) == "70.8"
    assert "%.1f" % value_pct(ev) == "47.6"


# ---------------------------------------------------------------------------------------------
# §15.4 / §15.5 mention level


@pytest.mark.parametrize("pname", ["local_2008", "local_2007"])
def test_worked_example_mention_level(pname):
    passes, _ = run_example(pname)
    rmd, vmd = passes["mention_relation"], passes["mention_event"]
    assert set(rmd.ref) == {"R1-1", "R2-1"} and set(rmd.sys) == {"S-R1-1", "S-R2-1"}
    g = rmd.ref["R1-1"]
    assert g.origin == "R1" and g.attrs["TYPE"] == "PER-SOC"
    # ref arguments are the host elements, sys arguments the one-mention elements
    assert g.arguments == {"Arg": ("E1", "E2")}
    assert rmd.sys["S-R1-1"].arguments == {"Arg": ("S-E1-1", "S-E2-2")}
    assert rmd.value[("REF", "R1-1")] == pytest.approx(2.00000003, rel=1e-12)
    assert vmd.value[("REF", "EV1-1")] == pytest.approx(4.200000062, rel=1e-12)
    assert rmd.doc_mv[("R1-1", "S-R1-1", "D1")] == pytest.approx(1.5000000225, abs=1e-10)
    assert rmd.doc_mv[("R2-1", "S-R2-1", "D1")] == pytest.approx(1.400000024, abs=1e-9)
    assert vmd.doc_mv[("EV1-1", "S-EV1-1", "D1")] == pytest.approx(2.0000000025, abs=1e-10)
    assert "%.1f" % value_pct(rmd) == "72.5"
    assert "%.1f" % value_pct(vmd) == "47.6"
    assert "%.2f" % uncond(rmd, ATTR) == "12.50"
    assert "%.1f" % uncond(rmd, ERR) == "15.0"
    assert "%.1f" % uncond(vmd, FA) == "17.9"
    assert "%.1f" % uncond(vmd, MISS) == "28.6"
    assert "%.1f" % uncond(vmd, ERR) == "6.0"
    # the "correct argument" test uses the EDR map and the promoted mention's origin
    assert rmd.arg_errors == {"R1-1": 0, "R2-1": 2}
    assert rmd.mention_map[("R1-1", "S-R1-1", "D1")] == {0: 0}


def test_worked_example_global_with_mentions_rmd():
    passes, _ = run_example("global_2008_with_mentions")
    assert "%.1f" % value_pct(passes["relation"]) == "69.0"
    assert "%.1f" % value_pct(passes["event"]) == "46.5"
    rmd = passes["mention_relation"]
    # "her brother" (NOM) cannot match the NAM-level E2 under name similarity: R1-1 unmapped
    assert rmd.mapping == {"R2-1": "S-R2-1"}
    assert rmd.fa_value["S-R1-1"] == pytest.approx(-1.125, abs=1e-7)
    assert "%.1f" % value_pct(rmd) == "6.9"
    assert "%.1f" % value_pct(passes["mention_event"]) == "47.6"


def test_no_mention_warning_for_metonymy(tmp_path):
    text = (DATA / "ref.apf.xml").read_text()
    extra = (
        '<relation ID="R9" TYPE="METONYMY" SUBTYPE="x" MODALITY="Asserted">\n'
        '  <relation_argument REFID="E3" ROLE="Arg-1"/>\n'
        '  <relation_argument REFID="E4" ROLE="Arg-2"/>\n</relation>\n'
    )
    text = text.replace('<event ID="EV1"', extra + '<event ID="EV1"')
    (tmp_path / "ref.apf.xml").write_text(text)
    p = get_params("local_2008")
    w: list = []
    ref = Side("REF")
    add_files(ref, [read_apf(str(tmp_path / "ref.apf.xml"), p)], p, w)
    finish(ref, p, w)
    sys_ = Side("SYS")
    add_files(sys_, [read_apf(str(tmp_path / "ref.apf.xml"), p)], p, w, ref.documents)
    finish(sys_, p, w)
    run = run_scoring(ref, sys_, p, True, w)
    msg = "\nWARNING:  no mentions found for 'R9' in document 'D1' in promote_mentions_of_element\n"
    assert w.count(msg) == 2  # once per side
    rmd = next(r for r in run.passes if r.task == "mention_relation")
    assert "R9" not in rmd.ref
    assert "%.1f" % value_pct(rmd) == "100.0"


# ---------------------------------------------------------------------------------------------
# element values (docs/rules/relations-events.md §3)


def test_element_value_discounts():
    p = get_params("local_2008")
    w = Weights("event", p)
    a = {
        "TYPE": "Contact",
        "SUBTYPE": "Meet",
        "MODALITY": "Asserted",
        "POLARITY": "Positive",
        "GENERICITY": "Specific",
        "TENSE": "Past",
    }
    assert releve_value(w, a, None) == 1.0
    b = dict(a, TYPE="Conflict", SUBTYPE="Attack")
    assert releve_value(w, a, b) == 0.5 * 0.9
    c = dict(a, TENSE="Future", POLARITY="Negative", GENERICITY="Generic")
    # product in attribute-name order (R20)
    assert releve_value(w, a, c) == ((1.0 * (1 - EPS)) * (1 - EPS)) * (1 - EPS)
    wr = Weights("relation", p)
    r = {"TYPE": "ORG-AFF", "SUBTYPE": "Employment", "MODALITY": "Asserted"}
    s = {"TYPE": "GEN-AFF", "SUBTYPE": "Org-Location", "MODALITY": "Asserted"}
    assert releve_value(wr, r, s) == 0.7  # a type error costs only the subtype error
    assert releve_value(wr, r, dict(r, MODALITY="Unspecified")) == 0.75
    assert wr.role_discount("Arg-1") == 0.7 and wr.role_discount("Arg") == 0.75
    assert w.role_discount("Place") == 0.75


def _with_value_relation(text: str, prefix: str) -> str:
    value = (
        f'<value ID="{prefix}V1" TYPE="Job-Title">\n'
        f'  <value_mention ID="{prefix}V1-1"><extent><charseq START="68" END="72">hired'
        "</charseq></extent></value_mention>\n</value>\n"
    )
    rel = (
        f'<relation ID="{prefix}R3" TYPE="ORG-AFF" SUBTYPE="Employment" MODALITY="Asserted">\n'
        f'  <relation_argument REFID="{prefix}E4" ROLE="Arg-1"/>\n'
        f'  <relation_argument REFID="{prefix}V1" ROLE="Arg-2"/>\n'
        f'  <relation_mention ID="{prefix}R3-1"><extent><charseq START="58" END="72">'
        "Acme Corp hired</charseq></extent>\n"
        f'    <relation_mention_argument REFID="{prefix}E4-1" ROLE="Arg-1"><extent><charseq'
        ' START="58" END="66">Acme Corp</charseq></extent></relation_mention_argument>\n'
        f'    <relation_mention_argument REFID="{prefix}V1-1" ROLE="Arg-2"><extent><charseq'
        ' START="68" END="72">hired</charseq></extent></relation_mention_argument>'
        "</relation_mention>\n</relation>\n"
    )
    i = text.index(f'<relation ID="{prefix}R1"')
    return text[:i] + value + rel + text[i:]


def test_headless_relation_mention_arguments(tmp_path):
    """docs/rules/relations-events.md §10.3: the tool aborts on a headless Arg-1/Arg-2 argument mention; acescore treats
    the (vacuous) head-overlap test as satisfied and warns."""
    (tmp_path / "ref.apf.xml").write_text(
        _with_value_relation((DATA / "ref.apf.xml").read_text(), "")
    )
    (tmp_path / "sys.apf.xml").write_text(
        _with_value_relation((DATA / "sys.apf.xml").read_text(), "S-")
    )
    p = get_params("local_2008")
    w: list = []
    ref = Side("REF")
    add_files(ref, [read_apf(str(tmp_path / "ref.apf.xml"), p)], p, w)
    finish(ref, p, w)
    sys_ = Side("SYS")
    add_files(sys_, [read_apf(str(tmp_path / "sys.apf.xml"), p)], p, w, ref.documents)
    finish(sys_, p, w)
    run = run_scoring(ref, sys_, p, True, w)
    rmd = next(r for r in run.passes if r.task == "mention_relation")
    assert rmd.mapping.get("R3-1") == "S-R3-1"
    assert [x.split("'")[1] for x in w if "has no head" in x] == ["S-V1-1", "V1-1"]
