"""Machine output that agrees with itself (issue #14, point 8): one unit (percent) for every
score, the CoNLL average, the signature everywhere (also under -q), the content of -a, -e, -s
and -d in JSON and -d in CSV."""

from __future__ import annotations

import csv
import io
import json
import os
import re

import jsonschema
import pytest
from click.testing import CliRunner

from acescore.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "examples", "ref")
SYS = os.path.join(ROOT, "examples", "sys")
with open(os.path.join(ROOT, "acescore", "schema", "results.schema.json"), encoding="utf-8") as _f:
    SCHEMA = json.load(_f)


def cli(*args) -> str:
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture(scope="module")
def full():
    return json.loads(cli("score", REF, SYS, "-m", "-a", "-s", "-d", "-q", "--format", "json"))


@pytest.mark.slow
def test_schema_and_unit(full):
    jsonschema.validate(full, SCHEMA)
    assert full["$schema"] == SCHEMA["$id"]
    assert full["score_unit"] == "percent"
    assert full["inputs"] == {"ref": REF, "sys": SYS}
    assert full["signature"] == (
        "acescore:0.1.0|params:local_2008|nist:ace08|flags:mdas|order:canonical-05|dtd:apf.v5.1.1.dtd"
    )


@pytest.mark.slow
def test_literature_scores_in_percent_as_their_commands(full):
    coref = json.loads(cli("coref", REF, SYS, "--format", "json", "-q"))
    events = json.loads(cli("events", REF, SYS, "--format", "json", "-q"))
    for m in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
        assert full["coref"][m] == pytest.approx(coref[m])
        assert 1 < coref[m]["f1"] <= 100
    assert full["coref"]["conll_f1"] == pytest.approx(coref["conll_f1"])
    assert full["events"]["definition"] == events["definition"]
    for t in ("trigger_identification", "argument_classification"):
        assert full["events"]["scores"][t] == pytest.approx(events["scores"][t])
        s = events["scores"][t]
        assert s["recall"] == pytest.approx(100 * s["correct"] / s["ref"])
    text = cli("events", REF, SYS, "-q")
    line = next(ln for ln in text.splitlines() if ln.startswith("trigger_identification"))
    s = events["scores"]["trigger_identification"]
    assert line.split()[-3:] == [f"{s['precision']:.2f}", f"{s['recall']:.2f}", f"{s['f1']:.2f}"]
    for data, metric in (
        (coref, "metric:coref|conll2012-v8|align:head"),
        (events, "metric:events|trigger:exact|args:head|scope:subtype"),
    ):
        jsonschema.validate(
            {
                "acescore_version": "x",
                "signature": data["signature"],
                "score_unit": data["score_unit"],
                "parameters": {"name": "local_2008", "mentions": True},
                "tasks": {},
                "document_scores": {},
                "warnings": [],
                data["command"]: {
                    k: v
                    for k, v in data.items()
                    if k not in ("command", "signature", "inputs", "score_unit")
                },
            },
            SCHEMA,
        )
        assert data["signature"] == (
            "acescore:0.1.0|params:local_2008|nist:ace08|flags:-|order:"
            f"canonical-05|dtd:apf.v5.1.1.dtd|{metric}"
        )
        assert data["inputs"] == {"ref": REF, "sys": SYS}


@pytest.mark.slow
def test_signature_everywhere():
    for fmt in ("json",):
        d = json.loads(cli("score", REF, SYS, "-q", "--format", fmt))
        assert d["signature"].startswith("acescore:0.1.0|params:local_2008|nist:ace08|flags:-")
    r = CliRunner().invoke(main, ["coref", REF, SYS])
    assert r.stderr.splitlines()[1].startswith("signature: acescore:0.1.0|")
    r = CliRunner().invoke(main, ["coref", REF, SYS, "-q"])
    assert r.stderr == ""
    rows = list(csv.DictReader(io.StringIO(cli("score", REF, SYS, "-q", "--format", "csv"))))
    assert {r["signature"] for r in rows} == {
        "acescore:0.1.0|params:local_2008|nist:ace08|flags:-|order:canonical-05|dtd:apf.v5.1.1.dtd"
    }


def test_view_site_names_inputs_and_signature(tmp_path):
    cli("view", REF, SYS, "-O", tmp_path / "site", "-q")
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<p class="muted" id="provenance">(.*?)</p>', index)
    assert m is not None
    assert m.group(1) == (
        f"REF <code>{REF}</code>, SYS <code>{SYS}</code>, signature <code"
        ' id="signature">acescore:0.1.0|params:local_2008|nist:ace08|flags:-|order:'
        "canonical-05|dtd:apf.v5.1.1.dtd</code>"
    )


