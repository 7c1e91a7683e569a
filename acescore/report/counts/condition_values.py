"""Condition values (docs/rules/report.md §2.4): the value of every condition (TYPE, LEVEL, MENTION COUNT, ...)
for whole columns of records at once, encoded as integer keys (:class:`ConditionValues`),
from the elements' attributes seen through :class:`_ElementView`."""

from __future__ import annotations

import weakref
from itertools import chain, repeat
from operator import attrgetter, itemgetter

from acescore.report.counts.conditions import (
    ARG_COUNT_BINS,
    ARG_ERROR_BINS,
    ENTITY_MENTION_COUNT_BINS,
    ENTROPY_BINS,
    MULTI,
    OTHER_MENTION_COUNT_BINS,
    VALUE_BINS,
    XDOC_BINS,
    bin_codes,
    bin_of,
    encode,
    truthy,
)
from acescore.report.counts.conditions import nn_label as _nn

_ATTRIBUTE_CONDITIONS = frozenset({"TYPE", "SUBTYPE", "CLASS", "MODALITY"})
#: the attribute conditions of the detection tables of a kind (computed together)
_ATTRIBUTE_GROUPS = {
    "entity": ("TYPE", "SUBTYPE", "CLASS"),
    "relation": ("TYPE", "SUBTYPE", "MODALITY"),
    "event": ("TYPE", "SUBTYPE", "MODALITY"),
}


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

    def __init__(self, cv: ConditionValues, positions: list | None):
        # cv caches its views: a weak reference back, no cycle (the CLI runs without the
        # cyclic collector)
        self.cv = weakref.proxy(cv)
        self.r = cv.r
        self.positions = positions
        self._getter = None
        self._cols: dict = {}
        self.gs = self.take(cv.gs)
        self.attribute_rows: tuple | None = None  # (conditions, codes, rows)

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
        r = self.r
        take = self.take
        if cond in _ATTRIBUTE_CONDITIONS:
            group = _ATTRIBUTE_GROUPS.get(r.kind, ())
            if cond not in group:
                return encode(map(dict.get, map(_ATTRS, gs), repeat(cond)), nn=True)
            # the attribute conditions of the kind together: one look at each element
            try:  # usually every element has every attribute: a C-level getter
                codes, rows = encode(map(itemgetter(*group), map(_ATTRS, gs)))
            except KeyError:
                codes, rows = encode(map(_attribute_row(group), map(_ATTRS, gs)))
            self.attribute_rows = (group, codes, rows)
            out = {}
            for j, c in enumerate(group):
                sub_codes, sub_names = encode([row[j] for row in rows], nn=True)
                out[c] = (list(map(sub_codes.__getitem__, codes)), sub_names)
            return out
        if cond == "CROSS-DOC":
            return bin_codes(take(cv.ndocs()), XDOC_BINS), list(XDOC_BINS)
        if cond == "NAME_ENTROPY":
            return bin_codes(list(map(_NAME_ENTROPY, gs)), ENTROPY_BINS), list(ENTROPY_BINS)
        if cond == "VALUE":
            vals = list(map(r.value.get, zip(self.sides(), self.eids())))
            return bin_codes(vals, VALUE_BINS), list(VALUE_BINS)
        if cond == "LANGUAGE":  # the last document wins (R28)
            docids = self.first_ids() if cv.all_single() else map(max, self.docs_of())
            vals = map(r.languages.get, zip(self.sides(), self.eids(), docids))
            return encode(vals, nn=True)
        if cond == "LEVEL" or cond == "SOURCE":
            if cv.all_single():
                if cond == "LEVEL":
                    vals = map(getattr, self.firsts(), repeat("level"), repeat(None))
                else:
                    vals = map(r.sources.get, self.first_ids())
                return encode(vals, nn=True)
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
                bins = (
                    ENTITY_MENTION_COUNT_BINS if kinds == {"entity"} else OTHER_MENTION_COUNT_BINS
                )
                if cv.all_single():
                    counts = list(map(len, map(_MENTIONS, self.firsts())))
                else:
                    counts = list(map(_mention_count, gs))
                return bin_codes(counts, bins), list(bins)
        elif cond == "NUM ARGUMENTS":  # num_arguments of each element
            counts = list(map(sum, map(map, repeat(len), map(dict.values, map(_ARGUMENTS, gs)))))
            return bin_codes(counts, ARG_COUNT_BINS), list(ARG_COUNT_BINS)
        elif cond == "ARGUMENT ERRORS":
            mapping = r.mapping
            get = r.arg_errors.get
            arg_errors = cv.arg_errors
            counts = [
                (get(e, 0) if e in mapping else 0) if side == "REF" else arg_errors(side, e)
                for side, e in zip(self.sides(), self.eids())
            ]
            return bin_codes(counts, ARG_ERROR_BINS), list(ARG_ERROR_BINS)
        compute = cv._compute
        return encode(
            [
                compute(side, eid, g, None, cond)
                for side, eid, g in zip(self.sides(), self.eids(), gs)
            ],
            nn=True,
        )


