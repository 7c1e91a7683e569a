#!/usr/bin/env python3
"""Benchmark acescore (and, if named by ACE_NIST_SCORER, the NIST tool) on synthetic corpora.

Whole-process wall time, CPU time (user+sys of the command and its worker processes) and
peak memory (the larger of the max RSS and of the process tree's summed RSS, sampled every
5 ms: with ``--jobs`` every worker counts) over several runs; median, min and max are
reported.  The package's bytecode is compiled before the first timed run, as ``pip install``
does (see ``compile_bytecode``).  Corpora are generated with the
project's synthetic generator (``--synth``, default tools/acesynth.py) into
``bench/corpora`` (not committed) and reused when present.

Usage:
    python bench/run.py [--sizes 250,1000,4000] [--runs 3] [--profile heavy] [--global-size 250]
                        [--flags "-m"] [--jobs 1,3] [--out bench/results/latest.json]

When the environment variable ACE_NIST_SCORER names a local copy of the NIST tool (a
deterministic copy, 05-determinism.md Appendix A, so that reports can be compared byte for
byte), it is run on the same input in the same benchmark run; the ratio is reported pair by
pair together with whether the two reports are identical (first line excepted).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_SYNTH = ROOT / "tools" / "acesynth.py"


def make_corpus(
    synth: Path, size: int, profile: str, glob: bool, seed: str, generator: str = "acesynth"
) -> Path:
    if generator == "realshape":  # bench/realshape.py: real-sized documents
        name = f"real-{'global' if glob else 'local'}-{size}-{seed}"
        cmd = [sys.executable, str(HERE / "realshape.py"), "--synth", str(synth)]
    else:
        name = f"{'global' if glob else 'local'}-{size}-{profile}-{seed}"
        cmd = [sys.executable, str(synth), "--profiles", profile, "--quiet", "--force"]
    out = HERE / "corpora" / name
    if (out / "ref.list").exists():
        return out
    cmd += ["--docs", str(size), "--seed", seed, "--out", str(out)]
    if glob:
        cmd.append("--global")
    subprocess.run(cmd, check=True)
    return out


MEASURE = r"""
import json, os, resource, subprocess, sys, threading, time

def tree(pid):
    out = [pid]
    for p in out:                          # breadth-first over /proc/<p>/task/*/children
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/children") as fh:
                    out.extend(int(x) for x in fh.read().split())
        except OSError:
            pass
    return out

PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024

def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * PAGE_KB
    except (OSError, IndexError, ValueError):
        return 0

cmd = json.loads(sys.argv[1])
load = os.getloadavg()[0]
t = time.perf_counter()
with open(sys.argv[2], "wb") as out:
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
    peak = [0, 1]
    def sample():
        while p.poll() is None:
            pids = tree(p.pid)
            peak[0] = max(peak[0], sum(rss_kb(x) for x in pids))
            peak[1] = max(peak[1], len(pids))
            time.sleep(0.005)
    th = threading.Thread(target=sample, daemon=True)
    th.start()
    rc = p.wait()
    th.join()
w = time.perf_counter() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": w, "cpu": r.ru_utime + r.ru_stime, "user": r.ru_utime,
                  "sys": r.ru_stime, "maxrss_kb": r.ru_maxrss, "tree_rss_kb": peak[0],
                  "processes": peak[1], "rc": rc, "load": load}))
