"""Recognition tables (docs/rules/report.md §4): confusion blocks and matrices."""

from __future__ import annotations

from test_report_fixtures import DOC, event, finish, glob, relation, tiny_entities, tiny_relations

from acescore.model.params import EVENT_SUBTYPES, RELATION_SUBTYPES, get_params
from acescore.report.counts import detection_text as dtext
from acescore.report.counts import recognition as rec
from acescore.report.counts import releve_recognition as rrec
from acescore.report.nist.nist_text import entity_recognition, releve_recognition
from acescore.scoring.result import PassResult

P = get_params("local_2008")

LEVEL_BLOCK = r"""
Recognition statistics for attribute LEVEL (for mapped elements):
    Summary (count/percent):  Nref=3/100.0%, Nfa=0/0.0%, Nmiss=0/0.0%, Nsub=0/0.0%, Nerr=0/0.0%, P/R/F=100.0%/100.0%/100.0%
    Confusion matrix for major error contributors (count/percent):
        ref\tst:   (recall)         NOM         NAM 
     (precision)                 1/99.9%     2/99.9%
             NOM     1/99.9%     1/33.3%      -     
             NAM     2/99.9%      -          2/66.7%
"""

SUBTYPE_BLOCK = r"""
Recognition statistics for attribute SUBTYPE (for mapped elements):
    Summary (count/percent):  Nref=3/100.0%, Nfa=0/0.0%, Nmiss=0/0.0%, Nsub=1/33.3%, Nerr=1/33.3%, P/R/F=100.0%/100.0%/100.0%
    Confusion matrix for major error contributors (count/percent):
        ref\tst:   (recall)  Commercial  Government  Individual Population- 
     (precision)                  -          0/ 0.0%     1/99.9%     1/99.9%
      Commercial     0/ 0.0%      -          1/33.3%      -           -     
      Government      -           -           -           -           -     
      Individual     1/99.9%      -           -          1/33.3%      -     
  Population-Cen     1/99.9%      -           -           -          1/33.3%
"""

# constant lines of the golden reports (tiny/expected/heavy__m.txt)
TYPE_HEADER = (
    "    ref\\tst:   FAC   GPE   LOC   ORG   PER   VEH   WEA        FAC   GPE   LOC"
    "   ORG   PER   VEH   WEA\n"
)
RELATION_TYPE_HEADER = """             COUNT....................................    PERCENT....................................
    ref\\tst:   ART GEN-A METON ORG-A PART- PER-S  PHYS        ART GEN-A METON ORG-A PART- PER-S  PHYS
"""


def test_level_block_worked_example():
    """docs/rules/report.md §7.5: error-free values, the less frequent first, cells in percent of Nref."""
    stats = rec.attribute_stats(tiny_entities(), ("LEVEL",))
    assert stats == {"LEVEL": {"NAM": {"NAM": 2}, "NOM": {"NOM": 1}}}
    assert rec.recognition_block(stats["LEVEL"], "attribute LEVEL") == LEVEL_BLOCK


def test_subtype_block_ties_in_code_point_order():
    stats = rec.attribute_stats(tiny_entities(), ("SUBTYPE",))["SUBTYPE"]
    assert rec.recognition_block(stats, "attribute SUBTYPE") == SUBTYPE_BLOCK


def test_block_not_printed_without_pairs():
    assert rec.recognition_block(None, "attribute X") == ""
    assert rec.recognition_block({}, "attribute X") == ""
    # only <undef> on both sides: Nref = Nsys = 0
    assert rec.recognition_block({"<undef>": {"<undef>": 2}}, "attribute X") == ""


