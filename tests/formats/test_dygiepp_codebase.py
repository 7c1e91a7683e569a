"""DyGIE++ JSON as DyGIE++'s own code reads and writes it (issue 36 item 8): one-token
triggers ``[token, label]`` (event mentions with a longer anchor left out and counted, as
DyGIE++'s ACE preprocessing skips them), spans sorted within a sentence and arguments within
an event as that preprocessing sorts them, and an import that keeps mentions sharing one
span apart, so that the APF written is valid; a round trip on a corpus in the release's
layout validates."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.formats import dygiepp
from acescore.formats.convert import ImportReport
from acescore.formats.tokens import TokDoc

TESTS = Path(__file__).parent.parent
SMALL = TESTS / "data" / "golden" / "small"


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _mention(start: int, end: int, label: str, entity: str) -> dict:
    return {"start": start, "end": end, "label": label, "kind": "entity", "entity": entity}


def test_write_as_dygiepp_preprocessing():
    td = TokDoc("D1", windows=[["a", "b", "c", "d", "e", "f"], ["g", "h"]])
    td.mentions = [
        _mention(4, 5, "ORG", "E2"),  # written after the earlier spans
        _mention(0, 2, "PER", "E1"),
        _mention(0, 1, "GPE", "E3"),
        _mention(6, 7, "PER", "E1"),
    ]
    td.events = [
        {
            "id": "EV2",
            "start": 3,
            "end": 4,
            "type": "Life:Die",
            "args": [(0, "Place"), (2, "Victim")],
        },
        {"id": "EV1", "start": 2, "end": 3, "type": "Conflict:Attack", "args": [(1, "Target")]},
        {"id": "EV3", "start": 3, "end": 5, "type": "Life:Injure", "args": [(1, "Victim")]},
    ]
    td.relations = [
        {"args": (1, 0), "type": "ORG-AFF", "subtype": "Employment"},
        {"args": (2, 0), "type": "GEN-AFF", "subtype": "Org-Location"},
    ]
    report = ImportReport()
    obj = json.loads(dygiepp.write([td], report))
    assert obj["ner"] == [[[0, 0, "GPE"], [0, 1, "PER"], [4, 4, "ORG"]], [[6, 6, "PER"]]]
    assert obj["events"] == [
        [
            [[2, "Conflict.Attack"], [0, 1, "Target"]],
            [[3, "Life.Die"], [0, 0, "Victim"], [4, 4, "Place"]],
        ],
        [],
    ]
    assert obj["relations"] == [
        [[0, 0, 4, 4, "GEN-AFF.Org-Location"], [0, 1, 4, 4, "ORG-AFF.Employment"]],
        [],
    ]
    assert obj["clusters"] == [[[0, 1], [6, 6]]]
    assert report.dropped == {dygiepp.MULTI_TOKEN: 1}
    assert report.examples[dygiepp.MULTI_TOKEN] == ["D1 EV3"]
    # what DyGIE++'s reader takes a trigger to be: token, then label
    for sent in obj["events"]:
        for ev in sent:
            assert isinstance(ev[0][0], int) and isinstance(ev[0][1], str) and len(ev[0]) == 2


def _line(relation: str, second: str = "PER", clusters=None) -> str:
    obj = {
        "doc_key": "SYNNW_20030320.0003",
        "dataset": "ace-event",
        "sentences": [["Oskar", "Dorberg", "founded", "Northfield", "College"]],
        "ner": [[[1, 1, "PER"], [1, 1, second], [3, 4, "ORG"]]],
        "relations": [[[1, 1, 1, 1, relation], [1, 1, 3, 4, "ORG-AFF.Founder"]]],
        "events": [[[[2, "Business.Start-Org"], [1, 1, "Agent"], [3, 4, "Org"]]]],
    }
    if clusters is not None:
        obj["clusters"] = clusters
    return json.dumps(obj) + "\n"


@pytest.mark.slow
def test_mentions_sharing_a_head_stay_apart(tmp_path):
    """Two entities with mentions on one head and a relation between them: before, the two
    mentions were merged into one entity and the relation's Arg-1 and Arg-2 were that
    entity (validate: 'Arg-1 and Arg-2 are the same entity')."""
    pred = tmp_path / "pred.json"
    pred.write_text(_line("PER-SOC.Family"))
    out = tmp_path / "apf"
    r = _run("import", "--from", "dygiepp", pred, "--source-dir", SMALL / "src", "-O", out)
    assert r.exit_code == 0, r.output
    assert "3 mentions, 1 event mentions, 2 arguments, 2 relation mentions" in r.stderr
    v = _run("validate", out, "--source-dir", SMALL / "src")
    assert v.exit_code == 0 and ": 0 problems" in v.output, v.output
    apf = (out / "SYNNW_20030320.0003.apf.xml").read_text()
    assert apf.count("<entity ID") == 3
    assert '<relation_argument REFID="SYNNW_20030320.0003-E1" ROLE="Arg-1"/>' in apf
    assert '<relation_argument REFID="SYNNW_20030320.0003-E2" ROLE="Arg-2"/>' in apf
    # clusters joining the two mentions: the relation cannot be written; counted
    pred.write_text(_line("PER-SOC.Family", clusters=[[[1, 1], [1, 1]]]))
    r = _run(
        "import", "--from", "dygiepp", pred, "--source-dir", SMALL / "src", "-O", out, "--force"
    )
    assert r.exit_code == 0, r.output
    assert (
        "dropped 1 relation mentions whose Arg-1 and Arg-2 are one entity, first:"
        " SYNNW_20030320.0003 PER-SOC" in r.stderr
    )
    v = _run("validate", out, "--source-dir", SMALL / "src")
    assert v.exit_code == 0 and ": 0 problems" in v.output, v.output


@pytest.mark.slow
def test_round_trip_on_a_release_layout(tmp_path):
    """export -> import -> validate on the adjudicated and first-pass folders of a corpus
    laid out like the LDC release (both validate; what DyGIE++ cannot carry is counted)."""
    sys.path.insert(0, str(TESTS))
    from ldc_like import make_ldc_like

    make_ldc_like(str(tmp_path / "ldc"))
    english = tmp_path / "ldc" / "data" / "English"
    for side in ("adj", "fp1"):
        lst = tmp_path / f"{side}.list"
        lst.write_text("".join(f"{p}\n" for p in sorted(english.glob(f"*/{side}/*.apf.xml"))))
        js = tmp_path / f"{side}.json"
        r = _run("export", lst, "--lenient", "--to", "dygiepp", "--source-dir", english, "-o", js)
        assert r.exit_code == 0, r.output
        for line in js.read_text().splitlines():
            obj = json.loads(line)
            for sent in obj["events"]:
                assert sent == sorted(sent)
                for ev in sent:
                    assert len(ev[0]) == 2 and ev[1:] == sorted(ev[1:])
        out = tmp_path / side
        r = _run("import", "--from", "dygiepp", js, "--source-dir", english, "-O", out)
        assert r.exit_code == 0, r.output
        assert "imported 6 documents:" in r.stderr and "0 tokens misaligned" in r.stderr
        v = _run("validate", out, "--source-dir", english)
        assert v.exit_code == 0 and "6 documents" in v.output and ": 0 problems" in v.output
