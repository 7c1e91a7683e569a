"""The 31-column detection and recognition tables (docs/rules/report.md §2).

Three steps, each its own function so that a differing number can be traced:

1. :class:`~acescore.report.counts.records.RecordColumns` turns a :class:`~acescore.scoring.result.PassResult` into the
   document-level and element-level records of docs/rules/report.md §2.5, in the canonical order of
   docs/rules/determinism.md R27 (REF elements in ID order with their documents in DOCID order, then SYS
   elements likewise), held as columns (:func:`build_records`: as record objects).  This
   is done once per pass (:class:`PassTables`).
2. :class:`PassTables` adds the records into the cells of the tables, once per condition
   (and per pair of conditions), and :class:`B3Sums` aggregates the B-cubed per-mention data
   (docs/rules/report.md §2.7, docs/rules/determinism.md R17).  Condition values are encoded as integer keys, computed once per
   condition for whole columns (:class:`~acescore.report.counts.condition_values.ConditionValues`).
   Sums are formed one record after the other in record order
   (:func:`~acescore.report.counts.grouped.grouped_sums`), exactly as the NIST tool's ``+=`` in
   its loop.
3. :func:`format_row` prints one row with the exact conversions of docs/rules/report.md §2.3 and the formulas
   of §2.6; :func:`header_lines` the three header lines; :func:`detection_table` a table.
"""

from __future__ import annotations

import weakref
from operator import attrgetter

from acescore.model.records import dataclass
from acescore.report.counts.condition_values import ELEMENT_CONSTANT, ConditionValues
from acescore.report.counts.conditions import (
    ENTITY_MENTION_COUNT_BINS,
    OTHER_MENTION_COUNT_BINS,
    VALUE_BINS,
    bin_codes,
    encode,
)
from acescore.report.counts.grouped import Keys, Summands, grouped_sums
from acescore.report.counts.records import (
    _KIND,
    DOC_STATUSES,
    ELEMENT_STATUSES,
    SINGLE_DOC_CONSTANT,
    RecordColumns,
)
from acescore.scoring.result import PassResult

# ---- accumulation ---------------------------------------------------------------------


class Cell:
    """The sums of one row of one table."""

    __slots__ = (
        "attr_err",
        "c_correct",
        "c_error",
        "c_fa",
        "c_miss",
        "correct",
        "efa",
        "emiss",
        "err_sub",
        "error",
        "fa",
        "fa_sub",
        "mapped",
        "miss",
        "miss_sub",
        "norm",
    )

    def __init__(self):
        self.mapped = self.emiss = self.efa = 0
        self.correct = self.error = self.miss = self.fa = 0
        self.c_correct = self.c_error = self.c_miss = self.c_fa = 0.0
        self.attr_err = self.miss_sub = self.err_sub = self.fa_sub = 0.0
        self.norm = 0.0

    def set_doc(self, sums: list, counts: list) -> None:
        (
            self.c_correct,
            self.c_error,
            self.c_miss,
            self.c_fa,
            self.attr_err,
            self.miss_sub,
            self.err_sub,
            self.fa_sub,
            self.norm,
        ) = sums
        self.correct, self.error, self.miss, self.fa = counts

    def set_elements(self, counts: list) -> None:
        self.mapped, self.emiss, self.efa = counts


