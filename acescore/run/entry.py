"""The one entry point of a scoring run: :func:`execute`, which the command line
(``score``, ``view``), the Python API (:func:`acescore.api.score`) and the HTML view all
call, and :func:`plan_run`, the one place that decides whether a run goes in document
shards.

A run is the whole corpus in this process (:func:`acescore.run.pipeline.load`, which
says every problem of the input, then :func:`acescore.run.pipeline.score`), or -- where
:func:`plan_run` finds shards -- the documents in shards, each read, built and scored in a
forked process (:mod:`acescore.run.shards`) and put together by
:func:`acescore.run.assemble.assemble`.  Whenever the shards cannot be used (a worker
failed, their reports do not bear out the plan) the run goes in this process: the report
is the same, byte for byte, either way.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import TypeAlias, TypeGuard

from acescore.model.errors import AceInputError, AceUsageError
from acescore.model.options import Options
from acescore.model.records import dataclass
from acescore.report.results import Results
from acescore.rules.database import Side
from acescore.run.parallel import fork_available
from acescore.run.pipeline import (
    Corpus,
    Loaded,
    Paths,
    Progress,
    build,
    build_reference,
    build_system,
    discover,
    load,
    no_cyclic_gc,
    read_corpus,
    score,
    spec_label,
)
from acescore.run.products import NONE, Products
from acescore.run.shard_worker import ShardExtra
from acescore.run.shards import run_shards, shard_plans


@dataclass
class Reference:
    """A reference read and built once, to score several systems against
    (:func:`prepare_reference`; pass it to :func:`execute` as ``ref``).  Scoring does not
    change it."""

    corpus: Corpus
    side: Side | None  # None when lenient: built again with each system's skips
    params: str  # the parameter set it was built for
    warnings: list  # the warnings of building it (each scoring run repeats them)
    label: str = ""  # the reference input as given (messages, JSON ``inputs``)
    lenient: bool = False  # read (and built with each system) in lenient mode


#: an input of a run: paths, a Corpus read already or (REF only) a prepared Reference
Input: TypeAlias = "Paths | Corpus | Reference"


def prepare_reference(ref: Paths | Corpus, options: Options) -> Reference:
    """Read and build the reference ``ref`` (a path, list file, sequence of paths or a
    :class:`~acescore.run.pipeline.Corpus`) for ``options``.  Lenient: read only (lenient
    mode may skip other reference documents for each system: the REF side is built with
    each of them)."""
    with no_cyclic_gc():
        rc = (
            ref
            if isinstance(ref, Corpus)
            else read_corpus(discover(ref, lenient=options.lenient), options)
        )
        warnings: list = []
        side = None if options.lenient else build_reference(rc, options.parameter_set, warnings)
        return Reference(rc, side, options.params, warnings, spec_label(ref), options.lenient)


def against(ref: Reference, sys: Paths | Corpus, options: Options) -> Loaded:
    """System output ``sys`` read and built against the prepared reference ``ref``."""
    if options.params != ref.params:
        raise AceUsageError(
            f"the reference was prepared for parameter set '{ref.params}', not '{options.params}'"
        )
    if options.lenient != ref.lenient:
        raise AceUsageError(
            f"the reference was prepared with lenient={ref.lenient}, the run"
            f" asks for lenient={options.lenient}: prepare it with the same"
        )
    if options.docs is not None:
        raise AceUsageError(
            "docs= restricts both sides: pass the reference itself (its"
            " paths or Corpus) with docs=, not a prepared reference"
        )
    inputs = {"ref": ref.label, "sys": spec_label(sys)}
    with no_cyclic_gc():
        sc = (
            sys
            if isinstance(sys, Corpus)
            else read_corpus(discover(sys, lenient=options.lenient), options)
        )
        if ref.side is None:  # lenient: both sides built with this system's skips
            loaded = build(ref.corpus, sc, options)
            loaded.inputs = inputs
            return loaded
        warnings = list(ref.warnings)
        sside = build_system(ref.side, ref.corpus, sc, options.parameter_set, warnings)
        return Loaded(options, ref.corpus, sc, ref.side, sside, warnings, inputs=inputs)


def _paths(spec: Input) -> TypeGuard[Paths]:
    """Whether an input is given as paths (not read already)."""
    return not isinstance(spec, (Corpus, Reference))


#: REF bytes below which a run forks no worker process at all (no shards, no second chain
#: of passes, no rendering process): ``--jobs`` is 1 for it.  Forking the shards and the
#: rendering processes cost 110-150 ms of CPU more than one process at 5 to 40 real-sized
#: documents (~62 KB of REF each, ~43 ms of CPU each to score on the loaded machine), and
#: two processes can save at most half of the scoring -- with the second CPU free; with it
#: busy they were slower at every size up to 40 documents (bench/README.md, "Small runs").
#: Below 512 KB (about 8 real-sized documents, the ten documents of the golden corpus
#: ``small``) they cannot pay.
SMALL_RUN_BYTES = 512 << 10


def small_run(paths: Sequence[str]) -> bool:
    """Whether the files ``paths`` (a run's REF files) are too small for worker processes
    to pay (:data:`SMALL_RUN_BYTES`)."""
    total = 0
    for p in paths:
        with contextlib.suppress(OSError):
            total += os.path.getsize(p)
        if total >= SMALL_RUN_BYTES:
            return False
    return True


def plan_run(
    ref: Input,
    sys: Paths | Corpus,
    options: Options,
    *,
    ref_list: bool = False,
    sys_list: bool = False,
    keep_passes: bool = False,
    extra: ShardExtra | None = None,
) -> tuple[list | None, Options]:
    """The document shards of a run (``[(REF paths, SYS paths), ...]``, at least two), or
    None: the whole corpus in this process; and the options to run it with.  The one place
    where that is decided, for every ``--jobs`` value: a corpus of less than
    :data:`SMALL_RUN_BYTES` of REF files goes in this process alone (``jobs`` 1: no worker
    process of any kind); shards need forked processes, inputs given as paths (a corpus
    read already is scored where it is), a corpus of more than one shard
    (:func:`acescore.run.shards.shard_plans`: with ``--jobs 1`` a corpus of more than
    ``SHARD_REF_BYTES`` of REF files is scored shard after shard, one forked process at a
    time: less CPU and memory than one process holding it all), and no passes kept
    (``keep_passes``; the HTML view's ``extra`` keeps what its pages need in each shard,
    and its ``extra.start(plans)`` may refuse the plan)."""
    if not fork_available() or not (_paths(ref) and _paths(sys)):
        return None, options
    try:
        rpaths = discover(ref, ref_list, options.lenient)
        spaths = discover(sys, sys_list, options.lenient)
    except AceInputError:  # said by the run in this process, as it reads
        return None, options
    if small_run(rpaths):
        return None, options.but(jobs=1) if options.jobs > 1 else options
    if keep_passes and extra is None:
        return None, options
    plans = shard_plans(rpaths, spaths, options)
    if plans is None or (extra is not None and not extra.start(plans)):
        return None, options
    return plans, options


def execute(
    ref: Input,
    sys: Paths | Corpus,
    options: Options,
    *,
    ref_list: bool = False,
    sys_list: bool = False,
    progress: Callable[[str, int], Progress] | None = None,
    keep_passes: bool = False,
    extra: ShardExtra | None = None,
    report: bool = True,
    products: Products = NONE,
) -> Results:
    """Score system output ``sys`` against reference ``ref`` with ``options``: the
    :class:`~acescore.report.results.Results` of the run.

    ``ref``/``sys``: each a path (APF file, directory, or list file: ``ref_list`` /
    ``sys_list`` say it is one whatever it looks like), a sequence of paths, or a
    :class:`~acescore.run.pipeline.Corpus` already read; ``ref`` may also be a
    :class:`Reference` prepared once for several systems.  ``progress(label, total)``:
    per-file progress while this process reads (see :func:`acescore.run.pipeline.load`);
    ``keep_passes``: keep every pass's data (``Results.passes``; scored in this process),
    and with ``report`` False make nothing of the report from them (``Results.outputs``
    empty: ``acescore compare`` reads the passes alone);
    ``extra``: what the HTML view does in each shard (:mod:`acescore.view.shards`;
    ``Results.shards`` says whether the run went in shards); ``products``: the code of the
    optional products the options ask for -- the literature metrics, the listings
    (:mod:`acescore.run.products`; a usage error if missing)."""
    v = options.version
    if not v.implemented:
        raise AceUsageError(
            f"--nist {v.name} ({v.script}) is not reproduced yet: its options and parameter"
            " sets are known, its report is not (docs/rules/versions.md); use --nist ace08"
        )
    products.check(options)
    if isinstance(ref, Reference):
        return score(against(ref, sys, options), keep_passes, report, products)
    plans, options = plan_run(
        ref,
        sys,
        options,
        ref_list=ref_list,
        sys_list=sys_list,
        keep_passes=keep_passes,
        extra=extra,
    )
    if plans is not None:
        results = run_shards(
            plans, options, {"ref": spec_label(ref), "sys": spec_label(sys)}, extra, products
        )
        if results is not None:
            return results
    loaded = load(ref, sys, options, ref_list, sys_list, progress)
    return score(loaded, keep_passes, report, products)


__all__ = [
    "SMALL_RUN_BYTES",
    "Reference",
    "against",
    "execute",
    "plan_run",
    "prepare_reference",
    "small_run",
]
