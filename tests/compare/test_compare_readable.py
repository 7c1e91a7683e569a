"""acescore compare, readable and trustworthy (issue 36 item 7, issue 35 classes 9 and 10):
the gates checked before any work (NaN, empty values, bounded draws), nothing to score is
exit 2, systems named by --name or their folder, the header says a system's missing REF
documents, one footnote, a note where the interval and the p-value disagree, and the
per-document effect read with its sign."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.compare.analysis import check_parameters, disagreement
from acescore.compare.names import default_name, system_names
from acescore.model.errors import AceUsageError

GOLDEN = Path(__file__).parent.parent / "data" / "golden"
SMALL = GOLDEN / "small"


def _run(*args):
    return CliRunner().invoke(main, ["compare", *args])


def _small(*args, bootstrap: int = 0, ar: int = 0):
    """compare on the small golden corpus (REF added), NIST tasks only, quiet."""
    draws = ["--bootstrap", str(bootstrap), "--ar", str(ar)]
    return _run(str(SMALL / "ref"), *map(str, args), "-q", "--no-literature", *draws)


# ---- gates: refused before anything is read ----------------------------------------------

#: REF does not exist: a gate error (and not "no such file") shows the gate was checked first
NOWHERE = ["no-such-ref", "no-such-a", "no-such-b"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--alpha", "nan"], "'nan' is not a number between 0 and 1 (exclusive), e.g. 0.05"),
        (["--alpha", "inf"], "'inf' is not a number between 0 and 1 (exclusive), e.g. 0.05"),
        (["--alpha", "0"], "'0' is not a number between 0 and 1 (exclusive)"),
        (["--bootstrap", "1000000000000"], "1000000000000 is not in the range 0<=x<=20000"),
        (["--ar", "1000000000000"], "1000000000000 is not in the range 0<=x<=1000000"),
        (["--bootstrap", "1e12"], "'1e12' is not a valid integer range"),
        (["--fail-if-worse", ""], "--fail-if-worse '': give one or more tasks, TASK[,TASK]"),
        (["--fail-if-worse", " , "], "--fail-if-worse ' , ': give one or more tasks"),
        (["--fail-if-worse", "edr,xyz"], "--fail-if-worse: unknown task 'xyz' (compared: edr,"),
        (["--fail-if-worse", "emd"], "--fail-if-worse: emd is not compared in this run (add -m)"),
        (
            ["--fail-if-worse", "coref.muc", "--no-literature"],
            "coref.muc is not compared in this run (--no-literature leaves it out)",
        ),
        (
            ["-m", "-P", "global_2008", "--fail-if-worse", "rmd"],
            "rmd is not compared in this run (parameter set global_2008 scores no mentions)",
        ),
        (["--name", "a"], "--name given 1 time(s) for 2 systems"),
    ],
)
def test_gates_refused_before_any_work(args, message):
    r = _run(*NOWHERE, *args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert "no-such" not in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_api_checks_the_parameters():
    for bad in ((10**12, 10, 0.05), (10, 10**12, 0.05), (10, 10, float("nan")), (-1, 10, 0.05)):
        with pytest.raises(AceUsageError):
            check_parameters(*bad)
    check_parameters(0, 0, 0.5)  # no error


@pytest.mark.slow
def test_no_docid_in_common_is_nothing_to_score():
    r = _run(
        str(SMALL / "ref"),
        str(SMALL / "sys-heavy"),
        str(GOLDEN / "tiny" / "ref"),
        "-q",
        "--no-literature",
        "--bootstrap",
        "10",
        "--ar",
        "10",
        "--fail-if-worse",
        "edr",
    )
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr.strip() == (
        "acescore: nothing to score: SYS ref (3 documents) has no DOCID in common with REF"
        " (20 documents, e.g. SYNBC_20030529.0019): the systems cannot be compared"
    )


# ---- names -----------------------------------------------------------------------------


def test_default_names(tmp_path):
    release = tmp_path / "release"
    for genre in ("bc", "nw"):
        (release / genre / "fp1").mkdir(parents=True)
        (release / genre / "fp1" / f"{genre}1.apf.xml").write_text("x")
    mixed = tmp_path / "mixed.list"
    mixed.write_text(f"{release}/bc/fp1/bc1.apf.xml\n{tmp_path}/other.apf.xml\n")
    fp1 = [str(p) for p in sorted(release.glob("*/fp1/*.apf.xml"))]
    assert default_name(str(tmp_path / "fp1.list"), fp1) == "fp1"  # the folder, not the list
    assert default_name(str(mixed), [fp1[0], str(tmp_path / "other.apf.xml")]) == "mixed"
    assert default_name(str(release / "bc" / "fp1") + "/", fp1[:1]) == "fp1"
    assert default_name(fp1[0], fp1[:1]) == "bc1"
    assert system_names(["a/sys", "b/sys"], [["a/sys/x.apf.xml"], ["b/sys/x.apf.xml"]]) == [
        "sys#1",
        "sys#2",
    ]
    assert system_names(["a", "b"], [[], []], ("base", "new")) == ["base", "new"]
    with pytest.raises(AceUsageError, match="--name 'x' names two systems"):
        system_names(["a", "b"], [[], []], ("x", "x"))
    with pytest.raises(AceUsageError, match="a name is a non-empty line"):
        system_names(["a", "b"], [[], []], ("x", " "))


@pytest.mark.slow
def test_list_files_named_by_their_folder_and_name_option(tmp_path):
    lists = [tmp_path / "heavy.list", tmp_path / "coref.list"]
    for lst, name in zip(lists, ("sys-heavy", "sys-coref"), strict=True):
        lst.write_text("".join(f"{p}\n" for p in sorted((SMALL / name).glob("*.apf.xml"))))
    args = [str(SMALL / "ref"), *map(str, lists), "-q", "--bootstrap", "10", "--ar", "10"]
    args += ["--no-literature", "--format", "json"]
    data = json.loads(_run(*args).output)
    assert [s["name"] for s in data["systems"]] == ["sys-heavy", "sys-coref"]
    data = json.loads(_run(*args, "--name", "before", "--name", "after").output)
    assert [s["name"] for s in data["systems"]] == ["before", "after"]
    assert (data["comparisons"][0]["baseline"], data["comparisons"][0]["system"]) == (
        "before",
        "after",
    )


# ---- the report ------------------------------------------------------------------------


@pytest.mark.slow
def test_header_says_missing_documents_and_one_footnote(tmp_path):
    part = tmp_path / "sys-part"
    shutil.copytree(SMALL / "sys-heavy", part)
    sorted(part.glob("*.apf.xml"))[0].unlink()
    extra = tmp_path / "sys-extra"
    shutil.copytree(SMALL / "sys-heavy", extra)
    shutil.copy(
        GOLDEN
        / "tiny"
        / "ref"
        / sorted(p.name for p in (GOLDEN / "tiny" / "ref").glob("*.apf.xml"))[0],
        extra,
    )
    r = _run(
        str(SMALL / "ref"),
        str(SMALL / "sys-heavy"),
        str(part),
        str(extra),
        "-q",
        "--bootstrap",
        "20",
        "--ar",
        "20",
    )
    assert r.exit_code == 0, r.output
    head = r.output.split("\n\n")[0].splitlines()
    assert head[2:] == [
        "sys-part: 1 of 20 REF documents missing (scored as misses)",
        "sys-extra: 1 document not in REF (ignored)",
    ]
    assert r.output.count("* p < 0.05 (paired approximate randomization)") == 1
    data = json.loads(
        _run(
            str(SMALL / "ref"),
            str(SMALL / "sys-heavy"),
            str(part),
            "-q",
            "--bootstrap",
            "20",
            "--ar",
            "20",
            "--format",
            "json",
        ).output
    )
    assert data["systems"][1]["coverage"] == {
        "ref": 20,
        "sys": 19,
        "scored": 19,
        "ref_without_sys": 1,
        "sys_without_ref": 0,
    }


def test_disagreement_notes():
    c = {"ci_low": 1.0, "ci_high": 5.0, "p_value": 0.09}
    assert disagreement(c, 0.95, 0.05, 10, 20) == (
        "the 95% interval excludes 0 but p = 0.0900 >= 0.05: with --ar 10 p cannot fall below"
        " 1/(10 + 1) = 0.0909; raise --ar"
    )
    assert disagreement(c, 0.95, 0.01, 10000, 20).endswith(
        "the interval is at 95%, the test at alpha 0.01 (a stricter level)"
    )
    generic = disagreement(c, 0.95, 0.05, 10000, 12)
    assert generic.startswith("the 95% interval excludes 0 but p = 0.0900 >= 0.05: a percentile")
    assert "few units (12 here)" in generic and "--fail-if-worse" in generic
    assert disagreement(
        {"ci_low": -1.0, "ci_high": 5.0, "p_value": 0.01}, 0.95, 0.05, 99, 20
    ).startswith("p = 0.0100 < 0.05 but the 95% interval contains 0: a percentile bootstrap")
    assert (
        disagreement({"ci_low": -1.0, "ci_high": 5.0, "p_value": 0.5}, 0.95, 0.05, 99, 20) is None
    )
    assert (
        disagreement({"ci_low": 1.0, "ci_high": 5.0, "p_value": 0.01}, 0.95, 0.05, 99, 20) is None
    )
    assert disagreement({"ci_low": None, "ci_high": None, "p_value": 0.5}, 0.95, 0.05, 9, 2) is None


@pytest.mark.slow
def test_disagreement_note_in_the_report():
    r = _small(SMALL / "sys-heavy", SMALL / "sys-coref", bootstrap=100, ar=10)
    assert r.exit_code == 0, r.output
    edr = r.output.split("EDR: entities")[1].split("\n\n")[0].splitlines()
    assert edr[-1] == (
        "  sys-coref: the 95% interval excludes 0 but p = 0.0909 >= 0.05: with --ar 10 p cannot"
        " fall below 1/(10 + 1) = 0.0909; raise --ar"
    )


@pytest.mark.slow
def test_effect_is_the_documents_contribution(tmp_path):
    """With the baseline's output for a document, the corpus difference changes by
    -effect: compare heavy with coref, then with coref whose top document is heavy's."""
    data = json.loads(_small(SMALL / "sys-heavy", SMALL / "sys-coref", "--format", "json").output)
    comp = data["comparisons"][0]
    docid = comp["documents"]["edr"]["moved_most"][0]
    row = next(r for r in comp["documents"]["edr"]["per_document"] if r["docid"] == docid)
    mixed = tmp_path / "sys-mixed"
    shutil.copytree(SMALL / "sys-coref", mixed)
    name = f"{docid}.apf.xml"
    shutil.copy(SMALL / "sys-heavy" / name, mixed / name)
    again = json.loads(_small(SMALL / "sys-heavy", mixed, "--format", "json").output)
    delta = again["comparisons"][0]["tasks"]["edr"]["delta"]
    assert row["effect"] > 1
    assert delta == pytest.approx(comp["tasks"]["edr"]["delta"] - row["effect"], abs=1e-9)
    text = _small(SMALL / "sys-heavy", SMALL / "sys-coref").output
    assert (
        "  effect: a document's contribution to the corpus difference (with sys-heavy's output"
        " for the document, the difference changes by -effect)"
    ) in text


# ---- --docs restricts compare as it restricts score ------------------------------------------


def test_docs_restricts_the_compared_documents(tmp_path):
    """compare --docs scores only the listed documents (it was silently ignored: every
    document was compared), and each system's Value is the one score --docs prints."""
    docs = tmp_path / "docs.txt"
    docs.write_text("SYNBC_20030529.0019\nSYNBC_20050105.0002\nSYNBC_20050319.0005\n")
    r = _small(SMALL / "sys-heavy", SMALL / "sys-coref", "--docs", docs, "--format", "json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["documents"] == 3
    edr = {s["name"]: s["tasks"]["edr"]["value"] for s in got["systems"]}
    for name in ("sys-heavy", "sys-coref"):
        s = CliRunner().invoke(
            main,
            ["score", str(SMALL / "ref"), str(SMALL / name), "--docs", str(docs)]
            + ["--score-only", "-q"],
        )
        assert s.exit_code == 0, s.output
        assert f"edr={edr[name]:.1f} " in s.output
