"""Lenient mode: skip what is broken, score the rest, say exactly what was skipped.

In strict mode (the default, like the NIST tool) the first fatal input problem stops the run.
In lenient mode every such problem is *isolated*:

* **element level** -- an entity, relation, event, value or timex2 that cannot be read
  (bad attribute, bad locator, no mentions ...) is skipped; so is the later of two elements
  with the same ID in one document;
* **document level** -- a file that cannot be read at all (missing, too large, not UTF-8,
  entity declarations, malformed XML), a ``source_file`` with bad attributes, a ``document``
  without DOCID, a DOCID defined more than once on one side, a SYS document whose SOURCE or
  data type differs from the REF document: the document(s) concerned are skipped **on both
  sides**, so that REF and SYS stay comparable.  The DOCIDs of an unreadable file are taken
  from its ``<document DOCID=...>`` tags, or, when none can be found, from the file name.
  A file left without documents is dropped altogether (its SOURCE no longer counts);
* **whole-side checks** (01 §3) are isolated too, in canonical order (DOCIDs, kinds and IDs
  in code-point order, so the outcome does not depend on the order of the input files):
  an element that conflicts with the same global element in an earlier document (attributes,
  external links, relation arguments) is skipped in the later document; a relation whose
  merged arguments are still incomplete is skipped; of two elements or mentions sharing an
  ID the later one in registry order (01 §3.3) is skipped; a relation or event whose
  argument (or argument mention) is missing, skipped, or not in its document is skipped --
  and so on, until nothing changes (cascade).

The result is by construction the strict result on the corpus without the skipped elements
and documents: after the isolation above the ordinary (strict) database builder of
:mod:`acescore.database` is run on what is left, and should it still reject something (the
checks above cover every whole-side check, so this is a safety net), the element or
document it names is skipped as well and the build is repeated.  A corpus that strict mode
accepts is scored identically in lenient mode, with nothing skipped.

Every skip is a :class:`Skip` (side, file, line, element, message -- the strict mode
message); :class:`SkipReport` counts them for the JSON report (``"skipped"``) and standard
error.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Optional

from acescore.database import Side, add_files, check_docs, finish
from acescore.errors import AceInputError
from acescore.model import KINDS, PLURAL, ApfFile
from acescore.params import SYMMETRIC_RELATIONS, Params
from acescore.reading.apf import DEFAULT_MAX_BYTES, _Reader, parse_xml
from acescore.reading.safe_read import read_bytes

SIDE_ORDER = {"REF": 0, "SYS": 1, None: 2}
UNKNOWN_DOCID = "its DOCID is unknown"
_DOCID_TAG = re.compile(r"""<document\b[^>]*?\bDOCID\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SCAN_BYTES = 1 << 20


# ---- skip records -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Skip:
    """One isolated input problem and what was skipped because of it.

    ``scope`` is ``element`` (``removed`` lists the skipped document elements as
    ``(kind, ID, DOCID)``) or ``document`` (``docids`` are skipped on both sides).
    ``message``/``path``/``line``/``element`` are those of the strict-mode error."""
    side: Optional[str]
    scope: str
    message: str
    path: Optional[str] = None
    line: Optional[int] = None
    element: Optional[str] = None
    docids: tuple = ()
    removed: tuple = ()
    note: Optional[str] = None

    def where(self) -> str:
        return str(AceInputError(self.message, self.path, self.line, self.element))

    def what(self) -> str:
        if self.scope == "document":
            what = "document" + ("s " if len(self.docids) > 1 else " ") + ", ".join(self.docids)
            what += " skipped on both sides"
        else:
            els = ", ".join(f"{k} {i}" if i is not None else k for k, i, _d in self.removed)
            what = f"{els or 'element'} skipped"
        if self.note:
            what += f"; {self.note}"
        return what

    def text(self) -> str:
        return f"{self.side or '?'}: {self.where()} [{self.what()}]"

    def as_dict(self) -> dict:
        d = {"side": self.side, "scope": self.scope, "file": self.path, "line": self.line,
             "element": self.element, "message": self.message}
        if self.scope == "document":
            d["documents"] = list(self.docids)
        else:
            d["skipped"] = [{"kind": k, "id": i, "document": dd} for k, i, dd in self.removed]
        if self.note:
            d["note"] = self.note
        d["text"] = self.text()
        return d

    def sort_key(self):
        return (SIDE_ORDER.get(self.side, 3), self.path or "", self.line or 0,
                self.element or "", self.message, self.docids,
                tuple((k, i or "", d or "") for k, i, d in self.removed))


