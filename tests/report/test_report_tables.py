"""The 31-column detection tables (docs/rules/report.md §2, §3, §7)."""

from __future__ import annotations

import numpy as np
import pytest
from test_report_fixtures import DOC, entity, finish, glob, mention, tiny_entities, tiny_relations

from acescore.model.params import get_params
from acescore.report.counts.conditions import (
    ARG_ERROR_BINS,
    ENTITY_MENTION_COUNT_BINS,
    ENTROPY_BINS,
    VALUE_BINS,
    XDOC_BINS,
    TableSpec,
    bin_of,
    table_specs,
)
from acescore.report.counts.grouped import Summands
from acescore.report.counts.records import build_records
from acescore.report.counts.rows import (
    ROW_FIELDS,
    detection_table,
    detection_tables,
    format_row,
    header_lines,
    row_fields,
)
from acescore.report.counts.tables import B3Entry, Cell, Keys, PassTables, grouped_sums
from acescore.scoring.result import PassResult

P = get_params("local_2008")

# header lines as printed by the NIST tool (golden tiny/expected/heavy__m.txt)
LANG_HEADER = """
 source   _Entity_Count__     ___Document_Count____     _____Document_Count_(%)______        ________________________Cost_(%)________________________       ____________Unconditioned_Cost_(%)____________
 LANGUAGE Ref   Detection     Ref   Detection   Rec     Detection   Rec    Unweighted        Detection  Attr    ___Mentions___   Value    Value-based       Max      Detection   Attr     ____Mentions____
          Tot    FA  Miss     Tot    FA  Miss   Err      FA  Miss   Err    Pre--Rec--F        FA  Miss   Err    FA  Miss   Err     (%)    Pre--Rec--F      Value     FA   Miss    Err     FA   Miss    Err
"""
TYPE_B3_HEADER = """
 entity   _Entity_Count__     ___Document_Count____     _____Document_Count_(%)______        ________________________Cost_(%)________________________       ____________Unconditioned_Cost_(%)____________
 TYPE     Ref   Detection     Ref   Detection   Rec     Detection   Rec   B3 Unweighted      Detection  Attr    ___Mentions___   Value   B3 Value_based     Max      Detection   Attr     ____Mentions____
          Tot    FA  Miss     Tot    FA  Miss   Err      FA  Miss   Err    Pre--Rec--F        FA  Miss   Err    FA  Miss   Err     (%)    Pre--Rec--F      Value     FA   Miss    Err     FA   Miss    Err
"""
RELATION_HEADER = """
 relation Relation_Count_     ___Document_Count____     _____Document_Count_(%)______        ________________________Cost_(%)________________________       ____________Unconditioned_Cost_(%)____________
 TYPE     Ref   Detection     Ref   Detection   Rec     Detection   Rec    Unweighted        Detection  Attr    __Arguments___   Value    Value-based       Max      Detection   Attr     ___Arguments____
          Tot    FA  Miss     Tot    FA  Miss   Err      FA  Miss   Err    Pre--Rec--F        FA  Miss   Err    FA  Miss   Err     (%)    Pre--Rec--F      Value     FA   Miss    Err     FA   Miss    Err
"""

ROW_ENGLISH = (
    "English     3     0     0       3     0     0     1     0.0   0.0  33.3   66.7 66.7"
    " 66.7     0.0   0.0   2.0   0.0   0.0   0.0    98.0   98.0 98.0 98.0   100.00   0.00"
    "   0.00   2.00   0.00   0.00   0.00\n"
)
ROW_ORG_AFF = (
    "ORG-AFF     1     0     0       1     0     0     0     0.0   0.0   0.0  100.0100.0"
    "100.0     0.0   0.0   0.0   0.0   0.0   3.3    96.7   96.7 96.7 96.7   100.00   0.00"
    "   0.00   0.00   0.00   0.00   3.33\n"
)
ROW_FA_PER = (
    "    PER     0     1     0       0     1     0     0   999.9   0.0   0.0    0.0  0.0"
    "  0.0   999.9   0.0   0.0   0.0   0.0   0.0  -999.9    0.0  0.0  0.0     0.00   8.33"
    "   0.00   0.00   0.00   0.00   0.00\n"
)


# ---- header lines and rows ------------------------------------------------------------


