"""The command line runs with the cyclic garbage collector off (a one-shot process with
millions of acyclic objects).  A reference cycle in scoring or rendering would then keep
its objects -- and through them whole passes -- until the process ends.  These tests
render every pass of a golden corpus and check that nothing of acescore's is left in a
cycle."""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path

import pytest

from acescore.api import PRODUCTS
from acescore.model.options import Options
from acescore.run.pipeline import load, score

pytestmark = pytest.mark.slow  # golden corpus

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"


def _acescore_garbage() -> Counter:
    """Collect, and count the acescore objects that were only reachable through cycles."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = Counter(
            type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith("acescore")
        )
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


@pytest.mark.parametrize("flags", [{}, {"all_mappings": True, "summary": True}])
def test_scoring_and_rendering_leave_no_cycles(flags):
    loaded = load(str(SMALL / "ref"), str(SMALL / "sys-heavy"), Options(mentions=True, **flags))
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        results = score(loaded, products=PRODUCTS)  # (the literature, the listings)
        assert len(results.outputs) == 8
        assert _acescore_garbage() == Counter()
    finally:
        if was:
            gc.enable()
