"""Assembly of a scoring section (docs/rules/report.md §1) and a byte comparison with the goldens."""

from __future__ import annotations

import os
import re

import pytest
from test_report_fixtures import DOC, finish, glob, timex2, tiny_entities, tiny_relations, value

from acescore.model.params import get_params
from acescore.model.tasks import TASKS
from acescore.report.nist.nist_text import banner, section_text
from acescore.scoring.result import PassResult

P = get_params("local_2008")
GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "golden")


def test_banners():
    assert banner("entity") == (
        "\n======== entity scoring ========\n\nEntity Detection and Recognition statistics:\n"
    )
    assert banner("mention_entity").endswith("\n\nEntity Mention Detection statistics:\n")
    assert banner("mention_relation").endswith(
        "Relation Mention Detection and Recognition statistics:\n"
    )
    assert [t.name for t in TASKS] == [
        "entity",
        "value",
        "timex2",
        "relation",
        "event",
        "mention_entity",
        "mention_relation",
        "mention_event",
    ]


def _titles(text: str) -> list:
    return [
        line
        for line in text.split("\n")
        if line.startswith(("========", "Recognition", "Value", "Timex2"))
    ]


def test_entity_section_layout():
    text = section_text(tiny_entities(), P, "newswire", ["newswire"])
    assert text.startswith(
        "\n======== entity scoring ========\n\nEntity Detection and"
        " Recognition statistics:\n\n source   _Entity_Count__ "
    )
    # 9 one-condition tables; TYPE x LEVEL: ALL, NAM, NOM; NUM-DOCS x TYPE and
    # SUBTYPE x TYPE: ALL, GPE, ORG, PER
    assert text.count("\n          Tot    FA  Miss") == 9 + 3 + 4 + 4
    assert text.endswith("METON            0     0        0.0   0.0\n")
    assert "Name Detection and Extent Recognition" in text


def test_entity_section_without_mentions():
    g = get_params("global_2008")
    text = section_text(tiny_entities(with_b3=False), g, "newswire", ["newswire"])
    assert "Mention Detection" not in text
    assert "B3 Unweighted" in text  # B3 headers, non-B3 numbers
    assert text.endswith("total       2      0     0      1     1      0.0   0.0    50.0  50.0\n")


def test_mention_entity_section_has_mention_tables():
    text = section_text(tiny_entities(with_b3=False, task="mention_entity"), P, "nw", ["nw"])
    assert text.startswith(
        "\n======== mention_entity scoring ========\n\nEntity Mention Detection statistics:\n"
    )
    assert "Mention Style confusion matrix" in text


def test_relation_section():
    text = section_text(tiny_relations(), P, "newswire", ["newswire"])
    assert text.startswith(
        "\n======== relation scoring ========\n\nRelation Detection and"
        " Recognition statistics:\n\n source   Relation_Count_ "
    )
    assert (
        "\nORG-AFF     1     0     0       1     0     0     0     0.0   0.0   0.0  100.0" in text
    )
    assert (
        text.rstrip("\n")
        .split("\n")[-7]
        .startswith(
            "Recognition statistics for argument"
            " ROLE for all types and all subtypes"
            " for matching TYPE and SUBTYPE"
        )
    )


