"""Command-line conventions (issue #14, point 9): Ctrl-C, closed pipes, --fail-under checked
before scoring, -r LIST SYS, case-insensitive --format, sizes such as 64M, packaging."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.cli.args import parse_size
from acescore.entry import EXIT_INTERRUPTED, run
from acescore.run import pipeline

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REF = os.path.join(ROOT, "examples", "ref")
SYS = os.path.join(ROOT, "examples", "sys")


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in r.output
    return r


def test_ctrl_c_exits_130(monkeypatch, capsys):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    import acescore.run  # the one entry point of a run (score calls it)

    monkeypatch.setattr(acescore.run, "execute", interrupted)
    before = signal.getsignal(signal.SIGPIPE)
    try:
        with pytest.raises(SystemExit) as e:
            run(["score", REF, SYS, "-q"])
    finally:  # run() sets SIGPIPE to its default: not for the test process
        signal.signal(signal.SIGPIPE, before)
    assert e.value.code == EXIT_INTERRUPTED == 130
    err = capsys.readouterr().err
    assert err == "acescore: interrupted\n"  # one line (click's own empty line before it: no)


@pytest.mark.slow
def test_closed_pipe_is_quiet(tmp_path):
    """`acescore score ... | head -0`: the reader is gone before anything is written."""
    r, w = os.pipe()
    os.close(r)
    with open(tmp_path / "err", "wb") as err:
        proc = subprocess.run(
            [sys.executable, "-m", "acescore", "score", REF, SYS, "-m", "-a", "-q"],
            stdout=w,
            stderr=err,
            cwd=ROOT,
        )
    os.close(w)
    assert proc.returncode == 141  # a shell says 141 for SIGPIPE too (issue 15:
    # the signal stays ignored, so that a closed standard error never costs the report)
    assert (tmp_path / "err").read_text() == ""


@pytest.mark.parametrize(
    "text,size",
    [
        ("1000", 1000),
        ("64M", 64 << 20),
        ("1G", 1 << 30),
        ("512k", 512 << 10),
        ("64MiB", 64 << 20),
        ("2 GB", 2 << 30),
    ],
)
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.slow
def test_max_file_size_option(tmp_path):
    for cmd in ("score", "coref", "events"):
        assert (
            cli(cmd, REF, SYS, "-q", "--max-file-size", "64M", "-o", tmp_path / "x").exit_code == 0
        )
        r = cli(cmd, REF, SYS, "-q", "--max-file-size", "1K", "-o", tmp_path / "x")
        assert r.exit_code == 2
        assert "file is larger than the limit of 1024 bytes" in r.output
        assert len(r.output.splitlines()) == 1
    r = cli("score", REF, SYS, "--max-file-size", "12X")
    assert r.exit_code == 2 and "'12X' is not a size" in r.output


@pytest.mark.slow
def test_format_case_insensitive(tmp_path):
    for cmd in ("score", "coref", "events"):
        r = cli(cmd, REF, SYS, "-q", "--format", "JSON", "-o", tmp_path / "j")
        assert r.exit_code == 0, r.output
        json.loads((tmp_path / "j").read_text())
    r = cli("score", REF, SYS, "-q", "--format", "Csv")
    assert r.exit_code == 0 and r.output.startswith("task,condition,group,key,")


@pytest.mark.slow
def test_list_then_positional(tmp_path):
    lst = tmp_path / "ref.list"
    lst.write_text("".join(os.path.join(REF, f) + "\n" for f in sorted(os.listdir(REF))))

    def scores(*args):
        d = json.loads(cli("score", *args, "-q", "--format", "json").output)
        return d.pop("inputs"), d

    want = scores(REF, SYS)[1]
    assert scores("-r", lst, SYS) == ({"ref": str(lst), "sys": SYS}, want)
    slst = tmp_path / "sys.list"
    slst.write_text("".join(os.path.join(SYS, f) + "\n" for f in sorted(os.listdir(SYS))))
    assert scores(REF, "-t", slst) == ({"ref": REF, "sys": str(slst)}, want)
    r = cli("score", "-r", lst, SYS, REF)
    assert r.exit_code == 2


@pytest.mark.parametrize(
    "args,code,message",
    [
        (
            ["--fail-under", "foo=3"],
            2,
            "acescore: --fail-under: unknown task 'foo' (known: edr,"
            " emd, rdr, rmd, tim, val, vdr, vmd)",
        ),
        (
            ["--fail-under", "emd=50"],
            2,
            "acescore: --fail-under emd=50: emd is not scored in this run (add -m)",
        ),
        (
            ["-m", "-P", "global_2008", "--fail-under", "vmd=5"],
            2,
            "acescore: --fail-under vmd=5: vmd is not scored in this run (parameter set global_2008"
            " scores no mentions)",
        ),
        (
            ["--fail-under", "edr=nan"],
            2,
            "acescore: --fail-under edr=nan: 'nan' is not a number (a Value in %, e.g. edr=60)",
        ),
        (
            ["--fail-under", "edr=high"],
            2,
            "acescore: --fail-under edr=high: 'high' is not a number (a Value in %, e.g. edr=60)",
        ),
        (["--fail-under", "edr"], 2, "acescore: --fail-under takes TASK=VALUE, not 'edr'"),
    ],
)
def test_fail_under_checked_before_scoring(monkeypatch, args, code, message):
    def never(*a, **k):
        raise AssertionError("scored")

    monkeypatch.setattr(pipeline, "read_corpus", never)
    r = cli("score", REF, SYS, "-q", *args)
    assert (r.exit_code, r.output.splitlines()) == (code, [message])


def test_fail_under_fraction_warned(tmp_path):
    r = cli("score", REF, SYS, "-q", "-o", tmp_path / "r", "--fail-under", "edr=0.6")
    assert r.exit_code == 0
    assert r.output.splitlines() == [
        "acescore: warning: --fail-under edr=0.6: Values are"
        " percentages; 0.6 looks like a fraction (did you mean"
        " edr=60?)"
    ]


@pytest.mark.slow
def test_fail_under_task_without_data(tmp_path):
    """A gate on a task the data leaves unscored (no SYS event at all): exit 2."""
    r = cli("score", REF, REF, "-q", "-o", tmp_path / "r", "--fail-under", "edr=99.9")
    assert r.exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    for f in os.listdir(REF):
        text = Path(REF, f).read_text(encoding="utf-8")
        text = re.sub(r"<event .*?</event>\n", "", text, flags=re.S)
        (empty / f).write_text(text, encoding="utf-8")
    r = cli("score", REF, empty, "-q", "-o", tmp_path / "r", "--fail-under", "vdr=10")
    assert r.exit_code == 2
    assert r.output.splitlines() == [
        "acescore: vdr was not scored (no vdr section in the report), required >= 10"
    ]


def test_packaging_files():
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as fh:
        assert fh.readline().strip() == "MIT License"
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as fh:
        toml = fh.read()
    assert re.search(r'^license = "MIT"$', toml, re.M)
    with open(os.path.join(ROOT, ".gitignore"), encoding="utf-8") as fh:
        assert "dist/" in fh.read().split()
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    # the README is the package description on the index: no link into the repository
    links = re.findall(r"\]\(([^)]+)\)|(?:src|href)=\"([^\"]+)\"", readme)
    relative = [a or b for a, b in links if not re.match(r"[a-z]+:|#", a or b)]
    assert relative == []


def test_make_installs_what_the_view_test_needs():
    """`make install` (and so `make test`) installs chromium; the view test never skips."""
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as fh:
        make = fh.read()
    assert re.search(r"^install: .*\bchromium\b", make, re.M)
    assert re.search(r"^chromium:\n\tbash \.ci/install-chromium\.sh$", make, re.M)
    assert re.search(r"^test: install$", make, re.M)
    with open(os.path.join(ROOT, "tests", "view", "test_view.py"), encoding="utf-8") as fh:
        view = fh.read()
    assert "skip" not in view and "importorskip" not in view


@pytest.mark.parametrize("given, expected", [(None, "1"), ("4", "4")])
def test_blas_threads_default_to_one(monkeypatch, given, expected):
    """The program asks numpy's BLAS for one thread (no spinning pool at import) unless the
    user said otherwise."""
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        if given is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, given)
    with pytest.raises(SystemExit) as e:
        run(["--version"])
    assert e.value.code == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == expected
    assert os.environ["OMP_NUM_THREADS"] == expected


def test_ctrl_c_while_starting_is_one_line():
    """Ctrl-C during the imports, before the command group runs: one line, exit 130, no
    traceback (the entry point catches SIGINT before it imports the command line)."""
    code = (
        "import os, signal, sys, time\n"
        "import acescore.entry\n"
        "class Interrupting:   # Ctrl-C while the command line is being imported\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'acescore.cli':\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "            time.sleep(5)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Interrupting())\n"
        "acescore.entry.run(['score', '--help'])\n"  # (--help alone does not import it)
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stdout, p.stderr) == (130, "", "acescore: interrupted\n")


def test_out_of_memory_is_one_line(monkeypatch, capsys):
    """MemoryError anywhere in a run: one line naming it, exit 2, no traceback."""
    import acescore.run

    def exhausted(*a, **k):
        raise MemoryError

    monkeypatch.setattr(acescore.run, "execute", exhausted)
    with pytest.raises(SystemExit) as e:
        main.main(["score", REF, SYS, "-q"], prog_name="acescore")
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("acescore: out of memory: nothing was written;") and err.count("\n") == 1


@pytest.mark.parametrize("where", ["run", "command line"])
def test_ctrl_c_wrapped_or_while_parsing_is_one_line(monkeypatch, capsys, where):
    """Ctrl-C that Python wraps in another error (a KeyboardInterrupt inside a class body's
    ``__set_name__`` while a module loads becomes a RuntimeError) or that comes while click
    reads the command line (click would print an empty line first): exit 130, one line."""
    import acescore.run
    from acescore.cli.common import OneLineGroup

    def wrapped(*a, **k):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__") from e

    def parsing(*a, **k):
        raise KeyboardInterrupt

    if where == "run":
        monkeypatch.setattr(acescore.run, "execute", wrapped)
    else:
        monkeypatch.setattr(click.Group, "make_context", parsing)
    assert issubclass(OneLineGroup, click.Group)
    _ends_interrupted(capsys)


def _ends_interrupted(capsys) -> None:
    """A score run ends with exit 130 and the one line (no traceback, no empty line)."""
    before = signal.getsignal(signal.SIGPIPE)
    try:
        with pytest.raises(SystemExit) as e:
            run(["score", REF, SYS, "-q"])
    finally:  # run() sets SIGPIPE to its default, the group Python's unraisable hook
        signal.signal(signal.SIGPIPE, before)
        sys.unraisablehook = sys.__unraisablehook__
    assert e.value.code == 130
    assert capsys.readouterr().err == "acescore: interrupted\n"


def test_ctrl_c_lost_in_a_callback_still_ends_the_run(monkeypatch, capsys):
    """Ctrl-C whose KeyboardInterrupt Python could only print ("Exception ignored in" a
    finalizer or an import lock's callback: found by the fuzz, the run went on to exit 0
    after Python's traceback): no traceback, exit 130, one line."""

    class Finalizer:
        def __del__(self):
            raise KeyboardInterrupt

    def invoke(self, ctx):
        Finalizer()  # dropped at once: its __del__ raises where nothing can catch it
        return 0

    monkeypatch.setattr(click.Group, "invoke", invoke)
    _ends_interrupted(capsys)
