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

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import field
from itertools import accumulate, chain, pairwise, repeat
from operator import itemgetter
from typing import Any

from acescore.model.records import dataclass
from acescore.report.counts.conditions import table_specs
from acescore.report.counts.grouped import Summands
from acescore.report.counts.recognition_stats import recognition_stats
from acescore.report.counts.records import ELEMENT_STATUSES
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
    doc_columns: list[array[float]]  # PassTables' nine document-level columns, as doubles
    doc_labels: bytes  # the status of each document-level record (DOC_STATUSES)
    elem_sort: SortKeys  # (side, element ID) of each element-level record
    elem_labels: bytes  # the status of each element-level record (ELEMENT_STATUSES)
    keys: dict  # condition -> (doc codes, doc names, elem codes, elem names)
    #: per side: (mention IDs, the summands' three columns as doubles, {cond: (codes, names)})
    b3: list | None = None
    recognition: dict = field(default_factory=dict)
    doc_costs: dict | None = None  # -d: docid -> [REF value, cost]
    listings: dict | None = None  # -s/-a/-e: acescore.report.listing_records


def _small(codes: list[int], names: list) -> Sequence[int]:
    """Condition codes in the smallest unsigned type that holds them (what a shard sends:
    one or two bytes a code to pickle and pipe, not a pickled integer each;
    :func:`_merge_codes` reads them as integers)."""
    if len(names) <= 1 << 8:
        return bytes(codes)
    if len(names) <= 1 << 16:
        return array("H", codes)
    return array("q", codes)


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
    elem_sort = SortKeys(nref, (rids + [sids[i - nref] for i in cols.elem_ei[nref:]],))
    b3 = None
    if res.b3 is not None:
        sums = tables.b3()
        b3 = []
        for i, (_side, _mentions, _, vals, _) in enumerate(sums.sides):
            bk = {}
            for c in b3_conds:
                k = sums.keys(i, c)
                bk[c] = (_small(k.codes, k.names), k.names)
            b3.append((sums.mention_ids[i], [array("d", c) for c in vals], bk))
    return SectionData(
        res.task,
        res.kind,
        bool(res.printed),
        doc_sort,
        [array("d", c) for c in tables._doc_columns],
        tables._doc_labels,
        elem_sort,
        tables._elem_labels,
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


class _Order:
    """How the records of several shards go in canonical order: their ``segments``
    ((shard, start, end), each a run of one shard's records) one after the other, or else
    the permutation ``perm`` of their concatenation."""

    __slots__ = ("perm", "segments")

    def __init__(self, segments: list | None = None, perm: list[int] | None = None):
        self.segments = segments
        self.perm = perm

    def join(self, parts: Sequence[Sequence]) -> list:
        """The items of ``parts`` (one sequence per shard) in canonical order."""
        if self.segments is not None:
            return list(chain.from_iterable(parts[i][a:b] for i, a, b in self.segments))
        flat = list(chain.from_iterable(parts))
        return flat if self.perm is None else list(map(flat.__getitem__, self.perm))


def _segments(runs: list) -> list | None:
    """The segments (shard, start, end) that put the records of ``runs`` (each the sort
    keys, a :class:`SortKeys` or a list of tuples, of one shard's records in canonical
    order) in canonical order, one after the other; None if that takes sorting.  Shards
    are consecutive documents, so each side's keys usually follow shard after shard: then
    the REF records of every shard come first, then their SYS records."""
    segments = []  # (side, shard, keys, start, end) of each shard's side
    for i, keys in enumerate(runs):
        n = len(keys)
        cut = _cut(keys)
        if cut:
            segments.append((0, i, keys, 0, cut))
        if cut < n:
            segments.append((1, i, keys, cut, n))
    ordered = sorted(segments, key=itemgetter(0))  # stable: shards in order per side
    if all(a[2][a[4] - 1] < b[2][b[3]] for a, b in pairwise(ordered)):
        return [(i, start, end) for _, i, _, start, end in ordered]
    return None


def _order(runs: list) -> list[int] | None:
    """The permutation putting the concatenated records of ``runs`` (as :func:`_segments`)
    in canonical order; None if the concatenation is in order."""
    segments = _segments(runs)
    if segments is None:
        flat = [k for keys in runs for k in keys]
        return sorted(range(len(flat)), key=flat.__getitem__)
    firsts = list(accumulate(map(len, runs), initial=0))
    perm = list(chain.from_iterable(range(firsts[i] + a, firsts[i] + b) for i, a, b in segments))
    return None if perm == list(range(len(perm))) else perm


def _ordering(runs: list) -> _Order:
    """The :class:`_Order` of the records of ``runs`` (as :func:`_segments`)."""
    segments = _segments(runs)
    return _Order(segments, None if segments is not None else _order(runs))


def _merge_codes(parts: list, order: _Order) -> Keys:
    """One Keys from the (codes, names) of several shards, in merged record order."""
    index: dict = {}
    chunks: list = []
    same = None  # the names of the first shard: most shards have the same
    for part_codes, names in parts:
        if names == same:
            chunks.append(part_codes)
            continue
        remap = [index.setdefault(n, len(index)) for n in names]
        if same is None and len(index) == len(names):  # distinct: codes stay as they are
            same = list(names)
            chunks.append(part_codes)
        else:
            chunks.append(list(map(remap.__getitem__, part_codes)))
    return Keys(order.join(chunks), list(index))


def merged_tables(parts: list) -> PassTables:
    """A PassTables answering ``total``, ``single``, ``double`` and ``b3`` for the merged
    records of ``parts`` (SectionData of one pass from several shards)."""
    dorder = _ordering([p.doc_sort for p in parts])
    eorder = _ordering([p.elem_sort for p in parts])
    t = PassTables.__new__(PassTables)
    t.result = t.cv = t.cols = None
    ncols = len(parts[0].doc_columns)
    t._doc_columns = [dorder.join([p.doc_columns[j] for p in parts]) for j in range(ncols)]
    t._doc_labels = bytes(dorder.join([p.doc_labels for p in parts]))
    t._doc_summands = None
    t._doc_ei = [0] * len(t._doc_labels)
    t._elem_labels = bytes(eorder.join([p.elem_labels for p in parts]))
    t._elem_summands = Summands((), t._elem_labels, len(ELEMENT_STATUSES))
    t._elem_ei = [0] * len(t._elem_labels)
    t._docs = t._elems = None
    t._keys = {}
    for c in parts[0].keys:
        t._keys[c] = (
            _merge_codes([p.keys[c][:2] for p in parts], dorder),
            _merge_codes([p.keys[c][2:] for p in parts], eorder),
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
        order = _ordering(runs)
        cols = [order.join([b[i][1][j] for b in b3s]) for j in range(len(b3s[0][i][1]))]
        s.sides.append((side, None, None, cols, Summands(cols)))
        s._keys[(i, None)] = Keys.constant("total", n)
        for c in b3s[0][i][2]:
            s._keys[(i, c)] = _merge_codes([b[i][2][c] for b in b3s], order)
    return s


def merged_document_costs(parts: list) -> dict:
    out: dict = {}
    for p in parts:
        out.update(p.doc_costs or {})
    return out