def test_header_lines_non_b3():
    assert header_lines("entity", "source", "language", False) == LANG_HEADER


def test_header_lines_b3():
    assert header_lines("entity", "entity", "type", True) == TYPE_B3_HEADER


def test_header_lines_relation():
    assert header_lines("relation", "relation", "type", False) == RELATION_HEADER
    for line in RELATION_HEADER.splitlines()[1:]:
        assert len(line) == 202


@pytest.mark.parametrize(
    "kind,label",
    [("event", "__Event_Count__"), ("timex2", "_Timex2_Count__"), ("value", "__Value_Count__")],
)
def test_header_count_labels(kind, label):
    assert header_lines(kind, "source", "type", False).splitlines()[1][10:25] == label


WIDTHS = (
    7,
    6,
    6,
    6,
    8,
    6,
    6,
    6,
    8,
    6,
    6,
    7,
    5,
    5,
    8,
    6,
    6,
    6,
    6,
    6,
    8,
    7,
    5,
    5,
    9,
    7,
    7,
    7,
    7,
    7,
    7,
)
COLUMNS = (
    "AA",
    "AB",
    "AC",
    "AD",
    "A",
    "B",
    "C",
    "D",
    "E",
    "F",
    "G",
    "H",
    "I",
    "J",
    "K",
    "L",
    "M",
    "N",
    "O",
    "P",
    "Q",
    "R",
    "S",
    "T",
    "U",
    "V",
    "W",
    "X",
    "Y",
    "Z",
    "ZZ",
)


def fields(row: str) -> dict:
    """The 31 columns of a (normal-width) row by name."""
    out, i = {}, 0
    for name, w in zip(COLUMNS, WIDTHS):
        out[name] = row[i : i + w]
        i += w
    return out


def _cell(**kw) -> Cell:
    c = Cell()
    for k, v in kw.items():
        setattr(c, k, v)
    return c


def test_row_worked_example_english():
    """docs/rules/report.md §7.2: three mapped entities, one with an attribute error."""
    rv = 1.00000001 + 0.500000005 + 1.00000001
    c = _cell(
        mapped=3,
        correct=2,
        error=1,
        c_error=0.0500000005,
        attr_err=0.0500000005,
        err_sub=1.43e-9,
        norm=rv,
    )
    assert format_row("English", c, rv) == ROW_ENGLISH
    assert len(ROW_ENGLISH) == 203


def test_row_worked_example_relation():
    """docs/rules/report.md §7.3: correct relation whose argument costs value."""
    c = _cell(mapped=1, correct=1, c_correct=0.0500000005, err_sub=0.0499999905, norm=1.500000025)
    assert format_row("ORG-AFF", c, 1.500000025) == ROW_ORG_AFF


def test_row_false_alarm_only():
    """docs/rules/report.md §7.4: FA-only row with a zero B3 entry: 999.9 / -999.9 caps."""
    c = _cell(efa=1, fa=1, c_fa=0.375, norm=0.0)
    assert format_row("PER", c, 4.500000055, B3Entry(0, 0, 0, 0)) == ROW_FA_PER


def test_row_label_truncated_to_seven():
    c = _cell(mapped=1, correct=1, norm=1.0)
    assert format_row("Population-Center", c, 1.0).startswith("Populat     1")
    assert format_row("total", c, 1.0).startswith("  total")


def test_row_everything_zero():
    line = format_row("total", Cell(), 0.0)
    assert line == (
        "  total"
        + "%6d" * 3 % (0, 0, 0)
        + "%8d" % 0
        + "%6d" * 3 % (0, 0, 0)
        + "     0.0   0.0   0.0    0.0  0.0  0.0     0.0   0.0   0.0   0.0   0.0"
        "   0.0     0.0    0.0  0.0  0.0     0.00   0.00   0.00   0.00   0.00   0.00"
        "   0.00\n"
    )


