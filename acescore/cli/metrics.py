"""``acescore coref`` and ``acescore events``: metrics from the literature (see
:mod:`acescore.metrics`)."""

from __future__ import annotations

import json

import click

from acescore.cli.common import (
    die,
    emit_signature,
    emit_summary,
    emit_warnings,
    output_options,
    write_output,
)
from acescore.cli.conventions import convention_options, convention_output, write_nist_report
from acescore.cli.inputs import reads_apf

COREF_SIGNATURE = "metric:coref|conll2012-v8|align:head"


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def load_sides(inputs, options):
    """Read and build both sides for a metric; the warnings go to standard error."""
    from acescore.cli.inputs import read_inputs

    loaded = read_inputs(inputs, options)
    emit_warnings(loaded, inputs.quiet, inputs.verbose)
    return loaded


def metric_signature(loaded, extra: str) -> str:
    """The signature of a metric's result: the parameter set, the DTDs, ``|lenient`` when
    lenient, then the metric's own definition (``extra``)."""
    from acescore.report.data.machine import make_signature

    return make_signature(loaded.options.params, "", loaded.dtd, loaded.options.lenient, extra)


def finish(
    loaded, command: str, scores: dict, text: str, extra: str, fmt: str, output, quiet: bool
) -> None:
    """Write a metric's output: its table, or its JSON (scores in percent, with the
    signature and the inputs); then the signature (text) and the summary line."""
    from acescore.report.data.machine import UNIT

    sig = metric_signature(loaded, extra)
    if fmt == "json":
        data = {
            **scores,
            "command": command,
            "signature": sig,
            "score_unit": UNIT,
            "inputs": loaded.inputs,
            "documents": loaded.coverage.as_dict(),
        }
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    write_output(text, output)
    if fmt != "json":
        emit_signature(sig, quiet)
    emit_summary(loaded, quiet)


def literature_command(f):
    """REF SYS and the options every literature metric takes."""
    f = output_options(("text", "json"))(f)
    return reads_apf(
        "pair",
        takes=("params", "docs_file", "lenient", "max_bytes", "max_pairs", "quiet", "verbose"),
        refuse={"jobs": "the metric is computed in one process"},
    )(f)


# --------------------------------------------------------------------------------------------


def coref_text(scores: dict) -> str:
    """The human-readable table of :func:`acescore.metrics.coref.coref_scores`."""
    from tabulate import tabulate

    from acescore.metrics.coref import METRIC_NAMES, METRICS
    from acescore.report.data.machine import conll_f1

    rows = []
    for m in METRICS:
        s = scores[m]
        rows.append([METRIC_NAMES[m], _pct(s["recall"]), _pct(s["precision"]), _pct(s["f1"])])
    nist = scores.get("bcub_nist")
    if nist is not None:
        rows.append(
            [
                METRIC_NAMES["bcub_nist"],
                _pct(nist["recall"]),
                _pct(nist["precision"]),
                _pct(nist["f1"]),
            ]
        )
    m = scores["mentions"]
    conll = conll_f1(scores)
    out = [
        "Entity coreference (mentions aligned one-to-one by head overlap; CoNLL-2012 v8"
        " definitions)",
        f"REF mentions: {m['ref']}   SYS mentions: {m['sys']}   aligned: {m['aligned']}",
        "",
        tabulate(
            rows,
            headers=["Metric", "Recall %", "Precision %", "F1 %"],
            tablefmt="simple",
            disable_numparse=True,
            colalign=("left", "right", "right", "right"),
        ),
        "",
        f"CoNLL F1 (mean of MUC, B-cubed, CEAF-e F1): {_pct(conll)}",
        "",
    ]
    return "\n".join(out)


