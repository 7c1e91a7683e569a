"""``acescore crosscheck``: acescore and the NIST tool on the same input, compared."""
from __future__ import annotations

import json
import os
import sys

import click

from acescore.cli.common import (die, emit_signature, emit_summary, emit_warnings,
                                 output_options, write_output)
from acescore.cli.inputs import read_inputs, reads_apf, score_inputs
from acescore.cli.score import nist_flag_options


@click.command("crosscheck")
@reads_apf("pair", takes=("params", "docs_file", "lenient", "max_bytes", "max_pairs", "quiet",
                          "verbose"),
           refuse={"jobs": "the NIST tool runs in one process; so does acescore here"})
@nist_flag_options
@click.option("--show", type=int, default=3, show_default=True,
              help="Differing lines shown per section.")
@output_options(("text", "json"), "Write the comparison to this file instead of standard"
                " output.")
def crosscheck(inputs, options, mentions, doc_scores, all_mappings, error_mappings, summary,
               show, output, fmt):
    """Run acescore and the NIST tool (named by $ACE_NIST_SCORER) on the same input and
    report, section by section, where the two reports differ.  Exit 0 only when identical.

    Only a copy of the NIST tool that iterates in the canonical order matches byte for
    byte; an unmodified one varies from run to run where mappings tie (see the README).
    With --docs the NIST tool reads the files that hold the listed documents.

    Exit status: 0 identical, 1 the reports differ, 2 unusable input, 4 the NIST tool
    failed (its exit status and last error line are shown)."""
    from acescore.run import pipeline
    from acescore.crosscheck.nist_tool import (EXIT_NIST_FAILED, comparison_json, compare_reports,
                                     nist_flags, run_nist)
    nist = os.environ.get("ACE_NIST_SCORER")
    if not nist:
        die("set ACE_NIST_SCORER to the path of a local copy of ace08-eval-v08.pl")
    if not os.path.isfile(nist):
        die(f"ACE_NIST_SCORER names no file: {nist}")
    quiet, params = inputs.quiet, options.params
    opts = options.but(mentions=mentions, doc_scores=doc_scores, all_mappings=all_mappings,
                       error_mappings=error_mappings, summary=summary, literature=False)
    rpaths = pipeline.discover(inputs.ref, inputs.ref_list)
    spaths = pipeline.discover(inputs.sys, inputs.sys_list)
    loaded = read_inputs(inputs, opts)
    results = score_inputs(inputs, opts, loaded=loaded)
    emit_warnings(results, quiet, inputs.verbose)
    ours = results.to_text()
    if opts.docs is not None:
        kept = {f.path for c in (loaded.ref_corpus, loaded.sys_corpus) for f in c.files}
        rpaths = [p for p in rpaths if p in kept]
        spaths = [p for p in spaths if p in kept]
    nist_run = run_nist(nist, rpaths, spaths, nist_flags(params, mentions, doc_scores,
                                                         all_mappings, error_mappings, summary))
    if nist_run.failure():
        die(nist_run.failure(), EXIT_NIST_FAILED)
    diffs = compare_reports(nist_run.stdout, ours, show)
    bad = sum(d.differing_lines for d in diffs)
    total = sum(d.lines for d in diffs)
    if fmt == "json":
        text = json.dumps(comparison_json(diffs, results.signature(), loaded.inputs),
                          indent=1) + "\n"
    else:
        out = []
        for d in diffs:
            state = "identical" if not d.differing_lines else (
                f"{d.differing_lines} of {d.lines} lines, {d.differing_cells} of {d.cells}"
                " cells differ")
            out.append(f"{d.name:32s} {state}")
            for ln, x, y in d.examples:
                out.append(f"    line {ln}:\n      NIST:     {x}\n      acescore: {y}")
        out.append(f"differs: {bad} of {total} lines" if bad else f"identical: {total} lines")
        text = "\n".join(out) + "\n"
    write_output(text, output)
    if fmt != "json":
        emit_signature(results.signature(), quiet)
    emit_summary(loaded, quiet)
    sys.exit(1 if bad else 0)
