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
from acescore.cli.inputs import VERSION_KEYS, read_inputs, reads_apf, score_inputs
from acescore.cli.score import nist_flag_options
from acescore.model.versions import DEFAULT_VERSION, VERSION_OPTIONS, VERSIONS

#: the NIST script of each version -> the version acescore reproduces for it
_BY_SCRIPT = {v.script: v.name for v in VERSIONS.values()}


@click.command("crosscheck")
@reads_apf(
    "pair",
    takes=(
        *VERSION_KEYS,
        "params",
        "docs_file",
        "lenient",
        "max_bytes",
        "max_pairs",
        "quiet",
        "verbose",
    ),
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

    nist = os.environ.get("ACE_NIST_SCORER")
    if not nist:
        die("set ACE_NIST_SCORER to the path of a local copy of ace08-eval-v08.pl")
    if not os.path.isfile(nist):
        die(f"ACE_NIST_SCORER names no file: {nist}")
    # the version of the user's tool decides which report acescore makes (an unknown tool:
    # ace08's, and the rewriter says it does not know it)
    derived = None
    version = DEFAULT_VERSION
    try:
        derived = rewriter.derive(nist)
        version = _BY_SCRIPT.get(derived.version.name, DEFAULT_VERSION)
    except rewriter.UnknownTool as e:
        if runs is None:
            die(str(e))
    if version != options.nist:
        if options.nist != DEFAULT_VERSION or options.nist_label != options.nist:
            die(
                f"--nist {options.nist}, but $ACE_NIST_SCORER is {derived.version.name}"
                if derived is not None
                else f"--nist {options.nist}, but $ACE_NIST_SCORER is not a known version"
            )
        # --nist not given: the tool's version (its default parameter set unless -P)
        default = options.params == VERSIONS[DEFAULT_VERSION].default_params
        options = options.but(nist=version, params="" if default else options.params)
    quiet, params = inputs.quiet, options.params
    opts = options.but(
        mentions=mentions,
        doc_scores=doc_scores,
        all_mappings=all_mappings,
        error_mappings=error_mappings,
        summary=summary,
        literature=False,
    )
    rpaths, spaths = inputs.apf_paths("ref", opts), inputs.apf_paths("sys", opts)
    loaded = read_inputs(inputs, opts)
    results = score_inputs(inputs, opts, loaded=loaded)
    emit_warnings(results, quiet, inputs.verbose)
    ours = results.to_text()
    if opts.docs is not None or opts.lenient:  # the files acescore read (and did not drop)
        kept = {f.path for c in (loaded.ref_corpus, loaded.sys_corpus) for f in c.files}
        rpaths = [p for p in rpaths if p in kept]
        spaths = [p for p in spaths if p in kept]
    try:
        out = session.crosscheck(
            nist,
            rpaths,
            spaths,
            nist_flags(params, mentions, doc_scores, all_mappings, error_mappings, summary)
            + [
                f
                for k, o in VERSION_OPTIONS.items()
                if getattr(opts, k) is not None
                for f in (f"-{o.letter}", getattr(opts, k))
            ],
            ours,
            runs,
            show,
            derived=derived if runs is None else None,
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
