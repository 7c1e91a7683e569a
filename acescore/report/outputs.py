"""One pass rendered: everything the outputs need of a pass, without the pass itself
(:func:`acescore.run.assemble.render_pass` makes it from the pass's merged section data), and
what rendering needs besides the pass (:class:`ReportContext`).  The text report, JSON, CSV
and the ``--fail-under`` gates all read these records.
"""

from __future__ import annotations

from dataclasses import field

from acescore.model.options import Options
from acescore.model.params import Params
from acescore.model.records import dataclass
from acescore.scoring.engine import Run


@dataclass
class PassOutput:
    task: str  # entity, value, ..., mention_event (acescore.model.tasks)
    printed: bool  # the pass has a section in the report
    text: str  # what the text report prints of the pass (its section, -d)
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
