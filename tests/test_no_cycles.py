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

from acescore import api
from acescore.report.outputs import render_pass
from acescore.scoring.engine import CHAINS, new_run, run_chain

SMALL = Path(__file__).parent / "data" / "golden" / "small"


def _acescore_garbage() -> Counter:
    """Collect, and count the acescore objects that were only reachable through cycles."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = Counter(type(o).__qualname__ for o in gc.garbage
                        if type(o).__module__.startswith("acescore"))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_scoring_and_rendering_leave_no_cycles(fmt):
    p = api.get_params("local_2008")
    ref = api.read_corpus(api.discover_paths(str(SMALL / "ref")), p)
    sys_ = api.read_corpus(api.discover_paths(str(SMALL / "sys-heavy")), p)
    warnings: list = []
    rside, sside = api.build_sides(ref, sys_, p, warnings)
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        run = new_run(rside, sside, p, warnings)
        results = api.Results(run, p, True, "", ["bc"], warnings, {})
        rendered = []
        run.on_pass = lambda res: rendered.append(render_pass(results, res, fmt, True))
        for chain in CHAINS:
            run_chain(run, chain, True)
        run.passes.clear()
        assert len(rendered) == 8
        assert _acescore_garbage() == Counter()
    finally:
        if was:
            gc.enable()
