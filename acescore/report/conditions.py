"""Conditions of the detection tables (04 §3): value lists, bins and the condition value of
a record.

A *record* of the detection tables is either document-level (an element in one document) or
element-level (an element, no document).  Its condition value is computed from the element
of the side it belongs to: REF for correct/error/miss records, SYS for false alarms (04 §2.5).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import Optional, Sequence
import weakref

import numpy as np

from acescore.model import Entity, Event, Relation, Timex2, Value
from acescore.params import (ENTITY_SUBTYPES, EVENT_SUBTYPES, LANGUAGES, RELATION_SUBTYPES,
                             Params)

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

#: conditions for which the entity tables carry B3 headers (04 §2.7)
B3_CONDITIONS = frozenset({"TYPE", "SUBTYPE", "LEVEL", "CLASS", "SOURCE", "VALUE",
                           "MENTION COUNT", "CROSS-DOC"})

#: the kind's attribute list without ID, sorted (04 §4.2.1); defines `att_errs` (04 §2.5)
ERROR_ATTRIBUTES = {
    "entity": ("CLASS", "LEVEL", "SUBTYPE", "TYPE"),
    "relation": ("MODALITY", "SUBTYPE", "TYPE"),
    "event": ("GENERICITY", "MODALITY", "POLARITY", "SUBTYPE", "TENSE", "TYPE"),
    "value": ("SUBTYPE", "TYPE"),
    "timex2": ("ANCHOR_DIR", "ANCHOR_VAL", "COMMENT", "MOD", "NON_SPECIFIC", "SET", "SUBTYPE",
               "TYPE", "VAL"),
}

#: the attributes that get a `Recognition statistics` block
RECOGNITION_ATTRIBUTES = {
    "entity": ("CLASS", "LEVEL", "SUBTYPE", "TYPE"),
    "relation": ("MODALITY", "SUBTYPE", "TYPE"),
    "event": ("GENERICITY", "MODALITY", "POLARITY", "SUBTYPE", "TENSE", "TYPE"),
    "value": ("SUBTYPE", "TYPE"),
    "timex2": ("ANCHOR_DIR", "ANCHOR_VAL", "COMMENT", "MOD", "NON_SPECIFIC", "SET", "SUBTYPE",
               "VAL"),
}


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
        if any(x >= y for x, y in zip(bounds, bounds[1:])):
            raise ValueError(f"bins not increasing: {bins}")
        t = _THRESHOLDS[bins] = (bounds, last)
    return t


def bin_of(v: Optional[float], bins: tuple) -> str:
    """The bin of a number (04 §3.3): the first bin that starts with '>' or whose upper
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
    cond2: Optional[str] = None
    values2: tuple = ()


def table_specs(kind: str, params: Params, all_sources: Sequence[str]) -> list[TableSpec]:
    """The detection tables of a kind, in print order (04 §3.1, §3.5)."""
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
            TableSpec("entity", "subtype", "SUBTYPE", sorted_subtypes(ENTITY_SUBTYPES),
                      "TYPE", et),
        ]
    if kind in ("relation", "event"):
        if kind == "relation":
            types, mods, subs = (params.relation_types, params.relation_modalities,
                                 RELATION_SUBTYPES)
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


# ---- attributes of document elements --------------------------------------------------

