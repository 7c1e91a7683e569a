"""Event-extraction scores (acescore.metrics.events) and ``acescore events``.

Hand-built APF pairs under tests/data/events/ (offsets invented, no source text needed).

basic/ (document EVT_BASIC)
    REF entity mentions (head / extent):  R-E1-1 0-4 / 0-10,  R-E1-2 50-52 / 50-52,
        R-E2-1 20-25 / 16-25,  R-E3-1 60-66 / 56-66;  timex2 mention R-T1-1 30-38.
    SYS entity mentions:  S-E1-1 0-4 / 0-10,  S-E2-1 20-25 / 18-25 (extent differs),
        S-E3-1 60-66 / 56-66,  S-E4-1 80-84 / 80-84 (spurious).
    REF event mentions (anchor, subtype, arguments role=mention):
        R-EV1-1 12-18 Attack       Attacker=R-E1-1 Place=R-E2-1 Time-Within=R-T1-1
        R-EV2-1 40-44 Die          Victim=R-E1-2 Place=R-E2-1
        R-EV3-1 70-75 Arrest-Jail  Person=R-E1-2 Agent=R-E3-1
    SYS event mentions:
        S-EV1-1 12-18 Attack       Attacker=S-E1-1 Place=S-E2-1 Target=S-E4-1
        S-EV2-1 40-44 Injure       Victim=S-E1-1 Place=S-E2-1
        S-EV3-1 69-75 Arrest-Jail  Person=S-E3-1 Agent=S-E1-1
        S-EV4-1 90-98 Transport    Artifact=S-E1-1
    3 REF / 4 SYS triggers, 7 REF / 8 SYS arguments.

    Defaults (exact anchors, head offsets, scope subtype):
      trigger id   2 (EV1, EV2 exact; 69-75 != 70-75)      R 2/3 P 2/4 F 4/7  = .5714
      trigger cls  1 (EV2: Die vs Injure)                   R 1/3 P 1/4 F 2/7  = .2857
      arg id       3: (Attack, 0-4), (Attack, 20-25), (Arrest-Jail, 60-66) -- the last
                   although its trigger is missed (Li et al. 2013: subtype + offsets);
                   (Injure, 20-25) fails on the subtype
                                                            R 3/7 P 3/8 F 2/5  = .4
      arg cls      2: 60-66 is Agent in REF, Person in SYS  R 2/7 P 2/8 F 4/15 = .2667
    --arg-match extent: S-E2-1's extent 18-25 != 16-25, so Place no longer matches:
      arg id 2 (R 2/7 P 2/8 F 4/15),  arg cls 1 (R 1/7 P 1/8 F 2/15 = .1333)
    --trigger-match overlap: EV3 (70-75 / 69-75) now matches:
      trigger id 3 (R 1 P 3/4 F 6/7 = .8571), trigger cls 2 (R 2/3 P 2/4 F 4/7); arguments
      unchanged
    --arg-scope trigger: only EV1-1/S-EV1-1 is aligned (same anchor and subtype):
      arg id 2, arg cls 2 (R 2/7 P 2/8 F 4/15)
    --arg-scope trigger --trigger-match overlap: EV3-1/S-EV3-1 aligned too:
      arg id 3 (R 3/7 P 3/8 F 2/5), arg cls 2 (R 2/7 P 2/8 F 4/15)

dup/ (document EVT_DUP) -- one-to-one matching
    REF: one Attack mention, anchor 5-10, Attacker head 0-3.
    SYS: the same event mention twice (two events).
    Every score: correct 1, REF 1, SYS 2 -> R 1, P 1/2, F 2/3 (no double counting).
"""

from __future__ import annotations

import json
from fractions import Fraction as Fr
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.metrics.events import TASKS, event_scores
from acescore.model.apf import (
    Argument,
    Document,
    Entity,
    EntityMention,
    Event,
    EventMention,
    Locator,
)
from acescore.model.options import Options
from acescore.rules.database import Side
from acescore.run.pipeline import load


def load_sides(ref, sys_):
    loaded = load(ref, sys_, Options())
    return loaded.ref, loaded.sys, loaded.params


DATA = Path(__file__).parent.parent / "data" / "events"
GOLDEN = Path(__file__).parent.parent / "data" / "golden" / "small"


def sides(case: str):
    r, s, _ = load_sides(str(DATA / case / "ref"), str(DATA / case / "sys"))
    return r, s


def expect(scores: dict, task: str, correct: int, nref: int, nsys: int):
    s = scores[task]
    assert (s["correct"], s["ref"], s["sys"]) == (correct, nref, nsys), task
    r = Fr(correct, nref) if nref else Fr(0)
    p = Fr(correct, nsys) if nsys else Fr(0)
    f = 2 * p * r / (p + r) if p + r else Fr(0)
    assert (s["recall"], s["precision"], s["f1"]) == pytest.approx(
        (float(r), float(p), float(f))
    ), task


BASIC = {
    # options: {task: correct}
    (): {
        "trigger_identification": 2,
        "trigger_classification": 1,
        "argument_identification": 3,
        "argument_classification": 2,
    },
    (("arg_match", "extent"),): {
        "trigger_identification": 2,
        "trigger_classification": 1,
        "argument_identification": 2,
        "argument_classification": 1,
    },
    (("trigger_match", "overlap"),): {
        "trigger_identification": 3,
        "trigger_classification": 2,
        "argument_identification": 3,
        "argument_classification": 2,
    },
    (("arg_scope", "trigger"),): {
        "trigger_identification": 2,
        "trigger_classification": 1,
        "argument_identification": 2,
        "argument_classification": 2,
    },
    (("arg_scope", "trigger"), ("trigger_match", "overlap")): {
        "trigger_identification": 3,
        "trigger_classification": 2,
        "argument_identification": 3,
        "argument_classification": 2,
    },
}


