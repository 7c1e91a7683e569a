"""``acescore view``: a static HTML site for error analysis (see
:mod:`acescore.view.site`)."""
from __future__ import annotations

import os
import time

import click

from acescore.cli.common import (catch_errors, die, emit_summary, emit_warnings, jobs_option,
                                 make_options, mentions_option, pairs_option, quiet_option,
                                 read_options, ref_sys_arguments, resolve_jobs, site_folder)


@click.command("view")
@ref_sys_arguments
@click.option("--source-dir", "source_dir", metavar="DIR", default=None,
              help="Folder of the source documents (.sgm, searched recursively by the file"
                   " name of the APF URI, then DOCID.sgm).  Without it the pages have no"
                   " text, only the tables.")
@click.option("-o", "--output-dir", "out_dir", metavar="OUT_DIR", required=True,
              callback=site_folder,
              help="Folder to write the site into (created; files in it are overwritten).")
@click.option("--format", "fmt", type=click.Choice(["html"], case_sensitive=False),
              default="html", show_default=True,
              help="Output format (the view is a site of HTML pages).")
@read_options
@mentions_option
@click.option("--entities", type=click.Choice(["raw", "decode"]), default="raw",
              show_default=True,
              help="How a character reference such as &amp; in a source document counts for"
                   " offsets: as its characters (raw, the ACE rule) or as one character.")
@pairs_option
@jobs_option("Processes at a time (default and 0: one per CPU available).  The documents"
             " are read, scored and their pages written in shards, each in a forked"
             " process, this many at a time, where that is possible (as for score); the"
             " site is the same for every value.")
@quiet_option
@catch_errors
def view(ref, sys_, source_dir, out_dir, fmt, params, max_bytes, lenient, mentions, entities,
         quiet, max_pairs, jobs):
    """Write an HTML view of REF against SYS into OUT_DIR: index.html (the Value of every
    document and task, sortable, and charts of the cost components) and one page per
    document (the source text with REF and SYS mentions marked, and the document's
    elements with their mapping, value and costs).  Open OUT_DIR/index.html in a browser;
    no server or network is needed.

    REF and SYS are each an APF file, a directory (searched recursively for *.apf.xml and
    *.apf) or a list file with one path per line.
    """
    from acescore.view.shards import write_site
    import gc
    gc.disable()   # a one-shot process: the cyclic collector would only rescan the corpus
    t0 = time.perf_counter()
    opts = make_options(params, max_bytes, lenient, mentions=mentions, literature=False,
                        max_pairs=max_pairs, jobs=resolve_jobs(jobs))
    warnings: list = []
    try:            # in document shards where possible, else in one process
        results, files = write_site(ref, sys_, opts, source_dir, out_dir, entities=entities,
                                    warnings=warnings)
    except OSError as e:
        die(f"{e.filename or out_dir}: {e.strerror}")
    emit_warnings(results, quiet)
    emit_warnings(warnings, quiet)
    if not quiet:
        ndocs = sum(1 for f in files if os.path.basename(os.path.dirname(f)) == "doc")
        click.echo(f"acescore view: {ndocs} documents, {len(files)} files in "
                   f"{time.perf_counter() - t0:.1f} s", err=True)
    emit_summary(results, quiet)
    click.echo(os.path.join(out_dir, "index.html"))
