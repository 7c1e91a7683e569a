"""``acescore import`` and ``acescore export``: the JSON formats of OneIE, DyGIE++ and TextEE
in and out of APF (:mod:`acescore.formats`).  Registered on the main group in
:mod:`acescore.cli`."""

from __future__ import annotations

import sys

import click

from acescore.cli.common import catch_errors, output_dir_option, output_option, write_output
from acescore.cli.inputs import BY_KEY, reads_apf
from acescore.formats import FORMATS
from acescore.model.params import ENTITY_SUBTYPES


@click.command("import")
@click.option(
    "--from",
    "fmt",
    type=click.Choice(FORMATS),
    required=True,
    help="Format of the prediction file.",
)
@click.argument("pred", type=click.Path(dir_okay=False))
@click.option(
    "--source-dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder of the source documents (.sgm) the offsets are aligned to.",
)
@output_dir_option(
    "Folder to write one APF file per document into, named from its DOCID"
    " (checked before the run; each file written whole)."
)
@click.option(
    "--argument-type",
    type=click.Choice(sorted(ENTITY_SUBTYPES)),
    default=None,
    help="Make an event argument whose span is no mention of the prediction an "
    "entity mention of this TYPE (default: drop it and report it).",
)
@click.option(
    "--tokens-from",
    type=click.Path(dir_okay=False),
    default=None,
    help="TextEE: the data file with the tokens of predictions that have none.",
)
@click.option("--force", is_flag=True, help="Remove the APF files the output folder already holds.")
@BY_KEY["quiet"].click_option()
@catch_errors
def import_(fmt, pred, source_dir, out_dir, argument_type, tokens_from, force, quiet):
    """Turn a JSON prediction file (OneIE, DyGIE++ or TextEE) into APF, with character offsets
    aligned to the source documents by the ACE offset rule.  Every dropped or misaligned
    mention, event mention, argument and relation mention is counted on standard error, with
    its first examples."""
    from acescore.formats import import_json
    from acescore.formats.convert import ImportReport

    report = ImportReport()
    written = import_json(pred, fmt, source_dir, out_dir, report, argument_type, tokens_from, force)
    if not quiet:
        sys.stderr.write(report.text())
        sys.stderr.write(f"wrote {len(written)} APF files to {out_dir}\n")


@click.command("export")
@reads_apf(
    "one",
    takes=("params", "docs_file", "lenient", "max_bytes", "quiet", "verbose"),
    refuse={"jobs": "export runs in one process", "max_pairs": "export values no pairs"},
)
@click.option("--to", "fmt", type=click.Choice(FORMATS), required=True, help="Format to write.")
@click.option(
    "--source-dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder of the source documents (.sgm).",
)
@click.option(
    "--span",
    type=click.Choice(["head", "extent"]),
    default="head",
    show_default=True,
    help="The span written for an entity mention.",
)
@click.option(
    "--same-tokens-as",
    "tokens_as",
    default=None,
    help="Other APF (e.g. REF when exporting SYS, and the other way round): "
    "tokens and windows respect its bounds too, so both sides come out on "
    "the same tokens and windows.",
)
@output_option()
def export(inputs, options, fmt, source_dir, span, tokens_as, output):
    """Write the APF documents of APF (a file, a directory or a list file) in a codebase's JSON
    format, tokenized by the simple documented tokenizer (acescore.formats.tokens)."""
    from acescore.formats import export_apf
    from acescore.formats.convert import ImportReport

    report = ImportReport()
    skipped: list = []
    text = export_apf(
        inputs.paths[0],
        source_dir,
        fmt,
        span,
        report=report,
        tokens_as=tokens_as,
        options=options,
        skipped=skipped,
    )
    if not inputs.quiet:
        if skipped:  # --lenient: what was left out, as the scoring commands say it
            from acescore.rules.grouping import grouped_lines, verbose_lines
            from acescore.rules.robust import Skip, SkipReport, with_side

            skips = SkipReport(sorted(with_side(skipped, "APF"), key=Skip.sort_key))
            lines = verbose_lines(skips) if inputs.verbose else grouped_lines([], skips)
            for line in lines:
                click.echo(f"acescore: {line}", err=True)
        for line in report.text().splitlines()[1:]:
            click.echo(line, err=True)
    write_output(text, output)
