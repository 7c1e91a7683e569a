"""``acescore events --convention NAME``: the options of every convention rule and the
literature table (see :mod:`acescore.metrics.conventions`).  Used by
:mod:`acescore.cli.metrics`."""
from __future__ import annotations

import click

from acescore.cli.common import report_file
from acescore.metrics.conventions import CONVENTIONS, RULE_HELP, RULES


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def convention_options(f):
    """``--convention`` and one option per rule (``--span``, ``--pronouns``, ...)."""
    for rule in reversed(list(RULES)):
        opt = "--" + rule.replace("_", "-")
        f = click.option(opt, rule, type=click.Choice(RULES[rule]), default=None,
                         help=f"Rule: {RULE_HELP[rule]} (default: the convention's).")(f)
    f = click.option("--nist-report", metavar="FILE", callback=report_file, default=None,
                     help="Also write the NIST report of REF and SYS (that of acescore score "
                          "-m, without its command-line line) to this file.")(f)
    f = click.option("--per-label", is_flag=True,
                     help="With --convention: also the per-label tables (event types, roles, "
                          "entity types, relation labels).")(f)
    f = click.option("--convention", type=click.Choice(sorted(CONVENTIONS)), default=None,
                     help="Score by a codebase's published rules: " + ", ".join(
                         f"{n} ({c.title})" for n, c in CONVENTIONS.items()) + ".")(f)
    return f


def _rows(scores: dict, tasks) -> list:
    rows = []
    for t in tasks:
        s = scores[t]
        rows.append([t, s["ref"], s["sys"], s["correct"], _pct(s["precision"]),
                     _pct(s["recall"]), _pct(s["f1"])])
    return rows


HEADERS = ["Score", "REF", "SYS", "Correct", "P %", "R %", "F1 %"]


def _table(rows: list, first: str = "Score") -> str:
    from tabulate import tabulate
    return tabulate(rows, headers=[first] + HEADERS[1:], tablefmt="simple",
                    disable_numparse=True, colalign=("left",) + ("right",) * 6)


def convention_text(result: dict, per_label: bool = False) -> str:
    """The literature table of :func:`acescore.metrics.convention_scores.convention_scores`."""
    sc = result["scores"]
    out = [f"Convention {result['convention']}: {result['title']}",
           f"Rules from: {result['source']}",
           f"Signature: {result['signature']}",
           "",
           _table(_rows(sc, list(sc))),
           ""]
    for side in ("ref", "sys"):
        d = result["dropped"][side]
        if d:
            out.append(f"{side.upper()} left out by the rules: "
                       + ", ".join(f"{n} {what}" for what, n in d.items()))
    if any(result["dropped"].values()):
        out.append("")
    macro = result["macro"]
    out.append(_table([[f"{t} (macro)", "", "", "", _pct(m["precision"]), _pct(m["recall"]),
                        _pct(m["f1"])] for t, m in macro.items()]))
    out.append("")
    if per_label:
        for t, labels in result["per_label"].items():
            out.append(t)
            out.append(_table([[lab, s["ref"], s["sys"], s["correct"], _pct(s["precision"]),
                                _pct(s["recall"]), _pct(s["f1"])]
                               for lab, s in labels.items()], "Label"))
            out.append("")
    return "\n".join(out)


def write_nist_report(loaded, path) -> None:
    """The NIST report of the sides read (``acescore score -m REF SYS`` without its
    command-line line) into ``path`` (a file name, or the :class:`acescore.writing.output.ReportFile`
    checked before the run), whole or not at all."""
    from dataclasses import replace
    from acescore.run.pipeline import score
    from acescore.writing.output import ReportFile
    text = score(replace(loaded, options=loaded.options.but(mentions=True))).to_text()
    (path if isinstance(path, ReportFile) else ReportFile(path)).write(text)


def convention_output(loaded, name, rules: dict, fmt: str, per_label: bool) -> str:
    """The literature table (or JSON) of the convention ``name`` with ``rules`` changed."""
    import json
    from acescore.model.version import __version__
    from acescore.metrics.convention_scores import convention_scores
    from acescore.metrics.conventions import DEFAULT, get_convention
    conv = get_convention(name or DEFAULT, **rules)
    result = convention_scores(loaded.ref, loaded.sys, conv, __version__)
    if fmt == "json":      # one unit in every JSON: scores in percent (acescore.report.data.machine)
        from acescore.report.data.machine import UNIT, as_percent
        data = dict(as_percent(result), score_unit=UNIT, inputs=loaded.inputs,
                    documents=loaded.coverage.as_dict())
        return json.dumps(data, indent=2, sort_keys=True) + "\n"
    return convention_text(result, per_label)
