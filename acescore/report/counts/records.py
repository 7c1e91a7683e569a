"""The records of a pass (docs/rules/report.md §2.5): :class:`RecordColumns` turns a
:class:`~acescore.scoring.result.PassResult` into its document-level and element-level
records, in the canonical order of docs/rules/determinism.md R27, held as columns (step 1 of
:mod:`acescore.report.counts.tables`)."""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, contains, is_not, ne, sub

from acescore.model.records import dataclass
from acescore.report.counts.condition_values import ConditionValues
from acescore.report.counts.conditions import B3_CONDITIONS, EPS, ERROR_ATTRIBUTES
from acescore.report.counts.recognition import DocPairs

# ---- records --------------------------------------------------------------------------

#: document-level statuses, in the column order of the sums below
DOC_STATUSES = ("correct", "error", "miss", "fa")
ELEMENT_STATUSES = ("mapped", "miss", "fa")


@dataclass(slots=True)
class DocRecord:
    """A document-level record: ``status`` is correct, error, miss or fa."""

    side: str
    eid: str
    docid: str
    status: str
    cost: float
    norm: float
    comps: tuple | None = None  # (ATTR_ERR, MISS_SUB, ERR_SUB, FA_SUB) if valued
    d: object = None  # the document element
    ei: int = -1  # element number (REF in ID order, then SYS)


@dataclass(slots=True)
class ElementRecord:
    """An element-level record: ``status`` is mapped, miss or fa."""

    side: str
    eid: str
    status: str
    ei: int = -1


def attribute_errors(kind: str, rd, sd) -> int:
    """Attributes for which not both lack a value and which are not both defined and equal
    (docs/rules/report.md §2.5)."""
    ra = rd.attributes()
    sa = sd.attributes()
    n = 0
    for a in ERROR_ATTRIBUTES[kind]:
        x = ra.get(a)
        y = sa.get(a)
        if x is None and y is None:
            continue
        if x is None or y is None or x != y:
            n += 1
    return n


def attribute_differences(kind: str, rd, sd) -> list[tuple]:
    """The attributes counted by :func:`attribute_errors`, as ``(name, REF value, SYS
    value)`` (a value is None where the element has none)."""
    ra = rd.attributes()
    sa = sd.attributes()
    out = []
    for a in ERROR_ATTRIBUTES[kind]:
        x = ra.get(a)
        y = sa.get(a)
        if (x is not None or y is not None) and x != y:
            out.append((a, x, y))
    return out


def _count_differences(x: tuple, y: tuple) -> int:
    """Attribute errors from two attribute tuples: for each attribute, values that are not
    both None and not equal (for strings and None simply ``!=``)."""
    n = 0
    for a, b in zip(x, y):
        if a != b:
            n += 1
    return n


def _take(seq, positions) -> list:
    return list(map(seq.__getitem__, positions))


_EMPTY: dict = {}
_KIND = attrgetter("kind")
_DOCS = attrgetter("docs")


class _NoElement:
    """What a look-up of no element gives: no documents (no exception per miss, as
    ``getattr(None, "docs", default)`` raises and catches one)."""

    __slots__ = ()
    docs = _EMPTY


_NONE = _NoElement()

#: the conditions whose B3 keys are those of the mentions' host elements (B3Sums.keys)
B3_HOST_CONDITIONS = B3_CONDITIONS - {"LEVEL", "SOURCE"}

#: conditions whose document-level value equals the element-level one when every element
#: has exactly one document (see PassTables._single_doc_constant)
SINGLE_DOC_CONSTANT = frozenset({"LANGUAGE", "SOURCE", "LEVEL", "MENTION COUNT"})


