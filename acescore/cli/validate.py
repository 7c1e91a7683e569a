"""``acescore validate``: check APF files (see :mod:`acescore.rules.validate`)."""

from __future__ import annotations

import sys

import click

from acescore.cli.inputs import reads_apf
from acescore.model.errors import EXIT_UNUSABLE, AceError


@click.command("validate")
@reads_apf(
    "paths",
    takes=("nist", "params", "max_bytes", "quiet"),
    refuse={
        "lenient": "validate skips nothing: it reports every problem (exit 1)",
        "docs_file": "validate checks whole files",
        "jobs": "validate runs in one process",
        "max_pairs": "validate values no pairs",
        "verbose": "validate prints every problem already",
    },
)
@click.option(
    "--source-dir",
    "source_dir",
    metavar="DIR",
    default=None,
    help="Folder of the source documents (.sgm, searched recursively): check every"
    " charseq's offsets and text against them.",
)
@click.option(
    "--dtd",
    "dtd",
    metavar="NAME",
    default=None,
    help="Validate every file against this DTD: 5.1.1, 5.1.2, 5.2.0 (or 2005, 2007,"
    " 2008) or a .dtd file.  Default: the DTD named by each file's DOCTYPE,"
    " 5.1.1 for files without one.",
)
@click.option(
    "--entities",
    type=click.Choice(["raw", "decode"]),
    default="raw",
    show_default=True,
    help="How a character reference such as &amp; in a source document counts for"
    " offsets: as its characters (raw, the ACE rule) or as one character.",
)
def validate(inputs, options, source_dir, dtd, entities):
    """Check APF files: DTD validity, the scorer's input rules, IDs and references, and with
    --source-dir the offsets and text of every charseq.

    Each APF_PATH is a file, a folder (all *.apf.xml / *.apf below it) or a list file (one
    path per line); the files of one APF_PATH are checked together, like one side of a
    scoring run.  Prints one line per problem (file:line: element ID: message) and a
    summary line (not with -q).  The input rules are those of the parameter set (-P;
    mentions are optional under global_2008).  Exit status: 0 no problem, 1 problems
    found, 2 unusable input.
    """
    from acescore.rules.validate import one_line, validate_paths  # only this command needs it

    try:
        report = validate_paths(
            list(inputs.paths),
            source_dir=source_dir,
            dtd=dtd,
            params=options.parameter_set,
            entities=entities,
            max_bytes=options.max_bytes,
        )
    except AceError as e:
        click.echo(one_line(str(e)))
        sys.exit(EXIT_UNUSABLE)
    except Exception as e:  # never a traceback
        click.echo(f"acescore validate: internal error: {type(e).__name__}: {one_line(str(e))}")
        sys.exit(EXIT_UNUSABLE)
    for line in report.lines():
        click.echo(line)
    if not inputs.quiet:
        click.echo(report.summary())
    sys.exit(report.exit_code)
