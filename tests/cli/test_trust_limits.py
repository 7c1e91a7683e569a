"""Issue "Trust", class 9 (the rest): huge option values refused up front with their range;
running out of memory at any size -- also while numpy, scipy and their OpenBLAS load, where
the libraries abort, hang or raise their own ImportError -- is one line and exit 2 with
nothing written; paths that are not UTF-8 (``-o``, ``-O``, inputs; also under
``LC_ALL=C``) are written as given, never a UnicodeEncodeError."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.model.memory import is_out_of_memory

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples"
OOM = (
    "acescore: out of memory: nothing was written; give the run more memory, or score fewer"
    " documents at a time (--docs, smaller list files)\n"
)


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["score", "--jobs", "1000000000000000000"], "1000000000000000000 is not in the range"),
        (["view", "-j", "1025", "-O", "x"], "1025 is not in the range 0<=x<=1024"),
        (["crosscheck", "--runs", "1000000000000"], "1000000000000 is not in the range 1<=x<=100"),
        (["crosscheck", "--show", "-1"], "-1 is not in the range x>=0"),
    ],
)
def test_huge_option_values_refused_with_their_range(args, shown):
    r = CliRunner().invoke(main, [*args, str(EXAMPLES / "ref"), str(EXAMPLES / "sys")])
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and shown in r.output, r.output


def test_out_of_memory_told_from_other_errors():
    assert is_out_of_memory(MemoryError())
    assert is_out_of_memory(OSError(errno.ENOMEM, "Cannot allocate memory"))
    assert is_out_of_memory(ImportError("libx.so: failed to map segment from shared object"))
    wrapped = ImportError("Importing the numpy C-extensions failed.")
    wrapped.__cause__ = ImportError("libgfortran.so.5: failed to map segment from shared object")
    assert is_out_of_memory(wrapped)
    assert not is_out_of_memory(ImportError("No module named 'x'"))
    assert not is_out_of_memory(OSError(errno.ENOENT, "No such file or directory"))


def _limited(megabytes: int):
    def apply():
        limit = megabytes << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


@pytest.mark.slow  # one interpreter per limit
@pytest.mark.parametrize(
    ("command", "megabytes"),
    [(c, m) for c in ("json", "coref", "view") for m in (30, 70, 90, 110)]
    + [("coref", 200), ("score", 30), ("validate", 30)],
)
def test_out_of_memory_at_any_size_is_one_line(tmp_path, command, megabytes):
    """Under ``ulimit -v`` of 30 to 110 MB, 200 MB for coref (below what numpy, then scipy, need to load:
    before, numpy's OpenBLAS printed its own error and exited 1 below ~100 MB, numpy's
    import failed with a page of ImportError text, and scipy's OpenBLAS retried for ever):
    one line, exit 2, nothing written where the output would go."""
    out = tmp_path / ("site" if command == "view" else "report.txt")
    args = [str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), "-q"]
    args += ["-O", str(out)] if command == "view" else ["-o", str(out)]
    if command == "json":  # score's JSON: the literature metrics load numpy
        command, args = "score", [*args, "--format", "json"]
    elif command == "validate":
        args = [str(EXAMPLES / "ref")]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, "-m", "acescore", command, *args],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=_limited(megabytes),
        timeout=120,
    )
    assert (r.returncode, r.stdout, r.stderr) == (2, "", OOM)
    assert list(tmp_path.iterdir()) == []  # no report, no temporary file, no site


@pytest.mark.slow  # one interpreter
def test_text_score_needs_no_numpy_memory(tmp_path):
    """A text ``score`` loads no numpy: it runs under a limit of 40 MB of address space,
    below what numpy alone takes (``NUMPY_HEADROOM``, 96 MB)."""
    out = tmp_path / "report.txt"
    r = subprocess.run(
        [sys.executable, "-m", "acescore", "score", str(EXAMPLES / "ref"), str(EXAMPLES / "sys")]
        + ["-m", "-q", "-o", str(out)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        preexec_fn=_limited(40),
        timeout=120,
    )
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert out.read_text(encoding="utf-8").count("Unweighted") > 0


def _copy_examples(dest: Path) -> None:
    shutil.copytree(EXAMPLES, dest)


@pytest.mark.slow  # several runs
@pytest.mark.parametrize("locale", ["C.UTF-8", "C", "strict"])
def test_paths_not_utf8(tmp_path, locale):
    """A folder and output names with the byte 0xff (what os.fsdecode makes of it: a lone
    surrogate): the report is written, its command line holds the bytes as given; the
    view prints its path as given, also where standard output is strict UTF-8 (as in a
    UTF-8 locale other than C.UTF-8)."""
    ex = Path(os.fsdecode(bytes(tmp_path) + b"/ex\xff"))
    _copy_examples(ex)
    report = os.fsdecode(bytes(tmp_path) + b"/r\xff.txt")
    env = dict(os.environ, PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8" if locale == "strict" else locale)
    if locale == "strict":
        env["PYTHONIOENCODING"] = "utf-8:strict"
    runs = [
        ["score", str(ex / "ref"), str(ex / "sys"), "-q", "-o", report],
        ["score", str(ex / "ref"), str(ex / "sys"), "-q", "-a", "--jobs", "2"],
        ["view", str(ex / "ref"), str(ex / "sys"), "-q", "-O", str(ex / "site"), "--source-dir"]
        + [str(ex / "src")],
        ["view", str(ex / "ref"), str(ex / "sys"), "-q", "-O", os.fsdecode(b"site\xfe")],
    ]
    if locale == "C.UTF-8":
        # coref's JSON writes the paths escaped (ASCII whatever the locale): one locale
        # (each run loads numpy and scipy, ~1.3 s of CPU)
        runs.append(["coref", str(ex / "ref"), str(ex / "sys"), "-q", "--format", "json"])
    for args in runs:
        r = subprocess.run(
            [sys.executable, "-m", "acescore", *args],
            capture_output=True,
            env=env,
            timeout=120,
            cwd=tmp_path,
        )
        assert (r.returncode, r.stderr) == (0, b""), args
        if args[0] == "coref":
            assert b'ex\\udcff/ref"' in r.stdout
        elif args[-1] == os.fsdecode(b"site\xfe"):
            assert r.stdout == os.fsencode(os.path.join(args[-1], "index.html")) + b"\n"
    assert b"/ex\xff/ref" in Path(report).read_bytes()
    assert (ex / "site" / "index.html").exists()
