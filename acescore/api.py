"""The Python API: read corpora, score them, get results.

>>> import acescore
>>> results = acescore.score("ref/", "sys/", params="local_2008", mentions=True)
>>> print(results.to_text())
"""
from __future__ import annotations

import contextlib
import gc
import os
from dataclasses import dataclass, field, replace
from typing import Iterable, Optional, Sequence, Union

from acescore.database import Side, add_files, check_docs, finish
from acescore.errors import AceInputError, AceUsageError
from acescore.model import ApfFile
from acescore.params import PARAMETER_SETS, Params, get_params
from acescore.reading.apf import DEFAULT_MAX_BYTES, read_apf

PathLike = Union[str, os.PathLike]


@contextlib.contextmanager
def no_cyclic_gc():
    """Scoring builds millions of small acyclic objects; Python's cyclic collector would
    rescan them over and over (a third of the run time) and frees nothing.  Reference
    counting still frees everything as usual."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def discover_paths(spec: Union[PathLike, Sequence[PathLike]], list_file: bool = False,
                   lenient: bool = False) -> list[str]:
    """APF paths from a file, a directory (recursive ``*.apf.xml``/``*.apf``), a list file
    (one path per line) or a sequence of paths.  ``lenient``: a list entry that names
    nothing is kept (and skipped when read) instead of being an error."""
    if isinstance(spec, (list, tuple)):
        out = []
        for s in spec:
            out.extend(discover_paths(s, list_file, lenient))
        return out
    from acescore.reading import discovery
    spec = os.fspath(spec)
    return (discovery.read_list(spec, keep_missing=lenient) if list_file
            else discovery.discover(spec, lenient))


@dataclass
class Corpus:
    """APF files of one side, already read.  ``skipped``: the reading problems isolated in
    lenient mode (:class:`acescore.robust.Skip`)."""
    files: list
    skipped: list = field(default_factory=list)

    @property
    def sources_in_order(self) -> list[str]:
        out = []
        for f in self.files:
            out.extend(f.sources)
        return out


def read_corpus(paths: Iterable[str], params: Params, max_bytes: int = DEFAULT_MAX_BYTES,
                errors: Optional[list] = None, progress=None, lenient: bool = False) -> Corpus:
    """Read APF files.  ``progress(done, total)`` is called after each file if given.
    ``lenient``: skip broken elements/documents instead of stopping (acescore.robust)."""
    files = []
    skipped: list = []
    paths = list(paths)
    for k, p in enumerate(paths, 1):
        if progress is not None:
            progress(k, len(paths))
        if lenient:
            from acescore.robust import read_apf_lenient
            f = read_apf_lenient(p, params, skipped, max_bytes)
            if f is not None:
                files.append(f)
        elif errors is None:
            files.append(read_apf(p, params, max_bytes))
        else:
            try:
                files.append(read_apf(p, params, max_bytes))
            except AceInputError as e:
                errors.append(e)
    return Corpus(files, skipped)


def build_sides(ref: Corpus, sys: Corpus, params: Params, warnings: list,
                lenient: bool = False) -> tuple[Side, Side]:
    if lenient:
        from acescore.robust import build_corpora
        b = build_corpora(ref, sys, params, warnings)
        return b.ref, b.sys
    rside = Side("REF")
    add_files(rside, ref.files, params, warnings)
    finish(rside, params, warnings)
    sside = Side("SYS")
    add_files(sside, sys.files, params, warnings, rside.documents)
    finish(sside, params, warnings)
    check_docs(rside, sside, warnings)
    return rside, sside


def source_label(ref: Corpus, sys: Corpus) -> str:
    label = None
    for s in ref.sources_in_order + sys.sources_in_order:
        if label is None:
            label = s
        elif s != label:
            return "MIXED"
    return label or ""


@dataclass
class Results:
    """The outcome of one scoring run."""
    run: object
    params: Params
    mentions: bool
    source_label: str
    all_sources: list
    warnings: list = field(default_factory=list)
    options: dict = field(default_factory=dict)
    skipped: Optional[object] = None    # lenient mode: acescore.robust.SkipReport
    #: the passes rendered for one output format (``score(..., render=...)``, the CLI);
    #: then ``run.passes`` holds only the passes scored in this process
    rendered: Optional[list] = None

    @property
    def passes(self):
        if self.rendered is not None:
            raise AceUsageError("these results were rendered for output (render=...): the "
                                "passes scored in worker processes are not available")
        return self.run.passes

    def task(self, name: str):
        for p in self.run.passes:
            if p.task == name:
                return p
        raise KeyError(name)

    def to_text(self, command_line: Optional[str] = None) -> str:
        from acescore.report.nist_report import full_report
        with no_cyclic_gc():
            return full_report(self, command_line)

    def to_json(self, **kw) -> str:
        from acescore.report.json_report import to_json
        with no_cyclic_gc():
            return to_json(self, **kw)

    def table(self, task: str, condition: str = "TYPE"):
        from acescore.report.json_report import table
        return table(self, task, condition)


def score(ref, sys, params: Union[str, Params] = "local_2008", mentions: bool = True,
          max_bytes: int = DEFAULT_MAX_BYTES, lenient: bool = False, jobs: int = 1,
          render: Optional[str] = None, gates: bool = False, max_pairs: Optional[int] = None,
          **options) -> Results:
    """Score system output ``sys`` against reference ``ref``.

    ``ref``/``sys``: a path (file, directory or list file), a sequence of paths, or a
    :class:`Corpus` already read.  ``params``: a parameter set name or :class:`Params`.
    ``lenient``: skip broken elements and documents (on both sides) instead of stopping;
    ``Results.skipped`` says what was skipped and why (acescore.robust).

    ``render`` (``"text"``, ``"json"`` or ``"csv"``): render each pass for that output as
    soon as it is scored (``Results.rendered``; with ``gates`` also the values the
    ``--fail-under`` gates need) instead of keeping every pass; this is what the CLI does.
    Only then can ``jobs`` > 1 spread the scoring over that many processes
    (:mod:`acescore.parallel`); the output is the same.

    ``max_pairs``: the most REF/SYS pairs valued in one document (default
    ``Params.max_pairs``, :mod:`acescore.scoring.limits`); more is an input error.
    """
    from acescore.scoring.engine import new_run, run_scoring
    if isinstance(params, str):
        if params not in PARAMETER_SETS:
            raise AceUsageError(f"unknown parameter set '{params}' (known: "
                                + ", ".join(sorted(PARAMETER_SETS)) + ")")
        params = get_params(params)
    if max_pairs is not None:
        params = replace(params, max_pairs=max_pairs)
    with no_cyclic_gc():
        rc = ref if isinstance(ref, Corpus) else read_corpus(
            discover_paths(ref, lenient=lenient), params, max_bytes, lenient=lenient)
        sc = sys if isinstance(sys, Corpus) else read_corpus(
            discover_paths(sys, lenient=lenient), params, max_bytes, lenient=lenient)
        warnings: list = []
        skipped = None
        if lenient:
            from acescore.robust import build_corpora
            b = build_corpora(rc, sc, params, warnings)
            rc, sc, rside, sside, skipped = (Corpus(b.ref_files), Corpus(b.sys_files), b.ref,
                                             b.sys, b.report)
        else:
            rside, sside = build_sides(rc, sc, params, warnings)
        if render is None:
            run = run_scoring(rside, sside, params, mentions, warnings,
                              check_duplicates=bool(options.get("check_duplicates")))
        else:
            run = new_run(rside, sside, params, warnings)
    all_sources = sorted(set(rc.sources_in_order) | set(sc.sources_in_order))
    options = dict(options, lenient=lenient,
                   dtd=",".join(sorted({os.path.basename(f.doctype) if f.doctype else "none"
                                        for f in rc.files + sc.files})) or "none")
    results = Results(run, params, mentions, source_label(rc, sc), all_sources, warnings,
                      options, skipped)
    if render is not None:
        from acescore.parallel import score_rendered
        with no_cyclic_gc():
            score_rendered(results, render, gates, mentions,
                           bool(options.get("check_duplicates")), jobs)
    return results
