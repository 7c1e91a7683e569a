"""The ``-d`` document scores of a section, as each version prints them (the rest of the
report is put together from the passes' merged sections: :mod:`acescore.run.assemble`)."""

from __future__ import annotations

from acescore.model.tasks import task as task_of
from acescore.report.counts.tables import document_costs

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
