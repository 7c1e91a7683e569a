"""``acescore compare REF SYS_A SYS_B ...``: is B really better than A?  (See
:mod:`acescore.compare`.)"""

from __future__ import annotations

import sys

import click

from acescore.cli.args import OPEN_UNIT
from acescore.cli.common import (
    die,
    emit_signature,
    fast_exit,
    mentions_option,
    output_options,
    write_output,
)
from acescore.cli.inputs import SCORING_KEYS, reads_apf
from acescore.model.errors import EXIT_GATE
from acescore.model.limits import MAX_BOOTSTRAP, MAX_RANDOMIZATION

DEFAULT_SEED = 12345

COMPARE_HELP = """Compare systems on the same reference: each system's scores with bootstrap
confidence intervals, and against the first system (the baseline) the difference, its
paired-bootstrap interval and a p-value by paired approximate randomization over documents;
then the documents that moved, those that moved against the corpus difference and those
whose mapping changed (Kehler et al. 2001).

REF and each SYS are an APF file, a directory or a list file, as for `acescore score`.
The reference is read once.  Every task of `score` is compared (with -m the mention-level
ones), and the coreference and event-extraction metrics of `acescore coref`/`events` (F1).

-j N: processes at once (0: one per CPU): the documents go in shards, each shard's
reference read once and every system scored on it in one process.
"""


@click.command("compare", help=COMPARE_HELP)
@reads_apf("systems", takes=SCORING_KEYS)
@mentions_option
@click.option(
    "-d",
    "--doc-scores",
    "docs",
    is_flag=True,
    help="List every document in the document view (default: those that moved "
    "most); JSON always has every document.",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Documents listed as those that moved most, per task.",
)
@click.option(
    "--name",
    "names",
    multiple=True,
    metavar="NAME",
    help="A system's name in the report, once per system in their order (default: its "
    "folder; for a list file, the folder its files are in).",
)
@click.option(
    "--bootstrap",
    type=click.IntRange(0, MAX_BOOTSTRAP),
    default=1000,
    show_default=True,
    help="Bootstrap resamples of the documents (0: no intervals).",
)
@click.option(
    "--ar",
    "randomization",
    type=click.IntRange(0, MAX_RANDOMIZATION),
    default=10000,
    show_default=True,
    help="Approximate randomization rounds (0: no p-values).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=DEFAULT_SEED,
    show_default=True,
    help="Random seed: the same seed gives the same intervals and p-values.",
)
@click.option(
    "--alpha",
    type=OPEN_UNIT,
    default=0.05,
    show_default=True,
    help="Significance level (the * mark, --fail-if-worse).",
)
@click.option(
    "--fail-if-worse",
    "fail_if_worse",
    multiple=True,
    metavar="TASK[,TASK]",
    help="Exit with status 3 when a system is significantly worse than the baseline "
    "(delta < 0 and p < --alpha) on one of these tasks (edr, val, tim, rdr, "
    "vdr, emd, rmd, vmd, coref.muc, events.trigger_classification, ...).",
)
@click.option(
    "--literature/--no-literature",
    default=True,
    show_default=True,
    help="Also compare the coreference and event-extraction metrics.",
)
@output_options(("text", "json"), "Write the comparison to this file instead of standard output.")
def compare(
    inputs,
    options,
    mentions,
    docs,
    names,
    top,
    bootstrap,
    randomization,
    seed,
    alpha,
    fail_if_worse,
    literature,
    output,
    fmt,
):
    quiet, systems = inputs.quiet, inputs.systems
    if len(systems) < 2:
        die("give the reference and at least two systems: REF SYS_A SYS_B (SYS_A is the baseline)")
    opts = options.but(mentions=mentions, literature=literature)
    # every gate checked before any work
    gates = _gate_tasks(fail_if_worse, opts)
    if names and len(names) != len(systems):
        die(
            f"--name given {len(names)} time(s) for {len(systems)} systems: give one name per"
            " system, in the order of the systems"
        )

    from acescore.compare.analysis import compare as compare_scored
    from acescore.compare.analysis import worse
    from acescore.compare.names import system_names
    from acescore.compare.render import to_json, to_text
    from acescore.compare.systems import score_systems

    progress = (
        None
        if quiet or not sys.stderr.isatty()
        else (lambda msg: sys.stderr.write(f"\r{msg[:60]:60s}\r"))
    )
    sys_paths = inputs.apf_paths("systems", opts)
    scored = score_systems(
        inputs.apf_paths("ref", opts),
        sys_paths,
        opts,
        system_names(list(systems), sys_paths, names),
        progress=progress,
    )
    if not quiet:
        if opts.ignored_mentions:
            click.echo(f"acescore: warning: {opts.ignored_mentions}", err=True)
        _warn(scored.warnings, inputs.verbose)
        from acescore.rules.grouping import grouped_lines, verbose_lines

        for who, rep in scored.skipped.items():
            lines = verbose_lines(rep) if inputs.verbose else grouped_lines([], rep)
            for line in lines:
                click.echo(f"acescore: {who}: {line}", err=True)
    result = compare_scored(scored, bootstrap, randomization, seed, alpha=alpha, top=top)
    unknown = [t for t in gates if t not in result["tasks"]]
    if unknown:  # a task the data has nothing of (the names were checked before scoring)
        die(
            f"--fail-if-worse: task(s) not compared: {', '.join(unknown)}: the reference has"
            " no elements of the kind (compared: " + ", ".join(result["tasks"]) + ")"
        )
    write_output(to_json(result) if fmt == "json" else to_text(result, docs), output)
    if fmt != "json":
        emit_signature(result["signature"], quiet)
    if not quiet:
        from acescore.rules.coverage import summary_line

        for name, c in scored.coverage.items():  # one line per system, named
            click.echo(summary_line(c).replace("acescore: ", f"acescore: {name}: ", 1), err=True)
    code = 0
    if gates:
        failures, notes = worse(result, gates, alpha)
        for n in notes:
            if not quiet:
                click.echo(f"acescore: --fail-if-worse: {n}", err=True)
        if failures:
            for f in failures:
                click.echo(f"acescore: {f}", err=True)
            code = EXIT_GATE
    fast_exit(code)