# ---- bins (docs/rules/report.md §3.3) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "v,bins,expected",
    [
        (None, VALUE_BINS, "<=0.2"),
        (0.0, VALUE_BINS, "<=0.2"),
        (0.2, VALUE_BINS, "<=0.2"),
        (0.2000051, VALUE_BINS, "0.2-0.5"),
        (0.5, VALUE_BINS, "0.2-0.5"),
        (1.0, VALUE_BINS, "0.5-1.0"),
        (1.00000001, VALUE_BINS, "0.5-1.0"),
        (1.5, VALUE_BINS, "1-2"),
        (4.0, VALUE_BINS, "2-4"),
        (4.1, VALUE_BINS, ">4"),
        (0, ENTITY_MENTION_COUNT_BINS, "1"),
        (1, ENTITY_MENTION_COUNT_BINS, "1"),
        (2, ENTITY_MENTION_COUNT_BINS, "2"),
        (4, ENTITY_MENTION_COUNT_BINS, "3-4"),
        (9, ENTITY_MENTION_COUNT_BINS, ">8"),
        (1, XDOC_BINS, "1"),
        (2, XDOC_BINS, ">1"),
        (None, ENTROPY_BINS, "<=0.3"),
        (0.31, ENTROPY_BINS, "0.3-0.6"),
        (5.0, ENTROPY_BINS, ">1.0"),
        (0, ARG_ERROR_BINS, "0"),
        (1, ARG_ERROR_BINS, "1"),
        (3, ARG_ERROR_BINS, ">1"),
    ],
)
def test_bins(v, bins, expected):
    assert bin_of(v, bins) == expected


# ---- sums -----------------------------------------------------------------------------


def test_grouped_sums_are_sequential():
    rng = np.random.default_rng(3)
    n = 2000
    vals = rng.random((n, 2)) * 10.0 ** rng.integers(-9, 3, size=(n, 1))
    keys = [("a", "b", "c")[i % 3] for i in range(n)]
    labels = [i % 2 for i in range(n)]
    out = grouped_sums(Keys.encode(keys), Summands(vals.T.tolist(), bytes(labels), 2))
    for k in "abc":
        s0 = s1 = 0.0
        c = [0, 0]
        for i in range(n):
            if keys[i] == k:
                s0 += float(vals[i, 0])
                s1 += float(vals[i, 1])
                c[labels[i]] += 1
        assert out[k] == ([s0, s1], c)


def test_grouped_sums_negative_zero_becomes_zero():
    out = grouped_sums(Keys.encode(["x"]), Summands([[-0.0]]))
    assert str(out["x"][0][0]) == "0.0"


def test_keys_pair():
    a = Keys.encode(["x", "y", "x"])
    b = Keys.encode(["1", "1", "2"])
    p = a.pair(b)
    assert [p.names[c] for c in p.codes] == [("x", "1"), ("y", "1"), ("x", "2")]


# ---- records and tables from a hand-built pass ----------------------------------------


def test_records_tiny_example():
    docs, elems = build_records(tiny_entities())
    assert [(r.eid, r.status) for r in docs] == [
        ("E1", "correct"),
        ("E2", "error"),
        ("E3", "correct"),
    ]
    # cost below epsilon is clamped to 0
    assert docs[2].cost == 0
    assert abs(docs[1].cost - 0.0500000005) < 1e-15
    assert [(e.eid, e.status) for e in elems] == [
        ("E1", "mapped"),
        ("E2", "mapped"),
        ("E3", "mapped"),
    ]


def test_language_table_tiny_example():
    res = tiny_entities()
    text = detection_table(
        "entity",
        TableSpec(
            "source", "language", "LANGUAGE", ("Arabic", "Chinese", "English", "MIXED", "UNKNOWN")
        ),
        PassTables(res),
    )
    assert text.startswith(LANG_HEADER)
    rows = text[len(LANG_HEADER) :].splitlines(keepends=True)
    assert rows[0] == ROW_ENGLISH
    assert rows[1] == "  total" + ROW_ENGLISH[7:]
    assert len(rows) == 2


def test_type_table_uses_b3():
    """docs/rules/report.md §7.2: every mention coreferred perfectly: B3 P/R/F 100, all costs unchanged."""
    res = tiny_entities()
    text = detection_table(
        "entity", TableSpec("entity", "type", "TYPE", P.entity_types), PassTables(res)
    )
    rows = text[len(TYPE_B3_HEADER) :].splitlines()
    assert text.startswith(TYPE_B3_HEADER)
    assert [r[:7] for r in rows] == ["    GPE", "    ORG", "    PER", "  total"]
    total = rows[-1]
    assert total.startswith(
        "  total     3     0     0       3     0     0     1     0.0   0.0  33.3  100.0100.0100.0"
    )
    f = fields(total)
    assert (f["M"], f["Q"]) == ("   2.0", "    98.0")
    assert f["R"] + f["S"] + f["T"] == "  100.0100.0100.0"


