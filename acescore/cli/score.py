"""``acescore score``: the NIST report (or JSON/CSV) of SYS against REF."""
from __future__ import annotations

import math
import os
import sys
import time

import click

from acescore.cli.common import (catch_errors, die, emit_summary, emit_warnings, fast_exit,
                                 make_options,
                                 mentions_option, output_options, pairs_option, progress_bars,
                                 quiet_option, read_options, resolve_jobs, write_output)
from acescore.cli.args import parse_gates
from acescore.model.errors import EXIT_GATE, EXIT_UNUSABLE
from acescore.model.tasks import tasks_help

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

SCORE_HELP = """Score SYS against REF and print the NIST report.

REF and SYS are each an APF file, a directory (searched recursively for *.apf.xml and
*.apf) or a list file with one path per line.  The NIST tool's spellings are accepted
too: -R FILE / -r LIST for the reference, -T FILE / -t LIST for the system output.
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
            ("-e", "--error-mappings",
             "Print ref/sys comparisons for erroneous elements only (NIST -e)."),
            ("-a", "--all-mappings", "Print ref/sys comparisons for all elements (NIST -a)."),
            ("-d", "--doc-scores", "Print document-level scores (NIST -d).")):
        f = click.option(opt, name, is_flag=True, help=text)(f)
    return mentions_option(f)


@click.command("score", help=SCORE_HELP)
@click.argument("ref", required=False)
@click.argument("sys_", metavar="SYS", required=False)
@click.option("-R", "ref_file", metavar="FILE", help="Reference APF file (NIST -R).")
@click.option("-r", "ref_list", metavar="LIST", help="File listing reference APF files (NIST -r).")
@click.option("-T", "sys_file", metavar="FILE", help="System APF file (NIST -T).")
@click.option("-t", "sys_list", metavar="LIST", help="File listing system APF files (NIST -t).")
@read_options
@nist_flag_options
@click.option("-c", "--check-duplicates", is_flag=True,
              help="Warn about equivalent (duplicate) elements; REF and SYS must be the same "
                   "input (NIST -c).")
@output_options(("text", "json", "csv"), "Write the report to this file instead of standard "
                "output.")
@click.option("--fail-under", "fail_under", multiple=True, metavar="TASK=VALUE",
              help="Exit with status 3 when TASK's Value (%) is below VALUE, e.g. edr=60 "
                   f"(repeatable; tasks {tasks_help()}).")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=None,
              help="Processes at a time (default and 0: one per CPU available).  The "
                   "documents are read and scored in shards of at most 2 MB of REF files, "
                   "each in a forked process, this many at a time (1: one after another); "
                   "where shards are not possible the document and mention-level passes "
                   "run in parallel.  The report is the same for every value.")
@pairs_option
@quiet_option
@click.option("--score-only", is_flag=True,
              help="Print one line instead of the report: each task's Value and the signature.")
@catch_errors
def score(ref, sys_, ref_file, ref_list, sys_file, sys_list, params, max_bytes, lenient,
          mentions, doc_scores, all_mappings, error_mappings, summary, check_duplicates,
          output, fmt, fail_under, jobs, quiet, max_pairs, score_only=False):
    from acescore.run import execute
    import gc
    gc.disable()   # a one-shot process: the cyclic collector would only rescan the corpus
    argv = [os.path.basename(sys.argv[0])] + sys.argv[1:]
    if sys_ is None and ref is not None and (ref_file or ref_list) and not (sys_file or sys_list):
        ref, sys_ = None, ref           # -r LIST SYS / -R FILE SYS
    refs = [x for x in (ref, ref_file, ref_list) if x]
    syss = [x for x in (sys_, sys_file, sys_list) if x]
    if len(refs) != 1:
        die("give the reference once: REF, -R FILE or -r LIST")
    if len(syss) != 1:
        die("give the system output once: SYS, -T FILE or -t LIST")
    if check_duplicates and refs[0] != syss[0]:
        die("ref and sys input must be the same when checking for duplicate elements (-c)")
    opts = make_options(params, max_bytes, lenient, mentions=mentions, doc_scores=doc_scores,
                        all_mappings=all_mappings, error_mappings=error_mappings,
                        summary=summary, check_duplicates=check_duplicates,
                        jobs=resolve_jobs(jobs), literature=fmt == "json",
                        listing_data=fmt == "json",
                        max_pairs=max_pairs)
    gates, gate_warnings = parse_gates(fail_under, opts.mentions, opts.parameter_set)
    for w in gate_warnings:
        click.echo(f"acescore: warning: {w}", err=True)
    bars = progress_bars(quiet)
    results = execute(refs[0], syss[0], opts, ref_list=bool(ref_list), sys_list=bool(sys_list),
                      progress=bars)
    if bars is not None:
        sys.stderr.write("\rscoring ..." + " " * 40 + "\r")
    emit_warnings(results, quiet)
    if score_only:
        from acescore.report.data.json_report import score_line
        text = score_line(results)
    else:
        # text: the report's pieces, written one after the other (a -a report is ~100 MB)
        text = (results.text_pieces(command_line_banner(argv)) if fmt == "text"
                else results.render(fmt))
    write_output(text, output)
    if not quiet and fmt == "text" and not score_only:
        sys.stderr.write(f"\nsignature: {results.signature()}\n")
    emit_summary(results, quiet)
    code = 0
    if gates:
        from acescore.report.data.json_report import gate_failures, task_value
        failed = gate_failures(results, gates)
        if failed:
            for msg in failed:
                click.echo(f"acescore: {msg}", err=True)
            # a gate on a task the data gave nothing to score is a usage error
            code = (EXIT_UNUSABLE if any(task_value(results, t) is None for t, _ in gates)
                    else EXIT_GATE)
    fast_exit(code)
