"""The literature metrics of the JSON output (``coref``, ``events``) from document shards
(``acescore score --jobs N``: :mod:`acescore.run.shards`).

Both are per-document sums (:mod:`acescore.metrics.coref`, :mod:`acescore.metrics.events`):
every count is taken within one REF document (chains, mention alignments, CEAF's entity
alignment and BLANC's links never leave a document; event mentions and arguments are
matched within a document), then summed over the REF documents in DOCID order.  So a
shard computes its documents' counts, and the merge adds them in the order one process
does:

* ``coref`` MUC, B-cubed, CEAF-m, CEAF-e, BLANC and the mention counts: per document, the
  shards' records merged in DOCID order and summed by :func:`coref.summed_counts` exactly
  as one process sums them (B-cubed and CEAF are floating-point sums: adding the shards'
  subtotals instead would round differently);
* ``bcub_nist`` (the NIST tool's B-cubed, docs/rules/entities.md §8.3): a sum over every entity mention of the
  corpus in mention-ID order; each summand is of the mention's own entity (within a shard),
  so the shards send the summands with their mention IDs (from the B-cubed data of the
  shard's entity pass, where it has one) and the merge adds them in mention-ID order;
* ``events``: integer counts, the shards' totals add up.
"""

from __future__ import annotations

from heapq import merge
from operator import itemgetter

from acescore.metrics.coref import (
    coref_documents,
    coref_from_documents,
    nist_b3_from_summands,
    nist_b3_summands,
)
from acescore.metrics.events import event_totals, scores_from_totals


def literature_records(ref_side, sys_side, params, b3=None) -> dict:
    """In a shard: what :func:`merged_literature` needs of its documents (the defaults of
    :func:`acescore.metrics.literature_scores`); ``b3``: the B-cubed data of the shard's
    entity pass, if any (:func:`~acescore.metrics.coref.nist_b3_summands`)."""
    return {
        "entities": bool(ref_side.of("entity")),
        "coref": coref_documents(ref_side, sys_side, params),
        "b3": nist_b3_summands(ref_side, sys_side, params, b3) if params.use_mentions else None,
        "events": event_totals(ref_side, sys_side, max_pairs=params.max_pairs),
    }


def merged_literature(records: list, params) -> dict | None:
    """``{"coref": ..., "events": ...}`` as :func:`acescore.metrics.literature_scores` gives
    them for the whole corpus, from the shards' :func:`literature_records`; None where one
    process computes none (no REF entity)."""
    if not any(r["entities"] for r in records):
        return None
    docs = list(merge(*[r["coref"] for r in records], key=itemgetter(0)))
    coref = coref_from_documents(docs)
    coref["bcub_nist"] = (
        nist_b3_from_summands([r["b3"] for r in records]) if params.use_mentions else None
    )
    totals = records[0]["events"]
    for r in records[1:]:
        totals = {t: tuple(a + b for a, b in zip(v, r["events"][t])) for t, v in totals.items()}
    return {"coref": coref, "events": scores_from_totals(totals)}
