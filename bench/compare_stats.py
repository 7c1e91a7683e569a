#!/usr/bin/env python3
"""Benchmark ``acescore compare``.

1. The statistics alone (always): per task, 1,000 bootstrap resamples (each of the two
   systems' interval and the paired interval of the difference) and 10,000 approximate
   randomization rounds over 600 documents, on random per-document components of the
   shape of each statistic (NIST Value: 2 components; F1 of counts: 3; MUC/B-cubed/CEAF: 4;
   BLANC: 6).  Median, min and max of --runs runs.
2. With ``--corpus``: a synthetic corpus of --docs documents (``acesynth.py``, profiles
   heavy and light, cached in bench/corpora/), timing ``acescore score -m`` of each system
   and ``acescore compare -m`` of the two, whole processes.

Usage:
    python bench/compare_stats.py [--docs 600] [--bootstrap 1000] [--ar 10000] [--runs 5]
                                  [--corpus]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from acescore.compare import stats  # noqa: E402

SHAPES = {"value": 2, "f1_counts": 3, "f1_rp": 4, "blanc_f1": 6}


def components(rng, n: int, k: int, statistic: str) -> np.ndarray:
    x = rng.integers(0, 30, size=(n, k)).astype(np.float64)
    if statistic == "value":  # cost below the REF value mostly
        x[:, 1] += 5
        x[:, 0] = np.minimum(x[:, 0], x[:, 1] * 1.2)
    return x


def one_task(statistic: str, n: int, bootstrap: int, rounds: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    k = SHAPES[statistic]
    xa, xb = components(rng, n, k, statistic), components(rng, n, k, statistic)
    f = stats.STATISTICS[statistic]
    t = time.perf_counter()
    draws = stats.Draws.make(n, bootstrap, rounds, seed, statistic)
    va, vb = float(f(xa.sum(axis=0))), float(f(xb.sum(axis=0)))
    stats.bootstrap_interval(xa, f, draws.weights, va)
    stats.bootstrap_interval(xb, f, draws.weights, vb)
    stats.paired_bootstrap(xa, xb, f, draws.weights, vb - va)
    stats.approximate_randomization(xa, xb, f, draws.masks, vb - va)
    return time.perf_counter() - t


def bench_stats(args) -> None:
    print(
        f"statistics: {args.docs} documents, {args.bootstrap} bootstrap resamples, "
        f"{args.ar} randomization rounds, {args.runs} runs (median [min-max])"
    )
    for statistic in SHAPES:
        times = [
            one_task(statistic, args.docs, args.bootstrap, args.ar, 100 + r)
            for r in range(args.runs)
        ]
        print(
            f"  {statistic:10s} {statistics.median(times) * 1000:7.1f} ms "
            f"[{min(times) * 1000:.1f}-{max(times) * 1000:.1f}] per task (two systems)"
        )


def timed(cmd: list) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def bench_corpus(args) -> None:
    synth = ROOT / "tools" / "acesynth.py"
    out = HERE / "corpora" / f"compare-{args.docs}"
    if not (out / "ref.list").exists():
        subprocess.run(
            [
                sys.executable,
                str(synth),
                "--docs",
                str(args.docs),
                "--seed",
                "bench",
                "--profiles",
                "heavy,light",
                "--out",
                str(out),
                "--quiet",
                "--force",
            ],
            check=True,
        )
    exe = str(Path(sys.executable).parent / "acescore")
    ref, a, b = str(out / "ref"), str(out / "sys-heavy"), str(out / "sys-light")
    rows = {
        "score heavy": [exe, "score", ref, a, "-m", "-q", "-o", "/dev/null", "-j", "1"],
        "score light": [exe, "score", ref, b, "-m", "-q", "-o", "/dev/null", "-j", "1"],
        "compare heavy light": [exe, "compare", ref, a, b, "-m", "-q", "-o", "/dev/null"],
        "compare heavy light --no-literature": [
            exe,
            "compare",
            ref,
            a,
            b,
            "-m",
            "-q",
            "-o",
            "/dev/null",
            "--no-literature",
        ],
    }
    print(f"corpus: {args.docs} documents (acesynth heavy, light), {args.runs} runs")
    for label, cmd in rows.items():
        times = [timed(cmd) for _ in range(args.runs)]
        print(
            f"  {label:38s} {statistics.median(times):6.2f} s [{min(times):.2f}-{max(times):.2f}]"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=600)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--ar", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--corpus", action="store_true", help="also time whole commands")
    args = ap.parse_args()
    bench_stats(args)
    if args.corpus:
        bench_corpus(args)


if __name__ == "__main__":
    main()
