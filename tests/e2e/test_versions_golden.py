"""Conformance of --nist ace07 / ace05: acescore's report equals that of the older NIST
scorer, byte for byte (first line excepted), on the golden corpora.

The expected outputs under tests/data/versions/<version>/<corpus>/ were made by the
deterministic copies of ace07-eval-v01 and ace05-eval-v14 (tests/data/versions/README.md).
A file ``SYS__FLAGS.txt`` is the report of ``-r ref.list -t sys-SYS.list FLAGS``, FLAGS
written with ``_`` for spaces and without dashes (``m_a_s``, ``P_2005+TERN``, ``W_mention``;
``none``: no flags).  ``SYS__FLAGS.stderr.txt``: its warnings (timing lines removed).
Those of the ``medium`` corpus are compressed (``.txt.xz``); tests/e2e/test_versions_medium.py
and tools/check_versions.py use the helpers of this module for them.
"""

from __future__ import annotations

import lzma
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_golden import with_jobs

from acescore.cli import main

pytestmark = pytest.mark.slow  # golden corpora

VERSIONS = Path(__file__).parent.parent / "data" / "versions"
GOLDEN = Path(__file__).parent.parent / "data" / "golden"
ACESYNTH = Path(__file__).parent.parent.parent / "tools" / "acesynth.py"

#: golden corpora too big for tests/data/golden, made again by tools/acesynth.py where they
#: are needed (the generator is deterministic: the golden corpus's ref and sys-heavy files
#: byte for byte): name -> its options
SYNTHESISED = {"medium": ("--docs", "150", "--seed", "23", "--profiles", "heavy")}

#: the NIST letters of the older versions that take a word
_WORDED = set("PWMNSAV")

#: the end of an expected file's name: the report, its warnings or the refusal, maybe compressed
_KIND = re.compile(r"(\.stderr|\.fatal)?\.txt(\.xz)?$")


def cases():
    out = []
    for exp in sorted(VERSIONS.glob("*/*/*__*.txt")):
        if exp.name.endswith((".stderr.txt", ".fatal.txt")):
            continue
        version, corpus = exp.parent.parent.name, exp.parent.name
        out.append(pytest.param(exp, id=f"{version}/{corpus}/{exp.stem}"))
    return out


def case_name(exp: Path) -> str:
    """``SYS__FLAGS`` of an expected file (report, warnings or refusal; plain or .xz)."""
    return _KIND.sub("", exp.name)


def sibling(exp: Path, kind: str) -> Path:
    """The ``stderr`` or ``fatal`` file of the report file ``exp`` (compressed alike)."""
    return exp.with_name(exp.name.replace(".txt", f".{kind}.txt", 1))


def read_expected(path: Path) -> bytes:
    """The bytes of an expected file, stored plain or xz-compressed."""
    data = path.read_bytes()
    return lzma.decompress(data) if path.suffix == ".xz" else data


def corpus_folder(name: str, scratch: Path) -> Path:
    """The folder of the golden corpus ``name``: under tests/data/golden, or made by
    tools/acesynth.py in ``scratch`` (once) for those of SYNTHESISED."""
    if name not in SYNTHESISED:
        return GOLDEN / name
    out = scratch / name
    if not (out / "ref.list").exists():
        opts = [*SYNTHESISED[name], "--out", str(out), "--quiet"]
        subprocess.run([sys.executable, str(ACESYNTH), *opts], check=True)
    return out


def cli_args(exp: Path) -> list:
    sysname, flags = case_name(exp).split("__", 1)
    args = ["score", "--nist", exp.parent.parent.name, "-r", "ref.list"]
    args += ["-t", f"sys-{sysname}.list"]
    toks = [] if flags == "none" else flags.split("_")
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in _WORDED:
            # parameter set names may contain "_": the word runs to the next option letter
            j = i + 2
            while j < len(toks) and not (len(toks[j]) == 1 and toks[j] in _WORDED | set("madse")):
                j += 1
            args += [f"-{t}", "_".join(toks[i + 1 : j])]
            i = j
        else:
            args.append(f"-{t}")
            i += 1
    return args


def test_cli_args_of_a_file_name():
    exp = VERSIONS / "ace05" / "tiny" / "heavy__m_P_2005+TERN_W_mention.txt"
    assert cli_args(exp)[5:] == ["-t", "sys-heavy.list", "-m", "-P", "2005+TERN", "-W", "mention"]
    exp = VERSIONS / "ace07" / "tiny" / "heavy__P_original_entity_type_weights_m.txt"
    assert cli_args(exp)[7:] == ["-P", "original_entity_type_weights", "-m"]
    exp = VERSIONS / "ace05" / "medium" / "heavy__m_d_e.stderr.txt.xz"
    assert case_name(exp) == "heavy__m_d_e" and cli_args(exp)[7:] == ["-m", "-d", "-e"]


