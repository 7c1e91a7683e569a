"""A report section as data that document shards can merge (``acescore score --jobs N``).

Under a local parameter set every document is scored on its own, so a corpus can be
scored in shards of documents, one process each (:mod:`acescore.run.shards`).  What a section
prints is then put together from the shards' :class:`SectionData`:

* the detection tables (docs/rules/report.md §2) are sums over records in canonical order (docs/rules/determinism.md R27, R17);
  floating-point sums depend on their order, so each shard sends its *records* -- per
  document-level record the nine summed values, its status and its condition keys, per
  element-level record its status and keys, per B-cubed mention its summands and keys --
  with their canonical sort keys (side, element ID, DOCID / mention ID).  The merged
  columns are put in canonical order and summed exactly as in one process
  (:func:`merged_tables` builds a :class:`~acescore.report.counts.tables.PassTables` from them);
* the recognition tables (docs/rules/report.md §4) are integer counts: they add up (:func:`add_counts`);
* the ``-d`` document scores are per document: the shards' tables are joined;
* the ``-s``/``-a``/``-e`` listings are blocks per element: merged by element ID
  (:mod:`acescore.report.listing_records`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import chain, pairwise, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from acescore.report.counts.conditions import table_specs
from acescore.report.counts.recognition_stats import recognition_stats
from acescore.report.counts.rows import is_b3_table
from acescore.report.counts.tables import B3Sums, Keys, PassTables

_SIDE = {"REF": 0, "SYS": 1}


class SortKeys:
    """The canonical sort keys of a shard's records (REF records first) as columns: the key
    of record i is ``(0 if i < nref else 1, cols[0][i], cols[1][i], ...)``.  The columns
    are lists the shard has anyway (element IDs, DOCIDs): no tuple per record is made or
    pickled; the merge looks at a few keys unless it has to sort (:func:`_order`)."""

    __slots__ = ("cols", "nref")

    def __init__(self, nref: int, cols: tuple):
        self.nref = nref
        self.cols = cols

    def __len__(self) -> int:
        return len(self.cols[0])

    def __getitem__(self, i: int) -> tuple:
        if i < 0:
            i += len(self)
        return (0 if i < self.nref else 1,) + tuple([c[i] for c in self.cols])

    def __iter__(self):
        n = len(self)
        return zip(chain(repeat(0, self.nref), repeat(1, n - self.nref)), *self.cols)


@dataclass
class SectionData:
    """One pass of one shard, as :func:`section_data` extracts it."""

    task: str
    kind: str
    printed: bool
    doc_sort: SortKeys  # (side, element ID, DOCID) of each document-level record
    doc_values: np.ndarray  # (n, 9): PassTables' document-level values
    doc_labels: np.ndarray
    elem_sort: SortKeys  # (side, element ID) of each element-level record
    elem_labels: np.ndarray
    keys: dict  # condition -> (doc codes, doc names, elem codes, elem names)
    b3: list | None = None  # per side: (mention IDs, summands, {cond: (codes, names)})
    recognition: dict = field(default_factory=dict)
    doc_costs: dict | None = None  # -d: docid -> [REF value, cost]
    listings: dict | None = None  # -s/-a/-e: acescore.report.listing_records


def _small(codes: np.ndarray, names: list) -> np.ndarray:
    """Condition codes in the smallest unsigned type that holds them (what a shard sends:
    an eighth of the bytes to pickle and pipe; :func:`_merge_codes` widens them)."""
    if len(names) <= 1 << 8:
        return codes.astype(np.uint8)
    if len(names) <= 1 << 16:
        return codes.astype(np.uint16)
    return codes


def _conditions(kind: str, params, all_sources) -> tuple[set, set]:
    """(every condition of the pass's tables, the conditions of its B-cubed tables)."""
    conds, b3 = set(), set()
    for spec in table_specs(kind, params, all_sources):
        both = {c for c in (spec.cond1, spec.cond2) if c is not None}
        conds |= both
        if is_b3_table(kind, spec):
            b3 |= both
    return conds, b3


def section_data(
    res, params, all_sources, doc_scores: bool, tables=None, recognition: bool = True
) -> SectionData:
    """What the merged section needs of one shard's pass ``res`` (``tables``: its
    PassTables if at hand; ``recognition``: False where no report text is made -- the
    view --, then without the recognition counts)."""
    tables = PassTables(res) if tables is None else tables
    cols = tables.cols
    conds, b3_conds = _conditions(res.kind, params, all_sources)
    keys = {}
    for c in conds:
        dk, ek = tables.keys(c)
        keys[c] = (_small(dk.codes, dk.names), dk.names, _small(ek.codes, ek.names), ek.names)
    doc_sort = SortKeys(cols.nref_docs, (cols.eids, cols.docids))
    rids, sids, nref = cols.cv.rids, cols.cv.sids, cols.cv.nref
    # the element-level records: every REF element, then SYS elements (ascending)
    elem_sort = SortKeys(
        nref, (rids + list(map(sids.__getitem__, (cols.elem_ei[nref:] - nref).tolist())),)
    )
    b3 = None
    if res.b3 is not None:
        sums = tables.b3()
        b3 = []
        for i, (_side, _mentions, _, vals, _) in enumerate(sums.sides):
            bk = {}
            for c in b3_conds:
                k = sums.keys(i, c)
                bk[c] = (_small(k.codes, k.names), k.names)
            b3.append((sums.mention_ids[i], vals, bk))
    return SectionData(
        res.task,
        res.kind,
        bool(res.printed),
        doc_sort,
        tables._doc_values,
        cols.labels,
        elem_sort,
        cols.elem_labels,
        keys,
        b3,
        recognition_stats(res, params, cols.pairs) if recognition else None,
        cols.document_costs() if doc_scores else None,
    )


def add_counts(a: Any, b: Any) -> Any:
    """``a`` + ``b`` for nested dictionaries (tuples, lists) of integer counts."""
    if a is None:
        return b
    if b is None:
        return a
    if type(a) is int:  # the leaves: most calls (once per shard and pass)
        return a + b
    if isinstance(a, dict):
        out = dict(a)
        get = out.get
        for k, v in b.items():
            x = get(k)
            out[k] = (
                x + v
                if type(x) is int and type(v) is int  # a leaf: no call
                else add_counts(x, v)
            )
        return out
    if isinstance(a, (tuple, list)):
        return type(a)(add_counts(x, y) for x, y in zip(a, b))
    return a + b


def _cut(keys) -> int:
    """How many of a shard's sort keys are of REF records (they come first)."""
    if isinstance(keys, SortKeys):
        return keys.nref
    return bisect_left(keys, 1, key=itemgetter(0))


def _order(runs: list) -> np.ndarray | None:
    """The permutation putting the concatenated records of ``runs`` (each the sort keys,
    a :class:`SortKeys` or a list of tuples, of one shard's records in canonical order) in
    canonical order; None if the concatenation is in order.  Shards are consecutive
    documents, so each side's keys usually follow shard after shard: then no sorting is
    needed."""
    segments = []  # (side, first position, keys, start, end) of each shard's side
    base = 0
    for keys in runs:
        n = len(keys)
        cut = _cut(keys)
        if cut:
            segments.append((0, base, keys, 0, cut))
        if cut < n:
            segments.append((1, base + cut, keys, cut, n))
        base += n
    ordered = sorted(segments, key=itemgetter(0))  # stable: shards in order per side
    if all(a[2][a[4] - 1] < b[2][b[3]] for a, b in pairwise(ordered)):
        if [t[1] for t in ordered] == [t[1] for t in segments]:
            return None
        return np.concatenate(
            [
                np.arange(first, first + end - start, dtype=np.intp)
                for _, first, _, start, end in ordered
            ]
        )
    flat = [k for keys in runs for k in keys]
    return np.array(sorted(range(len(flat)), key=flat.__getitem__), dtype=np.intp)


def _merge_codes(parts: list, perm: np.ndarray | None) -> Keys:
    """One Keys from the (codes, names) of several shards, in merged record order."""
    index: dict = {}
    chunks = []
    same = None  # the names of the first shard: most shards have the same
    for codes, names in parts:
        if names == same:
            chunks.append(np.asarray(codes, dtype=np.intp))
            continue
        remap = np.array([index.setdefault(n, len(index)) for n in names], dtype=np.intp)
        if same is None and len(index) == len(names):  # distinct: codes stay as they are
            same = list(names)
        chunks.append(remap[codes] if len(codes) else np.zeros(0, dtype=np.intp))
    codes = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.intp)
    if perm is not None:
        codes = codes[perm]
    return Keys(codes, list(index))