@click.command("coref")
@literature_command
def coref(inputs, options, output, fmt):
    """Entity coreference metrics of SYS against REF: MUC, B-cubed, CEAF-m, CEAF-e, BLANC.

    REF and SYS mentions are aligned one-to-one per document (heads with mutual overlap
    >= 0.3, maximum total overlap); unaligned mentions count as in the CoNLL-2012
    reference scorer v8.  REF and SYS are each an APF file, a directory or a list file.
    """
    from acescore.metrics.coref import coref_scores
    from acescore.report.data.machine import coref_json

    loaded = load_sides(inputs, options)
    scores = coref_scores(loaded.ref, loaded.sys, loaded.params)
    finish(
        loaded,
        "coref",
        coref_json(scores),
        coref_text(scores),
        COREF_SIGNATURE,
        fmt,
        output,
        inputs.quiet,
    )


# --------------------------------------------------------------------------------------------


def events_text(scores: dict) -> str:
    """The table of :func:`acescore.metrics.events.event_scores`: the layout of every
    events table (:func:`acescore.cli.conventions.score_table`)."""
    from acescore.cli.conventions import score_table

    d = scores["definition"]
    return "\n".join(
        [
            f"Event extraction (triggers: {d['trigger_match']} anchor match;"
            f" arguments: {d['arg_match']} offsets, scope {d['arg_scope']};"
            " one-to-one)",
            "",
            score_table(scores["scores"]),
            "",
        ]
    )


@click.command("events")
@literature_command
@convention_options
@click.option(
    "--trigger-match",
    type=click.Choice(["exact", "overlap"]),
    default="exact",
    show_default=True,
    help="Triggers match on identical anchor offsets, or on any anchor overlap.",
)
@click.option(
    "--arg-match",
    type=click.Choice(["head", "extent"]),
    default="head",
    show_default=True,
    help="Argument offsets: the argument mention's head (values/timex2: extent) or its extent.",
)
@click.option(
    "--arg-scope",
    type=click.Choice(["subtype", "trigger"]),
    default="subtype",
    show_default=True,
    help="subtype: an argument matches any REF argument of an event mention of the "
    "same subtype in the document (Ji & Grishman 2008, Li et al. 2013); "
    "trigger: only those of the REF event mention its trigger is aligned with.",
)
def events(
    inputs,
    options,
    output,
    fmt,
    trigger_match,
    arg_match,
    arg_scope,
    convention,
    per_label,
    nist_report,
    **rules,
):
    """Event-extraction scores of SYS against REF as ACE 2005 papers report them: trigger
    identification and classification, argument identification and classification
    (recall, precision, F1), with one-to-one matching.

    REF and SYS are each an APF file, a directory or a list file.  With --convention (or
    any rule option) the scores follow a codebase's published rules instead: the same
    table and the same JSON (the scores under ``scores``), with more of them.
    """
    from acescore.metrics.events import event_scores
    from acescore.report.data.machine import events_json

    by_convention = convention or any(v is not None for v in rules.values())
    if by_convention and (trigger_match, arg_match, arg_scope) != ("exact", "head", "subtype"):
        die(
            "--trigger-match, --arg-match and --arg-scope do not go with --convention or"
            " a rule option; hint: use --span for head or extent offsets"
        )
    if per_label and not by_convention:
        die(
            "--per-label goes with --convention (or a rule option): the tables by label are"
            " a convention's"
        )
    loaded = load_sides(inputs, options)
    if by_convention:
        scores, text, extra = convention_output(loaded, convention, rules, per_label)
        extra = f"metric:events|{extra}"
    else:
        result = event_scores(
            loaded.ref,
            loaded.sys,
            trigger_match=trigger_match,
            arg_match=arg_match,
            arg_scope=arg_scope,
        )
        scores = events_json(result)
        extra = f"metric:events|trigger:{trigger_match}|args:{arg_match}|scope:{arg_scope}"
        text = events_text(scores)
    if nist_report:
        write_nist_report(loaded, nist_report)  # last: scoring may change the sides
    finish(loaded, "events", scores, text, extra, fmt, output, inputs.quiet)
