"""-a/-e/-s and the JSON literature metrics in document shards (acescore.run.shards with
acescore.report.listing_records and acescore.metrics.records): the report, JSON and CSV of
--jobs 2 and 3 are those of one process byte for byte, the runs are really sharded, and
the NIST tool's expected -a/-e/-s reports still match."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from synth import make_corpus

from acescore import api
from acescore.cli import main
from acescore.run import parallel

pytestmark = [
    pytest.mark.slow,  # corpus-scale, subprocesses
    pytest.mark.skipif(not parallel.fork_available(), reason="shards are forked processes (Linux)"),
]

HERE = Path(__file__).parent.parent
GOLDEN = HERE / "data" / "golden"

#: the command lines compared (all with -m): flags -> api.score keywords (-a, -s and the
#: plain JSON alone are parts of the combined sets; -e alone lists what -a does not)
FLAGS = {
    "-e": dict(error_mappings=True),
    "-a -e -s -d": dict(all_mappings=True, error_mappings=True, summary=True, doc_scores=True),
    "--format json -a -s": dict(literature=True, all_mappings=True, summary=True),
    "--format csv -d": dict(doc_scores=True),
}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A synthetic corpus of 9 documents (local IDs: every document can go in a shard)."""
    return make_corpus(tmp_path_factory.mktemp("shard-listings"), 9, "shard-listings", "heavy,args")


def _corpus(name: str, generated: Path) -> tuple[str, str]:
    if name == "generated":
        return str(generated / "ref"), str(generated / "sys-heavy")
    return str(GOLDEN / name / "ref"), str(GOLDEN / name / "sys-heavy")


def _outputs(res) -> tuple:
    return res.to_text(), res.to_json(), res.to_csv(), res.warnings


CORPORA = [
    ("tiny", "local_2008"),
    ("small", "local_2008"),
    ("generated", "local_2008"),
    ("generated", "local_2007"),
]


def _combinations() -> list:
    """(corpus, params, flags, jobs): every corpus with every set of flags, sharded in 2 or 3
    processes in turn (a checkerboard: each corpus and each set of flags meets both values)."""
    return [
        pytest.param(corpus, params, flags, (2, 3)[(i + k) % 2], id=f"{corpus}-{params}-{flags}")
        for i, (corpus, params) in enumerate(CORPORA)
        for k, flags in enumerate(sorted(FLAGS))
    ]


@pytest.mark.parametrize("corpus,params,flags,jobs", _combinations())
def test_identical_for_every_jobs_value(corpus, params, flags, jobs, generated):
    ref, sys_ = _corpus(corpus, generated)
    kw = dict(FLAGS[flags])
    kw.setdefault("literature", False)  # as the command line: only JSON has them
    one = api.score(ref, sys_, params, True, **kw)
    assert getattr(one, "shards", None) is None
    n_docs = len(api.discover(ref))
    res = api.score(ref, sys_, params, True, jobs=jobs, **kw)
    assert getattr(res, "shards", None) == min(jobs, n_docs), "the run was not sharded"
    assert _outputs(res) == _outputs(one)
    if "json" in flags:
        assert one.literature is not None and "coref" in one.to_dict()
    if "-s" in flags:
        assert "======== REF documents ========" in one.to_text()
        assert len(one.to_dict()["summary"]["ref_documents"]) == n_docs
    if "-a" in flags or "-e" in flags:
        assert "======== entity mapping ========" in one.to_text()


def test_more_shards_than_processes(generated, monkeypatch):
    """-a -e -s -d and the JSON's literature metrics in more shards than processes (a
    corpus over --jobs x SHARD_REF_BYTES): the outputs of one process."""
    from acescore.run import shards

    ref, sys_ = _corpus("generated", generated)
    kw = dict(
        all_mappings=True, error_mappings=True, summary=True, doc_scores=True, literature=True
    )
    one = api.score(ref, sys_, "local_2008", True, **kw)
    total = sum(Path(p).stat().st_size for p in api.discover(ref))
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", total // 4 + 1)
    res = api.score(ref, sys_, "local_2008", True, jobs=2, **kw)
    # four shards' worth, the last round's two in halves and quarters (shards.shard_shares):
    # eight cuts asked for, but a cut falls between REF files only, and with 9 documents
    # some coincide: six shards
    assert getattr(res, "shards", None) == 6
    assert _outputs(res) == _outputs(one)


