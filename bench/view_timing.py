#!/usr/bin/env python3
"""Time `acescore view` on the 150-document golden `medium` corpus (sys-heavy, -m).

Usage: python bench/view_timing.py [CORPUS_DIR]   (default ../shared/golden/medium)
"""

import sys
import tempfile
import time
from pathlib import Path

from acescore import api
from acescore.view.site import write_view

corpus = Path(
    sys.argv[1]
    if len(sys.argv) > 1
    else Path(__file__).resolve().parents[1].parent / "shared" / "golden" / "medium"
)
t0 = time.perf_counter()
res = api.score(
    str(corpus / "ref"), str(corpus / "sys-heavy"), "local_2008", True, keep_passes=True
)
t1 = time.perf_counter()
with tempfile.TemporaryDirectory() as out:
    files = write_view(res, str(corpus / "src"), out)
t2 = time.perf_counter()
print(
    f"view of {len(res.run.ref.documents)} documents: scoring {t1 - t0:.2f} s, "
    f"writing {len(files)} files {t2 - t1:.2f} s, total {t2 - t0:.2f} s"
)
