"""What a forked worker does with one shard of a corpus (:mod:`acescore.run.shards`): read
its files, build its two sides, score every pass and send back the report sections as data
(:mod:`acescore.report.counts.sections`), the warnings in their phases, the IDs the parent checks
for overlaps between shards, and the per-document records some outputs need."""
from __future__ import annotations

import os

import numpy as np

from acescore.rules.database import Side, add_files, check_docs, finish
from acescore.model.tasks import CHAINS, KINDS


def _ids(side: Side) -> tuple[np.ndarray, list]:
    """(hashes of every element and mention ID of a side, sorted; argument IDs it does
    not define).  Hashes are those of this process tree (forked: one hash seed)."""
    defined = set(side.mentions)
    for kind in KINDS:
        defined.update(side.elements[kind])
    outside = {a for kind in ("relation", "event") for g in side.elements[kind].values()
               for ids in g.arguments.values() for a in ids} - defined
    hashes = np.fromiter(map(hash, defined), dtype=np.int64, count=len(defined))
    hashes.sort()           # here, in the worker: the parent merges sorted runs
    return hashes, sorted(outside)


def preload(options) -> None:
    """In the parent, import what every shard's worker imports, before the workers are
    forked: with more shards than processes each new worker would import it again (about
    30 ms; scipy, for the JSON's literature metrics, 0.3 s)."""
    if options.literature:
        import acescore.metrics.records  # noqa: F401
        import scipy.optimize  # noqa: F401
    from acescore.report.nist.listing_records import wanted
    if wanted(options):
        import acescore.report.nist.diagnostics  # noqa: F401
        import acescore.report.data.machine  # noqa: F401
        import acescore.report.nist.mappings  # noqa: F401
    import acescore.rules.coverage  # noqa: F401
    import acescore.run.pipeline  # noqa: F401
    import acescore.report.nist.listing_records  # noqa: F401
    import acescore.report.outputs  # noqa: F401
    import acescore.report.counts.sections  # noqa: F401
    import acescore.rules.corpus  # noqa: F401
    import acescore.scoring.engine  # noqa: F401
    import acescore.scoring.releves  # noqa: F401


def score_shard(rpaths, spaths, options, extra=None, spool=None) -> dict:
    """In a worker: read, build and score one shard; its sections as data (``extra``: see
    :func:`acescore.run.shards.score_paths`; ``spool``: an :class:`acescore.writing.spool.Spool` for
    the listings' text)."""
    import gc
    gc.disable()
    from acescore.rules.coverage import coverage
    from acescore.report.nist.listing_records import pass_records, spooled
    from acescore.report.outputs import ReportContext
    from acescore.report.counts.sections import section_data
    from acescore.report.counts.tables import PassTables
    from acescore.scoring.engine import new_run, run_chain
    params = options.parameter_set
    rfiles, sfiles, found, skips, rside, sside, warnings, marks = _built_sides(
        rpaths, spaths, options)
    sources = {s for f in rfiles + sfiles for s in f.sources}
    all_sources = sorted(sources)
    run = new_run(rside, sside, params, warnings, keep_passes=False)
    passes = []
    bounds = _phase_bounds(warnings, options)
    writer = spool.writer() if spool is not None else None
    ctx = ReportContext(run, params, options, "", all_sources)
    entity_b3 = []          # the entity pass's B-cubed data (the JSON's bcub_nist)

    def on_pass(res) -> None:
        if res.task == "entity" and res.b3 is not None and options.literature:
            entity_b3.append(res.b3)
        if extra is not None:
            data = extra.section(res, params, all_sources)
            data.listings = spooled(pass_records(ctx, res), writer)
        else:
            tables = PassTables(res)
            data = section_data(res, params, all_sources, True, tables)
            data.listings = spooled(pass_records(ctx, res, tables), writer)
        passes.append((res.task, data, len(run.warnings), list(bounds)))
        bounds.clear()
    run.on_pass = on_pass
    for chain in CHAINS:
        run_chain(run, chain, options.mentions, options.check_duplicates)
    run.on_pass = None
    cov = coverage(rside, sside)
    more = extra.finish(rside, sside) if extra is not None else None
    return {"docs": (list(rside.documents), list(sside.all_documents)),
            "ids": (_ids(rside), _ids(sside)),
            "counts": {(side.name, k): len(side.of(k)) for side in (rside, sside) for k in KINDS},
            "sources": sources, "n_docs": (len(rside.documents), len(sside.all_documents)),
            "dtds": {os.path.basename(f.doctype) if f.doctype else "none"
                     for f in rfiles + sfiles},
            "coverage": (cov.ref, cov.scored, cov.sys, cov.sys_without_ref),
            "marks": marks, "warnings": warnings, "passes": passes, "extra": more,
            "found": found, "skips": skips,
            **_added_records(options, params, rside, sside, entity_b3)}


