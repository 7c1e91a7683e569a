"""The relation and event passes (:func:`score_pass`, :func:`score_mention_pass`), each
with its version's scorer: ace08's (:mod:`acescore.scoring.releves`) or a subclass of it
for the older versions (docs/rules/versions.md §3.5-3.6) -- ace07's is ace08's with its own
relation mention test and argument errors; ace05 has its own argument matching and pair
value."""

from __future__ import annotations

from functools import partial
from typing import Any

from acescore.model.bgm import bgm
from acescore.model.errors import AceInputError
from acescore.model.params import EPSILON, SYMMETRIC_RELATIONS, Params
from acescore.rules.database import GlobalElement, Side
from acescore.scoring.promote import promote_releves
from acescore.scoring.releve_values import signature
from acescore.scoring.releves import UNVALUED, ReleveMention, RunState, _arg_errors, _ReleveScorer
from acescore.scoring.result import ArgContext, PassResult

_ARG12 = ("Arg-1", "Arg-2")
_NONE: dict = {}


class ReleveScorer07(_ReleveScorer):
    """ace07: the relation mention test is real; argument errors need -m (the script copies
    the mappings of the argument elements only then) and accept Arg-1/Arg-2 swaps of a
    symmetric REF type."""

    def _relation_heads_ok(self, rm: ReleveMention, tm: ReleveMention) -> bool:
        """The spans from the Arg-1 to the Arg-2 argument head (smallest mention ID of each
        role; a missing one counts as offset 0, as Perl's undefined) must overlap."""
        spans = []
        for side, m in ((self.rside, rm), (self.sside, tm)):
            lo: float = 99999999999999
            hi: float = -99999999999999
            for role in _ARG12:
                ids = sorted(a.refid for a in m.arguments if a.role == role)
                head = self._head_of(side, ids[0]) if ids else None
                if head is not None and head.kind == "image":
                    raise AceInputError(
                        "FATAL ERROR in relation_mention_overlap - attempted use of image"
                        " data not accommodated"
                    )
                start, end = (head.start, head.end) if head is not None else (0, 0)
                lo = start if start < lo else lo
                hi = end if end > hi else hi
            spans.append((lo, hi))
        (rlo, rhi), (tlo, thi) = spans
        return min(rhi, thi) - max(rlo, tlo) >= 0

    def arg_errors(self, x: GlobalElement, partner: GlobalElement | None, arg_maps: dict) -> int:
        mapped_refs = self.run.mapped_refs if self.run.mentions else {}
        swap_ok = x.attrs.get("TYPE") in SYMMETRIC_RELATIONS
        return _arg_errors(x, partner, arg_maps, mapped_refs, self.arg_origin, swap_ok)


