"""The one loading and scoring pipeline of every command and of the Python API:

    discover paths -> read APF files (a Corpus per side) -> build the two side databases
    (strict, or lenient: acescore.rules.robust) -> score every pass, rendering each as soon as it
    is scored (acescore.run.parallel) -> Results

driven by one :class:`~acescore.model.options.Options`.  ``score``, ``view``, ``coref``,
``events``, ``crosscheck`` and :func:`acescore.score` all go through :func:`load`.
"""
from __future__ import annotations

import contextlib
import gc
import os
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence, Union

from acescore.metrics import literature_scores
from acescore.model.errors import AceInputError, AceUsageError
from acescore.model.options import Options
from acescore.model.params import Params
from acescore.model.problems import Collect, hint
from acescore.reading import discovery
from acescore.reading.apf import read_apf
from acescore.reading.doclist import missing_note, restrict
from acescore.report.nist.nist_report import preamble_text
from acescore.report.outputs import ReportContext
from acescore.report.results import Results
from acescore.rules import database
from acescore.rules.corpus import corpus_problems, first_problem
from acescore.rules.coverage import coverage, require_common, require_documents, what_is_there
from acescore.rules.database import Side
from acescore.rules.robust import build_corpora, isolate, with_side
from acescore.run.parallel import score_rendered
from acescore.scoring.engine import new_run

PathLike = Union[str, os.PathLike]
Progress = Optional[Callable[[int, int], None]]


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


def discover(spec: Union[PathLike, Sequence[PathLike]], list_file: bool = False,
             lenient: bool = False) -> list[str]:
    """APF paths from a file, a directory (recursive ``*.apf.xml``/``*.apf``), a list file
    (one path per line; ``list_file`` says it is one whatever it looks like) or a sequence
    of those.  ``lenient``: a list entry that names nothing is kept (and skipped when read)
    instead of being an error."""
    if isinstance(spec, (list, tuple)):
        out = []
        for s in spec:
            out.extend(discover(s, list_file, lenient))
        return out
    spec = os.fspath(spec)
    return (discovery.read_list(spec, keep_missing=lenient) if list_file
            else discovery.discover(spec, lenient))


@dataclass
class Corpus:
    """The APF files of one side, read.  ``skipped``: the reading problems isolated in
    lenient mode (:class:`acescore.rules.robust.Skip`)."""
    files: list
    skipped: list = field(default_factory=list)

    @property
    def sources_in_order(self) -> list[str]:
        out = []
        for f in self.files:
            out.extend(f.sources)
        return out


def read_corpus(paths: Sequence[str], options: Options, progress: Progress = None,
                errors: Optional[list] = None) -> Corpus:
    """Read APF files.  ``progress(done, total)`` is called after each file if given.
    Lenient: broken elements/documents are skipped (acescore.rules.robust); ``errors``: collect
    each file's fatal error there instead of stopping at the first."""
    params = options.parameter_set
    files: list = []
    skipped: list = []
    paths = list(paths)
    for k, p in enumerate(paths, 1):
        if progress is not None:
            progress(k, len(paths))
        if options.lenient:
            f = read_apf(p, params, options.max_bytes, Collect(skipped))
            if f is not None:
                files.append(f)
            continue
        try:
            files.append(read_apf(p, params, options.max_bytes))
        except AceInputError as e:
            if errors is None:
                raise
            errors.append(e)
    return Corpus(files, skipped)


@dataclass
class Loaded:
    """Both sides read and built, ready to score."""
    options: Options
    ref_corpus: Corpus
    sys_corpus: Corpus
    ref: Side
    sys: Side
    warnings: list                    # NIST WARNING messages so far, in order
    skipped: Optional[object] = None  # lenient: acescore.rules.robust.SkipReport
    inputs: Optional[dict] = None     # {"ref": ..., "sys": ...}: the inputs as given

    @property
    def coverage(self):
        """The documents scored (acescore.rules.coverage): the end-of-run summary line."""
        return coverage(self.ref, self.sys, self.skipped)

    @property
    def params(self) -> Params:
        return self.options.parameter_set

    @property
    def source_label(self) -> str:
        """One SOURCE for the whole input, or MIXED (the report's SOURCE label)."""
        label = None
        for s in self.ref_corpus.sources_in_order + self.sys_corpus.sources_in_order:
            if label is None:
                label = s
            elif s != label:
                return "MIXED"
        return label or ""

    @property
    def all_sources(self) -> list:
        return sorted(set(self.ref_corpus.sources_in_order)
                      | set(self.sys_corpus.sources_in_order))

    @property
    def dtd(self) -> str:
        names = {os.path.basename(f.doctype) if f.doctype else "none"
                 for f in self.ref_corpus.files + self.sys_corpus.files}
        return ",".join(sorted(names)) or "none"


