"""``acescore view --nist ace05|ace07``: the index of the older versions shows their tasks
(those a version lacks absent) and the numbers of ``acescore score --nist`` for the same
input (its JSON: the values the version's report prints)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html as lhtml

from acescore.cli import main

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"

pytestmark = pytest.mark.slow  # golden small corpus, scored twice


@pytest.mark.parametrize("version", ["ace05", "ace07"])
def test_view_index_equals_score_of_the_version(version, tmp_path, monkeypatch):
    monkeypatch.chdir(SMALL)
    inputs = ["ref.list", "sys-heavy.list", "--nist", version, "-m", "-q"]
    r = CliRunner().invoke(main, ["view", *inputs, "-O", str(tmp_path / "site")])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["score", *inputs, "-d", "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    page = lhtml.parse(str(tmp_path / "site" / "index.html")).getroot()
    assert f"nist:{version}|" in page.xpath('//code[@id="signature"]')[0].text

    # the version's tasks in report order, each with its total Value
    tasks = {t["section"]: (code, t["total"]) for code, t in data["tasks"].items()}
    rows = page.xpath('//table[@id="tasks"]/tbody/tr')
    assert [tr.get("data-task") for tr in rows] == list(tasks)
    for tr in rows:
        total = tasks[tr.get("data-task")][1]
        shown = tr.xpath('td[@data-f="value"]')[0].text_content().strip()
        assert shown == f"{total['value']:.1f}", tr.get("data-task")

    # every document's Value of every task
    checked = 0
    for tr in page.xpath('//table[@id="docs"]/tbody/tr'):
        doc = tr.get("data-doc")
        for td in tr.xpath("td[@data-task]"):
            code = tasks[td.get("data-task")][0]
            want = data["document_scores"][code].get(doc)
            if want is None:
                continue
            assert td.get("data-sysv") == f"{want['sys_value']:.5f}", (doc, code)
            assert td.get("data-refv") == f"{want['ref_value']:.5f}", (doc, code)
            checked += 1
    assert checked > 100
