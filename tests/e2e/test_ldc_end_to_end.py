"""The LDC-like corpus (tests/ldc_like.py), first try, every command (issue #14, points 2-5):
the shared options everywhere, the summary line, nothing to score, --docs, --lenient on the
defects of real annotation."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner
from ldc_like import DEFECTIVE, make_ldc_like

from acescore.cli import main

CLEAN = ("bc", "cts", "wl")
READERS = ("score", "coref", "events", "view")
SUMMARY = re.compile(
    r"^acescore: scored (\d+) of (\d+) REF documents; (\d+) REF documents "
    r"have no SYS document \(scored as misses\); (\d+) SYS documents "
    r"have no REF document \(ignored\)(; lenient: skipped (\d+) "
    r"elements? and (\d+) documents?)?$",
    re.M,
)


@pytest.fixture(scope="module")
def ldc(tmp_path_factory):
    return make_ldc_like(str(tmp_path_factory.mktemp("ldc")))


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in r.output
    return r


def command(cmd, ref, sys_, out, *extra):
    """``cmd REF SYS`` writing to ``out`` (a file, or the view's folder: -O)."""
    return run(cmd, ref, sys_, "-O" if cmd == "view" else "-o", out, *extra)


def summary(output: str) -> tuple:
    m = SUMMARY.findall(output)
    assert len(m) == 1, output
    return tuple(int(x) if x else None for i, x in enumerate(m[0]) if i != 4)


@pytest.mark.slow
@pytest.mark.parametrize("cmd", READERS)
def test_clean_genres_every_command(ldc, tmp_path, cmd):
    for genre in CLEAN:
        r = command(cmd, ldc.folder(genre), ldc.folder(genre, "fp1"), tmp_path / genre)
        assert r.exit_code == 0, r.output
        assert summary(r.output) == (1, 1, 0, 0, None, None)
        assert "WARNING" not in r.output or cmd != "score"


@pytest.mark.slow
@pytest.mark.parametrize("cmd", READERS)
def test_defective_genres_strict_then_lenient(ldc, tmp_path, cmd):
    for genre in DEFECTIVE:
        adj, fp1 = ldc.folder(genre), ldc.folder(genre, "fp1")
        r = command(cmd, adj, fp1, tmp_path / genre)
        assert r.exit_code == 2
        lines = r.output.splitlines()
        assert len(lines) == 1 and lines[0].startswith("acescore: ") and genre in lines[0]
        assert not (tmp_path / genre).exists()
        r = command(cmd, adj, fp1, tmp_path / genre, "--lenient")
        assert r.exit_code == 0, r.output
        ndefects = sum(1 for d in ldc.docs if d.genre == genre for _ in d.defects)
        got = summary(r.output)
        assert got[:4] == (1, 1, 0, 0)
        assert got[4:] == (ndefects, 0)  # each defect one element skipped, no document
        r = command(cmd, adj, fp1, tmp_path / (genre + "-q"), "--lenient", "-q")
        assert r.exit_code == 0 and r.output.strip() in (
            "",
            str(tmp_path / (genre + "-q") / "index.html"),
        )


@pytest.mark.slow
def test_shared_options_on_every_command(ldc, tmp_path):
    adj, fp1 = ldc.folder("bc"), ldc.folder("bc", "fp1")
    for cmd in READERS + ("crosscheck", "compare"):
        r = run(cmd, "--help")
        for opt in (
            "--lenient",
            "-q",
            "-P",
            "--max-file-size",
            "--docs",
            "-O" if cmd == "view" else "-o",
            "--format",
        ):
            assert re.search(rf"(^|[\s,]){re.escape(opt)}[\s,=]", r.output), (cmd, opt)
    for cmd in ("score", "coref", "events"):
        out = tmp_path / f"{cmd}.json"
        r = command(
            cmd,
            adj,
            fp1,
            out,
            "-q",
            "--format",
            "JSON",
            "-P",
            "local_2007",
            "--max-file-size",
            "1M",
            "--lenient",
        )
        assert r.exit_code == 0, r.output
        d = json.loads(out.read_text())
        assert "params:local_2007" in d["signature"] and "|lenient" in d["signature"]
        r = command(cmd, adj, fp1, out, "--max-file-size", "1K")
        assert r.exit_code == 2 and "larger than the limit of 1024 bytes" in r.output


@pytest.mark.slow
def test_summary_counts_in_json(ldc, tmp_path):
    ref = tmp_path / "ref.list"
    sys_ = tmp_path / "sys.list"
    pick = lambda g, f: os.path.join(ldc.folder(g, f), ldc.docids(g)[0] + ".apf.xml")  # noqa
    ref.write_text("".join(pick(g, "adj") + "\n" for g in ("bc", "cts")))
    sys_.write_text("".join(pick(g, "fp1") + "\n" for g in ("cts", "wl")))
    r = run("score", ref, sys_, "-m", "--format", "json", "-o", tmp_path / "s.json")
    assert r.exit_code == 0, r.output
    assert summary(r.output) == (1, 2, 1, 1, None, None)
    assert "system output for unevaluated document" not in r.output  # folded
    assert "has no corresponding tst doc" in r.output
    d = json.loads((tmp_path / "s.json").read_text())
    assert d["documents"] == {
        "ref": 2,
        "sys": 2,
        "scored": 1,
        "ref_without_sys": 1,
        "sys_without_ref": 1,
    }
    r = run("score", ref, sys_, "-m", "-o", tmp_path / "s.txt", "--verbose")
    assert r.output.count("system output for unevaluated document") == 1
    assert summary(r.output) == (1, 2, 1, 1, None, None)


def test_nothing_to_score(ldc, tmp_path):
    nw, bc = ldc.folder("nw"), ldc.folder("bc", "fp1")
    for cmd in READERS:
        r = command(cmd, ldc.folder("bc"), ldc.folder("cts", "fp1"), tmp_path / "x")
        assert r.exit_code == 2
        assert r.output.splitlines() == [
            f"acescore: nothing to score: REF {ldc.folder('bc')} (1 document, e.g."
            f" {ldc.docids('bc')[0]}) and SYS {ldc.folder('cts', 'fp1')} (1 document, e.g."
            f" {ldc.docids('cts')[0]}) have no DOCID in common"
        ]
    # said before the defects of the input: they would not be scored anyway
    r = run("coref", nw, bc)
    assert r.exit_code == 2 and r.output.startswith("acescore: nothing to score: REF")
    sgm = os.path.join(bc, ldc.docids("bc")[0] + ".sgm")
    page = tmp_path / "page.html"
    page.write_text("<!DOCTYPE html>\n<html><body>results</body></html>\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    for spec, what in (
        (sgm, "an ACE source document (.sgm), not an APF annotation"),
        (page, "an HTML file"),
    ):
        r = run("score", nw, spec)
        assert r.exit_code == 2
        assert r.output.splitlines() == [
            f"acescore: nothing to score: SYS {spec} holds no APF document: {what}"
        ]
    r = run("score", empty, nw)
    assert r.exit_code == 2 and len(r.output.splitlines()) == 1 and str(empty) in r.output


@pytest.mark.slow
def test_docs_restricts_both_sides(ldc, tmp_path):
    ref = tmp_path / "ref.list"
    sys_ = tmp_path / "sys.list"
    pick = lambda g, f: os.path.join(ldc.folder(g, f), ldc.docids(g)[0] + ".apf.xml")  # noqa
    ref.write_text("".join(pick(g, "adj") + "\n" for g in CLEAN))
    sys_.write_text("".join(pick(g, "fp1") + "\n" for g in CLEAN))
    split = tmp_path / "test.txt"
    split.write_text(f"# test split\n{ldc.docids('bc')[0]}\n\nwl/{ldc.docids('wl')[0]}.sgm\n")
    for cmd in READERS:
        r = command(cmd, ref, sys_, tmp_path / f"d-{cmd}", "--docs", split)
        assert r.exit_code == 0, r.output
        assert summary(r.output) == (2, 2, 0, 0, None, None)
    d = json.loads(run("score", ref, sys_, "--docs", split, "-q", "--format", "json").output)
    assert sorted(d["document_scores"]["edr"]) == sorted([ldc.docids("bc")[0], ldc.docids("wl")[0]])
    other = tmp_path / "other.txt"
    other.write_text("NOT_A_DOC\n")
    r = run("score", ref, sys_, "--docs", other)
    assert r.exit_code == 2 and "nothing to score" in r.output


def test_crosscheck_lenient_and_nist_failure(ldc, tmp_path):
    """The NIST tool cannot score the defective genres: crosscheck says so (exit 4) once
    acescore, in lenient mode, could."""
    fake = tmp_path / "nist.pl"
    fake.write_text(
        "print STDERR \"FATAL INPUT ERROR:  symmetric relation 'R' must have"
        " exactly 2 'Arg' arguments, but:\\n        Arg arguments: 'E2'\\n\";"
        " exit 255;\n"
    )
    env = dict(os.environ, ACE_NIST_SCORER=str(fake))
    r = CliRunner().invoke(
        main,
        ["crosscheck", ldc.folder("nw"), ldc.folder("nw", "fp1"), "--lenient", "-q", "--runs", "1"],
        env=env,
    )
    assert r.exit_code == 4
    assert r.output.splitlines()[-1] == (
        "acescore: the NIST tool failed (exit status 255): FATAL INPUT ERROR: symmetric"
        " relation 'R' must have exactly 2 'Arg' arguments, but: Arg arguments: 'E2'"
    )


def test_crosscheck_output_options(ldc, tmp_path):
    """crosscheck -o/--format (case-insensitive) on a clean genre, against a stand-in tool
    that prints acescore's own report (so: identical)."""
    adj, fp1 = ldc.folder("wl"), ldc.folder("wl", "fp1")
    report = tmp_path / "report.txt"
    assert run("score", adj, fp1, "-q", "-o", report).exit_code == 0
    fake = tmp_path / "nist.pl"
    fake.write_text(f'open(F, "<", "{report}"); print while <F>;\n')
    env = dict(os.environ, ACE_NIST_SCORER=str(fake))
    out = tmp_path / "cmp.json"
    r = CliRunner().invoke(
        main,
        ["crosscheck", str(adj), str(fp1), "--format", "Json", "-o", str(out), "-q", "--runs", "1"],
        env=env,
    )
    assert r.exit_code == 0, r.output
    d = json.loads(out.read_text())
    assert d["identical"] is True and d["differing_lines"] == 0 and d["lines"] > 100
    assert d["inputs"] == {"ref": str(adj), "sys": str(fp1)}
    assert [s["name"] for s in d["sections"]][:2] == ["header", "entity scoring"]
    assert d["signature"].startswith("acescore:0.1.0|params:local_2008|nist:ace08|flags:-|")