@pytest.mark.parametrize("params", ["global_2008", "global_2008_with_mentions"])
def test_global_sets_in_linked_shards(params):
    """Global sets: the shards of linked documents (acescore.run.shards.plan) list and merge
    alike."""
    ref, sys_ = str(GOLDEN / "small" / "ref"), str(GOLDEN / "small" / "sys-heavy")
    kw = dict(all_mappings=True, error_mappings=True, summary=True, literature=True)
    one = api.score(ref, sys_, params, True, **kw)
    res = api.score(ref, sys_, params, True, jobs=3, **kw)
    assert getattr(res, "shards", None) == 3
    assert _outputs(res) == _outputs(one)


def test_literature_counts_merge_in_document_order():
    """B-cubed and CEAF are floating-point sums over the documents: the merge adds the
    shards' per-document counts in DOCID order, as one process does, not the shards'
    subtotals."""
    from acescore.metrics.coref import coref_from_documents, summed_counts

    docs = [
        (
            "D1",
            {
                "muc": (1, 2, 1, 2),
                "bcub": (0.1, 1, 0.1, 1),
                "ceafm": (0.2, 1, 0.2, 1),
                "ceafe": (0.7, 1, 0.7, 1),
                "blanc": (1, 1, 1, 1, 1, 1),
            },
            (1, 1, 1),
        ),
        (
            "D2",
            {
                "muc": (0, 1, 0, 1),
                "bcub": (0.2, 1, 0.2, 1),
                "ceafm": (0.1, 1, 0.1, 1),
                "ceafe": (0.1, 1, 0.1, 1),
                "blanc": (0, 1, 0, 1, 0, 1),
            },
            (2, 2, 0),
        ),
        (
            "D3",
            {
                "muc": (0, 1, 0, 1),
                "bcub": (0.3, 1, 0.3, 1),
                "ceafm": (0.3, 1, 0.3, 1),
                "ceafe": (0.2, 1, 0.2, 1),
                "blanc": (0, 1, 0, 1, 0, 1),
            },
            (1, 0, 0),
        ),
    ]
    total = summed_counts(c for _, c, _ in docs)
    assert total["bcub"][0] == (0.1 + 0.2) + 0.3 != 0.1 + (0.2 + 0.3)
    out = coref_from_documents(docs)
    assert out["mentions"] == {"ref": 4, "sys": 3, "aligned": 1}
    assert out["muc"]["recall"] == 1 / 4


def test_docs_in_shards():
    """--docs: every shard reads all its files and keeps the listed documents; the warning
    for listed DOCIDs that a side lacks comes first, as in one process."""
    ref, sys_ = str(GOLDEN / "small" / "ref"), str(GOLDEN / "small" / "sys-heavy")
    docids = sorted(Path(p).name[: -len(".apf.xml")] for p in api.discover(ref))
    listed = docids[1::3] + ["NOT_THERE_1"]
    kw = dict(docs=listed, summary=True, all_mappings=True, doc_scores=True, literature=True)
    one = api.score(ref, sys_, "local_2008", True, **kw)
    assert one.warnings[0].startswith("acescore: warning: docs=: 1 of the")
    assert one.to_dict()["summary"]["ref_documents"] == docids[1::3]
    for jobs in (2, 3):
        res = api.score(ref, sys_, "local_2008", True, jobs=jobs, **kw)
        assert getattr(res, "shards", None) == jobs
        assert _outputs(res) == _outputs(one)


#: broken corpora of three documents (tests/data/robust) that go in two shards
SHARDED_CASES = [
    "combined",
    "sys_truncated",
    "ref_entity_defined_twice",
    "ref_cascade_argument_skipped",
    "ref_dangling_argument",
    "sys_mention_id_twice",
    "sys_event_argument_twice",
    "sys_symmetric_relation_same_entity",
]
#: and some that cannot (a file the plan cannot read, a document in two SYS files, ...);
#: with three shards one document's relations (or events) have no SYS counterpart in its
#: shard, so the run goes in one process (acescore.run.assemble.consistent)
ROBUST_CASES = SHARDED_CASES + [
    "ref_malformed_xml",
    "sys_docid_in_two_files",
    "sys_data_type_differs",
    "global_attribute_conflict",
]


