#!/usr/bin/env python3
"""Small runs: one document, ten documents, ``--help`` and ``--version``, acescore against
the NIST tool, their runs alternating.

A CI check or an editor loop scores one document or ten, many times a day; there the time
is the interpreter's start and the imports, not the scoring.  The cases, made from the
golden corpora the tests keep (``tests/data/golden``), each scored with ``-m``:

* ``1 doc``: the first document of ``tiny``, its REF against the ``heavy`` system;
* ``3 docs``: the whole ``tiny`` corpus against ``heavy`` (a golden report);
* ``10 docs``: the first ten documents of ``small`` against ``heavy``;
* ``--help``, ``--version``: the command line's own.

Every run is a whole process, timed as bench/run.py times it (wall, CPU of the process and
its workers, peak memory); the runs go round robin -- each checkout's run of a case, then the
NIST tool's -- so that a change of the machine's load hits every command alike.  Medians
[min-max], the NIST tool's median over acescore's (``x1.6``: acescore 1.6 times as fast)
and whether every report is the NIST tool's (first line excepted).

Usage:
    ACE_NIST_SCORER=/path/to/ace08-eval-v08.pl python bench/small_runs.py [CHECKOUT ...]
        [--runs 9] [--cases "1 doc,10 docs,--help,--version"] [--jobs N] [--out FILE]

CHECKOUT (default: this one) is a directory holding the ``acescore`` package, put first on
PYTHONPATH of this interpreter (``git worktree add --detach /tmp/old COMMIT`` measures an
older commit in the same runs).  The NIST tool runs with ``PERL_HASH_SEED=0``: the unmodified
tool stops on the symmetric relations of these corpora with most hash seeds (the seed of the
golden outputs).  Without ``ACE_NIST_SCORER`` only acescore is timed.  ``--check`` names a
deterministic copy of the tool (05-determinism.md Appendix A) whose report, made once and not
timed, each acescore report is compared with (the unmodified tool's tables follow its hash
order); without it the timed tool's report is.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from alternate import _env, prepare  # noqa: E402  (bench/alternate.py)
from run import measure, same_report  # noqa: E402  (bench/run.py)

GOLDEN = HERE.parent / "tests" / "data" / "golden"

#: case -> (corpus, documents: the first N of its lists)
CORPUS_CASES = {"1 doc": ("tiny", 1), "3 docs": ("tiny", 3), "10 docs": ("small", 10)}
DEFAULT_CASES = "1 doc,3 docs,10 docs,--help,--version"


def make_lists(case: str, scratch: Path) -> tuple[Path, Path]:
    """The REF and SYS list files of a corpus case (absolute paths, first N documents)."""
    corpus, n = CORPUS_CASES[case]
    folder = GOLDEN / corpus
    out = []
    for name in ("ref.list", "sys-heavy.list"):
        lines = (folder / name).read_text().split()[:n]
        target = scratch / f"{case.replace(' ', '')}-{name}"
        target.write_text("".join(f"{(folder / x).resolve()}\n" for x in lines))
        out.append(target)
    return out[0], out[1]


#: the ``acescore`` command as pip installs it (the console script of pyproject.toml):
#: what a user runs (``python -m acescore`` adds runpy's imports: 7 M instructions of
#: ``--version``'s 56 M; in a scoring run, whose imports load most of them anyway, 0.4 M)
CONSOLE_SCRIPT = """import sys
from acescore.entry import run
if __name__ == '__main__':
    sys.argv[0] = sys.argv[0].removesuffix('.exe')
    sys.exit(run())
"""


def commands(case: str, scratch: Path, jobs: int | None) -> tuple[list, list | None]:
    """acescore's command of a case (the installed command, run by this interpreter with
    the checkout first on PYTHONPATH), and the NIST tool's (None: acescore only)."""
    script = scratch / "acescore"
    if not script.exists():
        script.write_text(CONSOLE_SCRIPT)
    ace = [sys.executable, str(script)]
    if case in ("--help", "--version"):
        return ace + [case], None
    ref, sys_ = make_lists(case, scratch)
    flags = ["-r", str(ref), "-t", str(sys_), "-m"]
    nist = os.environ.get("ACE_NIST_SCORER")
    jobs_flag = [] if jobs is None else ["--jobs", str(jobs)]
    return (
        ace + ["score", *flags, "-q", *jobs_flag],
        ["perl", "-I", str(Path(nist).parent), nist, *flags] if nist else None,
    )


