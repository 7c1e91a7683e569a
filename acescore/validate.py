"""``acescore validate``: check APF files (and their offsets against the source documents).

Every command-line path (an APF file, a directory or a list file, see
:mod:`acescore.reading.discovery`) is one *side*: its files are checked together, as the
scorer would read them for ``-r``/``-t``; different paths are checked independently (so a
reference folder and a system folder can be given in one call).

Checks, each problem being one line ``file:line: element ID: message``:

1. per file: the file can be read (exists, UTF-8, well-formed XML, no entity declarations);
   it is valid against its DTD (:mod:`acescore.reading.dtd`); the scorer's reader accepts
   it (:mod:`acescore.reading.apf`; it stops at the first problem of a file, and a problem
   it shares a line with a DTD problem is not repeated);
2. per side (reference checks): IDs are unique (an element ID may recur only as the same
   kind of element in another document: a global ID); every REFID names an ID of the side,
   an element for ``*_argument`` and a mention for ``*_mention_argument``; DOCIDs are
   unique; a global element has the same attributes and external links in every document;
   relation arguments (one Arg-1 and one Arg-2, or exactly two Arg for the symmetric
   types PER-SOC, PHYS, METONYMY); an argument occurs in the document of its relation or
   event; mention arguments are mentions of the element's arguments in that role; a head
   lies inside its mention's extent, an anchor inside its event mention's extent, the
   argument mentions inside the relation or event mention's extent;
3. with ``source_dir``: every ``charseq``/``charspan`` lies inside the source document and
   its text equals the source text at its offsets (:mod:`acescore.reading.sgml`); the
   source's DOCID equals the APF DOCID; the source document is well-formed and valid
   against ``ace_source_sgml.dtd``.

When a side has no problem at all, it is also loaded with the scorer's own database code
(:mod:`acescore.database`) and anything that raises is reported, so a clean ``validate``
means the scorer can read the data.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

from acescore import database
from acescore.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, AceInputError
from acescore.model import KINDS, ApfFile
from acescore.params import SYMMETRIC_RELATIONS, Params, get_params
from acescore.reading import dtd as dtdmod
from acescore.reading.apf import ascii_number, parse_xml, read_apf_tree
from acescore.reading.discovery import discover, walk_files
from acescore.reading.sgml import SourceText, read_source, span_matches

ELEMENT_TAGS = frozenset(KINDS)
MENTION_TAGS = {"entity_mention": "entity", "value_mention": "value",
                "timex2_mention": "timex2", "relation_mention": "relation",
                "event_mention": "event"}
ELEMENT_ARG_TAGS = frozenset({"relation_argument", "event_argument"})
MENTION_ARG_TAGS = frozenset({"relation_mention_argument", "event_mention_argument"})
_SCANNED_TAGS = tuple(sorted(ELEMENT_TAGS | set(MENTION_TAGS) | ELEMENT_ARG_TAGS
                             | MENTION_ARG_TAGS))


def one_line(s: str) -> str:
    return s.replace("\r", "\\r").replace("\n", "\\n")


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def _quote(s: str, limit: int = 40) -> str:
    s = one_line(s).replace("\t", "\\t")
    if len(s) > limit:
        s = s[:limit - 3] + "..."
    return "'" + s + "'"


@dataclass
class Problem:
    path: Optional[str]
    line: Optional[int]
    element: Optional[str]
    message: str
    key: tuple = ()

    def __str__(self) -> str:
        return one_line(str(AceInputError(self.message, self.path, self.line, self.element)))


@dataclass
class Report:
    """The outcome of a validation run."""
    problems: list = field(default_factory=list)      # one-line strings
    unusable: list = field(default_factory=list)      # one-line strings (exit status 2)
    files: int = 0
    documents: int = 0
    charseqs: int = 0
    sources: int = 0
    files_with_problems: int = 0
    checked_sources: bool = False

    @property
    def exit_code(self) -> int:
        if self.unusable:
            return EXIT_UNUSABLE
        return EXIT_PROBLEMS if self.problems else EXIT_OK

    def lines(self) -> list[str]:
        return self.unusable + self.problems

    def summary(self) -> str:
        s = f"validate: {_n(self.files, 'file')}, {_n(self.documents, 'document')}"
        if self.checked_sources:
            s += (f", {_n(self.charseqs, 'charseq')} checked against"
                  f" {_n(self.sources, 'source document')}")
        else:
            s += ", offsets not checked (no --source-dir)"
        n = len(self.problems)
        s += f": {_n(n, 'problem')}"
        if n:
            s += f" in {_n(self.files_with_problems, 'file')}"
        if self.unusable:
            s += f", {_n(len(self.unusable), 'unusable path')}"
        return s


# --------------------------------------------------------------------------------------------
# sources

class SourceIndex:
    """Source documents below a folder, found by file name; read once each."""

    def __init__(self, directory: str, entities: str = "raw"):
        if not os.path.isdir(directory):
            raise AceInputError("source folder not found (--source-dir)" if not
                                os.path.exists(directory) else
                                "not a folder (--source-dir)", directory)
        self.directory = directory
        self.entities = entities
        self.by_name: dict[str, str] = {}
        for path in walk_files(directory, lambda name: True):
            self.by_name.setdefault(os.path.basename(path), path)
        self._cache: dict[str, object] = {}
        self.dtd_checked: set = set()

    def find(self, docid: str, uri: Optional[str]) -> tuple[Optional[str], list[str]]:
        tried = []
        for name in ([os.path.basename(uri)] if uri else []) + [docid + ".sgm", docid]:
            if name and name not in tried:
                tried.append(name)
                p = self.by_name.get(name)
                if p is not None:
                    return p, tried
        return None, tried

    def read(self, path: str):
        """A SourceText, or the AceInputError that reading it gave."""
        r = self._cache.get(path)
        if r is None:
            try:
                r = read_source(path, self.entities)
            except AceInputError as e:
                r = e
            self._cache[path] = r
        return r

    @property
    def count(self) -> int:
        return sum(1 for v in self._cache.values() if isinstance(v, SourceText))


def _source_dtd_problems(path: str) -> list[AceInputError]:
    try:
        tree = parse_xml(path)
    except AceInputError as e:
        return [AceInputError(f"source document: {e.message}", e.path, e.line, e.element)]
    return dtdmod.validate_tree(tree, path, dtdmod.SOURCE_DTD)


def _int(v: Optional[str]) -> Optional[int]:
    return None if v is None else ascii_number(v.strip())


# --------------------------------------------------------------------------------------------
# one file

@dataclass
class FileResult:
    path: str
    index: int
    facts: list = field(default_factory=list)           # see _facts (the tree is not kept)
    apf: Optional[ApfFile] = None
    problems: list = field(default_factory=list)        # Problem (file, DTD)
    source_problems: list = field(default_factory=list)  # Problem (offsets, sources)
    reader_problem: Optional[Problem] = None
    documents: int = 0


class Validator:
    def __init__(self, source_dir: Optional[str] = None, dtd: Optional[str] = None,
                 params: Optional[Params] = None, entities: str = "raw"):
        self.forced_dtd = dtdmod.resolve_dtd_name(dtd) if dtd else None
        if self.forced_dtd:
            dtdmod.load_dtd(self.forced_dtd)          # fail early on an unusable DTD file
        self.sources = SourceIndex(source_dir, entities) if source_dir else None
        self.params = params or get_params("local_2008")
        self.report = Report(checked_sources=self.sources is not None)
        self._seq = 0

    # -- helpers --------------------------------------------------------------------------
    def _p(self, fr: FileResult, line, element, message, group: int = 0,
           path: Optional[str] = None) -> Problem:
        self._seq += 1
        return Problem(path or fr.path, line, element, message,
                       (fr.index, group, line or 0, self._seq))

    def _from_error(self, fr: FileResult, e: AceInputError, group: int = 0) -> Problem:
        self._seq += 1
        return Problem(e.path or fr.path, e.line, e.element, e.message,
                       (fr.index, group, e.line or 0, self._seq))

    # -- entry points -----------------------------------------------------------------------
    def run(self, paths: list[str]) -> Report:
        for p in paths:
            try:
                files = discover(p)
            except AceInputError as e:
                self.report.unusable.append(one_line(str(e)))
                continue
            self.validate_side(files)
        if self.sources is not None:
            self.report.sources = self.sources.count
        return self.report

    def validate_side(self, files: list[str]) -> None:
        results = []
        for i, path in enumerate(files):
            fr = FileResult(path, i)
            try:
                self.check_file(fr)
            except Exception as e:                     # never a traceback
                fr.problems.append(self._p(fr, None, None,
                                           f"internal error: {type(e).__name__}: {e}"))
            results.append(fr)
        side_problems: list[Problem] = []
        try:
            side_problems = self.check_side(results)
        except Exception as e:
            fr = results[0] if results else FileResult("?", 0)
            side_problems = [self._p(fr, None, None, "internal error in reference checks:"
                                     f" {type(e).__name__}: {e}")]
        allp = [p for fr in results for p in fr.problems] + side_problems
        # the reader stops at its first problem; the DTD or the reference checks usually
        # report the same thing on the same line, with more detail
        taken = {(p.path, p.line) for p in allp if p.line}
        allp += [p for fr in results for p in fr.source_problems]
        for fr in results:
            rp = fr.reader_problem
            if rp is not None and not (rp.line and (rp.path, rp.line) in taken):
                allp.append(rp)
        if not allp:
            allp = self.scorer_check(results)
        allp.sort(key=lambda p: p.key)
        seen = set()
        bad_files = set()
        for p in allp:
            s = str(p)
            if s in seen:
                continue
            seen.add(s)
            self.report.problems.append(s)
            bad_files.add(p.key[0] if p.key else p.path)
        self.report.files += len(results)
        self.report.documents += sum(fr.documents for fr in results)
        self.report.files_with_problems += len(bad_files)

    # -- per file -----------------------------------------------------------------------------
    def check_file(self, fr: FileResult) -> None:
        try:
            tree = parse_xml(fr.path)
        except AceInputError as e:
            fr.problems.append(self._from_error(fr, e))
            return
        root = tree.getroot()
        fr.documents = sum(1 for _ in root.iter("document"))
        fr.facts = _facts(root)
        dtd_problems = dtdmod.validate_apf_tree(tree, fr.path, self.forced_dtd)
        try:
            fr.apf = read_apf_tree(tree, fr.path, self.params)
        except AceInputError as e:
            fr.reader_problem = self._from_error(fr, e)
        for e in dtd_problems:
            # ID uniqueness and ID references are reported by the reference checks
            if getattr(e, "dtd_type", None) in dtdmod.ID_ERROR_TYPES:
                continue
            fr.problems.append(self._from_error(fr, e))
        if self.sources is not None:
            self.check_sources(fr, root)

    def check_sources(self, fr: FileResult, root) -> None:
        src_index = self.sources
        if root.tag != "source_file":
            return
        data_type = (root.get("TYPE") or "").strip()
        uri = (root.get("URI") or "").strip()
        for doc in root.findall("document"):
            docid = (doc.get("DOCID") or "").strip()
            if not docid:
                continue
            label = f"document {docid}"
            spath, tried = src_index.find(docid, uri)
            if spath is None:
                fr.source_problems.append(self._p(fr, doc.sourceline, label,
                                                  f"no source document in {src_index.directory}"
                                                  f" (looked for {', '.join(tried)})"))
                continue
            src = src_index.read(spath)
            if isinstance(src, AceInputError):
                fr.source_problems.append(self._p(fr, doc.sourceline, label,
                                                  f"source document {spath}: {src.message}"))
                continue
            if spath not in src_index.dtd_checked:
                src_index.dtd_checked.add(spath)
                for e in _source_dtd_problems(spath):
                    fr.source_problems.append(self._from_error(fr, e, group=1))
            if src.docid is not None and src.docid != docid:
                fr.source_problems.append(self._p(fr, doc.sourceline, label,
                                                  f"source document {spath} has DOCID"
                                                  f" '{src.docid}'"))
            if data_type != "text":
                continue
            text = src.text
            n = len(text)
            for c in doc.iter("charseq", "charspan"):
                start = _int(c.get("START"))
                end = _int(c.get("END"))
                if start is None or end is None:
                    continue              # the reader reports missing or bad numbers
                if c.tag == "charspan":
                    end -= 1
                if start < 0 or end < start:
                    continue              # reported by the reader (non-positive span)
                self.report.charseqs += 1
                parent = c.getparent()
                where = parent.tag if parent is not None else c.tag
                got = c.text or ""
                if end >= n:
                    fr.source_problems.append(self._p(
                        fr, c.sourceline, dtdmod.element_label(c),
                        f"{where} START={start} END={end}: beyond the end of the source"
                        f" document ({n} characters)"))
                    continue
                expected = text[start:end + 1]
                if span_matches(got, expected):
                    continue
                hint = ""
                for d in (-1, 1, -2, 2):
                    if start + d >= 0 and span_matches(got, text[start + d:end + d + 1]):
                        hint = (f" (offsets off by {-d:+d}: the text is at START={start + d}"
                                f" END={end + d})")
                        break
                if not hint and len(got) != end - start + 1:
                    hint = f" (text has {len(got)} characters, the span {end - start + 1})"
                fr.source_problems.append(self._p(
                    fr, c.sourceline, dtdmod.element_label(c),
                    f"{where} START={start} END={end}: text {_quote(got)} does not match the"
                    f" source text {_quote(expected)}{hint}"))

    # -- per side -------------------------------------------------------------------------------
    def check_side(self, results: list[FileResult]) -> list[Problem]:
        out: list[Problem] = []
        ids: dict = {}          # ID -> (category, tag, docid, path, line)
        dup_ids: set = set()    # IDs used twice: later checks do not follow references to them
        refs = []               # (fr, fact)
        docids: dict = {}       # DOCID -> (path, line)
        for fr in results:
            for fact in fr.facts:
                what = fact[0]
                if what == "doc":
                    _, docid, line = fact
                    prev = docids.get(docid)
                    if prev is not None:
                        out.append(self._p(fr, line, f"document {docid}",
                                           f"document ID '{docid}' has already been defined"
                                           f" (at {prev[0]}:{prev[1]})"))
                    else:
                        docids[docid] = (fr.path, line)
                elif what == "id":
                    _, tag, eid, docid, line = fact
                    cat = "element" if tag in ELEMENT_TAGS else "mention"
                    prev = ids.get(eid)
                    if prev is None:
                        ids[eid] = (cat, tag, docid, fr.path, line)
                        continue
                    pcat, ptag, pdoc, ppath, pline = prev
                    if cat == "element" and pcat == "element" and ptag == tag:
                        if pdoc != docid:
                            continue          # a global ID: one element in several documents
                        msg = (f"multiple {tag} definitions (only one definition allowed per"
                               f" document; the first is at {ppath}:{pline})")
                    else:
                        msg = (f"duplicate ID '{eid}': also the ID of the {ptag.replace('_', ' ')}"
                               f" at {ppath}:{pline}")
                    dup_ids.add(eid)
                    out.append(self._p(fr, line, f"{tag} {eid}", msg))
                else:
                    refs.append((fr, fact))
        for fr, (_, tag, refid, role, line, label) in refs:
            target = ids.get(refid)
            if target is None:
                out.append(self._p(fr, line, label,
                                   f"{tag} REFID '{refid}' (role {role}) does not name any"
                                   " element or mention of these files"))
            elif tag in ELEMENT_ARG_TAGS and target[0] != "element":
                out.append(self._p(fr, line, label,
                                   f"{tag} REFID '{refid}' (role {role}) refers to a mention"
                                   f" ({target[1]}), not to an element"))
            elif tag in MENTION_ARG_TAGS and target[0] != "mention":
                out.append(self._p(fr, line, label,
                                   f"{tag} REFID '{refid}' (role {role}) refers to an element"
                                   f" ({target[1]}), not to a mention"))
        out.extend(self.check_model(results, dup_ids))
        return out

    def check_model(self, results: list[FileResult], dup_ids: set) -> list[Problem]:
        """Checks on the documents the reader accepted."""
        out: list[Problem] = []
        read = [fr for fr in results if fr.apf is not None]
        # global elements: kind -> id -> list of (fr, doc, el)
        elements: dict = {k: {} for k in KINDS}
        mention_ext: dict = {}     # mention id -> (docid, extent locator)
        mentions_of: dict = {}     # (kind, element id) -> set of mention ids (all documents)
        docs_of: dict = {}         # (kind, element id) -> set of DOCIDs
        for fr in read:
            for doc in fr.apf.documents:
                for kind in KINDS:
                    for el in doc.elements(kind):
                        elements[kind].setdefault(el.id, []).append((fr, doc, el))
                        docs_of.setdefault((kind, el.id), set()).add(doc.docid)
                        ms = mentions_of.setdefault((kind, el.id), set())
                        for m in el.mentions:
                            ms.add(m.id)
                            mention_ext[m.id] = (doc.docid, m.extent)
        kind_of = {}
        for kind in KINDS:
            for eid in elements[kind]:
                kind_of.setdefault(eid, kind)

        for kind in KINDS:
            for eid in sorted(elements[kind]):
                occ = elements[kind][eid]
                out.extend(self._merge_checks(kind, eid, occ))
        for kind in ("relation", "event"):
            for eid in sorted(elements[kind]):
                occ = elements[kind][eid]
                # valid argument mentions per role: the mentions (in any document) of the
                # element-level arguments in that role (01 §3.6)
                valid: dict = {}
                for _, _, g_el in occ:
                    for a in g_el.arguments:
                        ak = kind_of.get(a.refid)
                        if ak is not None:
                            valid.setdefault(a.role, set()).update(mentions_of[(ak, a.refid)])
                for fr, doc, el in occ:
                    out.extend(self._argument_checks(kind, fr, doc, el, valid, kind_of,
                                                     docs_of, mention_ext, dup_ids))
        for fr in read:
            for doc in fr.apf.documents:
                if doc.data_type == "text":
                    out.extend(self._containment(fr, doc, mention_ext, dup_ids))
        return out

    def _merge_checks(self, kind, eid, occ) -> list[Problem]:
        out = []
        attrs: dict = {}
        links: dict = {}
        args: dict = {}
        reported_args = False
        for fr, doc, el in occ:
            label = f"{kind} {eid}"
            a = el.attributes()
            for name in sorted(a):
                v = a[name]
                if v is None or name == "LEVEL":
                    continue
                old = attrs.get(name)
                if old is None:
                    attrs[name] = (v, doc.docid)
                elif old[0] != v:
                    out.append(self._p(fr, el.line, label,
                                       f"attribute value conflict for attribute '{name}':"
                                       f" '{v}' here, '{old[0]}' in document '{old[1]}'"))
            for res, e in el.links:
                old = links.get(res)
                if old is None:
                    links[res] = (e, doc.docid)
                elif old[0] != e:
                    out.append(self._p(fr, el.line, label,
                                       f"conflicting external ID's ('{old[0]}'/'{e}') given for"
                                       f" resource '{res}' (the first in document '{old[1]}')"))
            if kind == "relation" and not reported_args:
                for arg in el.arguments:
                    args.setdefault(arg.role, set()).add(arg.refid)
                msg = _relation_arg_problem(eid, el.type, args)
                if msg:
                    reported_args = True
                    out.append(self._p(fr, el.line, label, msg))
        return out

    def _argument_checks(self, kind, fr, doc, el, valid, kind_of, docs_of, mention_ext,
                         dup_ids) -> list[Problem]:
        out = []
        label = f"{kind} {el.id}"
        for a in el.arguments:
            ak = kind_of.get(a.refid)
            if ak is None or a.refid in dup_ids:
                continue                   # unknown or duplicate REFIDs: reported from the tree
            if doc.docid not in docs_of[(ak, a.refid)]:
                out.append(self._p(fr, el.line, label,
                                   f"argument '{a.refid}' in role '{a.role}' does not occur in"
                                   " this document"))
        for m in el.mentions:
            for a in sorted(m.arguments, key=lambda a: (a.role, a.refid)):
                if a.refid not in mention_ext or a.refid in dup_ids:
                    continue               # reported from the tree
                if a.refid not in valid.get(a.role, ()):
                    out.append(self._p(fr, m.line, f"{kind}_mention {m.id}",
                                       f"argument mention '{a.refid}' in role '{a.role}' is not"
                                       f" a mention of any argument of {kind} '{el.id}' in this"
                                       " role"))
        return out

    def _containment(self, fr, doc, mention_ext, dup_ids) -> list[Problem]:
        out = []

        def inside(inner, outer) -> bool:
            return outer.start <= inner.start and inner.end <= outer.end

        def span(loc) -> str:
            return f"{loc.start}..{loc.end}"

        for e in doc.entities:
            for m in e.mentions:
                if m.head.kind == "text" and m.extent.kind == "text" and \
                        not inside(m.head, m.extent):
                    out.append(self._p(fr, m.line, f"entity_mention {m.id}",
                                       f"head {span(m.head)} is not inside the extent"
                                       f" {span(m.extent)}"))
        for kind, coll in (("relation", doc.relations), ("event", doc.events)):
            for el in coll:
                for m in el.mentions:
                    if kind == "event" and not inside(m.anchor, m.extent):
                        out.append(self._p(fr, m.line, f"event_mention {m.id}",
                                           f"anchor {span(m.anchor)} is not inside the extent"
                                           f" {span(m.extent)}"))
                    for a in m.arguments:
                        x = mention_ext.get(a.refid)
                        if x is None or a.refid in dup_ids or x[0] != doc.docid \
                                or x[1].kind != "text":
                            continue
                        if not inside(x[1], m.extent):
                            out.append(self._p(fr, m.line, f"{kind}_mention {m.id}",
                                               f"argument mention '{a.refid}' ({span(x[1])}) is"
                                               f" not inside the extent {span(m.extent)}"))
        return out

    def scorer_check(self, results: list[FileResult]) -> list[Problem]:
        """Load a clean side with the scorer's database code; report what it rejects."""
        files = [fr.apf for fr in results if fr.apf is not None]
        if not files:
            return []
        fr0 = results[0]
        by_path = {fr.path: fr for fr in results}
        side = database.Side("REF")
        warnings: list = []
        try:
            database.add_files(side, files, self.params, warnings)
            database.finish(side, self.params, warnings)
        except AceInputError as e:
            fr = by_path.get(e.path, fr0)
            return [self._from_error(fr, e)]
        except Exception as e:
            return [self._p(fr0, None, None,
                            f"internal error while loading the side: {type(e).__name__}: {e}")]
        return []