class PassTables:
    """The records of one pass and their accumulation into table cells.

    Cells are computed once per condition (and once per pair of conditions for the
    two-condition tables); in the two-condition form the cells (ALL, k1) equal the cells of
    the single condition C1 and (k2, total) those of C2, since they receive exactly the same
    records in the same order."""

    def __init__(self, result: PassResult) -> None:
        self.result = result
        self.cv = ConditionValues(result)
        cols = self.cols = RecordColumns(result, self.cv)
        self._doc_columns: list = cols.doc_columns()
        self._doc_labels = bytes(cols.labels)
        self._doc_summands: Summands | None = None
        self._doc_ei: list[int] = cols.ei
        self._elem_labels = bytes(cols.elem_labels)
        self._elem_summands = Summands((), self._elem_labels, len(ELEMENT_STATUSES))
        self._elem_ei: list[int] = cols.elem_ei
        self._docs: list | None = None
        self._elems: list | None = None
        self._keys: dict = {}
        self._element_keys: dict = {}
        self._single: dict = {}
        self._double: dict = {}
        self._total = None
        self._b3: B3Sums | None = None

    @property
    def docs(self) -> list:
        """The document-level records (:class:`DocRecord`), in canonical order."""
        if self._docs is None:
            self._docs = self.cols.doc_records()
        return self._docs

    @property
    def elems(self) -> list:
        """The element-level records (:class:`ElementRecord`), in canonical order."""
        if self._elems is None:
            self._elems = self.cols.element_records()
        return self._elems

    # ---- condition keys
    def keys(self, cond: str) -> tuple[Keys, Keys]:
        """(document-level keys, element-level keys) of the records for one condition."""
        k = self._keys.get(cond)
        if k is None:
            element_keys = self.element_keys(cond)
            if cond in ELEMENT_CONSTANT or (
                cond in SINGLE_DOC_CONSTANT
                and self.cv.all_single()
                and self._single_doc_constant(cond)
            ):
                doc_keys = element_keys.take(self._doc_ei)
            else:
                doc_keys = self._doc_keys(cond, element_keys.names)
            elem_keys = Keys(element_keys.take(self._elem_ei).codes, doc_keys.names)
            k = self._keys[cond] = (doc_keys, elem_keys)
        return k

    def _single_doc_constant(self, cond: str) -> bool:
        """With one document per element, whether the document-level value of ``cond`` is
        the element-level one: LANGUAGE, SOURCE and LEVEL read the same document (and the
        same keys); MENTION COUNT if element and document elements agree on the kind that
        selects the bins."""
        if cond != "MENTION COUNT":
            return True
        kinds = self.cv.kinds()  # of every element with records, at least
        return len(kinds) <= 1 and set(map(_KIND, self.cols.els)) <= kinds

    def _doc_keys(self, cond: str, base: list) -> Keys:
        """Document-level keys of a condition that depends on the document; names start
        with ``base`` (the element-level names)."""
        cols = self.cols
        r = self.result
        nr = cols.nref_docs
        if cond == "LANGUAGE":
            get = r.languages.get
            eids, docids = cols.eids, cols.docids
            vals = [get(("REF", e, d)) for e, d in zip(eids[:nr], docids[:nr])] + [
                get(("SYS", e, d)) for e, d in zip(eids[nr:], docids[nr:])
            ]
            return Keys(*encode(vals, base, nn=True))
        if cond == "SOURCE":
            get = r.sources.get
            return Keys(*encode([get(d) for d in cols.docids], base, nn=True))
        if cond == "LEVEL":
            return Keys(*encode([getattr(x, "level", None) for x in cols.els], base, nn=True))
        if cond == "VALUE" and base == list(VALUE_BINS):
            # REF records: the norm is doc_value or 0.0 where missing, both in the bin of
            # doc_value.get(...) (None falls into the first bin, as does 0.0)
            get = r.doc_value.get
            eids, docids = cols.eids, cols.docids
            codes = bin_codes(self._doc_columns[8][:nr], VALUE_BINS) + bin_codes(
                [get(("SYS", e, d)) for e, d in zip(eids[nr:], docids[nr:])], VALUE_BINS
            )
            return Keys(codes, base)
        if cond == "MENTION COUNT":
            kinds = {x.kind for x in cols.els}
            if len(kinds) == 1:
                bins = (
                    ENTITY_MENTION_COUNT_BINS if kinds == {"entity"} else OTHER_MENTION_COUNT_BINS
                )
                if base == list(bins):
                    return Keys(bin_codes([len(x.mentions) for x in cols.els], bins), base)
        value = self.cv.value
        vals = [value(side, e, d, cond) for side, e, d in zip(cols.sides(), cols.eids, cols.docids)]
        return Keys(*encode(vals, base))

    def element_keys(self, cond: str) -> Keys:
        """Element-level condition values of every element (REF in ID order, then SYS)."""
        k = self._element_keys.get(cond)
        if k is None:
            k = self._element_keys[cond] = Keys(*self.cv.element_keys(cond))
        return k

    def _cells(self, doc_keys: Keys, elem_keys: Keys) -> dict:
        cells: dict = {}
        if self._doc_summands is None:
            self._doc_summands = Summands(self._doc_columns, self._doc_labels, len(DOC_STATUSES))
        for key, (sums, counts) in grouped_sums(doc_keys, self._doc_summands).items():
            c = cells[key] = Cell()
            c.set_doc(sums, counts)
        for key, (_, counts) in grouped_sums(elem_keys, self._elem_summands).items():
            c = cells.get(key)
            if c is None:
                c = cells[key] = Cell()
            c.set_elements(counts)
        return cells

    def total(self) -> Cell | None:
        if self._total is None:
            self._total = self._cells(
                Keys.constant("total", len(self._doc_ei)),
                Keys.constant("total", len(self._elem_ei)),
            ).get("total")
        return self._total

    def single(self, cond: str) -> dict:
        """Row key -> Cell for one condition (with ``total``)."""
        cells = self._single.get(cond)
        if cells is None:
            cells = self._cells(*self.keys(cond))
            tot = self.total()
            if tot is not None:
                cells["total"] = tot
            self._single[cond] = cells
        return cells

    def double(self, cond1: str, cond2: str) -> tuple[dict, set]:
        """(k2, row key) -> Cell, and the k2 keys with document-level records (made once:
        the report's table and the JSON's read the same; neither changes them)."""
        got = self._double.get((cond1, cond2))
        if got is None:
            got = self._double[(cond1, cond2)] = self._double_cells(cond1, cond2)
        return got

    def _double_cells(self, cond1: str, cond2: str) -> tuple[dict, set]:
        dk1, ek1 = self.keys(cond1)
        dk2, ek2 = self.keys(cond2)
        cells = self._cells(dk2.pair(dk1), ek2.pair(ek1))
        for k1, c in self.single(cond1).items():
            cells[("ALL", k1)] = c
        for k2, c in self.single(cond2).items():
            if k2 != "total":
                cells[(k2, "total")] = c
        keys2 = set(map(dk2.names.__getitem__, set(dk2.codes)))
        if len(dk2):
            keys2.add("ALL")
        return cells, keys2

    # ---- B3
    def b3(self) -> B3Sums:
        if self._b3 is None:
            self._b3 = B3Sums(self.result, self)
        return self._b3


