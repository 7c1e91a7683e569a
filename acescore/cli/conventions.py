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
        f = click.option(
            opt,
            rule,
            type=click.Choice(RULES[rule]),
            default=None,
            help=f"Rule: {RULE_HELP[rule]} (default: the convention's).",
        )(f)
    f = click.option(
        "--nist-report",
        metavar="FILE",
        callback=report_file,
        default=None,
        help="Also write the NIST report of REF and SYS (that of acescore score "
        "-m, without its command-line line) to this file.",
    )(f)
    f = click.option(
        "--per-label",
        is_flag=True,
        help="With --convention: also the per-label tables (event types, roles, "
        "entity types, relation labels).",
    )(f)
    f = click.option(
        "--convention",
        type=click.Choice(sorted(CONVENTIONS)),
        default=None,
        help="Score by a codebase's published rules: "
        + ", ".join(f"{n} ({c.title})" for n, c in CONVENTIONS.items())
        + ".",
    )(f)
    return f


HEADERS = ["Score", "REF", "SYS", "Correct", "P %", "R %", "F1 %"]


def _row(name: str, s: dict, pct=_pct) -> list:
    return [
        name,
        s.get("ref", ""),
        s.get("sys", ""),
        s.get("correct", ""),
        pct(s["precision"]),
        pct(s["recall"]),
        pct(s["f1"]),
    ]


def score_table(scores: dict, first: str = "Score", percent: bool = True) -> str:
    """The table of every events result (with or without a convention): one row per score,
    the columns :data:`HEADERS`.  ``percent``: the scores are percentages already."""
    from tabulate import tabulate

    pct = (lambda x: f"{x:.2f}") if percent else _pct
    return tabulate(
        [_row(t, s, pct) for t, s in scores.items()],
        headers=[first] + HEADERS[1:],
        tablefmt="simple",
        disable_numparse=True,
        colalign=("left",) + ("right",) * 6,
    )


def convention_text(result: dict, per_label: bool = False) -> str:
    """The literature table of a convention's result (scores in percent, as its JSON)."""
    out = [
        f"Convention {result['convention']}: {result['title']}",
        f"Rules from: {result['source']}",
        "",
        score_table(result["scores"]),
        "",
    ]
    for side in ("ref", "sys"):
        d = result["dropped"][side]
        if d:
            out.append(
                f"{side.upper()} left out by the rules: "
                + ", ".join(f"{n} {what}" for what, n in d.items())
            )
    if any(result["dropped"].values()):
        out.append("")
    out.append(score_table({f"{t} (macro)": m for t, m in result["macro"].items()}))
    out.append("")
    if per_label:
        for t, labels in result["per_label"].items():
            out.append(t)
            out.append(score_table(labels, "Label"))
            out.append("")
    return "\n".join(out)


def write_nist_report(loaded, path) -> None:
    """The NIST report of the sides read (``acescore score -m REF SYS`` without its
    command-line line) into ``path`` (a file name, or the :class:`acescore.writing.output.ReportFile`
    checked before the run), whole or not at all."""
    from dataclasses import replace

    from acescore.cli.inputs import score_inputs
    from acescore.writing.output import ReportFile

    text = score_inputs(
        None,
        loaded.options.but(mentions=True),
        loaded=replace(loaded, options=loaded.options.but(mentions=True)),
    ).to_text()
    (path if isinstance(path, ReportFile) else ReportFile(path)).write(text)


def convention_output(loaded, name, rules: dict, per_label: bool) -> tuple:
    """The result of the convention ``name`` with ``rules`` changed: (its JSON fields, scores
    in percent and under ``scores``; its table; its part of the signature)."""
    from acescore.metrics.convention_scores import convention_scores
    from acescore.metrics.conventions import DEFAULT, get_convention
    from acescore.model.version import __version__
    from acescore.report.data.machine import as_percent

    conv = get_convention(name or DEFAULT, **rules)
    result = as_percent(convention_scores(loaded.ref, loaded.sys, conv, __version__))
    extra = result.pop("signature")
    return result, convention_text(result, per_label), extra
