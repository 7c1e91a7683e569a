"""``acescore score``: the NIST report (or JSON/CSV) of SYS against REF."""

from __future__ import annotations

import os
import sys
import time

import click

from acescore.cli.args import parse_gates
from acescore.cli.common import (
    die,
    emit_signature,
    emit_summary,
    emit_warnings,
    fast_exit,
    mentions_option,
    output_options,
    progress_bars,
    write_output,
)
from acescore.cli.inputs import SCORING_KEYS, reads_apf, score_inputs
from acescore.model.errors import EXIT_GATE, EXIT_UNUSABLE
from acescore.model.tasks import tasks_help

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

SCORE_HELP = """Score SYS against REF and print the NIST report.

REF and SYS are each an APF file, a directory (searched recursively for *.apf.xml and
*.apf) or a list file with one path per line.  The NIST tool's spellings are accepted
too: -R FILE / -r LIST for the reference, -T FILE / -t LIST for the system output.

-j N: the documents are read and scored in shards of at most 2 MB of REF files, each in a
forked process, N at a time (1: one after another); where shards are not possible the
document and mention-level passes run in parallel.
"""


def command_line_banner(argv: list[str]) -> str:
    t = time.localtime()
    date = f"{t.tm_year} {MONTHS[t.tm_mon - 1]} {t.tm_mday}"
    clock = f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}"
    return f"command line (run on {date} at {clock}):  {argv[0]} {' '.join(argv[1:])}\n"


def nist_flag_options(f):
    """-d, -a, -e, -s: the NIST tool's diagnostic outputs."""
    for opt, name, text in (
        ("-s", "--summary", "Print a summary of the annotation data (NIST -s)."),
        (
            "-e",
            "--error-mappings",
            "Print ref/sys comparisons for erroneous elements only (NIST -e).",
        ),
        ("-a", "--all-mappings", "Print ref/sys comparisons for all elements (NIST -a)."),
        ("-d", "--doc-scores", "Print document-level scores (NIST -d)."),
    ):
        f = click.option(opt, name, is_flag=True, help=text)(f)
    return mentions_option(f)


@click.command("score", help=SCORE_HELP)
@reads_apf("pair", takes=SCORING_KEYS)
@nist_flag_options
@click.option(
    "-c",
    "--check-duplicates",
    is_flag=True,
    help="Warn about equivalent (duplicate) elements; REF and SYS must be the same "
    "input (NIST -c).",
)
@output_options(
    ("text", "json", "csv"), "Write the report to this file instead of standard output."
)
@click.option(
    "--fail-under",
    "fail_under",
    multiple=True,
    metavar="TASK=VALUE",
    help="Exit with status 3 when TASK's Value (%) is below VALUE, e.g. edr=60 "
    f"(repeatable; tasks {tasks_help()}).",
)
@click.option(
    "--score-only",
    is_flag=True,
    help="Print one line instead of the report: each task's Value and the signature"
    " (text only: not with --format json/csv or -d/-a/-e/-s).",
)
def score(
    inputs,
    options,
    mentions,
    doc_scores,
    all_mappings,
    error_mappings,
    summary,
    check_duplicates,
    output,
    fmt,
    fail_under,
    score_only=False,
):
    import gc

    gc.disable()  # a one-shot process: the cyclic collector would only rescan the corpus
    argv = [os.path.basename(sys.argv[0])] + sys.argv[1:]
    quiet = inputs.quiet
    if check_duplicates and inputs.ref != inputs.sys:
        die("ref and sys input must be the same when checking for duplicate elements (-c)")
    if score_only:
        other = [
            o
            for o, on in (
                ("--format " + fmt, fmt != "text"),
                ("-d", doc_scores),
                ("-a", all_mappings),
                ("-e", error_mappings),
                ("-s", summary),
            )
            if on
        ]
        if other:
            die(f"--score-only prints one line of Values; it does not go with {other[0]}")
    opts = options.but(
        mentions=mentions,
        doc_scores=doc_scores,
        all_mappings=all_mappings,
        error_mappings=error_mappings,
        summary=summary,
        check_duplicates=check_duplicates,
        literature=fmt == "json",
        listing_data=fmt == "json",
        tables_data=fmt != "text",
    )
    gates, gate_warnings = parse_gates(fail_under, opts.mentions, opts.parameter_set)
    for w in gate_warnings:
        click.echo(f"acescore: warning: {w}", err=True)
    results = score_inputs(inputs, opts, progress_bars(quiet))
    emit_warnings(results, quiet, inputs.verbose)
    if score_only:
        from acescore.report.data.json_report import score_line

        text = score_line(results)
    else:
        # text: the report's pieces, written one after the other (a -a report is ~100 MB)
        text = (
            results.text_pieces(command_line_banner(argv)) if fmt == "text" else results.render(fmt)
        )
    write_output(text, output)
    if not quiet and fmt == "text" and not score_only:
        emit_signature(results.signature())
    emit_summary(results, quiet)
    code = 0
    if gates:
        from acescore.report.data.json_report import gate_failures, task_value

        failed = gate_failures(results, gates)
        if failed:
            for msg in failed:
                click.echo(f"acescore: {msg}", err=True)
            # a gate on a task the data gave nothing to score is a usage error
            code = (
                EXIT_UNUSABLE
                if any(task_value(results, t) is None for t, _ in gates)
                else EXIT_GATE
            )
    fast_exit(code)
