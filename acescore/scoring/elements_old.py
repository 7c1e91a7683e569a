"""The valuation of entities, values and timex2 by ace07-eval-v01 (docs/rules/versions.md
§3.3): 08's LEVEL/MENTION formulas, computed in the older script's order of operations
(norm = EV / Σσ × W(LEVEL), FA scores per SYS mention, costs scaled by norm), one pass, and
pair values summed over the documents where the pair has corresponding mentions only (no FA
terms for SYS-only documents).  The numbers equal 08's but for the last bits, which reach
the report where a printed figure sits on a rounding boundary."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from acescore.model.bgm import bgm
from acescore.rules.database import GlobalElement
from acescore.scoring.correspondences import correspondences
from acescore.scoring.elements import EPS, ElementPass


def _entity_key(x: Any) -> tuple:
    return (x.type, x.cls, x.subtype, x.level)


def _value_key(x: Any) -> tuple:
    return (x.type, x.subtype)


def _timex2_key(x: Any) -> tuple:
    return x.attrs  # type: ignore[no-any-return]


#: the attributes of an element that EV(x, x) depends on (without names), by kind
_SELF_KEY = {"entity": _entity_key, "value": _value_key, "timex2": _timex2_key}


class ElementPass07(ElementPass):
    """:class:`ElementPass` with ace07's arithmetic (one weighting: no twin)."""

    @property
    def argument_values(self) -> dict:
        """-V (docs/rules/versions.md §3.5.3): what an entity pair is worth as an argument:
        ``both`` MV; ``attributes`` EV × W(LEVEL) (0 under MENTION weighting);
        ``mentions`` EV(r, r) × MV / EV; ``none`` the REF VALUE."""
        how = dict(self.p.option_words).get("arg_valuation", "both").lower()
        if self.kind != "entity" or how == "both":
            return self.doc_mv
        out = {}
        for (r, s, d), mv in self.doc_mv.items():
            x, y = self.ref[r].docs[d], self.sys[s].docs[d]
            ev = self.element_value(x, y)[0]
            if how == "attributes":
                out[(r, s, d)] = ev * self.mtw[x.level] if self.lw else 0
            elif how == "mentions":
                out[(r, s, d)] = self.ev_self[("REF", r, d)] * mv / ev
            else:
                out[(r, s, d)] = self.doc_value[("REF", r, d)]
        return out

    def _norm07(self, x: Any, side: str, eid: str, d: str, ev: float) -> float:
        """ace07's normalizer of a document element: EV, / Σσ × W(LEVEL) when LEVEL-weighted."""
        norm = ev
        if self.lw:
            norm /= self.mv[(side, eid, d)]
            norm *= self.mtw[x.level]
        return norm

    def _self_values(self, side: str, coll: dict, sigma: dict) -> None:
        """Mention self scores, document and element VALUEs (SYS: FA values) of one side; a
        hot loop: lookups hoisted, one-document elements skip the DOCID sort."""
        entity = self.kind == "entity"
        is_sys = side == "SYS"
        lw, mtw, neg_fa_wgt = self.lw, self.mtw, -self.fa_wgt
        mv_of, ev_of, doc_value, doc_fa = self.mv, self.ev_self, self.doc_value, self.doc_fa
        element_value = self.element_value
        # EV(x, x) by the attributes it depends on (as element_value caches it; entities
        # with names: not cached)
        self_ev: dict | None = {} if not (entity and self.p.use_name_similarity) else None
        self_key = _SELF_KEY[self.kind]
        for eid in sorted(coll):
            docs = coll[eid].docs
            total = fa_total = 0.0
            for d in docs if len(docs) == 1 else sorted(docs):
                x = docs[d]
                key = (side, eid, d)
                mv = None
                for m in x.mentions:
                    s = sigma[m.id] = (mtw[m.type] + EPS) if entity else 1 + EPS
                    mv = s if mv is None else mv + s
                mv = mv or 0
                mv_of[key] = mv
                known = None if self_ev is None else self_ev.get(self_key(x))
                if known is None:
                    known = element_value(x, x)[0]
                    if self_ev is not None:
                        self_ev[self_key(x)] = known
                ev = ev_of[key] = known
                if mv:  # _norm07
                    norm = ev
                    if lw:
                        norm /= mv
                        norm *= mtw[x.level]
                else:
                    norm = 0.0
                v = doc_value[key] = norm * mv
                total += v
                if is_sys:
                    fa = doc_fa[(eid, d)] = norm * (mv * neg_fa_wgt)
                    fa_total += fa
            self.value[(side, eid)] = total
            if is_sys:
                self.fa_value[eid] = fa_total

    def _value_mention_pairs(self, pairs: list[tuple[str, str]]) -> None:
        """:meth:`_value_pair` of every candidate pair; the hot loop: a pair of one-document
        elements with one mention each (every promoted mention) is valued here, inline, by
        the operations of :meth:`_value_doc` in its order (:meth:`_one_value`); any other
        pair goes there."""
        ref, sys, value_doc, one_value = self.ref, self.sys, self._value_doc, self._one_value
        corr = self.corr
        doc_mv, doc_costs, mention_map = self.doc_mv, self.doc_costs, self.mention_map
        pair_docs, rcand, cand = self.pair_docs, self.rcand, self.cand
        zero_costs = (0.0, 0.0, 0.0, 0.0)
        for r, s in pairs:
            rg, sg = ref[r], sys[s]
            rd, sd = rg.docs, sg.docs
            if len(rd) != 1 or len(sd) != 1:
                self._value_pair(r, s, sorted(set(rd) | set(sd)), rg, sg)
                continue
            ((d, x),) = rd.items()
            y = sd.get(d)
            if y is None:  # the documents differ: nothing to value
                continue
            rms, tms = x.mentions, y.mentions
            if len(rms) != 1 or len(tms) != 1:
                value_doc(r, s, d, x, y)
                continue
            tid = tms[0].id
            sc = corr.get(rms[0].id)
            ts = None if sc is None else sc.get(tid)
            if ts is None:  # _matched: no corresponding mentions
                continue
            value = one_value(r, s, d, x, y, tid, ts)
            key = (r, s, d)  # _record
            doc_mv[key] = value
            doc_costs[key] = zero_costs
            mention_map[key] = {0: 0}
            pair_docs.setdefault((r, s), {})[d] = value
            rc = rcand.get(s)
            if rc is None:
                rcand[s] = {r}
            else:
                rc.add(r)
            cand.setdefault(r, set()).add(s)

    def _one_value(self, r: str, s: str, d: str, x: Any, y: Any, tid: str, ts: float) -> float:
        """:meth:`_value_doc`'s value of two document elements of one mention each, whose
        mentions correspond with score ``ts`` (``tid``: the SYS mention's ID)."""
        norm = self.element_value(x, y)[0]  # _norm07 of the pair
        fa_norm = self.ev_self[("SYS", s, d)]  # _norm07 of the SYS element
        if self.lw:
            mv_of, mtw = self.mv, self.mtw
            norm /= mv_of[("REF", r, d)]
            norm *= mtw[x.level]
            fa_norm /= mv_of[("SYS", s, d)]
            fa_norm *= mtw[y.level]
        f = -self.fa_wgt * fa_norm * self.sigma_s[tid]  # _fa_scores07
        if tid in self.is_ref_mention:
            f *= self.coref_wgt
        return f - (f - norm * ts) or 0.0  # _matched with one pair

    def _fa_scores07(self, sid: str, d: str, y: Any) -> list:
        """The FA score of each SYS mention of a document element (cached)."""
        key = (sid, d)
        fs = self._fa_scores.get(key)
        if fs is None:
            fa_norm = self._norm07(y, "SYS", sid, d, self.ev_self[("SYS", sid, d)])
            fs = []
            for m in y.mentions:
                f = -self.fa_wgt * fa_norm * self.sigma_s[m.id]
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
        for d in docs:
            x, y = rg.docs.get(d), sg.docs.get(d)
            if x is not None and y is not None:
                self._value_doc(rid, sid, d, x, y)

    def _value_doc(self, rid: str, sid: str, d: str, x: Any, y: Any) -> None:
        """Value the pair in document ``d`` (``x``, ``y``: its document elements)."""
        ev, _ = self.element_value(x, y)
        norm = self._norm07(x, "REF", rid, d, ev)
        matched = self._matched(x, y, self._fa_scores07(sid, d, y), norm)
        if matched is not None:
            self._record(rid, sid, d, matched[0] or 0.0, matched[1])

    def _matched(self, x: Any, y: Any, fa_scores: list, scale: float) -> tuple | None:
        """The mentions score and map of a pair of document elements: costs
        ``fa_j - scale × MMV(i, j)`` matched by the assignment routine, the score summed in
        SYS mention order (None without corresponding mentions)."""
        tms = y.mentions
        rms = x.mentions
        corr = self.corr
        if len(tms) == 1 and len(rms) == 1:  # one mention each: the one pair is matched
            sc = corr.get(rms[0].id)
            s = None if sc is None else sc.get(tms[0].id)
            if s is None:
                return None
            total = fa_scores[0]
            return total - (total - scale * s), {0: 0}
        costs: dict = {}
        for j, tm in enumerate(tms):
            for i, rm in enumerate(rms):
                sc = corr.get(rm.id)
                s = None if sc is None else sc.get(tm.id)
                if s is not None:
                    costs.setdefault(j, {})[i] = fa_scores[j] - scale * s
        if not costs:
            return None
        m = bgm(costs)
        total = None
        mmap = {}
        for j in range(len(tms)):
            total = fa_scores[j] if total is None else total + fa_scores[j]
            k = m.get(j)
            if k is None:
                continue
            mmap[k] = j
            total -= costs[j][k]
        return total, mmap

    def _record(self, rid: str, sid: str, d: str, value: float, mmap: dict) -> None:
        key = (rid, sid, d)
        self.doc_mv[key] = value
        self.doc_costs[key] = (0.0, 0.0, 0.0, 0.0)
        self.mention_map[key] = mmap
        self.pair_docs.setdefault((rid, sid), {})[d] = value
        self.rcand.setdefault(sid, set()).add(rid)
        self.cand.setdefault(rid, set()).add(sid)

    def _add_fa_terms(self, pair_docs: dict, doc_fa: dict, pv: dict) -> None:
        """PV: the valued documents only, in DOCID order."""
        for (rid, sid), docs in pair_docs.items():
            if len(docs) == 1:  # the local sets: one document
                for d in docs:
                    pv[(rid, sid)] = docs[d]
                continue
            total = None
            for d in sorted(docs):
                total = docs[d] if total is None else total + docs[d]
            pv[(rid, sid)] = total


