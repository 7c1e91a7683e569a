"""The counts behind a pass's recognition tables (docs/rules/report.md §4), as data: the NIST
text (:mod:`acescore.report.nist.nist_text`) prints them and document shards add them up
(:mod:`acescore.report.counts.sections`)."""

from __future__ import annotations

from acescore.model.params import Params
from acescore.model.tasks import task as task_of
from acescore.report.counts import recognition as rec
from acescore.report.counts import releve_recognition as rrec
from acescore.report.counts.conditions import recognition_attributes


def recognition_stats(result, params: Params, pairs=None, with_mentions=None) -> dict:
    """The counts behind the recognition tables of a pass (docs/rules/report.md §4), all integer counts:
    those of several document shards add up to those of the whole corpus
    (:mod:`acescore.run.shards`).  ``pairs``: the doc-mapped pairs if already known
    (:class:`~acescore.report.counts.recognition.DocPairs`)."""
    attrs = recognition_attributes(result.kind, params)
    pairs = rec.DocPairs.of(result, pairs)
    stats = {"attrs": rec.attribute_stats(result, attrs, pairs)}
    if result.kind == "entity":
        if with_mentions is None:
            with_mentions = bool(params.use_mentions) or task_of(result.task).mention_level
            if params.nist != "ace08":  # no mention tables in the EMD section (versions.md §4.1)
                with_mentions = not task_of(result.task).mention_level
        stats["names"], stats["mentions"] = rec.pair_stats(
            result, params, pairs, names=True, mentions=with_mentions
        )
    elif result.kind in ("relation", "event"):
        stats["subtypes"] = rrec.subtype_stats(result, pairs)
        stats["roles"] = rrec.role_stats(result, pairs)
    return stats