def merged_tables(parts: list) -> PassTables:
    """A PassTables answering ``total``, ``single``, ``double`` and ``b3`` for the merged
    records of ``parts`` (SectionData of one pass from several shards)."""
    dperm = _order([p.doc_sort for p in parts])
    eperm = _order([p.elem_sort for p in parts])
    values = np.concatenate([p.doc_values for p in parts])
    labels = np.concatenate([p.doc_labels for p in parts])
    elabels = np.concatenate([p.elem_labels for p in parts])
    if dperm is not None:
        values, labels = values[dperm], labels[dperm]
    if eperm is not None:
        elabels = elabels[eperm]
    t = PassTables.__new__(PassTables)
    t.result = t.cv = t.cols = None
    t._doc_values = values
    t._doc_columns = np.ascontiguousarray(values.T)
    t._doc_sparse = None
    t._doc_labels = labels
    t._doc_ei = np.zeros(len(labels), dtype=np.intp)
    t._elem_labels = elabels
    t._elem_ei = np.zeros(len(elabels), dtype=np.intp)
    t._elem_values = np.zeros((len(elabels), 0), dtype=np.float64)
    t._docs = t._elems = None
    t._keys = {}
    for c in parts[0].keys:
        t._keys[c] = (
            _merge_codes([p.keys[c][:2] for p in parts], dperm),
            _merge_codes([p.keys[c][2:] for p in parts], eperm),
        )
    t._element_keys = {}
    t._single = {}
    t._double = {}
    t._total = None
    t._b3 = _merged_b3([p.b3 for p in parts])
    return t


def _merged_b3(b3s: list) -> B3Sums:
    s = B3Sums.__new__(B3Sums)
    s.result = s.tables = None
    s.sides, s._hosts, s._keys, s._single, s.mention_ids = [], [], {}, {}, []
    s._double = {}
    b3s = [b for b in b3s if b is not None]
    if not b3s:
        return s
    for i, side in enumerate(("REF", "SYS")):
        runs = [SortKeys(len(b[i][0]), (b[i][0],)) for b in b3s]
        n = sum(map(len, runs))
        perm = _order(runs)
        vals = np.concatenate([b[i][1] for b in b3s])
        if perm is not None:
            vals = vals[perm]
        s.sides.append((side, None, None, vals, np.zeros(n, dtype=np.intp)))
        s._keys[(i, None)] = Keys.constant("total", n)
        for c in b3s[0][i][2]:
            s._keys[(i, c)] = _merge_codes([b[i][2][c] for b in b3s], perm)
    return s


def merged_document_costs(parts: list) -> dict:
    out: dict = {}
    for p in parts:
        out.update(p.doc_costs or {})
    return out