@pytest.mark.parametrize(
    "options", list(BASIC), ids=lambda o: ",".join(f"{k}={v}" for k, v in o) or "defaults"
)
def test_basic(options):
    r, s = sides("basic")
    scores = event_scores(r, s, **dict(options))
    for task, correct in BASIC[options].items():
        n = (3, 4) if task.startswith("trigger") else (7, 8)
        expect(scores, task, correct, *n)
    d = {"trigger_match": "exact", "arg_match": "head", "arg_scope": "subtype", **dict(options)}
    assert scores["definition"] == d


def test_basic_f_values():
    r, s = sides("basic")
    sc = event_scores(r, s)
    assert [round(sc[t]["f1"], 4) for t in TASKS] == [0.5714, 0.2857, 0.4, 0.2667]


@pytest.mark.parametrize("scope", ["subtype", "trigger"])
def test_one_to_one(scope):
    r, s = sides("dup")
    for match in ("exact", "overlap"):
        sc = event_scores(r, s, trigger_match=match, arg_scope=scope)
        for t in TASKS:
            expect(sc, t, 1, 1, 2)


def test_sys_document_missing():
    r, _ = sides("basic")
    sc = event_scores(r, Side("SYS"))
    expect(sc, "trigger_identification", 0, 3, 0)
    expect(sc, "argument_classification", 0, 7, 0)


def test_bad_options():
    r, s = sides("dup")
    with pytest.raises(ValueError):
        event_scores(r, s, trigger_match="head")
    with pytest.raises(ValueError):
        event_scores(r, s, arg_match="anchor")
    with pytest.raises(ValueError):
        event_scores(r, s, arg_scope="document")


def _em(mid, s, e):
    return EntityMention(mid, "NAM", "PER", "LITERAL", Locator("text", s, e), Locator("text", s, e))


def _ev(eid, subtype, anchor, args):
    em = EventMention(
        eid + "-1",
        Locator("text", 0, 30),
        Locator("text", *anchor),
        tuple(Argument(role, mid) for role, mid in args),
    )
    return Event(eid, "Conflict", subtype, "Specific", "Asserted", "Positive", "Past", (), (em,))


def test_trigger_scope_alignment_prefers_matching_arguments():
    """Two REF and two SYS Attack mentions on the same anchor; the arguments decide the
    alignment: REF a1 (Attacker 10-12) goes with SYS s2, REF a2 (Target 20-22) with s1."""
    ents = (
        Entity("E", "PER", "Individual", "SPC", (_em("m1", 10, 12), _em("m2", 20, 22)), (), "NAM"),
    )
    ref = Document(
        "D",
        "newswire",
        "D.sgm",
        "text",
        "r",
        entities=ents,
        events=(
            _ev("a1", "Attack", (0, 4), [("Attacker", "m1")]),
            _ev("a2", "Attack", (0, 4), [("Target", "m2")]),
        ),
    )
    sys = Document(
        "D",
        "newswire",
        "D.sgm",
        "text",
        "s",
        entities=ents,
        events=(
            _ev("s1", "Attack", (0, 4), [("Target", "m2")]),
            _ev("s2", "Attack", (0, 4), [("Attacker", "m1")]),
        ),
    )
    sc = event_scores(
        Side("REF", documents={"D": ref}), Side("SYS", documents={"D": sys}), arg_scope="trigger"
    )
    expect(sc, "trigger_classification", 2, 2, 2)
    expect(sc, "argument_identification", 2, 2, 2)
    expect(sc, "argument_classification", 2, 2, 2)


def test_golden_perfect():
    r, s, _ = load_sides(str(GOLDEN / "ref"), str(GOLDEN / "sys-perfect"))
    for scope in ("subtype", "trigger"):
        sc = event_scores(r, s, arg_scope=scope)
        for t in TASKS:
            assert sc[t]["f1"] == 1.0 and sc[t]["ref"] > 0


# ---------------------------------------------------------------------------------------------
# CLI


def _run(*args):
    from acescore.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_events_text():
    res = _run("events", str(DATA / "basic" / "ref"), str(DATA / "basic" / "sys"))
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    # the table of every events result: Score, REF, SYS, Correct, P, R, F1
    row = next(ln for ln in lines if ln.startswith("argument_identification"))
    assert row.split()[1:] == ["7", "8", "3", "37.50", "42.86", "40.00"]
    assert "exact anchor match" in res.output


def test_cli_events_json_options(tmp_path):
    out = tmp_path / "e.json"
    res = _run(
        "events",
        str(DATA / "basic" / "ref"),
        str(DATA / "basic" / "sys"),
        "--format",
        "json",
        "--trigger-match",
        "overlap",
        "--arg-match",
        "extent",
        "-o",
        str(out),
    )
    assert res.exit_code == 0 and res.stdout == ""
    d = json.loads(out.read_text())
    assert d["definition"] == {
        "trigger_match": "overlap",
        "arg_match": "extent",
        "arg_scope": "subtype",
    }
    assert d["scores"]["trigger_identification"]["correct"] == 3
    assert d["scores"]["argument_identification"]["correct"] == 2
    for t in TASKS:
        assert {"recall", "precision", "f1"} <= set(d["scores"][t])


def test_cli_events_bad_option():
    res = CliRunner().invoke(
        __import__("acescore.cli", fromlist=["main"]).main,
        ["events", str(DATA / "dup" / "ref"), str(DATA / "dup" / "sys"), "--arg-match", "anchor"],
    )
    assert res.exit_code == 2
