"""The task registry (acescore.model.tasks) is the one place tasks are declared: the JSON
schema, the command line's help and choices, the report's titles and codes, the engine's
chains and the parallel plan all follow it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.model import tasks
from acescore.model.params import PARAMETER_SETS, get_params
from acescore.model.versions import VERSIONS
from acescore.report.nist.nist_text import banner
from acescore.run import parallel

SCHEMA = Path(tasks.__file__).parent.parent / "schema" / "results.schema.json"


def test_schema_task_enum_is_the_registry():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    enum = schema["properties"]["tasks"]["propertyNames"]["enum"]
    assert enum == list(tasks.JSON_NAMES)
    assert schema["properties"]["document_scores"]["propertyNames"]["enum"] == enum
    kinds = schema["$defs"]["task"]["properties"]["kind"]["enum"]
    assert kinds == list(tasks.KINDS)
    names = schema["$defs"]["task"]["properties"]["section"]["enum"]
    assert names == [t.name for t in tasks.TASKS]
    params = schema["properties"]["parameters"]["properties"]["name"]["enum"]
    assert sorted(params) == sorted(n for v in VERSIONS.values() for n in v.parameter_sets)
    assert set(PARAMETER_SETS) <= set(params)


def test_cli_help_names_every_task():
    out = CliRunner().invoke(main, ["score", "--help"], terminal_width=400).output
    help_line = " ".join(out.split())
    assert tasks.tasks_help() in help_line
    for t in tasks.TASKS:
        assert f"{t.json_name} ({t.description})" in help_line


def test_every_spelling_finds_its_task():
    for t in tasks.TASKS:
        for name in (t.json_name, t.json_name.upper(), t.code, t.name) + t.aliases:
            assert tasks.lookup(name) is t
    assert tasks.lookup("nonsense") is None
    assert len({t.json_name for t in tasks.TASKS}) == len(tasks.TASKS)
    assert len({t.code for t in tasks.TASKS}) == len(tasks.TASKS)


def test_report_titles_and_chains_come_from_the_registry():
    for t in tasks.TASKS:
        assert banner(t.name) == f"\n======== {t.name} scoring ========\n\n{t.title}\n"
    assert tasks.CHAINS == ("documents", "entity_mentions", "mention_releves")
    assert [t.name for t in tasks.chain_tasks("mention_releves")] == [
        "mention_relation",
        "mention_event",
    ]
    own, shares = parallel.plan(3)
    assert own == ("documents",) and shares == [("entity_mentions",), ("mention_releves",)]
    own, shares = parallel.plan(2)
    assert shares == [("entity_mentions", "mention_releves")]
    assert parallel.plan(1) == (tasks.CHAINS, [])


def test_parameter_sets_are_immutable():
    p = get_params("local_2008")
    with pytest.raises(TypeError, match="immutable"):
        p.entity_type_wgt["PER"] = 2.0
    with pytest.raises(TypeError):
        p.entity_err_wgt.update(TYPE=0.1)
    with pytest.raises(AttributeError):
        p.entity_fa_wgt = 0.5  # frozen dataclass
    assert p.entity_type_wgt["PER"] == 1.0


# ---- one pipeline, one options object --------------------------------------------------

TINY = Path(__file__).parent.parent / "data" / "golden" / "tiny"


def test_api_keywords_are_checked_and_defaults_are_the_cli_s():
    import acescore

    with pytest.raises(TypeError):
        acescore.score(str(TINY / "ref"), str(TINY / "sys-heavy"), mention=True)
    res = acescore.score(str(TINY / "ref"), str(TINY / "sys-heavy"))
    cli = CliRunner().invoke(main, ["score", str(TINY / "ref"), str(TINY / "sys-heavy"), "-q"])
    assert cli.exit_code == 0
    assert cli.output.split("\n", 1)[1] == res.to_text()  # banner line aside
    assert res.options.params == "local_2008" and not res.options.mentions
    assert "mention_entity scoring" not in res.to_text()


def test_rendering_leaves_the_passes_as_scored():
    """Rendering (text, JSON, -a, -s) reads the passes and never changes them."""
    import acescore

    res = acescore.score(
        str(TINY / "ref"),
        str(TINY / "sys-heavy"),
        mentions=True,
        all_mappings=True,
        summary=True,
        keep_passes=True,
    )
    before = [
        (p.task, len(p.ref), len(p.sys), dict(p.mapping), dict(p.doc_value)) for p in res.passes
    ]
    assert all(nref > 0 for _, nref, *_ in before)
    res.to_text(), res.to_json(), res.to_csv()
    after = [
        (p.task, len(p.ref), len(p.sys), dict(p.mapping), dict(p.doc_value)) for p in res.passes
    ]
    assert after == before


def test_options_are_immutable_and_checked():
    from acescore.model.errors import AceUsageError
    from acescore.model.options import Options

    o = Options(mentions=True)
    with pytest.raises(AttributeError):
        o.mentions = False
    with pytest.raises(AceUsageError, match="unknown parameter set 'local_2009'"):
        Options(params="local_2009")
    with pytest.raises(AceUsageError):
        Options(max_bytes=-1)
    with pytest.raises(TypeError):
        Options(mention=True)
    assert o.flags == "m" and Options(summary=True, doc_scores=True).flags == "ds"
