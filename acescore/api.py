"""The Python API: a thin façade over :mod:`acescore.run.pipeline`.

>>> import acescore
>>> results = acescore.score("ref/", "sys/", params="local_2008", mentions=True)
>>> print(results.to_text())

Its defaults are the command line's: ``local_2008``, no mention-level tasks (``-m``), one
process, strict mode.  Every keyword is named: a misspelled one is a ``TypeError``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, Union

from acescore.model.options import DEFAULT_MAX_BYTES, Options
from acescore.model.params import DEFAULT_PARAMS, Params
from acescore.run.pipeline import (Corpus, Loaded, build_reference, build_system, discover, load,
                               no_cyclic_gc, read_corpus, score as _score_loaded, spec_label)
from acescore.report.results import Results
from acescore.model.limits import DEFAULT_MAX_PAIRS

__all__ = ["score", "read_apf", "options", "Options", "Results", "Corpus", "discover",
           "read_corpus", "Reference", "prepare_reference", "score_systems"]


def options(params: Union[str, Params] = DEFAULT_PARAMS, mentions: bool = False, *,
            doc_scores: bool = False, all_mappings: bool = False, error_mappings: bool = False,
            summary: bool = False, check_duplicates: bool = False, lenient: bool = False,
            max_bytes: int = DEFAULT_MAX_BYTES, jobs: int = 1,
            literature: bool = True, docs=None,
            max_pairs: int = DEFAULT_MAX_PAIRS) -> Options:
    """The :class:`~acescore.model.options.Options` of these keywords (``params``: a name or a
    preset :class:`~acescore.model.params.Params`)."""
    if isinstance(params, Params):
        params = params.name
    return Options(params=params, mentions=mentions, doc_scores=doc_scores,
                   all_mappings=all_mappings, error_mappings=error_mappings, summary=summary,
                   check_duplicates=check_duplicates, lenient=lenient, max_bytes=max_bytes,
                   jobs=jobs, literature=literature,
                   docs=tuple(docs) if docs is not None else None, max_pairs=max_pairs)


def score(ref, sys, params: Union[str, Params] = DEFAULT_PARAMS, mentions: bool = False, *,
          doc_scores: bool = False, all_mappings: bool = False, error_mappings: bool = False,
          summary: bool = False, check_duplicates: bool = False, lenient: bool = False,
          max_bytes: int = DEFAULT_MAX_BYTES, jobs: int = 1, literature: bool = True,
          keep_passes: bool = False, docs=None,
          max_pairs: int = DEFAULT_MAX_PAIRS) -> Results:
    """Score system output ``sys`` against reference ``ref``.

    ``ref``/``sys``: a path (APF file, directory or list file), a sequence of paths, or a
    :class:`~acescore.run.pipeline.Corpus` already read.  The other keywords are the command
    line's options (``-P``, ``-m``, ``-d``, ``-a``, ``-e``, ``-s``, ``-c``, ``--lenient``,
    ``--max-file-size``, ``--jobs``, ``--max-pairs``); ``literature``: also compute the coreference and
    event-extraction metrics of the JSON output; ``keep_passes``: keep every pass's data
    (:attr:`Results.passes`; scored in one process); ``docs``: only these DOCIDs (``--docs``).
    """
    opts = options(params, mentions, doc_scores=doc_scores, all_mappings=all_mappings,
                   error_mappings=error_mappings, summary=summary,
                   check_duplicates=check_duplicates, lenient=lenient, max_bytes=max_bytes,
                   jobs=jobs, literature=literature, docs=docs, max_pairs=max_pairs)
    if isinstance(ref, Reference):
        return _score_loaded(_against(ref, sys, opts), keep_passes=keep_passes)
    if jobs > 1 and not keep_passes and not isinstance(ref, Corpus) \
            and not isinstance(sys, Corpus):
        from acescore.run.shards import score_paths     # documents in shards, where possible
        res = score_paths(discover(ref), discover(sys), opts,
                          {"ref": spec_label(ref), "sys": spec_label(sys)})
        if res is not None:
            return res
    return _score_loaded(load(ref, sys, opts), keep_passes=keep_passes)


@dataclass
class Reference:
    """A reference read and built once, to score several systems against
    (:func:`prepare_reference`; pass it to :func:`score` as ``ref``).  Scoring does not
    change it."""
    corpus: Corpus
    side: object            # acescore.rules.database.Side
    params: str             # the parameter set it was built for
    warnings: list          # the warnings of building it (each scoring run repeats them)
    label: str = ""         # the reference input as given (messages, JSON ``inputs``)


def prepare_reference(ref, params: Union[str, Params] = DEFAULT_PARAMS, *,
                      max_bytes: int = DEFAULT_MAX_BYTES) -> Reference:
    """Read and build the reference ``ref`` (paths as for :func:`score`, or a Corpus)."""
    opts = options(params, max_bytes=max_bytes)
    with no_cyclic_gc():
        rc = ref if isinstance(ref, Corpus) else read_corpus(discover(ref), opts)
        warnings: list = []
        return Reference(rc, build_reference(rc, opts.parameter_set, warnings), opts.params,
                         warnings, spec_label(ref))


def score_systems(ref, systems: Sequence, params: Union[str, Params, None] = None,
                  mentions: bool = False, **kw) -> list:
    """Score each of ``systems`` against ``ref`` (a :class:`Reference`, or paths read and
    built once here): one :class:`Results` per system, each those of :func:`score` for that
    system alone.  ``kw``: the keywords of :func:`score`."""
    if not isinstance(ref, Reference):
        ref = prepare_reference(ref, params or DEFAULT_PARAMS,
                                max_bytes=kw.get("max_bytes", DEFAULT_MAX_BYTES))
    return [score(ref, s, params or ref.params, mentions, **kw) for s in systems]


def _against(ref: Reference, sys, opts: Options):
    from acescore.model.errors import AceUsageError
    if opts.params != ref.params:
        raise AceUsageError(f"the reference was prepared for parameter set '{ref.params}',"
                            f" not '{opts.params}'")
    if opts.lenient:
        raise AceUsageError("--lenient skips documents on both sides: prepare the reference"
                            " with each system instead")
    if opts.docs is not None:
        raise AceUsageError("--docs restricts both sides: prepare the reference with it")
    with no_cyclic_gc():
        sc = sys if isinstance(sys, Corpus) else read_corpus(discover(sys), opts)
        warnings = list(ref.warnings)
        sside = build_system(ref.side, ref.corpus, sc, opts.parameter_set, warnings)
        return Loaded(opts, ref.corpus, sc, ref.side, sside, warnings,
                      inputs={"ref": ref.label, "sys": spec_label(sys)})


def read_apf(path, params: Union[str, Params, None] = None):
    """Read one APF file into the data model (:class:`acescore.model.apf.ApfFile`)."""
    from acescore.model.params import get_params
    from acescore.reading.apf import read_apf as _read
    if isinstance(params, str):
        params = get_params(params)
    return _read(path, params)