def test_block_undef_and_all_others():
    # 12 values: v00..v11; v00 <-> <undef> confusions, the rest error free
    stats = {f"v{i:02d}": {f"v{i:02d}": i + 1} for i in range(12)}
    stats["<undef>"] = {"v00": 3}
    stats["v00"]["<undef>"] = 2
    block = rec.recognition_block(stats, "attribute VAL")
    lines = block.splitlines()
    assert lines[1] == "Recognition statistics for attribute VAL (for mapped elements):"
    # Nref = 78 + 2, Ncor = 78, Nfa = 3, Nmiss = 2, Nsub = 0, Nerr = 5, Nsys = 81
    assert lines[2] == (
        "    Summary (count/percent):  Nref=80/100.0%, Nfa=3/3.8%, Nmiss=2/2.5%,"
        " Nsub=0/0.0%, Nerr=5/6.2%, P/R/F=96.3%/97.5%/96.9%"
    )
    header = lines[4]
    shown = [header[17 + 12 * i : 17 + 12 * i + 11].strip() for i in range(12)]
    # <undef> (5 confusions) before v00 (5 confusions minus epsilon), then the error-free
    # values, least frequent first; v09..v11 fall into "all others"
    assert shown == [
        "(recall)",
        "<undef>",
        "v00",
        "v01",
        "v02",
        "v03",
        "v04",
        "v05",
        "v06",
        "v07",
        "v08",
        "all others",
    ]
    assert header.endswith(" all others ")
    assert lines[5] == (
        "     (precision)                 N/A         1/25.0%     2/99.9%     3/99.9%"
        "     4/99.9%     5/99.9%     6/99.9%     7/99.9%     8/99.9%     9/99.9%"
        "      -     "
    )
    assert lines[6] == "         <undef>     N/A          -          3/ 3.8%" + "      -     " * 9
    assert lines[7] == ("             v00     1/33.3%     2/ 2.5%     1/ 1.2%" + "      -     " * 9)
    assert lines[11] == (
        "             v04     5/99.9%" + "      -     " * 5 + "     5/ 6.2%" + "      -     " * 5
    )
    assert lines[-1] == "      all others      -     " + "      -     " * 10 + "    33/41.2%"


def test_role_block_labels():
    assert rrec.ROLE_LABELS["MAPPED"] + " (for mapped elements)" == (
        "argument ROLE for all types and all subtypes  (for mapped elements)"
    )


def test_entity_type_and_class_matrices():
    stats = rec.attribute_stats(tiny_entities(), ("TYPE", "CLASS"))
    text = rec.entity_type_matrix(stats["TYPE"], P.entity_types, "newswire")
    lines = text.split("\n")
    assert lines[1] == (
        'Entity Type confusion matrix for "newswire" sources (for mapped entities):'
    )
    assert lines[2] == (
        "               ___________count___________        __________percent__________"
    )
    assert lines[3] + "\n" == TYPE_HEADER
    assert lines[5] == (
        "  GPE            0     1     0     0     0     0     0        0.0 100.0"
        "   0.0   0.0   0.0   0.0   0.0"
    )
    assert lines[4] == "  FAC       " + "     0" * 7 + "     " + "   0.0" * 7
    text = rec.entity_class_matrix(stats["CLASS"], P.entity_classes, "newswire")
    assert text.split("\n")[2:5] == [
        "               __count__        _percent_",
        "    ref\\tst:   SPC   GEN   NEG   USP        SPC   GEN   NEG   USP",
        "  SPC            3     0     0     0      100.0   0.0   0.0   0.0",
    ]


def test_name_table():
    text = dtext.name_table(rec.name_stats(tiny_entities()), P.entity_types)
    lines = text.split("\n")
    assert lines[1:5] == [
        "Name Detection and Extent Recognition statistics (for mapped entities):",
        " ref      ____________count____________      ________percent________",
        " entity   Ref    Detection   Extent_Rec      Detection    Extent_Rec",
        " type     Tot     FA  Miss    Err  Corr       FA  Miss     Err  Corr",
    ]
    assert lines[6] == "  GPE       1      0     0      1     0      0.0   0.0   100.0   0.0"
    assert lines[9] == "  PER       1      0     0      0     1      0.0   0.0     0.0 100.0"
    assert lines[12] == "total       2      0     0      1     1      0.0   0.0    50.0  50.0"


def test_mention_tables_and_matrices():
    res = tiny_entities()
    det, role, style = rec.mention_stats(res, P)
    # E3's mention is one character shorter: mismatch 1/4 <= 1 -> correct
    assert det == {
        ("NAM", "PER", "LITERAL"): {"correct": 1},
        ("PRO", "PER", "LITERAL"): {"correct": 1},
        ("NOM", "ORG", "LITERAL"): {"correct": 1},
        ("NAM", "GPE", "LITERAL"): {"correct": 1},
    }
    text = dtext.mention_tables(det, P)
    blocks = text.split("\n\n")
    assert len(blocks) == 3
    t = blocks[0].split("\n")
    assert t[1:5] == [
        "Mention Detection and Extent Recognition statistics (for mapped entities):",
        " ref      ____________count____________      ________percent________",
        " mention  Ref    Detection   Extent_Rec      Detection    Extent_Rec",
        " type     Tot     FA  Miss    Err  Corr       FA  Miss     Err  Corr",
    ]
    assert t[5] == "  NAM       2      0     0      0     2      0.0   0.0     0.0 100.0"
    assert t[8] == "total       4      0     0      0     4      0.0   0.0     0.0 100.0"
    s = blocks[1].split("\n")
    assert s[3].startswith(" style ")
    assert s[4].startswith("LITER       4") and s[5].startswith("METON       0")
    # empty rows: percentages of max(epsilon, 0)
    assert s[5] == "METON       0      0     0      0     0      0.0   0.0     0.0   0.0"
    r = blocks[2].split("\n")
    assert r[3].startswith(" role ") and r[4].startswith("  FAC       0")
    m = dtext.mention_role_style_matrices(role, style, P, "newswire").split("\n")
    assert m[1] == 'Mention Role confusion matrix for "newswire" sources (for mapped mentions)'
    assert m[2] == "  For all mapped mentions:"
    assert m[4] + "\n" == TYPE_HEADER
    assert m[9] == (
        "  PER            0     0     0     0     2     0     0        0.0   0.0"
        "   0.0   0.0 100.0   0.0   0.0"
    )
    assert m[13:17] == [
        'Mention Style confusion matrix for "newswire" sources (for mapped mentions):',
        "               __count__        _percent_",
        "    ref\\tst:   LIT   MET        LIT   MET",
        "LITER            4     0      100.0   0.0",
    ]
    assert m[17] == "METON            0     0        0.0   0.0"


