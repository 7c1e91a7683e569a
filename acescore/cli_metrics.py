"""``acescore coref`` and ``acescore events``: metrics from the literature (see
:mod:`acescore.metrics`).  Registered on the main group by :mod:`acescore.cli`."""
from __future__ import annotations

import json
import sys
from dataclasses import replace

import click
from tabulate import tabulate

from acescore.errors import EXIT_UNUSABLE, AceError
from acescore.params import PARAMETER_SETS
from acescore.scoring.limits import DEFAULT_MAX_PAIRS


def _die(message: str, code: int = EXIT_UNUSABLE):
    click.echo(f"acescore: {message}", err=True)
    sys.exit(code)


def _load(ref, sys_, params, max_file_size, quiet):
    from acescore.metrics import load_sides
    warnings: list = []
    try:
        rside, sside, p = load_sides(ref, sys_, params, max_file_size, warnings)
    except AceError as e:
        _die(str(e), e.exit_code)
    if not quiet:
        for w in warnings:
            sys.stderr.write(w)
    return rside, sside, p


def _destination(output):
    """The output, checked before the run (:mod:`acescore.output`)."""
    from acescore.output import Emitter
    try:
        return Emitter(output)
    except AceError as e:
        _die(str(e), e.exit_code)


def _emit(text: str, emitter) -> None:
    try:
        emitter.emit(text)
    except AceError as e:
        _die(str(e), e.exit_code)


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _common(f):
    f = click.option("-q", "--quiet", is_flag=True, help="No warnings on standard error.")(f)
    f = click.option("--max-file-size", type=click.IntRange(min=0), default=64 * 1024 * 1024,
                     show_default=True, help="Largest APF file accepted, in bytes.")(f)
    f = click.option("-o", "--output", metavar="FILE",
                     help="Write to this file instead of standard output (checked before the"
                          " run; written whole or not at all).")(f)
    f = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                     show_default=True, help="Output format (json: fractions).")(f)
    f = click.option("-P", "--params", "params", default="local_2008", show_default=True,
                     type=click.Choice(sorted(PARAMETER_SETS)),
                     help="Parameter set used to read the input (and min. head overlap).")(f)
    f = click.argument("sys_", metavar="SYS")(f)
    f = click.argument("ref")(f)
    return f


# --------------------------------------------------------------------------------------------

def coref_text(scores: dict) -> str:
    """The human-readable table of :func:`acescore.metrics.coref.coref_scores`."""
    from acescore.metrics.coref import METRIC_NAMES, METRICS
    rows = []
    for m in METRICS:
        s = scores[m]
        rows.append([METRIC_NAMES[m], _pct(s["recall"]), _pct(s["precision"]), _pct(s["f1"])])
    nist = scores.get("bcub_nist")
    if nist is not None:
        rows.append([METRIC_NAMES["bcub_nist"], _pct(nist["recall"]), _pct(nist["precision"]),
                     _pct(nist["f1"])])
    m = scores["mentions"]
    conll = (scores["muc"]["f1"] + scores["bcub"]["f1"] + scores["ceafe"]["f1"]) / 3
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
@_common
@click.option("--max-pairs", type=click.IntRange(min=1), default=DEFAULT_MAX_PAIRS,
              show_default=True, help="Most REF/SYS mention pairs aligned in one document"
                                      " (as for acescore score).")
def coref(ref, sys_, params, fmt, output, max_file_size, quiet, max_pairs=DEFAULT_MAX_PAIRS):
    """Entity coreference metrics of SYS against REF: MUC, B-cubed, CEAF-m, CEAF-e, BLANC.

    REF and SYS mentions are aligned one-to-one per document (heads with mutual overlap
    >= 0.3, maximum total overlap); unaligned mentions count as in the CoNLL-2012
    reference scorer v8.  REF and SYS are each an APF file, a directory or a list file.
    """
    from acescore.metrics.coref import coref_scores
    emitter = _destination(output)
    rside, sside, p = _load(ref, sys_, params, max_file_size, quiet)
    try:
        scores = coref_scores(rside, sside, replace(p, max_pairs=max_pairs))
    except AceError as e:
        _die(str(e), e.exit_code)
    if fmt == "json":
        text = json.dumps(scores, indent=2, sort_keys=True) + "\n"
    else:
        text = coref_text(scores)
    _emit(text, emitter)


# --------------------------------------------------------------------------------------------

def events_text(scores: dict) -> str:
    """The human-readable table of :func:`acescore.metrics.events.event_scores`."""
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
@_common
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
def events(ref, sys_, params, fmt, output, max_file_size, quiet, trigger_match, arg_match,
           arg_scope):
    """Event-extraction scores of SYS against REF as ACE 2005 papers report them: trigger
    identification and classification, argument identification and classification
    (recall, precision, F1), with one-to-one matching.

    REF and SYS are each an APF file, a directory or a list file.
    """
    from acescore.metrics.events import event_scores
    emitter = _destination(output)
    rside, sside, _p = _load(ref, sys_, params, max_file_size, quiet)
    scores = event_scores(rside, sside, trigger_match=trigger_match, arg_match=arg_match,
                          arg_scope=arg_scope)
    if fmt == "json":
        text = json.dumps(scores, indent=2, sort_keys=True) + "\n"
    else:
        text = events_text(scores)
    _emit(text, emitter)
