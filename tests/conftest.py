"""The test folders mirror the packages; the helpers shared by several folders
(synth, forks, ldc_like, fuzz_hostile, the report fixtures) are imported from here."""

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


@pytest.fixture(autouse=True)
def _workers_at_any_size(monkeypatch):
    """The tests' corpora are a few KB, and below ``acescore.run.entry.SMALL_RUN_BYTES`` of
    REF files a run forks no worker: so that the tests of shards, chains of passes and
    rendering processes reach those paths, every run in this process plans as a large
    one would (tests/run/test_small_runs.py sets the real threshold back)."""
    monkeypatch.setattr(entry, "SMALL_RUN_BYTES", 0)
