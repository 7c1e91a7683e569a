"""Where a corpus is cut into shards (acescore.run.shards._cuts): by bisection, the same cuts
as looking at every possible start for every target, ties and empty files included."""

from __future__ import annotations

from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acescore.run.shards import _cuts


def _cuts_by_scanning(starts: list, targets: list) -> list:
    """The plain definition: for each target, of the starts after the last cut, the one
    nearest to it (``min`` keeps the first of equals)."""
    chosen: list = []
    for target in targets:
        best = min(
            (x for x in starts if not chosen or x[1] > chosen[-1]),
            key=lambda x: abs(x[0] - target),
            default=None,
        )
        if best is not None:
            chosen.append(best[1])
    return chosen


def test_cuts_hand_computed():
    # files of 10, 10, 0, 10, 30 bytes: starts before files 1..4 at 10, 20, 20, 30 bytes
    starts = [(10, 1), (20, 2), (20, 3), (30, 4)]
    # 15 is as near to 10 as to 20: the first; 20 twice (files 2 and 3): the first, then
    # the next start after it (file 3); nothing left for a fourth target
    assert _cuts(starts, [15.0, 20.0, 20.0, 40.0]) == [1, 2, 3, 4]
    assert _cuts(starts, [15.0, 21.0, 60.0, 61.0]) == [1, 2, 4]
    assert _cuts(starts, [60.0]) == [4]
    assert _cuts(starts, []) == [] and _cuts([], [5.0]) == []


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=2, max_size=40),
    st.lists(st.booleans(), min_size=40, max_size=40),
    st.lists(st.floats(0.25, 2.0), min_size=1, max_size=12),
)
def test_cuts_are_those_of_scanning_every_start(sizes, allowed, shares):
    acc = list(accumulate(sizes))
    starts = [(acc[i - 1], i) for i in range(1, len(sizes)) if allowed[i]]
    ends = list(accumulate(shares))
    targets = [acc[-1] * e / ends[-1] for e in ends[:-1]]
    assert _cuts(starts, targets) == _cuts_by_scanning(starts, targets)
    # unordered targets too (the plan's are ascending)
    assert _cuts(starts, targets[::-1]) == _cuts_by_scanning(starts, targets[::-1])
