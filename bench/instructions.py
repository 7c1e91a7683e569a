#!/usr/bin/env python3
"""Count the instructions acescore executes on a corpus: a measure of its work that the
load of a shared machine does not change.

Wall and CPU times on this machine vary by 10-30% between runs of the same command (other
virtual machines share the host), so a change of a few percent cannot be told from noise
by timing.  Valgrind's callgrind counts the instructions of every process of a run (the
parent and each forked shard), and the count of the same command repeats to about 0.05%
(the hash seed is fixed; what is left is the placement of objects in memory).  Instructions
are not time: memory behaviour (cache and TLB misses, page faults) is not counted, and it
is a large part of acescore's time; a change that saves instructions saves time, but the
time of a run is measured by bench/run.py.

Each checkout is run on the first N documents of a corpus for two values of N; the
difference of the two counts divided by the difference of N is the count per document,
without what every run costs whatever its size (the interpreter, imports, the report).

Usage:
    python bench/instructions.py CHECKOUT [CHECKOUT ...] [--corpus DIR] [--docs 40,120]
                                 [--flags "-m --jobs 1"] [--out FILE]

CHECKOUT is a directory holding the ``acescore`` package (a git worktree of another
commit, say: ``git worktree add --detach /tmp/old COMMIT``); it is put first on PYTHONPATH
for the runs of this interpreter.  Needs valgrind (Debian package ``valgrind``); 40
real-sized documents take about half a minute under it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE / "corpora" / "real-local-600-bench"
_COLLECTED = re.compile(r"^==(\d+)== Collected : (\d+)", re.M)


def count(checkout: Path, corpus: Path, docs: int, flags: list, scratch: Path) -> dict:
    """The instructions of one run on the first ``docs`` documents: per process and total."""
    lists = []
    for name, side in (("ref.list", "ref"), (_sys_list(corpus), "sys")):
        lines = (corpus / name).read_text().splitlines()[:docs]
        path = scratch / f"{side}-{docs}.list"
        path.write_text("".join(f"{corpus / line}\n" for line in lines))
        lists.append(path)
    logs = scratch / f"cg-{checkout.name}-{docs}"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir()
    env = dict(
        os.environ,
        PYTHONHASHSEED="0",
        PYTHONPATH=os.pathsep.join(
            [str(checkout)] + [p for p in [os.environ.get("PYTHONPATH")] if p]
        ),
    )
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--trace-children=yes",
        "--callgrind-out-file=/dev/null",
        f"--log-file={logs}/%p.log",
        sys.executable,
        "-m",
        "acescore",
        "score",
        "-r",
        str(lists[0]),
        "-t",
        str(lists[1]),
        *flags,
        "-q",
        "-o",
        os.devnull,
    ]
    done = subprocess.run(
        cmd, env=env, cwd=corpus, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if done.returncode != 0:
        raise SystemExit(
            f"instructions: the run failed ({done.returncode}): {done.stderr.strip()[-500:]}"
        )
    processes = {}
    for log in logs.iterdir():
        for pid, n in _COLLECTED.findall(log.read_text(errors="replace")):
            processes[int(pid)] = int(n)
    if not processes:
        raise SystemExit(f"instructions: valgrind reported no counts in {logs}")
    return {
        "docs": docs,
        "processes": len(processes),
        "total": sum(processes.values()),
        "largest": max(processes.values()),
    }


def _sys_list(corpus: Path) -> str:
    found = sorted(p.name for p in corpus.glob("sys-*.list"))
    if not found:
        raise SystemExit(f"instructions: no sys-*.list in {corpus}")
    return found[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument(
        "--corpus",
        type=Path,
        default=DEFAULT_CORPUS,
        help="a bench corpus (ref.list, sys-*.list; bench/run.py makes them)",
    )
    ap.add_argument("--docs", default="40,120", help="two corpus sizes, comma-separated")
    ap.add_argument("--flags", default="-m --jobs 1")
    ap.add_argument("--out", type=Path, help="write the counts as JSON here too")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("instructions: valgrind is not installed (apt-get install valgrind)")
    small, large = (int(x) for x in args.docs.split(","))
    if not 0 < small < large:
        raise SystemExit("instructions: --docs takes two sizes, the smaller first")
    rows = []
    with tempfile.TemporaryDirectory(prefix="acescore-instr-") as tmp:
        for checkout in args.checkouts:
            checkout = checkout.resolve()
            if not (checkout / "acescore" / "__init__.py").exists():
                raise SystemExit(f"instructions: no acescore package in {checkout}")
            a = count(checkout, args.corpus, small, args.flags.split(), Path(tmp))
            b = count(checkout, args.corpus, large, args.flags.split(), Path(tmp))
            per_doc = (b["total"] - a["total"]) / (large - small)
            rows.append(
                {
                    "checkout": str(checkout),
                    "runs": [a, b],
                    "per_document": per_doc,
                    "fixed": a["total"] - per_doc * small,
                }
            )
            print(
                f"{checkout}: {a['total'] / 1e9:.3f} G ({small} documents),"
                f" {b['total'] / 1e9:.3f} G ({large}); {per_doc / 1e6:.1f} M a document,"
                f" {rows[-1]['fixed'] / 1e9:.3f} G fixed",
                flush=True,
            )
    base = rows[0]["per_document"]
    for r in rows[1:]:
        print(
            f"{r['checkout']}: x{base / r['per_document']:.3f} fewer instructions a"
            f" document than {rows[0]['checkout']}"
        )
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    "corpus": str(args.corpus),
                    "flags": args.flags,
                    "python": sys.version.split()[0],
                    "rows": rows,
                },
                indent=2,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
