"""B-cubed as the NIST tool computes it (docs/rules/entities.md §8): from mention correspondences, not mappings."""

from __future__ import annotations

from acescore.scoring.elements import ElementPass
from acescore.scoring.result import NO_PARTNERS, B3Data, B3Mention


def _mentions(coll: dict, sigma: dict) -> tuple[list[B3Mention], dict]:
    """All mentions of all entities with entity totals (documents in DOCID order)."""
    out: list[B3Mention] = []
    totals: dict = {}
    for eid in sorted(coll):
        g = coll[eid]
        n = 0
        v = 0
        for d in sorted(g.docs):
            for m in g.docs[d].mentions:
                s = sigma[m.id]
                out.append(B3Mention(m, eid, d, s, NO_PARTNERS, NO_PARTNERS))
                v += s
                n += 1
        totals[eid] = (n, v)
    out.sort(key=lambda b: b.mention.id)
    return out, totals


def compute_b3(ep: ElementPass) -> B3Data:
    """B-cubed tables of an entity :class:`~acescore.scoring.elements.ElementPass`."""
    ref, ref_totals = _mentions(ep.ref, ep.sigma_r)
    sys, sys_totals = _mentions(ep.sys, ep.sigma_s)
    sys_host = {b.mention.id: b for b in sys}
    coref_count: dict = {}
    coref_value: dict = {}
    corr = ep.corr
    for b in ref:  # R16: REF mentions in mention-ID order
        scores = corr.get(b.mention.id)
        if not scores:
            continue
        best: dict = {}
        for tid, sc in scores.items():
            te = sys_host[tid].entity_id
            old = best.get(te)
            if old is None or sc > old:
                best[te] = sc
        for te in sorted(best):
            key = (b.entity_id, te)
            coref_count[key] = coref_count.get(key, 0) + 1
            coref_value[key] = coref_value.get(key, 0) + best[te]
    for b in ref:
        scores = corr.get(b.mention.id)
        if not scores:
            continue
        if b.count is NO_PARTNERS:
            b.count, b.value = {}, {}
        for tid in scores:
            tb = sys_host[tid]
            key = (b.entity_id, tb.entity_id)
            c, v = coref_count[key], coref_value[key]
            b.count[tb.entity_id] = c
            b.value[tb.entity_id] = v
            if tb.count is NO_PARTNERS:
                tb.count, tb.value = {}, {}
            tb.count[b.entity_id] = c
            tb.value[b.entity_id] = v
    return B3Data(ref, sys, ref_totals, sys_totals)