class ElementPass05(ElementPass07):
    """The valuation of ace05-eval-v14 (docs/rules/versions.md §3.2-3.3): element values
    without the leading ε (``max(ε, ...)``), false alarms weighted 0.75 twice, SYS mentions
    that correspond to any REF mention free, LEVEL weighting by the smaller of the two
    elements' levels over the REF document's Σσ."""

    def run(self) -> ElementPass:
        # the FA values need to know which SYS mentions correspond to a REF mention
        if self._corr_given is not None:
            self.corr, self.is_ref_mention, self.cand = self._corr_given
        else:
            self.corr, self.is_ref_mention, self.cand = correspondences(
                self.kind, self.ref, self.sys, self.p
            )
        self._corr_given = None
        self._ev05_cache: dict = {}  # (fa, attributes of x and y) -> _ev05
        self._self_values("REF", self.ref, self.sigma_r)
        self._self_values("SYS", self.sys, self.sigma_s)
        self._value_mention_pairs(self._candidate_pairs())
        self._add_fa_terms(self.pair_docs, self.doc_fa, self.pv)
        return self

    def _ev05(self, x: Any, y: Any, fa: bool) -> float:
        """EV of ace05: the attribute weights, × 0.75 for a false alarm, at least ε, then the
        discount of every differing attribute (attribute-name order)."""
        p = self.p
        if self.kind == "timex2":
            v = 0.0
            xa = x.attributes()
            ya = xa if y is x else y.attributes()
            for attr, w in self._discounts:  # the timex2 attribute weights by name
                a, b = xa.get(attr), ya.get(attr)
                if a and a != "0" and b and b != "0":  # both true in Perl
                    v += w * (1 if a == b else EPS)
            if fa:
                v *= self.fa_wgt
            return v if v > EPS else EPS
        if self.kind == "entity":
            wt, wc = p.entity_type_wgt, p.entity_class_wgt
            a = (wt.get(x.type) or 0) * (wc.get(x.cls) or 0)
            b = (wt.get(y.type) or 0) * (wc.get(y.cls) or 0)
        else:
            a, b = p.value_type_wgt.get(x.type) or 0, p.value_type_wgt.get(y.type) or 0
        v = b if b < a else a
        if fa:
            v *= self.fa_wgt
        v = v if v > EPS else EPS
        return self._discounted(v, x, y)

    def _fa_score05(self, m: Any, sigma: float) -> float:
        f = -sigma * self.fa_wgt
        if m.id in self.is_ref_mention:
            f *= self.coref_wgt
        return f

    def _level05(self, ms: float, x: Any, y: Any, mv: float) -> float:
        """LEVEL weighting: the smaller level weight, times the mentions score over Σσ."""
        if not self.lw:
            return ms
        a: float = self.mtw[x.level]
        b: float = self.mtw[y.level]
        return (b if b < a else a) * (ms / mv)

    def _ev05_of(self, x: Any, y: Any, fa: bool) -> float:
        """:meth:`_ev05`, cached by the attributes it reads."""
        self_key = _SELF_KEY[self.kind]
        key = (fa, self_key(x), self_key(y))
        cache = self._ev05_cache
        v = cache.get(key)
        if v is None:
            v = cache[key] = self._ev05(x, y, fa)
        return v

    def _self_values(self, side: str, coll: dict, sigma: dict) -> None:
        """Mention self scores, document and element VALUEs (SYS: FA values) of one side; a
        hot loop: lookups hoisted, EV cached, one-document elements skip the DOCID sort."""
        entity = self.kind == "entity"
        is_sys = side == "SYS"
        lw, mtw, fa_wgt, coref_wgt = self.lw, self.mtw, self.fa_wgt, self.coref_wgt
        is_ref_mention = self.is_ref_mention
        mv_of, ev_of, doc_value, doc_fa = self.mv, self.ev_self, self.doc_value, self.doc_fa
        self_key = _SELF_KEY[self.kind]
        self_ev: dict = {}  # the attributes _ev05 reads -> (EV(x, x), its FA EV)
        for eid in sorted(coll):
            docs = coll[eid].docs
            total = fa_total = 0.0
            for d in docs if len(docs) == 1 else sorted(docs):
                x = docs[d]
                key = (side, eid, d)
                ms = fa = None
                for m in x.mentions:
                    s = sigma[m.id] = (mtw[m.type] + EPS) if entity else 1 + EPS
                    ms = s if ms is None else ms + s
                    if is_sys:  # _fa_score05
                        f = -s * fa_wgt
                        if m.id in is_ref_mention:
                            f *= coref_wgt
                        fa = f if fa is None else fa + f
                mv = mv_of[key] = ms or 0
                ak = self_key(x)
                evs = self_ev.get(ak)
                if evs is None:
                    evs = self_ev[ak] = (self._ev05(x, x, False), self._ev05(x, x, True))
                ev = ev_of[key] = evs[0]
                if ms is None:
                    v = 0.0
                elif lw:  # _level05 of x with itself
                    v = ev * (mtw[x.level] * (ms / mv))
                else:
                    v = ev * ms
                doc_value[key] = v
                total += v
                if is_sys:
                    if fa is None:
                        f = 0.0
                    elif lw:
                        f = evs[1] * (mtw[x.level] * (fa / mv))
                    else:
                        f = evs[1] * fa
                    doc_fa[(eid, d)] = f
                    fa_total += f
            self.value[(side, eid)] = total
            if is_sys:
                self.fa_value[eid] = fa_total

    def _one_value(self, r: str, s: str, d: str, x: Any, y: Any, tid: str, ts: float) -> float:
        f = -self.sigma_s[tid] * self.fa_wgt  # _fa_score05
        if tid in self.is_ref_mention:
            f *= self.coref_wgt
        ms = f - (f - ts) or 0.0  # _matched with one pair (scale 1)
        if self.lw:  # _level05
            a = self.mtw[x.level]
            b = self.mtw[y.level]
            ms = (b if b < a else a) * (ms / self.mv[("REF", r, d)])
        return self._ev05_of(x, y, False) * ms

    def _value_doc(self, rid: str, sid: str, d: str, x: Any, y: Any) -> None:
        fa_scores = [self._fa_score05(m, self.sigma_s[m.id]) for m in y.mentions]
        matched = self._matched(x, y, fa_scores, 1)
        if matched is not None:
            ms = self._level05(matched[0] or 0.0, x, y, self.mv[("REF", rid, d)])
            self._record(rid, sid, d, self._ev05_of(x, y, False) * ms, matched[1])
