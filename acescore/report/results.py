"""The outcome of one scoring run, in one form: every pass rendered (text and data), plus
what the run found along the way (warnings, skipped input, document counts).

Text, JSON (as data or as a string) and CSV are all reachable from any
:class:`Results`; the passes themselves (:attr:`Results.passes`) only when the run was
asked to keep them (``keep_passes``), which costs memory.
"""

from __future__ import annotations

from dataclasses import field

from acescore.model.errors import AceUsageError
from acescore.model.records import dataclass
from acescore.report.data import json_report
from acescore.writing.spool import as_text


@dataclass
class Results:
    options: object  # acescore.model.options.Options
    params: object  # acescore.model.params.Params
    source_label: str  # the report's SOURCE label (one source, or MIXED)
    all_sources: list  # every SOURCE of the input, sorted
    preamble: str  # the text before the first section (header, -s lists)
    outputs: list  # PassOutput of every pass, in report order
    warnings: list = field(default_factory=list)  # the NIST WARNING messages, in order
    skipped: object | None = None  # lenient mode: acescore.rules.robust.SkipReport
    documents: dict = field(default_factory=dict)  # {"ref": n, "sys": m}
    dtd: str = "none"  # the DOCTYPEs of the input files
    literature: dict | None = None  # {"coref": ..., "events": ...} (acescore.metrics)
    run: object | None = None  # the scoring run, with its passes (keep_passes)
    inputs: dict | None = None  # {"ref": path, "sys": path} as given, if paths
    coverage: object | None = None  # acescore.rules.coverage.Coverage: documents scored
    document_ids: dict | None = None  # -s: {"ref": [DOCID...], "sys": [...]}
    shards: int | None = None  # the document shards it was scored in (None: one process)

    @property
    def mentions(self) -> bool:
        return self.options.mentions

    @property
    def passes(self) -> list:
        """The PassResults (kept only when scored with ``keep_passes=True``)."""
        if self.run is None or not self.run.keep_passes:
            raise AceUsageError("the passes were not kept: score with keep_passes=True")
        return self.run.passes

    def task(self, name: str):
        """The PassResult of a pass (``entity``, ``mention_event``, ...)."""
        for p in self.passes:
            if p.task == name:
                return p
        raise KeyError(name)

    def to_text(self, command_line: str | None = None) -> str:
        """The NIST report; ``command_line``: its first line, if wanted."""
        return "".join(map(as_text, self.text_pieces(command_line)))

    def text_pieces(self, command_line: str | None = None) -> list:
        """:meth:`to_text` as the pieces it joins (a report with listings may be ~100 MB:
        written piece by piece, it need not be joined): str, and the
        :class:`acescore.writing.spool.Span` of listing text that document shards left in files."""
        out = [command_line or "", self.preamble]
        for o in self.outputs:
            out += o.listing
            out.append(o.text)
        return out

    def to_dict(self) -> dict:
        return json_report.to_dict(self)

    def to_json(self, indent: int = 1) -> str:
        return json_report.to_json(self, indent)

    def to_csv(self) -> str:
        return json_report.to_csv(self)

    def value(self, task: str) -> float | None:
        """A task's total Value (%), None if it was not scored."""
        return json_report.task_value(self, task)

    def table(self, task: str, condition: str = "TYPE"):
        """The rows of one table of one task, as dicts of named numbers."""
        return json_report.table(self, task, condition)

    def signature(self) -> str:
        return json_report.signature(self)

    def render(self, fmt: str) -> str:
        """The report in one format: ``text`` (without its command-line banner), ``json``
        or ``csv``."""
        if fmt == "text":
            return self.to_text()
        if fmt == "json":
            return self.to_json()
        if fmt == "csv":
            return self.to_csv()
        raise AceUsageError(f"unknown format '{fmt}' (text, json, csv)")