def test_b3_headers_without_b3_data_use_non_b3_numbers():
    res = tiny_entities(with_b3=False)
    text = detection_table(
        "entity", TableSpec("entity", "type", "TYPE", P.entity_types), PassTables(res)
    )
    assert text.startswith(TYPE_B3_HEADER)
    total = text.splitlines()[-1]
    assert " 66.7 66.7 66.7" in total


def _fa_only_pass() -> PassResult:
    """A REF entity missed, a SYS entity of another type as false alarm."""
    r = entity("E1", "PER", "Group", "SPC", [mention("E1-1", "NAM", 0, 3)])
    s = entity("S-E9", "LOC", "Address", "SPC", [mention("S-E9-1", "NOM", 10, 13, "LOC")])
    res = PassResult(
        "entity",
        "entity",
        {"E1": glob("entity", "E1", {DOC: r})},
        {"S-E9": glob("entity", "S-E9", {DOC: s})},
    )
    res.doc_value[("REF", "E1", DOC)] = 1.00000001
    res.doc_value[("SYS", "S-E9", DOC)] = 0.500000005
    res.doc_fa[("S-E9", DOC)] = -0.375
    return finish(res)


def test_false_alarm_classified_by_sys_attributes():
    text = detection_table(
        "entity", TableSpec("entity", "type", "TYPE", P.entity_types), PassTables(_fa_only_pass())
    )
    rows = text.splitlines()[4:]
    assert [r[:7] for r in rows] == ["    LOC", "    PER", "  total"]
    assert rows[0].startswith("    LOC     0     1     0       0     1     0     0   999.9")
    f = fields(rows[0])
    assert (f["K"], f["Q"], f["R"], f["V"]) == ("   999.9", "  -999.9", "    0.0", "  37.50")
    assert rows[1].startswith("    PER     1     0     1       1     0     1     0     0.0 100.0")


def test_two_condition_subtables_only_with_document_records():
    res = _fa_only_pass()
    text = detection_table(
        "entity",
        TableSpec("entity", "type", "TYPE", P.entity_types, "LEVEL", P.mention_types),
        PassTables(res),
    )
    titles = [ln for ln in text.splitlines() if ln.startswith("Performance")]
    assert titles == [
        "Performance statistics for LEVEL = ALL:",
        "Performance statistics for LEVEL = NAM:",
        "Performance statistics for LEVEL = NOM:",
    ]
    # column U of a sub-table uses the grand total value
    nom = text.split("LEVEL = NOM:")[1].splitlines()
    assert nom[4].startswith("    LOC") and nom[4].endswith("  0.00   0.00")
    assert nom[5].startswith("  total")


def test_relation_row_worked_example():
    res = tiny_relations()
    text = detection_table(
        "relation", TableSpec("relation", "type", "TYPE", P.relation_types), PassTables(res)
    )
    assert text.startswith(RELATION_HEADER)
    assert text.splitlines()[4] + "\n" == ROW_ORG_AFF


def test_relation_tables_conditions():
    res = tiny_relations()
    text = detection_tables(res, P, ["newswire"])
    assert text.count("\n          Tot    FA  Miss") == 9
    assert "\n      2     1     0     0       1" in text  # NUM ARGS = 2
    assert "\n      0     1     0     0       1" in text  # ARGUMENT ERRORS = 0
    assert "Performance statistics for TYPE = ORG-AFF:" in text
    assert "Performance statistics for TYPE = PHYS:" not in text
    assert "\nEmploym     1" in text


def test_metonymy_only_in_total_rows():
    """METONYMY relations have subtype Unspecified: only the total rows of the SUBTYPE table."""
    from test_report_fixtures import relation

    r = relation("R1", "METONYMY", "Unspecified", [("Arg", "E1"), ("Arg", "E2")])
    res = PassResult("relation", "relation", {"R1": glob("relation", "R1", {DOC: r})}, {})
    res.doc_value[("REF", "R1", DOC)] = 2.0
    finish(res)
    text = detection_tables(res, P, ["newswire"])
    sub = text.split("Performance statistics for TYPE = METONYMY:")[1].splitlines()
    assert sub[4].startswith("  total     1     0     1")
    assert len(sub) == 5


