"""``acescore crosscheck``: acescore and the NIST tool on the same input, compared."""
from __future__ import annotations

import os
import sys

import click

from acescore.cli.common import (catch_errors, die, make_options, quiet_option, read_options,
                                 ref_sys_arguments)
from acescore.cli.score import nist_flag_options


@click.command("crosscheck")
@ref_sys_arguments
@read_options
@nist_flag_options
@click.option("--show", type=int, default=3, show_default=True,
              help="Differing lines shown per section.")
@quiet_option
@catch_errors
def crosscheck(ref, sys_, params, max_bytes, lenient, mentions, doc_scores, all_mappings,
               error_mappings, summary, show, quiet):
    """Run acescore and the NIST tool (named by $ACE_NIST_SCORER) on the same input and
    report, section by section, where the two reports differ.  Exit 0 only when identical.

    Only a copy of the NIST tool that iterates in the canonical order matches byte for
    byte; an unmodified one varies from run to run where mappings tie (see the README)."""
    from acescore import pipeline
    from acescore.crosscheck import compare_reports, nist_flags, run_nist
    nist = os.environ.get("ACE_NIST_SCORER")
    if not nist:
        die("set ACE_NIST_SCORER to the path of a local copy of ace08-eval-v08.pl")
    if not os.path.isfile(nist):
        die(f"ACE_NIST_SCORER names no file: {nist}")
    opts = make_options(params, max_bytes, lenient, mentions=mentions, doc_scores=doc_scores,
                        all_mappings=all_mappings, error_mappings=error_mappings,
                        summary=summary, literature=False)
    rpaths = pipeline.discover(ref)
    spaths = pipeline.discover(sys_)
    ours = pipeline.load_and_score(rpaths, spaths, opts).to_text()
    theirs, err = run_nist(nist, rpaths, spaths,
                           nist_flags(params, mentions, doc_scores, all_mappings,
                                      error_mappings, summary))
    if "scoring mode parameter set" not in theirs:
        first = next((ln for ln in err.splitlines() if ln.strip()), "no output")
        die(f"the NIST tool failed: {first}")
    diffs = compare_reports(theirs, ours, show)
    bad = 0
    for d in diffs:
        state = "identical" if not d.differing_lines else (
            f"{d.differing_lines} of {d.lines} lines, {d.differing_cells} of {d.cells} cells differ")
        click.echo(f"{d.name:32s} {state}")
        for ln, x, y in d.examples:
            click.echo(f"    line {ln}:\n      NIST:     {x}\n      acescore: {y}")
        bad += d.differing_lines
    total = sum(d.lines for d in diffs)
    if bad:
        click.echo(f"differs: {bad} of {total} lines")
        sys.exit(1)
    click.echo(f"identical: {total} lines")