class RecordColumns:
    """The records of docs/rules/report.md §2.5 of a pass as columns, in canonical order (docs/rules/determinism.md R27): the
    ``nref_docs`` REF document-level records come first, then the SYS ones.

    Document-level columns: ``eids``, ``docids``, ``els`` (document elements), ``ei``
    (element numbers), ``labels`` (index into DOC_STATUSES), ``costs``, ``norms``; the
    valued records (``valued``, their ``valued_comps``).  Element-level: ``elem_ei`` and
    ``elem_labels`` (index into ELEMENT_STATUSES).  Also the doc-mapped pairs of the
    recognition tables (``pairs``, a :class:`~acescore.report.counts.recognition.DocPairs`)."""

    def __init__(self, result, cv: ConditionValues | None = None):
        cv = self.cv = ConditionValues(result) if cv is None else cv
        rids, sids, nref = cv.rids, cv.sids, cv.nref
        ref, sys = result.ref, result.sys
        docs_of = cv.docs_of()
        single = cv.all_single()

        # ---- SYS: documents of SYS elements without a doc-mapped REF partner
        s_rid = list(map(result.rmapping.get, sids))
        f_ei, f_id, f_d, f_el = _sys_only(cv, ref, sids, s_rid, nref, docs_of, single)
        # the element-level values used: of REF elements and SYS elements with records
        # (with B-cubed data those of the B3 conditions of every element: the mentions'
        # hosts are any elements)
        elem_ei = list(range(nref)) + [nref + j for j, x in enumerate(s_rid) if x is None]
        cv.restrict(
            sorted(set(elem_ei).union(f_ei)), B3_HOST_CONDITIONS if result.b3 is not None else ()
        )
        if f_el is None:
            f_el = _take(cv.firsts(), f_ei)

        # ---- REF: every document of every REF element, in DOCID order
        r_ei, r_id, r_d, r_el = _ref_documents(cv, rids, nref, docs_of, single)
        nr = len(r_d)
        norms = list(map(result.doc_value.get, zip(repeat("REF"), r_id, r_d), repeat(0.0)))
        e_sid = list(map(result.mapping.get, rids))
        r_sid = e_sid if single else _take(e_sid, r_ei)
        # doc-mapped: the partner element has the document
        r_sd = list(map(dict.get, map(_DOCS, map(sys.get, r_sid, repeat(_NONE))), r_d))
        mask = list(map(is_not, r_sd, repeat(None)))
        m_pos = list(compress(range(nr), mask))
        p_id, p_sid, p_d = (
            list(compress(r_id, mask)),
            list(compress(r_sid, mask)),
            list(compress(r_d, mask)),
        )
        self.pairs = DocPairs(
            result,
            p_id,
            p_sid,
            p_d,
            list(compress(r_el, mask)),
            list(compress(r_sd, mask)),
            cv.raw_attribute("TYPE", list(compress(r_ei, mask))),
        )
        # valued: with cost components
        p_keys = list(zip(p_id, p_sid, p_d))
        comps = list(map(result.doc_costs.get, p_keys))
        vmask = list(map(is_not, comps, repeat(None)))
        v_pos = list(compress(m_pos, vmask))
        v_comps = list(compress(comps, vmask))
        mv = list(map(result.doc_mv.get, compress(p_keys, vmask), repeat(0.0)))
        if result.nist == "ace05":  # `VALUE eq MV`: Perl's 15-digit strings, no ε clamp
            v_cost = [
                0.0 if "%.15g" % v == "%.15g" % m else v - m
                for v, m in zip(_take(norms, v_pos), mv)
            ]
        else:
            v_cost = [0.0 if c < EPS else c for c in map(sub, _take(norms, v_pos), mv)]
        flags = _error_flags(result, self.pairs, vmask, len(v_pos), p_id)
        labels = [2] * nr
        costs = list(norms)
        for i, e, c in zip(v_pos, flags, v_cost):
            labels[i] = 1 if e else 0
            costs[i] = c
        self.valued = v_pos
        self.valued_comps = v_comps

        fa = list(map(result.doc_fa.get, zip(f_id, f_d), repeat(0.0)))
        nf = len(f_d)

        self.nref_docs = nr
        self.n = nr + nf
        self.eids = r_id + f_id
        self.docids = r_d + f_d
        self.els = r_el + f_el
        self.ei: list[int] = r_ei + f_ei
        self.labels: list[int] = labels + [3] * nf
        self.costs = costs + [-x for x in fa]
        self.norms = norms + [0.0] * nf
        # ---- element-level records: every REF element, the unmapped SYS elements
        self.elem_ei: list[int] = elem_ei
        self.elem_labels: list[int] = [0 if x is not None else 1 for x in e_sid] + [2] * (
            len(elem_ei) - nref
        )

    def document_costs(self) -> dict:
        """Per document: [REF value, summed record costs], accumulated record by record in
        canonical order (R27): the numbers of the ``-d`` lines."""
        out: dict = {}
        get = out.get
        for d, v, c in zip(self.docids, self.norms, self.costs):
            x = get(d)
            if x is None:
                x = out[d] = [0.0, 0.0]
            x[0] += v
            x[1] += c
        return out

    def sides(self) -> list:
        return ["REF"] * self.nref_docs + ["SYS"] * (self.n - self.nref_docs)

    def doc_columns(self) -> list[list[float]]:
        """The nine summed values of the document-level records, as nine columns: the cost
        in the column of the record's status (DOC_STATUSES, 0.0 in the other three), the
        four cost components of valued records (0.0 for the others), the REF value."""
        n = self.n
        cols = [[0.0] * n for _ in range(8)]
        for i, lab, c in zip(range(n), self.labels, self.costs):
            cols[lab][i] = float(c)
        if self.valued:
            for j in range(4):
                col = cols[4 + j]
                for i, comps in zip(self.valued, self.valued_comps):
                    col[i] = float(comps[j])
        cols.append([float(x) for x in self.norms])
        return cols

    def comps(self) -> list:
        out = [None] * self.n
        for i, c in zip(self.valued, self.valued_comps):
            out[i] = c
        return out

    def doc_records(self) -> list:
        return [
            DocRecord(side, eid, docid, DOC_STATUSES[lab], cost, norm, comps, d, i)
            for side, eid, docid, lab, cost, norm, comps, d, i in zip(
                self.sides(),
                self.eids,
                self.docids,
                self.labels,
                self.costs,
                self.norms,
                self.comps(),
                self.els,
                self.ei,
            )
        ]

    def element_records(self) -> list:
        rids, sids, nref = self.cv.rids, self.cv.sids, self.cv.nref
        out = []
        for i, lab in zip(self.elem_ei, self.elem_labels):
            if i < nref:
                out.append(ElementRecord("REF", rids[i], ELEMENT_STATUSES[lab], i))
            else:
                out.append(ElementRecord("SYS", sids[i - nref], ELEMENT_STATUSES[lab], i))
        return out


