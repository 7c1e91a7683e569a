"""acescore compare: the resampling statistics (hand-computed), the per-document
components, the comparison of golden systems, the CLI (--fail-if-worse, JSON) and
score --score-only."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.compare import stats
from acescore.compare.analysis import compare, mapping_changes
from acescore.compare.components import units
from acescore.compare.systems import score_systems, system_names
from acescore.metrics.coref import blanc_from_counts, prf
from acescore.model.options import Options
from acescore.run.pipeline import discover

GOLDEN = Path(__file__).parent.parent / "data" / "golden"
SMALL = GOLDEN / "small"
GLOBAL = Path(__file__).parent.parent / "data" / "diagnostics" / "global"
SCHEMA = json.loads(
    (
        Path(__file__).parent.parent.parent / "acescore" / "schema" / "compare.schema.json"
    ).read_text()
)

# three documents: (cost, REF value) of systems A and B
A = np.array([[1.0, 4.0], [0.0, 2.0], [3.0, 4.0]])  # Value 100 (10 - 4) / 10 = 60
B = np.array([[0.0, 4.0], [0.0, 2.0], [2.0, 4.0]])  # Value 100 (10 - 2) / 10 = 80
W = np.array([[2, 1, 0], [0, 0, 3], [1, 1, 1], [0, 3, 0]], dtype=float)


# ---- statistics, by hand ----------------------------------------------------------------


def test_value_of_summed_components():
    assert stats.nist_value(A.sum(axis=0)) == pytest.approx(60.0)
    assert stats.nist_value(B.sum(axis=0)) == pytest.approx(80.0)
    # the report's floor
    assert stats.nist_value(np.array([50.0, 4.0])) == -999.9


def test_bootstrap_by_hand():
    # resample sums (cost, ref): (2, 10) -> 80, (9, 12) -> 25, (4, 10) -> 60, (0, 6) -> 100
    samples = stats.bootstrap_samples(A, stats.nist_value, W)
    assert samples.tolist() == pytest.approx([80.0, 25.0, 60.0, 100.0])
    # linear quantiles of [25, 60, 80, 100] at 0.025 and 0.975: positions 0.075 and 2.925
    lo, hi = stats.bootstrap_interval(A, stats.nist_value, W, 60.0)
    assert (lo, hi) == pytest.approx((25 + 0.075 * 35, 80 + 0.925 * 20))


def test_paired_bootstrap_by_hand():
    # B - A per resample: 100 - 80, 50 - 25, 80 - 60, 100 - 100
    lo, hi = stats.paired_bootstrap(A, B, stats.nist_value, W, 20.0)
    assert (lo, hi) == pytest.approx((0 + 0.075 * 20, 20 + 0.925 * 5))


def test_approximate_randomization_by_hand():
    masks = np.array(
        [
            [0, 0, 0],  # 80 - 60 = 20: counts
            [1, 0, 0],  # A' cost 3, B' cost 3: 0
            [0, 1, 0],  # document 1 is the same in both: 20, counts
            [0, 0, 1],  # 0
            [1, 0, 1],  # 60 - 80 = -20: counts
            [1, 1, 1],
        ],  # -20: counts
        dtype=bool,
    )
    d = stats.randomized_differences(A, B, stats.nist_value, masks)
    assert d.tolist() == pytest.approx([20, 0, 20, 0, -20, -20])
    assert stats.approximate_randomization(A, B, stats.nist_value, masks) == pytest.approx(5 / 7)


def test_seeded_draws_are_reproducible_and_used_as_drawn():
    d1 = stats.Draws.make(3, 50, 80, 7, "edr")
    d2 = stats.Draws.make(3, 50, 80, 7, "edr")
    d3 = stats.Draws.make(3, 50, 80, 8, "edr")
    assert np.array_equal(d1.weights, d2.weights) and np.array_equal(d1.masks, d2.masks)
    assert not np.array_equal(d1.masks, d3.masks)
    assert (d1.weights.sum(axis=1) == 3).all()
    # each replicate, computed one by one in plain Python from the seeded draws
    by_hand = []
    for w in d1.weights.tolist():
        cost = sum(k * c for k, (c, _) in zip(w, A.tolist()))
        ref = sum(k * r for k, (_, r) in zip(w, A.tolist()))
        by_hand.append(100 * (ref - cost) / ref)
    assert stats.bootstrap_samples(A, stats.nist_value, d1.weights).tolist() == pytest.approx(
        by_hand
    )
    count = 0
    for m in d1.masks.tolist():
        xa = [b if s else a for a, b, s in zip(A.tolist(), B.tolist(), m)]
        xb = [a if s else b for a, b, s in zip(A.tolist(), B.tolist(), m)]
        va = 100 * (1 - sum(c for c, _ in xa) / sum(r for _, r in xa))
        vb = 100 * (1 - sum(c for c, _ in xb) / sum(r for _, r in xb))
        count += abs(vb - va) >= 20 - 1e-9
    assert stats.approximate_randomization(A, B, stats.nist_value, d1.masks) == pytest.approx(
        (count + 1) / 81
    )


def test_identical_systems_and_floor():
    draws = stats.Draws.make(3, 100, 200, 1, "x")
    assert stats.approximate_randomization(A, A, stats.nist_value, draws.masks, 0.0) == 1.0
    assert stats.paired_bootstrap(A, A, stats.nist_value, draws.weights, 0.0) == (0.0, 0.0)
    # a perfect against an empty system on 30 documents: no round reaches |delta| = 100
    rng = np.random.default_rng(0)
    ref = rng.integers(1, 20, size=30).astype(float)
    perfect = np.stack([np.zeros(30), ref], axis=1)
    empty = np.stack([ref, ref], axis=1)
    masks = stats.Draws.make(30, 0, 10000, 5, "edr").masks
    assert stats.approximate_randomization(perfect, empty, stats.nist_value, masks) == 1 / 10001


def test_percentile_interval_contains_point():
    assert stats.percentile_interval(np.array([5.0, 6.0, 7.0]), 9.0) == (pytest.approx(5.05), 9.0)
    assert stats.percentile_interval(np.array([]), 3.0) == (3.0, 3.0)


def test_literature_statistics_match_the_metrics():
    rng = np.random.default_rng(3)
    for _ in range(200):
        c = rng.integers(0, 4, size=6).astype(float)
        assert stats.blanc_f1(c) == pytest.approx(100 * blanc_from_counts(*c)[2])
        assert stats.f1_recall_precision(c[:4]) == pytest.approx(100 * prf(*c[:4])[2])
        correct, nref, nsys = c[0], c[0] + c[1], c[0] + c[2]
        assert stats.f1_counts(np.array([correct, nref, nsys])) == pytest.approx(
            100 * prf(correct, nref, correct, nsys)[2]
        )


# ---- units and mapping changes ------------------------------------------------------------


def test_units_join_linked_documents():
    links = [{"entity": [[0, 1]], "relation": [[3, 4]]}, {"entity": [[1, 2]]}]
    assert units(links, ("entity",), 6).tolist() == [0, 0, 0, 1, 2, 3]
    assert units(links, ("entity", "relation"), 6).tolist() == [0, 0, 0, 1, 1, 2]
    assert units(links, (), 3).tolist() == [0, 1, 2]


def test_mapping_changes():
    t = "text"
    before = {
        "R1": ((t, 0, 4),),
        "R2": None,
        "R3": ((t, 10, 12),),
        "R4": ((t, 20, 25),),
        "R5": None,
    }
    after = {
        "R1": ((t, 3, 6), (t, 40, 44)),  # overlapping head: the same partner
        "R2": ((t, 7, 8),),  # newly mapped
        "R3": None,  # unmapped
        "R4": ((t, 30, 35),),  # another partner
        "R5": None,
    }
    assert mapping_changes(before, after) == (1, 1, 1)


def test_system_names_unique():
    assert system_names(["a/sys", "b/sys/", "c/other"]) == ["sys#1", "sys#2", "other"]


# ---- golden systems -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small():
    scored = score_systems(
        discover(str(SMALL / "ref")),
        [discover(str(SMALL / f"sys-{s}")) for s in ("heavy", "heavy", "perfect", "coref")],
        Options(mentions=True),
        names=["heavy", "heavy2", "perfect", "coref"],
    )
    return scored, compare(scored, bootstrap=300, randomization=2000, seed=11)


def _score_json(sysname: str, *extra) -> dict:
    return json.loads(_score_output(sysname, *extra))


@functools.cache
def _score_output(sysname: str, *extra) -> str:
    """``score ref sys-SYSNAME -m --format json EXTRA`` on the small corpus: run once a test
    process for each set of arguments (four tests read the report of sys-heavy)."""
    r = CliRunner().invoke(
        main,
        [
            "score",
            str(SMALL / "ref"),
            str(SMALL / f"sys-{sysname}"),
            "-m",
            "-q",
            "--format",
            "json",
            *extra,
        ],
    )
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.slow
def test_values_equal_score(small):
    _, result = small
    for s in result["systems"]:
        data = _score_json({"heavy2": "heavy"}.get(s["name"], s["name"]))
        nist = {t: v for t, v in s["tasks"].items() if "." not in t}
        assert set(nist) == set(data["tasks"])
        for task, v in nist.items():
            assert v["value"] == data["tasks"][task]["total"]["value"]
        for m in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
            assert s["tasks"][f"coref.{m}"]["value"] == pytest.approx(
                data["coref"][m]["f1"], abs=1e-9
            )  # JSON: percent
        for t in (
            "trigger_identification",
            "trigger_classification",
            "argument_identification",
            "argument_classification",
        ):
            assert s["tasks"][f"events.{t}"]["value"] == pytest.approx(
                data["events"]["scores"][t]["f1"], abs=1e-9
            )


@pytest.mark.slow
def test_document_components_sum_to_the_value(small):
    scored, _ = small
    for s in scored.systems:
        for t, ts in s.tasks.items():
            f = stats.STATISTICS[ts.statistic]
            assert float(f(ts.x.sum(axis=0))) == pytest.approx(ts.value, abs=1e-9), t


def test_identical_systems_delta_zero_p_one(small):
    _, result = small
    comp = result["comparisons"][0]
    assert comp["system"] == "heavy2"
    for t, c in comp["tasks"].items():
        assert c["delta"] == 0.0 and c["p_value"] == 1.0, t
        assert c["ci_low"] == 0.0 and c["ci_high"] == 0.0
        assert not c["significant"]
        view = comp["documents"][t]
        assert view["moved"] == 0 and view["opposite_sign"] == 0
        assert view.get("mapping_changed", 0) == 0


def test_perfect_against_heavy_p_at_floor(small):
    _, result = small
    comp = result["comparisons"][1]
    assert comp["system"] == "perfect"
    for t in ("edr", "val", "tim", "rdr", "vdr", "emd", "vmd", "coref.muc"):
        c = comp["tasks"][t]
        assert c["delta"] > 0 and c["p_value"] == 1 / 2001 and c["significant"], t
    assert result["systems"][2]["tasks"]["edr"]["value"] == 100.0


def test_every_interval_contains_its_point(small):
    _, result = small
    for s in result["systems"]:
        for t, v in s["tasks"].items():
            assert v["ci_low"] <= v["value"] <= v["ci_high"], (s["name"], t)
    for comp in result["comparisons"]:
        for t, c in comp["tasks"].items():
            assert c["ci_low"] <= c["delta"] <= c["ci_high"], (comp["system"], t)


def test_document_view(small):
    _, result = small
    comp = result["comparisons"][2]  # coref against heavy
    for t in ("edr", "rdr", "emd"):
        view = comp["documents"][t]
        rows = view["per_document"]
        assert len(rows) == 20
        # the REF values are the systems', so the effects add up to the corpus difference
        assert sum(r["effect"] for r in rows) == pytest.approx(comp["tasks"][t]["delta"])
        assert view["opposite_sign"] == sum(r["opposite_sign"] for r in rows)
        assert view["mapping_changed"] == sum(r["mapping_changed"] for r in rows)
        for r in rows:
            if r["opposite_sign"]:
                assert r["effect"] * comp["tasks"][t]["delta"] < 0
        effects = {r["docid"]: abs(r["effect"]) for r in rows}
        top = view["moved_most"]
        assert len(top) == 10
        assert min(effects[d] for d in top) >= max(effects[d] for d in effects if d not in top)


# ---- global parameter sets -------------------------------------------------------------------


@pytest.mark.slow
def test_global_tasks_not_resampled():
    r = CliRunner().invoke(
        main,
        [
            "compare",
            str(GLOBAL / "ref"),
            str(GLOBAL / "sys-heavy"),
            str(GLOBAL / "sys-heavy"),
            "-P",
            "global_2008",
            "--format",
            "json",
            "-q",
            "--bootstrap",
            "50",
            "--ar",
            "50",
            "--fail-if-worse",
            "edr",
        ],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[: r.output.rindex("}") + 1])
    jsonschema.validate(data, SCHEMA)
    edr = data["tasks"]["edr"]
    assert not edr["resampled"] and "link all" in edr["note"]
    assert data["systems"][0]["tasks"]["edr"]["ci_low"] is None
    assert data["comparisons"][0]["tasks"]["edr"]["p_value"] is None


# ---- the command line --------------------------------------------------------------------------


def _compare(*args):
    return CliRunner().invoke(
        main,
        [
            "compare",
            str(SMALL / "ref"),
            *args,
            "-q",
            "--bootstrap",
            "200",
            "--ar",
            "500",
            "--seed",
            "3",
        ],
    )


@functools.cache
def _heavy_and_coref_json() -> str:
    """``compare ref sys-heavy sys-coref --format json`` (read by two tests: run once a test
    process)."""
    r = _compare(str(SMALL / "sys-heavy"), str(SMALL / "sys-coref"), "--format", "json")
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.slow
def test_cli_json_shape_and_signature():
    data = json.loads(_heavy_and_coref_json())
    jsonschema.validate(data, SCHEMA)
    assert data["$schema"] == SCHEMA["$id"]
    assert data["signature"].endswith("|bs:200|ar:500|seed:3")
    assert [s["name"] for s in data["systems"]] == ["sys-heavy", "sys-coref"]
    assert set(data["systems"][0]["tasks"]["edr"]) == {"value", "ci_low", "ci_high"}
    comp = data["comparisons"][0]
    assert (comp["baseline"], comp["system"]) == ("sys-heavy", "sys-coref")
    assert {"delta", "ci_low", "ci_high", "p_value"} <= set(comp["tasks"]["edr"])
    assert (
        comp["documents"]["edr"]["per_document"][0]["docid"]
        == sorted(p.name.replace(".apf.xml", "") for p in (SMALL / "ref").iterdir())[0]
    )


@pytest.mark.slow
def test_cli_text():
    r = _compare(str(SMALL / "sys-heavy"), str(SMALL / "sys-perfect"), "--top", "2")
    assert r.exit_code == 0, r.output
    assert "EDR: entities  (resampled over 20 documents)" in r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("  sys-perfect"))
    assert line.split()[1] == "100.0" and line.endswith("0.0020 *")
    assert "Documents: sys-perfect against sys-heavy (20 documents)" in r.output
    # the signature: on standard error after the text (not with -q), as for score
    assert "signature" not in r.stdout
    r = CliRunner().invoke(
        main,
        [
            "compare",
            str(SMALL / "ref"),
            str(SMALL / "sys-heavy"),
            str(SMALL / "sys-perfect"),
            "--bootstrap",
            "20",
            "--ar",
            "20",
            "--no-literature",
        ],
    )
    assert r.stderr.count("\nsignature: acescore:") == 1


@pytest.mark.slow
def test_cli_fail_if_worse():
    worse = _compare(
        str(SMALL / "sys-perfect"),
        str(SMALL / "sys-heavy"),
        "--fail-if-worse",
        "edr,rdr",
        "-o",
        "/dev/null",
    )
    assert worse.exit_code == 3
    assert "sys-heavy is worse than sys-perfect on edr" in worse.output
    same = _compare(
        str(SMALL / "sys-heavy"),
        str(SMALL / "sys-heavy"),
        "--fail-if-worse",
        "edr",
        "-o",
        "/dev/null",
    )
    assert same.exit_code == 0, same.output
    better = _compare(
        str(SMALL / "sys-heavy"),
        str(SMALL / "sys-perfect"),
        "--fail-if-worse",
        "entity",
        "-o",
        "/dev/null",
    )
    assert better.exit_code == 0, better.output


@pytest.mark.slow
def test_cli_usage_errors():
    r = _compare(str(SMALL / "sys-heavy"))
    assert r.exit_code == 2 and "at least two systems" in r.output
    r = _compare(str(SMALL / "sys-heavy"), str(SMALL / "sys-coref"), "--fail-if-worse", "xyz")
    assert r.exit_code == 2 and "--fail-if-worse: unknown task 'xyz' (compared: edr" in r.output
    r = _compare(str(SMALL / "sys-heavy"), str(SMALL / "nothing-here"))
    assert r.exit_code == 2 and "Traceback" not in r.output


@pytest.mark.slow
def test_score_only():
    r = CliRunner().invoke(
        main, ["score", str(SMALL / "ref"), str(SMALL / "sys-heavy"), "-m", "-q", "--score-only"]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) == 1
    fields = lines[0].split()
    data = _score_json("heavy")
    values = dict(f.split("=") for f in fields[:-1])
    assert list(values) == ["edr", "val", "tim", "rdr", "vdr", "emd", "rmd", "vmd"]
    for task, v in values.items():
        assert v == "%.1f" % data["tasks"][task]["total"]["value"]
    assert fields[-1] == data["signature"]


@pytest.mark.slow
def test_lenient_scores_as_strict_on_clean_input():
    args = [
        str(SMALL / "sys-heavy"),
        str(SMALL / "sys-coref"),
        "--format",
        "json",
        "--no-literature",
    ]
    strict = json.loads(_compare(*args).output)
    lenient = json.loads(_compare(*args, "--lenient").output)
    assert lenient["signature"].replace("|lenient", "") == strict["signature"]
    assert lenient["systems"] == strict["systems"]
    assert lenient["comparisons"] == strict["comparisons"]


@pytest.mark.slow
def test_text_says_why_a_task_is_not_resampled():
    r = CliRunner().invoke(
        main,
        [
            "compare",
            str(GLOBAL / "ref"),
            str(GLOBAL / "sys-heavy"),
            str(GLOBAL / "sys-heavy"),
            "-P",
            "global_2008",
            "-q",
            "--no-literature",
            "--bootstrap",
            "20",
            "--ar",
            "20",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "EDR: entities  (not resampled: elements spanning documents link all" in r.output


@pytest.mark.slow
def test_document_values_equal_score_d(small):
    _, result = small
    data = _score_json("heavy")
    for task in ("edr", "rdr", "emd", "vmd"):
        rows = result["comparisons"][0]["documents"][task]["per_document"]
        expected = data["document_scores"][task]
        for r in rows:
            if r["docid"] in expected:
                assert r["baseline"] == pytest.approx(expected[r["docid"]]["value_pct"], abs=1e-9)


def _empty_system(tmp_path: Path) -> Path:
    """The reference's documents without any element: an empty system output."""
    from lxml import etree

    out = tmp_path / "sys-empty"
    out.mkdir()
    for f in sorted((SMALL / "ref").glob("*.apf.xml")):
        tree = etree.parse(str(f), etree.XMLParser(resolve_entities=False, no_network=True))
        for doc in tree.getroot():
            for el in list(doc):
                doc.remove(el)
        tree.write(str(out / f.name), xml_declaration=True, encoding="UTF-8")
    return out


