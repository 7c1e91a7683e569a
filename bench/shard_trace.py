"""Where the wall time of a sharded run goes: runs ``acescore ARGS...`` in this process with
timestamps (wall and this process's CPU) at the parent's steps -- planning, each shard's
start, arrival and CPU time (its rusage), the checks, each pass's merge, the output -- and
prints a summary, with the parent's serial tail (from the last shard's arrival to the exit)
and an estimate of the wall time on an otherwise idle machine with P cores.

    cd bench/corpora/real-local-2400-bench
    ../../../.venv/bin/python ../../shard_trace.py --cores 2 --json /tmp/t.json -- \
        score -m -q --jobs 2 ref sys-firstpass -o /tmp/r.txt

The estimate: the parent's CPU until the pool starts, then the pool's makespan with each
shard taking its own CPU time (shards in order, each to the process free first, at most as
many at a time as the run allowed), plus half the parent's CPU while the pool runs (it
shares the cores with the workers), plus the serial tail.  On a loaded machine it is
steadier than the wall time; on a quiet one it came within 2-4% of the measured wall time.
"""

from __future__ import annotations

import json
import os
import sys
import time

T0 = time.monotonic()
EVENTS: list = []


def mark(name: str, **kw) -> None:
    EVENTS.append(dict(name=name, wall=time.monotonic() - T0, cpu=time.process_time(), **kw))


def _instrument() -> None:
    import acescore.cli.common as common
    import acescore.cli.score as score_mod
    import acescore.report.results as results
    import acescore.run.assemble as assemble
    import acescore.run.parallel as par
    import acescore.run.shards as shards

    real_init, real_finish = par.Child.__init__, par.Child._finish

    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        mark("shard-start", pid=self.pid)

    class OsReaping:
        """``os`` for acescore.run.parallel, whose workers are reaped with their rusage."""

        def __getattr__(self, name):
            return getattr(os, name)

        def waitpid(self, pid, options):
            pid, status, ru = os.wait4(pid, options)
            mark("shard-reaped", pid=pid, shard_cpu=ru.ru_utime + ru.ru_stime)
            return pid, status

    def finish(self):
        mark("shard-arrived", bytes=len(self.buf))
        out = real_finish(self)
        mark("shard-unpickled")
        return out

    par.Child.__init__, par.Child._finish = init, finish
    par.os = OsReaping()
    real_pool = shards.run_pool

    def pool(starts, limit, *a, **kw):
        mark("pool-start", limit=limit)
        try:
            return real_pool(starts, limit, *a, **kw)
        finally:
            mark("pool-end")

    shards.run_pool = pool

    def wrap(owner, name):
        real = getattr(owner, name)

        def timed(*a, **kw):
            mark(name + ">")
            try:
                return real(*a, **kw)
            finally:
                mark(name + "<")

        setattr(owner, name, timed)

    wrap(shards, "plan")
    for name in ("consistent", "assemble"):
        wrap(assemble, name)
    shards.assemble = assemble.assemble
    wrap(results.Results, "render")
    wrap(common, "write_output")
    score_mod.write_output = common.write_output
    real_exit = common.fast_exit

    def fast_exit(code):
        mark("exit")
        t = os.times()
        EVENTS.append(
            dict(
                name="times",
                user=t.user,
                sys=t.system,
                children=t.children_user + t.children_system,
            )
        )
        _report()
        real_exit(code)

    score_mod.fast_exit = fast_exit


def summary(events: list, cores: int) -> dict:
    first = {e["name"]: e for e in reversed(events)}
    starts = [e["pid"] for e in events if e["name"] == "shard-start"]
    cpu = {e["pid"]: e["shard_cpu"] for e in events if e["name"] == "shard-reaped"}
    arrived = [e for e in events if e["name"] == "shard-arrived"]
    out = dict(
        shards=len(starts),
        parent_cpu=first["times"]["user"] + first["times"]["sys"],
        workers_cpu=first["times"]["children"],
    )
    if not arrived or "pool-start" not in first:
        return out
    pool0, last, end = first["pool-start"], arrived[-1], first["exit"]
    limit = min(pool0["limit"], cores)
    lanes = [0.0] * max(1, limit)
    for pid in starts:
        lanes[lanes.index(min(lanes))] += cpu.get(pid, 0.0)
    out.update(
        start_cpu=pool0["cpu"],
        makespan=max(lanes),
        lanes_min=min(lanes),
        parent_cpu_in_pool=last["cpu"] - pool0["cpu"],
        tail_wall=end["wall"] - last["wall"],
        tail_cpu=end["cpu"] - last["cpu"],
        wall=end["wall"],
    )
    out["estimate_wall"] = (
        out["start_cpu"] + out["makespan"] + out["parent_cpu_in_pool"] / 2 + out["tail_cpu"]
    )
    return out


def _report() -> None:
    s = summary(EVENTS, ARGS.cores)
    if ARGS.json:
        with open(ARGS.json, "w") as fh:
            json.dump(dict(summary=s, events=EVENTS), fh, indent=1)
    sys.stderr.write(
        "shard_trace: "
        + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in s.items())
        + "\n"
    )


def main() -> None:
    global ARGS
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cores", type=int, default=2, help="cores of the estimate")
    ap.add_argument("--json", help="write the summary and every event here")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="-- and acescore's arguments")
    ARGS = ap.parse_args()
    argv = ARGS.args[1:] if ARGS.args[:1] == ["--"] else ARGS.args
    _instrument()
    from acescore.entry import run

    sys.argv = ["acescore"] + argv
    mark("start")
    run()


if __name__ == "__main__":
    main()
