"""Metrics from the literature, next to the NIST tool's scores.

* :mod:`acescore.metrics.coref` -- entity coreference: MUC, B-cubed, CEAF-m, CEAF-e, BLANC
  (CoNLL-2012 reference scorer v8 definitions) on REF/SYS mentions aligned by head overlap.
* :mod:`acescore.metrics.events` -- event extraction as ACE 2005 papers report it: trigger
  and argument identification and classification.

:func:`literature_scores` gives both as one JSON-ready dict (the ``literature`` section of
the score JSON).
"""

from __future__ import annotations

from acescore.metrics.coref import bcubed, blanc, ceaf_e, ceaf_m, coref_scores, corpus_scores, muc
from acescore.metrics.events import event_scores

__all__ = [
    "bcubed",
    "blanc",
    "ceaf_e",
    "ceaf_m",
    "coref_scores",
    "corpus_scores",
    "event_scores",
    "literature_scores",
    "muc",
]


def literature_scores(
    ref_side,
    sys_side,
    params=None,
    trigger_match: str = "exact",
    arg_match: str = "head",
    arg_scope: str = "subtype",
) -> dict:
    """``{"coref": coref_scores(...), "events": event_scores(...)}``."""
    return {
        "coref": coref_scores(ref_side, sys_side, params),
        "events": event_scores(
            ref_side,
            sys_side,
            trigger_match=trigger_match,
            arg_match=arg_match,
            arg_scope=arg_scope,
        ),
    }
