"""The whole NIST text report: parameter header, then every section in the tool's order
(docs/rules/report.md §1.1) with the optional diagnostics (-s, -a/-e, -d)."""

from __future__ import annotations

from acescore.model.tasks import task as task_of
from acescore.report.counts.tables import document_costs
from acescore.report.nist import diagnostics as diag
from acescore.report.nist.header import header
from acescore.report.nist.mappings import mapping_text
from acescore.report.nist.nist_text import section_text

EPS = 1e-8


def document_scores_text(res, costs=None) -> str:
    """The -d lines of a pass; ``costs``: its :func:`document_costs` if known (one document
    shard's do not depend on the others')."""
    task = task_of(res.task).code
    out = [""]
    if costs is None:
        costs = document_costs(res)
    for d, (refv, cost) in sorted(costs.items()):
        sysv = refv - cost
        score = sysv / refv if refv else (-99.9999 if sysv else 1)
        out.append(
            "%10.2f %% (%.5f out of %.5f) %s score for %s"
            % (100 * max(score, -99.9999), sysv, refv, task, d)
        )
    return "\n".join(out) + "\n"


#: ace05's -d labels: the mention-level sections print their element's (the stage is never
#: passed to the routine that prints them)
_ACE05_LABELS = {
    "entity": "EDR",
    "value": "Value",
    "timex2": "TIMEX2",
    "relation": "RDR",
    "event": "VDR",
}


def ace05_document_scores_text(res, costs: dict) -> str:
    """ace05's -d lines (docs/rules/versions.md §4.7): ``%10.2f <LABEL> score for <DOC>``.
    Entities: 100·(R − C)/R (R − C when R = 0).  Every other kind prints the script's
    operator-precedence bug: its "SYS value" is C, or 0 when R = 1 (reproduced, a wrong
    number: the JSON keeps the right one)."""
    out = []
    label = _ACE05_LABELS[res.kind]
    for d, (refv, cost) in sorted(costs.items()):
        sysv = refv - cost if res.kind == "entity" else (cost if refv - 1 != 0 else 0)
        out.append("%10.2f %s score for %s\n" % (100 * sysv / refv if refv else sysv, label, d))
    return "".join(out)


def pass_text(ctx, res, tables=None) -> str:
    """Everything the report prints for one pass: the ``-s`` listings, the ``-a``/``-e``
    mappings, the section itself and the ``-d`` document scores (as asked by the options).
    ``tables``: the pass's PassTables if at hand."""
    opts = ctx.options
    summary = opts.summary
    mappings = opts.all_mappings or opts.error_mappings
    parts = []
    if summary:
        parts.append(diag.listing_text(ctx, res, "REF"))
    if not res.printed:
        return "".join(parts)
    if summary:
        parts.append(diag.listing_text(ctx, res, "SYS"))
    if mappings:
        parts.append(mapping_text(ctx, res, all_blocks=opts.all_mappings))
    ace05 = opts.doc_scores and ctx.params.nist == "ace05"  # -d inside the section
    inline = ace05_document_scores_text(res, document_costs(res, tables)) if ace05 else ""
    parts.append(section_text(res, ctx.params, ctx.source_label, ctx.all_sources, tables, inline))
    if opts.doc_scores and not ace05:
        parts.append(document_scores_text(res, document_costs(res, tables)))
    return "".join(parts)


def preamble_text(ctx) -> str:
    """What the report prints before the first section: the parameter header and, with
    ``-s``, the document listings."""
    parts = [header(ctx.params)]
    if ctx.options.summary:
        parts.append(diag.documents_text(ctx))
    return "".join(parts)
