"""One pass rendered: everything the outputs need of a pass, without the pass itself.

A pass is rendered as soon as it is scored — its NIST text and its machine-readable data —
and then dropped, so that a run never holds more than one pass's data at a time; a pass
scored in a worker process (:mod:`acescore.run.parallel`) travels back as this small record.
The text report, JSON, CSV and the ``--fail-under`` gates all read these records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from acescore.model.options import Options
from acescore.model.params import Params
from acescore.report.counts.tables import PassTables
from acescore.report.data import json_report
from acescore.report.data.machine import pass_details
from acescore.report.nist import nist_report
from acescore.scoring.engine import Run


@dataclass
class PassOutput:
    task: str  # entity, value, ..., mention_event (acescore.model.tasks)
    printed: bool  # the pass has a section in the report
    text: str  # nist_report.pass_text: what the text report prints
    data: dict | None = None  # json_report.pass_json (printed passes)
    documents: dict | None = None  # json_report.documents_json (printed passes)
    value: float | None = None  # the total Value (%) of the first table (printed passes)
    listing: list = field(default_factory=list)  # printed before ``text``: the listings
    # of document shards, as str and acescore.writing.spool.Span pieces (in one process: in text)
    merged: tuple | None = None  # document shards, for the view: (PassTables, costs)


@dataclass
class ReportContext:
    """What rendering a pass needs besides the pass: the run (sides and argument
    mappings, for the listings), the parameters and options, the SOURCE labels."""

    run: Run
    params: Params
    options: Options
    source_label: str
    all_sources: list


def render_pass(ctx: ReportContext, res) -> PassOutput:
    """Render one pass: its text and, if it has a section, its data and total Value."""
    tables = None
    if res.printed:  # built once: the section, the JSON and the -d numbers read it
        tables = PassTables(res)
    out = PassOutput(res.task, res.printed, nist_report.pass_text(ctx, res, tables))
    if res.printed:
        out.data = dict(
            json_report.pass_json(res, ctx.params, ctx.all_sources, tables),
            **pass_details(ctx.options, res, tables),
        )
        out.documents = json_report.documents_json(res, nist_report.document_costs(res, tables))
        out.value = json_report.total_value(out.data)
    return out
