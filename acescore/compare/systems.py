"""Reading and scoring the systems of a comparison: in document shards where the plan holds
(:mod:`.shards`: each shard's reference read and built once, every system scored on it);
else the reference is read and built once
(:func:`acescore.run.prepare_reference`), each system is scored against it by
:func:`acescore.run.execute` -- the one entry point of a scoring run, as ``score`` -- and only
its per-document components (:mod:`acescore.compare.components`) are kept.

In lenient mode the documents skipped for one system are skipped on the REF side too, so
the reference is rebuilt for each system (it is still read once); the systems must then
end up with the same reference documents, or they cannot be paired.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import field

from acescore.compare.components import (
    LINKING_KINDS,
    SystemScores,
    element_links,
    fill_absent,
    literature_tasks,
    nist_tasks,
    units,
)
from acescore.compare.names import unique
from acescore.compare.shards import applicable, score_in_shards
from acescore.compare.workers import fork_map
from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.model.records import dataclass
from acescore.run.entry import Reference, execute, prepare_reference, small_run
from acescore.run.inputs import read_corpus, restrict_corpus
from acescore.run.pipeline import no_cyclic_gc


@dataclass
class Scored:
    """Everything a comparison needs, the corpora themselves dropped."""

    options: Options
    docids: list  # the REF documents, in DOCID order
    systems: list  # SystemScores, the baseline first
    units: dict  # task -> unit number of each document
    warnings: dict = field(default_factory=dict)  # "REF" / system name -> [warning]
    skipped: dict = field(default_factory=dict)  # system name -> SkipReport (lenient)
    dtd: str = "none"  # the DOCTYPEs of the input files (the signature)
    coverage: dict = field(default_factory=dict)  # system name -> Coverage (summary line)

    @property
    def params(self):
        return self.options.parameter_set


def system_names(paths: list) -> list:
    """Short names: the base names of the paths, made unique with their position (the
    command line and :func:`acescore.compare.compare_systems` name systems by
    :func:`acescore.compare.names.system_names`)."""
    return unique([os.path.basename(os.path.normpath(p)) or p for p in paths])


@dataclass
class _System:
    """What a worker sends back for one system."""

    scores: SystemScores
    docids: list
    links: list
    warnings: list
    skipped: object
    dtds: set
    coverage: object = None


def _score_system(name: str, paths: list, ref: Reference, options: Options) -> _System:
    """Score one system against the prepared reference ``ref`` (:func:`acescore.run.execute`,
    its passes kept; in lenient mode the reference is built again with this system's
    skips) and keep its per-document components.  The literature metrics are computed
    here per document (the run's own are corpus totals: not asked for)."""
    params = options.parameter_set
    docs_warnings: list = []
    sys_in = paths if options.docs is None else _restricted(paths, options, "SYS", docs_warnings)
    res = execute(
        ref, sys_in, options.but(literature=False, docs=None), keep_passes=True, report=False
    )
    run = res.run
    rs, ss = run.ref, run.sys
    docids = sorted(rs.documents)
    s = SystemScores(name)
    s.tasks, s.absent = nist_tasks(run, docids, options.scores_mentions)
    del run, res.run
    if options.literature:
        s.tasks.update(literature_tasks(rs, ss, params, docids))
    links = [element_links(ss, docids)] + ([element_links(rs, docids)] if options.lenient else [])
    warnings = docs_warnings + res.warnings[len(ref.warnings) :]  # (REF's are said once)
    return _System(s, docids, links, warnings, res.skipped, set(res.dtd.split(",")), res.coverage)


def _restricted(paths: list, options: Options, side: str, warnings: list):
    """``--docs``: the files of one side read, only the listed documents kept (the prepared
    reference and each system are then scored as a corpus read already)."""
    return restrict_corpus(read_corpus(paths, options), options, side, warnings)


def score_systems(
    ref_paths: list,
    sys_paths: list,
    options: Options,
    names: list | None = None,
    progress: Callable[[str], None] | None = None,
) -> Scored:
    """Read and build REF once, then score each system against it, keep its components:
    in document shards (:mod:`.shards`, ``options.jobs`` at a time) where they can be used,
    else each system against the whole reference (``options.jobs`` at a time,
    :mod:`.workers`; one after the other in this process where the reference is too small
    for worker processes to pay, :func:`acescore.run.small_run`)."""
    names = names or system_names([str(p) for p in sys_paths])
    say = progress or (lambda msg: None)
    plans = None if small_run(ref_paths) else applicable(options, ref_paths, sys_paths)
    if plans is not None:
        say("scoring the systems in document shards")
        with no_cyclic_gc():
            sharded = score_in_shards(plans, options, names)
        if sharded is not None:
            return _from_shards(sharded, options, names)
    with no_cyclic_gc():
        say("reading reference")
        ref_warnings: list = []
        ref_in = (
            list(ref_paths)
            if options.docs is None
            else _restricted(list(ref_paths), options, "REF", ref_warnings)
        )
        ref = prepare_reference(ref_in, options.but(docs=None))
        warnings: dict = {"REF": ref_warnings + list(ref.warnings)}
        rside = ref.side

        def one(k: int) -> _System:
            say(f"scoring {names[k]}")
            return _score_system(names[k], sys_paths[k], ref, options)

        jobs = 1 if small_run(ref_paths) else options.jobs
        done = fork_map(one, range(len(names)), jobs)
    docids = done[0].docids
    links = [x for d in done for x in d.links]
    if rside is not None:
        links.append(element_links(rside, docids))
    return _scored(done, docids, links, warnings, names, options)


def _from_shards(sharded: list, options: Options, names: list) -> Scored:
    """The :class:`Scored` of systems scored in document shards (:mod:`.shards`)."""
    done = []
    links: list = []
    for name, (tasks, absent, docids, lk, warns, _, dtds, cov) in zip(names, sharded):
        s = SystemScores(name, tasks, absent)
        done.append(_System(s, docids, [], warns, None, dtds, cov))
        links.extend(lk)
    warnings: dict = {"REF": sharded[0][5]}
    return _scored(done, done[0].docids, links, warnings, names, options)


def _scored(done: list, docids: list, links: list, warnings: dict, names: list, options) -> Scored:
    """The systems scored (``done``: a :class:`_System` each) put together."""
    for d in done:
        if d.docids != docids:
            raise AceUsageError(
                f"lenient mode skipped other reference documents for {d.scores.name} than "
                f"for {names[0]}: the systems cannot be paired (fix the input or compare "
                "in strict mode)"
            )
        warnings[d.scores.name] = d.warnings
    skipped = {d.scores.name: d.skipped for d in done if d.skipped is not None}
    systems = [d.scores for d in done]
    fill_absent(systems)
    task_units = {}
    for task in {t for s in systems for t in s.tasks}:
        task_units[task] = units(links, LINKING_KINDS.get(task, ()), len(docids))
    dtd = ",".join(sorted(set().union(*(d.dtds for d in done)))) or "none"
    return Scored(
        options,
        docids,
        systems,
        task_units,
        warnings,
        skipped,
        dtd,
        {d.scores.name: d.coverage for d in done},
    )
