"""``acescore coref`` and ``acescore events``: metrics from the literature (see
:mod:`acescore.metrics`)."""
from __future__ import annotations

import json
import sys

import click

from acescore.cli.common import (catch_errors, die, emit_summary, emit_warnings, make_options,
                                 output_options, pairs_option, quiet_option, read_options,
                                 ref_sys_arguments, write_output)
from acescore.cli.conventions import convention_options, convention_output, write_nist_report

COREF_SIGNATURE = "metric:coref|conll2012-v8|align:head"


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def load_sides(ref, sys_, params, max_bytes, lenient, quiet, **options):
    """Read and build both sides for a metric; the warnings go to standard error."""
    from acescore.run import pipeline
    loaded = pipeline.load(ref, sys_, make_options(params, max_bytes, lenient, **options))
    emit_warnings(loaded, quiet)
    return loaded


def finish(loaded, command: str, scores: dict, text: str, extra: str, fmt: str, output,
           quiet: bool) -> None:
    """Write a metric's output: its table, or its JSON (scores in percent, with the
    signature and the inputs); then the signature (text) and the summary line."""
    from acescore.report.data.machine import UNIT, make_signature
    sig = make_signature(loaded.options.params, "", loaded.dtd, loaded.options.lenient,
                         extra)
    if fmt == "json":
        data = {"command": command, "signature": sig, "score_unit": UNIT,
                "inputs": loaded.inputs, "documents": loaded.coverage.as_dict(), **scores}
        text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    write_output(text, output)
    if not quiet and fmt != "json":
        sys.stderr.write(f"\nsignature: {sig}\n")
    emit_summary(loaded, quiet)


def literature_command(f):
    """REF SYS and the options every literature metric takes."""
    f = catch_errors(f)
    f = quiet_option(f)
    f = output_options(("text", "json"))(f)
    f = read_options(f)
    return ref_sys_arguments(f)


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
        rows.append([METRIC_NAMES["bcub_nist"], _pct(nist["recall"]), _pct(nist["precision"]),
                     _pct(nist["f1"])])
    m = scores["mentions"]
    conll = conll_f1(scores)
    out = ["Entity coreference (mentions aligned one-to-one by head overlap; CoNLL-2012 v8"
           " definitions)",
           f"REF mentions: {m['ref']}   SYS mentions: {m['sys']}   aligned: {m['aligned']}",
           "",
           tabulate(rows, headers=["Metric", "Recall %", "Precision %", "F1 %"],
                    tablefmt="simple", disable_numparse=True, colalign=("left", "right",
                                                                          "right", "right")),
           "",
           f"CoNLL F1 (mean of MUC, B-cubed, CEAF-e F1): {_pct(conll)}",
           ""]
    return "\n".join(out)


@click.command("coref")
@pairs_option
@literature_command
def coref(ref, sys_, params, max_bytes, lenient, output, fmt, quiet, max_pairs):
    """Entity coreference metrics of SYS against REF: MUC, B-cubed, CEAF-m, CEAF-e, BLANC.

    REF and SYS mentions are aligned one-to-one per document (heads with mutual overlap
    >= 0.3, maximum total overlap); unaligned mentions count as in the CoNLL-2012
    reference scorer v8.  REF and SYS are each an APF file, a directory or a list file.
    """
    from acescore.metrics.coref import coref_scores
    from acescore.report.data.machine import coref_json
    loaded = load_sides(ref, sys_, params, max_bytes, lenient, quiet, max_pairs=max_pairs)
    scores = coref_scores(loaded.ref, loaded.sys, loaded.params)
    finish(loaded, "coref", coref_json(scores), coref_text(scores), COREF_SIGNATURE, fmt,
           output, quiet)


# --------------------------------------------------------------------------------------------

def events_text(scores: dict) -> str:
    """The human-readable table of :func:`acescore.metrics.events.event_scores`."""
    from tabulate import tabulate
    from acescore.metrics.events import TASK_NAMES, TASKS
    rows = []
    for t in TASKS:
        s = scores[t]
        rows.append([TASK_NAMES[t], s["correct"], s["ref"], s["sys"], _pct(s["recall"]),
                     _pct(s["precision"]), _pct(s["f1"])])
    d = scores["definition"]
    out = [f"Event extraction (triggers: {d['trigger_match']} anchor match; arguments:"
           f" {d['arg_match']} offsets, scope {d['arg_scope']}; one-to-one)",
           "",
           tabulate(rows, headers=["Task", "Correct", "REF", "SYS", "Recall %", "Precision %",
                                   "F1 %"], tablefmt="simple", disable_numparse=True,
                    colalign=("left",) + ("right",) * 6),
           ""]
    return "\n".join(out)


@click.command("events")
@literature_command
@convention_options
@click.option("--trigger-match", type=click.Choice(["exact", "overlap"]), default="exact",
              show_default=True,
              help="Triggers match on identical anchor offsets, or on any anchor overlap.")
@click.option("--arg-match", type=click.Choice(["head", "extent"]), default="head",
              show_default=True,
              help="Argument offsets: the argument mention's head (values/timex2: extent) or "
                   "its extent.")
@click.option("--arg-scope", type=click.Choice(["subtype", "trigger"]), default="subtype",
              show_default=True,
              help="subtype: an argument matches any REF argument of an event mention of the "
                   "same subtype in the document (Ji & Grishman 2008, Li et al. 2013); "
                   "trigger: only those of the REF event mention its trigger is aligned with.")
def events(ref, sys_, params, max_bytes, lenient, output, fmt, quiet, trigger_match,
           arg_match, arg_scope, convention, per_label, nist_report, **rules):
    """Event-extraction scores of SYS against REF as ACE 2005 papers report them: trigger
    identification and classification, argument identification and classification
    (recall, precision, F1), with one-to-one matching.

    REF and SYS are each an APF file, a directory or a list file.  With --convention (or
    any rule option) the scores follow a codebase's published rules instead.
    """
    from acescore.metrics.events import event_scores
    from acescore.report.data.machine import events_json
    by_convention = convention or any(v is not None for v in rules.values())
    if by_convention and (trigger_match, arg_match, arg_scope) != ("exact", "head", "subtype"):
        die("--trigger-match, --arg-match and --arg-scope do not go with --convention or"
            " a rule option; hint: use --span for head or extent offsets")
    loaded = load_sides(ref, sys_, params, max_bytes, lenient, quiet)
    if by_convention:
        text = convention_output(loaded, convention, rules, fmt, per_label)
        if nist_report:
            write_nist_report(loaded, nist_report)      # last: scoring may change the sides
        write_output(text, output)
        emit_summary(loaded, quiet)
        return
    scores = event_scores(loaded.ref, loaded.sys, trigger_match=trigger_match,
                          arg_match=arg_match, arg_scope=arg_scope)
    if nist_report:
        write_nist_report(loaded, nist_report)
    finish(loaded, "events", events_json(scores), events_text(scores),
           f"metric:events|trigger:{trigger_match}|args:{arg_match}|scope:{arg_scope}", fmt,
           output, quiet)
