"""JSON/CSV output, the schema, CI gates, exit codes, the Python API and crosscheck."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

import acescore
from acescore import api
from acescore.cli import main

DATA = Path(__file__).parent.parent / "data"
GOLDEN = DATA / "golden"
ROOT = Path(__file__).parent.parent.parent
SCHEMA = json.loads((ROOT / "acescore" / "schema" / "results.schema.json").read_text())
TASK_OF_BANNER = {
    "entity": "edr",
    "value": "val",
    "timex2": "tim",
    "relation": "rdr",
    "event": "vdr",
    "mention_entity": "emd",
    "mention_relation": "rmd",
    "mention_event": "vmd",
}

CASES = [
    ("tiny", "heavy", "local_2008", True),
    ("tiny", "perfect", "local_2007", True),
    ("tiny", "heavy", "global_2008", False),
    ("small", "heavy", "local_2008", True),
    ("small", "coref", "global_2008_with_mentions", False),
    ("../diagnostics/global", "heavy", "global_2008", False),
    ("../diagnostics/global", "heavy", "global_2008_with_mentions", True),
]


def text_totals(text: str) -> dict:
    """task -> (Value, Max Value, FA cost) of the first `total` row of each section."""
    out = {}
    task = None
    for line in text.splitlines():
        m = re.match(r"^======== (\S+) scoring ========$", line)
        if m:
            task = TASK_OF_BANNER[m.group(1)]
            continue
        if task and task not in out and line.startswith("  total"):
            out[task] = (line[126:134].strip(), line[151:160].strip(), line[88:96].strip())
    return out


@pytest.mark.slow
@pytest.mark.parametrize("corpus,sysname,params,mentions", CASES)
def test_json_validates_and_equals_text(corpus, sysname, params, mentions):
    res = api.score(
        str(GOLDEN / corpus / "ref"), str(GOLDEN / corpus / f"sys-{sysname}"), params, mentions
    )
    data = json.loads(res.to_json())
    jsonschema.validate(data, SCHEMA)
    totals = text_totals(res.to_text())
    assert set(totals) == set(data["tasks"])
    for task, (value, maxv, fa) in totals.items():
        t = data["tasks"][task]["total"]
        assert "%.1f" % max(-999.9, t["value"]) == value
        assert "%.2f" % t["max_value"] == maxv
        assert "%.1f" % t["fa_cost"] == fa
    assert data["parameters"]["name"] == params
    assert data["signature"].startswith(f"acescore:{acescore.__version__}|params:{params}|")


def test_results_table_and_task():
    res = api.score(
        str(GOLDEN / "tiny" / "ref"), str(GOLDEN / "tiny" / "sys-heavy"), keep_passes=True
    )
    rows = res.table("edr", "TYPE")
    assert [r["key"] for r in rows][-1] == "total"
    assert rows[-1]["ref_count"] == 45
    assert res.task("entity").kind == "entity"


@pytest.mark.slow
def test_csv_has_every_row():
    runner = CliRunner()
    r = runner.invoke(
        main,
        [
            "score",
            str(GOLDEN / "tiny" / "ref"),
            str(GOLDEN / "tiny" / "sys-heavy"),
            "-m",
            "--format",
            "csv",
            "-q",
        ],
    )
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.output)))
    tasks = {row["task"] for row in rows}
    assert tasks == {"edr", "val", "tim", "rdr", "vdr", "emd", "rmd", "vmd"}
    total = next(
        row
        for row in rows
        if row["task"] == "edr" and row["condition"] == "TYPE" and row["key"] == "total"
    )
    assert "%.1f" % float(total["value"]) == "19.3"


def run_cli(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.slow
@pytest.mark.parametrize(
    "gate,code", [("edr=19.3", 0), ("edr=19.4", 3), ("rdr=-999", 0), ("edr=10 vmd=99", 3)]
)
def test_fail_under(gate, code):
    args = ["score", str(GOLDEN / "tiny" / "ref"), str(GOLDEN / "tiny" / "sys-heavy"), "-m", "-q"]
    for g in gate.split():
        args += ["--fail-under", g]
    r = run_cli(*args)
    assert r.exit_code == code, r.output
    if code == 3:
        assert "is below the required" in r.output


def test_exit_code_unusable_input(tmp_path):
    r = run_cli("score", str(tmp_path / "missing"), str(tmp_path / "missing2"))
    assert r.exit_code == 2
    out = r.output
    assert "Traceback" not in out and "no such file or directory" in out


def test_exit_code_validation_problems():
    bad = DATA / "broken"
    files = sorted(bad.glob("*.apf.xml"))
    assert files
    r = run_cli("validate", str(files[0]))
    assert r.exit_code == 1


def test_unknown_gate_task():
    r = run_cli(
        "score",
        str(GOLDEN / "tiny" / "ref"),
        str(GOLDEN / "tiny" / "sys-heavy"),
        "-q",
        "--fail-under",
        "xyz=1",
    )
    assert r.exit_code == 2  # a usage error, before anything is scored
    out = r.output
    assert "unknown task 'xyz'" in out


def readme_blocks(tag: str) -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"<!-- test: %s -->\s*```\w*\n(.*?)```" % tag, text, re.S)


@pytest.mark.slow
def test_readme_ci_example():
    """The README's CI line fails the build (non-zero) when EDR drops below the threshold."""
    blocks = readme_blocks("ci")
    assert blocks
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    for block in blocks:
        ok = subprocess.run(
            ["bash", "-c", block.replace("60", "10")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert ok.returncode == 0, ok.stderr
        low = subprocess.run(
            ["bash", "-c", block.replace("60", "99")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert low.returncode == 3, low.stderr
        assert "edr Value" in low.stderr


@pytest.mark.slow
def test_readme_python_example():
    blocks = readme_blocks("python")
    assert blocks
    for block in blocks:
        proc = subprocess.run(
            [sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        assert "EDR" in proc.stdout


@pytest.mark.slow
def test_crosscheck_with_a_stand_in_tool(tmp_path):
    """crosscheck compares with whatever ACE_NIST_SCORER prints: a stand-in that prints the
    golden report gives 'identical', one with a changed number gives exit 1."""
    expected = GOLDEN / "tiny" / "expected" / "heavy__m.txt"
    fake = tmp_path / "fake.pl"
    fake.write_text(f'open(F, "<", "{expected}"); print while <F>;\n')
    env = dict(os.environ, ACE_NIST_SCORER=str(fake))
    args = [
        "crosscheck",
        str(GOLDEN / "tiny" / "ref"),
        str(GOLDEN / "tiny" / "sys-heavy"),
        "-m",
        "--runs",
        "1",
    ]
    r = CliRunner().invoke(main, args, env=env)
    assert r.exit_code == 0, r.output
    assert r.stdout.strip().endswith("lines") and "identical:" in r.stdout
    changed = tmp_path / "changed.txt"
    changed.write_text(
        expected.read_text().replace("  total    45    10", "  total    46    10", 1)
    )
    fake.write_text(f'open(F, "<", "{changed}"); print while <F>;\n')
    r = CliRunner().invoke(main, args, env=env)
    assert r.exit_code == 1
    assert "entity scoring" in r.output and "1 of" in r.output


def test_crosscheck_says_when_the_nist_tool_failed(tmp_path):
    """Its exit status and the last line it wrote to standard error; exit status 4."""
    fake = tmp_path / "fake.pl"
    fake.write_text(
        'print STDERR "WARNING: something\\n";\n'
        'print STDERR "FATAL ERROR:  symmetric relation has 1 argument, but:\\n";\n'
        "print STDERR \"        Arg arguments: 'E2'\\n\\n\";\n"
        'print "partial\\n"; exit 3;\n'
    )
    args = [
        "crosscheck",
        str(GOLDEN / "tiny" / "ref"),
        str(GOLDEN / "tiny" / "sys-heavy"),
        "--runs",
        "1",
    ]
    r = CliRunner().invoke(main, args, env=dict(os.environ, ACE_NIST_SCORER=str(fake)))
    assert r.exit_code == 4
    assert r.output.splitlines() == [
        "acescore: the NIST tool failed (exit status 3): FATAL"
        " ERROR: symmetric relation has 1 argument, but: Arg"
        " arguments: 'E2'"
    ]
    fake.write_text('die "Can\'t locate object method via package \\"x\\"";\n')
    r = CliRunner().invoke(main, args, env=dict(os.environ, ACE_NIST_SCORER=str(fake)))
    assert r.exit_code == 4
    assert r.output.startswith("acescore: the NIST tool failed (exit status 255): Can't locate")
    fake.write_text("exit 0;\n")
    r = CliRunner().invoke(main, args, env=dict(os.environ, ACE_NIST_SCORER=str(fake)))
    assert (r.exit_code, r.output) == (
        4,
        "acescore: the NIST tool failed (exit status 0 but no"
        " report on standard output): no message on standard"
        " error\n",
    )


def test_crosscheck_needs_the_tool():
    r = CliRunner().invoke(main, ["crosscheck", "a", "b"], env={"ACE_NIST_SCORER": ""})
    assert r.exit_code == 2


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    from acescore.cli.common import progress_bars

    assert progress_bars(False) is None  # not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert progress_bars(True) is None  # --quiet
    assert progress_bars(False)("reading", 10) is None  # small run
    bar = progress_bars(False)("reading", 100)
    for k in range(1, 101):
        bar(k, 100)
    err = capsys.readouterr().err
    assert "50/100" in err and "#" * 15 in err