def _invoke(args: list, corpus: Path):
    prev = os.getcwd()
    os.chdir(corpus)  # the lists name files under the corpus
    try:
        return CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(prev)


def _first_difference(expected: list, actual: list) -> int:
    return next(
        (i for i, (a, b) in enumerate(zip(expected, actual)) if a != b),
        min(len(expected), len(actual)),
    )


def report_difference(exp: Path, corpus: Path, jobs: int) -> str | None:
    """Score as the expected report ``exp`` says, in the corpus folder ``corpus``: None when
    acescore's report (from line 2 on) and ``--verbose`` warnings equal the expected files,
    else where they first differ."""
    # --verbose: every warning as the NIST tool prints it (the default groups them)
    r = _invoke([*cli_args(exp), "--jobs", str(jobs), "--verbose"], corpus)
    if r.exit_code != 0:
        return f"exit status {r.exit_code}: {r.stderr}"
    # bytes: the older scripts cut texts at 37 bytes, inside a character at times
    expected = read_expected(exp).split(b"\n", 1)[1].decode("utf-8", "surrogateescape")
    actual = r.stdout_bytes.split(b"\n", 1)[1].decode("utf-8", "surrogateescape")
    if actual != expected:
        exp_lines, act_lines = expected.splitlines(), actual.splitlines()
        first = _first_difference(exp_lines, act_lines)
        return (
            f"report differs from line {first + 2}: expected"
            f" {exp_lines[first : first + 1]!r}, got {act_lines[first : first + 1]!r}"
        )
    stderr = sibling(exp, "stderr")
    if stderr.exists():

        def lines(t):
            return [ln for ln in t.splitlines() if ln.strip()]

        # (the signature and the coverage line follow the warnings)
        act_lines = lines(r.stderr)[:-2]
        exp_lines = lines(read_expected(stderr).decode("utf-8"))
        if act_lines != exp_lines:
            first = _first_difference(exp_lines, act_lines)
            return (
                f"warnings differ from warning {first + 1}: expected"
                f" {exp_lines[first : first + 1]!r}, got {act_lines[first : first + 1]!r}"
            )
    return None


def refusal_difference(fatal: Path, corpus: Path) -> str | None:
    """Where the older scorer died (the expected standard error ``fatal``), acescore must
    refuse too, in one line saying the same: None when it does, else what it did."""
    exp = fatal.with_name(fatal.name.replace(".fatal.txt", ".txt"))
    r = _invoke(cli_args(exp), corpus)
    if r.exit_code != 2 or r.stdout != "" or len(r.stderr.splitlines()) != 1:
        return f"not refused in one line: exit status {r.exit_code}, stderr {r.stderr!r}"
    line = r.stderr.rstrip("\n")
    text = read_expected(fatal).decode("utf-8")
    if "PARAMETER ERROR:" in text:
        said = [text.split("PARAMETER ERROR:  ", 1)[1].splitlines()[0]]
    else:
        nist = re.search(
            r"attribute value conflict for attribute '(\w+)' for entity '([^']+)' in document"
            r" '([^']+)'\n    database value is '(\w+)'\n    document value is '(\w+)'",
            text,
        )
        if nist is None:
            return f"no known NIST error in {fatal.name}"
        attr, eid, doc, old, new = nist.groups()
        said = [
            f"{doc}.apf.xml",
            f"attribute value conflict for attribute '{attr}' for entity '{eid}': database"
            f" value is '{old}', document value is '{new}'",
        ]
    if not line.startswith("acescore: ") or any(s not in line for s in said):
        return f"refusal {line!r} does not say {said!r}"
    return None


@pytest.mark.parametrize(("exp", "jobs"), with_jobs(cases()))
def test_report_identical(exp, jobs):
    difference = report_difference(exp, GOLDEN / exp.parent.name, jobs)
    assert difference is None, difference


@pytest.mark.parametrize("fatal", sorted(VERSIONS.glob("*/*/*__*.fatal.txt")), ids=str)
def test_refusal_names_what_the_nist_fatal_error_names(fatal):
    """Where the older scorer dies (an entity whose LEVEL differs between documents, on the
    golden ``global`` corpus; ``-A geometric`` with any shipped set), acescore refuses too,
    in one line saying the same (the NIST error is in the .fatal.txt file)."""
    difference = refusal_difference(fatal, GOLDEN / fatal.parent.name)
    assert difference is None, difference


