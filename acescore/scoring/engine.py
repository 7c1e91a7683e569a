"""The order of passes of one scoring run (docs/rules/entities.md §5.5, docs/rules/relations-events.md §1) and their results."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field, replace
from functools import partial
from typing import Any, TypeAlias

from acescore.model.params import Params
from acescore.model.records import dataclass
from acescore.model.tasks import CHAINS, Task, chain_tasks, mention_task
from acescore.rules.database import Side
from acescore.scoring import releve_passes  # relations and events
from acescore.scoring.b3 import compute_b3
from acescore.scoring.cohorts import map_elements
from acescore.scoring.correspondences import promoted_correspondences
from acescore.scoring.duplicates import duplicate_warnings
from acescore.scoring.elements import ElementPass, MappingValues
from acescore.scoring.elements_old import ElementPass05, ElementPass07
from acescore.scoring.names import name_maps
from acescore.scoring.promote import promote_elements
from acescore.scoring.reference import RefSelfValues, SharedReference
from acescore.scoring.result import ArgContext, PassResult, ReleveElements

#: what the -c duplicate check reads: a valuation, or a relation/event pass
Valuation: TypeAlias = PassResult | ElementPass | MappingValues
#: the -c check of a pass (None: no check)
Check: TypeAlias = Callable[[Valuation], None] | None
#: ``run_chain``'s factory of -c checks, by element type or pass name
CheckFactory: TypeAlias = Callable[[str], Check]


@dataclass
class Run:
    """All results of one scoring run, in report order."""

    params: Params
    ref: Side
    sys: Side
    #: the PassResults in report order, kept only with ``keep_passes`` (the CLI renders
    #: each pass as soon as it is scored and keeps none: see ``on_pass``)
    passes: list = field(default_factory=list)
    keep_passes: bool = True
    #: the elements of every relation/event pass scored so far (the ``-a``/``-e`` listings
    #: of a later pass need them: diagnostics._phantom_parts)
    releve_passes: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    args: ArgContext | None = None
    mention_args: ArgContext | None = None
    mapped_refs: dict = field(default_factory=dict)  # every REF id -> mapped SYS id (all passes)
    mentions: bool = False  # -m asked for (ace07's argument errors depend on it)
    promoted: dict[tuple[str, str], tuple[dict, dict]] = field(default_factory=dict)
    # (side, kind) -> promote_elements()
    #: the document chain's entity mention correspondences ({REF mention ID: {SYS mention
    #: ID: score}}), for the mention chains when they run after it in the same process
    #: (:func:`acescore.scoring.correspondences.promoted_correspondences`)
    entity_corr: dict | None = None
    #: called with each pass as soon as it is complete (rendering it at once lets the CLI
    #: drop the pass's data before the next one is scored: see acescore.run.parallel)
    on_pass: Callable[[PassResult], None] | None = None
    #: called where the warnings of a pass change phase: before and after each side's
    #: promotion in a mention-level relation/event pass, and with ``-c`` before each
    #: valuation's duplicate check (then with the SYS IDs checked).  Within such a pass the
    #: warnings of a phase come in ID order over the whole corpus: a document shard
    #: (acescore.run.shard_worker) notes where each phase starts, to merge the shards'
    #: warnings phase by phase.
    on_phase: Callable[..., None] | None = None
    #: the entity mention chain runs in another process (``acescore.run.parallel``): the
    #: older versions' warnings of the entity promotion are given there, where a run in one
    #: process gives them (the relation/event mention chain finds the promotion done)
    promotion_elsewhere: bool = False
    #: what runs against the same REF side keep of it for one another
    #: (:mod:`acescore.scoring.reference`; None: nothing kept)
    shared: SharedReference | None = None

    def add_pass(self, res: PassResult, check: Check = None) -> None:
        """Append a finished pass; ``check``: the -c duplicate check, if any."""
        res.nist = self.params.nist
        if self.keep_passes:
            self.passes.append(res)
        if res.kind in ("relation", "event"):
            self.releve_passes.append(ReleveElements(res.task, res.ref, res.sys))
        if check is not None:
            check(res)
        if self.on_pass is not None:
            self.on_pass(res)


def _promoted(run: Run, side: str, kind: str) -> tuple[dict, dict]:
    """The mentions of one side's entities (values, timex2) promoted to elements, once per
    run (the EMD pass and the relation/event mention preparation both need them)."""
    key = (side, kind)
    if key not in run.promoted:
        coll = (run.ref if side == "REF" else run.sys).of(kind)
        # the older versions warn about names while promoting entity mentions
        # (each side's warnings are a phase of their own, as in promote_releves)
        warnings = run.warnings if run.params.nist != "ace08" and kind == "entity" else None
        if warnings is not None and run.promotion_elsewhere and run.ref.of(kind):
            warnings = None  # (that chain promotes both sides where both have entities)
        phase = run.on_phase if warnings is not None else None
        if phase is not None:
            phase()
        if side == "REF" and run.shared is not None:  # kept for the runs against this REF
            promote = partial(promote_elements, coll, params=run.params)
            run.promoted[key] = run.shared.replayed(("promoted", kind), promote, warnings)
        else:
            run.promoted[key] = promote_elements(coll, warnings, run.params)
        if phase is not None:
            phase()
    return run.promoted[key]


def _ref_values(run: Run, task: str) -> RefSelfValues | None:
    """Where the REF self values of a pass's valuation are kept (Run.shared), or None."""
    if run.shared is None:
        return None
    return run.shared.get(("self values", task), RefSelfValues)


def _languages(
    side_name: str, side: Side, kind: str, coll: dict, origin: dict | None = None
) -> dict:
    out = {}
    for eid, g in coll.items():
        host = origin.get(eid, eid) if origin else eid
        for d in g.docs:
            out[(side_name, eid, d)] = side.language.get((kind, host, d))
    return out


def element_result(
    task: str,
    kind: str,
    ref: dict,
    sys: dict,
    params: Params,
    rside: Side,
    sside: Side,
    with_b3: bool,
    origins: tuple[dict | None, dict | None] = (None, None),
    on_valued: Check = None,
    corr: tuple | None = None,
    ref_values: RefSelfValues | None = None,
) -> tuple[PassResult, ElementPass]:
    """Value and map one kind of entity-like element; returns the PassResult and the
    (scoring) valuation for argument values.  ``on_valued(x)``, if given, is called with
    the valuation under each weighting, mapping weighting first (the -c duplicate check).
    ``corr``: the mention correspondences if known; ``ref_values``: the REF self values,
    if kept (see ElementPass)."""
    # one pass values every pair under both weightings when they differ (local_2008: the
    # mapping under MENTION, the scores under LEVEL)
    two = kind == "entity" and params.map_weighting != params.eval_weighting
    final = element_pass_class(params)(
        kind,
        ref,
        sys,
        params,
        (params.eval_weighting if two else params.map_weighting) == "LEVEL",
        params.map_weighting == "LEVEL",
        corr,
        ref_values,
    ).run()
    if on_valued is not None:
        on_valued(final.mapping_values())
    mapping = (
        map_elements(ref, sys, final.map_pv, final.map_fa_value, final.cand, final.rcand)
        if ref
        else {}
    )
    mention_map = {}
    mmaps = final.mention_map
    for r, s in mapping.items():
        for d in ref[r].docs:
            k = (r, s, d)
            mm = mmaps.get(k)
            if mm is not None:
                mention_map[k] = mm
    if two and on_valued is not None:
        on_valued(final)
    res = PassResult(task, kind, ref, sys)
    res.doc_value = final.doc_value
    res.value = final.value
    res.doc_fa = final.doc_fa
    res.fa_value = final.fa_value
    res.mapping = mapping
    res.rmapping = {s: r for r, s in mapping.items()}
    res.doc_mv = final.doc_mv
    res.doc_costs = final.doc_costs
    res.pair_value = final.pv
    res.mention_map = mention_map
    res.name_map = final.name_map
    if kind == "entity" and not params.use_name_similarity:
        res.name_map = name_maps(ref, sys, mapping, final.doc_mv, params.min_name_similarity)
    res.languages = {
        **_languages("REF", rside, kind, ref, origins[0]),
        **_languages("SYS", sside, kind, sys, origins[1]),
    }
    res.sources = {d: doc.source for d, doc in rside.documents.items()}
    res.sigma_r, res.sigma_s = final.sigma_r, final.sigma_s
    res.corr = final.corr
    if with_b3 and params.use_mentions and sys:
        res.b3 = compute_b3(final)
    return res, final


def element_pass_class(params: Params) -> type[ElementPass]:
    """The valuation of entities, values and timex2 of the version of ``params``."""
    return {"ace07": ElementPass07, "ace05": ElementPass05}.get(params.nist, ElementPass)


def _duplicate_check(run: Run, element_type: str) -> Callable[[Valuation], None]:
    """-c (docs/rules/input.md §4): a callback warning about equivalent elements of one valuation."""

    def check(x: Valuation) -> None:  # a valuation or a relation/event PassResult
        pv = x.pair_value if isinstance(x, PassResult) else x.pv
        if run.on_phase is not None:
            run.on_phase(x.sys)
        values = {i: x.value.get(("SYS", i)) for i in x.sys}
        run.warnings.extend(duplicate_warnings(element_type, x.sys, values, pv))

    return check


def run_scoring(
    ref: Side,
    sys: Side,
    params: Params,
    mentions: bool,
    warnings: list | None = None,
    check_duplicates: bool = False,
) -> Run:
    """Every pass of one run, in report order: the document-level chain (entities, values,
    timex2, relations, events), then with ``-m`` the entity mentions (EMD) and the
    relation/event mentions.  The three chains only share the element mapping of the
    entity/value/timex2 passes (``Run.mapped_refs``, needed at the end of the third), so
    :mod:`acescore.run.parallel` can run them in separate processes."""
    run = new_run(ref, sys, params, warnings)
    for chain in CHAINS:
        run_chain(run, chain, mentions, check_duplicates)
    return run


def new_run(
    ref: Side,
    sys: Side,
    params: Params,
    warnings: list | None = None,
    keep_passes: bool = True,
    shared: SharedReference | None = None,
) -> Run:
    """A run of ``ref`` against ``sys``; ``shared``: what runs against the same REF side
    keep for one another (:mod:`acescore.scoring.reference`; used if it serves this run)."""
    run = Run(params, ref, sys, keep_passes=keep_passes)
    if warnings is not None:
        run.warnings = warnings
    if shared is not None and shared.serves(ref, params):
        run.shared = shared
    return run


def run_chain(
    run: Run,
    chain: str,
    mentions: bool,
    check_duplicates: bool = False,
    wait_mapped_refs: Callable[[], dict] | None = None,
    on_mapped_refs: Callable[[dict], None] | None = None,
) -> None:
    """Run one chain of passes on ``run``, appending its PassResults to ``run.passes``.

    ``on_mapped_refs(mapped_refs)`` is called by the document chain as soon as the
    entity/value/timex2 mappings are known; ``wait_mapped_refs()``, if given, is called by
    the mention chain right before it needs them and returns them."""
    tasks = chain_tasks(chain)
    run.mentions = mentions
    if any(t.mention_level for t in tasks) and not (mentions and run.params.use_mentions):
        run.entity_corr = None  # (kept by the document chain for these chains only)
        return

    def dup(name: str) -> Check:
        return _duplicate_check(run, name) if check_duplicates else None

    CHAIN_STEPS[chain](
        run, tasks, dup, on_mapped_refs=on_mapped_refs, wait_mapped_refs=wait_mapped_refs
    )


def _document_chain(
    run: Run,
    tasks: tuple[Task, ...],
    dup: CheckFactory,
    on_mapped_refs: Callable[[dict], None] | None = None,
    **_: Any,
) -> None:
    ref, sys, params = run.ref, run.sys, run.params
    args = ArgContext()
    for t in tasks:
        if t.releve:
            continue
        kind = t.kind
        rc, sc = ref.of(kind), sys.of(kind)
        res, final = element_result(
            t.name,
            kind,
            rc,
            sc,
            params,
            ref,
            sys,
            kind == "entity",
            on_valued=dup(kind),
            ref_values=_ref_values(run, t.name),
        )
        args.add_pass(final)
        args.mapping.update(res.mapping)
        if kind == "entity" and params.use_mentions:
            run.entity_corr = final.corr
        for r in rc:
            run.mapped_refs[r] = res.mapping.get(r)
        if rc:
            res.printed = bool(sc)
            run.add_pass(res)
    run.args = args
    if on_mapped_refs is not None:
        on_mapped_refs(run.mapped_refs)

    for t in tasks:
        kind = t.kind
        if t.releve and ref.of(kind) and sys.of(kind):
            run.add_pass(
                releve_passes.score_pass(
                    kind, t.name, ref.of(kind), sys.of(kind), params, args, ref, sys, run
                ),
                dup(t.name),
            )


def _entity_mention_chain(run: Run, tasks: tuple[Task, ...], dup: CheckFactory, **_: Any) -> None:
    """EMD: every entity mention promoted to an element of its own."""
    (task,) = tasks
    rent, sent = run.ref.of("entity"), run.sys.of("entity")
    if not (rent and sent):
        return
    r_prom, r_origin = _promoted(run, "REF", "entity")
    s_prom, s_origin = _promoted(run, "SYS", "entity")
    corr = (
        promoted_correspondences(run.entity_corr, r_prom, s_prom, True)
        if run.entity_corr is not None
        else None
    )
    res = element_result(
        task.name,
        "entity",
        r_prom,
        s_prom,
        run.params,
        run.ref,
        run.sys,
        False,
        (r_origin, s_origin),
        on_valued=dup(task.name),
        corr=corr,
        ref_values=_ref_values(run, task.name),
    )[0]
    run.add_pass(res)
    run.promoted.pop(("REF", "entity"), None)  # only EMD uses the REF mentions promoted


def _mention_releve_chain(
    run: Run,
    tasks: tuple[Task, ...],
    dup: CheckFactory,
    wait_mapped_refs: Callable[[], dict] | None = None,
    **_: Any,
) -> None:
    """Relation and event mentions: the mention preparation (docs/rules/relations-events.md §10.1), then the passes."""
    ref, sys, params = run.ref, run.sys, run.params
    entity_corr, run.entity_corr = run.entity_corr, None  # (the last chain that needs them)
    has_rel = bool(ref.of("relation") and sys.of("relation"))
    has_ev = bool(ref.of("event") and sys.of("event"))
    if not (has_rel or has_ev):
        return
    s_prom, s_origin = _promoted(run, "SYS", "entity")
    margs = ArgContext()
    margs.origin.update(s_origin)
    lp = replace(params, map_weighting="LEVEL")
    emd = mention_task("entity")
    assert emd is not None, "the registry has an entity mention task"
    check = dup(emd.name)
    # the passes' values are looked up for arguments only: value the elements that can be
    # one (the -c check reports on all of them)
    keep = _argument_ids(run) if check is None else None
    rent, sent = _only(ref.of("entity"), keep), _only(s_prom, keep)
    corr = (
        promoted_correspondences(entity_corr, rent, sent, False)
        if entity_corr is not None
        else None
    )
    # (ace08 values mention-level arguments LEVEL-weighted; the older versions by -W)
    lw = params.nist == "ace08" or params.eval_weighting == "LEVEL"
    ep = element_pass_class(params)("entity", rent, sent, lp, lw, corr=corr).run()
    if check is not None:
        check(ep)
    margs.add_pass(ep)
    for kind in ("value", "timex2"):
        sp, so = _promoted(run, "SYS", kind)
        margs.origin.update(so)
        check = dup("mention_" + kind)
        ep = element_pass_class(params)(
            kind, _only(ref.of(kind), keep), _only(sp, keep), params, True
        ).run()
        if check is not None:
            check(ep)
        margs.add_pass(ep)
    del ep
    run.mention_args = margs
    if wait_mapped_refs is not None:
        run.mapped_refs = wait_mapped_refs()
    # ace08 allows wrong mappings at mention level; the older versions keep -S
    mp = replace(params, allow_wrong_mapping=1) if params.nist == "ace08" else params
    for t in tasks:
        kind = t.kind
        if ref.of(kind) and sys.of(kind):
            run.add_pass(
                releve_passes.score_mention_pass(
                    kind, t.name, ref.of(kind), sys.of(kind), mp, margs, ref, sys, run
                ),
                dup(t.name),
            )


def _argument_ids(run: Run) -> set:
    """Every ID a relation or event argument of either side can be valued under at the
    mention level: the REFIDs of element and mention arguments and the elements hosting
    those mentions on either side (promoted REF arguments are their hosts; SYS ones the
    mentions; the tool also looks SYS arguments up on the REF side)."""
    ids: set = set()
    for side in (run.ref, run.sys):
        for kind in ("relation", "event"):
            for g in side.of(kind).values():
                ids.update(a for _role, a in g.arg_pairs)
                for x in g.docs.values():
                    for m in x.mentions:
                        ids.update(a.refid for a in m.arguments)
    hosts = set()
    for side in (run.ref, run.sys):
        get = side.mentions.get
        for a in ids:
            info = get(a)
            if info is not None:
                hosts.add(info[1])
    return ids | hosts


def _only(coll: dict, keep: set | None) -> dict:
    """The elements of ``coll`` whose IDs are in ``keep`` (all of them if None)."""
    if keep is None:
        return coll
    return {eid: g for eid, g in coll.items() if eid in keep}


#: how each chain of the task registry (acescore.model.tasks.CHAINS) is scored: a step is called
#: with the run, the chain's tasks (report order), the -c check factory and the two hooks
#: of run_chain
CHAIN_STEPS = {
    "documents": _document_chain,
    "entity_mentions": _entity_mention_chain,
    "mention_releves": _mention_releve_chain,
}
assert tuple(CHAIN_STEPS) == CHAINS, "every chain of acescore.model.tasks needs a step here"