def build_records(result) -> tuple[list, list]:
    """The records of docs/rules/report.md §2.5 in canonical order (docs/rules/determinism.md R27)."""
    cols = RecordColumns(result)
    return cols.doc_records(), cols.element_records()


def _sys_only(
    cv, ref: dict, sids: list, s_rid: list, nref: int, docs_of: list, single: bool
) -> tuple:
    """The SYS document-level records of a pass (the documents of SYS elements where their
    REF partner, ``s_rid``, has no document): element numbers, IDs, DOCIDs and document
    elements (None where every element has one document: then they are taken from the
    condition values once these are restricted)."""
    if single:
        s_d = cv.first_ids()[nref:]
        rdocs = list(map(_DOCS, map(ref.get, s_rid, repeat(_NONE))))
        f_pos = [j for j, x in enumerate(map(contains, rdocs, s_d)) if not x]
        return [nref + j for j in f_pos], _take(sids, f_pos), _take(s_d, f_pos), None
    f_ei, f_id, f_d, f_el = [], [], [], []
    for j, sid in enumerate(sids):
        rid = s_rid[j]
        rg = ref.get(rid) if rid is not None else None
        rdocs = rg.docs if rg is not None else _EMPTY
        docs = docs_of[nref + j]
        for d in docs if len(docs) == 1 else sorted(docs):
            if d in rdocs:
                continue
            f_ei.append(nref + j)
            f_id.append(sid)
            f_d.append(d)
            f_el.append(docs[d])
    return f_ei, f_id, f_d, f_el


def _ref_documents(cv, rids: list, nref: int, docs_of: list, single: bool) -> tuple:
    """The REF document-level records of a pass, every document of every REF element in
    DOCID order: element numbers, IDs, DOCIDs and document elements."""
    if single:
        return list(range(nref)), rids, cv.first_ids()[:nref], cv.firsts()[:nref]
    r_ei, r_d, r_el = [], [], []
    for i in range(nref):
        docs = docs_of[i]
        for d in docs if len(docs) == 1 else sorted(docs):
            r_ei.append(i)
            r_d.append(d)
            r_el.append(docs[d])
    return r_ei, _take(rids, r_ei), r_d, r_el


def _error_flags(result, pairs, vmask: list, nvalued: int, p_id: list) -> list:
    """Per valued pair of documents (``vmask`` over the doc-mapped ``pairs``): whether it
    has attribute errors (its attribute tuples differ) or, relations and events, argument
    errors."""
    kind = result.kind
    rc, sc, names = pairs.attribute_codes(ERROR_ATTRIBUTES[kind])
    if nvalued != len(rc):
        rc, sc = list(compress(rc, vmask)), list(compress(sc, vmask))
    differ = list(map(ne, rc, sc))
    if kind not in ("relation", "event"):
        return differ
    errs = list(map(result.arg_errors.get, compress(p_id, vmask), repeat(0)))
    counts: dict = {}
    for k in compress(range(len(errs)), differ):
        key = (rc[k], sc[k])
        c = counts.get(key)
        if c is None:
            c = counts[key] = _count_differences(names[key[0]], names[key[1]])
        errs[k] += c
    return [e != 0 for e in errs]
