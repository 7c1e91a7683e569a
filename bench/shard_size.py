"""CPU time of document shards by shard size: the first N documents of a corpus scored as
1, 2, 4, 8 ... shards, one forked process at a time (``acescore.run.shards.score_shard``, ``-m``),
so that the sizes compete for nothing but the machine's load.

    .venv/bin/python bench/shard_size.py bench/corpora/real-local-600-bench --docs 300 \
        --shards 1,2,4,8 --runs 2
"""

from __future__ import annotations

import argparse
import gc
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", help="a folder with ref/ and sys-firstpass/ (bench/run.py)")
    ap.add_argument("--sys", default="sys-firstpass")
    ap.add_argument("--docs", type=int, default=300)
    ap.add_argument("--shards", default="1,2,4,8")
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    gc.disable()
    from acescore.model.options import Options
    from acescore.run import parallel, shards
    from acescore.run.pipeline import discover

    opts = Options(params="local_2008", mentions=True, jobs=2, literature=False, listing_data=False)
    ref = discover(os.path.join(args.corpus, "ref"), False)[: args.docs]
    sys_ = discover(os.path.join(args.corpus, args.sys), False)
    for _ in range(args.runs):
        for k in (int(x) for x in args.shards.split(",")):
            plans = shards.plan(list(ref), list(sys_), k)
            before, start = os.times(), time.monotonic()
            outs = parallel.run_pool(
                [
                    (lambda rp=rp, sp=sp: parallel.Child(lambda: shards.score_shard(rp, sp, opts)))
                    for rp, sp in plans
                ],
                1,
            )
            after = os.times()
            cpu = (
                after.children_user
                + after.children_system
                - before.children_user
                - before.children_system
            )
            ok = "" if all(o is not None for o in outs) else " (a shard failed)"
            print(
                f"{len(plans)} shards of ~{len(ref) // len(plans)} documents: "
                f"CPU {cpu:.2f} s, wall {time.monotonic() - start:.2f} s, "
                f"load {os.getloadavg()[0]:.1f}{ok}",
                flush=True,
            )


if __name__ == "__main__":
    main()