@dataclass
class SkipReport:
    """What a lenient run skipped: counts and the reasons, in a canonical order."""
    reasons: list = field(default_factory=list)

    @property
    def elements(self) -> int:
        return sum(len(s.removed) for s in self.reasons if s.scope == "element")

    @property
    def documents(self) -> int:
        out = set()
        unknown = 0
        for s in self.reasons:
            if s.scope == "document":
                out.update(s.docids)
                unknown += s.note == UNKNOWN_DOCID
        return len(out) + unknown

    def as_dict(self) -> dict:
        return {"elements": self.elements, "documents": self.documents,
                "reasons": [s.as_dict() for s in self.reasons]}

    def summary(self) -> str:
        e, d = self.elements, self.documents
        return (f"lenient: skipped {e} element{'s' if e != 1 else ''} and {d}"
                f" document{'s' if d != 1 else ''} ({len(self.reasons)}"
                f" problem{'s' if len(self.reasons) != 1 else ''})")

    def lines(self) -> list[str]:
        return [self.summary()] + ["  " + s.text() for s in self.reasons]

    def __bool__(self) -> bool:
        return bool(self.reasons)


# ---- reading ----------------------------------------------------------------------------------

def guess_docid(path: str) -> str:
    base = os.path.basename(path)
    for suffix in (".apf.xml", ".apf", ".xml"):
        if base.endswith(suffix):
            return base[:-len(suffix)]
    return base


def scan_docids(path: str) -> tuple[tuple[str, ...], bool]:
    """DOCIDs named in the ``document`` tags of a file that cannot be read properly, and
    whether they were found (False: the DOCID is guessed from the file name)."""
    try:
        data = read_bytes(path, _SCAN_BYTES, head=True)    # a regular file only
    except AceInputError:
        data = b""
    found = []
    for m in _DOCID_TAG.finditer(data.decode("utf-8", "replace")):
        v = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        if v and v not in found:
            found.append(v)
    if found:
        return tuple(found), True
    return (guess_docid(path),), False


