"""``acescore compare`` in document shards: every system scored shard by shard, each
shard's reference read and built once for all the systems.

Under a local parameter set (strict, no ``--docs``) the corpus is planned as ``score``
plans it (:func:`acescore.run.shards.shard_plans`, the same REF cuts for every system);
each shard is a forked worker (``--jobs`` at a time) that reads and builds its REF files
once and scores each system's SYS files of its documents against them
(:func:`acescore.run.shard_worker.score_systems_shard`, the code of ``score``'s shards),
sending back per system its per-document components, its section records for the point
estimate and its warnings in their phases.  This process puts each system together: the
documents in DOCID order, the Value of each task from the records merged in canonical order
(:func:`acescore.report.counts.sections.merged_tables`: ``score``'s number to the last
bit), the warnings phase by phase (:func:`acescore.run.assemble.merged_warnings`).  What
the plan assumes is checked as ``score`` checks it (:func:`acescore.run.assemble.
consistent`, no DOCID in two shards); where it does not hold, or a worker fails, None:
the systems are then scored as before, each against the reference prepared in one piece.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import partial

import numpy as np

from acescore.compare.components import (
    TaskScores,
    absent_tasks,
    document_value,
    element_links,
    literature_rows,
    literature_scores,
    partners,
    pass_components,
    table_value,
)
from acescore.model.options import Options
from acescore.model.tasks import KINDS
from acescore.model.tasks import task as task_of
from acescore.report.counts.sections import SectionData, SortKeys, merged_tables
from acescore.rules.coverage import Coverage
from acescore.run.assemble import ShardResult, consistent, merged_warnings
from acescore.run.parallel import Child, concurrency, fork_available, run_pool
from acescore.run.shard_worker import preload, score_systems_shard
from acescore.run.shards import documents_distinct, shard_plans
from acescore.scoring.engine import Run


@dataclass
class ShardSystem:
    """One system in one shard, as its worker sends it back."""

    shard: ShardResult  # its passes' ``data``: the records of their total rows
    docids: list  # the shard's REF documents, in DOCID order
    passes: dict  # task -> (printed, documents x components, partners)
    literature: dict  # task -> documents x counts
    links: list  # [SYS element links] (+ REF's for the first system), as DOCIDs
    #: the system's scoring run, held (not sent) until the worker ends: its exit frees it
    #: at once, where freeing it object by object takes a few percent of the worker's time
    held: object = None

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["held"] = None
        return state


def applicable(options: Options, ref_paths: list, sys_paths: list) -> list | None:
    """The shards (one list of REF paths, and per system its SYS paths) of a comparison, or
    None: not sharded (lenient, ``--docs``, a global parameter set, no ``fork``, a corpus of
    one shard, systems whose documents the plan cannot pair with the same REF cuts)."""
    params = options.parameter_set
    if (
        options.lenient
        or options.docs is not None
        or params.use_name_similarity
        or not fork_available()
        or not sys_paths
    ):
        return None
    plans = [shard_plans(list(ref_paths), list(s), options) for s in sys_paths]
    if any(p is None for p in plans):
        return None
    cuts = [[rp for rp, _ in p] for p in plans]
    if any(c != cuts[0] for c in cuts):
        return None
    return [(rp, [p[k][1] for p in plans]) for k, rp in enumerate(cuts[0])]


def _records(tables, task: str, kind: str, printed: bool) -> SectionData:
    """What a Value needs of one shard's pass: its document- and element-level records with
    their canonical sort keys (no condition, no B-cubed data)."""
    cols = tables.cols
    rids, sids, nref = cols.cv.rids, cols.cv.sids, cols.cv.nref
    return SectionData(
        task,
        kind,
        printed,
        SortKeys(cols.nref_docs, (cols.eids, cols.docids)),
        [array("d", c) for c in tables._doc_columns],  # (as score's shards send them)
        tables._doc_labels,
        SortKeys(nref, (rids + [sids[i - nref] for i in cols.elem_ei[nref:]],)),
        tables._elem_labels,
        {},
    )


def _components(options: Options, first: list, shard: ShardResult, run: Run) -> ShardSystem:
    """In a worker: one system of one shard as per-document components."""
    rs, ss = run.ref, run.sys
    docids = sorted(rs.documents)
    docindex = {d: i for i, d in enumerate(docids)}
    passes = {}
    data = {}
    for res in run.passes:
        x, tables = pass_components(res, docindex)
        passes[res.task] = (bool(res.printed), x, partners(res, docindex))
        data[res.task] = _records(tables, res.task, res.kind, bool(res.printed))
    for p in shard.passes:
        p.data = data.get(p.task)
    lit = literature_rows(rs, ss, options.parameter_set, docids) if options.literature else {}
    links = [_as_docids(element_links(ss, docids), docids)]
    if not first:  # the REF side's links, once
        links.append(_as_docids(element_links(rs, docids), docids))
        first.append(True)
    return ShardSystem(shard, docids, passes, lit, links, run)


def _as_docids(links: dict, docids: list) -> dict:
    return {k: [[docids[i] for i in ps] for ps in v] for k, v in links.items()}


def _work(rpaths: list, systems: list, options: Options) -> list:
    return score_systems_shard(
        rpaths, systems, options.but(literature=False, docs=None), partial(_components, options, [])
    )


def score_in_shards(plans: list, options: Options, names: list) -> list | None:
    """Per system (in order): (its :class:`~acescore.compare.components.SystemScores`
    parts, ...) as :func:`acescore.compare.systems.score_systems` needs them -- a list of
    ``(tasks, absent, docids, links, warnings, ref_warnings, dtds, coverage)`` -- or None
    where the shards did not bear out the plan."""
    at_once = concurrency(options.jobs)
    if len(plans) > at_once:
        preload(options)
    try:
        outs = run_pool(
            [partial(Child, partial(_work, rp, sp, options)) for rp, sp in plans], at_once
        )
    except OSError:
        return None
    if any(o is None for o in outs):
        return None
    systems = []
    for j in range(len(names)):
        got = _system([o[j] for o in outs], options)
        if got is None:
            return None
        systems.append(got)
    return systems


def _system(parts: list, options: Options) -> tuple | None:
    """One system put together from its shards (``parts``: ShardSystem, shard order)."""
    shards = [p.shard for p in parts]
    if not consistent(shards) or not documents_distinct(shards):
        return None
    if options.check_duplicates and len({tuple(p.task for p in s.passes) for s in shards}) > 1:
        return None  # -c: the phases of every shard's warnings must be the same (as score's)
    counts = [sum(x) for x in zip(*(s.coverage for s in shards))]
    docids = sorted(d for p in parts for d in p.docids)
    where = {d: i for i, d in enumerate(docids)}
    n = len(docids)
    tasks: dict = {}
    order = [t for p in parts for t in p.passes]
    for t in dict.fromkeys(order):
        have = [p for p in parts if t in p.passes]
        if not any(p.passes[t][0] for p in have):
            continue
        x = np.zeros((n, 2))
        pts: list = [{} for _ in range(n)]
        for p in have:
            rows = [where[d] for d in p.docids]
            x[rows] = p.passes[t][1]
            for r, part in zip(rows, p.passes[t][2]):
                pts[r] = part
        name = task_of(t).json_name
        value = table_value(merged_tables([s.scored(t) for s in shards if s.scored(t)]))
        tasks[name] = TaskScores(name, "value", value, x, pts, document_value(x))
    has = {
        (side, k): any(s.counts[(side, k)] for s in shards)
        for side in ("REF", "SYS")
        for k in KINDS
    }
    absent = absent_tasks(tasks, has, options.scores_mentions)
    if options.literature:
        rows = {}
        for t in parts[0].literature:
            x = np.zeros((n, parts[0].literature[t].shape[1]))
            for p in parts:
                x[[where[d] for d in p.docids]] = p.literature[t]
            rows[t] = x
        tasks.update(literature_scores(rows))
    links = [_merged_links([p.links[i] for p in parts], where) for i in range(len(parts[0].links))]
    warnings = merged_warnings(shards)
    nref = sum(s.marks[1] for s in shards)  # the REF side's two building steps come first
    dtds = set().union(*(s.dtds for s in shards))
    return tasks, absent, docids, links, warnings[nref:], warnings[:nref], dtds, Coverage(*counts)


def _merged_links(per_shard: list, where: dict) -> dict:
    out: dict = {k: [] for k in KINDS}
    for links in per_shard:
        for k, v in links.items():
            out[k].extend([where[d] for d in ds if d in where] for ds in v)
    return out
