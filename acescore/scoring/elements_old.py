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
        entity = self.kind == "entity"
        is_sys = side == "SYS"
        for eid in sorted(coll):
            docs = coll[eid].docs
            total = fa_total = 0.0
            for d in sorted(docs):
                x = docs[d]
                key = (side, eid, d)
                mv = None
                for m in x.mentions:
                    s = sigma[m.id] = (self.mtw[m.type] + EPS) if entity else 1 + EPS
                    mv = s if mv is None else mv + s
                mv = mv or 0
                self.mv[key] = mv
                ev = self.ev_self[key] = self.element_value(x, x)[0]
                norm = self._norm07(x, side, eid, d, ev) if mv else 0.0
                v = self.doc_value[key] = norm * mv
                total += v
                if is_sys:
                    fa = self.doc_fa[(eid, d)] = norm * (mv * -self.fa_wgt)
                    fa_total += fa
            self.value[(side, eid)] = total
            if is_sys:
                self.fa_value[eid] = fa_total

    def _value_mention_pairs(self, pairs: list[tuple[str, str]]) -> None:
        for r, s in pairs:
            rg, sg = self.ref[r], self.sys[s]
            self._value_pair(r, s, sorted(set(rg.docs) | set(sg.docs)), rg, sg)

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
        costs: dict = {}
        tms = y.mentions
        for j, tm in enumerate(tms):
            for i, rm in enumerate(x.mentions):
                sc = self.corr.get(rm.id)
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
            xa, ya = x.attributes(), y.attributes()
            for attr in sorted(p.timex2_attribute_wgt):
                a, b = xa.get(attr), ya.get(attr)
                if _truthy(a) and _truthy(b):
                    v += p.timex2_attribute_wgt[attr] * (1 if a == b else EPS)
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

    def _self_values(self, side: str, coll: dict, sigma: dict) -> None:
        entity = self.kind == "entity"
        is_sys = side == "SYS"
        for eid in sorted(coll):
            docs = coll[eid].docs
            total = fa_total = 0.0
            for d in sorted(docs):
                x = docs[d]
                key = (side, eid, d)
                ms = fa = None
                for m in x.mentions:
                    s = sigma[m.id] = (self.mtw[m.type] + EPS) if entity else 1 + EPS
                    ms = s if ms is None else ms + s
                    if is_sys:
                        f = self._fa_score05(m, s)
                        fa = f if fa is None else fa + f
                mv = self.mv[key] = ms or 0
                self.ev_self[key] = self._ev05(x, x, False)
                v = self.ev_self[key] * self._level05(ms, x, x, mv) if ms is not None else 0.0
                self.doc_value[key] = v
                total += v
                if is_sys:
                    f = (
                        self._ev05(x, x, True) * self._level05(fa, x, x, mv)
                        if fa is not None
                        else 0.0
                    )
                    self.doc_fa[(eid, d)] = f
                    fa_total += f
            self.value[(side, eid)] = total
            if is_sys:
                self.fa_value[eid] = fa_total

    def _value_doc(self, rid: str, sid: str, d: str, x: Any, y: Any) -> None:
        fa_scores = [self._fa_score05(m, self.sigma_s[m.id]) for m in y.mentions]
        matched = self._matched(x, y, fa_scores, 1)
        if matched is not None:
            ms = self._level05(matched[0] or 0.0, x, y, self.mv[("REF", rid, d)])
            self._record(rid, sid, d, self._ev05(x, y, False) * ms, matched[1])


def _truthy(v: Any) -> bool:
    """Perl truth of an attribute value."""
    return v is not None and v != "" and v != "0"