_BLOCK = re.compile(
    r"^(?:>>> |    )ref entity (\S+) .*\n(?:>>> |    )tst entity (\S+) .*\n"
    r"\s+entity score:\s+(-?[\d.]+) out of\s+(-?[\d.]+)",
    re.M,
)


@pytest.mark.slow
def test_all_mappings_agree_with_the_text_listing(full):
    """Every mapped REF entity of the -a listing: same partner, pair value and REF value."""
    text = cli("score", REF, SYS, "-a", "-q")
    blocks = _BLOCK.findall(text)
    assert len(blocks) > 30
    maps = {m["ref"]: m for m in full["tasks"]["edr"]["mappings"] if m["ref"]}
    for rid, sid, score, out_of in blocks:
        m = maps[rid]
        assert m["sys"] == sid and m["status"] == "mapped"
        assert f"{m['pair_value']:.5f}" == score and f"{m['ref_value']:.5f}" == out_of
    edr = full["tasks"]["edr"]
    assert len(maps) == edr["total"]["ref_count"]
    fas = [m for m in edr["mappings"] if m["status"] == "fa"]
    assert len(fas) == edr["total"]["fa_count"]
    assert sum(m["status"] == "miss" for m in edr["mappings"]) == edr["total"]["miss_count"]
    # a mapped pair with an attribute error, as the listing says
    e1 = maps["SYNNW_20030216.0001-E1"]
    assert (
        "ref entity SYNNW_20030216.0001-E1 (ORG/Media/SPC/NAM) -- ENTITY SUBTYPE MISMATCH" in text
    )
    assert e1["documents"][0]["errors"] == [
        {"attribute": "SUBTYPE", "ref": "Media", "sys": "Religious"}
    ]
    assert e1["documents"][0]["status"] == "error"
    assert e1["documents"][0]["costs"]["attr"] == pytest.approx(0.1, abs=1e-6)


@pytest.mark.slow
def test_error_mappings_and_summary(full):
    d = json.loads(cli("score", REF, SYS, "-e", "-q", "--format", "json"))
    every = full["tasks"]["edr"]["mappings"]
    errs = d["tasks"]["edr"]["mappings"]
    assert errs == [m for m in every if any(x["status"] != "correct" for x in m["documents"])]
    assert 0 < len(errs) < len(every)
    assert "listing" not in d["tasks"]["edr"] and "summary" not in d
    assert full["summary"]["ref_documents"] == sorted(f.split(".apf")[0] for f in os.listdir(REF))
    listing = full["tasks"]["rdr"]["listing"]
    assert len(listing["ref"]) == full["tasks"]["rdr"]["total"]["ref_count"]
    assert all(
        set(x["arguments"])
        <= {
            "Arg-1",
            "Arg-2",
            "Arg",
            "Time-Within",
            "Time-Holds",
            "Time-Starting",
            "Time-Ending",
            "Time-Before",
            "Time-After",
            "Time-At-Beginning",
            "Time-At-End",
        }
        for x in listing["ref"]
    )
    assert "mappings" in full["tasks"]["rmd"]


@pytest.mark.slow
def test_document_scores_in_csv(full):
    rows = list(
        csv.DictReader(io.StringIO(cli("score", REF, SYS, "-m", "-d", "-q", "--format", "csv")))
    )
    docs = [r for r in rows if r["condition"] == "document"]
    assert len(docs) == sum(len(v) for v in full["document_scores"].values())
    for r in docs:
        want = full["document_scores"][r["task"]][r["key"]]
        assert float(r["value"]) == pytest.approx(want["value_pct"])
        assert float(r["ref_value"]) == pytest.approx(want["ref_value"])
    plain = list(csv.DictReader(io.StringIO(cli("score", REF, SYS, "-m", "-q", "--format", "csv"))))
    assert {r["signature"] for r in rows} == {plain[0]["signature"].replace("flags:m", "flags:md")}

    def strip(rs):
        return [{k: v for k, v in r.items() if k != "signature"} for r in rs]

    assert strip(r for r in rows if r["condition"] != "document") == strip(plain)


def test_convention_json_in_percent(tmp_path):
    """Also the literature conventions (events --convention): scores in percent, as the
    table prints them."""
    out = tmp_path / "c.json"
    cli("events", REF, SYS, "--convention", "ace05", "--format", "json", "-o", out, "-q")
    d = json.loads(out.read_text())
    assert d["score_unit"] == "percent" and d["inputs"] == {"ref": REF, "sys": SYS}
    text = cli("events", REF, SYS, "--convention", "ace05", "-q")
    row = next(ln for ln in text.splitlines() if ln.startswith("argument_identification"))
    s = d["scores"]["argument_identification"]
    assert row.split()[-3:] == [f"{s['precision']:.2f}", f"{s['recall']:.2f}", f"{s['f1']:.2f}"]
