"""Conformance: acescore's report equals the NIST tool's, byte for byte (first line excepted).

The expected outputs under tests/data/golden/<corpus>/expected/ were produced by the NIST
scorer run in the canonical order of docs/rules/determinism.md (see the golden README in shared/).
A file ``SYS__FLAGS.txt`` is the report of ``-r ref.list -t sys-SYS.list FLAGS`` where
FLAGS is ``m``, ``P_local_2007_m``, ``P_global_2008`` ... (``_`` separates flags).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from acescore.crosscheck.nist_tool import compare_reports
from acescore.model.params import PARAMETER_SETS

pytestmark = pytest.mark.slow  # golden corpora

GOLDEN = Path(__file__).parent.parent / "data" / "golden"


def cases():
    out = []
    for exp in sorted(GOLDEN.glob("*/expected/*__*.txt")):
        if exp.name.endswith(".stderr.txt"):
            continue
        out.append(pytest.param(exp, id=f"{exp.parent.parent.name}/{exp.stem}"))
    return out


def flags_of(exp: Path):
    sysname, flags = exp.stem.split("__", 1)
    toks = flags.split("_")
    opts = {"params": "local_2008", "mentions": False}
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "P":
            # parameter set names contain underscores: take the longest known name
            for n in sorted(PARAMETER_SETS, key=len, reverse=True):
                if "_".join(toks[i + 1 :]).startswith(n):
                    opts["params"] = n
                    i += 1 + len(n.split("_"))
                    break
            continue
        if t == "m":
            opts["mentions"] = True
        elif t == "d":
            opts["doc_scores"] = True
        elif t == "a":
            opts["all_mappings"] = True
        elif t == "e":
            opts["error_mappings"] = True
        elif t == "s":
            opts["summary"] = True
        i += 1
    return sysname, opts


def assert_same_report(expected: str, actual: str) -> None:
    """Fails naming each differing section, its first differing line and both texts."""
    if actual != expected:
        diffs = compare_reports(expected, actual, show=1)
        pytest.fail(
            "report differs:\n"
            + "\n".join(
                f"{d.name}: line {d.examples[0][0]}: expected {d.examples[0][1]!r}"
                f" got {d.examples[0][2]!r}"
                for d in diffs
                if d.differing_lines
            )
        )


def _lines(text: str) -> list:
    return [ln for ln in text.splitlines() if ln.strip()]


#: the golden reports through the command line, for these ``--jobs`` values (one process,
#: and the document shards of acescore.run: the report is the same for every value)
CLI_JOBS = (1, pytest.param(2, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow))


def with_jobs(values, ids=None) -> list:
    """(value, jobs) parameters for the command-line runs of a set of golden cases: every case
    with ``--jobs 1`` (one process), and every case once in document shards, ``--jobs 2`` and
    ``4`` in turn (marked slow), so that the whole set is compared sharded and both shard
    counts reach every corpus, at two processes a case instead of three.  ``values``: the
    cases (or ``pytest.param`` of one value); ``ids``: their test ids."""
    out = []
    for k, v in enumerate(values):
        if isinstance(v, type(pytest.param(0))):
            v, i = v.values[0], v.id
        else:
            i = ids[k] if ids is not None else str(v)
        out.append(pytest.param(v, 1, id=f"{i}-1"))
        jobs = (2, 4)[k % 2]
        out.append(pytest.param(v, jobs, id=f"{i}-{jobs}", marks=pytest.mark.slow))
    return out


def cli_args(exp: Path, jobs: int) -> list:
    sysname, opts = flags_of(exp)
    args = [
        "score",
        "-r",
        "ref.list",
        "-t",
        "ref.list" if sysname == "ref" else f"sys-{sysname}.list",
        "-P",
        opts.pop("params"),
        "--jobs",
        str(jobs),
        "--verbose",  # every warning as the NIST tool prints it (the default groups them)
    ]
    if opts.pop("mentions"):
        args.append("-m")
    for name, flag in (
        ("doc_scores", "-d"),
        ("all_mappings", "-a"),
        ("error_mappings", "-e"),
        ("summary", "-s"),
    ):
        if opts.pop(name, False):
            args.append(flag)
    assert not opts
    return args


@pytest.mark.parametrize("exp,jobs", with_jobs(cases()))
def test_cli_report_identical(exp, jobs, monkeypatch):
    """The report and the warnings (where the golden set keeps them) through the command
    line; the library's keywords reach the same reports in test_diagnostics and
    test_shards_listings (a test of the same cases through ``api.score`` was a copy of the
    ``--jobs 1`` runs: the command calls the same ``run.execute``)."""
    from click.testing import CliRunner

    from acescore.cli import main

    monkeypatch.chdir(exp.parent.parent)  # the lists name files under the corpus
    r = CliRunner().invoke(main, cli_args(exp, jobs), catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    expected = exp.read_text(encoding="utf-8").split("\n", 1)[1]
    actual = r.stdout.split("\n", 1)[1]
    assert_same_report(expected, actual)
    stderr = Path(str(exp).replace(".txt", ".stderr.txt"))
    if stderr.exists():
        # (the signature and the coverage line follow the warnings)
        assert _lines(r.stderr)[:-2] == _lines(stderr.read_text(encoding="utf-8"))