def test_mention_extent_error():
    res = tiny_entities()
    m = res.sys["S-E3"].docs[DOC].mentions[0]
    from dataclasses import replace

    from test_report_fixtures import loc

    moved = replace(m, extent=loc(40, 51))  # end differs by 5 > 4
    res.sys["S-E3"].docs[DOC] = replace(res.sys["S-E3"].docs[DOC], mentions=(moved,))
    det, _, _ = rec.mention_stats(res, P)
    assert det[("NAM", "GPE", "LITERAL")] == {"error": 1}


def test_entity_recognition_order():
    text = entity_recognition(tiny_entities(), P, "newswire", True)
    titles = [
        ln
        for ln in text.split("\n")
        if ln and not ln.startswith(" ") and ("statistics" in ln or "matrix" in ln)
    ]
    assert [t.split(" (")[0].split(" for ")[0] for t in titles] == [
        "Entity Type confusion matrix",
        "Recognition statistics",
        "Recognition statistics",
        "Recognition statistics",
        "Recognition statistics",
        "Entity Class confusion matrix",
        "Name Detection and Extent Recognition statistics",
        "Mention Detection and Extent Recognition statistics",
        "Mention Detection and Extent Recognition statistics",
        "Mention Detection and Extent Recognition statistics",
        "Mention Role confusion matrix",
        "Mention Style confusion matrix",
    ]
    no_mentions = entity_recognition(tiny_entities(), P, "newswire", False)
    assert "Mention Detection" not in no_mentions
    assert no_mentions.endswith(
        "total       2      0     0      1     1      0.0   0.0    50.0  50.0\n"
    )


# ---- relations and events ------------------------------------------------------------


def test_relation_type_matrix_layout():
    stats = rec.attribute_stats(tiny_relations(), ("TYPE",))["TYPE"]
    text = rrec.releve_matrix("relation", "Type", stats, P.relation_types, "MIXED")
    lines = text.split("\n")
    assert lines[1] == (
        'Relation Type confusion matrix for "MIXED" sources (for mapped relations):'
    )
    assert "\n".join(lines[2:4]) + "\n" == RELATION_TYPE_HEADER
    assert lines[7] == (
        "    ORG-AFF      0     0     0     1     0     0     0        0.0   0.0"
        "   0.0 100.0   0.0   0.0   0.0"
    )
    text = rrec.releve_matrix("mention_relation", "Modality", None, P.relation_modalities, "S")
    lines = text.split("\n")
    assert lines[1] == (
        'Mention_relation Modality confusion matrix for "S" sources (for mapped mention_relations):'
    )
    assert lines[2] == "             COUNT............    PERCENT............"
    assert lines[3] == "    ref\\tst: Asser Other Unspe      Asser Other Unspe"


def _metonymy_pass() -> PassResult:
    r = relation("R1", "METONYMY", "Unspecified", [("Arg", "E1"), ("Arg", "E2")])
    s = relation("S-R1", "METONYMY", "Unspecified", [("Arg", "S-E1"), ("Arg", "S-E2")])
    res = PassResult(
        "relation",
        "relation",
        {"R1": glob("relation", "R1", {DOC: r})},
        {"S-R1": glob("relation", "S-R1", {DOC: s})},
    )
    res.mapping = {"R1": "S-R1"}
    res.doc_value[("REF", "R1", DOC)] = 2.0
    res.doc_mv[("R1", "S-R1", DOC)] = 2.0
    res.doc_costs[("R1", "S-R1", DOC)] = (0.0, 0.0, 0.0, 0.0)
    res.argument_map[("R1", "S-R1")] = {
        ("Arg", "S-E1"): ("Arg", "E1"),
        ("Arg", "S-E2"): ("Arg", "E2"),
    }
    return finish(res)


