"""The loading and scoring of a run in one process, for every command and the Python API
(through :func:`acescore.run.execute` where it can go in document shards):

    discover paths -> read APF files (a Corpus per side: :mod:`acescore.run.inputs`) ->
    check them (every message and hint of the command line) -> build the two side
    databases (strict, or lenient: acescore.rules.robust) -> score the whole corpus as one
    shard, through the code of every document shard (acescore.run.shard_worker,
    acescore.run.assemble) -> Results

driven by one :class:`~acescore.model.options.Options`.  ``score``, ``view``, ``coref``,
``events``, ``crosscheck`` and :func:`acescore.score` all go through :func:`load`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

from acescore.model.errors import AceInputError
from acescore.model.options import Options
from acescore.model.params import Params
from acescore.model.problems import hint
from acescore.model.records import dataclass
from acescore.report.results import Results
from acescore.rules import database
from acescore.rules.corpus import corpus_problems, first_problem
from acescore.rules.coverage import (
    Coverage,
    coverage,
    require_common,
    require_documents,
    require_scored,
)
from acescore.rules.database import Side
from acescore.rules.robust import SkipReport, build_corpora
from acescore.run.assemble import assemble_whole
from acescore.run.inputs import (
    Corpus,
    PathLike,
    Paths,
    Progress,
    discover,
    docs_warnings,
    no_cyclic_gc,
    raise_if_not_apf,
    read_corpus,
    read_shard,
    restrict_corpus,
    spec_label,
)
from acescore.run.products import NONE, Products
from acescore.run.shard_worker import score_sides

__all__ = [
    "Corpus",
    "Loaded",
    "PathLike",
    "Paths",
    "Progress",
    "build",
    "build_reference",
    "build_system",
    "discover",
    "docs_warnings",
    "load",
    "no_cyclic_gc",
    "raise_if_not_apf",
    "read_corpus",
    "read_shard",
    "restrict_corpus",
    "score",
    "spec_label",
]


@dataclass
class Loaded:
    """Both sides read and built, ready to score."""

    options: Options
    ref_corpus: Corpus
    sys_corpus: Corpus
    ref: Side
    sys: Side
    warnings: list  # NIST WARNING messages so far, in order
    skipped: SkipReport | None = None  # lenient: what was skipped
    inputs: dict | None = None  # {"ref": ..., "sys": ...}: the inputs as given

    @property
    def coverage(self) -> Coverage:
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
        return sorted(set(self.ref_corpus.sources_in_order) | set(self.sys_corpus.sources_in_order))

    @property
    def dtd(self) -> str:
        names = {
            os.path.basename(f.doctype) if f.doctype else "none"
            for f in self.ref_corpus.files + self.sys_corpus.files
        }
        return ",".join(sorted(names)) or "none"


def build(ref: Corpus, sys: Corpus, options: Options) -> Loaded:
    """The two side databases (docs/rules/input.md §3): strict (the first broken input rule of
    :mod:`acescore.rules.corpus` is raised), or lenient (skipping what breaks a rule, on both sides
    where it cannot be isolated)."""
    params = options.parameter_set
    warnings: list = []
    if options.lenient:
        b = build_corpora(ref, sys, params, warnings)
        loaded = Loaded(
            options, Corpus(b.ref_files), Corpus(b.sys_files), b.ref, b.sys, warnings, b.report
        )
        require_scored(loaded.coverage, b.report)
        return loaded
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


def build_system(rside: Side, ref: Corpus, sys: Corpus, params: Params, warnings: list) -> Side:
    """The SYS side against a REF side built by :func:`build_reference`, which it does not
    change (strict: the first broken rule of the pair is raised)."""
    problem = first_problem(corpus_problems(ref.files, sys.files))
    if problem is not None:
        raise problem.error()
    return database.build_sys_side(rside, sys.files, params, warnings)


def load(
    ref: Paths | Corpus,
    sys: Paths | Corpus,
    options: Options,
    ref_list: bool = False,
    sys_list: bool = False,
    progress: Callable[[str, int], Progress] | None = None,
) -> Loaded:
    """Discover, read and build both sides.  ``ref``/``sys``: a path (file, directory or
    list file), a sequence of paths, or a :class:`Corpus` already read.
    ``progress(label, total)``, if given, returns a per-file callback (or None)."""
    warnings_out: list = []
    with no_cyclic_gc():
        corpora: list[Corpus] = []
        spec: Paths | Corpus
        for spec, is_list, label, side in (
            (ref, ref_list, "reading reference", "REF"),
            (sys, sys_list, "reading system output", "SYS"),
        ):
            if isinstance(spec, Corpus):
                corpora.append(spec)
                continue
            paths = discover(spec, is_list, options.lenient)
            try:
                with _hint_lenient():
                    corpus = read_corpus(
                        paths, options, progress(label, len(paths)) if progress else None
                    )
            except AceInputError as e:
                raise_if_not_apf(e, side, spec)
                raise
            if paths:
                require_documents(side, spec_label(spec), corpus.files)
            corpora.append(corpus)
        if options.docs is not None:
            corpora = [
                restrict_corpus(c, options, side, warnings_out)
                for c, side in ((corpora[0], "REF"), (corpora[1], "SYS"))
            ]
        inputs = {"ref": spec_label(ref), "sys": spec_label(sys)}
        # nothing in common: said before any problem of the input (it would not be scored)
        rdocids, sdocids = ([d.docid for f in c.files for d in f.documents] for c in corpora)
        require_common(rdocids, sdocids, inputs["ref"], inputs["sys"])
        with _hint_lenient():
            loaded = build(corpora[0], corpora[1], options)
        loaded.warnings[:0] = warnings_out
        loaded.inputs = inputs
        return loaded


@contextlib.contextmanager
def _hint_lenient() -> Iterator[None]:
    """An input error lenient mode would skip gets its hint (the command line shows it)."""
    try:
        yield
    except AceInputError as e:
        e.hint = hint(e)
        raise


def score(
    loaded: Loaded, keep_passes: bool = False, report: bool = True, products: Products = NONE
) -> Results:
    """Score ``loaded`` -- the whole corpus, read, checked and built by :func:`load` -- as
    one shard in this process, through the code of every document shard
    (:func:`acescore.run.shard_worker.score_sides`, :func:`acescore.run.assemble.
    assemble_whole`); its independent chains of passes over ``options.jobs`` processes
    (:func:`acescore.run.parallel.score_chains`).  ``keep_passes``: keep the PassResults
    too (``Results.passes``; the HTML view needs them), in one process; and with ``report``
    False no report section made of them (``Results.outputs`` empty: ``acescore compare``);
    ``products``: the code of the optional products the options ask for
    (:mod:`acescore.run.products`)."""
    options = loaded.options
    products.check(options)
    files = loaded.ref_corpus.files + loaded.sys_corpus.files
    with no_cyclic_gc():
        shard, run = score_sides(
            loaded.ref,
            loaded.sys,
            files,
            options,
            loaded.warnings,
            [len(loaded.warnings)],
            keep_passes=keep_passes,
            processes=1 if keep_passes else options.jobs,
            report=report or not keep_passes,
            products=products,
        )
        return assemble_whole(
            shard, options, loaded.inputs, loaded.skipped, run if keep_passes else None, products
        )