class _LenientReader(_Reader):
    """The strict reader with element- and document-level isolation."""

    def __init__(self, path: str, params: Params, log: list):
        super().__init__(path, params)
        self.log = log
        self.docid = None

    def _unique(self, node, tag, fn):
        out = []
        seen = set()
        for el in node.findall(tag):
            try:
                e = fn(el)
            except AceInputError as err:
                eid = self._get(el, "ID")
                self.log.append(Skip(None, "element", err.message, err.path, err.line,
                                     err.element, (self.docid,), ((tag, eid, self.docid),)))
                continue
            if e.id in seen:
                self.log.append(Skip(None, "element", f"multiple {tag} definitions (only one"
                                     " definition allowed per document)", self.path,
                                     el.sourceline, f"{tag} {e.id}", (self.docid,),
                                     ((tag, e.id, self.docid),),
                                     "the first definition is kept"))
                continue
            seen.add(e.id)
            out.append(e)
        return out

    def _skip_docs(self, err: AceInputError, docids, note=None) -> None:
        self.log.append(Skip(None, "document", err.message, err.path, err.line, err.element,
                             tuple(docids), (), note))

    def read_lenient(self, tree) -> Optional[ApfFile]:
        """Like :meth:`_Reader.read`; returns ``None`` when every document of a file that
        has documents was skipped."""
        root = tree.getroot()
        doctype = tree.docinfo.system_url
        sfs = [root] if root.tag == "source_file" else []
        documents = []
        sources = []
        seen: dict = {}
        had_documents = False
        all_docs = [d for sf in sfs for d in sf.findall("document")]
        for sf in sfs:
            docs = sf.findall("document")
            had_documents = had_documents or bool(docs)
            try:
                self.data_type = self.demand(sf, "TYPE", "source_file", ("text", "audio", "image"))
                uri = self.demand(sf, "URI", "source_file")
                source = self.demand(sf, "SOURCE", "source_file")
            except AceInputError as err:
                ids = []
                for d in docs:
                    v = self._get(d, "DOCID")
                    if v and v not in ids:
                        ids.append(v)
                note = None
                if not docs:
                    note = "the source_file has no documents"
                elif not ids:
                    ids = [guess_docid(self.path)]
                    note = "DOCID guessed from the file name"
                self._skip_docs(err, ids, note)
                continue
            kept = 0
            for doc in docs:
                try:
                    docid = self.demand(doc, "DOCID", "document")
                except AceInputError as err:
                    if len(all_docs) == 1:
                        self._skip_docs(err, [guess_docid(self.path)],
                                        "DOCID guessed from the file name")
                    else:
                        self._skip_docs(err, [], UNKNOWN_DOCID)
                    continue
                if docid in seen:
                    # every definition of the DOCID is skipped, on both sides (see
                    # isolate_documents): which one is "first" must not depend on file order
                    self._skip_docs(AceInputError(f"document ID '{docid}' has already been"
                                                  " defined", self.path, doc.sourceline,
                                                  f"document {docid}"), [docid])
                    continue
                seen[docid] = True
                documents.append(self.document(doc, docid, uri, source))
                kept += 1
            if kept or not docs:
                sources.append(source)
        if had_documents and not documents:
            return None
        return ApfFile(self.path, tuple(documents), tuple(sources), doctype)


def read_apf_lenient(path: str, params: Params, log: list,
                     max_bytes: int = DEFAULT_MAX_BYTES) -> Optional[ApfFile]:
    """Read one APF file in lenient mode: problems are appended to ``log`` as
    :class:`Skip` records (side unset); ``None`` when nothing of the file is usable."""
    try:
        tree = parse_xml(path, max_bytes)
    except AceInputError as err:
        docids, found = scan_docids(path)
        log.append(Skip(None, "document", err.message, err.path, err.line, err.element, docids,
                        (), None if found else "DOCID guessed from the file name"))
        return None
    return _LenientReader(path, params, log).read_lenient(tree)


def read_files_lenient(paths: Iterable[str], params: Params, max_bytes: int = DEFAULT_MAX_BYTES
                       ) -> tuple[list, list]:
    """(files, skips) for ``paths`` read in lenient mode."""
    files, log = [], []
    for p in paths:
        f = read_apf_lenient(p, params, log, max_bytes)
        if f is not None:
            files.append(f)
    return files, log


# ---- removing documents and elements ----------------------------------------------------------

def materialize(files: list, removed_docs: set, removed: set) -> list:
    """The files without the removed documents and document elements ``(kind, ID, DOCID)``;
    a file that loses all its documents is dropped (with its SOURCEs)."""
    out = []
    for f in files:
        docs = []
        changed = False
        for d in f.documents:
            if d.docid in removed_docs:
                changed = True
                continue
            if removed:
                parts = {}
                for kind in KINDS:
                    els = d.elements(kind)
                    keep = tuple(e for e in els if (kind, e.id, d.docid) not in removed)
                    if len(keep) != len(els):
                        parts[PLURAL[kind]] = keep
                if parts:
                    d = replace(d, **parts)
                    changed = True
            docs.append(d)
        if not changed:
            out.append(f)
            continue
        if f.documents and not docs:
            continue
        before = {d.source for d in f.documents}
        after = {d.source for d in docs}
        sources = tuple(s for s in f.sources if s not in before or s in after)
        out.append(replace(f, documents=tuple(docs), sources=sources))
    return out