def build(ref: Corpus, sys: Corpus, options: Options) -> Loaded:
    """The two side databases (01 §3): strict (the first broken input rule of
    :mod:`acescore.rules.corpus` is raised), or lenient (skipping what breaks a rule, on both sides
    where it cannot be isolated)."""
    params = options.parameter_set
    warnings: list = []
    if options.lenient:
        b = build_corpora(ref, sys, params, warnings)
        return Loaded(options, Corpus(b.ref_files), Corpus(b.sys_files), b.ref, b.sys,
                      warnings, b.report)
    problem = first_problem(corpus_problems(ref.files, sys.files))
    if problem is not None:
        raise problem.error()
    rside, sside = database.build_sides(ref.files, sys.files, params, warnings)
    return Loaded(options, ref, sys, rside, sside, warnings)


def build_reference(ref: Corpus, params: Params, warnings: list) -> Side:
    """The REF side alone (strict: the first broken rule of its own is raised), to serve
    several systems (``acescore compare``: :func:`build_system`)."""
    problem = first_problem(corpus_problems(ref.files, []))
    if problem is not None:
        raise problem.error()
    return database.build_ref_side(ref.files, params, warnings)


def build_system(rside: Side, ref: Corpus, sys: Corpus, params: Params, warnings: list
                 ) -> Side:
    """The SYS side against a REF side built by :func:`build_reference`, which it does not
    change (strict: the first broken rule of the pair is raised)."""
    problem = first_problem(corpus_problems(ref.files, sys.files))
    if problem is not None:
        raise problem.error()
    return database.build_sys_side(rside, sys.files, params, warnings)


def load(ref, sys, options: Options, ref_list: bool = False, sys_list: bool = False,
         progress: Callable[[str, int], Progress] = None) -> Loaded:
    """Discover, read and build both sides.  ``ref``/``sys``: a path (file, directory or
    list file), a sequence of paths, or a :class:`Corpus` already read.
    ``progress(label, total)``, if given, returns a per-file callback (or None)."""
    warnings_out: list = []
    with no_cyclic_gc():
        corpora = []
        for spec, is_list, label, side in ((ref, ref_list, "reading reference", "REF"),
                                           (sys, sys_list, "reading system output", "SYS")):
            if isinstance(spec, Corpus):
                corpora.append(spec)
                continue
            paths = discover(spec, is_list, options.lenient)
            try:
                with _hint_lenient():
                    corpus = read_corpus(paths, options,
                                         progress(label, len(paths)) if progress else None)
            except AceInputError as e:
                raise_if_not_apf(e, side, spec)
                raise
            if paths:
                require_documents(side, spec_label(spec), corpus.files)
            corpora.append(corpus)
        if options.docs is not None:
            corpora = [restrict_corpus(c, options, side, warnings_out)
                       for c, side in ((corpora[0], "REF"), (corpora[1], "SYS"))]
        inputs = {"ref": spec_label(ref), "sys": spec_label(sys)}
        # nothing in common: said before any problem of the input (it would not be scored)
        require_common(*[[d.docid for f in c.files for d in f.documents] for c in corpora],
                       inputs["ref"], inputs["sys"])
        with _hint_lenient():
            loaded = build(corpora[0], corpora[1], options)
        loaded.warnings[:0] = warnings_out
        loaded.inputs = inputs
        return loaded


@contextlib.contextmanager
def _hint_lenient():
    """An input error lenient mode would skip gets its hint (the command line shows it)."""
    try:
        yield
    except AceInputError as e:
        e.hint = hint(e)
        raise


def raise_if_not_apf(e: AceInputError, side: str, spec) -> None:
    """A file that cannot be read because it is no APF at all (an HTML page, a source
    document) means nothing to score, and says so."""
    if e.path and os.path.isfile(e.path):
        what = what_is_there(e.path)
        if what.startswith(("an HTML", "an ACE source")):
            where = spec_label(spec)
            if os.path.abspath(where) != os.path.abspath(e.path):
                where += f" ({e.path})"
            raise AceUsageError(f"nothing to score: {side} {where} holds no APF document:"
                                f" {what}") from None


