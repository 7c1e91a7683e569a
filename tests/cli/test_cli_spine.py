"""One command skeleton: every command that reads APF takes its input options from one
registry (acescore.cli.inputs), with the same words in every --help, reads through one
loader (the --docs file through the safe reader too), writes -o FILE the same way, and puts
the signature in the same place; ``events`` has one table and one JSON shape; the literature
metrics come from one registry (acescore.metrics.registry)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.cli.inputs import BY_KEY, INPUT_OPTIONS, SIDE_KEYS
from acescore.metrics import registry
from acescore.model.versions import VERSION_OPTIONS

TINY = Path(__file__).parent.parent / "data" / "golden" / "tiny"
SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"
EVENTS = Path(__file__).parent.parent / "data" / "events" / "basic"

#: command -> the input options it takes (the rest of the registry it refuses)
#: --nist and the older versions' options: the commands that print NIST scores (score,
#: view, compare; validate takes --nist), not the literature metrics (coref, events)
VERSION_KEYS = {"nist", *VERSION_OPTIONS}
TAKES = {
    "score": set(BY_KEY),
    "view": set(BY_KEY),
    "coref": set(BY_KEY) - {"jobs"} - VERSION_KEYS,
    "events": set(BY_KEY) - {"jobs"} - VERSION_KEYS,
    "crosscheck": set(BY_KEY) - {"jobs"},
    "compare": set(BY_KEY) - {"sys_file", "sys_list"},
    "validate": {"nist", "params", "max_bytes", "quiet"},
    "export": {"params", "docs_file", "lenient", "max_bytes", "quiet", "verbose"},
}


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], terminal_width=2000, **kw)


def _help_lines(command: str) -> dict:
    """{first spelling: the option's help line, squeezed}."""
    out = run(command, "--help").output
    lines: dict = {}
    key = None
    for ln in out.split("Options:", 1)[1].splitlines():
        s = ln.strip()
        if s.startswith("-"):
            key = s.split()[0].rstrip(",")
            lines[key] = s
        elif s and key is not None:
            lines[key] += " " + s
    return {k: " ".join(v.split()) for k, v in lines.items()}


@pytest.mark.parametrize("command", sorted(TAKES))
def test_help_lists_the_registry_s_options_in_the_same_words(command):
    lines = _help_lines(command)
    for opt in INPUT_OPTIONS:
        first = opt.decls[0]
        if opt.key in TAKES[command]:
            assert first in lines, (command, first)
            words = " ".join(opt.help.split())
            assert words in lines[first], (command, first, lines[first])
        else:
            assert first not in lines, (command, first)


@pytest.mark.parametrize("command", sorted(TAKES))
def test_options_not_taken_are_refused_in_one_line(command, tmp_path):
    for key in set(BY_KEY) - TAKES[command]:
        opt = BY_KEY[key]
        value = [] if dict(opt.settings).get("is_flag") else ["1"]
        r = run(command, opt.decls[0], *value, "x", "y")
        assert r.exit_code == 2, (command, key, r.output)
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and f"{opt.name} does not go with acescore {command}" in lines[0], (
            command,
            key,
            r.output,
        )


def test_every_command_that_reads_apf_takes_quiet():
    for command in list(TAKES) + ["import"]:
        assert "-q" in _help_lines(command), command


def test_view_takes_list_files(tmp_path):
    r = run(
        "view",
        "-r",
        TINY / "ref.list",
        "-t",
        TINY / "sys-heavy.list",
        "-O",
        tmp_path / "site",
        "-q",
    )
    assert r.exit_code == 0, r.output
    assert (tmp_path / "site" / "index.html").exists()
    assert len(list((tmp_path / "site" / "doc").iterdir())) == 3


@pytest.mark.parametrize("command", ["coref", "events", "crosscheck"])
def test_metrics_take_list_files(command):
    if command == "crosscheck":
        r = run(
            command,
            "-r",
            TINY / "ref.list",
            "-t",
            TINY / "sys-heavy.list",
            "-q",
            env={"ACE_NIST_SCORER": ""},
        )
        assert "ACE_NIST_SCORER" in r.output  # past the inputs
        return
    a = run(command, "-r", TINY / "ref.list", "-t", TINY / "sys-heavy.list", "-q")
    b = run(command, TINY / "ref", TINY / "sys-heavy", "-q")
    assert a.exit_code == 0 and a.stdout == b.stdout


def test_sides_given_once():
    r = run("coref", TINY / "ref", TINY / "sys-heavy", "-r", TINY / "ref.list")
    assert r.exit_code == 2 and "give the reference once" in r.output


def test_o_is_one_file_everywhere_and_folders_are_output_dir(tmp_path):
    for command in ("view", "import"):
        r = run(command, "-o", tmp_path / "x", "--help")
        r = run(
            command,
            *(
                ["--from", "oneie", "p.json", "--source-dir", "s"]
                if command == "import"
                else [TINY / "ref", TINY / "sys-heavy"]
            ),
            "-o",
            tmp_path / "x",
        )
        assert r.exit_code == 2 and "-O/--output-dir" in r.output, r.output
        assert not (tmp_path / "x").exists()


def test_export_docs_quiet_and_lenient(tmp_path):
    docs = tmp_path / "docs.txt"
    first = sorted(p.name for p in (SMALL / "ref").glob("*.apf.xml"))[0]
    docid = first[: -len(".apf.xml")]
    docs.write_text(docid + "\n")
    out = tmp_path / "o.json"
    r = run(
        "export",
        "--to",
        "dygiepp",
        SMALL / "ref",
        "--source-dir",
        SMALL / "src",
        "--docs",
        docs,
        "-q",
        "--lenient",
        "-o",
        out,
    )
    assert r.exit_code == 0 and r.output == "", r.output
    keys = {json.loads(x)["doc_key"] for x in out.read_text().splitlines()}
    assert keys == {docid}
    r = run(
        "export",
        "--to",
        "dygiepp",
        SMALL / "ref",
        "--source-dir",
        SMALL / "src",
        "--max-file-size",
        "10",
        "-o",
        out,
    )
    assert r.exit_code == 2 and "larger than the limit of 10 bytes" in r.output


def test_export_lenient_skips_and_says_so(tmp_path):
    import re

    bad = tmp_path / "apf"
    bad.mkdir()
    first = sorted((SMALL / "ref").glob("*.apf.xml"))[0]
    text = re.sub(r'START="\d+"', 'START="x"', first.read_text(encoding="utf-8"), count=1)
    (bad / first.name).write_text(text, encoding="utf-8")
    args = [
        "export",
        "--to",
        "oneie",
        bad,
        "--source-dir",
        SMALL / "src",
        "-o",
        tmp_path / "o.json",
    ]
    r = run(*args)
    assert r.exit_code == 2 and "START attribute is not an integer" in r.output
    assert not (tmp_path / "o.json").exists()
    r = run(*args, "--lenient")
    assert r.exit_code == 0, r.output
    assert "acescore: lenient: skipped 1 element and 0 documents" in r.stderr
    assert (tmp_path / "o.json").read_text()
    r = run(*args, "--lenient", "-q")
    assert r.exit_code == 0 and r.stderr == ""


def test_validate_quiet_size_and_lenient_refused(tmp_path):
    r = run("validate", TINY / "ref", "-q")
    assert r.exit_code == 0 and r.output == ""
    r = run("validate", TINY / "ref")
    assert r.output.startswith("validate: ")
    r = run("validate", TINY / "ref", "--max-file-size", "10")  # a problem of each file
    assert r.exit_code == 1 and "larger than the limit of 10 bytes" in r.output
    r = run("validate", TINY / "ref", "--lenient")
    assert r.exit_code == 2 and len(r.output.splitlines()) == 1
    assert "--lenient does not go with acescore validate" in r.output


@pytest.mark.parametrize("command", ["score", "coref", "events", "view"])
def test_quiet_is_silent_on_stderr(command, tmp_path):
    extra = ["-O", tmp_path / "site"] if command == "view" else []
    r = run(command, TINY / "ref", TINY / "sys-heavy", "-q", *extra)
    assert r.exit_code == 0 and r.stderr == "", r.stderr


def _fifo(tmp_path) -> Path:
    p = tmp_path / "docs.fifo"
    os.mkfifo(p)
    return p


@pytest.mark.parametrize("command", ["score", "coref", "events", "export"])
def test_docs_fifo_refused_at_once(command, tmp_path):
    fifo = _fifo(tmp_path)
    # (a blocking open would wait for ever for a writer)
    args = (
        ["--to", "oneie", TINY / "ref", "--source-dir", SMALL / "src"]
        if command == "export"
        else [TINY / "ref", TINY / "sys-heavy"]
    )
    t0 = time.monotonic()
    r = run(command, *args, "--docs", fifo)
    assert time.monotonic() - t0 < 20
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert str(fifo) in r.output and "FIFO" in r.output


def test_docs_device_and_size_refused(tmp_path):
    r = run("score", TINY / "ref", TINY / "sys-heavy", "--docs", "/dev/zero")
    assert r.exit_code == 2 and "/dev/zero" in r.output and "character device" in r.output
    big = tmp_path / "big.txt"
    big.write_text("DOC\n" * 100)
    r = run("score", TINY / "ref", TINY / "sys-heavy", "--docs", big, "--max-file-size", "100")
    assert r.exit_code == 2 and "big.txt" in r.output and "larger than the limit" in r.output


# ---- the signature, one place ---------------------------------------------------------------


@pytest.mark.parametrize("command", ["score", "coref", "events"])
@pytest.mark.slow
def test_signature_on_stderr_after_text_and_in_json(command):
    t = run(command, TINY / "ref", TINY / "sys-heavy")
    sig = [ln for ln in t.stderr.splitlines() if ln.startswith("signature: ")]
    assert len(sig) == 1 and "signature" not in t.stdout.lower()
    j = json.loads(run(command, TINY / "ref", TINY / "sys-heavy", "-q", "--format", "json").stdout)
    assert j["signature"] == sig[0][len("signature: ") :]


@pytest.mark.slow
def test_compare_signature_on_stderr():
    args = [
        SMALL / "ref",
        SMALL / "sys-heavy",
        SMALL / "sys-perfect",
        "--bootstrap",
        "20",
        "--ar",
        "20",
        "--no-literature",
    ]
    t = run("compare", *args)
    sig = [ln for ln in t.stderr.splitlines() if ln.startswith("signature: ")]
    assert len(sig) == 1 and "signature" not in t.stdout
    j = json.loads(run("compare", *args, "-q", "--format", "json").stdout)
    assert j["signature"] == sig[0][len("signature: ") :]


# ---- events: one table, one JSON shape -------------------------------------------------------


def test_events_one_json_shape_with_and_without_convention():
    plain = json.loads(
        run("events", EVENTS / "ref", EVENTS / "sys", "-q", "--format", "json").stdout
    )
    conv = json.loads(
        run(
            "events",
            EVENTS / "ref",
            EVENTS / "sys",
            "-q",
            "--format",
            "json",
            "--convention",
            "ace05",
        ).stdout
    )
    common = {"command", "signature", "score_unit", "inputs", "documents", "scores"}
    assert common <= set(plain) and common <= set(conv)
    assert set(plain) - common == {"definition"}
    assert set(plain["scores"]) == set(registry.names("events"))
    assert set(registry.names("events")) < set(conv["scores"])
    for d in (plain, conv):
        assert d["command"] == "events"
        assert d["signature"].startswith("acescore:") and "|params:local_2008|" in d["signature"]
        assert "|metric:events|" in d["signature"]
    assert "|conv:ace05|" in conv["signature"]
    lenient = json.loads(
        run(
            "events",
            EVENTS / "ref",
            EVENTS / "sys",
            "-q",
            "--format",
            "json",
            "--convention",
            "ace05",
            "--lenient",
        ).stdout
    )
    assert lenient["signature"] == conv["signature"].replace("|metric:", "|lenient|metric:")


def test_events_one_table_layout():
    plain = run("events", EVENTS / "ref", EVENTS / "sys", "-q").stdout.splitlines()
    conv = run(
        "events", EVENTS / "ref", EVENTS / "sys", "-q", "--convention", "ace05"
    ).stdout.splitlines()
    header = next(ln for ln in plain if ln.startswith("Score"))
    assert header.split() == ["Score", "REF", "SYS", "Correct", "P", "%", "R", "%", "F1", "%"]
    assert header in conv
    assert not any(ln.startswith("Signature") for ln in conv)


def test_events_per_label_needs_a_convention():
    r = run("events", EVENTS / "ref", EVENTS / "sys", "--per-label")
    assert r.exit_code == 2 and "--per-label goes with --convention" in r.output


def test_score_only_refuses_what_it_cannot_print():
    for extra in (["--format", "json"], ["-d"], ["--format", "csv"], ["-a"]):
        r = run("score", TINY / "ref", TINY / "sys-heavy", "--score-only", *extra)
        assert r.exit_code == 2 and "--score-only" in r.output, extra
        assert len(r.output.strip().splitlines()) == 1


# ---- the literature metrics' registry ---------------------------------------------------------


def test_metric_registry_drives_the_scorers_and_json():
    from acescore.compare.components import COREF_METRICS, EVENT_TASKS
    from acescore.metrics import convention_scores, coref, events

    assert coref.METRICS == COREF_METRICS == registry.names("coref")
    assert events.TASKS == EVENT_TASKS == registry.names("events")
    assert set(convention_scores.TASK_TITLES) == {
        m.name for m in registry.METRICS if m.family != "coref"
    }
    j = json.loads(run("coref", TINY / "ref", TINY / "sys-heavy", "-q", "--format", "json").stdout)
    assert set(registry.names("coref")) <= set(j)
    assert len({m.name for m in registry.METRICS}) == len(registry.METRICS)
    assert all(m.command in ("coref", "events") for m in registry.METRICS)
    assert registry.compared()[0] == "coref.muc"


def test_side_keys_are_in_the_registry():
    assert set(SIDE_KEYS) <= set(BY_KEY)


# ---- the decorator ----------------------------------------------------------------------------


def test_reads_apf_passes_inputs_and_options_explicitly():
    import click

    from acescore.cli.inputs import Inputs, reads_apf
    from acescore.model.options import Options
    from acescore.run.parallel import available_cpus

    seen = {}

    @click.command("probe")
    @reads_apf("pair", takes=("jobs", "params", "quiet"))
    def probe(inputs, options):
        seen.update(inputs=inputs, options=options)

    r = CliRunner().invoke(probe, ["-r", "R.list", "S", "-P", "local_2007", "-q"])
    assert r.exit_code == 0, r.output
    assert isinstance(seen["inputs"], Inputs) and isinstance(seen["options"], Options)
    assert seen["inputs"] == Inputs(ref="R.list", sys="S", ref_list=True, quiet=True)
    assert seen["options"].params == "local_2007"
    assert seen["options"].jobs == available_cpus()  # not given: one per CPU
    CliRunner().invoke(probe, ["R", "S", "-j", "1"])
    assert seen["options"].jobs == 1


def test_no_option_travels_through_the_click_context():
    import acescore.cli as cli_pkg

    for p in Path(cli_pkg.__file__).parent.glob("*.py"):
        assert "ctx.meta" not in p.read_text(encoding="utf-8"), p.name


def test_one_way_to_read_and_score():
    """Only acescore.cli.inputs reads and scores (read_inputs, score_inputs)."""
    import acescore.cli as cli_pkg

    for p in Path(cli_pkg.__file__).parent.glob("*.py"):
        if p.name == "inputs.py":
            continue
        text = p.read_text(encoding="utf-8")
        for call in (
            "pipeline.load(",
            "pipeline.score(",
            "load_and_score(",
            "score_paths(",
            "pipeline import score",
            "pipeline import load",
        ):
            assert call not in text, (p.name, call)
