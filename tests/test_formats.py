"""``acescore export`` / ``acescore import`` (acescore.formats): OneIE, DyGIE++ and TextEE JSON.

The round trip APF -> format -> APF on the committed synthetic corpus tests/data/golden/small
(made by /work/shared/tools/acesynth.py) keeps every element the format carries
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
from acescore.metrics import load_sides

SMALL = Path(__file__).parent / "data" / "golden" / "small"


def _run(*args):
    from acescore.cli import main
    return CliRunner().invoke(main, [str(a) for a in args],
                                              catch_exceptions=False)


def _carried(side, span, mention_types: bool, subtypes: bool):
    """What a format carries, per document, with mention IDs replaced by offsets."""
    out = {}
    for docid, doc in side.documents.items():
        ments = {}
        for e in doc.entities:
            for m in e.mentions:
                loc = m.head if span == "head" else m.extent
                ments[m.id] = ((loc.start, loc.end), e.type, m.type if mention_types else None,
                               e.subtype if subtypes else None, e.id)
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
        events = sorted((em.anchor.start, em.anchor.end, ev.type, ev.subtype,
                         tuple(sorted((a.role, ments[a.refid][0]) for a in em.arguments)))
                        for ev in doc.events for em in ev.mentions)
        rels = sorted((r.type, r.subtype, tuple(sorted((a.role.replace("Arg", "Arg-1")
                                                         if a.role == "Arg" else a.role,
                                                         ments[a.refid][0])
                                                        for a in rm.arguments
                                                        if a.refid in ments)))
                      for r in doc.relations for rm in r.mentions)
        out[docid] = {"mentions": sorted(v[:4] for v in ments.values()),
                      "coref": sorted(sorted(g) for g in groups.values()),
                      "events": events, "relations": rels}
    return out


@pytest.mark.parametrize("fmt,span", [("oneie", "head"), ("textee", "head"),
                                      ("dygiepp", "head"), ("oneie", "extent")])
def test_round_trip(tmp_path, fmt, span):
    js = tmp_path / "pred.json"
    res = _run("export", "--to", fmt, SMALL / "ref", "--source-dir", SMALL / "src",
               "--span", span, "-o", js)
    assert res.exit_code == 0, res.stderr
    out = tmp_path / "apf"
    res = _run("import", "--from", fmt, js, "--source-dir", SMALL / "src", "-o", out)
    assert res.exit_code == 0, res.stderr
    assert "0 tokens misaligned" in res.stderr and "dropped" not in res.stderr
    ref, _, _ = load_sides(str(SMALL / "ref"), str(SMALL / "ref"))
    back, _, _ = load_sides(str(out), str(out))
    typed = fmt != "dygiepp"
    want = _carried(ref, span, typed, typed)
    got = _carried(back, "head", typed, typed)       # imported: head = extent = the span
    assert sorted(got) == sorted(want)
    for docid in want:
        for part in ("mentions", "coref", "events", "relations"):
            assert got[docid][part] == want[docid][part], (docid, part)
    assert sum(len(w["events"]) for w in want.values()) > 10


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
    win["event_mentions"].append({"id": "x", "event_type": "Life:Sneeze",
                                  "trigger": {"start": 0, "end": 1}, "arguments": []})
    js.write_text("".join(json.dumps(x) + "\n" for x in lines))
    res = _run("import", "--from", "oneie", js, "--source-dir", SMALL / "src", "-o",
               tmp_path / "apf")
    assert res.exit_code == 0, res.stderr
    err = res.stderr
    assert "1 tokens misaligned" in err
    assert "dropped 1 mention on misaligned tokens, first: " in err and "XYZZY" not in err
    # the mention on the bad token was an argument too: 2 arguments go, both reported
    assert "dropped 2 event arguments whose mention was dropped, first: " in err
    assert " Place" in err
    assert "dropped 1 event mentions of unknown TYPE:SUBTYPE, first: " in err
    assert "'Life:Sneeze'" in err


def test_import_bad_json(tmp_path):
    js = tmp_path / "bad.json"
    js.write_text('{"doc_id": "D", "tokens": []}\nnot json\n')
    res = _run("import", "--from", "textee", js, "--source-dir", SMALL / "src", "-o",
               tmp_path / "o")
    assert res.exit_code == 2
    assert res.stderr.startswith("acescore: ") and "line 2" in res.stderr
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
    assert windows(text, []) == [(0, 3), (3, 24), (25, 33)]      # "\n" alone: no window
    assert windows(text, [(0, 8)]) == [(0, 24), (25, 33)]
    offs = align(text, [["Mr", ".", "Smith"], ["He", "lept", "."]])
    assert offs[:3] == [(0, 2), (2, 3), (4, 9)]
    # "lept" is not there; the token after it is found again past the unknown text
    assert offs[3:] == [(25, 27), None, (32, 33)]
