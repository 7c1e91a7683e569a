"""OneIE's JSON lines (one sentence a line), as its ``process_ace.py`` writes them and its
``predict.py`` adds a ``graph`` (OneIE; read in GAIA-IE/oneie ``graph.py`` ``to_dict`` and
jeremytanjianle/event-extraction-oneie ``preprocessing/process_ace.py``).

A line: ``doc_id``, ``sent_id``, ``tokens``, ``entity_mentions`` (``id``, ``entity_id``,
``text``, ``entity_type``, ``entity_subtype``, ``mention_type``, ``start``, ``end``: token
indices in the sentence, ``end`` exclusive), ``relation_mentions`` (``id``,
``relation_type``, ``relation_subtype``, ``arguments``: ``entity_id`` = a mention ``id``,
``role`` Arg-1/Arg-2), ``event_mentions`` (``id``, ``event_type`` TYPE:SUBTYPE, ``trigger``
``{start, end, text}``, ``arguments``: ``entity_id``, ``role``).  Values have mention_type
``VALUE`` and their value TYPE as entity_type, timex2 mentions ``TIME``/``TIME``.
Reading, a line with ``graph`` is taken from it instead: ``entities`` ``[start, end, type,
mention type, score]``, ``triggers`` ``[start, end, type, score]``, ``relations`` ``[i, j,
type, score(, subtype)]``, ``roles`` ``[trigger i, entity j, role, score]``.
"""

from __future__ import annotations

from acescore.formats.windowed import read_windows, write_windows

KEYS = {"window": "sent_id", "text": "sentence", "arg_offsets": False, "name": "OneIE"}


def write(tokdocs: list, report=None) -> str:
    return write_windows(tokdocs, KEYS)


def read(text: str, path: str) -> list:
    return read_windows(text, path, KEYS)