@pytest.mark.parametrize("case", ROBUST_CASES)
def test_lenient_in_shards(case, tmp_path):
    """--lenient: every shard isolates the problems of its documents; the skips merge in
    their canonical order (acescore.rules.robust), the report and JSON are one process's."""
    sys.path.insert(0, str(HERE / "data" / "robust"))
    import make_robust

    make_robust.write_case(case, "broken", str(tmp_path))
    ref, sys_ = str(tmp_path / "ref"), str(tmp_path / "sys")
    kw = dict(lenient=True, summary=True, all_mappings=True, literature=True)
    one = api.score(ref, sys_, "local_2008", True, **kw)
    assert one.skipped
    for jobs in (2, 3):
        res = api.score(ref, sys_, "local_2008", True, jobs=jobs, **kw)
        if jobs == 2 and case in SHARDED_CASES:
            assert getattr(res, "shards", None) == 2, "the run was not sharded"
        assert _outputs(res) == _outputs(one)
        assert res.skipped.lines() == one.skipped.lines()
        assert res.coverage == one.coverage


def test_command_line_text_and_json(tmp_path, generated):
    """The command line: text output leaves the listings' JSON data out (listing_data), in
    one process and in shards alike; --jobs 1 and 2 write the same files."""
    ref, sys_ = _corpus("generated", generated)
    outs = {}
    for jobs in ("1", "2"):
        for fmt in ("text", "json"):
            out = tmp_path / f"{jobs}.{fmt}"
            args = ["score", ref, sys_, "-m", "-a", "-s", "-q", "--format", fmt]
            r = CliRunner().invoke(main, [*args, "--jobs", jobs, "-o", str(out)])
            assert r.exit_code == 0, r.stderr
            text = out.read_text(encoding="utf-8")
            outs[(jobs, fmt)] = text.split("\n", 1)[1] if fmt == "text" else text
    assert outs[("1", "text")] == outs[("2", "text")]
    assert outs[("1", "json")] == outs[("2", "json")]
    assert '"mappings"' in outs[("1", "json")] and "entity mapping" in outs[("1", "text")]
    kw = dict(all_mappings=True, literature=False, listing_data=False)
    from acescore.model.options import Options
    from acescore.run.shards import score_paths

    opts = Options(params="local_2008", mentions=True, jobs=2, **kw)
    res = score_paths(api.discover(ref), api.discover(sys_), opts)
    assert res is not None and "mappings" not in res.to_dict()["tasks"]["edr"]


@pytest.mark.parametrize("params", ["local_2008", "local_2007"])
def test_duplicate_check_in_shards(tmp_path, params):
    """-c: each valuation's duplicate warnings are a phase of their own; on copies of the
    hand-made duplicate document (IDs prefixed with their DOCID) the warnings of --jobs 2
    and 3 are one process's, in the same order."""
    text = (HERE / "data" / "diagnostics" / "dup" / "ref" / "DUP_20060512.0001.apf.xml").read_text(
        encoding="utf-8"
    )
    for k in range(1, 5):
        docid = f"DUP_20060512.000{k}"
        (tmp_path / f"{docid}.apf.xml").write_text(
            text.replace("DUP_20060512.0001", docid), encoding="utf-8"
        )
    one = api.score(
        str(tmp_path), str(tmp_path), params, True, check_duplicates=True, all_mappings=True
    )
    assert sum("equivalent" in w for w in one.warnings) >= 4 * 6
    for jobs in (2, 3):
        res = api.score(
            str(tmp_path),
            str(tmp_path),
            params,
            True,
            check_duplicates=True,
            all_mappings=True,
            jobs=jobs,
        )
        assert getattr(res, "shards", None) == jobs
        assert res.warnings == one.warnings
        assert _outputs(res) == _outputs(one)
