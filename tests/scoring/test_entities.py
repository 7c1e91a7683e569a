"""Entity scoring: the hand-computed example of docs/rules/entities.md §10 and properties that hold
for the NIST tool."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from acescore import api
from acescore.report.data.json_report import pass_json

DATA = Path(__file__).parent.parent / "data"
WORKED = DATA / "worked02"
GOLDEN = DATA / "golden"


def first_total(text: str, section: str, label: str = "TYPE") -> str:
    """The `total` row of the first table of `section` whose second header label is `label`."""
    lines = text.splitlines()
    start = lines.index(f"======== {section} scoring ========")
    seen_label = False
    for line in lines[start:]:
        if line.startswith(f" {label} "):
            seen_label = True
        if seen_label and line.startswith("  total"):
            return line
    raise AssertionError("no total row")


def test_worked_example_local_2008():
    """docs/rules/entities.md §10 (text: "Acme Corp hired Mary Jones. She said the firm in Springfield was
    growing. Jones met Bob Lee there.").

    Mapping pass (MENTION weighting): R1<->S1, R2<->S2 (single-row rule: S2's cost
    -0.825-1.1 beats S3's -0.75-1.0), R3<->S4; R4 missed; S3 and S5 false alarms.
    Scoring pass (LEVEL weighting), all REF self values 1 (NAM-level SPC entities):
      (R1,S1): EV = 0.9(1+e) (SUBTYPE error); matched mentions NAM 1+e and NOM/PRO
               (0.1+e)*0.9 (TYPE error): mv = 1.09+1.9e, norm 1/1.5 -> 0.9*1.09/1.5 = 0.654
      (R2,S2): mv = 1.1 of MV(R2) = 2.1 -> 1.1/2.1 = 0.52381
      (R3,S4): overlap 10/11 -> 1 + (10/11)e = 1.00000
      R4: miss (0 of 1); S3: FA -0.75; S5 (PRO, level 0.1): FA -0.075
    Value = (0.654 + 0.5238095 + 1.0 - 0.75 - 0.075) / 4 = 33.8 %.
    B-cubed (correspondences, not the mapping):
      recall (2/2 + 2/2 + 2/3 + 2/3 + 1/3 + 1 + 0)/7 = 66.7, precision 6/7 = 85.7, F 75.0;
      value recall 3.14238/5.6 = 56.1, value precision 4.19/4.3 = 97.4, F 71.2.
    EMD: (0.9 + 0.081 + 1 + 0.1 + 1 + 1 - 0.075) / 5.6 = 71.5 %.
    """
    res = api.score(str(WORKED / "ref"), str(WORKED / "sys"), "local_2008", True, keep_passes=True)
    ent = res.task("entity")
    assert ent.mapping == {"D1-R1": "D1-S1", "D1-R2": "D1-S2", "D1-R3": "D1-S4"}
    assert "%.5f" % ent.doc_mv[("D1-R1", "D1-S1", "D1")] == "0.65400"
    assert "%.5f" % ent.doc_mv[("D1-R2", "D1-S2", "D1")] == "0.52381"
    assert "%.5f" % ent.doc_mv[("D1-R3", "D1-S4", "D1")] == "1.00000"
    assert "%.5f" % ent.doc_fa[("D1-S3", "D1")] == "-0.75000"
    assert "%.5f" % ent.doc_fa[("D1-S5", "D1")] == "-0.07500"
    text = res.to_text()
    row = first_total(text, "entity")
    assert row[126:134].strip() == "33.8"  # Value
    assert row[71:88].split() == ["85.7", "66.7", "75.0"]  # B3 P/R/F (runs 85.7 66.7 75.0)
    assert re.sub(r"100\.0", " 100.0", row[134:151]).split() == ["97.4", "56.1", "71.2"]
    emd = first_total(text, "mention_entity")
    assert emd[126:134].strip() == "71.5"


@pytest.mark.parametrize(
    "params,value",
    [("local_2007", "33.8"), ("global_2008", "45.4"), ("global_2008_with_mentions", "29.4")],
)
def test_worked_example_other_parameter_sets(params, value):
    """docs/rules/entities.md §10.6: local_2007 identical; global_2008_with_mentions NS(R2,S2) = (1+0.5+1)/3 and
    NS(R3,S4) = 1 - 1/11 give 29.4 %; global_2008 (no mentions) 45.4 %."""
    res = api.score(str(WORKED / "ref"), str(WORKED / "sys"), params, False)
    assert first_total(res.to_text(), "entity")[126:134].strip() == value


@pytest.mark.slow
@pytest.mark.parametrize(
    "params", ["local_2008", "local_2007", "global_2008", "global_2008_with_mentions"]
)
def test_identical_system_scores_100_everywhere(params):
    """A system identical to the reference up to IDs: every row of every table is 100.0.
    (Not with -m under global_2008_with_mentions: there the NIST tool scores even the
    reference against itself below 100 in the mention-level relation and event sections.)"""
    res = api.score(
        str(GOLDEN / "small" / "ref"),
        str(GOLDEN / "small" / "sys-perfect"),
        params,
        params != "global_2008_with_mentions",
    )
    seen = 0
    for line in res.to_text().splitlines():
        if re.match(r"^[ \w<>=.\-()]{7}\s+\d+\s+\d+\s+\d+\s+\d+", line) and len(line) >= 200:
            value = float(line[126:134])
            nref = int(line[25:33])
            if nref:
                assert value == 100.0, line
                seen += 1
    assert seen > 100


def test_empty_system_scores_zero():
    """An empty system output: every element is missed, Value 0.0 (the NIST tool then prints
    no scoring section at all, and neither does acescore)."""
    res = api.score(
        str(GOLDEN / "tiny" / "ref"),
        str(GOLDEN / "tiny" / "sys-empty"),
        "local_2008",
        True,
        keep_passes=True,
    )
    assert "scoring ========" not in res.to_text()
    for task in ("entity", "value", "timex2"):
        t = pass_json(res.task(task), res.params, res.all_sources)
        assert t["total"]["value"] == 0.0
        assert t["total"]["miss_cost"] == 100.0


@pytest.mark.slow
def test_levenshtein_matches_the_classic_table():
    """The bit-parallel edit distance equals the dynamic-programming definition (random
    names over a small alphabet with non-ASCII letters, so that distances vary)."""
    import random

    from acescore.scoring.names import levenshtein, name_similarity

    def table(a: str, b: str) -> int:
        prev = list(range(len(b) + 1))
        for i, ca in enumerate(a, 1):
            cur = [i]
            for j, cb in enumerate(b, 1):
                cur.append(min(prev[j - 1] + (ca != cb), prev[j] + 1, cur[j - 1] + 1))
            prev = cur
        return prev[-1]

    rnd = random.Random(7)
    for _ in range(5000):
        a = "".join(rnd.choice("abé d") for _ in range(rnd.randint(0, 70)))
        b = "".join(rnd.choice("abé d") for _ in range(rnd.randint(0, 70)))
        assert levenshtein(a, b) == table(a, b)
    assert levenshtein("kitten", "sitting") == 3
    assert name_similarity("brenhaven prison", "brenhaven prison") == 1
    assert name_similarity("abcd", "abce") == 0.75