"""


def measure(cmd: list[str], cwd: Path, stdout_path: Path, env: dict | None = None) -> dict:
    """Run ``cmd`` from a fresh interpreter: wall time, CPU time (user+sys of the command and
    all its processes), max RSS of its largest process and, sampled every 5 ms (statm is
    cheap to read), the peak of the summed RSS of its process tree: with ``--jobs`` the
    workers' memory counts too, pages shared after fork once per process (an upper bound).
    ``env``: the command's environment (default: this one)."""
    res = subprocess.run(
        [sys.executable, "-c", MEASURE, json.dumps(cmd), str(stdout_path)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return json.loads(res.stdout)


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def stats(ms: list[dict]) -> dict:
    """Median/min/max of the measurements of several runs.  ``peak_mb``: the larger of
    the sampled process-tree RSS sum and the max RSS of the largest process."""
    return {
        "wall": summary([m["wall"] for m in ms]),
        "cpu": summary([m["cpu"] for m in ms]),
        "maxrss_mb": summary([m["maxrss_kb"] / 1024 for m in ms]),
        "peak_mb": summary([max(m["tree_rss_kb"], m["maxrss_kb"]) / 1024 for m in ms]),
        "processes": max(m["processes"] for m in ms),
        "load": summary([m["load"] for m in ms]),
    }


def same_report(a: Path, b: Path) -> bool:
    la = a.read_text(encoding="utf-8", errors="replace").split("\n", 1)
    lb = b.read_text(encoding="utf-8", errors="replace").split("\n", 1)
    return la[1:] == lb[1:]


def _command(args, variant: str, j: int, profile: str, scratch: Path) -> list[str]:
    """The acescore command of one variant: flags for ``acescore score``, or ``view``
    (``acescore view -m`` writing its site to ``scratch``)."""
    if variant == "view":
        return [
            args.acescore,
            "view",
            "ref.list",
            f"sys-{profile}.list",
            "--source-dir",
            "src",
            "-o",
            str(scratch),
            "-m",
            "--jobs",
            str(j),
            "-q",
        ]
    return [
        args.acescore,
        "score",
        "-r",
        "ref.list",
        "-t",
        f"sys-{profile}.list",
        *variant.split(),
        *(["--nist", args.nist] if args.nist else []),
        "--jobs",
        str(j),
        "-q",
    ]


def compile_bytecode(acescore: str) -> str:
    """Compile the package's bytecode once, before any run is timed, as ``pip install`` does
    (an editable install writes it on the first run -- unless PYTHONDONTWRITEBYTECODE is
    set, as on some CI machines, when every run would compile the ~100 modules again).
    Returns the package directory compiled ("" if it could not be found)."""
    script = Path(acescore)
    try:
        first = script.read_text(errors="replace").splitlines()[0]
    except (OSError, IndexError):
        return ""
    python = first[2:].strip() if first.startswith("#!") else sys.executable
    found = subprocess.run(
        [python, "-c", "import acescore, os; print(os.path.dirname(acescore.__file__))"],
        capture_output=True,
        text=True,
    )
    pkg = found.stdout.strip()
    if found.returncode or not pkg:
        return ""
    subprocess.run([python, "-m", "compileall", "-q", pkg], check=True, stdout=subprocess.DEVNULL)
    return pkg


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="250,1000,4000")
    ap.add_argument("--global-size", type=int, default=250)
    ap.add_argument(
        "--generator",
        choices=["acesynth", "realshape"],
        default="acesynth",
        help="corpus generator: acesynth (--profile) or bench/realshape.py "
        "(real-sized documents, system profile firstpass)",
    )
    ap.add_argument("--profile", default="heavy")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--nist-runs", type=int, default=1)
    ap.add_argument("--flags", default="-m")
    ap.add_argument(
        "--variants",
        default=None,
        help="';'-separated flag sets to run instead of --flags (e.g. "
        "'-m;-m -a;-m --format json;view'); 'view' is acescore view -m"
        " (with each --jobs value)",
    )
    ap.add_argument(
        "--jobs", default="1", help="acescore --jobs values to run, comma-separated (e.g. 1,3)"
    )
    ap.add_argument(
        "--nist",
        default=None,
        choices=["ace05", "ace07", "ace08"],
        help="acescore score --nist VERSION (ACE_NIST_SCORER must then name that version's script)",
    )
    ap.add_argument("--synth", default=str(DEFAULT_SYNTH))
    ap.add_argument(
        "--acescore", default=shutil.which("acescore") or str(ROOT / ".venv/bin/acescore")
    )
    ap.add_argument("--out", default=str(HERE / "results" / "latest.json"))
    args = ap.parse_args()

    nist = os.environ.get("ACE_NIST_SCORER")
    synth = Path(args.synth)
    profile = "firstpass" if args.generator == "realshape" else args.profile
    variants = [v.strip() for v in (args.variants or args.flags).split(";") if v.strip()]
    jobs_values = [int(x) for x in args.jobs.split(",") if x]
    sizes = [(int(s), False) for s in args.sizes.split(",") if s]
    if args.global_size:
        sizes.append((args.global_size, True))
    compiled = compile_bytecode(args.acescore)
    tmp = Path(tempfile.mkdtemp(prefix="acebench-"))
    rows = []
    for size, glob in sizes:
        corpus = make_corpus(synth, size, args.profile, glob, args.seed, args.generator)
        row = {
            "docs": size,
            "global": glob,
            "generator": args.generator,
            "profile": profile,
            "acescore": {},
        }
        runs: dict = {}
        for k in range(args.runs):  # round robin: a change of load hits every setting
            for variant in variants:
                for j in jobs_values:
                    name = f"{variant} --jobs {j}"
                    out = (
                        tmp / f"ours-{size}-{glob}-{len(runs.get(name, []))}-{abs(hash(name))}.txt"
                    )
                    # each run writes new files, as the reports of `score` are new files:
                    # a site written over an older one also unlinks its 600 old pages
                    # (0.2-0.3 s of 148 MB at 600 documents)
                    site = tmp / f"view-{size}-{glob}-{len(runs.get(name, []))}-{j}"
                    runs.setdefault(name, []).append(
                        measure(_command(args, variant, j, profile, site), corpus, out)
                    )
                    shutil.rmtree(site, ignore_errors=True)  # (not timed)
                    if k == 0:
                        row.setdefault("first_output", {})[name] = str(out)
        for name, ms in runs.items():
            row["acescore"][name] = stats(ms)
        if nist:
            theirs = []
            for k in range(args.nist_runs):
                out = tmp / f"nist-{size}-{glob}-{k}.txt"
                theirs.append(
                    measure(
                        [
                            "perl",
                            nist,
                            "-r",
                            "ref.list",
                            "-t",
                            f"sys-{profile}.list",
                            *args.flags.split(),
                        ],
                        corpus,
                        out,
                    )
                )
            row["nist"] = stats(theirs)
            n = row["nist"]
            print(
                f"{size:5d} docs{' (global)' if glob else '':9s} NIST {args.flags}: wall"
                f" {n['wall']['median']:8.2f}s cpu {n['cpu']['median']:8.2f}s peak"
                f" {n['peak_mb']['median']:7.1f} MB (load {n['load']['median']:.1f})",
                flush=True,
            )
            for name, a in row["acescore"].items():
                if name.split(" --jobs")[0] != args.flags:
                    continue
                a["speedup_wall"] = n["wall"]["median"] / a["wall"]["median"]
                a["speedup_cpu"] = n["cpu"]["median"] / a["cpu"]["median"]
                a["memory_ratio"] = n["peak_mb"]["median"] / a["peak_mb"]["median"]
                a["identical"] = same_report(
                    Path(row["first_output"][name]), tmp / f"nist-{size}-{glob}-0.txt"
                )
        for name, a in row["acescore"].items():
            line = (
                f"{size:5d} docs{' (global)' if glob else '':9s} {name:28s} wall"
                f" {a['wall']['median']:7.2f}s [{a['wall']['min']:.2f}-{a['wall']['max']:.2f}]"
                f" cpu {a['cpu']['median']:7.2f}s peak {a['peak_mb']['median']:7.1f} MB"
                f" ({a['processes']} proc., load {a['load']['median']:.1f})"
            )
            if "speedup_wall" in a:
                line += (
                    f" | x{a['speedup_wall']:.1f} faster (cpu x{a['speedup_cpu']:.1f}),"
                    f" x{a['memory_ratio']:.1f} less memory,"
                    f" reports {'identical' if a['identical'] else 'DIFFER'}"
                )
            print(line, flush=True)
        outs = {
            n: Path(p).read_text(encoding="utf-8", errors="replace").split("\n", 1)[1:]
            for n, p in row["first_output"].items()
            if not n.startswith("view")
        }
        for variant in variants:
            same = {
                outs[n] == outs[f"{variant} --jobs {jobs_values[0]}"]
                for n in outs
                if n.startswith(variant + " --jobs")
            }
            if variant != "view":
                print(
                    f"      {variant}: reports of every --jobs value"
                    f" {'identical' if same == {True} else 'DIFFER'}",
                    flush=True,
                )
        rows.append(row)
    local = [r for r in rows if not r["global"]]
    if len(local) >= 2:
        a, b = local[-2], local[-1]
        for name in b["acescore"]:
            growth = b["acescore"][name]["wall"]["median"] / a["acescore"][name]["wall"]["median"]
            print(f"time growth {a['docs']} -> {b['docs']} docs ({name}): x{growth:.2f}")
    meta = {
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        },
        "command": " ".join(sys.argv),
        "nist": bool(nist),
        "bytecode_compiled": compiled,
        "rows": rows,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(meta, indent=2))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
