"""Reading and scoring the systems of a comparison: the reference is read and built once,
each system is read, built against it and scored, and only its per-document components
(:mod:`acescore.compare.components`) are kept.

In lenient mode the documents skipped for one system are skipped on the REF side too, so
the reference is rebuilt for each system (it is still read once); the systems must then
end up with the same reference documents, or they cannot be paired.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

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
from acescore.compare.workers import fork_map
from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.rules.coverage import coverage
from acescore.run.pipeline import (
    Corpus,
    build,
    build_reference,
    build_system,
    no_cyclic_gc,
    read_corpus,
)
from acescore.scoring.engine import run_scoring


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


def _score_system(name: str, paths: list, rc: Corpus, rside, options: Options) -> _System:
    """Read, build and score one system against the reference (``rside``; in lenient mode
    built again from ``rc`` with this system's skips)."""
    params = options.parameter_set
    sc = read_corpus(paths, options)
    skipped = None
    if options.lenient:
        loaded = build(rc, sc, options)
        rs, ss, skipped, w = loaded.ref, loaded.sys, loaded.skipped, loaded.warnings
    else:
        w = []
        rs, ss = rside, build_system(rside, rc, sc, params, w)
    docids = sorted(rs.documents)
    covered = coverage(rs, ss, skipped)
    run = run_scoring(rs, ss, params, options.mentions, w)
    s = SystemScores(name)
    s.tasks, s.absent = nist_tasks(run, docids, options.scores_mentions)
    del run
    if options.literature:
        s.tasks.update(literature_tasks(rs, ss, params, docids))
    links = [element_links(ss, docids)] + ([element_links(rs, docids)] if options.lenient else [])
    return _System(s, docids, links, w, skipped, _dtds(sc.files), covered)


def _dtds(files) -> set:
    return {os.path.basename(f.doctype) if f.doctype else "none" for f in files}


def score_systems(
    ref_paths: list,
    sys_paths: list,
    options: Options,
    names: list | None = None,
    progress: Callable[[str], None] | None = None,
) -> Scored:
    """Read REF once, then each system (``options.jobs`` at a time, :mod:`.workers`):
    build, score, keep its components."""
    names = names or system_names([str(p) for p in sys_paths])
    say = progress or (lambda msg: None)
    warnings: dict = {"REF": []}
    with no_cyclic_gc():
        say("reading reference")
        rc = read_corpus(ref_paths, options)
        rside = (
            None if options.lenient else build_reference(rc, options.parameter_set, warnings["REF"])
        )

        def one(k: int) -> _System:
            say(f"scoring {names[k]}")
            return _score_system(names[k], sys_paths[k], rc, rside, options)

        done = fork_map(one, range(len(names)), options.jobs)
    docids = done[0].docids
    links = [x for d in done for x in d.links]
    if rside is not None:
        links.append(element_links(rside, docids))
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
    dtd = ",".join(sorted(_dtds(rc.files).union(*(d.dtds for d in done)))) or "none"
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
