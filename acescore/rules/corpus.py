"""The whole-corpus input rules of docs/rules/input.md §3, written once, for every caller.

Between reading (:mod:`acescore.reading.apf`, whose element checks report through the same
:mod:`acescore.model.problems` policies) and building the two sides (:mod:`acescore.rules.database`):

* §3.1 documents: a DOCID defined more than once on one side; a SYS document whose SOURCE
  or data type (§3.8) differs from the REF document's;
* §3.2 merging: attribute and external-link conflicts between the documents of one global
  element; relation argument counts (on the union over documents);
* §3.3 the ID registry: an element or mention ID used twice on one side;
* §3.6 arguments: an argument or argument mention that was not loaded, an argument that does
  not occur in the relation's or event's document, a mention argument that is not a mention
  of an argument of the element in that role.

Each rule yields :class:`~acescore.model.problems.Problem` records with the NIST wording, in the
canonical order (documents first; then per side: the checks in the order above, kinds in
KINDS order, IDs and DOCIDs in code-point order -- so the outcome does not depend on the
order of the input files).  A yielded problem's elements (or documents) count as removed from
then on (the caller's sets are updated), so the later checks are those of the corpus
without them, and :func:`side_problems` repeats the checks until nothing changes (a relation
whose argument was removed is removed in turn).  The callers differ only in what they do
with the problems: strict mode raises the first (:func:`first_problem`), lenient mode
(:mod:`acescore.rules.robust`) skips them all and scores the rest, ``acescore validate`` lists
them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from operator import attrgetter
from typing import Any

from acescore.model.apf import KINDS, PLURAL, Document, Relation
from acescore.model.params import SYMMETRIC_RELATIONS
from acescore.model.problems import Problem
from acescore.rules.old_versions import missing_ref_document, old_relation_problem

_ROLE_REFID = attrgetter("role", "refid")  # the (role, ID) order of arguments
_DOCID = attrgetter("docid")


def _ids(ids: Iterable[str]) -> str:
    return " and ".join(f"'{i}'" for i in sorted(ids))


# ---- §3.1 / §3.8: documents --------------------------------------------------------------------


def document_problems(ref_files: list, sys_files: list, removed_docs: set) -> Iterator[Problem]:
    """A DOCID defined more than once on one side (every copy after the first in (path,
    line) order is a problem; the DOCID is removed on both sides), a SYS SOURCE or data type
    different from REF.  ``sys_files`` may be empty (one side only)."""
    for name, files in (("REF", ref_files), ("SYS", sys_files)):
        where: dict = {}
        for f in files:
            for d in f.documents:
                if d.docid not in removed_docs:
                    where.setdefault(d.docid, []).append(d)
        for docid in sorted(where):
            copies = where[docid]
            if len(copies) < 2:
                continue
            copies = sorted(copies, key=lambda d: (d.path, d.line))
            first = copies[0]
            removed_docs.add(docid)
            for d in copies[1:]:
                yield Problem(
                    name,
                    "document",
                    f"document ID '{docid}' has already been defined",
                    d.path,
                    d.line,
                    f"document {docid}",
                    (docid,),
                    rule="docid-twice",
                    cause=f"DOCID {docid} is also defined at {first.path}:{first.line}",
                )
    ref_docs = {d.docid: d for f in ref_files for d in f.documents if d.docid not in removed_docs}
    for f in sys_files:
        for d in f.documents:
            r = ref_docs.get(d.docid)
            if d.docid in removed_docs:
                continue
            if r is None:
                if d.nist == "ace05" and ref_files:  # (ace05 dies on it)
                    removed_docs.add(d.docid)
                    yield missing_ref_document(d)
                continue
            if r.source != d.source:
                removed_docs.add(d.docid)
                yield Problem(
                    "SYS",
                    "document",
                    f"system source ({d.source}) disagrees with reference source ({r.source})",
                    d.path,
                    d.line,
                    f"document {d.docid}",
                    (d.docid,),
                    rule="source-differs",
                )
            elif r.data_type != d.data_type:
                removed_docs.add(d.docid)
                yield Problem(
                    "SYS",
                    "document",
                    "different reference and system output data"
                    f" types for document '{d.docid}': ref type is '{r.data_type}'"
                    f" but system output type is '{d.data_type}'",
                    d.path,
                    d.line,
                    f"document {d.docid}",
                    (d.docid,),
                    rule="data-type-differs",
                )


def side_documents(
    files: Iterable, removed_docs: Set[str] = frozenset(), eval_docids: set | None = None
) -> list:
    """The documents of one side that the side is built from: not removed, and for SYS
    (``eval_docids``: the REF DOCIDs) only those with a REF document."""
    seen = set()
    docs = []
    for f in files:
        for d in f.documents:
            if d.docid in removed_docs or (eval_docids is not None and d.docid not in eval_docids):
                continue
            if d.docid in seen:  # a duplicate DOCID: document_problems reports it
                continue
            seen.add(d.docid)
            docs.append(d)
    return docs


# ---- one side ----------------------------------------------------------------------------------


class _SideIndex:
    """The live document elements of one side: kind -> ID -> [(docid, element, document)]
    in DOCID order."""

    def __init__(self, docs: list, removed: set):
        self.by_kind: dict = {k: {} for k in KINDS}
        for d in sorted(docs, key=_DOCID):
            docid = d.docid
            for kind in KINDS:
                coll = self.by_kind[kind]
                for el in getattr(d, PLURAL[kind]):
                    if removed and (kind, el.id, docid) in removed:
                        continue
                    entries = coll.get(el.id)
                    if entries is None:
                        coll[el.id] = [(docid, el, d)]
                    else:
                        entries.append((docid, el, d))
        self.kinds: dict = {}
        for k in reversed(KINDS):
            self.kinds.update(dict.fromkeys(self.by_kind[k], k))
        self._owners: dict | None = None
        self.n_mentions = 0

    def owners(self) -> dict:
        """Mention ID -> the ID of its element (the last one, should IDs repeat)."""
        if self._owners is None:
            owners: dict = {}
            n = 0
            for k in KINDS:
                for eid, entries in self.by_kind[k].items():
                    for _docid, el, _doc in entries:
                        ms = el.mentions
                        n += len(ms)
                        for m in ms:
                            owners[m.id] = eid
            self._owners, self.n_mentions = owners, n
        return self._owners


class _Rules:
    """The checks of one side; ``skip`` turns a broken rule into a problem and removes what
    it names."""

    def __init__(self, name: str, removed: set):
        self.name = name
        self.removed = removed

    def skip(
        self,
        rule: str,
        message: str,
        doc: Document,
        el: Any,
        kind: str,
        eid: str,
        docids: Iterable[str] | None = None,
        note: str | None = None,
        line: int | None = None,
        cause: str | None = None,
        subject: str | None = None,
    ) -> Problem | None:
        keys = []
        for docid in docids if docids is not None else (doc.docid,):
            key = (kind, eid, docid)
            if key not in self.removed:
                self.removed.add(key)
                keys.append(key)
        if not keys:
            return None
        return Problem(
            self.name,
            "element",
            message,
            doc.path,
            line or el.line or None,
            f"{kind} {eid}",
            tuple(sorted({k[2] for k in keys})),
            tuple(keys),
            note,
            rule,
            cause,
            subject,
        )

    # docs/rules/input.md §3.2: attribute conflicts, external links, relation argument counts
    def merge(self, ix: _SideIndex) -> Iterator[Problem]:
        for kind in KINDS:
            coll = ix.by_kind[kind]
            # elements of one document have nothing to merge (but a relation's arguments)
            ids = coll if kind == "relation" else [i for i, e in coll.items() if len(e) > 1]
            for eid in sorted(ids):
                entries = coll[eid]
                attrs: dict = {}  # name -> (value, DOCID)
                links: dict = {}  # resource -> (EID, DOCID)
                args: dict = {}
                kept: list = []
                for docid, el, doc in entries:
                    problem: tuple | None = None
                    a_new = el.attributes()
                    for a in sorted(a_new):
                        v = a_new[a]
                        # ace08 keeps the highest LEVEL; the older versions refuse a
                        # conflict (docs/rules/versions.md §2.7)
                        if v is None or (a == "LEVEL" and doc.nist == "ace08"):
                            continue
                        old = attrs.get(a)
                        if old is not None and old[0] != v:
                            problem = (
                                "attribute-conflict",
                                f"attribute value conflict for attribute '{a}' for {kind}"
                                f" '{eid}': database value is '{old[0]}', document value"
                                f" is '{v}'",
                                f"{kind} {eid} has {a} '{old[0]}' in document {old[1]}"
                                f" but '{v}' here",
                            )
                            break
                    if problem is None:
                        for res, x in el.links:
                            old = links.get(res)
                            if old is not None and old[0] != x:
                                problem = (
                                    "link-conflict",
                                    f"conflicting external ID's ('{old[0]}'/'{x}') given"
                                    f" for resource '{res}'",
                                    f"{kind} {eid} is linked to {res} '{old[0]}' in"
                                    f" document {old[1]} but to '{x}' here",
                                )
                                break
                    new_args = args
                    if problem is None and kind in ("relation", "event"):
                        new_args = {r: set(s) for r, s in args.items()}
                        for a in el.arguments:
                            new_args.setdefault(a.role, set()).add(a.refid)
                        if kind == "relation":
                            problem = _relation_problem(
                                eid, attrs.get("TYPE", (el.type,))[0], new_args, kept, el
                            )
                    if problem is not None:
                        p = self.skip(
                            problem[0],
                            problem[1],
                            doc,
                            el,
                            kind,
                            eid,
                            note=None
                            if not kept
                            else f"kept in document{'s' if len(kept) > 1 else ''} "
                            + ", ".join(k[0] for k in kept),
                            cause=problem[2],
                        )
                        if p is not None:
                            yield p
                        continue
                    for a in sorted(a_new):
                        if a_new[a] is not None and a not in attrs:
                            attrs[a] = (a_new[a], docid)
                    for res, x in el.links:
                        links.setdefault(res, (x, docid))
                    args = new_args
                    kept.append((docid, el, doc))

    # docs/rules/input.md §3.3: one registry of element and mention IDs per side
    def registry(self, ix: _SideIndex) -> Iterator[Problem]:
        if _ids_unique(ix):
            return
        registry: dict = {}  # ID -> (element type, path, line)
        for kind in KINDS:
            coll = ix.by_kind[kind]
            mention_label = f"{kind} mention"
            for eid in sorted(coll):
                entries = coll[eid]
                if eid in registry:
                    _docid, el, doc = entries[0]
                    other = registry[eid]
                    p = self.skip(
                        "duplicate-id",
                        f"duplicate ID ({eid}) for elements of type"
                        f" '{PLURAL[kind]}' and '{other[0]}'",
                        doc,
                        el,
                        kind,
                        eid,
                        docids=[e[0] for e in entries],
                        cause=f"ID {eid} is also the ID of the {other[0]} at {other[1]}:{other[2]}",
                    )
                    if p is not None:
                        yield p
                    continue
                survivors = 0
                own = {eid}
                for _docid, el, doc in entries:
                    bad = None
                    ids: dict = {}
                    for m in el.mentions:
                        other = registry.get(m.id)
                        if other is None and m.id in own:
                            other = (kind, doc.path, el.line)
                        if other is None and m.id in ids:
                            other = (mention_label, doc.path, ids[m.id])
                        if other is not None:
                            bad = (
                                f"duplicate ID ({m.id}) for mentions of elements of type"
                                f" '{kind}' and '{other[0]}'",
                                m.line,
                                f"mention ID {m.id} is also the ID of the {other[0]} at"
                                f" {other[1]}:{other[2]}",
                            )
                            break
                        ids[m.id] = m.line
                    if bad is not None:
                        p = self.skip(
                            "duplicate-mention-id",
                            bad[0],
                            doc,
                            el,
                            kind,
                            eid,
                            line=bad[1],
                            cause=bad[2],
                        )
                        if p is not None:
                            yield p
                        continue
                    survivors += 1
                    for m, line in ids.items():
                        registry[m] = (mention_label, doc.path, line)
                    own.update(ids)
                if survivors:
                    _docid, el, doc = entries[0]
                    registry[eid] = (kind, doc.path, el.line)

    # docs/rules/input.md §3.6: arguments and argument mentions (the IDs are unique: registry found nothing)
    def arguments(self, ix: _SideIndex) -> Iterator[Problem]:
        mentions = ix.owners()  # mention ID -> its element's ID
        kinds = ix.kinds
        by_kind = ix.by_kind
        for kind in ("relation", "event"):
            coll = by_kind[kind]
            for eid in sorted(coll):
                entries = []
                for docid, el, doc in coll[eid]:
                    bad: tuple | None = None
                    for a in el.arguments:
                        if a.refid not in kinds:
                            a = min(
                                (a for a in el.arguments if a.refid not in kinds), key=_ROLE_REFID
                            )
                            bad = (
                                f"{kind} '{eid}' references argument '{a.refid}' in role"
                                f" '{a.role}' but this argument has not been loaded",
                                f"{a.refid} is the ID of a mention, not of an element"
                                if a.refid in mentions
                                else None,
                                a.refid,
                            )
                            break
                    if bad:
                        p = self.skip(
                            "argument-not-loaded",
                            bad[0],
                            doc,
                            el,
                            kind,
                            eid,
                            cause=bad[1],
                            subject=bad[2],
                        )
                        if p is not None:
                            yield p
                    else:
                        entries.append((docid, el, doc))
                # the element-level arguments by role: a mention argument must be a mention
                # of one of them
                roles: dict = {}
                for _docid, el, _doc in entries:
                    for a in el.arguments:
                        ids = roles.get(a.role)
                        if ids is None:
                            roles[a.role] = {a.refid}
                        else:
                            ids.add(a.refid)
                for docid, el, doc in entries:
                    bad = None
                    for a in el.arguments:
                        occ = by_kind[kinds[a.refid]][a.refid]
                        if occ[0][0] != docid and all(d2 != docid for d2, _e, _dd in occ):
                            bad = (
                                "argument-elsewhere",
                                f"argument '{a.refid}' in role"
                                f" '{a.role}' does not occur in this document",
                                None,
                                None,
                                a.refid,
                            )
                            break
                    if bad is None:
                        bad = _mention_argument_problem(kind, eid, el, mentions, roles, kinds)
                    if bad:
                        p = self.skip(
                            bad[0],
                            bad[1],
                            doc,
                            el,
                            kind,
                            eid,
                            line=bad[2],
                            cause=bad[3],
                            subject=bad[4],
                        )
                        if p is not None:
                            yield p


def _ids_unique(ix: _SideIndex) -> bool:
    """Whether every element ID is of one kind and every mention ID occurs once and is no
    element ID (then the registry has no problem)."""
    n = sum(len(ix.by_kind[k]) for k in KINDS)
    if len(ix.kinds) != n:
        return False
    owners = ix.owners()
    return len(owners) == ix.n_mentions and owners.keys().isdisjoint(ix.kinds)


def _mention_argument_problem(
    kind: str, eid: str, el: Any, mentions: dict, roles: dict, kinds: dict
) -> tuple | None:
    """(rule, message, line, cause, ID) of the first bad mention argument of ``el``: one that
    is not a mention of an element-level argument in its role (``roles``: role -> IDs)."""
    for m in el.mentions:
        for a in m.arguments:
            if mentions.get(a.refid) not in roles.get(a.role, ()):
                break
        else:
            continue
        for a in sorted(m.arguments, key=_ROLE_REFID):
            owner = mentions.get(a.refid)
            if owner is None:
                return (
                    "mention-argument-not-loaded",
                    f"{kind} mention '{m.id}' references"
                    f" argument mention '{a.refid}' in role '{a.role}' but this argument"
                    " mention has not been loaded",
                    m.line,
                    f"{a.refid} is the ID of an element, not of a mention"
                    if a.refid in kinds
                    else None,
                    a.refid,
                )
            if owner not in roles.get(a.role, ()):
                return (
                    "mention-argument-not-of-argument",
                    f"{kind} mention '{m.id}'"
                    f" references argument mention '{a.refid}' in role '{a.role}' but this"
                    f" argument mention is not a mention of any argument of {kind}"
                    f" '{eid}' in this role",
                    m.line,
                    f"argument mention {a.refid} of mention {m.id} is a mention of"
                    f" {owner}, which is not an argument of {kind} {eid} in role"
                    f" {a.role}",
                    a.refid,
                )
    return None


def _relation_problem(
    eid: str, rtype: str, args: dict, kept: list, el: Relation
) -> tuple[str, str, str | None] | None:
    """(rule, message, cause) when the arguments ``args`` accumulated over the documents
    ``kept`` and the relation ``el`` break the argument rule (docs/rules/input.md §3.2: checked after every
    merge, so the relation of every document must keep the rule)."""
    if el.tense is not None:  # read by an older version: Arg-1 and Arg-2 for every type
        return old_relation_problem(eid, args)
    if rtype in SYMMETRIC_RELATIONS:
        ids = args.get("Arg", ())
        if len(ids) == 2:
            return None
        if not ids:
            return (
                "relation-arguments",
                f"symmetric relation '{eid}' has no 'Arg' arguments",
                "the relation has no arguments",
            )
        msg = (
            f"symmetric relation '{eid}' must have exactly 2 'Arg' arguments, but: Arg"
            f" arguments: {_ids(ids)}"
        )
        if len(ids) > 2:
            cause = "the relation has more than two arguments"
        elif el.both_args:
            cause = f"Arg-1 and Arg-2 are the same entity ({el.both_args[0]})"
        else:
            cause = f"the relation has only one argument ({_ids(ids)})"
    else:
        for role in ("Arg-1", "Arg-2"):
            ids = args.get(role, ())
            if not ids:
                return (
                    "relation-arguments",
                    f"non-symmetric relation '{eid}' has no '{role}' arguments",
                    f"the relation has no {role}",
                )
            if len(ids) > 1:
                break
        else:
            return None
        msg = (
            f"non-symmetric relation '{eid}' must have exactly 1 '{role}' arguments, but:"
            f" {role} arguments: {_ids(ids)}"
        )
        cause = f"the relation has more than one {role}"
    if kept:
        cause = f"its arguments here differ from those in document {kept[0][0]}"
    return "relation-arguments", msg, cause


def side_problems(name: str, docs: list, removed: set) -> Iterator[Problem]:
    """The problems of one side's documents ``docs`` (:func:`side_documents`), in canonical
    order; the skipped document elements ``(kind, ID, DOCID)`` are added to ``removed``.  The
    checks are repeated until nothing changes."""
    rules = _Rules(name, removed)
    while True:
        n = len(removed)
        ix = _SideIndex(docs, removed)
        for check in (rules.merge, rules.registry, rules.arguments):
            yield from check(ix)
            if len(removed) != n:
                break  # the index is out of date: start again
        else:
            return


def corpus_problems(
    ref_files: list,
    sys_files: list,
    removed_docs: set | None = None,
    removed_ref: set | None = None,
    removed_sys: set | None = None,
) -> Iterator[Problem]:
    """Every problem of a REF and a SYS corpus (files already read), in canonical order:
    documents, then the REF side, then the SYS side (its documents with a REF document).
    ``removed_docs`` (DOCIDs, both sides) and ``removed_ref``/``removed_sys`` (document
    elements) receive what the problems remove; documents already in ``removed_docs`` are
    left out."""
    removed_docs = set() if removed_docs is None else removed_docs
    yield from document_problems(ref_files, sys_files, removed_docs)
    rdocs = side_documents(ref_files, removed_docs)
    yield from side_problems("REF", rdocs, set() if removed_ref is None else removed_ref)
    eval_docids = {d.docid for d in rdocs}
    yield from side_problems(
        "SYS",
        side_documents(sys_files, removed_docs, eval_docids),
        set() if removed_sys is None else removed_sys,
    )


def first_problem(problems: Iterable[Problem]) -> Problem | None:
    """Strict mode: the first problem (None if there is none)."""
    for p in problems:
        return p
    return None
