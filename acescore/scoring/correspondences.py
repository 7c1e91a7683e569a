"""Corresponding REF/SYS mention pairs (docs/rules/entities.md §1.4) of one kind of element: which mentions of
the two sides correspond, with their mention scores.

:func:`correspondences` finds them with an overlap sweep per document;
:func:`promoted_correspondences` derives those of the mention-level passes (whose elements
are promoted mentions, :mod:`acescore.scoring.promote`) from the entity pass's, since a
promoted mention keeps its host mention's type, role, style and head.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from acescore.model.limits import too_many_pairs
from acescore.model.params import EPSILON, Params
from acescore.model.spans import overlap, text_match

EPS = EPSILON


def mention_score(kind: str, p: Params, rm: Any, sm: Any) -> float | None:
    """Score of a REF/SYS mention pair of ``kind`` under the parameters ``p``, or None if
    they do not correspond."""
    if kind == "entity":
        ov = overlap(rm.head, sm.head)
        if ov < p.min_overlap:
            return None
        if p.min_text_match > 0 and text_match(rm.head.text, sm.head.text) < p.min_text_match:
            return None
        mtw = p.entity_mention_type_wgt
        a, b = mtw[rm.type], mtw[sm.type]
        score: float = (b if b < a else a) + ov * EPS
        w = p.entity_mention_err_wgt
        if rm.role != sm.role:
            score *= w["ROLE"]
        if rm.style != sm.style:
            score *= w["STYLE"]
        if rm.type != sm.type:
            score *= w["TYPE"]
        return score
    ov = overlap(rm.extent, sm.extent)
    if ov < p.min_overlap:
        return None
    return 1 + ov * EPS


def _mentions_by_doc(coll: dict) -> dict:
    """DOCID -> [(element ID, mention)]: elements in ID order, mentions in file order."""
    by_doc: dict = {}
    for eid in sorted(coll):
        for d, x in coll[eid].docs.items():
            lst = by_doc.setdefault(d, [])
            for m in x.mentions:
                lst.append((eid, m))
    return by_doc


def correspondences(kind: str, ref: dict, sys: dict, p: Params) -> tuple[dict, set, dict]:
    """The corresponding mention pairs of every document: (corr, is_ref_mention, cand) with
    corr {REF mention ID: {SYS mention ID: score}}, is_ref_mention the SYS mention IDs that
    correspond to some REF mention and cand {REF element ID: set of SYS element IDs}."""
    ref_by_doc = _mentions_by_doc(ref)
    sys_by_doc = _mentions_by_doc(sys)
    entity = kind == "entity"
    corr: dict = {}
    is_ref_mention: set = set()
    cand: dict = {}
    limit = p.max_pairs
    for d, refs in ref_by_doc.items():
        syss = sys_by_doc.get(d)
        if not syss:
            continue
        locs = [((m.head if entity else m.extent), sid, m) for sid, m in syss]
        if locs[0][0].kind == "image":
            if len(refs) * len(locs) > limit:
                raise too_many_pairs(d, f"{kind} mention", len(refs) * len(locs), limit)
            pairs = [(r, s) for r in refs for s in locs]
        else:
            locs.sort(key=lambda t: t[0].start)
            starts = [t[0].start for t in locs]
            maxlen = max(t[0].end - t[0].start for t in locs)
            pairs = []
            for rid, rm in refs:
                rl = rm.head if entity else rm.extent
                hi = bisect_right(starts, rl.end)
                lo = bisect_right(starts, rl.start - maxlen - 1)
                for k in range(lo, hi):
                    sl = locs[k][0]
                    if sl.end >= rl.start:
                        pairs.append(((rid, rm), locs[k]))
                if len(pairs) > limit:
                    raise too_many_pairs(d, f"{kind} mention", len(pairs), limit)
        for (rid, rm), (_sl, sid, sm) in pairs:
            score = mention_score(kind, p, rm, sm)
            if not score:
                continue
            corr.setdefault(rm.id, {})[sm.id] = score
            is_ref_mention.add(sm.id)
            cand.setdefault(rid, set()).add(sid)
    return corr, is_ref_mention, cand


def promoted_correspondences(
    corr: dict, ref: dict, sys: dict, ref_promoted: bool
) -> tuple[dict, set, dict]:
    """What :func:`correspondences` gives for entity elements ``ref`` and ``sys`` when
    ``sys`` (and, if ``ref_promoted``, ``ref``) are promoted mentions of the entities whose
    mention correspondences are ``corr`` (the entity pass's).  ``ref`` and ``sys`` may be
    any subsets of those elements.  A promoted mention has the ID of its host mention plus
    ``" mention"`` and the same score against any mention; the element of a promoted mention
    has the host mention's ID."""
    if ref_promoted:  # an element per REF mention, under the mention's ID
        rows = [(rid, rid + " mention", row) for rid, row in corr.items() if rid in ref]
    else:
        rows = [
            (rid, m.id, corr[m.id])
            for rid, g in ref.items()
            for x in g.docs.values()
            for m in x.mentions
            if m.id in corr
        ]
    out: dict = {}
    is_ref_mention: set = set()
    cand: dict = {}
    for rid, mid, row in rows:
        sids = [sid for sid in row if sid in sys]
        if not sids:
            continue
        new = out[mid] = {sid + " mention": row[sid] for sid in sids}
        is_ref_mention.update(new)
        cs = cand.get(rid)
        if cs is None:
            cand[rid] = set(sids)
        else:
            cs.update(sids)
    return out, is_ref_mention, cand