def test_table_specs_orders():
    specs = table_specs("entity", P, ["a", "b"])
    assert [(s.label1, s.label2, s.cond2) for s in specs] == [
        ("source", "language", None),
        ("entity", "type", None),
        ("entity", "level", None),
        ("entity", "value", None),
        ("mention", "count", None),
        ("entity", "class", None),
        ("document", "source", None),
        ("entity", "num-docs", None),
        ("entity", "name-ent", None),
        ("entity", "type", "LEVEL"),
        ("entity", "num-docs", "TYPE"),
        ("entity", "subtype", "TYPE"),
    ]
    assert specs[5].values1 == ("SPC", "GEN", "NEG", "USP")
    assert specs[6].values1 == ("a", "b")
    assert specs[11].values1[:3] == ("Address", "Air", "Airport")
    assert specs[11].values1.count("Underspecified") == 1
    assert [s.cond1 for s in table_specs("timex2", P, [])] == ["LANGUAGE", "SOURCE"]
    rel = table_specs("relation", P, [])
    assert [s.label1 for s in rel] == [
        "source",
        "relation",
        "modality",
        "relation",
        "source",
        "argument",
        "num",
        "relation",
    ]
    assert rel[2].values1 == ("Asserted", "Other", "Unspecified")
    assert table_specs("event", P, [])[2].values1 == ("Asserted", "Other")


def test_row_fields_names_and_values():
    rv = 1.00000001 + 0.500000005 + 1.00000001
    c = _cell(
        mapped=3,
        correct=2,
        error=1,
        c_error=0.0500000005,
        attr_err=0.0500000005,
        err_sub=1.43e-9,
        norm=rv,
    )
    f = row_fields(c, rv)
    assert list(f) == list(ROW_FIELDS) + ["b3"]
    assert f["b3"] is False
    assert (f["ref_count"], f["doc_error_count"]) == (3, 1)
    assert "%.1f" % f["value"] == "98.0" and "%.2f" % f["max_value"] == "100.00"
    assert row_fields(c, rv, B3Entry(1.0, 1.0, 1.0, 1.0), True)["b3"] is True
    assert row_fields(c, rv, None, True)["b3"] is False


def test_row_fields_match_json_schema():
    import json
    import os

    path = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        "..",
        "acescore",
        "schema",
        "results.schema.json",
    )
    with open(path) as fh:
        required = json.load(fh)["$defs"]["row"]["required"]
    assert set(required) == {"key", "b3", *ROW_FIELDS}


def test_two_condition_tables_made_once_for_report_and_json(monkeypatch):
    """The report's two-condition table and the JSON's are one computation: the cells and
    the B3 entries of a (TYPE, LEVEL) table are made once, whoever asks again."""
    from acescore.report.data.json_report import pass_json

    res = tiny_entities()
    tables = PassTables(res)
    made = []
    real_cells, real_b3 = PassTables._double_cells, type(tables.b3())._entries

    def counted_cells(self, c1, c2):
        made.append(("cells", c1, c2))
        return real_cells(self, c1, c2)

    def counted_b3(self, keyfun):
        made.append("b3")
        return real_b3(self, keyfun)

    monkeypatch.setattr(PassTables, "_double_cells", counted_cells)
    monkeypatch.setattr(type(tables.b3()), "_entries", counted_b3)
    spec = TableSpec("entity", "type", "TYPE", P.entity_types, "LEVEL", P.mention_types)
    text = detection_table("entity", spec, tables)
    assert made.count(("cells", "TYPE", "LEVEL")) == 1 and "b3" in made
    data = pass_json(res, P, ["newswire"], tables)
    assert made.count(("cells", "TYPE", "LEVEL")) == 1  # not again for the JSON
    made.clear()
    assert detection_table("entity", spec, tables) == text
    assert made == []  # nothing made again
    rows = text.split("LEVEL = NAM:")[1].splitlines()[4:]
    nam = data["conditions"]["TYPE/LEVEL"]["NAM"]
    assert [r["key"] for r in nam] == [row[:7].strip() for row in rows[: len(nam)]]
