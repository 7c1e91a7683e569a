"""``acescore compare REF SYS_A SYS_B ...``: is B really better than A?  (See
:mod:`acescore.compare`.)  Registered on the main group by :mod:`acescore.cli`."""
from __future__ import annotations

import os
import sys

import click

from acescore.cli_metrics import _die, _emit
from acescore.errors import EXIT_GATE, AceError
from acescore.params import PARAMETER_SETS

DEFAULT_SEED = 12345

COMPARE_HELP = """Compare systems on the same reference: each system's scores with bootstrap
confidence intervals, and against the first system (the baseline) the difference, its
paired-bootstrap interval and a p-value by paired approximate randomization over documents;
then the documents that moved, those that moved against the corpus difference and those
whose mapping changed (Kehler et al. 2001).

REF and each SYS are an APF file, a directory or a list file, as for `acescore score`.
The reference is read once.  Every task of `score` is compared (with -m the mention-level
ones), and the coreference and event-extraction metrics of `acescore coref`/`events` (F1).
"""


@click.command("compare", help=COMPARE_HELP)
@click.argument("ref")
@click.argument("systems", metavar="SYS_A SYS_B [SYS_C ...]", nargs=-1, required=True)
@click.option("-P", "--params", "params", default="local_2008", show_default=True,
              type=click.Choice(sorted(PARAMETER_SETS)), help="Parameter set (NIST -P).")
@click.option("-m", "--mentions", is_flag=True,
              help="Also compare the mention-level tasks EMD, RMD and event mentions.")
@click.option("-d", "--doc-scores", "docs", is_flag=True,
              help="List every document in the document view (default: those that moved "
                   "most); JSON always has every document.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="Documents listed as those that moved most, per task.")
@click.option("--bootstrap", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Bootstrap resamples of the documents (0: no intervals).")
@click.option("--ar", "randomization", type=click.IntRange(min=0), default=10000,
              show_default=True, help="Approximate randomization rounds (0: no p-values).")
@click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True,
              help="Random seed: the same seed gives the same intervals and p-values.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True), default=0.05,
              show_default=True, help="Significance level (the * mark, --fail-if-worse).")
@click.option("--fail-if-worse", "fail_if_worse", multiple=True, metavar="TASK[,TASK]",
              help="Exit with status 3 when a system is significantly worse than the baseline "
                   "(delta < 0 and p < --alpha) on one of these tasks (edr, val, tim, rdr, "
                   "vdr, emd, rmd, vmd, coref.muc, events.trigger_classification, ...).")
@click.option("--literature/--no-literature", default=True, show_default=True,
              help="Also compare the coreference and event-extraction metrics.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the comparison to this file instead of standard output.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--max-file-size", type=int, default=64 * 1024 * 1024, show_default=True,
              help="Largest APF file accepted, in bytes.")
@click.option("--lenient", is_flag=True,
              help="Skip broken elements and documents as `score --lenient` does (the "
                   "systems must end up with the same reference documents).")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=None,
              help="Systems scored at once, each in a process of its own (default: 2 on a "
                   "machine with 2 or more CPUs, else 1; 0: one per CPU).  The result is the "
                   "same; --jobs 1 uses the least memory.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings or progress on standard error.")
def compare_cmd(ref, systems, params, mentions, docs, top, bootstrap, randomization, seed,
                alpha, fail_if_worse, literature, output, fmt, max_file_size, lenient, jobs,
                quiet):
    from acescore import api
    from acescore.compare.analysis import compare, worse
    from acescore.compare.render import to_json, to_text
    from acescore.compare.systems import score_systems, system_names
    if len(systems) < 2:
        _die("give the reference and at least two systems: REF SYS_A SYS_B (SYS_A is the "
             "baseline)")
    gates = _gate_tasks(fail_if_worse)
    p = api.get_params(params)
    progress = None if quiet or not sys.stderr.isatty() else (
        lambda msg: sys.stderr.write(f"\r{msg[:60]:60s}\r"))
    try:
        rpaths = api.discover_paths(ref)
        spaths = [api.discover_paths(s) for s in systems]
        scored = score_systems(rpaths, spaths, p, mentions, system_names(list(systems)),
                               lenient=lenient, literature=literature,
                               max_bytes=max_file_size, progress=progress,
                               jobs=_jobs(jobs))
    except AceError as e:
        _die(str(e), e.exit_code)
    if not quiet:
        _warn(scored.warnings)
        for who, rep in scored.skipped.items():
            for line in rep.lines():
                click.echo(f"acescore: {who}: {line}", err=True)
    result = compare(scored, bootstrap, randomization, seed, alpha=alpha, top=top)
    unknown = [t for t in gates if t not in result["tasks"]]
    if unknown:
        _die(f"--fail-if-worse: task(s) not compared: {', '.join(unknown)} (compared: "
             + ", ".join(result["tasks"]) + ")")
    _emit(to_json(result) if fmt == "json" else to_text(result, docs), output)
    if gates:
        failures, notes = worse(result, gates, alpha)
        for n in notes:
            if not quiet:
                click.echo(f"acescore: --fail-if-worse: {n}", err=True)
        if failures:
            for f in failures:
                click.echo(f"acescore: {f}", err=True)
            sys.exit(EXIT_GATE)


def _jobs(jobs) -> int:
    cpus = os.cpu_count() or 1
    return min(2, cpus) if jobs is None else (cpus if jobs == 0 else jobs)


def _warn(warnings: dict) -> None:
    """Each distinct warning once, in order of first appearance; a warning raised for some
    of the systems only names them."""
    seen: dict = {}
    for who, ws in warnings.items():
        for w in ws:
            seen.setdefault(w, []).append(who)
    systems = [w for w in warnings if w != "REF"]
    for w, who in seen.items():
        if "REF" in who or who == systems:
            sys.stderr.write(w)
        else:
            sys.stderr.write(w.replace("WARNING:", f"WARNING ({', '.join(who)}):", 1))


def _gate_tasks(specs) -> list:
    """Task names of --fail-if-worse (the NIST tasks also by their --fail-under aliases)."""
    from acescore.report.json_report import ALIASES
    out = []
    for spec in specs:
        for t in spec.split(","):
            t = t.strip().lower()
            if t:
                out.append(ALIASES.get(t, t))
    return out
