"""The test folders mirror the packages; the helpers shared by several folders
(synth, forks, ldc_like, fuzz_hostile, the report fixtures) are imported from here."""

import gc
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
for _d in [HERE] + [
    os.path.join(HERE, d)
    for d in sorted(os.listdir(HERE))
    if os.path.isdir(os.path.join(HERE, d)) and d not in ("data", "tools", "__pycache__")
]:
    if _d not in sys.path:
        sys.path.insert(0, _d)


import pytest  # noqa: E402  (after the path set-up above)

from acescore.run import entry  # noqa: E402

#: the tests of document shards, worker processes and what they print (paths under tests/):
#: their runs plan as large ones would, forking workers at any size; every other test scores
#: as a user's small run does, in one process (forking the test process, which holds
#: everything the tests before it made, is most of what a small run costs here)
WORKERS_AT_ANY_SIZE = (
    "run/",
    "e2e/test_golden.py",
    "e2e/test_versions_golden.py",
    "report/test_diagnostics.py",
    "reading/test_fidelity.py",
    "view/test_view_shards.py",
    "writing/test_spool.py",
    "cli/test_hostile_fuzz.py",
    "compare/test_compare.py",
)


@pytest.fixture(autouse=True)
def _workers_at_any_size(request, monkeypatch):
    """The tests' corpora are a few KB, and below ``acescore.run.entry.SMALL_RUN_BYTES`` of
    REF files a run forks no worker: so that the tests of shards, chains of passes and
    rendering processes (:data:`WORKERS_AT_ANY_SIZE`) reach those paths, their runs in
    this process plan as large ones would (tests/run/test_small_runs.py sets the real
    threshold back)."""
    where = os.path.relpath(str(request.path), HERE).replace(os.sep, "/")
    if where.startswith(WORKERS_AT_ANY_SIZE):
        monkeypatch.setattr(entry, "SMALL_RUN_BYTES", 0)


#: whether the cyclic garbage collector ran when the tests were collected
_COLLECTOR_ON = gc.isenabled()


@pytest.fixture(autouse=True)
def _collector_back():
    """``score`` and ``view`` turn the cyclic garbage collector off for their one-shot
    process (acescore.cli): run in this process by the tests (CliRunner), they turned it
    off for every test after them, and the test process kept each run's garbage (the
    golden tests' process: 187 MB at its end instead of 72, every fork of a worker the
    dearer).  It is turned back on after each test (as it was when the tests were collected:
    a module's fixture that scores through the command line turns it off before the test's
    own fixtures start)."""
    yield
    if _COLLECTOR_ON and not gc.isenabled():
        gc.enable()
