"""Issue #36 ("Field, second pass"), items 1, 3 and 5 on the LDC-like corpus: lenient
everywhere (a list entry naming nothing), nothing silently ignored, a readable standard
error."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from ldc_like import make_ldc_like

from acescore import api
from acescore.cli import main
from acescore.compare import compare_systems
from acescore.model.errors import AceUsageError
from acescore.rules.grouping import kind_of


@pytest.fixture(scope="module")
def ldc(tmp_path_factory):
    return make_ldc_like(str(tmp_path_factory.mktemp("ldc")), per_genre=2, docs=60)


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in r.output
    return r


def apf(ldc, genre, folder, k=0):
    return os.path.join(ldc.folder(genre, folder), ldc.docids(genre)[k] + ".apf.xml")


def lists(ldc, tmp_path, genres=("bc", "cts")):
    """REF and SYS list files of the clean genres, each with an entry that names nothing."""
    out = []
    for folder in ("adj", "fp1"):
        p = tmp_path / f"{folder}.list"
        entries = [apf(ldc, g, folder, k) for g in genres for k in (0, 1)]
        p.write_text("\n".join(entries + [f"{ldc.folder('bc', folder)}/GONE.apf.xml"]) + "\n")
        out.append(p)
    return out


GONE_SKIP = re.compile(r"GONE\.apf\.xml: cannot open: No such file or directory")


@pytest.mark.slow
def test_missing_list_entry_lenient_every_command(ldc, tmp_path):
    ref, sys_ = lists(ldc, tmp_path)
    for cmd in ("score", "coref", "events", "view"):
        out = tmp_path / cmd
        r = run(cmd, "-r", ref, "-t", sys_, "-O" if cmd == "view" else "-o", out, "--lenient")
        assert r.exit_code == 0, (cmd, r.output)
        assert "skipped 0 elements and 1 document" in r.output
        assert GONE_SKIP.search(r.output), r.output
        # strict: the entry stops the run, and the hint says how to go on
        r = run(cmd, "-r", ref, "-t", sys_, "-O" if cmd == "view" else "-o", tmp_path / "x")
        assert r.exit_code == 2
        assert r.output.endswith(
            "cannot open: No such file or directory — use --lenient to"
            " skip such documents, or `acescore validate` to list them all\n"
        )
    r = run(
        "compare",
        "-r",
        ref,
        sys_,
        sys_,
        "--lenient",
        "-o",
        tmp_path / "c.txt",
        "--bootstrap",
        "20",
        "--ar",
        "20",
    )
    assert r.exit_code == 0, r.output
    assert GONE_SKIP.search(r.output)
    # validate: the entry is one problem, the other files are validated
    r = run("validate", ref)
    assert r.exit_code == 1
    assert r.output.splitlines()[-1].startswith("validate: 5 files, 4 documents")
    # the API: the same policy, no command-line message
    rs = api.score_systems(str(ref), [str(sys_)], lenient=True)
    assert rs[0].skipped.documents == 1 and rs[0].coverage.scored == 4
    prepared = api.prepare_reference(str(ref), lenient=True)
    assert api.score_systems(prepared, [str(sys_)])[0].coverage.scored == 4
    got = compare_systems(
        str(ref),
        [str(sys_), str(sys_)],
        lenient=True,
        mentions=False,
        bootstrap=10,
        randomization=10,
        literature=False,
    )
    assert got["tasks"]


def test_lenient_nothing_left_is_nothing_to_score(ldc, tmp_path):
    ref, sys_ = tmp_path / "ref", tmp_path / "sys"
    ref.mkdir()
    sys_.mkdir()
    src = apf(ldc, "bc", "adj")
    (ref / "a.apf.xml").write_text(Path(src).read_text(encoding="utf-8"), encoding="utf-8")
    text = Path(apf(ldc, "bc", "fp1")).read_text(encoding="utf-8")
    (sys_ / "a.apf.xml").write_text(
        text.replace('SOURCE="broadcast conversation"', 'SOURCE="newswire"'), encoding="utf-8"
    )
    for cmd in ("score", "coref"):
        r = run(cmd, ref, sys_, "--lenient")
        assert r.exit_code == 2
        assert (
            r.output.startswith(
                "acescore: nothing to score: after lenient mode's skips no REF document has a SYS"
                " document (0 REF documents and 0 SYS documents left; skipped 0 elements and 1"
                " document (1 problem); the first: SYS: "
            )
            and len(r.output.splitlines()) == 1
        ), r.output


@pytest.mark.slow
def test_global_2008_says_m_is_ignored(ldc, tmp_path):
    adj, fp1 = ldc.folder("bc"), ldc.folder("bc", "fp1")
    r = run("score", adj, fp1, "-m", "-P", "global_2008", "-o", tmp_path / "r.txt")
    assert r.exit_code == 0
    assert r.stderr.splitlines()[0] == (
        "acescore: warning: -m is ignored: parameter set global_2008 scores no mention-level"
        " tasks (as the NIST tool does; global_2008_with_mentions scores them)"
    )
    assert "|params:global_2008|nist:ace08|flags:-|" in r.stderr
    r = run("score", adj, fp1, "-m", "-P", "global_2008_with_mentions", "-o", tmp_path / "r.txt")
    assert "-m is ignored" not in r.stderr and "|flags:m|" in r.stderr
    r = run("compare", adj, fp1, adj, "-m", "-P", "global_2008", "--bootstrap", "5", "--ar", "5")
    assert r.exit_code == 0
    assert "acescore: warning: -m is ignored: parameter set global_2008" in r.stderr
    assert "|params:global_2008|nist:ace08|flags:-|" in r.stderr


def test_hints_that_say_what_to_do(ldc, tmp_path):
    adj, fp1 = ldc.folder("bc"), ldc.folder("bc", "fp1")
    size = os.path.getsize(apf(ldc, "bc", "adj"))
    r = run("score", apf(ldc, "bc", "adj"), fp1, "--max-file-size", "1K")
    assert r.exit_code == 2
    assert r.output.endswith(
        f"file is larger than the limit of 1024 bytes ({size} bytes) — the limit is"
        " --max-file-size (1024 bytes); to read it, give a larger one (--max-file-size"
        f" {-(-(size + 1) // 1024)}K)\n"
    )
    split = tmp_path / "test.txt"
    split.write_text("".join(d + "\n" for d in ldc.docids("bc")))
    for extra in ((), ("--lenient",)):
        r = run("score", adj, split, *extra)
        assert r.exit_code == 2
        assert r.output == (
            f"acescore: {split}: none of its 2 lines names a file ({ldc.docids('bc')[0]} ...):"
            f" a list of DOCIDs (a split file) restricts a run with --docs {split}; REF and"
            " SYS are APF files, folders or lists of APF files\n"
        )
    # a duplicate argument of an event mention: the mention is named
    sys_ = tmp_path / "sys"
    sys_.mkdir()
    text = Path(apf(ldc, "bc", "fp1")).read_text(encoding="utf-8")
    m = re.search(
        r'<event_mention ID="([^"]+)"[^>]*>.*?\n(\s*<event_mention_argument .*?'
        r"</event_mention_argument>\n)",
        text,
        re.S,
    )
    (sys_ / "a.apf.xml").write_text(text[: m.end()] + m.group(2) + text[m.end() :])
    r = run("score", apf(ldc, "bc", "adj"), sys_)
    assert r.exit_code == 2
    assert f"is declared twice in event_mention {m.group(1)} of event " in r.output


def test_kinds():
    assert kind_of("no mentions found for 'A-R3' in document 'A' in promote") == (
        "no mentions found for '…' in document '…' in promote"
    )
    assert kind_of("Arg-1 and Arg-2 are the same entity (D-E1)") == (
        "Arg-1 and Arg-2 are the same entity"
    )
    assert kind_of("argument D-E2 is declared twice in event D-EV1 (role Person)") == (
        "argument … is declared twice in event …"
    )


@pytest.mark.slow
def test_stderr_grouped_verbose_quiet(ldc, tmp_path):
    ref, sys_ = tmp_path / "ref.list", tmp_path / "sys.list"
    ref.write_text(
        "".join(apf(ldc, g, "adj", k) + "\n" for g in ("bn", "nw", "un") for k in (0, 1))
    )
    sys_.write_text(
        "".join(apf(ldc, g, "fp1", k) + "\n" for g in ("bn", "nw", "un") for k in (0, 1))
    )
    args = ("score", ref, sys_, "-m", "--lenient", "-o", tmp_path / "r.txt")
    grouped = run(*args).stderr.splitlines()
    verbose = run(*args, "--verbose").stderr
    assert run(*args, "-q").stderr == ""
    # --verbose: every skip and every NIST warning block, as before
    nwarn = verbose.count("WARNING:  ")
    assert "acescore: lenient: skipped 18 elements and 0 documents (18 problems)" in verbose
    assert len(re.findall(r"^acescore:   (REF|SYS): ", verbose, re.M)) == 18
    # default: kinds with counts and two examples each, the summary line last
    assert grouped[-1].startswith("acescore: scored 6 of 6 REF documents")
    assert grouped[-2].startswith("signature: ")
    head = "acescore: lenient: skipped 18 elements and 0 documents (18 problems; --verbose lists each):"
    assert head in grouped
    kinds = grouped[grouped.index(head) + 1 :]
    assert [k for k in kinds if " × " in k] == [
        "acescore:   6 × REF relation: Arg-1 and Arg-2 are the same entity, e.g.",
        "acescore:   6 × SYS event: argument … is declared twice in event …, e.g.",
        "acescore:   6 × SYS relation: Arg-1 and Arg-2 are the same entity, e.g.",
    ]
    if nwarn:
        assert grouped[0] == (
            f"acescore: {nwarn} warning{'s' if nwarn > 1 else ''} of the NIST tool (--verbose"
            " prints each as the tool does):"
        )
    assert len(grouped) <= 3 + 3 * 3 + 1 + 3 * 6 + 3
    # the view's index counts what was skipped
    out = tmp_path / "site"
    assert run("view", ref, sys_, "--lenient", "-O", out, "-q").exit_code == 0
    index = (out / "index.html").read_text()
    assert "lenient: skipped 18 elements and 0 documents (18 problems)" in index


def test_score_only_json_refused_still(ldc):
    """Item 3's parts done before: still so."""
    adj, fp1 = ldc.folder("bc"), ldc.folder("bc", "fp1")
    r = run("score", adj, fp1, "--score-only", "--format", "json")
    assert r.exit_code == 2 and "does not go with --format json" in r.output
    r = run("events", adj, fp1, "--per-label")
    assert r.exit_code == 2