@pytest.mark.slow
def test_perfect_against_empty(tmp_path):
    empty = _empty_system(tmp_path)
    r = _compare(
        str(SMALL / "sys-perfect"), str(empty), "-m", "--format", "json", "--fail-if-worse", "edr"
    )
    assert r.exit_code == 3
    data = json.loads(r.output[: r.output.rindex("}") + 1])
    assert "sys-empty is worse than sys-perfect on edr" in r.output
    none = data["systems"][1]
    for t in ("edr", "val", "tim", "rdr", "vdr", "emd", "rmd", "vmd"):
        assert none["tasks"][t]["value"] == 0.0
        assert "every REF element missed" in none["tasks"][t]["note"]
        c = data["comparisons"][0]["tasks"][t]
        assert c["delta"] == pytest.approx(-100.0) and c["p_value"] == 1 / 501, t
        view = data["comparisons"][0]["documents"][t]
        assert view["mapping_changed"] == sum(1 for r in view["per_document"] if r["unmapped"])
    assert data["comparisons"][0]["tasks"]["coref.muc"]["p_value"] == 1 / 501


@pytest.mark.slow
def test_documents_against_the_corpus_difference(small):
    _, result = small
    view = result["comparisons"][2]["documents"]["rdr"]  # coref against heavy
    against = [r for r in view["per_document"] if r["opposite_sign"]]
    assert view["opposite_sign"] == len(against) > 0
    assert set(view["opposite_most"]) <= {r["docid"] for r in against}
    assert len(view["opposite_most"]) == min(10, len(against))
    r = _compare(
        str(SMALL / "sys-heavy"), str(SMALL / "sys-coref"), "--top", "3", "--no-literature"
    )
    assert "rdr: documents that moved against the corpus difference" in r.output
    block = r.output.split("rdr: documents that moved against the corpus difference")[1]
    assert block.splitlines()[2].rstrip().endswith("opposite")


