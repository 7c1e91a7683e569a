#!/usr/bin/env python3
"""``acescore compare`` of two systems against ``acescore score`` of one, their runs
alternating: what comparing costs over scoring.

The corpus is the 600-document real-shaped one of bench/run.py (``--generator realshape
--sizes 600``), which has one system output: the comparison is of that output with itself
(two systems, each scored once; the statistics do not depend on the values).  Each run is a
whole process, timed as bench/run.py times it; the runs go round robin -- each checkout's
``score``, then its ``compare`` -- so that a change of the machine's load hits both.
Medians [min-max] and compare's median over score's.

Usage:
    python bench/compare_score.py [CHECKOUT ...] [--corpus DIR] [--runs 3]
        [--score-flags "-m -q"] [--compare-flags "-m -q"] [--out FILE]

CHECKOUT (default: this one): a directory holding the ``acescore`` package, first on
PYTHONPATH (as in bench/alternate.py).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from alternate import DEFAULT_CORPUS, _env, prepare  # noqa: E402  (bench/alternate.py)
from run import measure, stats  # noqa: E402  (bench/run.py)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkouts", nargs="*", type=Path, default=[HERE.parent])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--score-flags", default="-m -q")
    ap.add_argument("--compare-flags", default="-m -q")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    checkouts = [c.resolve() for c in args.checkouts]
    for c in checkouts:
        prepare(c)
    corpus = args.corpus.resolve()
    sys_list = sorted(p.name for p in corpus.glob("sys-*.list"))[0]
    ace = [sys.executable, "-m", "acescore"]
    commands = {
        "score": ace + ["score", "-r", "ref.list", "-t", sys_list, *shlex.split(args.score_flags)],
        "compare": ace
        + ["compare", "ref.list", sys_list, sys_list, *shlex.split(args.compare_flags)],
    }
    times: dict = {(str(c), k): [] for c in checkouts for k in commands}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            for c in checkouts:
                for k, cmd in commands.items():
                    m = measure(cmd, corpus, Path(tmp) / "out.txt", _env(c))
                    if m["rc"] != 0:
                        raise SystemExit(f"{c}: {k}: exit code {m['rc']}")
                    times[(str(c), k)].append(m)
                    print(
                        f"run {i + 1}/{args.runs} {c.name} {k}: {m['wall']:.2f} s wall,"
                        f" {m['cpu']:.2f} s CPU (load {m['load']:.1f})",
                        file=sys.stderr,
                    )
    out: dict = {}
    for c in checkouts:
        s, k = stats(times[(str(c), "score")]), stats(times[(str(c), "compare")])
        ratio = k["wall"]["median"] / s["wall"]["median"]
        out[str(c)] = {"score": s, "compare": k, "compare_over_score_wall": ratio}
        print(
            f"{c.name}: score {s['wall']['median']:.2f} s [{s['wall']['min']:.2f}-"
            f"{s['wall']['max']:.2f}] (CPU {s['cpu']['median']:.2f} s), compare"
            f" {k['wall']['median']:.2f} s [{k['wall']['min']:.2f}-{k['wall']['max']:.2f}]"
            f" (CPU {k['cpu']['median']:.2f} s): compare / score x{ratio:.2f}"
            f" (load {s['load']['min']:.1f}-{k['load']['max']:.1f})"
        )
    if args.out:
        doc = {"corpus": str(corpus), "runs": args.runs, "commands": commands, "results": out}
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
