"""Conformance of the diagnostic outputs: ``-s`` listings, ``-a``/``-e`` mapping listings
(docs/rules/report.md §5.2-5.4, docs/rules/input.md §1.8) and the ``-c`` duplicate warnings (docs/rules/input.md §4).

Expected reports (gzip) and warnings under tests/data/diagnostics/expected/ were produced by
the NIST scorer run in the canonical order of docs/rules/determinism.md (see the README there); the
first line (command line and date) is not compared.  Corpora: tests/data/golden/{tiny,small},
a copy of the shared ``global`` corpus (ref and sys-heavy) and two hand-made corpora written
by tests/data/diagnostics/make_corpora.py (``phantom``: partial argument lists across
documents; ``dup``: duplicated elements).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_golden import with_jobs

from acescore import api
from acescore.cli import main
from acescore.scoring.duplicates import duplicate_warnings

DATA = Path(__file__).parent.parent / "data"
DIAG = DATA / "diagnostics"
EXPECTED = DIAG / "expected"
GOLDEN = DATA / "golden"
BANNER = re.compile(r"^======== (.+) ========$")

DUP_FILE = "ref/DUP_20060512.0001.apf.xml"

# name: (corpus folder, ref, sys, parameter set, -m, options)
CASES = {
    "tiny__heavy__m_s": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "local_2008",
        True,
        dict(summary=True),
    ),
    "tiny__heavy__m_e": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "local_2008",
        True,
        dict(error_mappings=True),
    ),
    "tiny__heavy__m_a_s_d": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "local_2008",
        True,
        dict(all_mappings=True, summary=True, doc_scores=True),
    ),
    "tiny__heavy__P_local_2007_m_s": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "local_2007",
        True,
        dict(summary=True),
    ),
    "tiny__heavy__P_local_2007_m_e": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "local_2007",
        True,
        dict(error_mappings=True),
    ),
    "tiny__heavy__P_local_2007_m_a_s_d": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "local_2007",
        True,
        dict(all_mappings=True, summary=True, doc_scores=True),
    ),
    "tiny__heavy__P_global_2008_a_s": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "global_2008",
        False,
        dict(all_mappings=True, summary=True),
    ),
    "tiny__heavy__P_global_2008_with_mentions_m_a": (
        GOLDEN / "tiny",
        "ref",
        "sys-heavy",
        "global_2008_with_mentions",
        True,
        dict(all_mappings=True),
    ),
    "tiny__ref__c_m": (
        GOLDEN / "tiny",
        "ref",
        "ref",
        "local_2008",
        True,
        dict(check_duplicates=True),
    ),
    "small__heavy__m_a": (
        GOLDEN / "small",
        "ref",
        "sys-heavy",
        "local_2008",
        True,
        dict(all_mappings=True),
    ),
    "small__coref__m_a": (
        GOLDEN / "small",
        "ref",
        "sys-coref",
        "local_2008",
        True,
        dict(all_mappings=True),
    ),
    "global__heavy__P_global_2008_a_s": (
        DIAG / "global",
        "ref",
        "sys-heavy",
        "global_2008",
        False,
        dict(all_mappings=True, summary=True),
    ),
    "global__heavy__P_global_2008_with_mentions_m_a_e": (
        DIAG / "global",
        "ref",
        "sys-heavy",
        "global_2008_with_mentions",
        True,
        dict(all_mappings=True, error_mappings=True),
    ),
    "phantom__sys__P_local_2008_m_e": (
        DIAG / "phantom",
        "ref",
        "sys",
        "local_2008",
        True,
        dict(error_mappings=True),
    ),
    "dup__ref__c_m": (DIAG / "dup", "ref", "ref", "local_2008", True, dict(check_duplicates=True)),
}
for _p in ("local_2008", "local_2007", "global_2008", "global_2008_with_mentions"):
    CASES[f"phantom__sys__P_{_p}_m_a_s"] = (
        DIAG / "phantom",
        "ref",
        "sys",
        _p,
        True,
        dict(all_mappings=True, summary=True),
    )
    CASES[f"dup__ref__R_P_{_p}_c_m_a_s"] = (
        DIAG / "dup",
        DUP_FILE,
        DUP_FILE,
        _p,
        True,
        dict(check_duplicates=True, all_mappings=True, summary=True),
    )

_cache: dict = {}


def run_case(name: str):
    if name not in _cache:
        corpus, ref, sys_, params, mentions, opts = CASES[name]
        _cache[name] = api.score(str(corpus / ref), str(corpus / sys_), params, mentions, **opts)
    return _cache[name]


def expected_text(name: str) -> str:
    with gzip.open(EXPECTED / f"{name}.txt.gz", "rt", encoding="utf-8") as fh:
        return fh.read().split("\n", 1)[1]


def sections(text: str) -> dict:
    out: dict = {"header": []}
    name = "header"
    for line in text.splitlines():
        m = BANNER.match(line)
        if m:
            name = m.group(1)
            while name in out:
                name += "'"
            out[name] = []
        out[name].append(line)
    return out


def describe_differences(expected: str, actual: str) -> str:
    e, a = sections(expected), sections(actual)
    bad = []
    for name in e:
        el, al = e[name], a.get(name, [])
        if el == al:
            continue
        k = next(
            k
            for k in range(max(len(el), len(al)))
            if k >= len(el) or k >= len(al) or el[k] != al[k]
        )
        bad.append(
            f"{name!r}: line {k}: expected {el[k] if k < len(el) else None!r}"
            f" got {al[k] if k < len(al) else None!r}"
        )
    bad += [f"unexpected section {n!r}" for n in a if n not in e]
    return "\n".join(bad)


def test_expected_files_present():
    for name in CASES:
        assert (EXPECTED / f"{name}.txt.gz").exists(), name


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_report_identical(name):
    """The report, and the warnings where the expected set keeps them (one scoring for both:
    as two tests on two workers, each case was scored twice)."""
    res = run_case(name)
    actual = res.to_text()
    expected = expected_text(name)
    if actual != expected:
        pytest.fail("report differs:\n" + describe_differences(expected, actual))
    stderr = EXPECTED / f"{name}.stderr.txt"
    if stderr.exists():

        def lines(t):
            return [ln for ln in t.splitlines() if ln.strip()]

        assert lines("".join(res.warnings)) == lines(stderr.read_text(encoding="utf-8"))


def test_duplicate_warnings_found():
    warnings = "".join(run_case("dup__ref__c_m").warnings)
    for kind, a, b in (
        ("entity", "E1", "E1b"),
        ("value", "V1", "V1b"),
        ("timex2", "T1", "T1b"),
        ("relation", "R1", "R1b"),
        ("event", "EV1", "EV1b"),
        ("mention_entity", "E1-1", "E1b-1"),
    ):
        assert (
            f"equivalent {kind} elements: DUP_20060512.0001-{a} and DUP_20060512.0001-{b}\n"
        ) in warnings
    # twice for entities under local_2008 (mapping and scoring weightings differ)
    assert warnings.count("equivalent entity elements:") == 2


def test_no_duplicate_warnings_without_c():
    res = api.score(str(DIAG / "dup" / "ref"), str(DIAG / "dup" / "ref"), "local_2008", True)
    assert "equivalent" not in "".join(res.warnings)


def test_duplicate_warnings_unit():
    pv = {
        ("A", "A"): 2.0,
        ("A", "B"): 2.0,
        ("A", "C"): 1.9999999999999998,
        ("B", "A"): 2.0,
        ("B", "B"): 2.0,
        ("C", "D"): 0.5,
    }
    values = {"A": 2.0, "B": 2.0, "C": 1.0, "D": 0.5}
    out = duplicate_warnings("entity", values, values, pv)
    # A/C differ only beyond 15 significant digits: equal for the tool
    assert out == [
        "\nWARNING:  equivalent entity elements: A and B\n",
        "\nWARNING:  equivalent entity elements: A and C\n",
    ]


def test_phantom_parts_visible():
    """docs/rules/relations-events.md §12: the SYS argument line with score -0.00000 replaces the REF argument line."""
    text = run_case("phantom__sys__P_local_2008_m_a_s").to_text()
    assert "            Arg-2 score: -0.00000 out of 1.00000, tst ID=SE2\n" in text
    assert "           Seller score: -0.00000 out of 0.00000, tst ID=SE4\n" in text


# ---------------------------------------------------------------------------------------------
# -e prints exactly the flagged subset of the -a blocks (docs/rules/report.md §5.3 "print flag")

MAPPING_BANNER = re.compile(r"^======== (\S+) mapping ========$")


def mapping_blocks(text: str) -> dict:
    """{mapping section: [block text, ...]} of a report."""
    out: dict = {}
    cur = None
    block: list = []
    for line in text.splitlines(keepends=True):
        m = MAPPING_BANNER.match(line.rstrip("\n"))
        if m:
            cur = m.group(1)
            out[cur] = []
            block = []
            continue
        if cur is None:
            continue
        if line.startswith("========"):
            cur = None
            continue
        if line == "\n" and not block:
            continue
        block.append(line)
        if line == "--------\n":
            out[cur].append("".join(block))
            block = []
    return out


DOC_LINE = re.compile(r"^- in document (\S+):")
REF_HEAD = re.compile(r"^(?:>>> |    )ref \S+ ([^\s,]+)")


def flagged(block: str, res, params) -> bool:
    """The print flag of a REF block, from the spec's list of conditions (docs/rules/report.md §5.3): every
    condition shows as a '>>>' line, except (a) the name lines of a document in which only
    one of the two entities occurs, (b) the mention lines of a value/timex2 document in which
    only one of the two elements occurs; and the '>>>   no ref/tst mentions' lines of
    relations and events are not conditions."""
    lines = block.splitlines()
    for ln in lines:
        if ln.startswith(">>>") and ln not in (">>>   no ref mentions", ">>>   no tst mentions"):
            return True
    rid = REF_HEAD.match(lines[0]).group(1)
    sid = res.mapping.get(rid)
    doc = None
    for ln in lines:
        m = DOC_LINE.match(ln)
        if m:
            doc = m.group(1)
            continue
        if doc is None:
            continue
        both = sid is not None and doc in res.ref[rid].docs and doc in res.sys[sid].docs
        if both:
            continue
        if res.kind == "entity" and re.match(r"^         (ref|tst) name +\"", ln):
            return True
        if res.kind in ("value", "timex2") and re.match(r"^      (ref|tst) mention=", ln):
            return True
    return False


def e_versus_a(corpus: Path, sysname: str, params: str, mentions: bool) -> int:
    """Checks that -e prints the flagged REF blocks and all SYS blocks of -a; returns the
    number of REF blocks -e leaves out."""
    a = api.score(
        str(corpus / "ref"),
        str(corpus / sysname),
        params,
        mentions,
        all_mappings=True,
        keep_passes=True,
    )
    e = api.score(str(corpus / "ref"), str(corpus / sysname), params, mentions, error_mappings=True)
    ta, te = a.to_text(), e.to_text()
    # everything but the mapping listings is the same
    strip = re.compile(r"\n======== \S+ mapping ========\n.*?(?=\n======== )", re.S)
    assert strip.sub("", ta) == strip.sub("", te)
    blocks_a, blocks_e = mapping_blocks(ta), mapping_blocks(te)
    assert list(blocks_a) == list(blocks_e)
    by_task = {p.task: p for p in a.passes}
    n_dropped = 0
    for task, blocks in blocks_a.items():
        res = by_task[task]
        want = []
        for b in blocks:
            is_ref = REF_HEAD.match(b) is not None
            assert is_ref or b.startswith(">>> tst "), b[:80]
            if not is_ref or flagged(b, res, a.params):
                want.append(b)
        n_dropped += len(blocks) - len(want)
        assert blocks_e[task] == want, task
    return n_dropped


@pytest.mark.parametrize(
    "corpus,sysname,params,mentions",
    [
        (GOLDEN / "small", "sys-heavy", "local_2008", True),
        (GOLDEN / "small", "sys-coref", "local_2007", True),
        (GOLDEN / "tiny", "sys-heavy", "global_2008", False),
        (DIAG / "global", "sys-heavy", "global_2008_with_mentions", True),
        (DIAG / "phantom", "sys", "global_2008_with_mentions", True),
    ],
)
@pytest.mark.slow
def test_e_prints_flagged_subset_of_a(corpus, sysname, params, mentions):
    assert e_versus_a(corpus, sysname, params, mentions) > 0


@pytest.mark.slow
def test_e_on_freshly_generated_corpus(tmp_path):
    """Same check on a corpus made now by the shared synthetic-corpus generator."""
    from synth import make_corpus

    out = make_corpus(tmp_path / "gen", 6, "diag", "heavy,coref", "--global")
    for sysname in ("sys-heavy", "sys-coref"):
        for params, mentions in (
            ("local_2008", True),
            ("global_2008", False),
            ("global_2008_with_mentions", True),
        ):
            e_versus_a(out, sysname, params, mentions)


_FLAGS = {
    "summary": "-s",
    "error_mappings": "-e",
    "all_mappings": "-a",
    "doc_scores": "-d",
    "check_duplicates": "-c",
}


@pytest.mark.parametrize("name,jobs", with_jobs(sorted(CASES)))
@pytest.mark.slow
def test_cli_report_identical(name, jobs):
    """The command line, for --jobs 1, and 2 or 4 (one process, and document shards where
    the corpus allows them: the only sharded run of each case; test_shards_listings shows
    that tiny and small do go in shards): the report of the NIST tool, and its warnings."""
    corpus, ref, sys_, params, mentions, opts = CASES[name]
    args = ["score", str(corpus / ref), str(corpus / sys_), "-P", params, "--jobs", str(jobs)]
    args.append("--verbose")  # every warning as the NIST tool prints it (default: grouped)
    args += (["-m"] if mentions else []) + [_FLAGS[k] for k, v in opts.items() if v]
    r = CliRunner().invoke(main, args, catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    actual = r.stdout.split("\n", 1)[1]
    expected = expected_text(name)
    if actual != expected:
        pytest.fail("report differs:\n" + describe_differences(expected, actual))
    stderr = EXPECTED / f"{name}.stderr.txt"
    if stderr.exists():

        def lines(t):
            return [ln for ln in t.splitlines() if ln.strip()]

        got = lines(r.stderr)
        if mentions and params == "global_2008":  # acescore's own line first: -m is ignored
            assert got.pop(0).startswith("acescore: warning: -m is ignored: parameter set")
        # (the signature and the coverage line follow the warnings)
        assert got[:-2] == lines(stderr.read_text(encoding="utf-8"))