class ReleveScorer05(ReleveScorer07):
    """ace05: role-compatible argument edges, argument false alarms weighted 0 (relations)
    or 0.5 (events) with no RV factors, an Arg-1/Arg-2 swap charged on the relation's
    TYPE/SUBTYPE, and argument errors counted on the REF side only."""

    def score(self) -> PassResult:
        self._attr_values: dict = {}  # (signatures of r and s, swapped) -> _attr_value
        return super().score()

    def _arg_weights(self) -> tuple[float, float]:
        p = self.p
        if self.w.relation:
            return p.relation_argument_role_err_wgt, p.relation_argument_fa_wgt
        return p.event_argument_role_err_wgt, p.event_argument_fa_wgt

    def argument_map(
        self, r: GlobalElement, s: GlobalElement, rv_rs: float, rv_s: float
    ) -> dict | None:
        ref_args, tst_args = r.arg_pairs, s.arg_pairs
        if not ref_args or not tst_args:
            return None
        role_wgt, fa_wgt = self._arg_weights()
        relation = self.w.relation
        asym = 1.0
        if relation and r.attrs.get("TYPE") not in SYMMETRIC_RELATIONS:
            for attr in ("TYPE", "SUBTYPE"):
                if r.attrs.get(attr) == s.attrs.get(attr):
                    asym *= (1 - EPSILON) * self.p.relation_err_wgt[attr]
        sdocs = s.docs
        sys_docs = sdocs if len(sdocs) == 1 else sorted(sdocs)
        arg_mapping = None if self.allow_wrong else self.arg_mapping
        arg_partners, sv = self.arg_partners, self.sv
        sys_scores: dict = {}  # j -> the SYS argument's self values summed (DOCID order)
        costs: dict = {}
        for i, (rrole, rid) in enumerate(ref_args):
            partners = arg_partners.get(rid)
            if partners is None:
                continue
            for j, (trole, tid) in enumerate(tst_args):
                values = partners.get(tid)
                if values is None:
                    continue
                if arg_mapping is not None and arg_mapping.get(rid) != tid:
                    continue
                if relation and not (
                    trole == rrole
                    or (rrole in _ARG12 and trole in _ARG12)
                    or (rrole not in _ARG12 and trole not in _ARG12)
                ):
                    continue
                map_score = None
                for d in sys_docs:
                    v = values.get(d)
                    if v:
                        map_score = v if map_score is None else map_score + v
                if map_score is None:
                    continue
                sys_score = sys_scores.get(j)
                if sys_score is None:
                    sys_score = 0.0
                    for d in sys_docs:
                        sys_score += sv.get(("SYS", tid, d)) or 0.0
                    sys_scores[j] = sys_score
                score = map_score
                if rrole != trole:
                    score *= asym if rrole in _ARG12 else role_wgt
                score += (map_score - sys_score) * fa_wgt
                costs.setdefault(j, {})[i] = -sys_score * fa_wgt - score
        if not costs:
            return None
        if self.c2 is not None and self._c2_fails(costs, tst_args):
            return UNVALUED
        m = bgm(costs)
        return {tst_args[j]: ref_args[m[j]] for j in range(len(tst_args)) if j in m}

    def _doc_arithmetic(
        self,
        r: GlobalElement,
        s: GlobalElement,
        d: str,
        arg_map: dict | None,
        rv_rs: float,
        doc_ref: Any,
        ov: float | None,
        mmap: dict | None,
    ) -> tuple[float, dict | None, tuple[float, ...]] | None:
        role_wgt, fa_wgt = self._arg_weights()
        sv = self.sv
        tst_score = cum = ref_score = 0.0
        nmapped = 0
        swapped = False
        for key in s.arg_pairs:
            trole, tid = key
            tst_score += sv.get(("SYS", tid, d)) or 0.0
            ra = arg_map.get(key) if arg_map is not None else None
            if ra is None:
                continue
            rrole, rid = ra
            values = self.arg_partners.get(rid, _NONE).get(tid)
            map_score = values.get(d) if values is not None else None
            if map_score is None:
                continue
            if not self.allow_wrong and self.arg_mapping.get(rid) != tid:
                continue
            if not map_score:
                continue
            if self.mention_level:
                map_score = sv.get(("REF", rid, d)) or 0.0
            score = map_score
            if rrole != trole:
                if rrole in _ARG12:
                    swapped = True
                else:
                    score *= role_wgt
            cum += score
            ref_score += map_score
            nmapped += 1
        if self.p.all_args_required and nmapped != len(r.arg_pairs):
            return None
        if not cum and not ov:
            return None
        args_value = cum - (tst_score - ref_score) * (0 if self.mention_level else fa_wgt)
        if ov:
            args_value += ov * EPSILON
        w = self.w
        sigs = (signature(w, r.attrs), signature(w, s.attrs), swapped)
        value = self._attr_values.get(sigs)
        if value is None:
            value = self._attr_values[sigs] = self._attr_value(r.attrs, s.attrs, swapped)
        return value * args_value, mmap, (0.0, 0.0, 0.0, 0.0)

    def _attr_value(self, ra: dict, sa: dict, swapped: bool) -> float:
        """The attribute part of a pair's value: the smaller TYPE x MODALITY weight, times the
        error weight of each differing attribute (TYPE/SUBTYPE also when Arg-1/Arg-2 are
        swapped in an asymmetric relation); depends on the attributes' signatures only."""
        w = self.w
        a = (w.type_wgt.get(ra.get("TYPE")) or 0) * (w.modality_wgt.get(ra.get("MODALITY")) or 0)
        b = (w.type_wgt.get(sa.get("TYPE")) or 0) * (w.modality_wgt.get(sa.get("MODALITY")) or 0)
        value = b if b < a else a
        asym = ra.get("TYPE") not in SYMMETRIC_RELATIONS
        for attr, weight in w.err:
            x, y = ra.get(attr), sa.get(attr)
            ty = bool(y) and y != "0"  # Perl truth
            mismatch = ((bool(x) and x != "0") != ty) or (ty and x != y)
            if mismatch or (swapped and asym and attr in ("TYPE", "SUBTYPE")):
                value *= weight
        return value

    def arg_errors(self, x: GlobalElement, partner: GlobalElement | None, arg_maps: dict) -> int:
        """REF arguments less those whose element is mapped (element level) to the SYS
        argument: at mention level none is, so every mapped element with arguments errs."""
        n = len(x.arg_pairs)
        am = arg_maps.get((x.id, partner.id)) if partner is not None else None
        if not am or self.mention_level:
            return n
        return n - sum(1 for (_, tid), (_, rid) in am.items() if self.arg_mapping.get(rid) == tid)


def releve_scorer(params: Params) -> type[_ReleveScorer]:
    """The relation/event scorer class of the version of ``params``."""
    return {"ace07": ReleveScorer07, "ace05": ReleveScorer05}.get(params.nist, _ReleveScorer)


# ---------------------------------------------------------------------------------------------
# entry points


def score_pass(
    kind: str,
    task: str,
    ref: dict,
    sys: dict,
    params: Params,
    args: ArgContext,
    rside: Side,
    sside: Side,
    run: RunState,
) -> PassResult:
    """Document-level relation or event pass (RDR / event detection)."""
    cls = releve_scorer(params)
    return cls(kind, task, ref, sys, params, args, rside, sside, run, False, {}).score()


def score_mention_pass(
    kind: str,
    task: str,
    ref: dict,
    sys: dict,
    params: Params,
    args: ArgContext,
    rside: Side,
    sside: Side,
    run: RunState,
) -> PassResult:
    """Mention-level relation or event pass (RMD / event-mention detection)."""
    warnings = run.warnings
    phase = run.on_phase
    promoted = []
    for coll, side, is_ref in ((ref, rside, True), (sys, sside, False)):
        # each side's promotion warnings are a phase of their own (Run.on_phase)
        if phase is not None:
            phase()
        if is_ref and run.shared is not None:  # kept for the runs against this REF side
            promote = partial(promote_releves, kind, coll, side, True)
            promoted.append(run.shared.replayed(("promoted releves", kind), promote, warnings))
        else:
            promoted.append(promote_releves(kind, coll, side, is_ref, warnings))
        if phase is not None:
            phase()
    rp, sp = promoted
    cls = releve_scorer(params)
    return cls(kind, task, rp, sp, params, args, rside, sside, run, True, args.origin).score()
