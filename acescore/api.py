"""The Python API: a thin façade over :func:`acescore.run.execute`, the entry point the
command line uses too.

>>> import acescore
>>> results = acescore.score("ref/", "sys/", params="local_2008", mentions=True)
>>> print(results.to_text())

Its defaults are the command line's: ``local_2008``, no mention-level tasks (``-m``), one
process, strict mode.  Every keyword is named: a misspelled one is a ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Sequence

from acescore.metrics import records as literature_records
from acescore.model.errors import python_errors
from acescore.model.limits import DEFAULT_MAX_PAIRS
from acescore.model.options import DEFAULT_MAX_BYTES, Options
from acescore.model.params import DEFAULT_PARAMS, Params, get_params
from acescore.reading.apf import read_apf as _read_apf
from acescore.report import listing_records
from acescore.report.results import Results
from acescore.run.entry import Reference, execute
from acescore.run.entry import prepare_reference as _prepare
from acescore.run.pipeline import Corpus, discover, read_corpus
from acescore.run.products import Products

#: the code of every optional product (a run makes those its options ask for)
PRODUCTS = Products(literature=literature_records, listings=listing_records)

__all__ = [
    "Corpus",
    "Options",
    "Reference",
    "Results",
    "discover",
    "options",
    "prepare_reference",
    "read_apf",
    "read_corpus",
    "score",
    "score_systems",
]


def options(
    params: str | Params | None = None,
    mentions: bool = False,
    *,
    nist: str = "ace08",
    version_options: dict | None = None,
    doc_scores: bool = False,
    all_mappings: bool = False,
    error_mappings: bool = False,
    summary: bool = False,
    check_duplicates: bool = False,
    lenient: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    jobs: int = 1,
    literature: bool = True,
    docs=None,
    max_pairs: int = DEFAULT_MAX_PAIRS,
) -> Options:
    """The :class:`~acescore.model.options.Options` of these keywords (``params``: a name or a
    preset :class:`~acescore.model.params.Params`; None: the version's default).  ``nist``:
    the NIST scorer reproduced (ace08, ace07, ace05); ``version_options``: the older
    versions' options by name (``weighting``, ``mapping``, ``nargs``, ``arg_scoring``,
    ``averaging``, ``arg_valuation``: ``-W -M -N -S -A -V``)."""
    if isinstance(params, Params):
        params = params.name
    return Options(
        params=params or "",
        nist=nist,
        **(version_options or {}),
        mentions=mentions,
        doc_scores=doc_scores,
        all_mappings=all_mappings,
        error_mappings=error_mappings,
        summary=summary,
        check_duplicates=check_duplicates,
        lenient=lenient,
        max_bytes=max_bytes,
        jobs=jobs,
        literature=literature,
        docs=tuple(docs) if docs is not None else None,
        max_pairs=max_pairs,
    )


@python_errors
def score(
    ref,
    sys,
    params: str | Params | None = None,
    mentions: bool = False,
    *,
    nist: str = "ace08",
    version_options: dict | None = None,
    doc_scores: bool = False,
    all_mappings: bool = False,
    error_mappings: bool = False,
    summary: bool = False,
    check_duplicates: bool = False,
    lenient: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    jobs: int = 1,
    literature: bool = True,
    keep_passes: bool = False,
    docs=None,
    max_pairs: int = DEFAULT_MAX_PAIRS,
) -> Results:
    """Score system output ``sys`` against reference ``ref``.

    ``ref``/``sys``: a path (APF file, directory or list file), a sequence of paths, or a
    :class:`~acescore.run.pipeline.Corpus` already read.  The other keywords are the command
    line's options (``--nist`` and the older versions' options, ``-P``, ``-m``, ``-d``, ``-a``, ``-e``, ``-s``, ``-c``, ``--lenient``,
    ``--max-file-size``, ``--jobs``, ``--max-pairs``); ``literature``: also compute the coreference and
    event-extraction metrics of the JSON output; ``keep_passes``: keep every pass's data
    (:attr:`Results.passes`; scored in one process); ``docs``: only these DOCIDs (``--docs``).
    """
    opts = options(
        params,
        mentions,
        nist=nist,
        version_options=version_options,
        doc_scores=doc_scores,
        all_mappings=all_mappings,
        error_mappings=error_mappings,
        summary=summary,
        check_duplicates=check_duplicates,
        lenient=lenient,
        max_bytes=max_bytes,
        jobs=jobs,
        literature=literature,
        docs=docs,
        max_pairs=max_pairs,
    )
    return execute(ref, sys, opts, keep_passes=keep_passes, products=PRODUCTS)


@python_errors
def prepare_reference(
    ref,
    params: str | Params = DEFAULT_PARAMS,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    lenient: bool = False,
) -> Reference:
    """Read and build the reference ``ref`` (paths as for :func:`score`, or a Corpus) once,
    to score several systems against (pass it to :func:`score` as ``ref``, with the same
    ``params`` and ``lenient``; scoring does not change it)."""
    return _prepare(ref, options(params, max_bytes=max_bytes, lenient=lenient))


@python_errors
def score_systems(
    ref, systems: Sequence, params: str | Params | None = None, mentions: bool = False, **kw
) -> list:
    """Score each of ``systems`` against ``ref`` (a :class:`Reference`, or paths read and
    built once here): one :class:`Results` per system, each those of :func:`score` for that
    system alone.  ``kw``: the keywords of :func:`score` (``lenient``: that of a prepared
    ``ref`` unless given)."""
    if isinstance(ref, Reference):
        kw.setdefault("lenient", ref.lenient)
    else:
        ref = prepare_reference(
            ref,
            params or DEFAULT_PARAMS,
            max_bytes=kw.get("max_bytes", DEFAULT_MAX_BYTES),
            lenient=kw.get("lenient", False),
        )
    return [score(ref, s, params or ref.params, mentions, **kw) for s in systems]


@python_errors
def read_apf(path, params: str | Params | None = None):
    """Read one APF file into the data model (:class:`acescore.model.apf.ApfFile`)."""
    if isinstance(params, str):
        params = get_params(params)
    return _read_apf(path, params)
