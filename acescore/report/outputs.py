"""One pass rendered: what the reports need of a pass, without the pass itself.

A pass scored in a worker process (``acescore score --jobs N``, :mod:`acescore.parallel`)
is rendered there and only this small record travels back: sending the PassResult itself
would mean pickling hundreds of thousands of dictionary entries.  The text report, JSON,
CSV and the ``--fail-under`` gates read these records exactly as they read local passes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass
class PassOutput:
    task: str                       # entity, value, ..., mention_event
    printed: bool                   # the pass has a section in the report
    text: Optional[str] = None      # nist_report.pass_text (text format)
    json: Optional[dict] = None     # json_report.pass_json (JSON/CSV formats)
    documents: Optional[dict] = None   # json_report.documents_json
    value: Optional[float] = None   # json_report.first_table_value (gates)


def render_pass(results, res, fmt: str, gates: bool) -> PassOutput:
    """Render one pass for the output format ``fmt`` (text, json, csv) and, with ``gates``,
    its total Value for ``--fail-under``."""
    from acescore.report import json_report, nist_report
    printed = bool(res.extra.get("print", True))
    out = PassOutput(res.task, printed)
    if fmt == "text":
        out.text = nist_report.pass_text(results, res)
    elif printed:
        from acescore.report.machine import pass_details
        out.json = dict(json_report.pass_json(res, results.params, results.all_sources),
                        **pass_details(results.options, res))
        out.documents = json_report.documents_json(res)
    if gates and printed:
        out.value = json_report.first_table_value(res, results.params, results.all_sources)
    return out
