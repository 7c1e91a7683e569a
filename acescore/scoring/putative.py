"""The putative pairs of a relation or event pass (docs/rules/relations-events.md §8.1): which REF/SYS pairs of a
document :mod:`acescore.scoring.releves` values.

The tool values every REF/SYS pair of a document.  Most of them get no value: they share no
argument and no mention extent (doc_value's C1/C3), or no SYS argument can be mapped to a
REF one (C1), or the SYS arguments that can be lack the roles C2 asks for.  Such pairs are
left out here, before any valuation: none of the checks that reject them has a side effect
in the valuation, and a pair without a value in any document is neither a candidate of the
mapping nor listed, so the results are those of valuing every pair.
"""

from __future__ import annotations

from typing import Any

from acescore.model.limits import too_many_pairs

_NONE: dict = {}  # no partners (read only)


def putative_pairs(sc: Any) -> dict:
    """REF ID -> the set of SYS IDs worth valuing, for the pass of ``sc`` (a
    ``releves._ReleveScorer``).  Raises the ``--max-pairs`` error where a document has
    more pairs that may correspond (a span or an argument in common) than the limit."""
    ref, sys = sc.ref, sc.sys
    ref_by_doc: dict = {}
    for rid in sorted(ref):
        for d in ref[rid].docs:
            ref_by_doc.setdefault(d, []).append(rid)
    sys_by_doc: dict = {}
    for sid in sorted(sys):
        for d in sys[sid].docs:
            sys_by_doc.setdefault(d, []).append(sid)
    r_span, r_args = _screening(sc, ref, True)
    s_span, s_args = _screening(sc, sys, False)
    costed = _costed(sc, ref)
    ref_args_of = {rid: bool(g.arg_pairs) for rid, g in ref.items()}
    c1, c2, c2_fails = bool(sc.p.argscore_required), sc.c2, sc.c2_fails_for_roles
    events_c5 = sc.mention_level and not sc.w.relation
    putative: dict = {}
    limit = sc.p.max_pairs
    for d in sc.rside.documents:
        rids = ref_by_doc.get(d)
        if not rids:
            continue
        count = 0
        for sid in sys_by_doc.get(d, ()):
            if count > limit:
                raise too_many_pairs(d, sc.kind, count, limit)
            ss = s_span[sid]
            sa = s_args[sid]
            s = sys[sid]
            for rid in rids:
                rs = r_span[rid]
                apart = rs is not None and ss is not None and (rs[1] < ss[0] or ss[1] < rs[0])
                if apart and (sa is None or r_args[rid].isdisjoint(sa)):
                    continue  # no span and no argument in common: C1/C3
                count += 1  # (the --max-pairs guard counts what may correspond)
                # event mentions whose extents are apart fail C5
                if apart and events_c5:
                    continue
                # no SYS argument that argument_map can give a cost: no argument map, and
                # C1 fails where the REF element has arguments
                cr = costed[rid]
                if c1 and ref_args_of[rid] and (sa is None or cr.isdisjoint(sa)):
                    continue
                # the roles of those SYS arguments fail C2: it fails for any map made of
                # them (argument_map: UNVALUED) or, without a map, in doc_value
                if c2 and c2_fails([role for role, aid in s.arg_pairs if aid in cr]):
                    continue
                putative.setdefault(rid, set()).add(sid)
        if count > limit:
            raise too_many_pairs(d, sc.kind, count, limit)
    return putative


def _screening(sc: Any, coll: dict, is_ref: bool) -> tuple[dict, dict]:
    """Per element: the text span (first start, last end) covered by its mention extents
    (None if any extent is not text), and the argument IDs it can pair on.  For REF
    elements that is the set of SYS argument IDs having a pair value with one of its
    arguments; for SYS elements, the set of its argument IDs (None: none)."""
    partners = sc.arg_partners
    spans: dict = {}
    args: dict = {}
    for eid, g in coll.items():
        lo = hi = None
        for x in g.docs.values():
            for m in x.mentions:
                e = m.extent
                if e.kind != "text":
                    lo = None
                    break
                if lo is None or e.start < lo:
                    lo = e.start
                if hi is None or e.end > hi:
                    hi = e.end
            else:
                continue
            break
        spans[eid] = (lo, hi) if lo is not None else None
        if is_ref:
            reach: set = set()
            for _role, aid in g.arg_pairs:
                reach.update(partners.get(aid, _NONE))
            args[eid] = reach
        else:
            args[eid] = {aid for _role, aid in g.arg_pairs} or None
    return spans, args


def _costed(sc: Any, ref: dict) -> dict:
    """Per REF element: the SYS argument IDs that ``argument_map`` can give a cost (a pair
    value with one of its arguments and, unless wrong mappings are allowed, the
    argument's own mapping)."""
    partners, mapping = sc.arg_partners, sc.arg_mapping
    out: dict = {}
    for eid, g in ref.items():
        ids: set = set()
        for _role, aid in g.arg_pairs:
            p = partners.get(aid)
            if p is None:
                continue
            if sc.allow_wrong:
                ids.update(p)
            else:
                t = mapping.get(aid)
                if t is not None and t in p:
                    ids.add(t)
        out[eid] = ids
    return out
