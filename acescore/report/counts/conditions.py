"""Conditions of the detection tables (docs/rules/report.md §3): value lists, bins and the condition value of
a record.

A *record* of the detection tables is either document-level (an element in one document) or
element-level (an element, no document).  Its condition value is computed from the element
of the side it belongs to: REF for correct/error/miss records, SYS for false alarms (docs/rules/report.md §2.5).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import pairwise, repeat
from operator import attrgetter

from acescore.model.apf import Entity, Event, Relation, Timex2, Value
from acescore.model.params import (
    ENTITY_SUBTYPES,
    EVENT_SUBTYPES,
    LANGUAGES,
    RELATION_SUBTYPES,
    Params,
)
from acescore.model.records import dataclass

EPS = 1e-8
TINY = 1e-30
NEG_INF = float("-inf")

# ---- fixed value lists of the NIST tool
XDOC_BINS = ("1", ">1")
ENTROPY_BINS = ("<=0.3", "0.3-0.6", "0.6-1.0", ">1.0")
VALUE_BINS = ("<=0.2", "0.2-0.5", "0.5-1.0", "1-2", "2-4", ">4")
ENTITY_MENTION_COUNT_BINS = ("1", "2", "3-4", "5-8", ">8")
OTHER_MENTION_COUNT_BINS = ("1", ">1")
ARG_COUNT_BINS = ("0", "1", "2", "3", "4", ">4")
ARG_ERROR_BINS = ("0", "1", ">1")
STYLES = ("LITERAL", "METONYMIC")

MULTI = "(multi)"
NULL = "<null>"
UNDEF = "<undef>"

#: conditions for which the entity tables carry B3 headers (docs/rules/report.md §2.7)
B3_CONDITIONS = frozenset(
    {"TYPE", "SUBTYPE", "LEVEL", "CLASS", "SOURCE", "VALUE", "MENTION COUNT", "CROSS-DOC"}
)

#: the kind's attribute list without ID, sorted (docs/rules/report.md §4.2.1); defines `att_errs` (docs/rules/report.md §2.5)
ERROR_ATTRIBUTES = {
    "entity": ("CLASS", "LEVEL", "SUBTYPE", "TYPE"),
    "relation": ("MODALITY", "SUBTYPE", "TENSE", "TYPE"),  # TENSE: older versions only
    "event": ("GENERICITY", "MODALITY", "POLARITY", "SUBTYPE", "TENSE", "TYPE"),
    "value": ("SUBTYPE", "TYPE"),
    "timex2": (
        "ANCHOR_DIR",
        "ANCHOR_VAL",
        "COMMENT",
        "MOD",
        "NON_SPECIFIC",
        "SET",
        "SUBTYPE",
        "TYPE",
        "VAL",
    ),
}

#: the attributes that get a `Recognition statistics` block
RECOGNITION_ATTRIBUTES = {
    "entity": ("CLASS", "LEVEL", "SUBTYPE", "TYPE"),
    "relation": ("MODALITY", "SUBTYPE", "TYPE"),
    "event": ("GENERICITY", "MODALITY", "POLARITY", "SUBTYPE", "TENSE", "TYPE"),
    "value": ("SUBTYPE", "TYPE"),
    "timex2": (
        "ANCHOR_DIR",
        "ANCHOR_VAL",
        "COMMENT",
        "MOD",
        "NON_SPECIFIC",
        "SET",
        "SUBTYPE",
        "VAL",
    ),
}


def recognition_attributes(kind: str, params: Params) -> tuple:
    """The attributes with a `Recognition statistics` block (the older versions: relations
    have TENSE too, docs/rules/versions.md §2.6)."""
    if kind == "relation" and params.nist != "ace08":
        return ("MODALITY", "SUBTYPE", "TENSE", "TYPE")
    return RECOGNITION_ATTRIBUTES[kind]


def truthy(v) -> bool:
    """Perl truth of a scalar that is a string or None."""
    return v is not None and v != "" and v != "0"


def _upper(label: str) -> float:
    """The part of a bin label after its last character that is neither a digit nor '.'
    (the whole label if there is none), as a number."""
    i = len(label)
    while i > 0 and (label[i - 1].isdigit() or label[i - 1] == "."):
        i -= 1
    tail = label[i:]
    return float(tail) if tail else 0.0


_THRESHOLDS: dict = {}


def _thresholds(bins: tuple) -> tuple:
    """(upper bounds + 0.000005 of the bins before the first '>' bin, that bin or None)."""
    t = _THRESHOLDS.get(bins)
    if t is None:
        bounds = []
        last = None
        for b in bins:
            if b.startswith(">"):
                last = b
                break
            bounds.append(_upper(b) + 0.000005)
        if any(x >= y for x, y in pairwise(bounds)):
            raise ValueError(f"bins not increasing: {bins}")
        t = _THRESHOLDS[bins] = (bounds, last)
    return t


def bin_of(v: float | None, bins: tuple) -> str:
    """The bin of a number (docs/rules/report.md §3.3): the first bin that starts with '>' or whose upper
    bound + 0.000005 exceeds the number; ``None`` falls into the first bin."""
    if v is None:
        return bins[0]
    bounds, last = _thresholds(bins)
    i = bisect_right(bounds, v)
    if i < len(bounds):
        return bins[i]
    if last is None:
        raise RuntimeError("FATAL ERROR:  problem in value_type")
    return last


def sorted_subtypes(table: dict) -> tuple:
    """All subtypes of all types, de-duplicated, in code-point order."""
    return tuple(sorted({s for subs in table.values() for s in subs}))


# ---- the tables of each kind -----------------------------------------------------------


@dataclass(frozen=True)
class TableSpec:
    label1: str
    label2: str
    cond1: str
    values1: tuple
    cond2: str | None = None
    values2: tuple = ()


def table_specs(kind: str, params: Params, all_sources: Sequence[str]) -> list[TableSpec]:
    """The detection tables of a kind, in print order (docs/rules/report.md §3.1, §3.5;
    those of the older versions, docs/rules/versions.md §4.2)."""
    if params.nist != "ace08":
        return _old_table_specs(kind, params, all_sources)
    langs = tuple(LANGUAGES)
    sources = tuple(all_sources)
    if kind == "entity":
        et = tuple(params.entity_types)
        mt = tuple(params.mention_types)
        return [
            TableSpec("source", "language", "LANGUAGE", langs),
            TableSpec("entity", "type", "TYPE", et),
            TableSpec("entity", "level", "LEVEL", mt),
            TableSpec("entity", "value", "VALUE", VALUE_BINS),
            TableSpec("mention", "count", "MENTION COUNT", ENTITY_MENTION_COUNT_BINS),
            TableSpec("entity", "class", "CLASS", tuple(params.entity_classes)),
            TableSpec("document", "source", "SOURCE", sources),
            TableSpec("entity", "num-docs", "CROSS-DOC", XDOC_BINS),
            TableSpec("entity", "name-ent", "NAME_ENTROPY", ENTROPY_BINS),
            TableSpec("entity", "type", "TYPE", et, "LEVEL", mt),
            TableSpec("entity", "num-docs", "CROSS-DOC", XDOC_BINS, "TYPE", et),
            TableSpec("entity", "subtype", "SUBTYPE", sorted_subtypes(ENTITY_SUBTYPES), "TYPE", et),
        ]
    if kind in ("relation", "event"):
        if kind == "relation":
            types, mods, subs = (
                params.relation_types,
                params.relation_modalities,
                RELATION_SUBTYPES,
            )
        else:
            types, mods, subs = params.event_types, params.event_modalities, EVENT_SUBTYPES
        return [
            TableSpec("source", "language", "LANGUAGE", langs),
            TableSpec(kind, "type", "TYPE", tuple(types)),
            TableSpec("modality", "type", "MODALITY", tuple(mods)),
            TableSpec(kind, "value", "VALUE", VALUE_BINS),
            TableSpec("source", "type", "SOURCE", sources),
            TableSpec("argument", "errors", "ARGUMENT ERRORS", ARG_ERROR_BINS),
            TableSpec("num", "args", "NUM ARGUMENTS", ARG_COUNT_BINS),
            TableSpec(kind, "subtype", "SUBTYPE", sorted_subtypes(subs), "TYPE", tuple(types)),
        ]
    if kind in ("value", "timex2"):
        return [
            TableSpec("source", "language", "LANGUAGE", langs),
            TableSpec("source", "type", "SOURCE", sources),
        ]
    raise ValueError(f"unknown kind {kind!r}")


def _old_table_specs(kind: str, params: Params, all_sources: Sequence[str]) -> list[TableSpec]:
    """ace05's and ace07's tables (no LANGUAGE, CROSS-DOC, NAME_ENTROPY; ace07 adds NUM
    ARGUMENTS).  The tables of externally reconciled elements print nothing without
    external links, which acescore does not read."""
    sources = ("source", "type", "SOURCE", tuple(all_sources))
    if kind == "entity":
        et = tuple(params.entity_types)
        return [
            TableSpec("entity", "type", "TYPE", et),
            TableSpec("entity", "level", "LEVEL", tuple(params.mention_types)),
            TableSpec("entity", "value", "VALUE", VALUE_BINS),
            TableSpec("mention", "count", "MENTION COUNT", ENTITY_MENTION_COUNT_BINS),
            TableSpec("entity", "class", "CLASS", tuple(params.entity_classes)),
            TableSpec(*sources),
            TableSpec("entity", "subtype", "SUBTYPE", sorted_subtypes(ENTITY_SUBTYPES), "TYPE", et),
        ]
    if kind in ("relation", "event"):
        if kind == "relation":
            types, mods, subs = params.relation_types, params.relation_modalities, RELATION_SUBTYPES
        else:
            types, mods, subs = params.event_types, params.event_modalities, EVENT_SUBTYPES
        nargs = [TableSpec("num", "args", "NUM ARGUMENTS", ARG_COUNT_BINS)]
        return [
            TableSpec(kind, "type", "TYPE", tuple(types)),
            TableSpec("modality", "type", "MODALITY", tuple(mods)),
            TableSpec(*sources),
            TableSpec("argument", "errors", "ARGUMENT ERRORS", ARG_ERROR_BINS),
            *(nargs if params.nist == "ace07" else []),
            TableSpec(kind, "subtype", "SUBTYPE", sorted_subtypes(subs), "TYPE", tuple(types)),
        ]
    return [TableSpec(*sources)]


# ---- attributes of document elements --------------------------------------------------

#: per document element class: attribute name -> field, so that ``attributes()[a]`` is the
#: field's value (tests/test_report_fastpaths.py checks the match)
ATTRIBUTE_FIELDS: dict = {
    Entity: {"CLASS": "cls", "LEVEL": "level", "SUBTYPE": "subtype", "TYPE": "type"},
    # (TENSE: read by the older versions only; None, and not in attributes(), in ace08)
    Relation: {"MODALITY": "modality", "SUBTYPE": "subtype", "TENSE": "tense", "TYPE": "type"},
    Event: {
        "GENERICITY": "genericity",
        "MODALITY": "modality",
        "POLARITY": "polarity",
        "SUBTYPE": "subtype",
        "TENSE": "tense",
        "TYPE": "type",
    },
    Value: {"SUBTYPE": "subtype", "TYPE": "type"},
}
_TUPLE_GETTERS: dict = {}


def attribute_tuple_getter(cls, attributes: tuple):
    """A function: document element of class ``cls`` -> tuple of the values of its
    ``attributes()`` for ``attributes`` (None for a missing one)."""
    key = (cls, attributes)
    g = _TUPLE_GETTERS.get(key)
    if g is None:
        fields = ATTRIBUTE_FIELDS.get(cls)
        if fields is not None and attributes and all(a in fields for a in attributes):
            names = [fields[a] for a in attributes]
            if len(names) == 1:
                one = attrgetter(names[0])

                def g(el, _one=one):
                    return (_one(el),)
            else:
                g = attrgetter(*names)
        else:

            def g(el, _names=attributes):
                a = el.attributes()
                return tuple([a.get(x) for x in _names])

        _TUPLE_GETTERS[key] = g
    return g


def attribute_tuples(els: list, attributes: tuple):
    """The ``attributes`` values of every document element, as tuples (an iterable)."""
    attributes = tuple(attributes)
    classes = set(map(type, els))
    if len(classes) == 1:
        return map(attribute_tuple_getter(classes.pop(), attributes), els)
    getters = {c: attribute_tuple_getter(c, attributes) for c in classes}
    return [getters[type(x)](x) for x in els]


#: per document element class: a C-level getter of a hashable key on which the class's
#: ``attributes()`` depends entirely (tests/test_report_fastpaths.py checks it)
RAW_ATTRIBUTE_KEYS: dict = {
    cls: attrgetter(*sorted(fields.values())) for cls, fields in ATTRIBUTE_FIELDS.items()
}
RAW_ATTRIBUTE_KEYS[Timex2] = attrgetter("attrs")


def attribute_codes(rds: list, sds: list, attributes: tuple, cache: dict | None = None) -> tuple:
    """(REF codes, SYS codes, names): the ``attributes`` tuples of paired document elements
    encoded in one code space (equal tuples, equal codes).

    Elements of one known class are first encoded by their raw attribute key (the fields
    ``attributes()`` reads; kept in ``cache`` for further attribute lists), and the tuple
    is computed once per distinct key."""
    attributes = tuple(attributes)
    raw = None if cache is None else cache.get("raw")
    if raw is None:
        classes = set(map(type, rds)).union(map(type, sds))
        cls = classes.pop() if len(classes) == 1 else None
        key = RAW_ATTRIBUTE_KEYS.get(cls)
        if key is not None:
            codes_of = _Codes()
            get = codes_of.__getitem__
            rr = list(map(get, map(key, rds)))
            rs = list(map(get, map(key, sds)))
            # each code's first element (codes are numbered as first seen: a dict from the
            # codes read backwards keeps each code's first position)
            els = rds + sds
            first = dict(zip(reversed(rr + rs), range(len(els) - 1, -1, -1)))
            raw = (cls, rr, rs, [els[first[c]] for c in range(len(codes_of))])
        else:
            raw = (None,)
        if cache is not None:
            cache["raw"] = raw
    if raw[0] is not None:
        cls, rr, rs, reps = raw
        getter = attribute_tuple_getter(cls, attributes)
        tcodes, names = encode([getter(x) for x in reps])
        if not tcodes:
            return rr, rs, names
        take = tcodes.__getitem__
        return list(map(take, rr)), list(map(take, rs)), names
    codes_of = _Codes()
    get = codes_of.__getitem__
    rc = list(map(get, attribute_tuples(rds, attributes)))
    sc = list(map(get, attribute_tuples(sds, attributes)))
    return rc, sc, list(codes_of)


# ---- condition values ------------------------------------------------------------------


def bin_codes(values: Iterable[float | None], bins: tuple) -> list[int]:
    """:func:`bin_of` of many numbers at once: the position in ``bins`` of each number's bin
    (``values``: numbers or None).  The same comparisons as :func:`bin_of` (``bisect_right``
    on the same bounds); None becomes -inf, which falls into the first bin."""
    bounds, last = _thresholds(bins)
    if not isinstance(values, list):
        values = list(values)
    if None in values:
        values = [NEG_INF if v is None else v for v in values]
    codes = list(map(bisect_right, repeat(bounds), values))
    if last is None and codes and max(codes) >= len(bounds):
        raise RuntimeError("FATAL ERROR:  problem in value_type")
    return codes


class _Codes(dict):
    """value -> code, a new value getting the next code when first looked up."""

    __slots__ = ()

    def __missing__(self, key):
        code = self[key] = len(self)
        return code


def nn_label(v) -> str:
    """A condition value as the tool labels it (``<null>`` for none or empty)."""
    return NULL if v is None or v == "" else v


def encode(values: Iterable, base: list | None = None, nn: bool = False) -> tuple[list[int], list]:
    """(codes, names) with ``names[codes[i]] == values[i]`` (``nn_label(values[i])`` if ``nn``);
    ``names`` starts with ``base`` (whose codes stay valid).  ``values`` may be an iterator:
    each value is looked at once, as it is produced."""
    codes_of = _Codes()
    if base:
        for k in base:
            codes_of[k]
    codes = list(map(codes_of.__getitem__, values))
    names = list(codes_of)
    if nn and (None in codes_of or "" in codes_of):
        fixed = [nn_label(k) for k in names]
        pos: dict = {}
        for k in fixed:
            pos.setdefault(k, len(pos))
        remap = [pos[k] for k in fixed]
        codes = list(map(remap.__getitem__, codes))
        names = list(pos)
    return codes, names