@pytest.mark.slow
def test_api_docs_named_as_given(ldc):
    with pytest.raises(AceUsageError, match=r"none of the 1 DOCIDs of docs= is in REF"):
        api.score(ldc.folder("bc"), ldc.folder("bc", "fp1"), docs=["NOT_THERE"])
    d = json.loads(
        api.score(
            ldc.folder("bc"), ldc.folder("bc", "fp1"), docs=[ldc.docids("bc")[0], "X"]
        ).to_json()
    )
    assert d["documents"]["scored"] == 1


# ---- item 9: the README's examples run as written ---------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def readme_block(tag: str) -> str:
    text = Path(os.path.join(ROOT, "README.md")).read_text(encoding="utf-8")
    (block,) = re.findall(r"<!-- test: %s -->\s*```\w*\n(.*?)```" % tag, text, re.S)
    return block


def shell(line: str, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.mark.slow
def test_readme_first_run_on_the_release_layout(ldc):
    """Each line of "Scoring your own data" as written, in the release's folders (the split
    file a user brings: two DOCIDs)."""
    os.makedirs(os.path.join(ldc.root, "splits"), exist_ok=True)
    with open(os.path.join(ldc.root, "splits", "test.txt"), "w") as fh:
        fh.write(f"{ldc.docids('nw')[0]}\n{ldc.docids('bc')[1]}\n")
    lines = [ln for ln in readme_block("release").splitlines() if ln.strip()]
    assert len(lines) == 5
    for line in lines:
        r = shell(line, ldc.root)
        if line.startswith("acescore validate"):  # the defects of nw fp1, listed
            assert r.returncode == 1, r.stderr
            assert "is declared twice in event" in r.stdout
            assert "Arg-1 and Arg-2 are the same entity" in r.stdout
        else:
            assert r.returncode == 0, (line, r.stderr)
    assert "scored 2 of 2 REF documents" in r.stderr  # the split's two


@pytest.mark.slow
def test_readme_score_only_line():
    r = shell("acescore score examples/ref examples/sys -m --score-only", ROOT)
    assert r.returncode == 0
    assert r.stdout == readme_block("score-only")


def test_citation_and_changelog_name_the_version():
    from acescore import __version__

    cff = Path(ROOT, "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^version: "([^"]+)"$', cff, re.M).group(1) == __version__
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    changelog = Path(ROOT, "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(r"^## (\S+)", changelog, re.M).group(1) == __version__


def test_api_errors_name_the_keywords(ldc, tmp_path):
    """The Python API's errors name its keywords, not the command line's options."""
    from acescore.model.errors import AceInputError

    adj = ldc.folder("bc")
    with pytest.raises(AceInputError) as e:
        api.score(apf(ldc, "bc", "adj"), ldc.folder("bc", "fp1"), max_bytes=1024)
    size = os.path.getsize(apf(ldc, "bc", "adj"))
    assert e.value.hint == (
        "the limit is max_bytes= (1024 bytes); to read it, give a larger one"
        f" (max_bytes={-(-(size + 1) // 1024) * 1024})"
    )
    ref, _ = lists(ldc, tmp_path)
    with pytest.raises(AceInputError) as e:
        api.score_systems(str(ref), [str(ref)])
    assert str(e.value).endswith("GONE.apf.xml: cannot open: No such file or directory")
    assert e.value.hint.startswith("use lenient=True to skip such documents")
    split = tmp_path / "split.txt"
    split.write_text(ldc.docids("bc")[0] + "\n")
    with pytest.raises(AceUsageError, match=r"restricts a run with docs=; REF and SYS"):
        api.score(adj, str(split))
