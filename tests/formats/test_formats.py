"""``acescore export`` / ``acescore import`` (acescore.formats): OneIE, DyGIE++ and TextEE JSON.

The round trip APF -> format -> APF on the committed synthetic corpus tests/data/golden/small
(made by tools/acesynth.py) keeps every element the format carries
(acescore.formats.convert): entity mentions (one span: head or extent; TYPE; mention TYPE and
SUBTYPE where the format has them; coreference), value and timex2 mentions, event mentions
(anchor, TYPE:SUBTYPE, arguments with roles) and relation mentions (TYPE, SUBTYPE, Arg-1,
Arg-2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.formats.tokens import align, tokenize, windows
from acescore.model.options import Options
from acescore.run.pipeline import load

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"


def load_sides(ref, sys_):
    loaded = load(ref, sys_, Options())
    return loaded.ref, loaded.sys, loaded.params


def _run(*args):
    from acescore.cli import main

    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _carried(side, span, mention_types: bool, subtypes: bool):
    """What a format carries, per document, with mention IDs replaced by offsets."""
    out = {}
    for docid, doc in side.documents.items():
        ments = {}
        for e in doc.entities:
            for m in e.mentions:
                loc = m.head if span == "head" else m.extent
                ments[m.id] = (
                    (loc.start, loc.end),
                    e.type,
                    m.type if mention_types else None,
                    e.subtype if subtypes else None,
                    e.id,
                )
        for v in doc.values:
            for m in v.mentions:
                ments[m.id] = ((m.extent.start, m.extent.end), v.type, None, None, v.id)
        for t in doc.timex2s:
            for m in t.mentions:
                ments[m.id] = ((m.extent.start, m.extent.end), "TIME", None, None, t.id)
        # coreference: the partition of mention spans into elements
        groups = {}
        for sp, _, _, _, el in ments.values():
            groups.setdefault(el, set()).add(sp)
        events = sorted(
            (
                em.anchor.start,
                em.anchor.end,
                ev.type,
                ev.subtype,
                tuple(sorted((a.role, ments[a.refid][0]) for a in em.arguments)),
            )
            for ev in doc.events
            for em in ev.mentions
        )
        rels = sorted(
            (
                r.type,
                r.subtype,
                tuple(
                    sorted(
                        (
                            a.role.replace("Arg", "Arg-1") if a.role == "Arg" else a.role,
                            ments[a.refid][0],
                        )
                        for a in rm.arguments
                        if a.refid in ments
                    )
                ),
            )
            for r in doc.relations
            for rm in r.mentions
        )
        out[docid] = {
            "mentions": sorted(v[:4] for v in ments.values()),
            "coref": sorted(sorted(g) for g in groups.values()),
            "events": events,
            "relations": rels,
        }
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "fmt,span", [("oneie", "head"), ("textee", "head"), ("dygiepp", "head"), ("oneie", "extent")]
)
def test_round_trip(tmp_path, fmt, span):
    js = tmp_path / "pred.json"
    res = _run(
        "export",
        "--to",
        fmt,
        SMALL / "ref",
        "--source-dir",
        SMALL / "src",
        "--span",
        span,
        "-o",
        js,
    )
    assert res.exit_code == 0, res.stderr
    out = tmp_path / "apf"
    res = _run("import", "--from", fmt, js, "--source-dir", SMALL / "src", "-O", out)
    assert res.exit_code == 0, res.stderr
    assert "0 tokens misaligned" in res.stderr and "dropped" not in res.stderr
    # valid APF whose offsets agree with the source documents
    res = _run("validate", out, "--source-dir", SMALL / "src")
    assert res.exit_code == 0 and " 0 problems" in res.output, res.output[-500:]
    ref, _, _ = load_sides(str(SMALL / "ref"), str(SMALL / "ref"))
    back, _, _ = load_sides(str(out), str(out))
    typed = fmt != "dygiepp"
    want = _carried(ref, span, typed, typed)
    got = _carried(back, "head", typed, typed)  # imported: head = extent = the span
    assert sorted(got) == sorted(want)
    for docid in want:
        for part in ("mentions", "coref", "events", "relations"):
            assert got[docid][part] == want[docid][part], (docid, part)
    assert sum(len(w["events"]) for w in want.values()) > 10


@pytest.mark.slow
def test_import_reports_misaligned_and_dropped(tmp_path):
    """A token that is not in the source text is reported with the mention on it; an
    argument pointing to a missing mention and an unknown event type are dropped and
    counted -- nothing is lost silently."""
    js = tmp_path / "p.json"
    _run("export", "--to", "oneie", SMALL / "ref", "--source-dir", SMALL / "src", "-o", js)
    lines = [json.loads(x) for x in js.read_text().splitlines()]
    k = next(i for i, x in enumerate(lines) if x["entity_mentions"] and x["event_mentions"])
    win = lines[k]
    m = win["entity_mentions"][0]
    win["tokens"][m["start"]] = "XYZZY"
    win["event_mentions"][0]["arguments"].append({"entity_id": "nope", "role": "Place"})
    win["event_mentions"].append(
        {"id": "x", "event_type": "Life:Sneeze", "trigger": {"start": 0, "end": 1}, "arguments": []}
    )
    js.write_text("".join(json.dumps(x) + "\n" for x in lines))
    res = _run(
        "import", "--from", "oneie", js, "--source-dir", SMALL / "src", "-O", tmp_path / "apf"
    )
    assert res.exit_code == 0, res.stderr
    err = res.stderr
    assert "1 tokens misaligned" in err
    assert "dropped 1 mention on misaligned tokens, first: " in err and "XYZZY" not in err
    # the mention on the bad token was an argument too: 2 arguments go, both reported
    assert "dropped 2 event arguments whose mention was dropped or is missing, first: " in err
    assert " Place" in err
    assert "dropped 1 event mentions of unknown TYPE:SUBTYPE, first: " in err
    assert "'Life:Sneeze'" in err


def test_import_bad_json(tmp_path):
    js = tmp_path / "bad.json"
    js.write_text('{"doc_id": "D", "tokens": []}\nnot json\n')
    res = _run(
        "import", "--from", "textee", js, "--source-dir", SMALL / "src", "-O", tmp_path / "o"
    )
    assert res.exit_code == 2
    assert res.stderr.startswith(f"acescore: {js}:2: not a window")
    assert res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr


def test_export_needs_sources(tmp_path):
    (tmp_path / "empty").mkdir()
    res = _run("export", "--to", "dygiepp", SMALL / "ref", "--source-dir", tmp_path / "empty")
    assert res.exit_code == 2 and "no source document for DOCID" in res.stderr


def test_tokenizer_windows_alignment():
    """The documented rules: \\w+ runs and single other characters, cut at mention bounds;
    windows end after [.!?] + space or at a newline, never inside an element; alignment
    skips white space only, inside a window."""
    text = "Mr. Smith went to Paris.\nHe left."
    assert [text[s:e] for s, e in tokenize(text, 0, 9, {4})] == ["Mr", ".", "Smith"]
    assert [text[s:e] for s, e in tokenize(text, 0, 9, {5})] == ["Mr", ".", "S", "mith"]
    assert windows(text, []) == [(0, 3), (3, 24), (25, 33)]  # "\n" alone: no window
    assert windows(text, [(0, 8)]) == [(0, 24), (25, 33)]
    offs = align(text, [["Mr", ".", "Smith"], ["He", "lept", "."]])
    assert offs[:3] == [(0, 2), (2, 3), (4, 9)]
    # "lept" is not there; the token after it is found again past the unknown text
    assert offs[3:] == [(25, 27), None, (32, 33)]


def _scores(ref_dir, sys_dir, name="ace05"):
    from acescore.metrics.convention_scores import convention_scores
    from acescore.metrics.conventions import get_convention

    r, s, _ = load_sides(str(ref_dir), str(sys_dir))
    sc = convention_scores(r, s, get_convention(name))["scores"]
    return {t: (v["correct"], v["ref"], v["sys"]) for t, v in sc.items()}


@pytest.mark.slow
def test_import_oneie_graph(tmp_path):
    """OneIE's predict.py output: a ``graph`` with ``entities`` [start, end, type, mention
    type, score], ``triggers`` [start, end, type, score], ``relations`` [i, j, type, score,
    subtype], ``roles`` [trigger i, entity j, role, score] (GAIA-IE/oneie graph.py to_dict).
    Written from the gold windows, it imports to the same triggers, arguments and relations."""
    js = tmp_path / "gold.json"
    _run("export", "--to", "oneie", SMALL / "ref", "--source-dir", SMALL / "src", "-o", js)
    out = []
    for line in js.read_text().splitlines():
        w = json.loads(line)
        idx = {m["id"]: k for k, m in enumerate(w["entity_mentions"])}
        g = {
            "entities": [
                [m["start"], m["end"], m["entity_type"], m["mention_type"], 1.0]
                for m in w["entity_mentions"]
            ],
            "triggers": [
                [e["trigger"]["start"], e["trigger"]["end"], e["event_type"], 1.0]
                for e in w["event_mentions"]
            ],
            "roles": [
                [t, idx[a["entity_id"]], a["role"], 1.0]
                for t, e in enumerate(w["event_mentions"])
                for a in e["arguments"]
            ],
            "relations": [
                [
                    idx[r["arguments"][0]["entity_id"]],
                    idx[r["arguments"][1]["entity_id"]],
                    r["relation_type"],
                    1.0,
                    r["relation_subtype"],
                ]
                for r in w["relation_mentions"]
            ],
        }
        out.append(
            json.dumps(
                {"doc_id": w["doc_id"], "sent_id": w["sent_id"], "tokens": w["tokens"], "graph": g}
            )
        )
    pred = tmp_path / "pred.json"
    pred.write_text("\n".join(out) + "\n")
    res = _run(
        "import", "--from", "oneie", pred, "--source-dir", SMALL / "src", "-O", tmp_path / "apf"
    )
    assert res.exit_code == 0 and "dropped" not in res.stderr, res.stderr
    c = _scores(SMALL / "ref", tmp_path / "apf")
    for t in (
        "trigger_classification",
        "argument_classification",
        "relation_strict",
        "entity_strict",
    ):
        assert c[t][0] == c[t][1] == c[t][2] > 0, t


@pytest.mark.slow
def test_import_dygiepp_predictions(tmp_path):
    """DyGIE++ model output: ``predicted_ner`` / ``predicted_events`` with scores appended;
    an argument span that is no predicted NER span is dropped and reported -- or, with
    --argument-type, becomes an entity mention of that TYPE (all arguments then score)."""
    js = tmp_path / "gold.json"
    _run("export", "--to", "dygiepp", SMALL / "ref", "--source-dir", SMALL / "src", "-o", js)
    out = []
    for line in js.read_text().splitlines():
        d = json.loads(line)
        d["predicted_events"] = [
            [[ev[0] + [0.5, 0.9]] + [a + [0.5, 0.9] for a in ev[1:]] for ev in sent]
            for sent in d.pop("events")
        ]
        d["predicted_ner"] = [[] for _ in d.pop("ner")]
        d.pop("relations"), d.pop("clusters")
        out.append(json.dumps(d))
    pred = tmp_path / "pred.json"
    pred.write_text("\n".join(out) + "\n")
    res = _run(
        "import", "--from", "dygiepp", pred, "--source-dir", SMALL / "src", "-O", tmp_path / "a"
    )
    assert res.exit_code == 0
    c = _scores(SMALL / "ref", tmp_path / "a")
    nargs = c["argument_identification"][1]
    assert f"dropped {nargs} event arguments whose mention was dropped or is missing" in res.stderr
    assert c["trigger_classification"][0] == c["trigger_classification"][1]
    res = _run(
        "import",
        "--from",
        "dygiepp",
        pred,
        "--source-dir",
        SMALL / "src",
        "-O",
        tmp_path / "b",
        "--argument-type",
        "PER",
    )
    assert res.exit_code == 0 and "dropped" not in res.stderr
    assert "argument spans without a mention (written as PER entity mentions)" in res.stderr
    c = _scores(SMALL / "ref", tmp_path / "b")
    assert c["argument_classification"] == (nargs, nargs, nargs)


def test_export_trims_and_reports():
    """A head with outer white space is written trimmed; a head of white space only cannot be
    tokens: it is left out and reported, with the argument that used it."""
    from acescore.formats.convert import ImportReport, apf_to_tokdoc
    from acescore.model.apf import (
        Argument,
        Document,
        Entity,
        EntityMention,
        Event,
        EventMention,
        Locator,
    )

    text = "Hello John Smith left.\n"
    ok = EntityMention(
        "E1-1", "NAM", "PER", "LITERAL", Locator("text", 5, 10), Locator("text", 5, 16)
    )
    blank = EntityMention(
        "E1-2", "PRO", "PER", "LITERAL", Locator("text", 5, 5), Locator("text", 5, 5)
    )
    em = EventMention(
        "V1-1",
        Locator("text", 0, 21),
        Locator("text", 17, 20),
        (Argument("Person", "E1-1"), Argument("Entity", "E1-2")),
    )
    doc = Document(
        "D",
        "newswire",
        "D.sgm",
        "text",
        "x",
        entities=(Entity("E1", "PER", "Individual", "SPC", (ok, blank), (), "NAM"),),
        events=(
            Event(
                "V1", "Movement", "Transport", "Specific", "Asserted", "Positive", "Past", (), (em,)
            ),
        ),
    )
    rep = ImportReport()
    td = apf_to_tokdoc(doc, text, "head", rep)
    assert [m["text"] for m in td.mentions] == ["John"]
    assert td.events[0]["args"] == [(0, "Person")] and td.events[0]["text"] == "left"
    assert rep.dropped == {
        "mentions not on token bounds (left out)": 1,
        "event arguments whose mention was left out": 1,
    }
    assert rep.examples["event arguments whose mention was left out"] == ["D V1-1 Entity"]


@pytest.mark.slow
def test_import_textee_e2e_predictions(tmp_path):
    """TextEE's E2E predictions (TextEE/scorer.py reads e["trigger"][0..2] and arguments
    r[0..2]) carry no tokens: --tokens-from gives the windows' tokens; their arguments are
    spans, kept with --argument-type."""
    gold = tmp_path / "gold.json"
    _run("export", "--to", "textee", SMALL / "ref", "--source-dir", SMALL / "src", "-o", gold)
    preds = []
    for line in gold.read_text().splitlines():
        w = json.loads(line)
        evs = [
            {
                "trigger": [e["trigger"]["start"], e["trigger"]["end"], e["event_type"]],
                "arguments": [[a["start"], a["end"], a["role"]] for a in e["arguments"]],
            }
            for e in w["event_mentions"]
        ]
        preds.append(json.dumps({"doc_id": w["doc_id"], "wnd_id": w["wnd_id"], "events": evs}))
    pred = tmp_path / "pred.json"
    pred.write_text("\n".join(preds) + "\n")
    res = _run(
        "import",
        "--from",
        "textee",
        pred,
        "--source-dir",
        SMALL / "src",
        "-O",
        tmp_path / "apf",
        "--tokens-from",
        gold,
        "--argument-type",
        "PER",
    )
    assert res.exit_code == 0 and "dropped" not in res.stderr, res.stderr
    c = _scores(SMALL / "ref", tmp_path / "apf")
    for t in ("trigger_classification", "argument_classification"):
        assert c[t][0] == c[t][1] == c[t][2] > 0, t
    # under textee the value and timex2 arguments leave REF, but here they are PER mentions
    c = _scores(SMALL / "ref", tmp_path / "apf", "textee")
    t = c["argument_attached_classification"]
    assert t[0] == t[1] < t[2]
    res = _run(
        "import",
        "--from",
        "oneie",
        pred,
        "--source-dir",
        SMALL / "src",
        "-O",
        tmp_path / "x",
        "--tokens-from",
        gold,
    )
    assert res.exit_code == 2 and "--tokens-from goes with --from textee only" in res.stderr


def test_alignment_of_decoded_references():
    """ACE sources write AT&amp;T (five characters counted for &amp;); the codebases' tokens
    hold AT&T: the token spans the raw reference."""
    text = "Call AT&amp;T now."
    assert align(text, [["Call", "AT&T", "now", "."]]) == [(0, 4), (5, 13), (14, 17), (17, 18)]
    assert align(text, [["AT&T", "now"]]) == [(5, 13), (14, 17)]


@pytest.mark.slow
def test_same_tokens_as(tmp_path):
    """REF and SYS exported each --same-tokens-as the other share tokens and windows
    (without it their windows differ: the bounds of their mentions differ)."""

    def export(side, other=None):
        out = tmp_path / f"{side}-{other}.json"
        args = ["export", "--to", "oneie", SMALL / side, "--source-dir", SMALL / "src", "-o", out]
        if other:
            args += ["--same-tokens-as", SMALL / other]
        assert _run(*args).exit_code == 0
        return [(w["sent_id"], w["tokens"]) for w in map(json.loads, out.read_text().splitlines())]

    assert export("ref", "sys-heavy") == export("sys-heavy", "ref")
    assert export("ref") != export("sys-heavy")


def test_import_bad_annotation_names_window(tmp_path):
    js = tmp_path / "bad.json"
    js.write_text(
        '{"doc_id": "D", "wnd_id": "D-0", "tokens": ["a"], "event_mentions":'
        ' [{"event_type": "Life:Die", "trigger": {"start": "x", "end": 1}}]}\n'
    )
    res = _run(
        "import", "--from", "textee", js, "--source-dir", SMALL / "src", "-O", tmp_path / "o"
    )
    assert res.exit_code == 2
    assert res.stderr.startswith(f"acescore: {js}:1: window D-0: malformed annotation")
    js.write_text('{"doc_key": "D", "sentences": [["a"]], "events": [[["x"]]]}\n')
    res = _run(
        "import", "--from", "dygiepp", js, "--source-dir", SMALL / "src", "-O", tmp_path / "o"
    )
    assert res.exit_code == 2 and res.stderr.startswith(f"acescore: {js}:1: not a DyGIE++")


def test_import_keeps_old_output_unless_forced(tmp_path):
    js = tmp_path / "p.json"
    _run("export", "--to", "dygiepp", SMALL / "ref", "--source-dir", SMALL / "src", "-o", js)
    out = tmp_path / "apf"
    out.mkdir()
    (out / "OLD.apf.xml").write_text("<x/>")
    res = _run("import", "--from", "dygiepp", js, "--source-dir", SMALL / "src", "-O", out)
    assert res.exit_code == 2 and "already holds APF files (OLD.apf.xml" in res.stderr
    assert (out / "OLD.apf.xml").exists() and len(list(out.iterdir())) == 1
    res = _run(
        "import", "--from", "dygiepp", js, "--source-dir", SMALL / "src", "-O", out, "--force"
    )
    assert res.exit_code == 0 and not (out / "OLD.apf.xml").exists()
    assert len(list(out.iterdir())) == len(list((SMALL / "ref").glob("*.apf.xml")))
