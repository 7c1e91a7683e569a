"""Valuation of entities, values and timex2 (docs/rules/entities.md).

One :class:`ElementPass` values every REF and SYS element of one kind under one weighting
(MENTION or LEVEL): mention self scores, document self values and false-alarm values, the
corresponding mention pairs, the candidate element pairs with their per-document pair values,
mention matchings and cost components.  :func:`acescore.scoring.cohorts.map_elements`
then maps REF to SYS elements cohort by cohort with the assignment routine of docs/rules/determinism.md §3.

Every sum and product is formed in the canonical order of docs/rules/determinism.md (IDs and DOCIDs
in code-point order, mentions in file order, discount attributes by name) so that the
numbers are bit-identical to the NIST tool's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from acescore.model.bgm import bgm
from acescore.model.params import EPSILON, Params
from acescore.model.records import dataclass
from acescore.rules.database import GlobalElement
from acescore.scoring.correspondences import correspondences
from acescore.scoring.element_values import ElementValuation
from acescore.scoring.reference import RefSelfValues

EPS = EPSILON


@dataclass
class MappingValues:
    """The valuation of a pass under the mapping weighting, as the -c duplicate check
    reads it (:meth:`ElementPass.mapping_values`)."""

    sys: dict
    value: dict
    pv: dict


class ElementPass(ElementValuation):
    """One valuation pass over the entities (or values, or timex2) of both sides."""

    def __init__(
        self,
        kind: str,
        ref: dict,
        sys: dict,
        params: Params,
        level_weighting: bool,
        map_level_weighting: bool | None = None,
        corr: tuple | None = None,
        ref_values: RefSelfValues | None = None,
    ):
        """``level_weighting``: the weighting of the results (the scoring weighting).
        ``map_level_weighting``: the mapping weighting, if it may differ: then, in the same
        loops, the pass also values what the mapping needs under it (``map_pv``,
        ``map_fa_value``, ``map_value``; ``mention_map`` is then the mapping weighting's).
        ``corr``: the mention correspondences (corr, is_ref_mention, cand) if already known
        (:func:`acescore.scoring.correspondences.promoted_correspondences`).
        ``ref_values``: the REF side's self values of this valuation, kept by an earlier
        one of the same REF elements and parameters (:mod:`acescore.scoring.reference`),
        or to be kept there."""
        super().__init__(kind, params)
        self.ref = ref
        self.sys = sys
        self.lw = level_weighting and kind == "entity"
        self.mlw = (
            self.lw if map_level_weighting is None else (map_level_weighting and kind == "entity")
        )
        #: values under two weightings: the scoring one (lw) and the mapping one (mlw)
        self.twin = self.mlw != self.lw
        self.use_mentions = bool(params.use_mentions)
        if kind == "entity":
            self.fa_wgt = params.entity_fa_wgt
            self.coref_wgt = params.entity_mention_coref_fa_wgt
        elif kind == "value":
            self.fa_wgt = params.value_fa_wgt
            self.coref_wgt = params.value_mention_coref_fa_wgt
        else:
            self.fa_wgt = params.timex2_fa_wgt
            self.coref_wgt = params.timex2_mention_coref_fa_wgt
        mt = params.entity_mention_type_wgt
        self.mtw = mt
        # results
        self.sigma_r: dict = {}  # ref mention id -> self score
        self.sigma_s: dict = {}
        self.mv: dict = {}  # (side, id, docid) -> Σσ (mentions_value)
        self.ev_self: dict = {}  # (side, id, docid) -> element value against itself
        self.doc_value: dict = {}  # (side, id, docid) -> VALUE
        self.value: dict = {}  # (side, id) -> VALUE
        self.doc_fa: dict = {}  # (sys id, docid) -> FA value
        self.fa_value: dict = {}  # sys id -> FA value
        self.corr: dict = {}  # ref mention id -> {sys mention id: score}
        self.is_ref_mention: set = set()
        self.doc_mv: dict = {}  # (r, s, d) -> MV  (valued documents)
        self.doc_costs: dict = {}  # (r, s, d) -> (ATTR, MISS, ERR, FA)
        self.mention_map: dict = {}  # (r, s, d) -> {ref idx: sys idx} (mapping weighting)
        self.name_map: dict = {}  # (r, s, d) -> {ref name idx: sys name idx}
        self.pair_docs: dict = {}  # (r, s) -> {docid: value}  incl. FA docs (PV terms)
        self.pv: dict = {}  # (r, s) -> PV
        self.cand: dict = {}  # r -> set of s
        self.rcand: dict = {}  # s -> set of r
        self._fa_scores: dict = {}
        self._corr_given = corr
        self._ref_values = ref_values
        # under the mapping weighting (the same dicts as the above without twin)
        if self.twin:
            self.map_value: dict = {}  # ("SYS", id) -> VALUE (SYS elements only)
            self.map_doc_fa: dict = {}
            self.map_fa_value: dict = {}
            self.map_pair_docs: dict = {}
            self.map_pv: dict = {}
        else:
            self.map_value, self.map_doc_fa = self.value, self.doc_fa
            self.map_fa_value, self.map_pair_docs = self.fa_value, self.pair_docs
            self.map_pv = self.pv

    # ---- the pass ----------------------------------------------------------------------------
    def run(self) -> ElementPass:
        self._ref_self_values()
        self._self_values("SYS", self.sys, self.sigma_s)
        if self.use_mentions:
            if self._corr_given is not None:
                self.corr, self.is_ref_mention, self.cand = self._corr_given
            else:
                self.corr, self.is_ref_mention, self.cand = correspondences(
                    self.kind, self.ref, self.sys, self.p
                )
            self._corr_given = None
            self._value_mention_pairs(self._candidate_pairs())
        else:
            by_doc_r: dict = {}
            for rid in sorted(self.ref):
                for d in self.ref[rid].docs:
                    by_doc_r.setdefault(d, []).append(rid)
            by_doc_s: dict = {}
            for sid in sorted(self.sys):
                for d in self.sys[sid].docs:
                    by_doc_s.setdefault(d, []).append(sid)
            for d in sorted(by_doc_r):
                for rid in by_doc_r[d]:
                    for sid in by_doc_s.get(d, ()):
                        self._value_pair(rid, sid, [d])
        self._add_fa_terms(self.pair_docs, self.doc_fa, self.pv)
        if self.twin:
            self._add_fa_terms(self.map_pair_docs, self.map_doc_fa, self.map_pv)
        return self

    def _ref_self_values(self) -> None:
        """:meth:`_self_values` of the REF side, or those kept (``ref_values``): the dicts
        it fills are filled with them in the same order (nothing is in them yet)."""
        kept = self._ref_values
        filled = (self.sigma_r, self.mv, self.ev_self, self.doc_value, self.value)
        if kept is not None and kept.parts is not None:
            for mine, theirs in zip(filled, kept.parts):
                mine.update(theirs)
            return
        self._self_values("REF", self.ref, self.sigma_r)
        if kept is not None:
            kept.parts = tuple(dict(d) for d in filled)

    @property
    def argument_values(self) -> dict:
        """(r, s, d) -> what a pair is worth as an argument of a relation/event: MV."""
        return self.doc_mv

    def mapping_values(self) -> MappingValues:
        """What the -c check reads of the valuation under the mapping weighting."""
        return MappingValues(self.sys, self.map_value, self.map_pv)

    def _self_values(self, side: str, coll: dict, sigma: dict) -> None:
        """Mention self scores, document and element VALUEs (and SYS FA values) of one
        side (with twin, the SYS ones under the mapping weighting too).  A hot loop:
        attribute lookups are hoisted, and one-document elements (every element in the
        local sets) skip the DOCID sort."""
        use_m = self.use_mentions
        lw, mtw, entity = self.lw, self.mtw, self.kind == "entity"
        neg_fa_wgt = -self.fa_wgt
        mv_of, ev_of, doc_value = self.mv, self.ev_self, self.doc_value
        doc_fa, value, fa_value = self.doc_fa, self.value, self.fa_value
        element_value = self.element_value
        is_sys = side == "SYS"
        twin = self.twin and is_sys
        mlw, map_doc_fa, map_value = self.mlw, self.map_doc_fa, self.map_value
        map_fa_value = self.map_fa_value
        # entities without names: EV(x, x) by the four attributes (see element_value)
        self_ev: dict | None = {} if entity and not self.p.use_name_similarity else None
        for eid in sorted(coll):
            docs = coll[eid].docs
            total = 0.0
            fa_total = 0.0
            m_total = 0.0
            m_fa_total = 0.0
            for d in docs if len(docs) == 1 else sorted(docs):
                x = docs[d]
                key = (side, eid, d)
                if use_m:
                    mv = None
                    for m in x.mentions:
                        s = sigma[m.id] = (mtw[m.type] + EPS) if entity else 1 + EPS
                        mv = s if mv is None else mv + s
                    mv = mv or 0
                else:
                    mv = 1
                mv_of[key] = mv
                if self_ev is None:
                    ev = element_value(x, x)[0]
                else:
                    attrs = (x.type, x.cls, x.subtype, x.level)
                    known = self_ev.get(attrs)
                    if known is None:
                        ev = self_ev[attrs] = element_value(x, x)[0]
                    else:
                        ev = known
                ev_of[key] = ev
                if ev:
                    norm = mtw[x.level] / mv if lw else 1
                    v = norm * ev * mv
                    if is_sys:
                        fa = norm * ev * (mv * neg_fa_wgt)
                else:
                    v = 0.0
                    fa = 0.0
                doc_value[key] = v
                total += v
                if is_sys:
                    doc_fa[(eid, d)] = fa
                    fa_total += fa
                if twin:
                    if ev:
                        norm = mtw[x.level] / mv if mlw else 1
                        v = norm * ev * mv
                        fa = norm * ev * (mv * neg_fa_wgt)
                    m_total += v
                    map_doc_fa[(eid, d)] = fa
                    m_fa_total += fa
            value[(side, eid)] = total
            if is_sys:
                fa_value[eid] = fa_total
            if twin:
                map_value[(side, eid)] = m_total
                map_fa_value[eid] = m_fa_total

    def _candidate_pairs(self) -> list[tuple[str, str]]:
        out = []
        for r in sorted(self.cand):
            for s in sorted(self.cand[r]):
                out.append((r, s))
        return out

    def _value_mention_pairs(self, pairs: list[tuple[str, str]]) -> None:
        """:meth:`_value_pair` of every candidate pair, with mentions.  The hot loop of the
        entity and EMD passes: a pair of one-document elements with one mention each (every
        promoted mention) is valued here, inline, by the same operations in the same order
        as :meth:`_value_pair` and :meth:`_mentions_value`; any other pair goes there."""
        ref, sys, value_pair = self.ref, self.sys, self._value_pair
        lw, mlw, twin, mtw, corr = self.lw, self.mlw, self.twin, self.mtw, self.corr
        element_value = self.element_value
        # entities without names: EV by the attributes, as element_value caches it
        ev_attrs = (
            self._ev_by_attrs if self.kind == "entity" and not self.p.use_name_similarity else None
        )
        ev_self, mv_of = self.ev_self, self.mv
        sig_r, sig_s, is_ref_mention = self.sigma_r, self.sigma_s, self.is_ref_mention
        neg_fa_wgt, coref_wgt = -self.fa_wgt, self.coref_wgt
        doc_mv, doc_costs, mention_map = self.doc_mv, self.doc_costs, self.mention_map
        name_map, pv, map_pv, rcand = self.name_map, self.pv, self.map_pv, self.rcand
        zero_costs = (0.0, 0.0, 0.0, 0.0)
        for r, s in pairs:
            rg, sg = ref[r], sys[s]
            rd, sd = rg.docs, sg.docs
            if len(rd) != 1 or len(sd) != 1:
                value_pair(r, s, sorted(set(rd) | set(sd)), rg, sg)
                continue
            (d,) = rd
            y = sd.get(d)
            if y is None:  # the documents differ: nothing to value
                continue
            x = rd[d]
            rms, tms = x.mentions, y.mentions
            if len(rms) != 1 or len(tms) != 1:
                value_pair(r, s, (d,), rg, sg)
                continue
            if ev_attrs is None:
                ev, nmap = element_value(x, y)
            else:
                nmap = None
                known = ev_attrs.get(
                    (x.type, x.cls, x.subtype, x.level, y.type, y.cls, y.subtype, y.level)
                )
                ev = element_value(x, y)[0] if known is None else known
            if not ev:
                continue
            rm, tm = rms[0], tms[0]
            rkey = ("REF", r, d)
            skey = ("SYS", s, d)
            mv_r = mv_of[rkey]
            fa_norm = ev_self[skey] / ev if ev > 0 else 9e9
            if lw or mlw:
                lnorm = mtw[x.level] / mv_r
                lfa_norm = fa_norm * ((mtw[y.level] / mv_of[skey] / lnorm) if lnorm > 0 else 9e9)
            norm, sfa_norm = (lnorm, lfa_norm) if lw else (1, fa_norm)
            sc = corr.get(rm.id)
            ts = None if sc is None else sc.get(tm.id)
            key = (r, s, d)
            if ts is None:
                value = norm * ev * 0
                doc_costs[key] = zero_costs
                mention_map[key] = None
                if twin:
                    mvalue = (lnorm if mlw else 1) * ev * 0
            else:
                f = neg_fa_wgt * sig_s[tm.id]
                if tm.id in is_ref_mention:
                    f *= coref_wgt
                t = sfa_norm * f
                mval = t - (t - ts)
                ref_mv = sig_r[rm.id] or 0
                value = norm * ev * mval
                c1 = norm * (ev_self[rkey] - ev) * mv_r
                c2 = norm * ev * (mv_r - ref_mv)
                c3 = norm * ev * (ref_mv - ts)
                c4 = norm * ev * ts - value
                doc_costs[key] = (
                    c1 if c1 > 0 else 0,
                    c2 if c2 > 0 else 0,
                    c3 if c3 > 0 else 0,
                    c4 if c4 > 0 else 0,
                )
                mention_map[key] = {0: 0}
                if twin:
                    if mlw:
                        t = lfa_norm * f
                        mvalue = lnorm * ev * (t - (t - ts))
                    else:
                        t = fa_norm * f
                        mvalue = 1 * ev * (t - (t - ts))
            doc_mv[key] = value
            if nmap:
                name_map[key] = nmap
            # PV of two one-document elements: the document's value (what _add_fa_terms
            # makes of it); the pair is valued once, and ``cand`` holds it already
            pv[(r, s)] = value
            if twin:
                map_pv[(r, s)] = mvalue
            rc = rcand.get(s)
            if rc is None:
                rcand[s] = {r}
            else:
                rc.add(r)

    def _fa_scores_of(self, sid: str, d: str, x: Any) -> list:
        key = (sid, d)
        fs = self._fa_scores.get(key)
        if fs is None:
            fs = []
            for m in x.mentions:
                f = -self.fa_wgt * self.sigma_s[m.id]
                if m.id in self.is_ref_mention:
                    f *= self.coref_wgt
                fs.append(f)
            self._fa_scores[key] = fs
        return fs

    def _value_pair(
        self,
        rid: str,
        sid: str,
        docs: Iterable[str],
        rg: GlobalElement | None = None,
        sg: GlobalElement | None = None,
    ) -> None:
        if rg is None or sg is None:
            rg, sg = self.ref[rid], self.sys[sid]
        twin, mlw = self.twin, self.mlw
        for d in docs:
            y = sg.docs.get(d)
            if y is None:
                continue
            x = rg.docs.get(d)
            if x is None:
                continue
            ev, nmap = self.element_value(x, y)
            if not ev:
                continue
            key = (rid, sid, d)
            if self.use_mentions:
                mval, mmap, costs = self._mentions_value(rid, sid, d, x, y, ev, self.lw)
                if twin:
                    m_mval, mmap, _ = self._mentions_value(rid, sid, d, x, y, ev, mlw)
            else:
                mval = m_mval = 1
                mmap = None
                costs = (self.ev_self[("REF", rid, d)] - ev, 0, 0, 0)
            value = self._norm(x, rid, d, self.lw) * ev * (mval if mval is not None else 0)
            self.doc_mv[key] = value
            self.doc_costs[key] = costs
            self.mention_map[key] = mmap
            if nmap:
                self.name_map[key] = nmap
            self.pair_docs.setdefault((rid, sid), {})[d] = value
            if twin:
                self.map_pair_docs.setdefault((rid, sid), {})[d] = (
                    self._norm(x, rid, d, mlw) * ev * (m_mval if m_mval is not None else 0)
                )
            self.rcand.setdefault(sid, set()).add(rid)
            self.cand.setdefault(rid, set()).add(sid)

    def _norm(self, x: Any, rid: str, d: str, lw: bool) -> float:
        """The weighting's normalizer of a REF document element (1 under MENTION)."""
        return self.mtw[x.level] / self.mv[("REF", rid, d)] if lw else 1

    def _mentions_value(
        self, rid: str, sid: str, d: str, x: Any, y: Any, ev: float, lw: bool
    ) -> tuple:
        """The mentions value, mention map and cost components of a pair of document
        elements under one weighting (``lw``: LEVEL)."""
        ev_s = self.ev_self[("SYS", sid, d)]
        fa_norm = ev_s / ev if ev > 0 else 9e9
        norm = 1
        mv_r = self.mv[("REF", rid, d)]
        if lw:
            mv_s = self.mv[("SYS", sid, d)]
            norm = norm * (self.mtw[x.level] / mv_r)
            fa_norm *= (self.mtw[y.level] / mv_s / (self.mtw[x.level] / mv_r)) if norm > 0 else 9e9
        fa_scores = self._fa_scores_of(sid, d, y)
        corr = self.corr
        rms = x.mentions
        tms = y.mentions
        if len(rms) == 1 and len(tms) == 1:
            # one mention each (every promoted element): the matching is the one pair;
            # the same operations as below, without the cost table
            sc = corr.get(rms[0].id)
            s = None if sc is None else sc.get(tms[0].id)
            if s is None:
                return None, None, (0.0, 0.0, 0.0, 0.0)
            t = fa_norm * fa_scores[0]
            mval = t - (t - s)
            mmap = {0: 0}
            ref_mv = self.sigma_r[rms[0].id]
            tst_mv = s
        else:
            mval, mmap, ref_mv, tst_mv = self._matched_mentions(rms, tms, fa_norm, fa_scores)
            if mmap is None:
                return None, None, (0.0, 0.0, 0.0, 0.0)
        ref_mv = ref_mv or 0
        tst_mv = tst_mv or 0
        value = norm * ev * mval
        ev_r = self.ev_self[("REF", rid, d)]
        c1 = norm * (ev_r - ev) * mv_r
        c2 = norm * ev * (mv_r - ref_mv)
        c3 = norm * ev * (ref_mv - tst_mv)
        c4 = norm * ev * tst_mv - value
        return (
            mval,
            mmap,
            (c1 if c1 > 0 else 0, c2 if c2 > 0 else 0, c3 if c3 > 0 else 0, c4 if c4 > 0 else 0),
        )

    def _matched_mentions(
        self, rms: Sequence, tms: Sequence, fa_norm: float, fa_scores: list
    ) -> tuple:
        """Match the mentions of a REF and a SYS document element (docs/rules/determinism.md §3): the mentions
        value, the map {REF index: SYS index}, the summed self scores of the matched REF
        mentions and their pair scores.  The map is None when no mentions correspond."""
        corr = self.corr
        scores_of = [corr.get(rm.id) for rm in rms]  # per REF mention: {sys id: score}
        # the cost table {SYS index: {REF index: cost}}, both in index order: from each REF
        # mention's few corresponding SYS mentions, not from every pair of mentions (a SYS
        # mention ID may be there twice: a row for each)
        tpos: dict = {}
        for j, tm in enumerate(tms):
            tpos.setdefault(tm.id, []).append(j)
        rows: dict = {}
        for i, sc in enumerate(scores_of):
            if sc is None:
                continue
            for tid, s in sc.items():
                for j in tpos.get(tid, ()):
                    row = rows.get(j)
                    if row is None:
                        row = rows[j] = {}
                    row[i] = fa_norm * fa_scores[j] - s
        if not rows:
            return None, None, None, None
        costs = rows if len(rows) == 1 else {j: rows[j] for j in sorted(rows)}
        return self._matching(rms, tms, fa_norm, fa_scores, scores_of, costs)

    def _matching(
        self,
        rms: Sequence,
        tms: Sequence,
        fa_norm: float,
        fa_scores: list,
        scores_of: list,
        costs: dict,
    ) -> tuple:
        """The rest of :meth:`_matched_mentions`, from the cost table."""
        m = bgm(costs)
        mval = None
        ref_mv = None
        tst_mv = None
        mmap = {}
        sig_r = self.sigma_r
        for j in range(len(tms)):
            t = fa_norm * fa_scores[j]
            mval = t if mval is None else mval + t
            i = m.get(j)
            if i is None:
                continue
            mmap[i] = j
            mval -= costs[j][i]
            s = sig_r[rms[i].id]
            ref_mv = s if ref_mv is None else ref_mv + s
            s = scores_of[i][tms[j].id]
            tst_mv = s if tst_mv is None else tst_mv + s
        return mval, mmap, ref_mv, tst_mv

    def _add_fa_terms(self, pair_docs: dict, doc_fa: dict, pv: dict) -> None:
        """PV: valued documents in DOCID order, then the SYS-only FA terms (R12)."""
        sys = self.sys
        for (rid, sid), docs in pair_docs.items():
            sdocs = sys[sid].docs
            if len(docs) == 1 and len(sdocs) == 1:  # the local sets: one document
                for d in docs:
                    pv[(rid, sid)] = docs[d]
                continue
            total = 0.0
            first = True
            for d in sorted(docs):
                total = docs[d] if first else total + docs[d]
                first = False
            for d in sorted(sdocs):
                if d not in docs:
                    total += doc_fa[(sid, d)]
            pv[(rid, sid)] = total