def isolate_documents(ref_files: list, sys_files: list, log: list, removed_docs: set) -> None:
    """Document-level whole-corpus checks: a DOCID defined more than once on one side, SYS
    SOURCE or data type different from REF.  The DOCIDs go to ``removed_docs``."""
    for name, files in (("REF", ref_files), ("SYS", sys_files)):
        where: dict = {}
        for f in files:
            for d in f.documents:
                where.setdefault(d.docid, []).append(d)
        for docid in sorted(where):
            copies = where[docid]
            if len(copies) < 2:
                continue
            copies = sorted(copies, key=lambda d: (d.path, d.line))
            for d in copies[1:]:
                log.append(Skip(name, "document", f"document ID '{docid}' has already been"
                                f" defined", d.path, d.line, f"document {docid}", (docid,)))
            removed_docs.add(docid)
    ref_docs = {d.docid: d for f in ref_files for d in f.documents if d.docid not in removed_docs}
    for f in sys_files:
        for d in f.documents:
            r = ref_docs.get(d.docid)
            if r is None or d.docid in removed_docs:
                continue
            if r.source != d.source:
                log.append(Skip("SYS", "document", f"system source ({d.source}) disagrees with"
                                f" reference source ({r.source})", d.path, d.line,
                                f"document {d.docid}", (d.docid,)))
                removed_docs.add(d.docid)
            elif r.data_type != d.data_type:
                log.append(Skip("SYS", "document", "different reference and system output data"
                                f" types for document '{d.docid}': ref type is '{r.data_type}'"
                                f" but system output type is '{d.data_type}'", d.path, d.line,
                                f"document {d.docid}", (d.docid,)))
                removed_docs.add(d.docid)


class _SideIndex:
    """The live document elements of one side: kind -> ID -> [(docid, element, document)]
    in DOCID order, and the registered mention IDs."""

    def __init__(self, docs: list, removed: set):
        self.by_kind: dict = {k: {} for k in KINDS}
        for d in sorted(docs, key=lambda d: d.docid):
            for kind in KINDS:
                coll = self.by_kind[kind]
                for el in d.elements(kind):
                    if (kind, el.id, d.docid) in removed:
                        continue
                    coll.setdefault(el.id, []).append((d.docid, el, d))

    def kind_of(self, eid: str) -> Optional[str]:
        for k in KINDS:
            if eid in self.by_kind[k]:
                return k
        return None


def _ids(ids) -> str:
    return " and ".join(f"'{i}'" for i in sorted(ids))


def _relation_excess(rtype: str, args: dict) -> Optional[str]:
    if rtype in SYMMETRIC_RELATIONS:
        ids = args.get("Arg", ())
        if len(ids) > 2:
            return (f"must have exactly 2 'Arg' arguments, but: Arg arguments: {_ids(ids)}")
        return None
    for role in ("Arg-1", "Arg-2"):
        ids = args.get(role, ())
        if len(ids) > 1:
            return (f"must have exactly 1 '{role}' arguments, but: {role} arguments:"
                    f" {_ids(ids)}")
    return None


def _relation_lack(rtype: str, args: dict) -> Optional[str]:
    if rtype in SYMMETRIC_RELATIONS:
        ids = args.get("Arg", ())
        if not ids:
            return "has no 'Arg' arguments"
        if len(ids) != 2:
            return f"must have exactly 2 'Arg' arguments, but: Arg arguments: {_ids(ids)}"
        return None
    for role in ("Arg-1", "Arg-2"):
        if not args.get(role):
            return f"has no '{role}' arguments"
    return None


