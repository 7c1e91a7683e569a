#!/usr/bin/env python3
"""Time two or more checkouts of acescore against each other, their runs alternating.

On a shared machine the time of the same command drifts by 10-30% within an hour, so the
runs of the checkouts alternate (A B A B ...): a drift then moves both.  Each run is a
whole process (the interpreter, every worker), timed as bench/run.py times it: wall time,
CPU time (user+sys of the command and its worker processes), peak memory.  Medians, the
first checkout's CPU and wall medians divided by each checkout's ("x1.85": the first needs
1.85 times as much), and whether every report is the first checkout's (first line
excepted) are printed and, with ``--out``, written as JSON.

Usage:
    python bench/alternate.py CHECKOUT [CHECKOUT ...] [--corpus DIR] [--runs 6]
                              [--flags "-m --jobs 1"] [--out FILE]

CHECKOUT is a directory holding the ``acescore`` package (a git worktree of another commit:
``git worktree add --detach /tmp/old COMMIT``); it is put first on PYTHONPATH for this
interpreter, whose site-packages give the dependencies.  The default corpus is the
600-document real-shaped one of bench/run.py (``--generator realshape --sizes 600``).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run import measure, same_report, stats  # noqa: E402  (bench/run.py)

DEFAULT_CORPUS = HERE / "corpora" / "real-local-600-bench"


def _env(checkout: Path) -> dict:
    path = [str(checkout)] + [p for p in [os.environ.get("PYTHONPATH")] if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path))


def prepare(checkout: Path) -> Path:
    """Check that this interpreter imports acescore from ``checkout`` and compile its
    bytecode before any run is timed; returns the package directory."""
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import acescore, os; print(os.path.dirname(os.path.realpath(acescore.__file__)))",
        ],
        env=_env(checkout),
        cwd="/",
        capture_output=True,
        text=True,
    )
    pkg = Path(found.stdout.strip() or "?")
    if found.returncode or pkg != (checkout / "acescore").resolve():
        raise SystemExit(
            f"{checkout}: this interpreter imports acescore from {pkg}, not"
            " from the checkout (is it a directory holding the package?)"
        )
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(pkg)], check=True, stdout=subprocess.DEVNULL
    )
    return pkg


def command(corpus: Path, flags: str) -> list:
    """``acescore score`` of the corpus's REF and first SYS list."""
    sys_list = sorted(p.name for p in corpus.glob("sys-*.list"))
    if not (corpus / "ref.list").exists() or not sys_list:
        raise SystemExit(
            f"{corpus}: no ref.list and sys-*.list (make the corpus with"
            " bench/run.py --generator realshape)"
        )
    return [
        sys.executable,
        "-m",
        "acescore",
        "score",
        "-r",
        "ref.list",
        "-t",
        sys_list[0],
        *shlex.split(flags),
    ]


def alternate(checkouts: list, corpus: Path, flags: str, runs: int, scratch: Path) -> dict:
    cmd = command(corpus, flags)
    times: dict = {str(c): [] for c in checkouts}
    same: dict = {str(c): True for c in checkouts}
    first = scratch / "first.txt"
    for i in range(runs):
        for k, c in enumerate(checkouts):
            out = scratch / f"{k}.txt"
            m = measure(cmd, corpus, out, _env(c))
            if m["rc"] != 0:
                raise SystemExit(f"{c}: exit code {m['rc']} ({shlex.join(cmd[1:])})")
            times[str(c)].append(m)
            if i == 0 and k == 0:
                out.replace(first)
            else:
                same[str(c)] = same[str(c)] and same_report(first, out)
            print(
                f"run {i + 1}/{runs} {c}: {m['wall']:.2f} s wall, {m['cpu']:.2f} s CPU",
                file=sys.stderr,
            )
    st = {c: stats(ms) for c, ms in times.items()}
    base = st[str(checkouts[0])]
    out = {}
    for c in checkouts:
        r = out[str(c)] = st[str(c)]
        r["first_over_this_cpu"] = base["cpu"]["median"] / r["cpu"]["median"]
        r["first_over_this_wall"] = base["wall"]["median"] / r["wall"]["median"]
        r["report_identical"] = same[str(c)]
        r["runs"] = [{k: m[k] for k in ("wall", "cpu", "load")} for m in times[str(c)]]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--flags", default="-m --jobs 1 -q")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    checkouts = [c.resolve() for c in args.checkouts]
    commits = {}
    for c in checkouts:
        prepare(c)
        rev = subprocess.run(
            ["git", "-C", str(c), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        commits[str(c)] = rev.stdout.strip() or None
    with tempfile.TemporaryDirectory() as tmp:
        result = alternate(checkouts, args.corpus.resolve(), args.flags, args.runs, Path(tmp))
    for c in checkouts:
        r = result[str(c)]
        print(
            f"{c} ({commits[str(c)]}): wall {r['wall']['median']:.2f} s"
            f" [{r['wall']['min']:.2f}-{r['wall']['max']:.2f}], CPU {r['cpu']['median']:.2f} s"
            f" [{r['cpu']['min']:.2f}-{r['cpu']['max']:.2f}], peak {r['peak_mb']['median']:.0f}"
            f" MB; first / this: CPU x{r['first_over_this_cpu']:.2f},"
            f" wall x{r['first_over_this_wall']:.2f};"
            f" report {'identical' if r['report_identical'] else 'DIFFERENT'}"
        )
    if args.out:
        doc = {
            "corpus": str(args.corpus),
            "flags": args.flags,
            "runs": args.runs,
            "python": sys.version.split()[0],
            "commits": commits,
            "results": result,
        }
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    return 0 if all(r["report_identical"] for r in result.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
