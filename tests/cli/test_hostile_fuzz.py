"""A smaller, always-run share of the hostile-input fuzz harness (tests/fuzz_hostile.py,
which runs 5,000 inputs as a script): 56 inputs, 8 of each class (byte flips, truncations,
attribute and element mutations, XML declarations, non-regular files, output faults), each
a real forked process with a 20 s limit.  No hang, no traceback, no exit status outside
the README's table, every exit 2 one line, no lost or partial report."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))
import fuzz_hostile

pytestmark = pytest.mark.slow  # fuzz

N_INPUTS = 28  # a multiple of 4 parts x 7 classes (140, 84, 56, until the suite had to be faster)
#: the inputs are run in this many parts of consecutive numbers (each a multiple of the number
#: of classes), so that pytest-xdist can spread them over its workers; each part checks what
#: the whole run checked, in proportion
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
def test_hostile_fuzz(part):
    n = N_INPUTS // PARTS
    s = fuzz_hostile.fuzz(n, seed=7, timeout=20.0, start=part * n)
    assert s["inputs"] == n
    assert set(s["by_class"].values()) == {n // len(fuzz_hostile.CLASSES)}
    assert s["failures"] == []
    assert (
        s["hangs"],
        s["tracebacks"],
        s["bad_exit"],
        s["exit2_not_one_line"],
        s["report_problems"],
    ) == (0, 0, 0, 0, 0)
    # the inputs reach every outcome: reports, one-line refusals, validation problems
    # (more than 5 in 14 of the inputs run ``score``: 50 of the 140 inputs of earlier versions)
    assert {"0", "2"} <= set(s["exit_status"]) and s["by_command"]["score"] > 5 * n // 14


def test_harness_catches_what_it_must():
    """The checks themselves: a traceback, a multi-line exit 2, an unknown status, a hang
    and a lost previous report are each reported."""
    case = fuzz_hostile.Case(0, "flip", "", "score", ["score"])
    bad = [
        fuzz_hostile.Outcome(case, 2, 0.1, "", "Traceback (most recent call last):\n x\n"),
        fuzz_hostile.Outcome(case, 2, 0.1, "", "acescore: a\nacescore: b\n"),
        fuzz_hostile.Outcome(case, 1, 0.1, "", ""),
        fuzz_hostile.Outcome(case, -1, 20.0, "", ""),
    ]
    for o in bad:
        fuzz_hostile.check(o)
    assert "traceback" in bad[0].problems
    assert bad[1].problems == ["exit 2 with 2 lines"]
    assert bad[2].problems == ["exit status 1 not in [0, 2, 3]"]
    assert bad[3].problems == ["hang"]
    # validate lists each unusable path and then its summary line
    v = fuzz_hostile.Case(0, "special", "", "validate", ["validate"])
    ok = fuzz_hostile.Outcome(
        v,
        2,
        0.1,
        "a.list:3: x: cannot open: No such file or directory\n"
        "validate: 0 files, 0 documents, 0 charseqs checked against 0"
        " source documents: 0 problems, 1 unusable path\n",
        "",
    )
    two = fuzz_hostile.Outcome(v, 2, 0.1, "one\ntwo\n", "")
    fuzz_hostile.check(ok)
    fuzz_hostile.check(two)
    assert (ok.problems, two.problems) == ([], ["exit 2 with 2 lines"])


def test_trust_fuzz():
    """The classes of issue Trust (tests/fuzz_trust.py), each once (twice, in two parts,
    until the suite had to be faster; the script runs more): links in OUT_DIR,
    DOCIDs naming paths, pipe paths, signals, Ctrl-C at start-up, memory limits, huge
    options, paths not in UTF-8, gates, hash seeds -- no traceback, no internal error, no
    hang, nothing left behind, nothing written outside the output folder."""
    n = len(fuzz_hostile.TRUST_CLASSES)
    s = fuzz_hostile.fuzz(n, seed=5, timeout=60.0, start=0, classes=fuzz_hostile.TRUST_CLASSES)
    assert s["by_class"] == dict.fromkeys(fuzz_hostile.TRUST_CLASSES, 1)
    assert s["failures"] == []
