"""``acescore compare REF SYS_A SYS_B ...``: is B really better than A?  (See
:mod:`acescore.compare`.)"""

from __future__ import annotations

import sys

import click

from acescore.cli.common import (
    die,
    emit_signature,
    fast_exit,
    mentions_option,
    output_options,
    write_output,
)
from acescore.cli.inputs import VERSION_KEYS, reads_apf
from acescore.model.errors import EXIT_GATE

DEFAULT_SEED = 12345

COMPARE_HELP = """Compare systems on the same reference: each system's scores with bootstrap
confidence intervals, and against the first system (the baseline) the difference, its
paired-bootstrap interval and a p-value by paired approximate randomization over documents;
then the documents that moved, those that moved against the corpus difference and those
whose mapping changed (Kehler et al. 2001).

REF and each SYS are an APF file, a directory or a list file, as for `acescore score`.
The reference is read once.  Every task of `score` is compared (with -m the mention-level
ones), and the coreference and event-extraction metrics of `acescore coref`/`events` (F1).

-j N: systems scored at once, each in a process of its own (0: one per CPU); --jobs 1 uses
the least memory.
"""


@click.command("compare", help=COMPARE_HELP)
@reads_apf(
    "systems",
    takes=(
        *VERSION_KEYS,
        "params",
        "docs_file",
        "lenient",
        "max_bytes",
        "jobs",
        "max_pairs",
        "quiet",
        "verbose",
    ),
)
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
    "--bootstrap",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    help="Bootstrap resamples of the documents (0: no intervals).",
)
@click.option(
    "--ar",
    "randomization",
    type=click.IntRange(min=0),
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
    type=click.FloatRange(0, 1, min_open=True),
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
    from acescore.compare.analysis import compare as compare_scored
    from acescore.compare.analysis import worse
    from acescore.compare.render import to_json, to_text
    from acescore.compare.systems import score_systems, system_names
    from acescore.run.pipeline import discover

    quiet, systems = inputs.quiet, inputs.systems
    if len(systems) < 2:
        die("give the reference and at least two systems: REF SYS_A SYS_B (SYS_A is the baseline)")
    gates = _gate_tasks(fail_if_worse)
    opts = options.but(mentions=mentions, literature=literature)
    progress = (
        None
        if quiet or not sys.stderr.isatty()
        else (lambda msg: sys.stderr.write(f"\r{msg[:60]:60s}\r"))
    )
    scored = score_systems(
        discover(inputs.ref, inputs.ref_list),
        [discover(s) for s in systems],
        opts,
        system_names(list(systems)),
        progress=progress,
    )
    if not quiet:
        _warn(scored.warnings)
        for who, rep in scored.skipped.items():
            for line in rep.lines():
                click.echo(f"acescore: {who}: {line}", err=True)
    result = compare_scored(scored, bootstrap, randomization, seed, alpha=alpha, top=top)
    unknown = [t for t in gates if t not in result["tasks"]]
    if unknown:
        die(
            f"--fail-if-worse: task(s) not compared: {', '.join(unknown)} (compared: "
            + ", ".join(result["tasks"])
            + ")"
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
    """Task names of --fail-if-worse (the NIST tasks by any name ``--fail-under`` takes)."""
    from acescore.model.tasks import lookup

    out = []
    for spec in specs:
        for t in spec.split(","):
            t = t.strip().lower()
            if t:
                known = lookup(t)
                out.append(known.json_name if known is not None else t)
    return out
