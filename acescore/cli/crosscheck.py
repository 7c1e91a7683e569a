"""``acescore crosscheck``: acescore and the NIST tool on the same input, compared."""

from __future__ import annotations

import json
import os
import sys

import click

from acescore.cli.common import (
    die,
    emit_signature,
    emit_summary,
    emit_warnings,
    output_options,
    write_output,
)
from acescore.cli.inputs import read_inputs, reads_apf, score_inputs
from acescore.cli.score import nist_flag_options


@click.command("crosscheck")
@reads_apf(
    "pair",
    takes=("params", "docs_file", "lenient", "max_bytes", "max_pairs", "quiet", "verbose"),
    refuse={"jobs": "the NIST tool runs in one process; so does acescore here"},
)
@nist_flag_options
@click.option(
    "--show",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Differing lines shown per section.",
)
@click.option(
    "--runs",
    type=click.IntRange(min=1, max=100),
    default=None,
    metavar="N",
    help="Run the unmodified NIST tool N times (PERL_HASH_SEED 1..N) instead of a"
    " deterministic copy, and tell tie lines (that differ between its own"
    " runs) from real differences.",
)
@click.option(
    "--save-nist",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    metavar="FILE",
    help="Keep the NIST tool's report (with --runs, the first run's).",
)
@output_options(("text", "json"), "Write the comparison to this file instead of standard output.")
def crosscheck(
    inputs,
    options,
    mentions,
    doc_scores,
    all_mappings,
    error_mappings,
    summary,
    show,
    runs,
    save_nist,
    output,
    fmt,
):
    """Run acescore and the NIST tool (named by $ACE_NIST_SCORER) on the same input and
    report, section by section, where the two reports differ.

    By default a deterministic copy of your tool is derived in a private temporary folder
    (its hash traversals put in the canonical order of the spec; known versions only) and
    its report must equal acescore's byte for byte: exit 0 only when identical.  With
    --runs N the unmodified tool runs N times and lines that differ between its own runs
    (ties) are told from real differences: exit 0 when there is no real difference.
    The tool is handed the input under safe numbered names, never your paths.
    With --docs the NIST tool reads the files that hold the listed documents.

    Exit status: 0 identical, 1 the reports differ, 2 unusable input or an unknown version
    of the tool, 4 the NIST tool failed (its exit status and last error line are shown)."""
    from acescore.crosscheck import rewriter, session
    from acescore.crosscheck.nist_tool import EXIT_NIST_FAILED, nist_flags
    from acescore.run import pipeline

    nist = os.environ.get("ACE_NIST_SCORER")
    if not nist:
        die("set ACE_NIST_SCORER to the path of a local copy of ace08-eval-v08.pl")
    if not os.path.isfile(nist):
        die(f"ACE_NIST_SCORER names no file: {nist}")
    quiet, params = inputs.quiet, options.params
    opts = options.but(
        mentions=mentions,
        doc_scores=doc_scores,
        all_mappings=all_mappings,
        error_mappings=error_mappings,
        summary=summary,
        literature=False,
    )
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
    try:
        out = session.crosscheck(
            nist,
            rpaths,
            spaths,
            nist_flags(params, mentions, doc_scores, all_mappings, error_mappings, summary),
            ours,
            runs,
            show,
            save_nist=save_nist,
        )
    except rewriter.UnknownTool as e:
        die(str(e))
    if out.failure:
        die(out.failure, EXIT_NIST_FAILED)
    if fmt == "json":
        text = json.dumps(session.to_json(out, results.signature(), loaded.inputs), indent=1) + "\n"
    else:
        text = session.format_text(out)
    write_output(text, output)
    if fmt != "json":
        emit_signature(results.signature(), quiet)
    emit_summary(loaded, quiet)
    sys.exit(out.exit_code())
