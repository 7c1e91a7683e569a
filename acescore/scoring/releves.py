"""Relations and events ("releves"): valuation, argument matching and mapping (03).

Two entry points, called by :mod:`acescore.scoring.engine`:

* :func:`score_pass` -- the document-level passes (RDR and event detection, docs/rules/relations-events.md §§3-9, 11);
* :func:`score_mention_pass` -- the mention-level passes (RMD and event-mention detection,
  docs/rules/relations-events.md §10): every relation (event) mention is first promoted to an element of its own, then
  the same machinery runs with the mention-level rules.

Both return a :class:`~acescore.scoring.result.PassResult`.

Numbers must be bit-identical to the reference tool's, so every sum and product is formed
in the canonical order of docs/rules/determinism.md:

* documents in DOCID order (R18, R19, R23);
* arguments in (role, ID) order (R21), which also fixes the rows (sys arguments) and columns
  (ref arguments) of the argument assignment (R22);
* attribute discounts multiplied in attribute-name order (R20).

The float operations are performed in the same association order as the tool (e.g. the
argument cost is ``((-S) * W_FA) * RV(s) - M * RV(r, s)``, the pair value
``v4 - (W_FA * RV(s)) * F``); sums that the tool starts from "undefined" are started from
``0.0`` here, which gives the same doubles.


Promoted mention elements (mention passes)
------------------------------------------
``ref`` / ``sys`` of the PassResult hold new :class:`~acescore.rules.database.GlobalElement`
objects, one per relation (event) mention: ``id`` = the mention ID, ``kind`` = "relation" /
"event", ``attrs`` copied from the host element, ``origin`` = host element ID,
``arguments`` built from the mention's arguments (REF: host element of each argument
mention; SYS: the one-mention element, whose ID is the argument mention ID).  The single
document element is the host's document record with ``id`` = the mention ID, ``mentions`` =
the one mention (its ID with `` mention`` appended, its own argument list unchanged: original
argument mention IDs), ``arguments`` = the promoted element-level arguments and ``origin`` =
host element ID.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeAlias

from acescore.model.apf import EntityMention, EventMention, Locator, RelationMention, SimpleMention
from acescore.model.bgm import bgm
from acescore.model.params import EPSILON, Params
from acescore.model.spans import overlap
from acescore.rules.database import GlobalElement, Side
from acescore.scoring.cohorts import map_elements
from acescore.scoring.putative import putative_pairs
from acescore.scoring.reference import SharedReference
from acescore.scoring.releve_values import (
    Weights,
    pair_value_of_signatures,
    releve_value,
    signature,
)
from acescore.scoring.result import ArgContext, PassResult

EPS = EPSILON
_NONE: dict = {}  # no partners (read only)

# ---------------------------------------------------------------------------------------------
# the pass


#: :meth:`_ReleveScorer.argument_map`: the pair can have no value (C2 fails whatever is mapped)
UNVALUED: dict = {}
_ARG12 = ("Arg-1", "Arg-2")


#: a relation or event mention
ReleveMention: TypeAlias = RelationMention | EventMention


class RunState(Protocol):
    """What a relation/event pass reads and adds to of its scoring run
    (:class:`acescore.scoring.engine.Run`)."""

    warnings: list
    mapped_refs: dict
    mentions: bool
    on_phase: Callable[..., None] | None
    shared: SharedReference | None  # (acescore.scoring.reference)


class _ReleveScorer:
    def __init__(
        self,
        kind: str,
        task: str,
        ref: dict,
        sys: dict,
        params: Params,
        args: ArgContext,
        rside: Side,
        sside: Side,
        run: RunState,
        mention_level: bool,
        arg_origin: dict,
    ) -> None:
        self.kind = kind
        self.task = task
        self.ref = ref
        self.sys = sys
        self.p = params
        self.args = args
        self.rside = rside
        self.sside = sside
        self.run = run
        self.mention_level = mention_level
        self.arg_origin = arg_origin
        self.w = Weights(kind, params)
        self.sv = args.self_value  # (side, id, docid) -> SV of argument elements
        self.allow_wrong = bool(params.allow_wrong_mapping)
        self.arg_mapping = args.mapping
        # argument pair values by REF argument: ref arg -> {sys arg: {docid: MV}}
        self.arg_partners: dict = {}
        for (a, b, d), v in args.pair_value.items():
            self.arg_partners.setdefault(a, {}).setdefault(b, {})[d] = v
        self.rv_self: dict = {}  # ("REF"/"SYS", id) -> RV(x)
        # C2 (relations, docs/rules/relations-events.md §7): which SYS argument roles a valued pair needs mapped
        nreq = str(params.nargs_required)
        self.c2 = nreq if self.w.relation and nreq in ("1", "2") else None
        self.missing_heads: set = set()
        self._heads: dict[tuple[str, str], Locator | None] = {}
        self._headless_of: dict[tuple[str, str], dict | None] = {}

    # ---- self values (docs/rules/relations-events.md §5) -----------------------------------------------------------
    def _arg_sum(self, g: GlobalElement, d: str, lookup_side: str) -> float:
        total = 0.0
        sv = self.sv
        for _role, aid in g.arg_pairs:
            v = sv.get((lookup_side, aid, d))
            if v is not None:
                total += v
        return total

    def self_values(self, res: PassResult) -> None:
        w = self.w
        eval_docs = self.rside.documents
        rv_of_attrs: dict = {}  # RV(x) depends on TYPE and MODALITY only
        for side, coll in (("REF", self.ref), ("SYS", self.sys)):
            for eid in sorted(coll):
                g = coll[eid]
                attrs = g.attrs
                key = (attrs.get("TYPE"), attrs.get("MODALITY"))
                rv = rv_of_attrs.get(key)
                if rv is None:
                    rv = rv_of_attrs[key] = releve_value(w, attrs, None)
                self.rv_self[(side, eid)] = rv
                total = 0.0
                fa_total = 0.0
                for d in sorted(g.docs):
                    if d not in eval_docs:
                        continue
                    n = len(g.docs[d].mentions)
                    # ace08 looks every argument up in the REF database (SYS: [QUIRK]);
                    # the older versions in the element's own (versions.md §3.5.1)
                    s = self._arg_sum(g, d, "REF" if self.p.nist == "ace08" else side)
                    s += EPS * n
                    v = rv * s
                    res.doc_value[(side, eid, d)] = v
                    total += v
                    if side == "SYS":
                        s = self._arg_sum(g, d, "SYS")
                        s += EPS * n
                        fa = -w.fa_wgt * (rv * s)
                        res.doc_fa[(eid, d)] = fa
                        fa_total += fa
                res.value[(side, eid)] = total
                if side == "SYS":
                    res.fa_value[eid] = fa_total

    # ---- argument matching (docs/rules/relations-events.md §6) -------------------------------------------------------
    def argument_map(
        self, r: GlobalElement, s: GlobalElement, rv_rs: float, rv_s: float
    ) -> dict | None:
        ref_args = r.arg_pairs
        if not ref_args:
            return None
        tst_args = s.arg_pairs
        if not tst_args:
            return None
        w = self.w
        sys_docs = sorted(s.docs)
        sv = self.sv
        arg_partners = self.arg_partners
        arg_mapping = None if self.allow_wrong else self.arg_mapping
        costs: dict = {}
        sys_scores: dict = {}  # per SYS argument: its self values summed (DOCID order)
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
                map_score = None
                for d in sys_docs:
                    v = values.get(d)
                    if v:
                        map_score = v if map_score is None else map_score + v
                if map_score is None:
                    continue
                sys_score = sys_scores.get(tid)
                if sys_score is None:
                    sys_score = 0.0
                    for d in sys_docs:
                        x = sv.get(("SYS", tid, d))
                        if x is not None:
                            sys_score += x
                    sys_scores[tid] = sys_score
                if rrole != trole:
                    map_score *= w.role_discount(rrole)
                fa_score = -sys_score * w.fa_wgt
                costs.setdefault(j, {})[i] = fa_score * rv_s - map_score * rv_rs
        if not costs:
            return None
        if self.c2 is not None and self._c2_fails(costs, tst_args):
            return UNVALUED
        m = bgm(costs)
        out: dict = {}
        for j in range(len(tst_args)):
            mi = m.get(j)
            if mi is not None:
                out[tst_args[j]] = ref_args[mi]
        return out

    def _c2_fails(self, costs: dict, tst_args: tuple[tuple[str, str], ...]) -> bool:
        """Whether condition C2 (docs/rules/relations-events.md §7) fails for every argument mapping that the matching
        could choose: the SYS arguments that have a cost (the only ones it can map) lack
        the roles C2 asks for.  Then the pair has no value in any document."""
        return self.c2_fails_for_roles([tst_args[j][0] for j in costs])

    def c2_fails_for_roles(self, arg_roles: list) -> bool:
        """C2 (docs/rules/relations-events.md §7) fails for SYS arguments of these roles (and so for any subset)."""
        roles: dict = {}
        for r in arg_roles:
            roles[r] = roles.get(r, 0) + 1
        if self.c2 == "2":
            return not (roles.get("Arg-1") and roles.get("Arg-2")) and roles.get("Arg", 0) < 2
        return not (roles.get("Arg-1") or roles.get("Arg-2") or roles.get("Arg"))

    # ---- extent pairing (docs/rules/relations-events.md §7) ------------------------------------------------------------
    @staticmethod
    def mentions_overlap(
        ref_mentions: Sequence[ReleveMention], tst_mentions: Sequence[ReleveMention]
    ) -> tuple[float | None, dict | None]:
        costs: dict = {}
        for i, rm in enumerate(ref_mentions):
            for j, tm in enumerate(tst_mentions):
                sc = overlap(rm.extent, tm.extent)
                if sc:
                    costs.setdefault(j, {})[i] = -sc
        if not costs:
            return None, None
        m = bgm(costs)
        total = None
        mmap: dict = {}
        for j in range(len(tst_mentions)):
            mi = m.get(j)
            if mi is None:
                continue
            mmap[mi] = j
            c = costs[j][mi]
            total = -c if total is None else total - c
        return total, (mmap or None)

    def _relation_heads_ok(self, rm: ReleveMention, tm: ReleveMention) -> bool:
        """The tool's relation mention argument-head test (docs/rules/relations-events.md §10.3): it never fails; it
        aborts when an argument mention has no head.  Here: record and carry on (the
        arguments without a head of a role both mentions have)."""
        rmiss = self._headless(self.rside, rm)
        tmiss = self._headless(self.sside, tm)
        if rmiss is None and tmiss is None:  # the usual case: every head is there
            return True
        rroles = {a.role for a in rm.arguments}
        troles = {a.role for a in tm.arguments}
        for role in ("Arg", "Arg-1", "Arg-2"):
            if role in rroles and role in troles:
                for miss in (rmiss, tmiss):
                    if miss is not None:
                        self.missing_heads.update(miss.get(role, ()))
        return True

    def _headless(self, side: Side, m: ReleveMention) -> dict | None:
        """Per role (Arg, Arg-1, Arg-2), the argument mentions of relation mention ``m``
        without a head; None if there are none."""
        key = (side.name, m.id)
        if key in self._headless_of:
            return self._headless_of[key]
        out: dict | None = None
        for a in m.arguments:
            if a.role in ("Arg", "Arg-1", "Arg-2") and self._head_of(side, a.refid) is None:
                if out is None:
                    out = {}
                out.setdefault(a.role, []).append(a.refid)
        self._headless_of[key] = out
        return out

    def _head_of(self, side: Side, mid: str) -> Locator | None:
        key = (side.name, mid)
        if key not in self._heads:
            self._heads[key] = self._find_head(side, mid)
        return self._heads[key]

    @staticmethod
    def _find_head(side: Side, mid: str) -> Locator | None:
        info = side.mentions.get(mid)
        if info is None:
            return None
        kind, eid, d = info
        g = side.elements[kind].get(eid)
        if g is None or d not in g.docs:
            return None
        mentions: Sequence[EntityMention | SimpleMention] = g.docs[d].mentions
        for m in mentions:
            if m.id == mid:
                return m.head
        return None

    # ---- value of a pair in one document (docs/rules/relations-events.md §7) -------------------------------------------
    def doc_value(
        self, r: GlobalElement, s: GlobalElement, d: str, arg_map: dict | None, rv_rs: float
    ) -> tuple[float, dict | None, tuple[float, ...]] | None:
        p = self.p
        w = self.w
        doc_tst = s.docs.get(d)
        if doc_tst is None:
            return None
        doc_ref = r.docs.get(d)
        tst_mentions = doc_tst.mentions
        ref_mentions = doc_ref.mentions if doc_ref is not None else tst_mentions
        nargs_ref = len(r.arg_pairs)
        if p.argscore_required and nargs_ref and arg_map is None:
            return None  # C1
        nreq = self.c2
        if nreq is not None:
            roles: dict = {}
            for trole, _tid in arg_map or {}:
                roles[trole] = roles.get(trole, 0) + 1
            if (
                nreq == "2"
                and (not roles.get("Arg-1") or not roles.get("Arg-2"))
                and roles.get("Arg", 0) != 2
            ):
                return None  # C2
            if (
                nreq == "1"
                and not roles.get("Arg-1")
                and not roles.get("Arg-2")
                and not roles.get("Arg")
            ):
                return None
        ov, mmap = self.mentions_overlap(ref_mentions, tst_mentions)
        if arg_map is None and not ov:
            return None  # C3
        if p.mention_overlap_required and not ov:
            return None  # C4
        if self.mention_level:  # C5
            if w.relation:
                if not self._relation_heads_ok(ref_mentions[0], tst_mentions[0]):
                    return None
            elif not overlap(ref_mentions[0].extent, tst_mentions[0].extent):
                return None
        return self._doc_arithmetic(r, s, d, arg_map, rv_rs, doc_ref, ov, mmap)

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
        """The value of a pair in a document that passed the conditions (C6-C8 here)."""
        p = self.p
        w = self.w
        nargs_ref = len(r.arg_pairs)
        sv = self.sv
        args_value = 0.0
        fa_args = 0.0
        used_ref = 0.0
        nmapped = 0
        ref_present = doc_ref is not None
        for key in s.arg_pairs:
            trole, tid = key
            sv_t = sv.get(("SYS", tid, d))
            if sv_t is not None:
                fa_args += sv_t
            if not ref_present or arg_map is None:
                continue
            ra = arg_map.get(key)
            if ra is None:
                continue
            rrole, rid = ra
            values = self.arg_partners.get(rid, _NONE).get(tid)
            if values is None:
                continue
            score = values.get(d)
            if score is None:
                continue
            if not self.allow_wrong and self.arg_mapping.get(rid) != tid:
                continue
            if not score:
                continue
            sv_r = sv.get(("REF", rid, d))
            if self.mention_level and sv_r is not None:
                score = sv_r
            if rrole != trole:
                score *= w.value_role_discount(rrole, r.attrs.get("TYPE"))
            args_value += score
            nmapped += 1
            if sv_t is not None:
                fa_args -= sv_t
            if sv_r is not None:
                used_ref += sv_r
        if (p.argscore_required == "ALL" or p.all_args_required) and nmapped != nargs_ref:
            return None  # C6
        if not args_value and not ov:
            return None  # C7
        if ov:
            args_value += ov * EPS
        if not rv_rs:
            return None  # C8
        ref_args_value = 0.0
        for _role, rid in r.arg_pairs:
            x = sv.get(("REF", rid, d))
            if x is not None:
                ref_args_value += x
        rv_r = self.rv_self[("REF", r.id)]
        rv_s = self.rv_self[("SYS", s.id)]
        v1 = rv_r * ref_args_value
        v2 = rv_rs * ref_args_value
        v3 = rv_rs * used_ref
        v4 = rv_rs * args_value
        v5 = v4 - w.fa_wgt * rv_s * fa_args
        costs = (_pos(v1 - v2), _pos(v2 - v3), _pos(v3 - v4), _pos(v4 - v5))
        return v5, mmap, costs

    # ---- the whole pass ------------------------------------------------------------------
    def score(self) -> PassResult:
        ref, sys = self.ref, self.sys
        res = PassResult(self.task, self.kind, ref, sys)
        self.self_values(res)
        w = self.w

        putative = putative_pairs(self)  # (docs/rules/relations-events.md §8.1)

        all_arg_maps: dict = {}
        mention_maps: dict = {}
        pv: dict = {}
        cand: dict = {}
        rcand: dict = {}
        # RV(r, s) depends only on the attribute values: compute it once per pair of
        # attribute signatures (there are few distinct ones)
        rv_cache: dict = {}
        sys_sig = {sid: signature(w, sys[sid].attrs) for sid in sys}
        for rid in sorted(putative):
            r = ref[rid]
            rsig = signature(w, r.attrs)
            for sid in sorted(putative[rid]):
                s = sys[sid]
                key = (rsig, sys_sig[sid])
                rv_rs = rv_cache.get(key)
                if rv_rs is None:
                    rv_rs = rv_cache[key] = pair_value_of_signatures(w, rsig, sys_sig[sid])
                arg_map = self.argument_map(r, s, rv_rs, self.rv_self[("SYS", sid)])
                if arg_map is UNVALUED:  # C2 fails in every document
                    continue
                if arg_map is not None:
                    all_arg_maps[(rid, sid)] = arg_map
                total = None
                sdocs = s.docs
                for d in sdocs if len(sdocs) == 1 else sorted(sdocs):
                    out = self.doc_value(r, s, d, arg_map, rv_rs)
                    if out is None:
                        continue
                    value, mmap, costs = out
                    dkey = (rid, sid, d)
                    res.doc_mv[dkey] = value
                    res.doc_costs[dkey] = costs
                    mention_maps[dkey] = mmap
                    total = value if total is None else total + value
                if total is not None:
                    pv[(rid, sid)] = total
                    cand.setdefault(rid, set()).add(sid)
                    rcand.setdefault(sid, set()).add(rid)
        res.pair_value = pv

        # mapping (docs/rules/relations-events.md §8.2)
        mapping = map_elements(ref, sys, pv, res.fa_value, cand, rcand) if pv else {}
        res.mapping = mapping
        res.rmapping = {s: r for r, s in mapping.items()}
        for rid, sid in mapping.items():
            am = all_arg_maps.get((rid, sid))
            if am is not None:
                res.argument_map[(rid, sid)] = dict(am)
            for d in ref[rid].docs:
                if d in sys[sid].docs:
                    mm = mention_maps.get((rid, sid, d))
                    if mm:
                        res.mention_map[(rid, sid, d)] = mm

        # argument mapping errors (docs/rules/report.md §3.4)
        for rid in sorted(ref):
            sid = mapping.get(rid)
            partner = sys[sid] if sid is not None else None
            res.arg_errors[rid] = self.arg_errors(ref[rid], partner, all_arg_maps)

        res.languages = {}
        for side_name, side, coll in (("REF", self.rside, ref), ("SYS", self.sside, sys)):
            for eid, g in coll.items():
                host = g.origin if (self.mention_level and g.origin) else eid
                for d in g.docs:
                    res.languages[(side_name, eid, d)] = side.language.get((self.kind, host, d))
        res.sources = {d: doc.source for d, doc in self.rside.documents.items()}
        if self.mention_level and w.relation:
            for mid in sorted(self.missing_heads):
                self.run.warnings.append(
                    f"\nWARNING:  argument mention '{mid}' has no head; the relation"
                    " mention argument head overlap test is treated as satisfied\n"
                )
        return res

    def arg_errors(self, x: GlobalElement, partner: GlobalElement | None, arg_maps: dict) -> int:
        """The argument mapping errors of REF element ``x`` (docs/rules/report.md §3.4)."""
        return _arg_errors(x, partner, arg_maps, self.run.mapped_refs, self.arg_origin)


def _pos(x: float) -> float:
    return x if x > 0 else 0


def _arg_errors(
    x: GlobalElement,
    partner: GlobalElement | None,
    arg_maps: dict,
    mapped_refs: dict,
    arg_origin: dict,
    swap_ok: bool = False,
) -> int:
    """The tool's number of argument mapping errors of ``x`` (docs/rules/report.md §3.4);
    ``swap_ok`` (ace07, a symmetric REF type): an Arg-1/Arg-2 swap is correct."""
    n_x = len(x.arg_pairs)
    if partner is None:
        return n_x
    am = arg_maps.get((x.id, partner.id))
    if am is None:
        return n_x
    mapped = correct = 0
    for (trole, tid), (rrole, rid) in am.items():
        target = mapped_refs.get(rid)
        if not target:
            continue
        mapped += 1
        if (target == tid or arg_origin.get(tid) == target) and (
            rrole == trole or (swap_ok and trole in _ARG12)
        ):
            correct += 1
    return n_x + len(partner.arg_pairs) - mapped - correct
