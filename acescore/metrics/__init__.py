"""Metrics from the literature, next to the NIST tool's scores.

* :mod:`acescore.metrics.coref` -- entity coreference: MUC, B-cubed, CEAF-m, CEAF-e, BLANC
  (CoNLL-2012 reference scorer v8 definitions) on REF/SYS mentions aligned by head overlap.
* :mod:`acescore.metrics.events` -- event extraction as ACE 2005 papers report it: trigger
  and argument identification and classification.

:func:`literature_scores` gives both as one JSON-ready dict (the ``literature`` section of
the score JSON).
"""
from __future__ import annotations

from typing import Optional

from acescore.metrics.coref import (bcubed, blanc, ceaf_e, ceaf_m, coref_scores,
                                    corpus_scores, muc)
from acescore.metrics.events import event_scores

__all__ = ["muc", "bcubed", "ceaf_m", "ceaf_e", "blanc", "corpus_scores", "coref_scores",
           "event_scores", "literature_scores", "load_sides"]


def literature_scores(ref_side, sys_side, params=None, trigger_match: str = "exact",
                      arg_match: str = "head", arg_scope: str = "subtype") -> dict:
    """``{"coref": coref_scores(...), "events": event_scores(...)}``."""
    return {"coref": coref_scores(ref_side, sys_side, params),
            "events": event_scores(ref_side, sys_side, trigger_match=trigger_match,
                                   arg_match=arg_match, arg_scope=arg_scope)}


def load_sides(ref, sys, params="local_2008", max_bytes: Optional[int] = None,
               warnings: Optional[list] = None, files: Optional[list] = None):
    """Read REF and SYS (paths as :func:`acescore.api.discover_paths` takes them) into the two
    side databases; returns ``(ref_side, sys_side, params)``.  ``files``, if given, receives
    the APF files read (for the signature)."""
    from acescore import api
    from acescore.params import get_params
    from acescore.reading.apf import DEFAULT_MAX_BYTES
    if isinstance(params, str):
        if params not in api.PARAMETER_SETS:
            from acescore.errors import AceUsageError
            raise AceUsageError(f"unknown parameter set '{params}'")
        params = get_params(params)
    p = params
    mb = max_bytes or DEFAULT_MAX_BYTES
    rc = api.read_corpus(api.discover_paths(ref), p, mb)
    sc = api.read_corpus(api.discover_paths(sys), p, mb)
    if files is not None:
        files.extend(rc.files + sc.files)
    w = [] if warnings is None else warnings
    rside, sside = api.build_sides(rc, sc, p, w)
    return rside, sside, p
