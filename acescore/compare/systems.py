"""Reading and scoring the systems of a comparison: the reference is read and built once,
each system is read, built against it and scored, and only its per-document components
(:mod:`acescore.compare.components`) are kept.

In lenient mode the documents skipped for one system are skipped on the REF side too, so
the reference is rebuilt for each system (it is still read once); the systems must then
end up with the same reference documents, or they cannot be paired.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Optional

from acescore.compare.components import (LINKING_KINDS, SystemScores, element_links,
                                         fill_absent, literature_tasks, nist_tasks, units)
from acescore.database import Side, add_files, check_docs, finish
from acescore.errors import AceUsageError


@dataclass
class Scored:
    """Everything a comparison needs, the corpora themselves dropped."""
    params: object
    mentions: bool
    docids: list                       # the REF documents, in DOCID order
    systems: list                      # SystemScores, the baseline first
    units: dict                        # task -> unit number of each document
    warnings: dict = field(default_factory=dict)   # "REF" / system name -> [warning]
    skipped: dict = field(default_factory=dict)    # system name -> SkipReport (lenient)
    options: dict = field(default_factory=dict)    # for the signature (dtd, lenient)


def system_names(paths: list) -> list:
    """Short names: the base names of the paths, made unique with their position."""
    names = [os.path.basename(os.path.normpath(p)) or p for p in paths]
    for n in set(names):
        if names.count(n) > 1:
            names = [f"{x}#{i + 1}" if x == n else x for i, x in enumerate(names)]
    return names


def build_reference(corpus, params, warnings: list) -> Side:
    rside = Side("REF")
    add_files(rside, corpus.files, params, warnings)
    finish(rside, params, warnings)
    return rside


def build_system(rside: Side, corpus, params, warnings: list) -> Side:
    sside = Side("SYS")
    add_files(sside, corpus.files, params, warnings, rside.documents)
    finish(sside, params, warnings)
    check_docs(rside, sside, warnings)
    return sside


@dataclass
class _System:
    """What a worker sends back for one system."""
    scores: SystemScores
    docids: list
    links: list
    warnings: list
    skipped: object
    dtds: set


def _score_system(name: str, paths: list, rc, rside: Optional[Side], params, mentions: bool,
                  lenient: bool, literature: bool, max_bytes: int) -> _System:
    """Read, build and score one system against the reference (``rside``; in lenient mode
    built again from ``rc`` with this system's skips)."""
    from acescore import api
    from acescore.scoring.engine import run_scoring
    w: list = []
    sc = api.read_corpus(paths, params, max_bytes, lenient=lenient)
    skipped = None
    if lenient:
        from acescore.robust import build_corpora
        b = build_corpora(rc, sc, params, w)
        rs, ss, skipped = b.ref, b.sys, b.report
    else:
        rs, ss = rside, build_system(rside, sc, params, w)
    docids = sorted(rs.documents)
    run = run_scoring(rs, ss, params, mentions, w)
    s = SystemScores(name)
    s.tasks, s.absent = nist_tasks(run, docids, bool(mentions and params.use_mentions))
    del run
    if literature:
        s.tasks.update(literature_tasks(rs, ss, params, docids))
    links = [element_links(ss, docids)] + ([element_links(rs, docids)] if lenient else [])
    return _System(s, docids, links, w, skipped, _dtds(sc.files))


def _dtds(files) -> set:
    return {os.path.basename(f.doctype) if f.doctype else "none" for f in files}


def score_systems(ref_paths: list, sys_paths: list, params, mentions: bool,
                  names: Optional[list] = None, lenient: bool = False,
                  literature: bool = True, max_bytes: Optional[int] = None,
                  progress: Optional[Callable[[str], None]] = None, jobs: int = 1) -> Scored:
    """Read REF once, then each system (``jobs`` at a time, :mod:`.workers`): build,
    score, keep its components."""
    from acescore import api
    from acescore.compare.workers import fork_map
    from acescore.reading.apf import DEFAULT_MAX_BYTES
    mb = max_bytes or DEFAULT_MAX_BYTES
    names = names or system_names([str(p) for p in sys_paths])
    say = progress or (lambda msg: None)
    warnings: dict = {"REF": []}
    with api.no_cyclic_gc():
        say("reading reference")
        rc = api.read_corpus(ref_paths, params, mb, lenient=lenient)
        rside = None if lenient else build_reference(rc, params, warnings["REF"])

        def one(k: int) -> _System:
            say(f"scoring {names[k]}")
            return _score_system(names[k], sys_paths[k], rc, rside, params, mentions, lenient,
                                 literature, mb)
        done = fork_map(one, range(len(names)), jobs)
    docids = done[0].docids
    links = [x for d in done for x in d.links]
    if rside is not None:
        links.append(element_links(rside, docids))
    for d in done:
        if d.docids != docids:
            raise AceUsageError(
                f"lenient mode skipped other reference documents for {d.scores.name} than "
                f"for {names[0]}: the systems cannot be paired (fix the input or compare "
                "without --lenient)")
        warnings[d.scores.name] = d.warnings
    skipped = {d.scores.name: d.skipped for d in done if d.skipped is not None}
    systems = [d.scores for d in done]
    fill_absent(systems)
    task_units = {}
    for task in {t for s in systems for t in s.tasks}:
        task_units[task] = units(links, LINKING_KINDS.get(task, ()), len(docids))
    dtds = _dtds(rc.files).union(*(d.dtds for d in done))
    options = {"lenient": lenient, "dtd": ",".join(sorted(dtds)) or "none"}
    return Scored(params, mentions, docids, systems, task_units, warnings, skipped, options)