def _summary(ms: list) -> dict:
    out = {}
    for k in ("wall", "cpu"):
        v = [m[k] for m in ms]
        out[k] = {"median": statistics.median(v), "min": min(v), "max": max(v)}
    out["peak_mb"] = statistics.median(max(m["tree_rss_kb"], m["maxrss_kb"]) / 1024 for m in ms)
    out["processes"] = max(m["processes"] for m in ms)
    out["load"] = [min(m["load"] for m in ms), max(m["load"] for m in ms)]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkouts", nargs="*", type=Path, default=[HERE.parent])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--jobs", type=int, default=None, help="acescore --jobs (default: its own)")
    ap.add_argument("--check", default=None, help="a deterministic copy of the NIST tool")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    checkouts = [c.resolve() for c in args.checkouts]
    for c in checkouts:
        prepare(c)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    nist_env = dict(os.environ, PERL_HASH_SEED="0")
    result: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for case in cases:
            ours, theirs = commands(case, scratch, args.jobs)
            times: dict = {str(c): [] for c in checkouts}
            times["nist"] = []
            same = {str(c): True for c in checkouts}
            for i in range(args.runs):
                for k, c in enumerate(checkouts):
                    out = scratch / f"ours-{k}.txt"
                    m = measure(ours, scratch, out, _env(c))
                    if m["rc"] != 0:
                        raise SystemExit(f"{c}: exit code {m['rc']} ({' '.join(ours[1:])})")
                    times[str(c)].append(m)
                    if theirs is not None and i == 0:
                        check = scratch / f"check-{case.replace(' ', '')}.txt"
                        if not check.exists():  # (also the tool's warm-up: untimed)
                            cmd = theirs[:3] + [args.check] + theirs[4:] if args.check else theirs
                            measure(cmd, scratch, check, nist_env)
                        same[str(c)] = same_report(check, out)
                if theirs is not None:
                    m = measure(theirs, scratch, scratch / "nist.txt", nist_env)
                    if m["rc"] != 0:
                        raise SystemExit(f"the NIST tool: exit code {m['rc']} ({case})")
                    times["nist"].append(m)
            row = result[case] = {}
            for name, ms in times.items():
                if ms:
                    row[name] = _summary(ms)
            for c in checkouts:
                r = row[str(c)]
                line = (
                    f"{case:10s} {c.name:14s} wall {r['wall']['median'] * 1000:6.0f} ms"
                    f" [{r['wall']['min'] * 1000:.0f}-{r['wall']['max'] * 1000:.0f}]"
                    f" CPU {r['cpu']['median'] * 1000:6.0f} ms, {r['processes']} proc."
                )
                if "nist" in row:
                    n = row["nist"]
                    r["nist_over_this_wall"] = n["wall"]["median"] / r["wall"]["median"]
                    r["report_identical"] = same[str(c)]
                    line += (
                        f" | NIST {n['wall']['median'] * 1000:6.0f} ms"
                        f" [{n['wall']['min'] * 1000:.0f}-{n['wall']['max'] * 1000:.0f}]"
                        f" CPU {n['cpu']['median'] * 1000:.0f} ms: x{r['nist_over_this_wall']:.2f},"
                        f" reports {'identical' if same[str(c)] else 'DIFFER'}"
                    )
                line += f" (load {r['load'][0]:.1f}-{r['load'][1]:.1f})"
                print(line, flush=True)
    if args.out:
        doc = {
            "runs": args.runs,
            "python": sys.version.split()[0],
            "checkouts": [str(c) for c in checkouts],
            "results": result,
        }
        Path(args.out).write_text(json.dumps(doc, indent=1) + "\n")
    return (
        0
        if all(r.get("report_identical", True) for x in result.values() for r in x.values())
        else 1
    )


if __name__ == "__main__":
    sys.exit(main())