def spec_label(spec) -> str:
    """An input as messages and the JSON ``inputs`` name it."""
    if isinstance(spec, (str, os.PathLike)):
        return os.fspath(spec)
    if isinstance(spec, Corpus):
        return f"{len(spec.files)} APF files read"
    spec = sorted(os.fspath(s) for s in spec)
    return spec[0] if len(spec) == 1 else f"{len(spec)} paths ({spec[0]}, ...)"


def restrict_corpus(corpus: Corpus, options: Options, side: str, warnings: list) -> Corpus:
    """``--docs``: the documents of ``corpus`` that the list names (a warning line for the
    listed DOCIDs the side does not have)."""
    warnings.extend(docs_warnings(options, {d.docid for f in corpus.files
                                            for d in f.documents}, side))
    return Corpus(restrict(corpus.files, options.docs), corpus.skipped)


def docs_warnings(options: Options, found: set, side: str) -> list:
    """``--docs``: the warning line (if any) for the listed DOCIDs that a side with the
    documents ``found`` does not have; none of them there is an error."""
    docs_file = options.docs_file or "--docs"
    if found and not found & set(options.docs):
        raise AceUsageError(f"nothing to score: none of the {len(options.docs)} DOCIDs of"
                            f" --docs {docs_file} is in {side} (e.g. {options.docs[0]} is"
                            f" not; {side} has {sorted(found)[0]}, ...)")
    note = missing_note(docs_file, list(options.docs), found, side)
    return [f"acescore: warning: {note}\n"] if note else []


def read_shard(rpaths: list, spaths: list, options: Options) -> tuple:
    """The files of a document shard (:mod:`acescore.run.shards`) read as :func:`load` reads a
    corpus: (REF files, SYS files, with ``--docs`` the DOCIDs of every file read per side
    (else None), with ``--lenient`` every skip (else None)); with ``--docs`` only the
    listed documents are kept, with ``--lenient`` what the reading problems and the input
    rules find broken is left out (:func:`acescore.rules.robust.isolate`)."""
    skips = None
    if options.lenient:
        rc, sc = read_corpus(rpaths, options), read_corpus(spaths, options)
        rfiles, sfiles = rc.files, sc.files
        skips = with_side(rc.skipped, "REF") + with_side(sc.skipped, "SYS")
    else:
        params = options.parameter_set
        rfiles = [read_apf(p, params, options.max_bytes) for p in rpaths]
        sfiles = [read_apf(p, params, options.max_bytes) for p in spaths]
    found = None
    if options.docs is not None:
        found = [{d.docid for f in files for d in f.documents} for files in (rfiles, sfiles)]
        rfiles, sfiles = restrict(rfiles, options.docs), restrict(sfiles, options.docs)
    if skips is not None:
        rfiles, sfiles, skips = isolate(rfiles, sfiles, skips)
    return rfiles, sfiles, found, skips


def score(loaded: Loaded, keep_passes: bool = False):
    """Score every pass of ``loaded`` over ``options.jobs`` processes, rendering each as it
    is scored; returns :class:`~acescore.report.results.Results`.  ``keep_passes``: keep the
    PassResults too (``Results.passes``; the HTML view needs them), in one process."""
    options, params = loaded.options, loaded.params
    with no_cyclic_gc():
        run = new_run(loaded.ref, loaded.sys, params, loaded.warnings, keep_passes)
        ctx = ReportContext(run, params, options, loaded.source_label, loaded.all_sources)
        preamble = preamble_text(ctx)
        jobs = 1 if keep_passes else options.jobs
        outputs = score_rendered(ctx, jobs)
        literature = None
        if options.literature and params.use_mentions and loaded.ref.of("entity"):
            literature = literature_scores(loaded.ref, loaded.sys, params)
    return Results(options, params, loaded.source_label, loaded.all_sources, preamble,
                   outputs, run.warnings, loaded.skipped,
                   {"ref": len(loaded.ref.documents), "sys": len(loaded.sys.all_documents)},
                   loaded.dtd, literature, run if keep_passes else None, loaded.inputs,
                   loaded.coverage,
                   {"ref": sorted(loaded.ref.documents),
                    "sys": sorted(loaded.sys.all_documents)} if options.summary else None)


def load_and_score(ref, sys, options: Options, keep_passes: bool = False, **load_kw):
    """:func:`load` then :func:`score`."""
    return score(load(ref, sys, options, **load_kw), keep_passes)