def test_value_and_timex2_sections():
    v = value("V1", "Numeric", "Money")
    sv = value("S-V1", "Numeric", "Percent")
    res = PassResult(
        "value",
        "value",
        {"V1": glob("value", "V1", {DOC: v})},
        {"S-V1": glob("value", "S-V1", {DOC: sv})},
    )
    res.mapping = {"V1": "S-V1"}
    res.doc_value[("REF", "V1", DOC)] = 1.00000001
    res.doc_mv[("V1", "S-V1", DOC)] = 0.900000009
    res.doc_costs[("V1", "S-V1", DOC)] = (0.100000001, 0.0, 0.0, 0.0)
    finish(res)
    text = section_text(res, P, "newswire", ["newswire"])
    assert _titles(text) == [
        "======== value scoring ========",
        "Value Detection and Recognition statistics:",
        "Recognition statistics for attribute SUBTYPE (for mapped elements):",
        "Recognition statistics for attribute TYPE (for mapped elements):",
    ]
    assert "\nEnglish     1     0     0       1     0     0     1 " in text

    t = timex2("T1", VAL="2004", SET="NO", NON_SPECIFIC="NO")
    st = timex2("S-T1", VAL="2005", SET="NO", NON_SPECIFIC="NO", MOD="END")
    res = PassResult(
        "timex2",
        "timex2",
        {"T1": glob("timex2", "T1", {DOC: t})},
        {"S-T1": glob("timex2", "S-T1", {DOC: st})},
    )
    res.mapping = {"T1": "S-T1"}
    res.doc_value[("REF", "T1", DOC)] = 1.00000001
    res.doc_mv[("T1", "S-T1", DOC)] = 0.5
    res.doc_costs[("T1", "S-T1", DOC)] = (0.5, 0.0, 0.0, 0.0)
    finish(res)
    text = section_text(res, P, "newswire", ["newswire"])
    assert [t.split(" (")[0] for t in _titles(text)[2:]] == [
        "Recognition statistics for attribute MOD",
        "Recognition statistics for attribute NON_SPECIFIC",
        "Recognition statistics for attribute SET",
        "Recognition statistics for attribute SUBTYPE",
        "Recognition statistics for attribute VAL",
    ]
    # MOD only on the SYS side: a false alarm of the attribute
    assert (
        "    Summary (count/percent):  Nref=0/100.0%, Nfa=1/999.9%, Nmiss=0/0.0%,"
        " Nsub=0/0.0%, Nerr=1/999.9%, P/R/F=0.0%/0.0%/0.0%"
    ) in text


# ---- byte comparison with the golden reports (needs the reader and the scoring engine) ----


def _golden_sections(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    parts = re.split(r"(?=\n======== \S+ scoring ========\n)", text)
    return {re.match(r"\n======== (\S+) scoring", p).group(1): p for p in parts[1:]}


def _score(corpus: str, sysname: str, pname: str, mentions: bool):
    from acescore.reading.apf import read_apf
    from acescore.rules.database import build_sides
    from acescore.scoring.engine import run_scoring

    params = get_params(pname)
    base = os.path.join(GOLDEN, corpus)

    def files(lst):
        with open(os.path.join(base, lst)) as f:
            return [read_apf(os.path.join(base, ln.strip()), params) for ln in f if ln.strip()]

    warnings: list = []
    rf, sf = files("ref.list"), files(f"sys-{sysname}.list")
    ref, sys = build_sides(rf, sf, params, warnings)
    label = None
    for f in rf + sf:
        for s in f.sources:
            label = s if label is None else (label if label == s else "MIXED")
    sources = sorted({s for f in rf + sf for s in f.sources})
    return run_scoring(ref, sys, params, mentions, warnings), params, label, sources


GOLDEN_CASES = [
    ("tiny", "heavy", "local_2008", True, "heavy__m.txt"),
    ("tiny", "heavy", "global_2008_with_mentions", False, "heavy__P_global_2008_with_mentions.txt"),
    ("global", "coref", "global_2008", False, "coref__P_global_2008.txt"),
    ("small", "heavy", "local_2007", True, "heavy__P_local_2007_m.txt"),
]


@pytest.mark.slow
@pytest.mark.parametrize("corpus,sysname,pname,mentions,expected", GOLDEN_CASES)
def test_golden_sections(corpus, sysname, pname, mentions, expected):
    path = os.path.join(GOLDEN, corpus, "expected", expected)
    assert os.path.exists(path), f"golden file missing: {path}"
    run, params, label, sources = _score(corpus, sysname, pname, mentions)
    exp = _golden_sections(path)
    printed = [r for r in run.passes if r.printed]
    assert [r.task for r in printed] == list(exp)
    for res in printed:
        got = section_text(res, params, label, sources)
        assert got == exp[res.task], res.task