def test_ace05_refuses_a_sys_document_missing_from_ref(tmp_path, monkeypatch):
    """ace05 dies on a SYS document whose DOCID is not in REF (its source check compares
    with an undefined REF source); ace07 and ace08 ignore such a document."""
    corpus = GOLDEN / "tiny"
    (tmp_path / "ref.list").write_text(
        "".join(f"{corpus / p}\n" for p in (corpus / "ref.list").read_text().split()[:2])
    )
    (tmp_path / "sys.list").write_text(
        "".join(f"{corpus / p}\n" for p in (corpus / "sys-heavy.list").read_text().split())
    )
    monkeypatch.chdir(tmp_path)
    args = ["score", "-r", "ref.list", "-t", "sys.list", "-q"]
    r = CliRunner().invoke(main, [*args, "--nist", "ace05"], catch_exceptions=False)
    assert r.exit_code == 2 and r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert "SYNNW_20041205.0002.apf.xml" in line
    assert "system source (newswire) disagrees with reference source ()" in line
    r = CliRunner().invoke(main, [*args, "--nist", "ace07"], catch_exceptions=False)
    assert r.exit_code == 0


@pytest.mark.parametrize("version", ["ace05", "ace07"])
def test_json_carries_the_numbers_the_report_prints(version, monkeypatch):
    """JSON of an older version: valid against the schema, the 22-column rows as printed,
    the version in the signature; ace05's -d report bug stays out of document_scores."""
    import json

    import jsonschema

    from acescore import api

    corpus = GOLDEN / "tiny"
    res = api.score(
        str(corpus / "ref"), str(corpus / "sys-heavy"), mentions=True, doc_scores=True, nist=version
    )
    data = json.loads(res.render("json"))
    schema = Path(api.__file__).parent / "schema" / "results.schema.json"
    jsonschema.validate(data, json.loads(schema.read_text(encoding="utf-8")))
    assert f"|nist:{version}|" in data["signature"]
    expected = (VERSIONS / version / "tiny" / "heavy__m_d_e.txt").read_text(encoding="utf-8")
    printed = next(ln for ln in expected.splitlines() if ln.startswith("  total"))
    total = data["tasks"]["edr"]["total"]
    numbers = printed.split()[1:]
    assert int(numbers[0]) == total["doc_ref_count"] and int(numbers[3]) == total["doc_error_count"]
    assert numbers[13] == "%.1f" % total["value"] and numbers[9] == "%.1f" % total["f1"]
    if version == "ace05":  # the report's VAL line is wrong; the JSON's value is right
        docs = data["document_scores"]["val"]
        d, doc = next(iter(sorted(docs.items())))
        assert f"      0.00 Value score for {d}" in expected
        assert doc["value_pct"] == pytest.approx(100.0)


def test_validate_applies_the_version_s_input_rules(monkeypatch):
    """``validate --nist ace07`` lists what the ACE 2007 scorer refuses (LEVEL conflicts of
    cross-document entities); ace08 accepts the same files."""
    monkeypatch.chdir(GOLDEN / "global")
    r = CliRunner().invoke(main, ["validate", "--nist", "ace07", "ref"], catch_exceptions=False)
    assert r.exit_code == 1
    assert "attribute value conflict for attribute 'LEVEL' for entity 'GLOBAL-E7'" in r.stdout
    r = CliRunner().invoke(main, ["validate", "ref"], catch_exceptions=False)
    assert r.exit_code == 0, r.stdout


def test_compare_scores_with_the_version(tmp_path, monkeypatch):
    """``compare --nist ace05``: each system's Value is the one the ace05 report prints (the
    total row of the EDR TYPE table), and the signature names the version."""
    import json

    monkeypatch.chdir(GOLDEN / "tiny")
    out = tmp_path / "c.json"
    r = CliRunner().invoke(
        main,
        ["compare", "--nist", "ace05", "-m", "ref", "sys-heavy", "sys-perfect", "-q"]
        + ["--format", "json", "-o", str(out)],
        catch_exceptions=False,
    )
    assert r.exit_code == 0, r.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "|nist:ace05|" in data["signature"]
    heavy = next(s for s in data["systems"] if s["name"] == "sys-heavy")
    expected = (VERSIONS / "ace05" / "tiny" / "heavy__m.txt").read_text(encoding="utf-8")
    printed = next(ln for ln in expected.splitlines() if ln.startswith("  total"))
    assert "%.1f" % heavy["tasks"]["edr"]["value"] == printed.split()[14]