class _SideIsolator:
    """The whole-side checks of 01 §3.2-3.6 in canonical order, skipping instead of
    stopping, until nothing changes."""

    def __init__(self, name: str, docs: list, log: list, removed: set):
        self.name = name
        self.docs = docs
        self.log = log
        self.removed = removed

    def skip(self, message, doc, el, kind, eid, docids=None, note=None, line=None):
        keys = []
        for docid in (docids if docids is not None else (doc.docid,)):
            key = (kind, eid, docid)
            if key not in self.removed:
                self.removed.add(key)
                keys.append(key)
        if keys:
            self.log.append(Skip(self.name, "element", message, doc.path, line or el.line or None,
                                 f"{kind} {eid}", tuple(sorted({k[2] for k in keys})),
                                 tuple(keys), note))

    def run(self) -> None:
        while True:
            n = len(self.removed)
            for check in (self.merge, self.registry, self.arguments):
                check(_SideIndex(self.docs, self.removed))
                if len(self.removed) != n:
                    break
            else:
                return

    # 01 §3.2: attribute conflicts, external links, relation argument counts
    def merge(self, ix: _SideIndex) -> None:
        for kind in KINDS:
            coll = ix.by_kind[kind]
            for eid in sorted(coll):
                attrs: dict = {}
                links: dict = {}
                args: dict = {}
                kept = []
                for docid, el, doc in coll[eid]:
                    problem = None
                    a_new = el.attributes()
                    for a in sorted(a_new):
                        v = a_new[a]
                        if v is None or a == "LEVEL":
                            continue
                        old = attrs.get(a)
                        if old is not None and old != v:
                            problem = (f"attribute value conflict for attribute '{a}' for {kind}"
                                       f" '{eid}': database value is '{old}', document value"
                                       f" is '{v}'")
                            break
                    if problem is None:
                        for res, x in el.links:
                            old = links.get(res)
                            if old is not None and old != x:
                                problem = (f"conflicting external ID's ('{old}'/'{x}') given"
                                           f" for resource '{res}'")
                                break
                    new_args = args
                    if problem is None and kind in ("relation", "event"):
                        new_args = {r: set(s) for r, s in args.items()}
                        for a in el.arguments:
                            new_args.setdefault(a.role, set()).add(a.refid)
                        if kind == "relation":
                            ex = _relation_excess(attrs.get("TYPE", el.type), new_args)
                            if ex:
                                sym = "symmetric" if attrs.get("TYPE", el.type) in \
                                    SYMMETRIC_RELATIONS else "non-symmetric"
                                problem = f"{sym} relation '{eid}' {ex}"
                    if problem is not None:
                        self.skip(problem, doc, el, kind, eid,
                                  note=None if not kept else
                                  f"kept in document{'s' if len(kept) > 1 else ''} "
                                  + ", ".join(k[0] for k in kept))
                        continue
                    for a in sorted(a_new):
                        if a_new[a] is not None and a not in attrs:
                            attrs[a] = a_new[a]
                    for res, x in el.links:
                        links[res] = x
                    args = new_args
                    kept.append((docid, el, doc))
                if kind == "relation" and kept:
                    rtype = attrs.get("TYPE", kept[0][1].type)
                    lack = _relation_lack(rtype, args)
                    if lack:
                        sym = "symmetric" if rtype in SYMMETRIC_RELATIONS else "non-symmetric"
                        for docid, el, doc in kept:
                            self.skip(f"{sym} relation '{eid}' {lack}", doc, el, kind, eid)

    # 01 §3.3: one registry of element and mention IDs per side
    def registry(self, ix: _SideIndex) -> None:
        registry: dict = {}
        for kind in ("entity", "value", "timex2", "relation", "event"):
            coll = ix.by_kind[kind]
            for eid in sorted(coll):
                entries = coll[eid]
                if eid in registry:
                    docid, el, doc = entries[0]
                    self.skip(f"duplicate ID ({eid}) for elements of type '{PLURAL[kind]}' and"
                              f" '{registry[eid]}'", doc, el, kind, eid,
                              docids=[e[0] for e in entries])
                    continue
                survivors = 0
                own = {eid}
                for docid, el, doc in entries:
                    problem = line = None
                    ids = set()
                    for m in el.mentions:
                        other = registry.get(m.id)
                        if other is None and m.id in own | ids:
                            other = kind if m.id == eid else f"{kind} mention"
                        if other is not None:
                            problem = (f"duplicate ID ({m.id}) for mentions of elements of type"
                                       f" '{kind}' and '{other}'")
                            line = m.line
                            break
                        ids.add(m.id)
                    if problem is not None:
                        self.skip(problem, doc, el, kind, eid, line=line)
                        continue
                    survivors += 1
                    for m in ids:
                        registry[m] = f"{kind} mention"
                    own |= ids
                if survivors:
                    registry[eid] = kind

    # 01 §3.6: arguments and argument mentions
    def arguments(self, ix: _SideIndex) -> None:
        mentions = set()
        for kind in KINDS:
            for entries in ix.by_kind[kind].values():
                for _docid, el, _doc in entries:
                    for m in el.mentions:
                        mentions.add(m.id)
        for kind in ("relation", "event"):
            coll = ix.by_kind[kind]
            for eid in sorted(coll):
                entries = []
                for docid, el, doc in coll[eid]:
                    bad = None
                    for a in sorted(el.arguments, key=lambda a: (a.role, a.refid)):
                        if ix.kind_of(a.refid) is None:
                            bad = (f"{kind} '{eid}' references argument '{a.refid}' in role"
                                   f" '{a.role}' but this argument has not been loaded")
                            break
                    if bad:
                        self.skip(bad, doc, el, kind, eid)
                    else:
                        entries.append((docid, el, doc))
                valid: dict = {}
                for _docid, el, _doc in entries:
                    for a in el.arguments:
                        ak = ix.kind_of(a.refid)
                        for _d2, ael, _doc2 in ix.by_kind[ak][a.refid]:
                            valid.setdefault(a.role, set()).update(m.id for m in ael.mentions)
                for docid, el, doc in entries:
                    bad = line = None
                    for a in el.arguments:
                        ak = ix.kind_of(a.refid)
                        if all(d2 != docid for d2, _e, _dd in ix.by_kind[ak][a.refid]):
                            bad = (f"argument '{a.refid}' in role '{a.role}' does not occur in"
                                   " this document")
                            break
                    if bad is None:
                        for m in el.mentions:
                            for a in sorted(m.arguments, key=lambda a: (a.role, a.refid)):
                                if a.refid not in mentions:
                                    bad = (f"{kind} mention '{m.id}' references argument mention"
                                           f" '{a.refid}' in role '{a.role}' but this argument"
                                           " mention has not been loaded")
                                elif a.refid not in valid.get(a.role, ()):
                                    bad = (f"{kind} mention '{m.id}' references argument mention"
                                           f" '{a.refid}' in role '{a.role}' but this argument"
                                           f" mention is not a mention of any argument of {kind}"
                                           f" '{eid}' in this role")
                                if bad:
                                    line = m.line
                                    break
                            if bad:
                                break
                    if bad:
                        self.skip(bad, doc, el, kind, eid, line=line)


