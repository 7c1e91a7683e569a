"""One side's database: documents and global elements built from APF files (docs/rules/input.md §3).

Elements with the same ID in several documents of one side form one *global element*; its
``docs`` maps each DOCID to the document element read there.  This module merges the
elements, registers the mentions, computes the language labels and name entropies and issues
the metonymy warnings.  The input rules of docs/rules/input.md §3 (attribute conflicts, relation argument
counts, duplicate IDs, arguments ...) are checked before, by :mod:`acescore.rules.corpus`: the
documents given here have passed them.  Orders follow docs/rules/determinism.md (IDs and DOCIDs in
code-point order).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import field
from operator import attrgetter
from typing import Any

from acescore.model.apf import KINDS, ApfFile, Document
from acescore.model.params import Params
from acescore.model.records import dataclass
from acescore.model.text import classify_language, locator_language, normalize_name

LEVEL_WEIGHT = {"NAM": 1.0, "NOM": 0.5, "PRO": 0.1}


#: the arguments of an entity, value or timex2 and the links of an element without any:
#: one shared empty dictionary, never written to (_merge gives an element its own first)
NOTHING: dict = {}


@dataclass(slots=True)
class GlobalElement:
    """An element of one side: one ID, its document elements by DOCID.  (Slots: a corpus
    and its promoted mentions make hundreds of thousands of these.)"""

    id: str
    kind: str
    docs: dict = field(default_factory=dict)  # docid -> document element
    attrs: dict = field(default_factory=dict)  # merged attributes
    level: str | None = None  # entities: highest document level
    name_entropy: float | None = None  # entities
    arguments: dict = field(default_factory=dict)  # role -> sorted tuple of ids (union)
    links: dict = field(default_factory=dict)  # RESOURCE -> EID
    origin: str | None = None  # promoted mentions: the host element ID

    def sorted_docs(self) -> list[str]:
        return sorted(self.docs)

    _arg_pairs: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def arg_pairs(self) -> tuple[tuple[str, str], ...]:
        """(role, ID) pairs in (role, ID) order (cached; reset when arguments change)."""
        ap = self._arg_pairs
        if ap is None:
            ap = self._arg_pairs = tuple(
                [(r, i) for r in sorted(self.arguments) for i in self.arguments[r]]
            )
        return ap


@dataclass
class Side:
    """The database of one side (``REF`` or ``SYS``)."""

    name: str
    documents: dict = field(default_factory=dict)  # docid -> Document
    all_documents: dict = field(default_factory=dict)  # incl. unevaluated SYS documents
    elements: dict = field(default_factory=lambda: {k: {} for k in KINDS})
    language: dict = field(default_factory=dict)  # (kind, id, docid) -> label|None
    mentions: dict = field(default_factory=dict)  # mention id -> (kind, element id, docid)

    def of(self, kind: str) -> dict:
        elements: dict = self.elements[kind]
        return elements


def _doc_order(g: GlobalElement) -> Iterable[str]:
    """The DOCIDs of ``g`` in code-point order (most elements are in one document: no
    sorting then)."""
    docs = g.docs
    return docs if len(docs) == 1 else sorted(docs)


_ROLE_REFID = attrgetter("role", "refid")  # the (role, ID) order of arguments


def _merge(side: Side, doc: Document, el: Any, warnings: list) -> None:
    kind = el.kind
    coll = side.elements[kind]
    attrs = el.attributes()
    g = coll.get(el.id)
    if g is None:
        # the element's first document: its attributes are the element's (in name order)
        first = {}
        for a in sorted(attrs):
            v = attrs[a]
            if v is not None:
                first[a] = v
        g = coll[el.id] = GlobalElement(
            el.id,
            kind,
            {doc.docid: el},
            first,
            arguments=({} if kind in ("relation", "event") else NOTHING),
            links=NOTHING,
        )
    else:
        g.docs[doc.docid] = el
        for a in sorted(attrs):
            v = attrs[a]
            if v is None:
                continue
            old = g.attrs.get(a)
            # a higher LEVEL wins (a conflict of another attribute is a broken rule:
            # acescore.rules.corpus)
            if old is None or (old != v and a == "LEVEL" and LEVEL_WEIGHT[v] > LEVEL_WEIGHT[old]):
                g.attrs[a] = v
    if kind == "entity":
        g.level = g.attrs.get("LEVEL")
    if el.links and g.links is NOTHING:
        g.links = {}
    for res, eid in el.links:
        g.links[res] = eid
    if kind in ("relation", "event"):
        # The IDs of each role, in the order the roles first occur (the order of
        # g.arguments); each role's union is stored sorted.
        new: dict = {}
        for a in el.arguments:
            ids = new.get(a.role)
            if ids is None:
                new[a.role] = {a.refid}
            else:
                ids.add(a.refid)
        for role, ids in new.items():
            old = g.arguments.get(role)
            if old:
                ids.update(old)
            g.arguments[role] = tuple(sorted(ids))
        g._arg_pairs = None


def name_entropy(g: GlobalElement) -> float | None:
    n_docs = len(g.docs)
    if n_docs < 2:
        return None  # every name count is >= n_docs
    counts: dict = {}
    for d in g.docs.values():
        for n in d.names:
            counts[n] = counts.get(n, 0) + 1
    h = None
    for n in sorted(counts):
        c = counts[n]
        if c < n_docs:
            p = c / n_docs
            h = (h or 0.0) - p * math.log(p)
    return h


def add_files(
    side: Side,
    files: Iterable[ApfFile],
    params: Params,
    warnings: list,
    eval_docs: dict | None = None,
) -> None:
    """Merge the documents of ``files`` into ``side``.  For the SYS side, ``eval_docs`` is the
    REF document table: documents not in it are skipped with the NIST warning."""
    for f in files:
        evaluable = 0
        for doc in f.documents:
            side.all_documents[doc.docid] = doc
            if eval_docs is not None and doc.docid not in eval_docs:
                warnings.append(
                    f"\n\nWARNING:  INPUT ERROR in document '{doc.docid}' in file"
                    f" '{doc.path}'\n    system output for unevaluated document\n"
                )
                continue
            side.documents[doc.docid] = doc
            evaluable += 1
            els: tuple
            for els in (doc.relations, doc.events):  # the reader's warnings, in its order
                for releve in els:
                    warnings.extend(releve.warnings)
            for els in (doc.entities, doc.relations, doc.events, doc.timex2s, doc.values):
                for el in els:
                    _merge(side, doc, el, warnings)
        if not evaluable:
            warnings.append(f"\nWARNING:  file '{f.path}' contains no evaluable documents\n")


def finish(side: Side, params: Params, warnings: list) -> None:
    """Mention registry, name entropy, languages, metonymy warnings.

    They all go through the elements in the same order (KINDS, then IDs, then DOCIDs), so
    they are done in one pass: a large side does not fit in the CPU caches, and a pass over
    it costs about as much as the work done in it.  Each step reads only what earlier steps
    wrote, so the results are those of the steps one after the other; the metonymy warnings
    are added last."""
    kind_of = _kind_index(side)
    lang = side.language
    mentions = side.mentions
    meto: list = []
    # Elements with equal attributes share one dictionary from here on (attributes are
    # only written while merging; there are few distinct combinations and many elements).
    attrs_of: dict = {}
    for kind in KINDS:
        coll = side.elements[kind]
        for eid in sorted(coll):
            g = coll[eid]
            items = tuple(g.attrs.items())
            g.attrs = attrs_of.setdefault(items, g.attrs)
            if kind == "entity":
                g.name_entropy = name_entropy(g)
            for docid in _doc_order(g):
                el = g.docs[docid]
                # one (kind, ID, DOCID) tuple for the mentions' entries and the language key
                key = (kind, eid, docid)
                for m in el.mentions:
                    mentions[m.id] = key
                lang[key] = _language(kind, el, docid, lang, kind_of)
            if kind == "entity":
                _metonymy_warnings(side.name, eid, g, meto)
    warnings.extend(meto)


def _kind_index(side: Side) -> dict:
    """Element ID -> its kind (the first of KINDS that has it), for all IDs."""
    index: dict = {}
    for k in reversed(KINDS):
        index.update(dict.fromkeys(side.elements[k], k))
    return index


def _language(kind: str, el: Any, docid: str, lang: dict, kind_of: dict) -> str | None:
    """The language label of the document element ``el`` (of ``kind``) in ``docid``: from
    its mentions' display texts, its names (entities), then its arguments' labels in ``lang``
    (relations, events; in (role, ID) order; one without a label makes the label MIXED).
    None if there is nothing to go by."""
    label: str | None = None  # None (nothing seen yet), the one language seen, or MIXED
    x: str | None
    for m in el.mentions:
        # the head, else the extent (only entity mentions have heads)
        loc = m.head if kind == "entity" and m.head is not None else m.extent
        x = locator_language(loc.text)
        if x != label:
            label = x if label is None else "MIXED"
    if kind == "entity":
        for n in el.names:
            x = classify_language(n)
            if x != label:
                label = x if label is None else "MIXED"
        return label
    if kind != "relation" and kind != "event":
        return label
    # The labels of the arguments (None: not loaded or no label), in (role, ID) order.  The
    # order only matters if one is None (it makes a label seen before it MIXED): otherwise
    # the result is the one language of all or MIXED, whatever the order.
    labels = [lang.get((kind_of.get(a.refid), a.refid, docid)) for a in el.arguments]
    if None in labels and len(labels) > 1:
        labels = [
            lang.get((kind_of.get(a.refid), a.refid, docid))
            for a in sorted(el.arguments, key=_ROLE_REFID)
        ]
    for x in labels:
        if x is None:
            if label is not None:
                label = "MIXED"
        elif x != label:
            label = x if label is None else "MIXED"
    return label


def _metonymy_warnings(side_name: str, eid: str, g: GlobalElement, warnings: list) -> None:
    """A warning for each metonymic mention of entity ``g`` whose head is one of its names
    (once per name)."""
    names = None  # the names of all documents, once a metonymic mention needs them
    for docid in _doc_order(g):
        for m in g.docs[docid].mentions:
            if m.style == "LITERAL":
                continue
            if names is None:
                names = set()
                for d in g.docs.values():
                    names.update(d.names)
            n = normalize_name(m.head.text)
            if n in names:
                warnings.append(
                    f"\nWARNING:  metonymic mention ({n}) in {side_name} document"
                    f" '{docid}' is the same as a name for entity '{eid}'\n"
                )
                names.discard(n)


def build_sides(
    ref_files: list, sys_files: list, params: Params, warnings: list
) -> tuple[Side, Side]:
    """The REF and SYS sides of files that keep the input rules (:mod:`acescore.rules.corpus`)."""
    rside = build_ref_side(ref_files, params, warnings)
    return rside, build_sys_side(rside, sys_files, params, warnings)


def build_ref_side(ref_files: list, params: Params, warnings: list) -> Side:
    rside = Side("REF")
    add_files(rside, ref_files, params, warnings)
    finish(rside, params, warnings)
    return rside


def build_sys_side(rside: Side, sys_files: list, params: Params, warnings: list) -> Side:
    """The SYS side against ``rside`` (not changed: one REF side can serve several)."""
    sside = Side("SYS")
    add_files(sside, sys_files, params, warnings, rside.documents)
    finish(sside, params, warnings)
    check_docs(rside, sside, warnings)
    return sside


def check_docs(ref: Side, sys: Side, warnings: list) -> None:
    """The NIST warning for every REF document without a SYS document (docs/rules/input.md §3.8; a data type
    difference is a broken rule: acescore.rules.corpus)."""
    for docid in sorted(ref.documents):
        if docid not in sys.documents:
            warnings.append(f"\nWARNING:  ref doc '{docid}' has no corresponding tst doc\n")
