"""The ``acescore view`` command: a static HTML site for error analysis
(see :mod:`acescore.report.html_view`)."""
from __future__ import annotations

import os
import sys
import time

import click

from acescore.errors import EXIT_UNUSABLE, AceError
from acescore.params import PARAMETER_SETS
from acescore.scoring.limits import DEFAULT_MAX_PAIRS


@click.command("view")
@click.argument("ref")
@click.argument("sys_", metavar="SYS")
@click.option("--source-dir", "source_dir", metavar="DIR", default=None,
              type=click.Path(exists=True, file_okay=False),
              help="Folder of the source documents (.sgm, searched recursively by the file"
                   " name of the APF URI, then DOCID.sgm).  Without it the pages have no"
                   " text, only the tables.")
@click.option("-o", "--output-dir", "out_dir", metavar="OUT_DIR", required=True,
              type=click.Path(file_okay=False),
              help="Folder to write the site into (created; files in it are overwritten).")
@click.option("-P", "--params", "params", default="local_2008", show_default=True,
              type=click.Choice(sorted(PARAMETER_SETS)), help="Parameter set (NIST -P).")
@click.option("-m", "--mentions", is_flag=True,
              help="Also score and show the mention-level tasks EMD, RMD and event mentions"
                   " (NIST -m).")
@click.option("--entities", type=click.Choice(["raw", "decode"]), default="raw",
              show_default=True,
              help="How a character reference such as &amp; in a source document counts for"
                   " offsets: as its characters (raw, the ACE rule) or as one character.")
@click.option("--max-file-size", type=click.IntRange(min=0), default=64 * 1024 * 1024,
              show_default=True, help="Largest APF file accepted, in bytes.")
@click.option("--max-pairs", type=click.IntRange(min=1), default=DEFAULT_MAX_PAIRS,
              show_default=True, help="Most REF/SYS pairs valued in one document (as for"
                                      " acescore score).")
@click.option("-q", "--quiet", is_flag=True, help="No warnings or progress on standard error.")
def view(ref, sys_, source_dir, out_dir, params, mentions, entities, max_file_size, quiet,
         max_pairs=DEFAULT_MAX_PAIRS):
    """Write an HTML view of REF against SYS into OUT_DIR: index.html (the Value of every
    document and task, sortable, and charts of the cost components) and one page per
    document (the source text with REF and SYS mentions marked, and the document's
    elements with their mapping, value and costs).  Open OUT_DIR/index.html in a browser;
    no server or network is needed.

    REF and SYS are each an APF file, a directory (searched recursively for *.apf.xml and
    *.apf) or a list file with one path per line.
    """
    from acescore import api
    from acescore.output import check_folder
    from acescore.report.html_view import write_view
    t0 = time.perf_counter()
    try:
        check_folder(out_dir)
        p = api.get_params(params)
        rc = api.read_corpus(api.discover_paths(ref), p, max_file_size)
        sc = api.read_corpus(api.discover_paths(sys_), p, max_file_size)
        results = api.score(rc, sc, p, mentions, max_pairs=max_pairs)
        warnings: list = []
        files = write_view(results, source_dir, out_dir, entities=entities,
                           warnings=warnings)
    except AceError as e:
        click.echo(f"acescore: {e}", err=True)
        sys.exit(e.exit_code)
    except OSError as e:
        click.echo(f"acescore: {e.filename or out_dir}: {e.strerror}", err=True)
        sys.exit(EXIT_UNUSABLE)
    if not quiet:
        for w in results.warnings + warnings:
            sys.stderr.write(w)
        ndocs = sum(1 for f in files if os.path.basename(os.path.dirname(f)) == "doc")
        click.echo(f"acescore view: {ndocs} documents, {len(files)} files in "
                   f"{time.perf_counter() - t0:.1f} s", err=True)
    click.echo(os.path.join(out_dir, "index.html"))