#: per document element class: attribute name -> field, so that ``attributes()[a]`` is the
#: field's value (tests/test_report_fastpaths.py checks the match)
ATTRIBUTE_FIELDS: dict = {
    Entity: {"CLASS": "cls", "LEVEL": "level", "SUBTYPE": "subtype", "TYPE": "type"},
    Relation: {"MODALITY": "modality", "SUBTYPE": "subtype", "TYPE": "type"},
    Event: {"GENERICITY": "genericity", "MODALITY": "modality", "POLARITY": "polarity",
            "SUBTYPE": "subtype", "TENSE": "tense", "TYPE": "type"},
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
RAW_ATTRIBUTE_KEYS: dict = {cls: attrgetter(*sorted(fields.values()))
                            for cls, fields in ATTRIBUTE_FIELDS.items()}
RAW_ATTRIBUTE_KEYS[Timex2] = attrgetter("attrs")


def attribute_codes(rds: list, sds: list, attributes: tuple, cache: Optional[dict] = None
                    ) -> tuple:
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
            rr = np.fromiter(map(get, map(key, rds)), dtype=np.intp, count=len(rds))
            rs = np.fromiter(map(get, map(key, sds)), dtype=np.intp, count=len(sds))
            both = np.concatenate((rr, rs))
            first = np.zeros(len(codes_of), dtype=np.intp)
            first[both[::-1]] = np.arange(len(both) - 1, -1, -1)
            els = rds + sds
            raw = (cls, rr, rs, [els[i] for i in first.tolist()])
        else:
            raw = (None,)
        if cache is not None:
            cache["raw"] = raw
    if raw[0] is not None:
        cls, rr, rs, reps = raw
        getter = attribute_tuple_getter(cls, attributes)
        tcodes, names = encode([getter(x) for x in reps])
        if not len(tcodes):
            return rr, rs, names
        return tcodes[rr], tcodes[rs], names
    codes_of = _Codes()
    get = codes_of.__getitem__
    rc = np.fromiter(map(get, attribute_tuples(rds, attributes)), dtype=np.intp,
                     count=len(rds))
    sc = np.fromiter(map(get, attribute_tuples(sds, attributes)), dtype=np.intp,
                     count=len(sds))
    return rc, sc, list(codes_of)


def count_codes(codes: np.ndarray) -> tuple:
    """(distinct codes ascending, how often each occurs) of non-negative codes."""
    if not len(codes):
        return codes, codes
    top = int(codes.max()) + 1
    if top <= 4 * len(codes) + 1024:
        counts = np.bincount(codes, minlength=top)
        present = np.flatnonzero(counts)
        return present, counts[present]
    s = np.sort(codes)
    starts = np.flatnonzero(np.concatenate(([True], s[1:] != s[:-1])))
    return s[starts], np.diff(np.append(starts, len(s)))


# ---- condition values ------------------------------------------------------------------

_BOUNDS: dict = {}


def _bounds_array(bins: tuple) -> np.ndarray:
    a = _BOUNDS.get(bins)
    if a is None:
        a = _BOUNDS[bins] = np.array(_thresholds(bins)[0], dtype=np.float64)
    return a


def bin_codes(values, bins: tuple) -> np.ndarray:
    """:func:`bin_of` of many numbers at once: the position in ``bins`` of each number's bin
    (``values``: a sequence of numbers or None, or an array of numbers).

    The same comparisons as :func:`bin_of`: ``searchsorted(..., side="right")`` is
    ``bisect_right`` on the same bounds; None becomes -inf, which falls into the first bin."""
    bounds, last = _thresholds(bins)
    if isinstance(values, np.ndarray):
        arr = values.astype(np.float64, copy=False)
    else:
        arr = np.array([NEG_INF if v is None else v for v in values], dtype=np.float64)
    codes = np.searchsorted(_bounds_array(bins), arr, side="right").astype(np.intp, copy=False)
    if last is None and len(codes) and int(codes.max()) >= len(bounds):
        raise RuntimeError("FATAL ERROR:  problem in value_type")
    return codes


class _Codes(dict):
    """value -> code, a new value getting the next code when first looked up."""
    __slots__ = ()

    def __missing__(self, key):
        code = self[key] = len(self)
        return code


def encode(values, base: Optional[list] = None, nn: bool = False,
           count: Optional[int] = None) -> tuple:
    """(codes, names) with ``names[codes[i]] == values[i]`` (``_nn(values[i])`` if ``nn``);
    ``names`` starts with ``base`` (whose codes stay valid).  ``values`` may be an iterator
    (then ``count`` is its length): each value is looked at once, as it is produced."""
    codes_of = _Codes()
    if base:
        for k in base:
            codes_of[k]
    if count is None:
        count = len(values)
    codes = np.fromiter(map(codes_of.__getitem__, values), dtype=np.intp, count=count)
    names = list(codes_of)
    if nn and (None in codes_of or "" in codes_of):
        fixed = [_nn(k) for k in names]
        pos: dict = {}
        for k in fixed:
            pos.setdefault(k, len(pos))
        remap = np.array([pos[k] for k in fixed], dtype=np.intp)
        codes = remap[codes]
        names = list(pos)
    return codes, names


_ATTRIBUTE_CONDITIONS = frozenset({"TYPE", "SUBTYPE", "CLASS", "MODALITY"})
#: the attribute conditions of the detection tables of a kind (computed together)
_ATTRIBUTE_GROUPS = {"entity": ("TYPE", "SUBTYPE", "CLASS"),
                     "relation": ("TYPE", "SUBTYPE", "MODALITY"),
                     "event": ("TYPE", "SUBTYPE", "MODALITY")}


def _attribute_row(names: tuple):
    """attrs dict -> tuple of its values for ``names`` (None if missing)."""
    if len(names) == 3:
        a0, a1, a2 = names

        def row(attrs):
            get = attrs.get
            return (get(a0), get(a1), get(a2))
        return row
    return lambda attrs: tuple([attrs.get(a) for a in names])


_DOCS = attrgetter("docs")
_ATTRS = attrgetter("attrs")
_KIND = attrgetter("kind")
_MENTIONS = attrgetter("mentions")
_NAME_ENTROPY = attrgetter("name_entropy")
_ARGUMENTS = attrgetter("arguments")


class _ElementView:
    """The elements of a :class:`ConditionValues` at some positions (all if None), with
    their columns; computes the element-level keys of a condition for them."""

    def __init__(self, cv: "ConditionValues", positions: Optional[list]):
        # cv caches its views: a weak reference back, no cycle (the CLI runs without the
        # cyclic collector)
        self.cv = weakref.proxy(cv)
        self.r = cv.r
        self.positions = positions
        self._getter = None
        self._cols: dict = {}
        self.gs = self.take(cv.gs)
        self.attribute_rows: Optional[tuple] = None       # (conditions, codes, rows)

    def take(self, seq) -> list:
        if self.positions is None:
            return seq
        if self._getter is None:
            self._getter = itemgetter(*self.positions) if len(self.positions) > 1 else None
            if self._getter is None:
                return [seq[i] for i in self.positions]
        return list(self._getter(seq))

    def _col(self, name: str, make) -> list:
        c = self._cols.get(name)
        if c is None:
            c = self._cols[name] = self.take(make())
        return c

    def sides(self) -> list:
        return self._col("sides", self.cv.sides)

    def eids(self) -> list:
        return self._col("eids", self.cv.eids)

    def first_ids(self) -> list:
        return self._col("first_ids", self.cv.first_ids)

    def firsts(self) -> list:
        return self._col("firsts", self.cv.firsts)

    def docs_of(self) -> list:
        return self._col("docs_of", self.cv.docs_of)

    def kinds(self) -> set:
        """The kinds of the elements."""
        k = self._cols.get("kinds")
        if k is None:
            k = self._cols["kinds"] = set(map(_KIND, self.gs))
        return k

    def keys(self, cond: str):
        """(codes, names) of ``cond`` for the elements of the view, or a dict condition ->
        (codes, names) of several conditions computed together (including ``cond``)."""
        cv = self.cv
        gs = self.gs
        n = len(gs)
        r = self.r
        take = self.take
        if cond in _ATTRIBUTE_CONDITIONS:
            group = _ATTRIBUTE_GROUPS.get(r.kind, ())
            if cond not in group:
                return encode(map(dict.get, map(_ATTRS, gs), repeat(cond)), nn=True, count=n)
            # the attribute conditions of the kind together: one look at each element
            try:        # usually every element has every attribute: a C-level getter
                codes, rows = encode(map(itemgetter(*group), map(_ATTRS, gs)), count=n)
            except KeyError:
                codes, rows = encode(map(_attribute_row(group), map(_ATTRS, gs)), count=n)
            self.attribute_rows = (group, codes, rows)
            out = {}
            for j, c in enumerate(group):
                sub_codes, sub_names = encode([row[j] for row in rows], nn=True)
                out[c] = (sub_codes[codes], sub_names)
            return out
        if cond == "CROSS-DOC":
            return bin_codes(take(cv.ndocs()), XDOC_BINS), list(XDOC_BINS)
        if cond == "NAME_ENTROPY":
            return bin_codes(list(map(_NAME_ENTROPY, gs)), ENTROPY_BINS), list(ENTROPY_BINS)
        if cond == "VALUE":
            vals = list(map(r.value.get, zip(self.sides(), self.eids())))
            return bin_codes(vals, VALUE_BINS), list(VALUE_BINS)
        if cond == "LANGUAGE":                          # the last document wins (R28)
            docids = (self.first_ids() if cv.all_single()
                      else map(max, self.docs_of()))
            vals = map(r.languages.get, zip(self.sides(), self.eids(), docids))
            return encode(vals, nn=True, count=n)
        if cond == "LEVEL" or cond == "SOURCE":
            if cv.all_single():
                if cond == "LEVEL":
                    vals = map(getattr, self.firsts(), repeat("level"), repeat(None))
                else:
                    vals = map(r.sources.get, self.first_ids())
                return encode(vals, nn=True, count=n)
            compute = cv._compute
            src = r.sources
            vals = []
            for side, eid, g in zip(self.sides(), self.eids(), gs):
                docs = g.docs
                if len(docs) != 1:
                    vals.append(compute(side, eid, g, None, cond))
                elif cond == "LEVEL":
                    vals.append(next(iter(docs.values())).level)
                else:
                    vals.append(src.get(next(iter(docs))))
            return encode(vals, nn=True)
        if cond == "MENTION COUNT":
            kinds = self.kinds()
            if len(kinds) <= 1:
                bins = (ENTITY_MENTION_COUNT_BINS if kinds == {"entity"}
                        else OTHER_MENTION_COUNT_BINS)
                if cv.all_single():
                    counts = list(map(len, map(_MENTIONS, self.firsts())))
                else:
                    counts = list(map(_mention_count, gs))
                return bin_codes(counts, bins), list(bins)
        elif cond == "NUM ARGUMENTS":          # num_arguments of each element
            counts = list(map(sum, map(map, repeat(len), map(dict.values,
                                                             map(_ARGUMENTS, gs)))))
            return bin_codes(counts, ARG_COUNT_BINS), list(ARG_COUNT_BINS)
        elif cond == "ARGUMENT ERRORS":
            mapping = r.mapping
            get = r.arg_errors.get
            arg_errors = cv.arg_errors
            counts = [(get(e, 0) if e in mapping else 0) if side == "REF"
                      else arg_errors(side, e)
                      for side, e in zip(self.sides(), self.eids())]
            return bin_codes(counts, ARG_ERROR_BINS), list(ARG_ERROR_BINS)
        compute = cv._compute
        return encode([compute(side, eid, g, None, cond)
                       for side, eid, g in zip(self.sides(), self.eids(), gs)], nn=True)


class ConditionValues:
    """Condition values of the records of one pass (04 §3.2).

    Elements are numbered: REF elements in ID order, then SYS elements in ID order
    (:attr:`elements`); records refer to their element by that number (``ei``).
    Element-level values are computed once per condition for all elements
    (:meth:`element_keys`: encoded, :meth:`element_values`: as strings).

    :meth:`restrict` limits the computation of :meth:`element_keys` to the elements whose
    values are used (the codes of the others are then meaningless)."""

    _FULL = "all"           # the key of the view of all elements

    def __init__(self, result, rids: Optional[list] = None, sids: Optional[list] = None):
        self.r = result
        self.rids = sorted(result.ref) if rids is None else rids
        self.sids = sorted(result.sys) if sids is None else sids
        self.nref = len(self.rids)
        self.gs = (list(map(result.ref.__getitem__, self.rids))
                   + list(map(result.sys.__getitem__, self.sids)))
        self._elements: Optional[list] = None
        self._index: Optional[dict] = None
        self._keys: dict = {}
        self._docs_of: Optional[list] = None
        self._ndocs: Optional[np.ndarray] = None
        self._single: Optional[bool] = None
        self._firsts: Optional[list] = None
        self._first_ids: Optional[list] = None
        self._needed: Optional[list] = None
        self._needed_array: Optional[np.ndarray] = None
        self._unrestricted: frozenset = frozenset()
        self._views: dict = {}
        self._values: dict = {}
        self._attribute_rows: Optional[tuple] = None

    def restrict(self, positions, unless=frozenset()) -> None:
        """Compute element-level keys only for the elements at ``positions`` (ascending),
        except for the conditions ``unless``; no effect once keys are computed."""
        if self._keys or self._firsts is not None or self._views:
            return
        positions = list(positions)
        if len(positions) < len(self.gs):
            self._needed = positions
            self._unrestricted = frozenset(unless)

    def needed(self, cond: str) -> Optional[list]:
        """The positions of the elements whose ``cond`` keys are computed (None: all)."""
        return None if cond in self._unrestricted else self._needed

    def _view(self, cond: str) -> "_ElementView":
        needed = self.needed(cond)
        key = self._FULL if needed is None else "restricted"
        v = self._views.get(key)
        if v is None:
            v = self._views[key] = _ElementView(self, needed)
        return v

    @property
    def elements(self) -> list:
        """(side, ID, global element) of every element: REF in ID order, then SYS."""
        if self._elements is None:
            self._elements = list(zip(self.sides(), self.eids(), self.gs))
        return self._elements

    @property
    def index(self) -> dict:
        """(side, ID) -> element number."""
        if self._index is None:
            self._index = dict(zip(zip(self.sides(), self.eids()), range(len(self.gs))))
        return self._index

    def sides(self) -> list:
        return ["REF"] * self.nref + ["SYS"] * len(self.sids)

    def eids(self) -> list:
        return self.rids + self.sids

    # ---- per-element columns
    def docs_of(self) -> list:
        """The ``docs`` dict of every element."""
        if self._docs_of is None:
            self._docs_of = list(map(_DOCS, self.gs))
        return self._docs_of

    def ndocs(self) -> np.ndarray:
        if self._ndocs is None:
            self._ndocs = np.fromiter(map(len, self.docs_of()), dtype=np.intp,
                                      count=len(self.gs))
        return self._ndocs

    def all_single(self) -> bool:
        """Whether every element has exactly one document."""
        if self._single is None:
            nd = self.ndocs()
            self._single = bool(len(nd) == 0 or (nd.min() == 1 and nd.max() == 1))
        return self._single

    def first_ids(self) -> list:
        """The DOCID of every element (only when :meth:`all_single`)."""
        if self._first_ids is None:
            assert self.all_single()
            self._first_ids = list(chain.from_iterable(self.docs_of()))
        return self._first_ids

    def firsts(self) -> list:
        """The document element of every element (only when :meth:`all_single`; None for
        the elements left out by :meth:`restrict`)."""
        if self._firsts is None:
            assert self.all_single()
            docs_of, ids = self.docs_of(), self.first_ids()
            if self._needed is None or self._unrestricted:
                self._firsts = list(map(dict.__getitem__, docs_of, ids))
            else:
                out = [None] * len(docs_of)
                needed = self._needed
                firsts = map(dict.__getitem__, map(docs_of.__getitem__, needed),
                             map(ids.__getitem__, needed))
                for i, x in zip(needed, firsts):
                    out[i] = x
                self._firsts = out
        return self._firsts

    def element(self, side: str, eid: str):
        return (self.r.ref if side == "REF" else self.r.sys)[eid]

    def kinds(self) -> set:
        """The kinds of the elements whose MENTION COUNT keys are computed (at least those
        with records, see :meth:`restrict`)."""
        return self._view("MENTION COUNT").kinds()

    def raw_attribute(self, cond: str, positions: list) -> list:
        """``attrs.get(cond)`` of the elements at ``positions`` (not normalised; the
        positions must be among those of :meth:`restrict`)."""
        if cond in _ATTRIBUTE_GROUPS.get(self.r.kind, ()):
            self.element_keys(cond)
            group, codes, rows = self._attribute_rows
            j = group.index(cond)
            col = [row[j] for row in rows]
            return list(map(col.__getitem__, codes[positions].tolist()))
        return list(map(dict.get, map(_ATTRS, map(self.gs.__getitem__, positions)),
                        repeat(cond)))

    def value(self, side: str, eid: str, docid: Optional[str], cond: str) -> str:
        """The condition value of one record; ``docid`` None: element level."""
        if docid is None:
            return self.element_values(cond)[self.index[(side, eid)]]
        return _nn(self._compute(side, eid, self.element(side, eid), docid, cond))

    def element_values(self, cond: str) -> list:
        """Element-level values of every element (in :attr:`elements` order)."""
        out = self._values.get(cond)
        if out is None:
            codes, names = self.element_keys(cond)
            out = self._values[cond] = [names[c] for c in codes.tolist()]
            if self.needed(cond) is not None:       # the others: one at a time
                needed = set(self.needed(cond))
                compute = self._compute
                for i, (side, eid, g) in enumerate(self.elements):
                    if i not in needed:
                        out[i] = _nn(compute(side, eid, g, None, cond))
        return out

    def element_keys(self, cond: str) -> tuple:
        """(codes, names): the element-level value of element i is ``names[codes[i]]``."""
        k = self._keys.get(cond)
        if k is None:
            k = self._keys[cond] = self._element_keys(cond)
        return k

    def _element_keys(self, cond: str) -> tuple:
        needed = self.needed(cond)
        view = self._view(cond)
        keys = view.keys(cond)
        if not isinstance(keys, dict):
            keys = {cond: keys}
        if view.attribute_rows is not None and self._attribute_rows is None:
            group, codes, rows = view.attribute_rows
            self._attribute_rows = (group, self._scatter(codes, needed), rows)
        for c, (codes, names) in keys.items():
            if c not in self._keys and self.needed(c) is needed:
                self._keys[c] = (self._scatter(codes, needed), names)
        return self._keys[cond]

    def _scatter(self, codes: np.ndarray, needed: Optional[list]) -> np.ndarray:
        """Codes of the elements at ``needed`` as codes of every element (0 for the rest)."""
        if needed is None:
            return codes
        if self._needed_array is None:
            self._needed_array = np.array(needed, dtype=np.intp)
        full = np.zeros(len(self.gs), dtype=np.intp)
        full[self._needed_array] = codes
        return full

    def _docs(self, g, docid):
        return (docid,) if docid is not None else sorted(g.docs)

    def _compute(self, side, eid, g, docid, cond):
        r = self.r
        if cond == "MENTION COUNT":
            bins = ENTITY_MENTION_COUNT_BINS if g.kind == "entity" else OTHER_MENTION_COUNT_BINS
            n = 0
            for d in self._docs(g, docid):
                n += len(g.docs[d].mentions)
            return bin_of(n, bins)
        if cond == "ARGUMENT ERRORS":
            return bin_of(self.arg_errors(side, eid), ARG_ERROR_BINS)
        if cond == "NUM ARGUMENTS":
            return bin_of(num_arguments(g), ARG_COUNT_BINS)
        if cond == "SOURCE" or cond == "LEVEL":
            value = None
            for d in self._docs(g, docid):
                x = r.sources.get(d) if cond == "SOURCE" else getattr(g.docs[d], "level", None)
                if not truthy(value):
                    value = x
                elif value != x:
                    value = MULTI
            return value
        if cond == "LANGUAGE":
            d = docid if docid is not None else max(g.docs)      # last document wins (R28)
            return r.languages.get((side, eid, d))
        if cond in ("TYPE", "SUBTYPE", "CLASS", "MODALITY"):
            return g.attrs.get(cond)
        if cond == "VALUE":
            if docid is not None:
                v = r.doc_value.get((side, eid, docid))
            else:
                v = r.value.get((side, eid))
            return bin_of(v, VALUE_BINS)
        if cond == "CROSS-DOC":
            return bin_of(len(g.docs), XDOC_BINS)
        if cond == "NAME_ENTROPY":
            return bin_of(g.name_entropy, ENTROPY_BINS)
        raise ValueError(f"FATAL ERROR:  unknown condition ({cond}) in call to condition_value")

    def arg_errors(self, side: str, eid: str) -> int:
        """Argument mapping errors of a mapped element, 0 for an unmapped one (04 §3.4).

        For a mapped SYS element (doc-level false alarm of a cross-document element) the
        NIST tool evaluates the count as if the SYS element were a REF element: without an
        argument map for (SYS id, partner id) the count is the element's number of
        arguments."""
        r = self.r
        if side == "REF":
            if eid not in r.mapping:
                return 0
            return r.arg_errors.get(eid, 0)
        partner = r.rmapping.get(eid)
        if partner is None:
            return 0
        if (eid, partner) in r.argument_map and eid == partner:
            return r.arg_errors.get(eid, 0)
        return num_arguments(r.sys[eid])


#: conditions whose value does not depend on the document
ELEMENT_CONSTANT = frozenset({"TYPE", "SUBTYPE", "CLASS", "MODALITY", "CROSS-DOC",
                              "NAME_ENTROPY", "NUM ARGUMENTS", "ARGUMENT ERRORS"})


def _nn(v) -> str:
    return NULL if v is None or v == "" else v


def num_arguments(g) -> int:
    n = 0
    for ids in g.arguments.values():
        n += len(ids)
    return n


def _mention_count(g) -> int:
    n = 0
    for d in g.docs.values():
        n += len(d.mentions)
    return n
