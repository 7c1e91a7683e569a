"""``acescore crosscheck``: acescore and the NIST tool on the same input, compared."""
from __future__ import annotations

import json
import os
import sys

import click

from acescore.cli.common import (catch_errors, die, emit_summary, emit_warnings,
                                 make_options, output_options, quiet_option, read_options,
                                 ref_sys_arguments, write_output)
from acescore.cli.score import nist_flag_options


@click.command("crosscheck")
@ref_sys_arguments
@read_options
@nist_flag_options
@click.option("--show", type=int, default=3, show_default=True,
              help="Differing lines shown per section.")
@click.option("--runs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Run the unmodified NIST tool N times (PERL_HASH_SEED 1..N) instead of a"
                   " deterministic copy, and tell tie lines (that differ between its own"
                   " runs) from real differences.")
@click.option("--save-nist", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE", help="Keep the NIST tool's report (with --runs, the first run's).")
@output_options(("text", "json"), "Write the comparison to this file instead of standard"
                " output.")
@quiet_option
@catch_errors
def crosscheck(ref, sys_, params, max_bytes, lenient, mentions, doc_scores, all_mappings,
               error_mappings, summary, show, runs, save_nist, output, fmt, quiet):
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
    from acescore.run import pipeline
    from acescore.crosscheck.nist_tool import EXIT_NIST_FAILED, nist_flags
    from acescore.crosscheck import rewriter, session
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
    loaded = pipeline.load(ref, sys_, opts)
    results = pipeline.score(loaded)
    emit_warnings(results, quiet)
    ours = results.to_text()
    if opts.docs is not None:
        kept = {f.path for c in (loaded.ref_corpus, loaded.sys_corpus) for f in c.files}
        rpaths = [p for p in rpaths if p in kept]
        spaths = [p for p in spaths if p in kept]
    try:
        out = session.crosscheck(nist, rpaths, spaths,
                                 nist_flags(params, mentions, doc_scores, all_mappings,
                                            error_mappings, summary), ours, runs, show,
                                 save_nist=save_nist)
    except rewriter.UnknownTool as e:
        die(str(e))
    if out.failure:
        die(out.failure, EXIT_NIST_FAILED)
    if fmt == "json":
        text = json.dumps(session.to_json(out, results.signature(), loaded.inputs),
                          indent=1) + "\n"
    else:
        text = session.format_text(out)
    write_output(text, output)
    emit_summary(loaded, quiet)
    sys.exit(out.exit_code())
