"""A reference scored against itself (README "A reference scored against itself"): 100 for
every task, except event mentions when an event mention cites two mentions of one entity in
one role -- the NIST tool gives the same 99.4 (checked with the deterministic copy)."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from click.testing import CliRunner

from acescore.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = "SYNNW_20030216.0001"


def totals(path) -> dict:
    r = CliRunner().invoke(main, ["score", str(path), str(path), "-m", "-q", "--format", "json"])
    assert r.exit_code == 0, r.output
    return {t: v["total"] for t, v in json.loads(r.output)["tasks"].items()}


@pytest.mark.slow
def test_reference_against_itself(tmp_path):
    ref = tmp_path / "ref"
    shutil.copytree(os.path.join(ROOT, "examples", "ref"), ref)
    assert {t: round(v["value"], 6) for t, v in totals(ref).items()} == dict.fromkeys(
        ("edr", "val", "tim", "rdr", "vdr", "emd", "rmd", "vmd"), 100.0
    )
    # the Agent of event mention EV1-1 cited twice: by two mentions of entity E1
    f = ref / f"{DOC}.apf.xml"
    text = f.read_text(encoding="utf-8")
    m = re.search(
        rf'    <event_mention_argument REFID="{DOC}-E1-1" ROLE="Agent">.*?'
        r"</event_mention_argument>\n",
        text,
        re.S,
    )
    second = re.findall(rf'<entity_mention ID="({DOC}-E1-\d+)"', text)[1]
    text = text[: m.end()] + m.group(0).replace(f"{DOC}-E1-1", second) + text[m.end() :]
    f.write_text(text, encoding="utf-8")
    t = totals(ref)
    assert all(round(t[x]["value"], 6) == 100.0 for x in t if x != "vmd")
    vmd = t["vmd"]
    assert (round(vmd["value"], 1), round(vmd["sub_fa_cost"], 1)) == (99.4, 0.6)
    assert vmd["fa_count"] == vmd["miss_count"] == 0 and vmd["doc_error_count"] == 1
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    assert (
        "cite a second mention of entity E1 as the Agent of\nevent mention EV1-1 (in"
        " `SYNNW_20030216.0001`) and event mentions read Value 99.4, Arg FA\n0.6, every other"
        " task 100" in readme
    )