def _built_sides(rpaths, spaths, options) -> tuple:
    """A shard's files read and its two sides built: ``(rfiles, sfiles, found, skips,
    rside, sside, warnings, marks)``, ``marks`` the number of warnings after each step.  A
    strict run's first problem is raised (the run is then scored in one process, which
    says so)."""
    from acescore.run.pipeline import read_shard
    from acescore.rules.corpus import corpus_problems, first_problem
    params = options.parameter_set
    rfiles, sfiles, found, skips = read_shard(rpaths, spaths, options)
    warnings: list = []
    marks = []
    rside = Side("REF")
    for step in (lambda: add_files(rside, rfiles, params, warnings),
                 lambda: finish(rside, params, warnings)):
        step()
        marks.append(len(warnings))
    sside = Side("SYS")
    for step in (lambda: add_files(sside, sfiles, params, warnings, rside.documents),
                 lambda: finish(sside, params, warnings),
                 lambda: check_docs(rside, sside, warnings)):
        step()
        marks.append(len(warnings))
    problem = None if skips is not None else first_problem(corpus_problems(rfiles, sfiles))
    if problem is not None:
        raise problem.error()
    return rfiles, sfiles, found, skips, rside, sside, warnings, marks


def _phase_bounds(warnings: list, options) -> list:
    """The list where a pass's warnings change phase, filled as they do.  Within a
    mention-level relation/event pass the warnings come in phases (REF promotion, SYS
    promotion, the rest), each in ID order over the whole corpus; with -c each valuation's
    warnings are a phase of their own: note where they start and end (this is a forked
    worker: the modules patched here are its own copies)."""
    from acescore.scoring import releves
    bounds: list = []
    promote = releves.promote_releves

    def phased_promote(*args, **kw):
        bounds.append(len(warnings))
        try:
            return promote(*args, **kw)
        finally:
            bounds.append(len(warnings))
    releves.promote_releves = phased_promote
    if options.check_duplicates:
        # (the tool stops at an ID "" or "0": such a corpus goes in one process)
        from acescore.scoring import duplicates
        check = duplicates.duplicate_warnings

        def phased_check(element_type, sys_ids, *args):
            if "" in sys_ids or "0" in sys_ids:
                raise ValueError("an element ID '' or '0'")
            bounds.append(len(warnings))
            return check(element_type, sys_ids, *args)
        duplicates.duplicate_warnings = phased_check
    return bounds


def _added_records(options, params, rside: Side, sside: Side, entity_b3: list) -> dict:
    """The per-document records of -d (``documents``) and the literature's (``literature``)
    where the run asks for them."""
    added = {}
    if options.summary:
        from acescore.report.nist.listing_records import document_records
        added["documents"] = document_records(rside, sside)
    if options.literature and params.use_mentions:
        from acescore.metrics.records import literature_records
        added["literature"] = literature_records(rside, sside, params,
                                                 entity_b3[0] if entity_b3 else None)
    return added
