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
            if x is None or y is None:
                continue
            ev, _ = self.element_value(x, y)
            norm = self._norm07(x, "REF", rid, d, ev)
            fa_scores = self._fa_scores07(sid, d, y)
            costs: dict = {}
            tms = y.mentions
            for j, tm in enumerate(tms):
                for i, rm in enumerate(x.mentions):
                    sc = self.corr.get(rm.id)
                    s = None if sc is None else sc.get(tm.id)
                    if s is not None:
                        costs.setdefault(j, {})[i] = fa_scores[j] - norm * s
            if not costs:
                continue
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
            value = total or 0.0
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
