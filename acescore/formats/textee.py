"""TextEE's JSON lines (one window a line), as ``data/preprocessing/ace05/process_ace05_en.py``
writes them (ej0cl6/TextEE): ``doc_id``, ``wnd_id``, ``text``, ``lang``, ``tokens``,
``entity_mentions`` (``id`` = mention ID, ``text``, ``entity_type``, ``entity_subtype``,
``mention_type``, ``start``, ``end``: token indices in the window, ``end`` exclusive),
``event_mentions`` (``id``, ``event_type`` TYPE:SUBTYPE, ``trigger``, ``arguments`` with
``entity_id``, ``role``, ``text``, ``start``, ``end``) and ``relation_mentions`` (``id``,
``relation_type``, ``relation_subtype``, ``arguments`` as for events, roles Arg-1/Arg-2).
The entity of a mention is taken from its ID (``ENTITY-n``: the part before the last
``-``), as DyGIE++ and OneIE do.

Reading also takes TextEE's E2E predictions as its trainers return them (a line per window:
``doc_id``, ``wnd_id``, ``events``: ``trigger`` ``[start, end, type]``, ``arguments``
``[[start, end, role], ...]``); they have no tokens: ``tokens_from`` names the TextEE data
file of the same windows.  Their arguments are spans, not mentions (see ``acescore import
--argument-type``).
"""

from __future__ import annotations

from acescore.formats.windowed import read_windows, window_tokens, write_windows
from acescore.reading.safe_read import read_text

KEYS = {"window": "wnd_id", "text": "text", "arg_offsets": True, "name": "TextEE"}


def write(tokdocs: list, report=None) -> str:
    return write_windows(tokdocs, KEYS)


def read(text: str, path: str, tokens_from: str | None = None) -> list:
    tokens = None
    if tokens_from is not None:
        tokens = window_tokens(read_text(tokens_from, "token file"), tokens_from, KEYS)
    return read_windows(text, path, KEYS, tokens)
