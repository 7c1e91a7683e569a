"""Fast paths of the APF reader (:mod:`acescore.reading.apf`): tables of the legal values
and helpers that read a well-formed element with as few lxml and Python calls as possible.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from acescore.model.apf import Locator
from acescore.model.params import (
    ENTITY_CLASSES,
    ENTITY_SUBTYPES,
    EVENT_ATTRIBUTES,
    EVENT_ROLES,
    EVENT_SUBTYPES,
    MENTION_TYPES,
    RELATION_MODALITIES,
    RELATION_ROLES,
    RELATION_SUBTYPES,
    VALUE_SUBTYPES,
)

# ---- fast paths ---------------------------------------------------------------------------------
# Almost every element of a real APF file is well formed.  The reader therefore first tries a
# fast path that reads it with as few lxml and Python calls as possible: attribute values are
# taken as they are and looked up in the tables below (a hit is legal, needs no stripping, and
# gives the one shared copy of the string), locators are read by _fast_text_locator.  Whenever
# something is unusual -- a missing, padded, illegal or case-variant attribute, a locator that
# is not a plain charseq -- the fast path gives up (returns None) *before* anything could
# differ, and the checked code (`demand`, `optional`, `locator`, ...) reads the same
# attribute/mention again: it raises exactly the NIST error or accepts the oddity.  A fast path
# raises nothing of its own (mention arguments, read by the shared `_arguments`, come after
# everything else a mention's fast path checks), so results, errors and their order are those
# of the checked code.


def _canonical(values: Any) -> dict:
    """Legal value -> the same string (one shared copy for all the records)."""
    return {v: v for v in values}


_ENTITY_TYPES = _canonical(ENTITY_SUBTYPES)
_ENTITY_SUBTYPES = {t: _canonical(s) for t, s in ENTITY_SUBTYPES.items()}
_ENTITY_CLASSES = _canonical(ENTITY_CLASSES)
_MENTION_TYPES = _canonical(MENTION_TYPES)
_TRUE_FALSE = _canonical(("TRUE", "FALSE"))
_VALUE_TYPES = _canonical(VALUE_SUBTYPES)
_VALUE_SUBTYPES = {t: _canonical(s) for t, s in VALUE_SUBTYPES.items()}
_RELATION_TYPES = _canonical(RELATION_SUBTYPES)
_RELATION_SUBTYPES = {t: _canonical(s) for t, s in RELATION_SUBTYPES.items()}
_RELATION_MODALITIES = _canonical(RELATION_MODALITIES)
_RELATION_ROLES = _canonical(RELATION_ROLES)
_EVENT_TYPES = _canonical(EVENT_SUBTYPES)
_EVENT_SUBTYPES = {t: _canonical(s) for t, s in EVENT_SUBTYPES.items()}
_EVENT_ATTRIBUTES = {a: _canonical(v) for a, v in EVENT_ATTRIBUTES.items()}
_EVENT_ROLES = _canonical(EVENT_ROLES)
# relation roles dropped unless the parameters score relation times
_TIME_ROLES = frozenset(r for r in RELATION_ROLES if "time" in r.lower())


def _upper_names(node: Any) -> bool:
    """True when every attribute name of ``node`` is upper case, so that an attribute that
    ``node.get`` does not find is really absent (``_Reader._get`` finds no case variant)."""
    names = "".join(node.keys())
    return names.upper() == names


def _children(node: Any, *tags: str) -> Iterable[list]:
    """For each of ``tags``, the children of ``node`` with that tag in document order (what
    ``node.findall(tag)`` gives), collected in one pass over the children."""
    groups: dict = {}
    for t in tags:
        groups[t] = []
    for c in node:
        g = groups.get(c.tag)
        if g is not None:
            g.append(c)
    return groups.values()


def _fast_text_locator(container: Any) -> Locator | None:
    """The locator of a text container whose first child is a ``charseq`` with plain digit
    START <= END (what the checked :meth:`_Reader.locator` gives); None otherwise."""
    if not len(container):
        return None
    seq = container[0]
    if seq.tag != "charseq":
        return None
    s, e = seq.get("START"), seq.get("END")
    if (
        s is None
        or e is None
        or not (
            s.isascii()
            and s.isdigit()
            and len(s) < 16
            and e.isascii()
            and e.isdigit()
            and len(e) < 16
        )
    ):
        return None
    start, end = int(s), int(e)
    if end < start:
        return None
    raw = seq.text or ""
    return Locator("text", start, end, raw)