@dataclass
class Accumulated:
    """The cells of one table: keyed by row key (one condition) or by (k2, row key)."""

    cells: dict
    doc_keys2: set  # two-condition form: the k2 keys with document-level records
    total_value: float  # TV of docs/rules/report.md §2.6


def accumulate(tables: PassTables, cond1: str, cond2: str | None = None) -> Accumulated:
    tot = tables.total()
    tv = tot.norm if tot is not None else 0.0
    if cond2 is None:
        return Accumulated(tables.single(cond1), set(), tv)
    cells, keys2 = tables.double(cond1, cond2)
    return Accumulated(cells, keys2, tv)


# ---- B-cubed ----------------------------------------------------------------------------


@dataclass(frozen=True)
class B3Entry:
    count_recall: float
    count_precision: float
    value_recall: float
    value_precision: float


_ENTITY_ID = attrgetter("entity_id")
_COUNT = attrgetter("count")
_VALUE = attrgetter("value")
_SELF = attrgetter("self_score")
_MENTION_ID = attrgetter("mention.id")
_MENTION_TYPE = attrgetter("mention.type")
_DOCID = attrgetter("docid")


def _b3_summands(eids, counts, values, selfs, totals) -> list[list[float]]:
    """Three columns: per mention (count score, self score * value score, self score) where,
    with the host's (mention count N, summed self scores V): count score = max COUNT / N and
    value score = max VALUE / V (0 without V), both 0 without partners or without N."""
    cscores: list[float] = []
    products: list[float] = []
    self_scores: list[float] = []
    get = totals.get
    for eid, count, value, self_score in zip(eids, counts, values, selfs):
        n, v = get(eid, (0, 0.0))
        s = float(self_score)
        cs = vs = 0.0
        if count and n != 0:
            cs = float(max(count.values())) / float(n)
            if v != 0:
                vs = (float(max(value.values())) if value else 0.0) / float(v)
        cscores.append(cs)
        products.append(s * vs)
        self_scores.append(s)
    return [cscores, products, self_scores]


