"""One side's database: documents and global elements built from APF files (01 §3).

Elements with the same ID in several documents of one side form one *global element*; its
``docs`` maps each DOCID to the document element read there.  This module also does the
whole-side checks of the NIST tool: attribute conflicts across documents, relation argument
counts, the ID registry (duplicate IDs), argument checks, language labels, name entropy and
the metonymy warnings.  Orders follow 05-determinism.md (IDs and DOCIDs in code-point order).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Iterable, Optional

from acescore.errors import AceInputError
from acescore.model import KINDS, PLURAL, ApfFile, Document
from acescore.params import SYMMETRIC_RELATIONS, Params
from acescore.reading.text import classify_language, normalize_name

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
    docs: dict = field(default_factory=dict)        # docid -> document element
    attrs: dict = field(default_factory=dict)       # merged attributes
    level: Optional[str] = None                     # entities: highest document level
    name_entropy: Optional[float] = None            # entities
    arguments: dict = field(default_factory=dict)   # role -> sorted tuple of ids (union)
    links: dict = field(default_factory=dict)       # RESOURCE -> EID
    origin: Optional[str] = None                    # promoted mentions: the host element ID

    def sorted_docs(self):
        return sorted(self.docs)

    _arg_pairs: Optional[tuple] = field(default=None, repr=False, compare=False)

    @property
    def arg_pairs(self) -> tuple[tuple[str, str], ...]:
        """(role, ID) pairs in (role, ID) order (cached; reset when arguments change)."""
        ap = self._arg_pairs
        if ap is None:
            ap = self._arg_pairs = tuple([(r, i) for r in sorted(self.arguments)
                                          for i in self.arguments[r]])
        return ap


@dataclass
class Side:
    """The database of one side (``REF`` or ``SYS``)."""
    name: str
    documents: dict = field(default_factory=dict)          # docid -> Document
    all_documents: dict = field(default_factory=dict)      # incl. unevaluated SYS documents
    elements: dict = field(default_factory=lambda: {k: {} for k in KINDS})
    language: dict = field(default_factory=dict)           # (kind, id, docid) -> label|None
    mentions: dict = field(default_factory=dict)           # mention id -> (kind, element id, docid)

    def of(self, kind: str) -> dict:
        return self.elements[kind]


def _doc_order(g: GlobalElement):
    """The DOCIDs of ``g`` in code-point order (most elements are in one document: no
    sorting then)."""
    docs = g.docs
    return docs if len(docs) == 1 else sorted(docs)


_ROLE_REFID = attrgetter("role", "refid")      # the (role, ID) order of arguments


def _attr_conflict(kind, eid, docid, attr, old, new, path):
    raise AceInputError(f"attribute value conflict for attribute '{attr}' for {kind} '{eid}':"
                        f" database value is '{old}', document value is '{new}'", path,
                        None, f"{kind} {eid}", docid)


def _merge(side: Side, doc: Document, el, warnings: list) -> None:
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
        g = coll[el.id] = GlobalElement(el.id, kind, {doc.docid: el}, first,
                                        arguments=({} if kind in ("relation", "event")
                                                   else NOTHING),
                                        links=NOTHING)
    else:
        g.docs[doc.docid] = el
        for a in sorted(attrs):
            v = attrs[a]
            if v is None:
                continue
            old = g.attrs.get(a)
            if old is None:
                g.attrs[a] = v
            elif old != v:
                if a == "LEVEL":
                    if LEVEL_WEIGHT[v] > LEVEL_WEIGHT[old]:
                        g.attrs[a] = v
                else:
                    _attr_conflict(kind, el.id, doc.docid, a, old, v, doc.path)
    if kind == "entity":
        g.level = g.attrs.get("LEVEL")
    if el.links and g.links is NOTHING:
        g.links = {}
    for res, eid in el.links:
        old = g.links.get(res)
        if old is not None and old != eid:
            raise AceInputError(f"conflicting external ID's ('{old}'/'{eid}') given for resource"
                                f" '{res}'", doc.path, el.line, f"{kind} {el.id}", doc.docid)
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
        if kind == "relation":
            _check_relation_args(g, doc, el)


def _check_relation_args(g: GlobalElement, doc: Document, el) -> None:
    if g.attrs["TYPE"] in SYMMETRIC_RELATIONS:
        ids = g.arguments.get("Arg")
        if not ids:
            problem = f"symmetric relation '{g.id}' has no 'Arg' arguments"
        elif len(ids) != 2:
            problem = (f"symmetric relation '{g.id}' must have exactly 2 'Arg' arguments,"
                       " but: Arg arguments: " + " and ".join(f"'{i}'" for i in ids))
        else:
            return
    else:
        for role in ("Arg-1", "Arg-2"):
            ids = g.arguments.get(role)
            if not ids:
                problem = f"non-symmetric relation '{g.id}' has no '{role}' arguments"
                break
            if len(ids) != 1:
                problem = (f"non-symmetric relation '{g.id}' must have exactly 1 '{role}'"
                           f" arguments, but: {role} arguments: "
                           + " and ".join(f"'{i}'" for i in ids))
                break
        else:
            return
    raise AceInputError(problem, path=doc.path, line=el.line, element=f"relation {g.id}",
                        docid=doc.docid)


def name_entropy(g: GlobalElement) -> Optional[float]:
    n_docs = len(g.docs)
    if n_docs < 2:
        return None         # every name count is >= n_docs
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


def add_files(side: Side, files: Iterable[ApfFile], params: Params, warnings: list,
              eval_docs: Optional[dict] = None) -> None:
    """Merge the documents of ``files`` into ``side``.  For the SYS side, ``eval_docs`` is the
    REF document table: documents not in it are skipped with the NIST warning."""
    for f in files:
        evaluable = 0
        for doc in f.documents:
            if doc.docid in side.all_documents:
                raise AceInputError(f"document ID '{doc.docid}' has already been defined",
                                    doc.path, doc.line, f"document {doc.docid}")
            side.all_documents[doc.docid] = doc
            if eval_docs is not None:
                ref = eval_docs.get(doc.docid)
                if ref is None:
                    warnings.append(f"\n\nWARNING:  INPUT ERROR in document '{doc.docid}' in file"
                                    f" '{doc.path}'\n    system output for unevaluated document\n")
                    continue
                if ref.source != doc.source:
                    raise AceInputError(f"system source ({doc.source}) disagrees with reference"
                                        f" source ({ref.source})", doc.path, doc.line,
                                        f"document {doc.docid}")
            side.documents[doc.docid] = doc
            evaluable += 1
            for els in (doc.relations, doc.events):     # the reader's warnings, in its order
                for el in els:
                    warnings.extend(el.warnings)
            for els in (doc.entities, doc.relations, doc.events, doc.timex2s, doc.values):
                for el in els:
                    _merge(side, doc, el, warnings)
        if not evaluable:
            warnings.append(f"\nWARNING:  file '{f.path}' contains no evaluable documents\n")


def finish(side: Side, params: Params, warnings: list) -> None:
    """Registry, name entropy, languages, argument checks, metonymy warnings.

    The registry, the name entropies, the language labels, the metonymy warnings and the
    argument checks all go through the elements in the same order (KINDS, then IDs, then
    DOCIDs), so they are done in one pass: a large side does not fit in the CPU caches, and
    a pass over it costs about as much as the work done in it.  Each step reads only what
    earlier steps wrote, so the results are those of the steps one after the other
    (:func:`label_languages`, :func:`check_arguments`, :func:`metonymy_warnings`): the
    argument checks are only tried in the pass (the registry is not complete yet) and are
    redone after it, in order, if they find a problem; the metonymy warnings are added
    last.  (On an error the side is incomplete anyway.)"""
    registry: dict = {}
    kind_of = _kind_index(side)
    lang = side.language
    mentions = side.mentions
    meto: list = []
    args_ok = True      # no argument problem found so far (see below)
    # Elements with equal attributes share one dictionary from here on (attributes are
    # only written while merging; there are few distinct combinations and many elements).
    attrs_of: dict = {}
    for kind in KINDS:
        coll = side.elements[kind]
        mention_label = f"{kind} mention"
        for eid in sorted(coll):
            g = coll[eid]
            items = tuple(g.attrs.items())
            g.attrs = attrs_of.setdefault(items, g.attrs)
            if kind == "entity":
                g.name_entropy = name_entropy(g)
            if eid in registry:
                other = registry[eid]
                d = side.documents[g.sorted_docs()[0]]
                raise AceInputError(f"duplicate ID ({eid}) for elements of type '{PLURAL[kind]}'"
                                    f" and '{other}'", d.path, g.docs[d.docid].line,
                                    f"{kind} {eid}", d.docid)
            registry[eid] = kind
            for docid in _doc_order(g):
                el = g.docs[docid]
                # one (kind, ID, DOCID) tuple for the mentions' entries and the language key
                key = (kind, eid, docid)
                for m in el.mentions:
                    mid = m.id
                    if mid in registry:
                        d = side.documents[docid]
                        raise AceInputError(f"duplicate ID ({mid}) for mentions of elements of"
                                            f" type '{kind}' and '{registry[mid]}'", d.path,
                                            m.line, f"{kind} {eid}", docid)
                    registry[mid] = mention_label
                    mentions[mid] = key
                lang[key] = _language(kind, el, docid, lang, kind_of)
            if kind == "entity":
                _metonymy_warnings(side.name, eid, g, meto)
            elif args_ok and (kind == "relation" or kind == "event"):
                # Checked here while g is at hand, with the registry as far as it goes;
                # on any problem the checks are redone in their order once it is complete.
                args_ok = _argument_problem(side, kind, eid, g, kind_of) is None
    if not args_ok:
        for kind in ("relation", "event"):
            check_arguments(side, kind, kind_of)
    warnings.extend(meto)


def _kind_index(side: Side) -> dict:
    """Element ID -> its kind (the first of KINDS, as :func:`element_kind`), for all IDs."""
    index: dict = {}
    for k in reversed(KINDS):
        index.update(dict.fromkeys(side.elements[k], k))
    return index


def label_languages(side: Side) -> None:
    """The language label of every document element (``side.language``), elements in KINDS,
    ID and DOCID order (:func:`finish` does the same in its single pass)."""
    kind_of = _kind_index(side)
    lang = side.language
    for kind in KINDS:
        coll = side.elements[kind]
        for eid in sorted(coll):
            g = coll[eid]
            for docid in _doc_order(g):
                lang[(kind, eid, docid)] = _language(kind, g.docs[docid], docid, lang, kind_of)


def _language(kind: str, el, docid: str, lang: dict, kind_of: dict) -> Optional[str]:
    """The language label of the document element ``el`` (of ``kind``) in ``docid``: from
    its mentions' display texts, its names (entities), then its arguments' labels in ``lang``
    (relations, events; in (role, ID) order; one without a label makes the label MIXED).
    None if there is nothing to go by."""
    label = None        # None (nothing seen yet), the one language seen, or MIXED
    for m in el.mentions:
        # the head, else the extent (only entity mentions have heads)
        loc = m.head if kind == "entity" and m.head is not None else m.extent
        x = classify_language(loc.display)
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
        labels = [lang.get((kind_of.get(a.refid), a.refid, docid))
                  for a in sorted(el.arguments, key=_ROLE_REFID)]
    for x in labels:
        if x is None:
            if label is not None:
                label = "MIXED"
        elif x != label:
            label = x if label is None else "MIXED"
    return label


def element_kind(side: Side, eid: str) -> Optional[str]:
    for k in KINDS:
        if eid in side.elements[k]:
            return k
    return None


def check_arguments(side: Side, kind: str, kind_of: Optional[dict] = None) -> None:
    """Every argument of the ``kind`` elements must be loaded and occur in the document;
    every mention argument must be a loaded mention of an argument of the element in that
    role.  Needs the registry (``side.mentions``) of :func:`finish`; ``kind_of``:
    :func:`_kind_index` if already built."""
    if kind_of is None:
        kind_of = _kind_index(side)
    coll = side.elements[kind]
    for eid in sorted(coll):
        problem = _argument_problem(side, kind, eid, coll[eid], kind_of)
        if problem is not None:
            raise problem


def _argument_problem(side: Side, kind: str, eid: str, g: GlobalElement,
                      kind_of: dict) -> Optional[AceInputError]:
    """The first argument error of element ``g`` (see :func:`check_arguments`), or None."""
    for role, aid in g.arg_pairs:
        if aid not in kind_of:
            d = side.documents[g.sorted_docs()[0]]
            return AceInputError(f"{kind} '{eid}' references argument '{aid}' in role"
                                 f" '{role}' but this argument has not been loaded",
                                 d.path, g.docs[d.docid].line, f"{kind} {eid}", d.docid)
    mentions = side.mentions
    for docid in _doc_order(g):
        d = g.docs[docid]
        for a in d.arguments:
            ak = kind_of.get(a.refid)
            if ak is not None and docid not in side.elements[ak][a.refid].docs:
                return AceInputError(f"argument '{a.refid}' in role '{a.role}' does not occur"
                                     " in this document", side.documents[docid].path, d.line,
                                     f"{kind} {eid}", docid)
        for m in d.mentions:
            for a in m.arguments:
                if not _mention_of_argument(a, mentions, g):
                    return _mention_argument_error(side, kind, eid, docid, m, g)
    return None


def _mention_of_argument(a, mentions: dict, g: GlobalElement) -> bool:
    """Whether mention argument ``a`` of ``g`` refers to a mention of one of the arguments
    of ``g`` in its role: the element of the mention (the registry ``mentions``, where every
    mention ID has one element) is one of them."""
    host = mentions.get(a.refid)
    return host is not None and host[1] in g.arguments.get(a.role, ())


def _mention_argument_error(side: Side, kind: str, eid: str, docid: str, m,
                            g: GlobalElement) -> AceInputError:
    """The error for the first bad argument of mention ``m`` in (role, ID) order."""
    path = side.documents[docid].path
    for a in sorted(m.arguments, key=_ROLE_REFID):
        if a.refid not in side.mentions:
            return AceInputError(f"{kind} mention '{m.id}' references argument mention"
                                 f" '{a.refid}' in role '{a.role}' but this argument"
                                 " mention has not been loaded", path, m.line,
                                 f"{kind} {eid}", docid)
        if not _mention_of_argument(a, side.mentions, g):
            return AceInputError(f"{kind} mention '{m.id}' references argument mention"
                                 f" '{a.refid}' in role '{a.role}' but this argument"
                                 f" mention is not a mention of any argument of {kind}"
                                 f" '{eid}' in this role", path, m.line,
                                 f"{kind} {eid}", docid)
    raise AssertionError("no bad mention argument")     # pragma: no cover


def metonymy_warnings(side: Side, warnings: list) -> None:
    ents = side.elements["entity"]
    for eid in sorted(ents):
        _metonymy_warnings(side.name, eid, ents[eid], warnings)


def _metonymy_warnings(side_name: str, eid: str, g: GlobalElement, warnings: list) -> None:
    """A warning for each metonymic mention of entity ``g`` whose head is one of its names
    (once per name)."""
    names = None        # the names of all documents, once a metonymic mention needs them
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
                warnings.append(f"\nWARNING:  metonymic mention ({n}) in {side_name} document"
                                f" '{docid}' is the same as a name for entity '{eid}'\n")
                names.discard(n)


def check_docs(ref: Side, sys: Side, warnings: list) -> None:
    for docid in sorted(ref.documents):
        s = sys.documents.get(docid)
        if s is None:
            warnings.append(f"\nWARNING:  ref doc '{docid}' has no corresponding tst doc\n")
            continue
        r = ref.documents[docid]
        if s.data_type != r.data_type:
            raise AceInputError(f"different reference and system output data types for document"
                                f" '{docid}': ref type is '{r.data_type}' but system output type"
                                f" is '{s.data_type}'", s.path, s.line, f"document {docid}")
