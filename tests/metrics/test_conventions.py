"""Named conventions (acescore.metrics.conventions) and ``acescore events --convention``.

One hand-built document D scored under every convention; every expected count below was
computed by hand from the rules quoted in each test's docstring (read in the codebases with
the search tool; no code copied).

Mentions (head offsets; extents differ only for m1):
    m1 E1 PER NAM head 0-3 (extent 0-10)   m2 E1 PER PRO 20-21   m3 E2 GPE NAM 30-35
    v1 value (Numeric) 40-44               t1 timex2 50-55
REF event mentions (document order)
    ev1 Conflict:Attack     anchor 12-17 "fired"    Attacker=m1 Place=m3 Time-Within=t1
    ev2 Life:Die            anchor 12-17 "fired"    Victim=m2
    ev3 Movement:Transport  anchor 60-68 "set out"  Artifact=m1
SYS event mentions
    s1 Conflict:Attack      anchor 12-17 "fired"    Attacker=m1 Target=m1 Place=m3
    s2 Movement:Transport   anchor 60-68 "set out"  Artifact=m1
    s3 Movement:Transport   anchor 70-74 "fled"     Artifact=m1
Relations: REF ORG-AFF:Employment Arg-1=m1 Arg-2=m3;  SYS the same with Arg-1=m3 Arg-2=m1.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from acescore.metrics.convention_scores import convention_scores
from acescore.metrics.conventions import CONVENTIONS, RULES, get_convention, signature
from acescore.model.apf import (
    Argument,
    Document,
    Entity,
    EntityMention,
    Event,
    EventMention,
    Locator,
    Relation,
    RelationMention,
    SimpleMention,
    Timex2,
    Value,
)
from acescore.model.options import Options
from acescore.rules.database import Side
from acescore.run.pipeline import load


def _loc(s, e, text=""):
    return Locator("text", s, e, text)


def _entities():
    m1 = EntityMention("m1", "NAM", "PER", "LITERAL", _loc(0, 3), _loc(0, 10))
    m2 = EntityMention("m2", "PRO", "PER", "LITERAL", _loc(20, 21), _loc(20, 21))
    m3 = EntityMention("m3", "NAM", "GPE", "LITERAL", _loc(30, 35), _loc(30, 35))
    return (
        Entity("E1", "PER", "Individual", "SPC", (m1, m2), (), "NAM"),
        Entity("E2", "GPE", "Nation", "SPC", (m3,), (), "NAM"),
    )


def _ev(eid, etype, subtype, anchor, text, args):
    em = EventMention(
        eid + "-1", _loc(0, 80), _loc(*anchor, text), tuple(Argument(r, m) for r, m in args)
    )
    return Event(eid, etype, subtype, "Specific", "Asserted", "Positive", "Past", (), (em,))


def _rel(a1, a2):
    m = RelationMention("R1-1", _loc(0, 35), (Argument("Arg-1", a1), Argument("Arg-2", a2)))
    return Relation(
        "R1",
        "ORG-AFF",
        "Employment",
        "Asserted",
        (Argument("Arg-1", a1[:2]), Argument("Arg-2", a2[:2])),
        (m,),
    )


def _doc(events, relation):
    return Document(
        "D",
        "newswire",
        "D.sgm",
        "text",
        "x",
        entities=_entities(),
        values=(Value("V1", "Numeric", None, (SimpleMention("v1", _loc(40, 44)),)),),
        timex2s=(Timex2("T1", (), (SimpleMention("t1", _loc(50, 55)),)),),
        relations=(relation,),
        events=events,
    )


REF = _doc(
    (
        _ev(
            "ev1",
            "Conflict",
            "Attack",
            (12, 17),
            "fired",
            [("Attacker", "m1"), ("Place", "m3"), ("Time-Within", "t1")],
        ),
        _ev("ev2", "Life", "Die", (12, 17), "fired", [("Victim", "m2")]),
        _ev("ev3", "Movement", "Transport", (60, 68), "set out", [("Artifact", "m1")]),
    ),
    _rel("m1", "m3"),
)
SYS = _doc(
    (
        _ev(
            "s1",
            "Conflict",
            "Attack",
            (12, 17),
            "fired",
            [("Attacker", "m1"), ("Target", "m1"), ("Place", "m3")],
        ),
        _ev("s2", "Movement", "Transport", (60, 68), "set out", [("Artifact", "m1")]),
        _ev("s3", "Movement", "Transport", (70, 74), "fled", [("Artifact", "m1")]),
    ),
    _rel("m3", "m1"),
)


def score(name, **rules):
    return convention_scores(
        Side("REF", documents={"D": REF}),
        Side("SYS", documents={"D": SYS}),
        get_convention(name, **rules),
    )


def counts(result):
    return {t: (s["correct"], s["ref"], s["sys"]) for t, s in result["scores"].items()}


def test_ace05_standard():
    """ace05 (Ji & Grishman 2008; Li et al. 2013; acescore.metrics.events): head offsets, all
    mentions, one-to-one.  Triggers: spans {12-17 x2, 60-68} vs {12-17, 60-68, 70-74} -> 2;
    (Attack, 12-17) and (Transport, 60-68) -> 2.  Arguments (type, span): REF A0-3 A30-35
    A50-55 D20-21 T0-3, SYS A0-3 x2, A30-35, T0-3 x2 -> 3; with roles Attacker, Place,
    Artifact -> 3.  Relations: Arg-1/Arg-2 swapped -> 0 (ORG-AFF is not symmetric)."""
    c = counts(score("ace05"))
    assert c["trigger_identification"] == (2, 3, 3)
    assert c["trigger_classification"] == (2, 3, 3)
    assert c["argument_identification"] == (3, 5, 5)
    assert c["argument_classification"] == (3, 5, 5)
    assert c["entity_strict"] == (5, 5, 5)
    assert c["relation_boundaries"] == (0, 1, 1)


def test_ace05_equals_events_command():
    """ace05 gives the numbers of ``acescore events`` with its default options."""
    from acescore.metrics.events import TASKS, event_scores

    r, s = Side("REF", documents={"D": REF}), Side("SYS", documents={"D": SYS})
    old = event_scores(r, s)
    new = convention_scores(r, s, get_convention("ace05"))["scores"]
    for t in TASKS:
        assert (new[t]["correct"], new[t]["ref"], new[t]["sys"]) == (
            old[t]["correct"],
            old[t]["ref"],
            old[t]["sys"],
        )


def test_oneie():
    """oneie.  OneIE's preprocessing/process_ace.py (read in its copy
    jeremytanjianle/event-extraction-oneie): heads ("head =
    entity_mention.find('head')"), values and timex2 only with --time_and_val; "remove
    overlapping entities ... prefer longer entities" and the same for event triggers
    ("events.sort(key=lambda x: (x.trigger.end - x.trigger.start), reverse=True)").
    OneIE's scorer.py score_graphs (read in ej0cl6/TextEE TextEE/models/OneIE/scorer.py):
    "for trg_start, trg_end, event_type in pred_triggers: matched =
    [item for item in gold_triggers if ...]; if matched: trigger_idn_num += 1; if
    matched[0][-1] == event_type: trigger_class_num += 1"; convert_arguments builds a *set* of
    (arg_start, arg_end, trigger_label, role); a predicted argument is identified when "gold_idn
    = {item ... item[2] == event_type}" is non-empty, classified when some of those has its role;
    relations: either argument order when relation_directional is False (the default).
    OneIE's data.py get_role_list (read in GAIA-IE/oneie): "if visited[i][entity_idx] == 0:
    role_list.append(...)" -- one role per (event mention, entity mention), the first; its
    predicted graph has one role per trigger-entity pair too, so SYS gets the same rule.

    ev2 overlaps the kept ev1 (same length, later) and is dropped; t1 is dropped.  Triggers:
    REF (12-17 Attack), (60-68 Transport); SYS s1 s2 s3 -> identified 2, classified 2.
    s1's second role of m1 (Target) is dropped (roles=first).  Argument sets: REF {A0-3
    Attacker, A30-35 Place, T0-3 Artifact}; SYS {A0-3 Attacker, A30-35 Place, T0-3 Artifact}
    (s2's and s3's Artifact are one) -> identified 3, classified 3.  With ``roles=all`` SYS
    adds A0-3 Target: identified 4 (its span and type are a gold argument's -- more than the
    3 REF: recall 4/3), classified 3.  The swapped relation matches (label ORG-AFF)."""
    result = score("oneie")
    c = counts(result)
    assert c["trigger_identification"] == (2, 2, 3)
    assert c["trigger_classification"] == (2, 2, 3)
    assert c["argument_identification"] == (3, 3, 3)
    assert c["argument_classification"] == (3, 3, 3)
    assert c["entity_strict"] == (3, 3, 3)
    assert c["relation_boundaries"] == (1, 1, 1)
    assert result["dropped"]["sys"]["arguments: roles=first"] == 1
    assert "roles=first" not in str(result["dropped"]["ref"])
    every = score("oneie", roles="all")
    assert counts(every)["argument_identification"] == (4, 3, 4)
    assert counts(every)["argument_classification"] == (3, 3, 4)
    assert every["scores"]["argument_identification"]["recall"] == pytest.approx(4 / 3)


def test_dygiepp():
    """dygiepp.  dwadden/dygiepp scripts/data/ace-event/parse_ace_event.py defaults: heads
    ("heads_only=True"), no pronouns ("flavor = 'pronoun' if ... TYPE == 'PRO'"; only flavor
    'entity' kept), no values/timex2 (real_entities_only), "If we hit a multi-token trigger,
    skip the event mention", "Collapse time argument roles"; events written "sorted(...)".
    dygie/data/dataset_readers/document.py: "trigger_dict[trigger_key] = trigger_val",
    "argument_dict[arg_key] = arg_value" with arg_key (trigger span, argument span) -- the
    last one wins.  dygie/training/event_metrics.py: a predicted trigger is identified "if
    token_ix in gold_triggers", classified if the labels are equal; arguments are a list of
    (span, event_type, label) with event_type = trigger_dict[trigger], matched by "any(...)".

    REF: ev3 dropped (anchor "set out"), m2 (PRO) and t1 dropped; ev1 and ev2 share 12-17:
    sorted by type, Life:Die comes last and wins, so ev1's Attacker and Place count as Die
    arguments.  SYS: s2 dropped; s1's Attacker and Target share (12-17, 0-3): Target (sorted
    last) wins.  Triggers: REF {12-17: Die}, SYS {12-17: Attack, 70-74: Transport} -> identified
    1, classified 0.  Arguments: REF [(0-3 Die Attacker), (30-35 Die Place)], SYS [(0-3 Attack
    Target), (30-35 Attack Place), (0-3 Transport Artifact)] -> 0."""
    c = counts(score("dygiepp"))
    assert c["trigger_identification"] == (1, 1, 2)
    assert c["trigger_classification"] == (0, 1, 2)
    assert c["argument_identification"] == (0, 2, 3)
    assert c["argument_classification"] == (0, 2, 3)
    assert c["entity_strict"] == (2, 2, 2)


def test_dygiepp_last_role_wins():
    """DyGIE++'s argument dict holds one role per (trigger span, argument span): "argument_dict[
    arg_key] = arg_value", the last one winning.  With ``triggers=all`` (multi-token anchors
    kept) the SYS dict is (12-17, 0-3) Target (Target sorts after Attacker and replaces it),
    (12-17, 30-35) Place, (60-68, 0-3) Artifact, (70-74, 0-3) Artifact: 4 SYS arguments, not 5.
    Triggers: REF {12-17: Die, 60-68: Transport}, SYS {12-17, 60-68, 70-74} -> 2 of 2 / 3."""
    c = counts(score("dygiepp", triggers="all"))
    # s2 is back: (60-68, 0-3) Artifact joins; s1 still gives one role for (12-17, 0-3)
    assert c["argument_identification"][2] == 4
    assert c["trigger_identification"] == (2, 2, 3)


def test_textee_and_attached():
    """textee.  ej0cl6/TextEE data/preprocessing/ace05/process_ace05_en.py as its .sh runs it
    (no --time_and_val, no --use_full_span: heads, no values/timex2, pronouns kept).
    TextEE/scorer.py compute_E2E_*: sets -- "gold_tri_id = set(gold_tri_id)" of (doc, wnd,
    start, end), classification adds the type; arguments (doc, wnd, event type, start, end[,
    role]); the *attached* scores put the trigger's start, end and type in front; "match_num":
    len(gold & pred).

    Triggers: {12-17, 60-68} vs {12-17, 60-68, 70-74} -> 2 of 2 / 3; with types 3 REF (Attack,
    Die, Transport) vs 3 SYS -> 2.  Arguments (type, span): REF 4 (A0-3 A30-35 D20-21 T0-3), SYS 3
    -> 3; with roles REF 4, SYS 4 (Attacker, Target, Place, Artifact) -> 3.  Attached: SYS
    keeps s2's and s3's Artifact apart (different anchors): identification 3 of 4 / 4,
    classification 3 of 4 / 5 -- below the unattached 3 of 4 / 4."""
    c = counts(score("textee"))
    assert c["trigger_identification"] == (2, 2, 3)
    assert c["trigger_classification"] == (2, 3, 3)
    assert c["argument_identification"] == (3, 4, 3)
    assert c["argument_classification"] == (3, 4, 4)
    assert c["argument_attached_identification"] == (3, 4, 4)
    assert c["argument_attached_classification"] == (3, 4, 5)


def test_degree():
    """degree.  PlusLabNLP/DEGREE README: ace05e is "processed from DyGIE++" (so DyGIE++'s
    preprocessing: heads, no pronouns, values, timex2, single-token triggers);
    degree/eval_end2endEE.py cal_scores: per sentence "gold_set = set([(t[0], t[1]) for t in
    gold_trigger])", classification "set(gold_trigger)" (with the type), arguments
    "set([(r[0][2],)+r[1][:-1] ...])" = (event type, start, end), classification with the role;
    matched = len(gold_set & pred_set).

    REF ev1 (12-17 Attack: Attacker 0-3, Place 30-35), ev2 (12-17 Die, no argument left); SYS s1,
    s3.  Triggers {12-17} vs {12-17, 70-74} -> 1; typed {A, D} vs {A, T} -> 1.  Arguments
    {A0-3, A30-35} vs {A0-3, A30-35, T0-3} -> 2; typed 2 REF vs 4 SYS (Attacker, Target, Place,
    Artifact) -> 2."""
    c = counts(score("degree"))
    assert c["trigger_identification"] == (1, 1, 2)
    assert c["trigger_classification"] == (1, 2, 2)
    assert c["argument_identification"] == (2, 2, 3)
    assert c["argument_classification"] == (2, 2, 4)


def test_rule_option_overrides_and_signature():
    """Every rule is an option; the signature names every rule and marks the changed ones."""
    conv = get_convention("textee", span="extent")
    sig = signature(conv)
    for abbr in (
        "span:extent*",
        "pro:keep",
        "vt:drop",
        "match:intersection",
        "att:yes",
        "rord:ace",
    ):
        assert abbr in sig.split("|")
    assert len(sig.split("|")) == 1 + len(RULES)
    # extents: m1 is 0-10 now, so SYS and REF still agree (same mentions) -- but the
    # entity counts use the extents
    c = counts(score("textee", span="extent"))
    assert c["argument_classification"] == (3, 4, 4)
    with pytest.raises(ValueError, match="rule matching must be one of"):
        get_convention("oneie", matching="best")
    with pytest.raises(ValueError, match="unknown convention"):
        get_convention("bert")


def test_per_label_and_macro():
    """textee trigger classification per type: Attack 1/1/1, Die 0/1/0, Transport 1/1/2;
    macro F1 = (1 + 0 + 2/3) / 3."""
    res = score("textee")
    pl = res["per_label"]["trigger_classification"]
    assert {k: (v["correct"], v["ref"], v["sys"]) for k, v in pl.items()} == {
        "Conflict:Attack": (1, 1, 1),
        "Life:Die": (0, 1, 0),
        "Movement:Transport": (1, 1, 2),
    }
    assert res["macro"]["trigger_classification"]["f1"] == pytest.approx((1 + 0 + 2 / 3) / 3)


def test_every_convention_registered():
    assert set(CONVENTIONS) == {"ace05", "oneie", "dygiepp", "textee", "degree", "pure"}


def test_pure_entities_and_relations_only():
    """pure.  princeton-nlp/PURE shared/data_structures.py evaluate_sent: "for prediction in
    sent.predicted_ner: if any([prediction == actual for actual in sent.ner])" (span and
    label); relations "prediction == actual" on (pair, label) -- the pair in its order --
    and strict when "prediction.pair[0] in correct_ner and prediction.pair[1] in
    correct_ner".  Its data: DyGIE++'s scripts/data/ace05/preprocess/ace2ann.py -- heads
    ("if child.tag == 'head'"), entity TYPE, relation TYPE, every entity mention, no values or
    timex2, duplicated entities and relations written once.
    Here: entities m1, m2, m3 on both sides -> 3 of 3 / 3; the relation's arguments are
    swapped in SYS -> 0 of 1 / 1; no event scores."""
    from acescore.metrics.convention_scores import ENTITY_TASKS, RELATION_TASKS

    res = score("pure")
    assert set(res["scores"]) == set(ENTITY_TASKS + RELATION_TASKS)
    c = counts(res)
    assert c["entity_strict"] == (3, 3, 3) and c["entity_boundary"] == (3, 3, 3)
    assert c["relation_boundaries"] == (0, 1, 1) and c["relation_strict"] == (0, 1, 1)


# ---------------------------------------------------------------------------------------------
# CLI, on the events fixture of tests/test_event_metrics.py


def _run(*args):
    from acescore.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_convention_text_and_json(tmp_path):
    from pathlib import Path

    data = Path(__file__).parent.parent / "data" / "events" / "basic"
    res = _run(
        "events", str(data / "ref"), str(data / "sys"), "--convention", "ace05", "--per-label"
    )
    assert res.exit_code == 0, res.output
    row = next(ln for ln in res.output.splitlines() if ln.startswith("argument_identification"))
    assert row.split()[1:] == ["7", "8", "3", "37.50", "42.86", "40.00"]
    assert "\nsignature: acescore:" in res.stderr and "|conv:ace05|span:head|" in res.stderr
    out = tmp_path / "o.json"
    res = _run(
        "events",
        str(data / "ref"),
        str(data / "sys"),
        "--convention",
        "textee",
        "--format",
        "json",
        "-o",
        str(out),
    )
    d = json.loads(out.read_text())
    assert "argument_attached_classification" in d["scores"]
    assert d["rules"]["matching"] == "intersection"


def test_cli_bad_convention():
    from pathlib import Path

    data = Path(__file__).parent.parent / "data" / "events" / "dup"
    res = _run("events", str(data / "ref"), str(data / "sys"), "--convention", "bert")
    assert res.exit_code == 2
    assert "bert" in res.output


def test_entity_items_dict_and_list():
    """Two REF mentions on the head 0-3 (PER, then ORG), one SYS mention 0-3 PER.
    DyGIE++ (document.py "self.ner_dict = {entry.span.span_sent: entry.label ...}", the
    entities sorted by span first, so the later ORG wins): REF {0-3: ORG} -> boundary 1 of 1/1,
    strict 0.  OneIE: its preprocessing drops the overlapping later ORG (REF 1, all correct);
    with ``overlaps=keep`` its scorer ("entity in gold_entities" over lists) counts REF 2,
    SYS 1, strict 1, boundary 1."""
    per = EntityMention("p", "NAM", "PER", "LITERAL", _loc(0, 3), _loc(0, 3))
    org = EntityMention("o", "NAM", "ORG", "LITERAL", _loc(0, 3), _loc(0, 3))
    ref = Document(
        "D",
        "newswire",
        "D.sgm",
        "text",
        "x",
        entities=(
            Entity("A", "PER", "Individual", "SPC", (per,), (), "NAM"),
            Entity("B", "ORG", "Commercial", "SPC", (org,), (), "NAM"),
        ),
    )
    sys = Document(
        "D",
        "newswire",
        "D.sgm",
        "text",
        "x",
        entities=(Entity("A", "PER", "Individual", "SPC", (per,), (), "NAM"),),
    )
    r, s = Side("REF", documents={"D": ref}), Side("SYS", documents={"D": sys})
    c = counts(convention_scores(r, s, get_convention("dygiepp")))
    assert c["entity_boundary"] == (1, 1, 1) and c["entity_strict"] == (0, 1, 1)
    c = counts(convention_scores(r, s, get_convention("oneie")))
    assert c["entity_boundary"] == (1, 1, 1) and c["entity_strict"] == (1, 1, 1)
    c = counts(convention_scores(r, s, get_convention("oneie", overlaps="keep")))
    assert c["entity_boundary"] == (1, 2, 1) and c["entity_strict"] == (1, 2, 1)


def test_cli_convention_rejects_old_options():
    from pathlib import Path

    data = Path(__file__).parent.parent / "data" / "events" / "dup"
    res = _run(
        "events",
        str(data / "ref"),
        str(data / "sys"),
        "--convention",
        "oneie",
        "--arg-match",
        "extent",
    )
    assert res.exit_code == 2
    assert "use --span" in res.output


def test_cli_rule_option_alone_uses_ace05():
    """A rule option without --convention changes the ace05 convention (marked *)."""
    from pathlib import Path

    data = Path(__file__).parent.parent / "data" / "events" / "basic"
    res = _run("events", str(data / "ref"), str(data / "sys"), "--span", "extent")
    assert res.exit_code == 0
    assert "conv:ace05|span:extent*|" in res.output
    row = next(ln for ln in res.output.splitlines() if ln.startswith("argument_identification"))
    # tests/test_event_metrics.py: --arg-match extent gives 2 identified of 7 / 8
    assert row.split()[1:4] == ["7", "8", "2"]


def test_oneie_with_attached():
    """``--attached yes`` on oneie: the attached descriptions keep the anchor (set of
    (anchor, type, span, role)); REF ev1 (2 arguments) and ev3 (1), SYS s1 (3), s2 (1), s3 (1):
    s1's second role of m1 dropped (roles=first) -> the set has (12-17,A,0-3,Attacker),
    (12-17,A,30-35,Place), (60-68,T,0-3,Artifact), (70-74,T,0-3,Artifact): 4 SYS items;
    identification by (anchor, type, span) any-match: 3 (not s3's); classification 3."""
    c = counts(score("oneie", attached="yes"))
    assert c["argument_attached_identification"] == (3, 3, 4)
    assert c["argument_attached_classification"] == (3, 3, 4)


# ---------------------------------------------------------------------------------------------
# A second computation on the JSON the codebases read: the TextEE and DEGREE set rules applied
# to TextEE-format windows (token offsets) give the counts acescore gets from the APF.


def _textee_windows(tmp_path, side, other):
    """``side`` exported on the tokens and windows it shares with ``other`` (a codebase
    scores predictions made on the gold windows)."""
    from pathlib import Path

    small = Path(__file__).parent.parent / "data" / "golden" / "small"
    out = tmp_path / f"{side}.json"
    res = _run(
        "export",
        "--to",
        "textee",
        str(small / side),
        "--source-dir",
        str(small / "src"),
        "--same-tokens-as",
        str(small / other),
        "-o",
        str(out),
    )
    assert res.exit_code == 0, res.output
    return [json.loads(x) for x in out.read_text().splitlines()]


def _json_sets(windows, dygiepp_rules: bool, attached: bool):
    """TextEE/scorer.py compute_E2E_* descriptions (doc, wnd, ...) as sets; DEGREE's are the
    same per sentence.  ``dygiepp_rules``: DyGIE++'s preprocessing (no PRO, single-token
    triggers); both drop values and timex2 (no --time_and_val / real entities only)."""
    sets = {k: set() for k in ("ti", "tc", "ai", "ac", "ati", "atc")}
    for w in windows:
        ments = {
            m["id"]: m
            for m in w["entity_mentions"]
            if m["mention_type"] not in ("VALUE", "TIME")
            and not (dygiepp_rules and m["mention_type"] == "PRO")
        }
        key = (w["doc_id"], w["wnd_id"])
        for e in w["event_mentions"]:
            t = e["trigger"]
            if dygiepp_rules and any(c.isspace() for c in t["text"]):
                continue  # "single-token": no white space in the anchor (issue #18)
            sets["ti"].add(key + (t["start"], t["end"]))
            sets["tc"].add(key + (t["start"], t["end"], e["event_type"]))
            for a in e["arguments"]:
                if a["entity_id"] not in ments:
                    continue
                m = ments[a["entity_id"]]
                sets["ai"].add(key + (e["event_type"], m["start"], m["end"]))
                sets["ac"].add(key + (e["event_type"], m["start"], m["end"], a["role"]))
                if attached:
                    trig = (t["start"], t["end"], e["event_type"])
                    sets["ati"].add(key + trig + (m["start"], m["end"]))
                    sets["atc"].add(key + trig + (m["start"], m["end"], a["role"]))
    return sets


@pytest.mark.slow
@pytest.mark.parametrize("name", ["textee", "degree"])
def test_sets_on_json_agree(tmp_path, name):
    from pathlib import Path

    small = Path(__file__).parent.parent / "data" / "golden" / "small"
    dyg = name == "degree"
    attached = name == "textee"
    gold = _json_sets(_textee_windows(tmp_path, "ref", "sys-heavy"), dyg, attached)
    pred = _json_sets(_textee_windows(tmp_path, "sys-heavy", "ref"), dyg, attached)
    loaded = load(str(small / "ref"), str(small / "sys-heavy"), Options())
    r, s = loaded.ref, loaded.sys
    c = counts(convention_scores(r, s, get_convention(name)))
    tasks = {
        "ti": "trigger_identification",
        "tc": "trigger_classification",
        "ai": "argument_identification",
        "ac": "argument_classification",
        "ati": "argument_attached_identification",
        "atc": "argument_attached_classification",
    }
    for k, task in tasks.items():
        if k.startswith("at") and not attached:
            continue
        want = (len(gold[k] & pred[k]), len(gold[k]), len(pred[k]))
        assert c[task] == want, task
        assert 0 < want[0] < want[1]


def _export(tmp_path, fmt, side, other):
    from pathlib import Path

    small = Path(__file__).parent.parent / "data" / "golden" / "small"
    out = tmp_path / f"{fmt}-{side}.json"
    res = _run(
        "export",
        "--to",
        fmt,
        str(small / side),
        "--source-dir",
        str(small / "src"),
        "--same-tokens-as",
        str(small / other),
        "-o",
        str(out),
    )
    assert res.exit_code == 0, res.output
    return [json.loads(x) for x in out.read_text().splitlines()]


def _longest_first(items, length, span):
    """OneIE process_ace.py: sort by length, longest first (a stable sort), keep what
    overlaps nothing kept."""
    kept, used = [], []
    for it in sorted(items, key=length, reverse=True):
        s, e = span(it)
        if not any(s < b and a < e for a, b in used):
            kept.append(it)
            used.append((s, e))
    return kept


def _agree(name, n):
    """acescore's counts on the APF of the small corpus (sys-heavy) equal ``n``, counted on
    the JSON (gt/pt: gold/predicted triggers, ga/pa: arguments, ti/tc/ai/ac: correct)."""
    from pathlib import Path

    small = Path(__file__).parent.parent / "data" / "golden" / "small"
    loaded = load(str(small / "ref"), str(small / "sys-heavy"), Options())
    r, s = loaded.ref, loaded.sys
    c = counts(convention_scores(r, s, get_convention(name)))
    assert c["trigger_identification"] == (n["ti"], n["gt"], n["pt"])
    assert c["trigger_classification"] == (n["tc"], n["gt"], n["pt"])
    assert c["argument_identification"] == (n["ai"], n["ga"], n["pa"])
    assert c["argument_classification"] == (n["ac"], n["ga"], n["pa"])
    assert 0 < n["ac"] < n["ai"]


def _oneie_graphs(windows):
    """(triggers [(start, end, type)], argument set {(start, end, type, role)}) per window,
    after OneIE's preprocessing (no values/timex2, overlaps removed, arguments kept when
    their mention is kept) and its data loader (one role per event and entity mention: the
    first)."""
    out = []
    for w in windows:
        ents = [m for m in w["entity_mentions"] if m["mention_type"] not in ("VALUE", "TIME")]
        ents = {
            m["id"]: m
            for m in _longest_first(
                ents, lambda m: len(m["text"]), lambda m: (m["start"], m["end"])
            )
        }
        evs = _longest_first(
            w["event_mentions"],
            lambda e: len(e["trigger"]["text"]),
            lambda e: (e["trigger"]["start"], e["trigger"]["end"]),
        )
        evs.sort(key=lambda e: e["trigger"]["start"])
        trig = [(e["trigger"]["start"], e["trigger"]["end"], e["event_type"]) for e in evs]
        args = set()
        for e in evs:
            first = {}
            for a in e["arguments"]:
                if a["entity_id"] in ents:
                    first.setdefault(a["entity_id"], a["role"])
            for mid, role in first.items():
                args.add((ents[mid]["start"], ents[mid]["end"], e["event_type"], role))
        out.append((trig, args))
    return out


@pytest.mark.slow
def test_oneie_rules_on_json_agree(tmp_path):
    """OneIE's scorer rules (quoted in test_oneie) applied to OneIE-format windows give the
    counts acescore's ``oneie`` convention gets on the APF (small corpus, sys-heavy)."""
    gold = _oneie_graphs(_export(tmp_path, "oneie", "ref", "sys-heavy"))
    pred = _oneie_graphs(_export(tmp_path, "oneie", "sys-heavy", "ref"))
    n = dict.fromkeys(("gt", "pt", "ti", "tc", "ga", "pa", "ai", "ac"), 0)
    for (gt, ga), (pt, pa) in zip(gold, pred):
        n["gt"] += len(gt)
        n["pt"] += len(pt)
        for s, e, t in pt:
            matched = [g for g in gt if g[0] == s and g[1] == e]
            if matched:
                n["ti"] += 1
                n["tc"] += matched[0][2] == t
        n["ga"] += len(ga)
        n["pa"] += len(pa)
        for s, e, t, r in pa:
            idn = {g for g in ga if g[:3] == (s, e, t)}
            n["ai"] += bool(idn)
            n["ac"] += any(g[3] == r for g in idn)
    _agree("oneie", n)


def _dygiepp_dicts(windows):
    """(trigger dict, argument list) per window after DyGIE++'s preprocessing (no PRO, values,
    timex2; no anchor with white space) and its document.py dicts (events in sorted order,
    the last one winning)."""
    out = []
    for w in windows:
        ents = {
            m["id"]: m
            for m in w["entity_mentions"]
            if m["mention_type"] not in ("VALUE", "TIME", "PRO")
        }
        evs = []
        for e in w["event_mentions"]:
            t = e["trigger"]
            if any(c.isspace() for c in t["text"]):
                continue
            args = sorted(
                (ents[a["entity_id"]]["start"], ents[a["entity_id"]]["end"], a["role"])
                for a in e["arguments"]
                if a["entity_id"] in ents
            )
            evs.append(((t["start"], t["end"]), e["event_type"], args))
        trig, roles = {}, {}
        for span, etype, args in sorted(evs):
            trig[span] = etype
            for s, e, r in args:
                roles[(span, (s, e))] = r
        out.append((trig, [(a, trig[t], r) for (t, a), r in roles.items()]))
    return out


@pytest.mark.slow
def test_dygiepp_rules_on_json_agree(tmp_path):
    """DyGIE++'s event_metrics.py rules (quoted in test_dygiepp) applied to the exported
    windows give the counts of acescore's ``dygiepp`` convention on the APF."""
    gold = _dygiepp_dicts(_export(tmp_path, "textee", "ref", "sys-heavy"))
    pred = _dygiepp_dicts(_export(tmp_path, "textee", "sys-heavy", "ref"))
    n = dict.fromkeys(("gt", "pt", "ti", "tc", "ga", "pa", "ai", "ac"), 0)
    for (gt, ga), (pt, pa) in zip(gold, pred):
        n["gt"], n["pt"] = n["gt"] + len(gt), n["pt"] + len(pt)
        for span, label in pt.items():
            if span in gt:
                n["ti"] += 1
                n["tc"] += gt[span] == label
        n["ga"] += len(ga)
        n["pa"] += len(pa)
        for entry in pa:
            n["ac"] += any(entry == g for g in ga)
            n["ai"] += any(entry[:2] == g[:2] for g in ga)
    _agree("dygiepp", n)


@pytest.mark.slow
def test_cli_nist_report_with_events(tmp_path):
    """--nist-report writes what ``acescore score -m`` prints, after its command-line line."""
    from pathlib import Path

    small = Path(__file__).parent.parent / "data" / "golden" / "small"
    out = tmp_path / "nist.txt"
    res = _run(
        "events",
        str(small / "ref"),
        str(small / "sys-heavy"),
        "--convention",
        "textee",
        "--nist-report",
        str(out),
    )
    assert res.exit_code == 0 and "argument_attached_classification" in res.output
    full = _run("score", "-m", "-q", "--jobs", "1", str(small / "ref"), str(small / "sys-heavy"))
    assert full.exit_code == 0
    assert out.read_text() == full.output.split("\n", 1)[1]


def test_every_rule_has_help_and_abbreviation():
    from acescore.metrics.conventions import ABBREVIATIONS, RULE_HELP

    assert set(RULE_HELP) == set(RULES) == set(ABBREVIATIONS)
    assert len(set(ABBREVIATIONS.values())) == len(RULES)


def test_dropped_by_the_rules():
    """What the preprocessing rules leave out, per side (fixture of this module).  dygiepp:
    REF m2 (PRO), v1 and t1; ev3 ("set out"); ev1's Time-Within (t1) and ev2's Victim (m2).
    oneie: v1, t1; ev2 (overlaps ev1); ev1's Time-Within."""
    d = score("dygiepp")["dropped"]
    assert d["ref"] == {
        "arguments: their mention left out": 2,
        "event mentions: triggers=single-token": 1,
        "mentions: pronouns=drop": 1,
        "mentions: values_times=drop": 2,
    }
    assert d["sys"]["event mentions: triggers=single-token"] == 1
    d = score("oneie")["dropped"]
    assert d["ref"] == {
        "arguments: their mention left out": 1,
        "event mentions: overlaps=longest": 1,
        "mentions: values_times=drop": 2,
    }
    assert score("ace05")["dropped"] == {"ref": {}, "sys": {}}