def test_metonymy_subtype_matrix_is_empty():
    text = rrec.releve_subtype_matrices(
        "relation",
        rrec.subtype_stats(_metonymy_pass()),
        P.relation_types,
        RELATION_SUBTYPES,
        "MIXED",
    )
    assert text == (
        '\nRelation Subtype confusion matrix for "MIXED" sources (for mapped'
        " relations):\n  type=METON COUNT    PERCENT\n    ref\\tst:      \n"
    )


def test_subtype_matrix_single_subtype():
    e = event("EV1", "Movement", "Transport", [("Artifact", "E1")])
    s = event("S-EV1", "Movement", "Transport", [("Artifact", "S-E1")])
    res = PassResult(
        "event",
        "event",
        {"EV1": glob("event", "EV1", {DOC: e})},
        {"S-EV1": glob("event", "S-EV1", {DOC: s})},
    )
    res.mapping = {"EV1": "S-EV1"}
    finish(res)
    text = rrec.releve_subtype_matrices(
        "event", rrec.subtype_stats(res), P.event_types, EVENT_SUBTYPES, "MIXED"
    )
    assert text.split("\n")[2:5] == [
        "  type=Movem COUNT    PERCENT",
        "    ref\\tst: Trans      Trans ",
        "  Transport      1      100.0",
    ]


def test_subtype_matrix_pairs_outside_type_not_shown():
    stats = {"PHYS": {"Located": {"Near": 1, "Employment": 2}}}
    text = rrec.releve_subtype_matrices("relation", stats, P.relation_types, RELATION_SUBTYPES, "X")
    lines = text.split("\n")
    assert lines[2] == "  type=PHYS  COUNT......    PERCENT......"
    assert lines[3] == "    ref\\tst: Locat  Near      Locat  Near "
    assert lines[4] == "    Located      0     1        0.0 100.0"
    assert lines[5] == "       Near      0     0        0.0   0.0"


def test_role_stats_levels():
    res = tiny_relations()
    # SYS argument in another role, one unpaired SYS argument
    res.argument_map[("R1", "S-R1")] = {("Arg-2", "S-E1"): ("Arg-1", "E1")}
    res.sys["S-R1"].arguments = {"Arg-1": ("S-E2",), "Arg-2": ("S-E1",)}
    stats = rrec.role_stats(res)
    assert stats["MAPPED"] == {
        "Arg-1": {"Arg-2": 1},
        "Arg-2": {"<undef>": 1},
        "<undef>": {"Arg-1": 1},
    }
    assert stats["MATCHING_TYPE"] == stats["MAPPED"]
    assert stats["MATCHING_SUBTYPE"] == stats["MAPPED"]


def test_role_stats_matching_subtype_independent_of_type():
    res = tiny_relations()
    from dataclasses import replace

    sd = res.sys["S-R1"].docs[DOC]
    res.sys["S-R1"].docs[DOC] = replace(sd, type="PHYS")  # same subtype, other type
    stats = rrec.role_stats(res)
    assert stats["MATCHING_TYPE"] == {}
    assert stats["MATCHING_SUBTYPE"] == {"Arg-1": {"Arg-1": 1}, "Arg-2": {"Arg-2": 1}}


def test_releve_recognition_sequence():
    text = releve_recognition(tiny_relations(), P, "newswire")
    titles = [ln for ln in text.split("\n") if ln.startswith(("Relation", "Recognition"))]
    assert titles == [
        'Relation Type confusion matrix for "newswire" sources (for mapped relations):',
        'Relation Subtype confusion matrix for "newswire" sources (for mapped relations):',
        'Relation Modality confusion matrix for "newswire" sources (for mapped relations):',
        "Recognition statistics for attribute MODALITY (for mapped elements):",
        "Recognition statistics for attribute SUBTYPE (for mapped elements):",
        "Recognition statistics for attribute TYPE (for mapped elements):",
        "Recognition statistics for argument ROLE for all types and all subtypes "
        " (for mapped elements):",
        "Recognition statistics for argument ROLE for all types and all subtypes for matching"
        " TYPE (for mapped elements):",
        "Recognition statistics for argument ROLE for all types and all subtypes for matching"
        " TYPE and SUBTYPE (for mapped elements):",
    ]
    assert "  type=ORG-A COUNT" in text
