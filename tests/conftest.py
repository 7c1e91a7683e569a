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