def _warn(warnings: dict, verbose: bool) -> None:
    """Each distinct warning once, in order of first appearance; a warning raised for some
    of the systems only names them.  Grouped by kind unless ``verbose``
    (:mod:`acescore.rules.grouping`)."""
    from acescore.rules.grouping import grouped_lines

    seen: dict = {}
    for who, ws in warnings.items():
        for w in ws:
            seen.setdefault(w, []).append(who)
    systems = [w for w in warnings if w != "REF"]
    out = [
        w
        if "REF" in who or who == systems
        else w.replace("WARNING:", f"WARNING ({', '.join(who)}):", 1)
        for w, who in seen.items()
    ]
    if verbose:
        sys.stderr.write("".join(out))
        return
    for line in grouped_lines(out, None):
        click.echo(f"acescore: {line}", err=True)


def _gate_tasks(specs, options) -> list:
    """Task names of --fail-if-worse (the NIST tasks by any name ``--fail-under`` takes, the
    literature metrics as ``coref.muc``, ``events.trigger_classification``...), checked
    before anything is read: an empty value, an unknown task and a task this run does not
    compare are usage errors."""
    from acescore.metrics import registry
    from acescore.model.tasks import TASKS, lookup

    nist = [t.json_name for t in TASKS if options.scores_mentions or not t.mention_level]
    literature = [f"{f}.{m}" for f in ("coref", "events") for m in registry.names(f)]
    compared = nist + (literature if options.literature else [])
    out = []
    for spec in specs:
        tasks = [t.strip().lower() for t in spec.split(",") if t.strip()]
        if not tasks:
            die(f"--fail-if-worse {spec!r}: give one or more tasks, TASK[,TASK] (e.g. edr,rdr)")
        for t in tasks:
            known = lookup(t)
            name = known.json_name if known is not None else t
            if name in compared:
                out.append(name)
                continue
            if known is not None and known.mention_level:
                why = (
                    "add -m"
                    if options.parameter_set.use_mentions
                    else f"parameter set {options.params} scores no mentions"
                )
            elif name in literature:
                why = "--no-literature leaves it out"
            else:
                die(f"--fail-if-worse: unknown task '{t}' (compared: {', '.join(compared)})")
            die(f"--fail-if-worse: {name} is not compared in this run ({why})")
    return out
