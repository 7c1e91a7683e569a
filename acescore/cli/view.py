"""``acescore view``: a static HTML site for error analysis (see
:mod:`acescore.view.site`)."""

from __future__ import annotations

import os
import time

import click

from acescore.cli.common import die, emit_summary, emit_warnings, mentions_option, output_dir_option
from acescore.cli.inputs import SCORING_KEYS, reads_apf


@click.command("view")
@reads_apf("pair", takes=SCORING_KEYS)
@click.option(
    "--source-dir",
    "source_dir",
    metavar="DIR",
    default=None,
    help="Folder of the source documents (.sgm, searched recursively by the file"
    " name of the APF URI, then DOCID.sgm).  Without it the pages have no"
    " text, only the tables.",
)
@output_dir_option("Folder to write the site into (created; files in it are overwritten).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html"], case_sensitive=False),
    default="html",
    show_default=True,
    help="Output format (the view is a site of HTML pages).",
)
@mentions_option
@click.option(
    "--entities",
    type=click.Choice(["raw", "decode"]),
    default="raw",
    show_default=True,
    help="How a character reference such as &amp; in a source document counts for"
    " offsets: as its characters (raw, the ACE rule) or as one character.",
)
def view(inputs, options, source_dir, out_dir, fmt, mentions, entities):
    """Write an HTML view of REF against SYS into OUT_DIR: index.html (the Value of every
    document and task, sortable, and charts of the cost components) and one page per
    document (the source text with REF and SYS mentions marked, and the document's
    elements with their mapping, value and costs).  Open OUT_DIR/index.html in a browser;
    no server or network is needed.

    REF and SYS are each an APF file, a directory (searched recursively for *.apf.xml and
    *.apf) or a list file with one path per line (or -R FILE / -r LIST, -T FILE / -t LIST).
    """
    import gc

    from acescore.view.shards import write_site

    gc.disable()  # a one-shot process: the cyclic collector would only rescan the corpus
    t0 = time.perf_counter()
    quiet = inputs.quiet
    opts = options.but(mentions=mentions, literature=False)
    ref = inputs.apf_paths("ref", opts) if inputs.ref_list else inputs.ref
    sys_ = inputs.apf_paths("sys", opts) if inputs.sys_list else inputs.sys
    warnings: list = []
    try:  # in document shards where possible, else in one process
        results, files = write_site(
            ref, sys_, opts, source_dir, out_dir, entities=entities, warnings=warnings
        )
    except OSError as e:
        die(f"{e.filename or out_dir}: {e.strerror}")
    emit_warnings(results, quiet, inputs.verbose)
    emit_warnings(warnings, quiet, inputs.verbose)
    if not quiet:
        ndocs = sum(1 for f in files if os.path.basename(os.path.dirname(f)) == "doc")
        click.echo(
            f"acescore view: {ndocs} documents, {len(files)} files in "
            f"{time.perf_counter() - t0:.1f} s",
            err=True,
        )
    emit_summary(results, quiet)
    click.echo(os.path.join(out_dir, "index.html"))
