"""A SIGTERM that arrives while the temporary ``-o`` file is being made (inside
:func:`acescore.writing.scratch.new_file`, the file just created) leaves nothing behind: found by the hostile-input fuzzer under load
(``.r.txt.XXXX.part`` left after ``acescore: terminated``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import os, signal, sys
from acescore.writing import output
real = output.new_file
def new_file(*a, **k):
    made = real(*a, **k)
    if k.get("suffix") == ".part":
        os.kill(os.getpid(), signal.SIGTERM)  # delivered while it is made, the file there
    return made
output.new_file = new_file
from acescore.entry import run
run(["score", "examples/ref", "examples/sys", "-q", "-o", sys.argv[1]])
"""


@pytest.mark.slow
def test_sigterm_while_the_part_file_is_made_leaves_none(tmp_path):
    out = tmp_path / "r.txt"
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(out)], cwd=ROOT, capture_output=True, text=True
    )
    assert r.returncode == 143, r.stderr
    assert r.stderr == "acescore: terminated\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == []
