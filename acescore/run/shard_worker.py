"""What a forked worker does with one shard of a corpus (:mod:`acescore.run.shards`): read
its files, build its two sides, score every pass and send back the report sections as data
(:mod:`acescore.report.counts.sections`), the warnings in their phases, the IDs the parent checks
for overlaps between shards, and the per-document records some outputs need."""

from __future__ import annotations

import gc
import os
from array import array
from collections.abc import Callable
from typing import Protocol

from acescore.model.memory import SCIPY_HEADROOM, load_native
from acescore.model.options import Options
from acescore.model.params import Params
from acescore.model.tasks import KINDS
from acescore.report.counts.sections import SectionData, section_data
from acescore.report.counts.tables import PassTables
from acescore.report.outputs import ReportContext
from acescore.report.results import Results
from acescore.rules.corpus import corpus_problems, first_problem
from acescore.rules.coverage import coverage
from acescore.rules.database import Side, add_files, check_docs, finish
from acescore.rules.strict import StrictChecks
from acescore.run.assemble import ScoredPass, ShardResult
from acescore.run.inputs import read_shard
from acescore.run.parallel import score_chains
from acescore.run.products import NONE, Products
from acescore.scoring.engine import Run, new_run
from acescore.scoring.reference import SharedReference
from acescore.scoring.result import PassResult
from acescore.writing.spool import Spool, SpoolWriter


class ShardExtra(Protocol):
    """What the HTML view (:class:`acescore.view.shards.ViewShard`) does in each document
    shard besides the report (see :func:`acescore.run.shards.run_shards`)."""

    def start(self, plans: list) -> bool: ...

    def section(self, res: PassResult, params: Params, all_sources: list) -> SectionData: ...

    def finish(self, rside: Side, sside: Side) -> object: ...

    def merge(self, results: Results, finished: list) -> bool: ...


def _ids(side: Side) -> tuple[array[int], list]:
    """(hashes of every element and mention ID of a side, as 64-bit integers; argument IDs
    it does not define).  Hashes are those of this process tree (forked: one hash seed)."""
    defined = set(side.mentions)
    for kind in KINDS:
        defined.update(side.elements[kind])
    outside = {
        a
        for kind in ("relation", "event")
        for g in side.elements[kind].values()
        for ids in g.arguments.values()
        for a in ids
    } - defined
    return array("q", map(hash, defined)), sorted(outside)


def preload(options: Options) -> None:
    """In the parent, before the workers are forked, import what a shard's worker imports
    on demand only: with more shards than processes each new worker would import it again
    (scipy, for the JSON's literature metrics, takes 0.3 s; :mod:`acescore.metrics.matching`
    imports it where it is used, so that runs without those metrics never pay for it)."""
    if options.literature:
        load_native("scipy.optimize", SCIPY_HEADROOM)


def score_shard(
    rpaths: list,
    spaths: list,
    options: Options,
    extra: ShardExtra | None = None,
    spool: Spool | None = None,
    products: Products = NONE,
) -> ShardResult:
    """In a worker: read, build and score one shard; its sections as data (``extra``: see
    :func:`acescore.run.shards.run_shards`; ``spool``: an :class:`acescore.writing.spool.Spool`
    for the listings' text; ``products``: the code of the optional products,
    :mod:`acescore.run.products`).  Each pass's warnings are noted phase by phase
    (:func:`_phase_hook`), to be merged with the other shards'."""
    gc.disable()
    rfiles, sfiles, found, skips, rside, sside, warnings, marks = _built_sides(
        rpaths, spaths, options
    )
    shard, _ = score_sides(
        rside,
        sside,
        rfiles + sfiles,
        options,
        warnings,
        marks,
        extra=extra,
        spool=spool,
        phased=True,
        products=products,
    )
    shard.found, shard.skips = found, skips
    return shard


def score_sides(
    rside: Side,
    sside: Side,
    files: list,
    options: Options,
    warnings: list,
    marks: list,
    *,
    extra: ShardExtra | None = None,
    spool: Spool | None = None,
    phased: bool = False,
    keep_passes: bool = False,
    processes: int = 1,
    report: bool = True,
    products: Products = NONE,
    ref_ids: tuple | None = None,
    shared: SharedReference | None = None,
) -> tuple[ShardResult, Run]:
    """Score the two sides built (``files``: the APF files read; ``warnings``: the
    warnings so far, ``marks`` where each building step's end) into a
    :class:`ShardResult`: ``(the ShardResult, the scoring run)``.  Every pass is turned
    into its section's records as soon as it is scored (:func:`pass_section`).
    ``phased`` (a document shard): note where each pass's warnings change phase;
    ``keep_passes``: the run keeps its PassResults (``report`` False: and no section is
    made of them -- ``acescore compare`` reads the passes); ``processes``: score the independent
    chains of passes in that many processes (:func:`acescore.run.parallel.score_chains`;
    the whole corpus in one process only: the passes' warning marks are then those of
    the process that scored them); ``ref_ids``: :func:`_ids` of ``rside`` if known, and
    ``shared`` what the scoring keeps of it (:mod:`acescore.scoring.reference`): a
    reference scored against several systems."""
    params = options.parameter_set
    sources = {s for f in files for s in f.sources}
    all_sources = sorted(sources)
    run = new_run(rside, sside, params, warnings, keep_passes=keep_passes, shared=shared)
    bounds: list = []
    writer = spool.writer() if spool is not None else None
    ctx = ReportContext(run, params, options, "", all_sources)
    entity_b3 = []  # the entity pass's B-cubed data (the JSON's bcub_nist)

    def per_pass(res: PassResult) -> ScoredPass:
        if res.task == "entity" and res.b3 is not None and options.literature:
            entity_b3.append(res.b3)
        data = pass_section(ctx, res, extra, writer, products) if report else None
        scored = ScoredPass(res.task, data, len(run.warnings), list(bounds))
        bounds.clear()
        return scored

    if phased:
        run.on_phase = _phase_hook(warnings, bounds, options)
    try:
        passes = score_chains(ctx, processes, per_pass)
    finally:
        run.on_phase = None
    cov = coverage(rside, sside)
    more = extra.finish(rside, sside) if extra is not None else None
    use_lit = options.literature_metrics
    literature, listings = products.literature, products.listings
    return ShardResult(
        docs=(list(rside.documents), list(sside.all_documents)),
        ids=(ref_ids or _ids(rside), _ids(sside)) if phased else ((array("q"), []),) * 2,
        counts={(side.name, k): len(side.of(k)) for side in (rside, sside) for k in KINDS},
        sources=sources,
        n_docs=(len(rside.documents), len(sside.all_documents)),
        dtds={os.path.basename(f.doctype) if f.doctype else "none" for f in files},
        coverage=(cov.ref, cov.scored, cov.sys, cov.sys_without_ref),
        marks=marks,
        warnings=warnings,
        passes=passes,
        documents=(
            listings.document_records(rside, sside)
            if options.summary and listings is not None
            else None
        ),
        literature=(
            literature.literature_records(rside, sside, params, entity_b3[0] if entity_b3 else None)
            if use_lit and literature is not None
            else None
        ),
        extra=more,
    ), run


def pass_section(
    ctx: ReportContext,
    res: PassResult,
    extra: ShardExtra | None = None,
    writer: SpoolWriter | None = None,
    products: Products = NONE,
) -> SectionData:
    """One pass scored, as its section's records (:mod:`acescore.report.counts.sections`)
    with its listings' records (``writer``: the spool's, or None: kept in memory);
    ``extra``: the view's (:mod:`acescore.view.shards`) in place of
    :func:`~acescore.report.counts.sections.section_data`; ``products``: the listings'
    code, if the run prints listings (:mod:`acescore.run.products`)."""
    listings = products.listings
    if extra is not None:
        data = extra.section(res, ctx.params, ctx.all_sources)
        tables = None
    else:
        tables = PassTables(res)
        data = section_data(res, ctx.params, ctx.all_sources, True, tables)
    if listings is not None:
        data.listings = listings.spooled(listings.pass_records(ctx, res, tables), writer)
    return data


def _built_sides(rpaths: list, spaths: list, options: Options) -> tuple:
    """A shard's files read and its two sides built: ``(rfiles, sfiles, found, skips,
    rside, sside, warnings, marks)``, ``marks`` the number of warnings after each step.  A
    strict run's first problem is raised (the run is then scored in one process, which
    says so)."""
    params = options.parameter_set
    rfiles, sfiles, found, skips = read_shard(rpaths, spaths, options)
    warnings: list = []
    marks: list = []
    rside = _ref_side(rfiles, params, warnings, marks)
    sside = _sys_side(rside, sfiles, params, warnings, marks)
    problem = None if skips is not None else first_problem(corpus_problems(rfiles, sfiles))
    if problem is not None:
        raise problem.error()
    return rfiles, sfiles, found, skips, rside, sside, warnings, marks


def _ref_side(rfiles: list, params: Params, warnings: list, marks: list) -> Side:
    """A shard's REF side built, ``marks`` noting the warnings after each step."""
    rside = Side("REF")
    add_files(rside, rfiles, params, warnings)
    marks.append(len(warnings))
    finish(rside, params, warnings)
    marks.append(len(warnings))
    return rside


def _sys_side(rside: Side, sfiles: list, params: Params, warnings: list, marks: list) -> Side:
    """A shard's SYS side built against its REF side ``rside`` (not changed: it can serve
    several systems), ``marks`` noting the warnings after each step."""
    sside = Side("SYS")
    steps: list[Callable[[], None]] = [
        lambda: add_files(sside, sfiles, params, warnings, rside.documents),
        lambda: finish(sside, params, warnings),
        lambda: check_docs(rside, sside, warnings),
    ]
    for step in steps:
        step()
        marks.append(len(warnings))
    return sside


def score_systems_shard(
    rpaths: list, systems: list, options: Options, each: Callable[[ShardResult, Run], object]
) -> list:
    """In a worker: one document shard of several systems (``acescore compare``): its REF
    files read, checked and built once, each system's SYS files (``systems``: one list of
    paths a system) read, built against it and scored as :func:`score_shard` scores a shard
    (strict, every pass kept, no report made of them: ``each(shard, run)`` reads them;
    what the scoring computes of the REF side alone is computed once,
    :mod:`acescore.scoring.reference`); ``[each(...) of every system]``.  The first broken
    input rule is raised."""
    gc.disable()
    params = options.parameter_set
    rfiles = read_shard(rpaths, [], options)[0]
    warnings: list = []
    marks: list = []
    rside = _ref_side(rfiles, params, warnings, marks)
    checks = StrictChecks(rfiles)
    ref_ids = _ids(rside)
    shared = SharedReference(rside, params)
    out = []
    for spaths in systems:
        sfiles = read_shard([], spaths, options)[1]
        problem = checks.first_problem(sfiles)
        if problem is not None:
            raise problem.error()
        w, m = list(warnings), list(marks)
        sside = _sys_side(rside, sfiles, params, w, m)
        shard, run = score_sides(
            rside,
            sside,
            rfiles + sfiles,
            options,
            w,
            m,
            phased=True,
            keep_passes=True,
            report=False,
            ref_ids=ref_ids,
            shared=shared,
        )
        out.append(each(shard, run))
        del shard, run, sside
    return out


def _phase_hook(warnings: list, bounds: list, options: Options) -> Callable[..., None]:
    """The run's ``on_phase`` (:attr:`acescore.scoring.engine.Run.on_phase`): note in
    ``bounds`` where a pass's warnings change phase.  Within a mention-level relation/event
    pass the warnings come in phases (REF promotion, SYS promotion, the rest), each in ID
    order over the whole corpus; with -c each valuation's warnings are a phase of their own
    (the tool stops at an ID "" or "0": such a corpus goes in one process)."""

    def on_phase(ids: dict | None = None) -> None:
        if ids is not None and options.check_duplicates and ("" in ids or "0" in ids):
            raise ValueError("an element ID '' or '0'")
        bounds.append(len(warnings))

    return on_phase