@pytest.mark.slow
def test_jobs_do_not_change_the_result():
    args = [
        str(SMALL / "sys-heavy"),
        str(SMALL / "sys-coref"),
        str(SMALL / "sys-perfect"),
        "-m",
        "--format",
        "json",
    ]
    one = _compare(*args, "--jobs", "1")
    two = _compare(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0
    assert one.output == two.output


def test_input_error_in_a_worker(tmp_path):
    bad = tmp_path / "sys-bad"
    bad.mkdir()
    (bad / "x.apf.xml").write_text("<source_file><document DOCID='A'>")
    r = _compare(str(SMALL / "sys-heavy"), str(bad), "--jobs", "2")
    assert r.exit_code == 2
    assert "x.apf.xml" in r.output and "Traceback" not in r.output


@pytest.mark.slow
@pytest.mark.parametrize("params", ["local_2007", "global_2008", "global_2008_with_mentions"])
def test_values_equal_score_other_parameter_sets(params):
    r = _compare(
        str(SMALL / "sys-coref"),
        str(SMALL / "sys-heavy"),
        "-m",
        "-P",
        params,
        "--format",
        "json",
        "--no-literature",
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    jsonschema.validate(data, SCHEMA)
    for s, name in zip(data["systems"], ("coref", "heavy")):
        expected = _score_json(name, "-P", params)["tasks"]
        assert {t: v["value"] for t, v in s["tasks"].items()} == {
            t: v["total"]["value"] for t, v in expected.items()
        }
        for v in s["tasks"].values():
            if v["ci_low"] is not None:
                assert v["ci_low"] <= v["value"] <= v["ci_high"]


@pytest.mark.slow
def test_python_api_equals_cli():
    from acescore.compare import compare_systems

    result = compare_systems(
        str(SMALL / "ref"),
        [str(SMALL / "sys-heavy"), str(SMALL / "sys-coref")],
        mentions=False,
        bootstrap=200,
        randomization=500,
        seed=3,
    )
    cli = json.loads(_heavy_and_coref_json())
    assert json.loads(json.dumps(result)) == cli


@pytest.mark.slow
def test_summary_line_per_system(tmp_path):
    """Issue #14's end-of-run line, once per system and named: a system missing one REF
    document scores 19 of 20, with that document scored as misses."""
    import shutil

    part = tmp_path / "sys-part"
    shutil.copytree(SMALL / "sys-heavy", part)
    dropped = sorted(part.glob("*.apf.xml"))[0]
    dropped.unlink()
    r = CliRunner().invoke(
        main,
        [
            "compare",
            str(SMALL / "ref"),
            str(SMALL / "sys-perfect"),
            str(part),
            "--bootstrap",
            "10",
            "--ar",
            "10",
            "-j",
            "1",
        ],
    )
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("acescore: sys-")]
    assert lines == [
        "acescore: sys-perfect: scored 20 of 20 REF documents; 0 REF documents have no SYS "
        "document (scored as misses); 0 SYS documents have no REF document (ignored)",
        "acescore: sys-part: scored 19 of 20 REF documents; 1 REF documents have no SYS "
        "document (scored as misses); 0 SYS documents have no REF document (ignored)",
    ]