def isolate_side(name: str, files: list, log: list, removed: set,
                 eval_docids: Optional[set] = None) -> None:
    """Whole-side checks of one side's (already materialised) files; the skipped document
    elements are added to ``removed``.  ``eval_docids``: for SYS, the REF DOCIDs (other SYS
    documents are not merged, as in strict mode)."""
    seen = set()
    docs = []
    for f in files:
        for d in f.documents:
            if eval_docids is not None and d.docid not in eval_docids:
                continue
            if d.docid in seen:     # only after a failed duplicate check; strict decides
                continue
            seen.add(d.docid)
            docs.append(d)
    _SideIsolator(name, docs, log, removed).run()


def _isolate_error(e: AceInputError, name: str, log: list, removed_docs: set,
                   removed: set, files: list) -> None:
    """Safety net: the strict builder rejected something -- skip what its error names."""
    el = e.element or ""
    kind, _, eid = el.partition(" ")
    if kind == "document" and eid:
        if eid in removed_docs:
            raise e
        removed_docs.add(eid)
        log.append(Skip(name, "document", e.message, e.path, e.line, e.element, (eid,)))
        return
    if kind in KINDS and eid and e.docid:
        key = (kind, eid, e.docid)
        if key in removed:
            raise e
        removed.add(key)
        log.append(Skip(name, "element", e.message, e.path, e.line, e.element, (e.docid,),
                        (key,)))
        return
    docids = [e.docid] if e.docid else [d.docid for f in files if f.path == e.path
                                        for d in f.documents]
    docids = [d for d in docids if d not in removed_docs]
    if not docids:
        raise e
    removed_docs.update(docids)
    log.append(Skip(name, "document", e.message, e.path, e.line, e.element, tuple(docids)))