def _facts(root) -> list[tuple]:
    """What the reference checks need from a tree, in document order:
    ``("doc", DOCID, line)``, ``("id", tag, ID, DOCID, line)`` for elements and mentions,
    ``("ref", tag, REFID, ROLE, line, label)`` for arguments."""
    out = []
    for doc in root.iter("document"):
        docid = (doc.get("DOCID") or "").strip()
        if docid:
            out.append(("doc", docid, doc.sourceline))
        for el in doc.iter(*_SCANNED_TAGS):
            tag = el.tag
            if tag in ELEMENT_TAGS or tag in MENTION_TAGS:
                eid = el.get("ID")
                if eid is not None:
                    out.append(("id", tag, eid.strip(), docid, el.sourceline))
            else:
                refid = (el.get("REFID") or "").strip()
                if refid:                 # a missing REFID is reported by the DTD and reader
                    out.append(("ref", tag, refid, (el.get("ROLE") or "").strip(),
                                el.sourceline, dtdmod.element_label(el)))
    return out


def _relation_arg_problem(rid: str, rtype: str, args: dict) -> Optional[str]:
    """The NIST tool's relation argument rule on the accumulated arguments (01 §3.2)."""
    if rtype in SYMMETRIC_RELATIONS:
        ids = sorted(args.get("Arg", ()))
        if not ids:
            return f"symmetric relation '{rid}' has no 'Arg' arguments"
        if len(ids) != 2:
            return (f"symmetric relation '{rid}' must have exactly 2 'Arg' arguments, but has "
                    + " and ".join(f"'{i}'" for i in ids))
        return None
    for role in ("Arg-1", "Arg-2"):
        ids = sorted(args.get(role, ()))
        if not ids:
            return f"non-symmetric relation '{rid}' has no '{role}' arguments"
        if len(ids) != 1:
            return (f"non-symmetric relation '{rid}' must have exactly 1 '{role}' argument, but"
                    " has " + " and ".join(f"'{i}'" for i in ids))
    return None


def validate_paths(paths: list[str], source_dir: Optional[str] = None, dtd: Optional[str] = None,
                   params: Optional[Params] = None, entities: str = "raw") -> Report:
    """Validate the APF files meant by ``paths``.  Raises :class:`AceUsageError` for a bad
    ``dtd`` and :class:`AceInputError` for a bad ``source_dir`` (unusable input); every other
    problem is in the returned :class:`Report`."""
    return Validator(source_dir, dtd, params, entities).run(list(paths))
