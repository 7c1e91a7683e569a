#!/usr/bin/env python3
"""CPU of writing the document pages of `acescore view --jobs N` alone, shard by shard.

Each shard of CORPUS (REF ``ref.list``, SYS ``sys-firstpass.list``, sources ``src/``, as
``bench/corpora/real-local-600-bench``) is read, scored and its pages written in a forked
process, as the view does; printed: the CPU time of ``ViewShard.finish`` (the pages) of each
shard and their sum.  The pages go to a temporary folder, removed after.

Usage: python bench/view_pages.py [CORPUS] [SHARDS]   (default: the 600 corpus, 10 shards)
"""

import gc
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from acescore.model.options import Options
from acescore.run import shards
from acescore.run.pipeline import discover
from acescore.view import shards as view_shards
from acescore.view.site import source_index

corpus = Path(
    sys.argv[1]
    if len(sys.argv) > 1
    else Path(__file__).resolve().parent / "corpora" / "real-local-600-bench"
)
count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
os.chdir(corpus)
opts = Options(params="local_2008", mentions=True, jobs=2, literature=False)
plans = shards.plan(list(discover("ref.list")), list(discover("sys-firstpass.list")), count)
stage = tempfile.mkdtemp(prefix="acescore-view-pages.")
try:
    extra = view_shards.ViewShard(opts.parameter_set, source_index("src", "raw"), "src", stage)
    assert extra.start(plans)
    shards.preload(opts)
    gc.disable()
    finish = view_shards.ViewShard.finish
    r, w = os.pipe()

    def timed(self, *args):
        t = time.process_time()
        out = finish(self, *args)
        os.write(w, f"{time.process_time() - t:.3f}\n".encode())
        return out

    view_shards.ViewShard.finish = timed
    for rpaths, spaths in plans:
        pid = os.fork()
        if pid == 0:
            shards.score_shard(rpaths, spaths, opts, extra)
            os._exit(0)
        os.waitpid(pid, 0)
    os.close(w)
    times = [float(x) for x in os.read(r, 1 << 16).split()]
    print(
        "pages CPU by shard:",
        " ".join(f"{t:.2f}" for t in times),
        f"-- {len(times)} shards, sum {sum(times):.2f} s",
    )
finally:
    shutil.rmtree(stage, ignore_errors=True)
