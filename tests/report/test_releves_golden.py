"""Relation/event section totals against the committed golden reports.

Until the report writer prints the sections, the Value (%) of the first table's ``total``
row (docs/rules/report.md §2.3 column Q, ``line[126:134]``) is recomputed from the PassResult and compared with
the NIST tool's report.  Also checks the promote_mentions warnings (stderr).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_releves import value_pct

from acescore.model.params import get_params
from acescore.reading.apf import read_apf
from acescore.rules.database import Side, add_files, check_docs, finish
from acescore.scoring.engine import run_scoring

GOLDEN = Path(__file__).parent.parent / "data" / "golden"
SECTIONS = ("relation", "event", "mention_relation", "mention_event")
FLAGS = {
    "m": ("local_2008", True),
    "P_local_2007_m": ("local_2007", True),
    "P_global_2008": ("global_2008", False),
    "P_global_2008_with_mentions": ("global_2008_with_mentions", False),
}


def expected_totals(path: Path) -> dict:
    out: dict = {}
    sec = None
    for line in path.read_text(encoding="utf-8", errors="replace").split("\n"):
        m = re.match(r"======== (\S+) scoring ========", line)
        if m:
            sec = m.group(1)
            continue
        if sec in SECTIONS and sec not in out and line.startswith("  total"):
            out[sec] = line[126:134].strip()
    return out


def load(corpus: str, listname: str, p, name: str, warnings: list, eval_docs=None) -> Side:
    base = GOLDEN / corpus
    paths = [
        str(base / ln.strip()) for ln in (base / listname).read_text().split("\n") if ln.strip()
    ]
    side = Side(name)
    add_files(side, [read_apf(x, p) for x in paths], p, warnings, eval_docs)
    finish(side, p, warnings)
    return side


def score(corpus: str, sysname: str, flags: str):
    pname, mentions = FLAGS[flags]
    p = get_params(pname)
    w: list = []
    ref = load(corpus, "ref.list", p, "REF", w)
    sys_ = load(corpus, f"sys-{sysname}.list", p, "SYS", w, ref.documents)
    check_docs(ref, sys_, w)
    run = run_scoring(ref, sys_, p, mentions, w)
    totals = {r.task: "%.1f" % max(-999.9, value_pct(r)) for r in run.passes if r.task in SECTIONS}
    return totals, w


CASES = [
    ("tiny", "heavy", "m"),
    ("tiny", "heavy", "P_local_2007_m"),
    ("tiny", "heavy", "P_global_2008"),
    ("tiny", "heavy", "P_global_2008_with_mentions"),
    ("tiny", "perfect", "m"),
    ("small", "heavy", "m"),
    ("small", "heavy", "P_local_2007_m"),
    ("small", "heavy", "P_global_2008"),
    ("small", "coref", "m"),
    ("small", "coref", "P_global_2008_with_mentions"),
]


@pytest.mark.slow
@pytest.mark.parametrize("corpus,sysname,flags", CASES, ids=[f"{c}/{s}__{f}" for c, s, f in CASES])
def test_section_totals(corpus, sysname, flags):
    exp_file = GOLDEN / corpus / "expected" / f"{sysname}__{flags}.txt"
    assert exp_file.exists(), f"golden file missing: {exp_file}"
    expected = expected_totals(exp_file)
    got, warnings = score(corpus, sysname, flags)
    assert got == expected
    err_file = exp_file.with_name(f"{sysname}__{flags}.stderr.txt")
    exp_w = [
        ln
        for ln in (err_file.read_text().split("\n") if err_file.exists() else [])
        if "promote_mentions_of_element" in ln
    ]
    got_w = [ln for ln in "".join(warnings).split("\n") if "promote_mentions_of_element" in ln]
    assert got_w == exp_w


def test_known_totals():
    """A few values written down from the golden reports."""
    got, _ = score("tiny", "heavy", "m")
    assert got == {
        "relation": "-18.5",
        "event": "9.8",
        "mention_relation": "-19.2",
        "mention_event": "15.8",
    }