@dataclass
class LenientBuild:
    ref_files: list
    sys_files: list
    ref: Side
    sys: Side
    report: SkipReport


def build_lenient(ref_files: list, sys_files: list, params: Params, warnings: list,
                  read_skips: Iterable[Skip] = ()) -> LenientBuild:
    """Build both sides in lenient mode from files read (leniently or not).  ``read_skips``
    are the reading problems (their side set); documents they name are skipped on both
    sides.  NIST warnings of the final build are appended to ``warnings``."""
    log = list(read_skips)
    removed_docs = set()
    for s in log:
        if s.scope == "document":
            removed_docs.update(s.docids)
    isolate_documents(materialize(ref_files, removed_docs, set()),
                      materialize(sys_files, removed_docs, set()), log, removed_docs)
    removed_ref: set = set()
    removed_sys: set = set()
    limit = 1 + 10 * sum(len(f.documents) for f in list(ref_files) + list(sys_files))
    for _attempt in range(limit):
        w: list = []
        rfiles = materialize(ref_files, removed_docs, set())
        isolate_side("REF", rfiles, log, removed_ref)
        rfiles = materialize(rfiles, set(), removed_ref)
        rside = Side("REF")
        try:
            add_files(rside, rfiles, params, w)
            finish(rside, params, w)
        except AceInputError as e:
            _isolate_error(e, "REF", log, removed_docs, removed_ref, rfiles)
            continue
        sfiles = materialize(sys_files, removed_docs, set())
        isolate_side("SYS", sfiles, log, removed_sys, set(rside.documents))
        sfiles = materialize(sfiles, set(), removed_sys)
        sside = Side("SYS")
        try:
            add_files(sside, sfiles, params, w, rside.documents)
            finish(sside, params, w)
        except AceInputError as e:
            _isolate_error(e, "SYS", log, removed_docs, removed_sys, sfiles)
            continue
        try:
            check_docs(rside, sside, w)
        except AceInputError as e:
            _isolate_error(e, "SYS", log, removed_docs, removed_sys, sfiles)
            continue
        break
    else:  # pragma: no cover - every attempt removes something
        raise AceInputError("lenient mode could not isolate the input problems")
    warnings.extend(w)
    report = SkipReport(sorted(log, key=Skip.sort_key))
    return LenientBuild(rfiles, sfiles, rside, sside, report)


def with_side(skips: Iterable[Skip], side: str) -> list:
    return [replace(s, side=side) if s.side is None else s for s in skips]


def build_corpora(ref, sys, params: Params, warnings: list) -> LenientBuild:
    """:func:`build_lenient` for two :class:`acescore.api.Corpus` objects (their reading
    problems, ``Corpus.skipped``, included)."""
    return build_lenient(ref.files, sys.files, params, warnings,
                         with_side(getattr(ref, "skipped", ()), "REF")
                         + with_side(getattr(sys, "skipped", ()), "SYS"))