class ConditionValues:
    """Condition values of the records of one pass (docs/rules/report.md §3.2).

    Elements are numbered: REF elements in ID order, then SYS elements in ID order
    (:attr:`elements`); records refer to their element by that number (``ei``).
    Element-level values are computed once per condition for all elements
    (:meth:`element_keys`: encoded, :meth:`element_values`: as strings).

    :meth:`restrict` limits the computation of :meth:`element_keys` to the elements whose
    values are used (the codes of the others are then meaningless)."""

    _FULL = "all"  # the key of the view of all elements

    def __init__(self, result, rids: list | None = None, sids: list | None = None):
        self.r = result
        self.rids = sorted(result.ref) if rids is None else rids
        self.sids = sorted(result.sys) if sids is None else sids
        self.nref = len(self.rids)
        self.gs = list(map(result.ref.__getitem__, self.rids)) + list(
            map(result.sys.__getitem__, self.sids)
        )
        self._elements: list | None = None
        self._index: dict | None = None
        self._keys: dict = {}
        self._docs_of: list | None = None
        self._ndocs: list[int] | None = None
        self._single: bool | None = None
        self._firsts: list | None = None
        self._first_ids: list | None = None
        self._needed: list | None = None
        self._unrestricted: frozenset = frozenset()
        self._views: dict = {}
        self._values: dict = {}
        self._attribute_rows: tuple | None = None

    def restrict(self, positions, unless=frozenset()) -> None:
        """Compute element-level keys only for the elements at ``positions`` (ascending),
        except for the conditions ``unless``; no effect once keys are computed."""
        if self._keys or self._firsts is not None or self._views:
            return
        positions = list(positions)
        if len(positions) < len(self.gs):
            self._needed = positions
            self._unrestricted = frozenset(unless)

    def needed(self, cond: str) -> list | None:
        """The positions of the elements whose ``cond`` keys are computed (None: all)."""
        return None if cond in self._unrestricted else self._needed

    def _view(self, cond: str) -> _ElementView:
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

    def ndocs(self) -> list[int]:
        """The number of documents of every element."""
        if self._ndocs is None:
            self._ndocs = list(map(len, self.docs_of()))
        return self._ndocs

    def all_single(self) -> bool:
        """Whether every element has exactly one document."""
        if self._single is None:
            self._single = set(self.ndocs()) <= {1}
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
                firsts = map(
                    dict.__getitem__, map(docs_of.__getitem__, needed), map(ids.__getitem__, needed)
                )
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
            return list(map(col.__getitem__, map(codes.__getitem__, positions)))
        return list(map(dict.get, map(_ATTRS, map(self.gs.__getitem__, positions)), repeat(cond)))

    def value(self, side: str, eid: str, docid: str | None, cond: str) -> str:
        """The condition value of one record; ``docid`` None: element level."""
        if docid is None:
            return self.element_values(cond)[self.index[(side, eid)]]
        return _nn(self._compute(side, eid, self.element(side, eid), docid, cond))

    def element_values(self, cond: str) -> list:
        """Element-level values of every element (in :attr:`elements` order)."""
        out = self._values.get(cond)
        if out is None:
            codes, names = self.element_keys(cond)
            out = self._values[cond] = list(map(names.__getitem__, codes))
            if self.needed(cond) is not None:  # the others: one at a time
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

    def _scatter(self, codes: list[int], needed: list | None) -> list[int]:
        """Codes of the elements at ``needed`` as codes of every element (0 for the rest)."""
        if needed is None:
            return codes
        full = [0] * len(self.gs)
        for i, c in zip(needed, codes):
            full[i] = c
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
            d = docid if docid is not None else max(g.docs)  # last document wins (R28)
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
        """Argument mapping errors of a mapped element, 0 for an unmapped one (docs/rules/report.md §3.4).

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
ELEMENT_CONSTANT = frozenset(
    {
        "TYPE",
        "SUBTYPE",
        "CLASS",
        "MODALITY",
        "CROSS-DOC",
        "NAME_ENTROPY",
        "NUM ARGUMENTS",
        "ARGUMENT ERRORS",
    }
)


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