class B3Sums:
    """B-cubed sums of docs/rules/report.md §2.7 per condition: REF mentions then SYS mentions, each in
    mention-ID order (docs/rules/determinism.md R17).  Per mention the summands are (count score, 1,
    self score * value score, self score).  :attr:`sides`: per side (side, mentions,
    totals, the summands' three columns, those columns as :func:`grouped_sums` adds them:
    :class:`~acescore.report.counts.grouped.Summands`)."""

    def __init__(self, result, tables: PassTables | None = None):
        self.result = result
        # PassTables caches its B3Sums: a strong reference back would make a cycle, and
        # the CLI runs without the cyclic collector (a leak of the section's arrays)
        self.tables = PassTables(result) if tables is None else weakref.proxy(tables)
        self.sides: list[tuple] = []
        self._hosts: list[list[int]] = []
        self.mention_ids: list = []  # per side: the mentions' IDs
        b3 = result.b3
        if b3 is None:
            return
        cv = self.tables.cv
        for side, mentions, totals, ids, first in (
            ("REF", b3.ref, b3.ref_totals, cv.rids, 0),
            ("SYS", b3.sys, b3.sys_totals, cv.sids, cv.nref),
        ):
            eids = list(map(_ENTITY_ID, mentions))
            vals = _b3_summands(
                eids,
                list(map(_COUNT, mentions)),
                list(map(_VALUE, mentions)),
                list(map(_SELF, mentions)),
                totals,
            )
            self.mention_ids.append(list(map(_MENTION_ID, mentions)))
            self.sides.append((side, mentions, totals, vals, Summands(vals)))
            index = dict(zip(ids, range(first, first + len(ids))))
            self._hosts.append(list(map(index.__getitem__, eids)))
        self._keys: dict = {}
        self._single: dict = {}
        self._double: dict = {}

    def keys(self, side_index: int, cond: str | None) -> Keys:
        k = self._keys.get((side_index, cond))
        if k is None:
            _side, mentions, _totals, _, _ = self.sides[side_index]
            if cond is None:
                k = Keys.constant("total", len(mentions))
            elif cond == "LEVEL":
                k = Keys(*encode(map(_MENTION_TYPE, mentions)))
            elif cond == "SOURCE":
                k = Keys(*encode(map(self.result.sources.get, map(_DOCID, mentions))))
            else:
                # TYPE, SUBTYPE, CLASS, CROSS-DOC, MENTION COUNT (all documents) and VALUE of
                # the host entity are its element-level condition values (a missing
                # attribute reads <null> instead of undef: never a printed row either way)
                k = self.tables.element_keys(cond).take(self._hosts[side_index])
            self._keys[(side_index, cond)] = k
        return k

    def _entries(self, keyfun) -> dict:
        sums: dict = {}
        for i, (side, _mentions, _totals, _, summands) in enumerate(self.sides):
            for key, (s, cnt) in grouped_sums(keyfun(i), summands).items():
                sums.setdefault(key, {})[side] = (s[0], cnt[0], s[1], s[2])
        out: dict = {}
        for key, by_side in sums.items():
            ref = by_side.get("REF")
            sys = by_side.get("SYS")
            cr = ref[0] / ref[1] if ref and ref[1] else 0
            vr = ref[2] / ref[3] if ref and ref[3] else 0
            cp = sys[0] / sys[1] if sys and sys[1] else 0
            vp = sys[2] / sys[3] if sys and sys[3] else 0
            out[key] = B3Entry(cr, cp, vr, vp)
        return out

    def single(self, cond: str | None) -> dict:
        e = self._single.get(cond)
        if e is None:
            e = self._single[cond] = self._entries(lambda i: self.keys(i, cond))
        return e

    def scores(self, cond1: str, cond2: str | None = None) -> dict:
        """Row key (or (k2, row key)) -> B3Entry."""
        if not self.sides:
            return {}
        total = self.single(None).get("total")
        if cond2 is None:
            out = dict(self.single(cond1))
            if total is not None:
                out["total"] = total
            return out
        got = self._double.get((cond1, cond2))
        if got is None:  # (the report's table and the JSON's: made once)
            got = self._double[(cond1, cond2)] = self._double_entries(cond1, cond2, total)
        return got

    def _double_entries(self, cond1: str, cond2: str, total) -> dict:
        out = self._entries(lambda i: self.keys(i, cond2).pair(self.keys(i, cond1)))
        for k1, e in self.single(cond1).items():
            out[("ALL", k1)] = e
        for k2, e in self.single(cond2).items():
            out[(k2, "total")] = e
        if total is not None:
            out[("ALL", "total")] = total
        return out


# ---- formatting -----------------------------------------------------------------------


def document_costs(res, tables=None) -> dict:
    """Per document: [REF value, summed record costs] accumulated as the tool does (R27),
    from the pass's records (``tables``: its PassTables if at hand)."""
    return (PassTables(res) if tables is None else tables).cols.document_costs()
