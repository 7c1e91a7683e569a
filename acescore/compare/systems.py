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


def score_systems(ref_paths: list, sys_paths: list, params, mentions: bool,
                  names: Optional[list] = None, lenient: bool = False,
                  literature: bool = True, max_bytes: Optional[int] = None,
                  progress: Optional[Callable[[str], None]] = None) -> Scored:
    """Read REF once, then each system in turn: build, score, keep its components."""
    from acescore import api
    from acescore.reading.apf import DEFAULT_MAX_BYTES
    from acescore.scoring.engine import run_scoring
    mb = max_bytes or DEFAULT_MAX_BYTES
    names = names or system_names([str(p) for p in sys_paths])
    say = progress or (lambda msg: None)
    warnings: dict = {"REF": []}
    with api.no_cyclic_gc():
        say("reading reference")
        rc = api.read_corpus(ref_paths, params, mb, lenient=lenient)
        rside = None if lenient else build_reference(rc, params, warnings["REF"])
        docids = sorted(rside.documents) if rside is not None else None
        systems, skipped, links, dtds = [], {}, [], set()
        dtds.update(os.path.basename(f.doctype) if f.doctype else "none" for f in rc.files)
        for name, paths in zip(names, sys_paths):
            say(f"scoring {name}")
            w = warnings.setdefault(name, [])
            sc = api.read_corpus(paths, params, mb, lenient=lenient)
            dtds.update(os.path.basename(f.doctype) if f.doctype else "none" for f in sc.files)
            if lenient:
                from acescore.robust import build_corpora
                b = build_corpora(rc, sc, params, w)
                rs, ss, skipped[name] = b.ref, b.sys, b.report
                these = sorted(rs.documents)
                if docids is None:
                    docids = these
                elif these != docids:
                    raise AceUsageError(
                        f"lenient mode skipped other reference documents for {name} than for "
                        f"{names[0]}: the systems cannot be paired (fix the input or compare "
                        "without --lenient)")
            else:
                rs, ss = rside, build_system(rside, sc, params, w)
            run = run_scoring(rs, ss, params, mentions, w)
            s = SystemScores(name)
            s.tasks, s.absent = nist_tasks(run, docids, bool(mentions and params.use_mentions))
            if literature:
                s.tasks.update(literature_tasks(rs, ss, params, docids))
            del run
            systems.append(s)
            links.append(element_links(ss, docids))
            if rside is None:
                links.append(element_links(rs, docids))
            del rs, ss
        if rside is not None:
            links.append(element_links(rside, docids))
    fill_absent(systems)
    task_units = {}
    for task in {t for s in systems for t in s.tasks}:
        task_units[task] = units(links, LINKING_KINDS.get(task, ()), len(docids))
    options = {"lenient": lenient, "dtd": ",".join(sorted(dtds)) or "none"}
    return Scored(params, mentions, docids, systems, task_units, warnings, skipped, options)
