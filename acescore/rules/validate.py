"""``acescore validate``: check APF files (and their offsets against the source documents).

Every command-line path (an APF file, a directory or a list file, see
:mod:`acescore.reading.discovery`) is one *side*: its files are checked together, as the
scorer would read them for ``-r``/``-t``; different paths are checked independently (so a
reference folder and a system folder can be given in one call).

Checks, each problem being one line ``file:line: element ID: message``:

1. per file: the file can be read (exists, UTF-8, well-formed XML, no entity declarations);
   it is valid against its DTD (:mod:`acescore.reading.dtd`); the scorer's reader accepts
   it (:mod:`acescore.reading.apf`, with a collecting error policy: every element it
   rejects; a problem it shares a line with a DTD problem is not repeated);
2. per side (reference checks): the scorer's own input rules (:mod:`acescore.rules.corpus`, every
   problem, with the messages of strict scoring) on the files as the reader read them:
   DOCIDs are unique; IDs are unique (an element ID may recur only as the same kind of
   element in another document: a global ID); a global element has the same attributes
   and external links in every document; relation arguments (one Arg-1 and one Arg-2, or
   exactly two Arg for the symmetric types PER-SOC, PHYS, METONYMY); every argument is a
   loaded element and occurs in the document of its relation or event; every mention
   argument is a loaded mention of one of the element's arguments in that role (an
   argument rejected by the reader or another rule is not reported again); and
   validate's own: a head lies
   inside its mention's extent, an anchor inside its event mention's extent, the argument
   mentions inside the relation or event mention's extent;
3. with ``source_dir``: every ``charseq``/``charspan`` lies inside the source document and
   its text equals the source text at its offsets (:mod:`acescore.reading.sgml`); the
   source's DOCID equals the APF DOCID; the source document is well-formed and valid
   against ``ace_source_sgml.dtd``.

When a side has no problem at all, it is also loaded with the scorer's own database code
(:mod:`acescore.rules.database`) and anything that fails is reported, so a clean ``validate``
means the scorer can read the data.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from acescore.model.apf import KINDS, ApfFile, Document, Locator
from acescore.model.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE, AceInputError
from acescore.model.limits import DEFAULT_MAX_BYTES
from acescore.model.params import Params, get_params
from acescore.model.problems import Collect
from acescore.model.records import dataclass
from acescore.reading import dtd as dtdmod
from acescore.reading.apf import ascii_number, parse_xml, read_apf_tree
from acescore.reading.discovery import discover
from acescore.reading.sgml import SourceText, span_matches
from acescore.reading.sgml_check import check_markup
from acescore.reading.sources import SourceIndex
from acescore.rules import corpus as rules
from acescore.rules import database

# the elements and mentions (their IDs)
_ID_TAGS = tuple(KINDS) + (
    "entity_mention",
    "value_mention",
    "timex2_mention",
    "relation_mention",
    "event_mention",
)
# a missing argument (mention): reported already when the reader rejected it
_FOLLOW_UPS = frozenset({"argument-not-loaded", "mention-argument-not-loaded"})


def one_line(s: str) -> str:
    return s.replace("\r", "\\r").replace("\n", "\\n")


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def _quote(s: str, limit: int = 40) -> str:
    s = one_line(s).replace("\t", "\\t")
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    return "'" + s + "'"


@dataclass
class Problem:
    path: str | None
    line: int | None
    element: str | None
    message: str
    key: tuple = ()

    def __str__(self) -> str:
        return one_line(str(AceInputError(self.message, self.path, self.line, self.element)))


@dataclass
class Report:
    """The outcome of a validation run."""

    problems: list = field(default_factory=list)  # one-line strings
    unusable: list = field(default_factory=list)  # one-line strings (exit status 2)
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
            s += (
                f", {_n(self.charseqs, 'charseq')} checked against"
                f" {_n(self.sources, 'source document')}"
            )
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


def _source_dtd_problems(src: SourceText) -> list[AceInputError]:
    return [
        AceInputError(f"source document: {e.message}", e.path, e.line, e.element)
        for e in check_markup(src.raw, src.path)
    ]


def _int(v: str | None) -> int | None:
    return None if v is None else ascii_number(v.strip())


# --------------------------------------------------------------------------------------------
# one file


@dataclass
class FileResult:
    path: str
    index: int
    ids: set = field(default_factory=set)  # element and mention IDs of the tree
    apf: ApfFile | None = None
    problems: list = field(default_factory=list)  # Problem (file, DTD)
    source_problems: list = field(default_factory=list)  # Problem (offsets, sources)
    reader_problems: list = field(default_factory=list)  # Problem (the reader's)
    documents: int = 0


class Validator:
    def __init__(
        self,
        source_dir: str | None = None,
        dtd: str | None = None,
        params: Params | None = None,
        entities: str = "raw",
        max_bytes: int = DEFAULT_MAX_BYTES,
    ):
        self.max_bytes = max_bytes
        self.forced_dtd = dtdmod.resolve_dtd_name(dtd) if dtd else None
        if self.forced_dtd:
            dtdmod.load_dtd(self.forced_dtd)  # fail early on an unusable DTD file
        self.sources = SourceIndex(source_dir, entities) if source_dir else None
        self.params = params or get_params("local_2008")
        self.report = Report(checked_sources=self.sources is not None)
        self._seq = 0

    # -- helpers --------------------------------------------------------------------------
    def _p(
        self,
        fr: FileResult,
        line: int | None,
        element: str | None,
        message: str,
        group: int = 0,
        path: str | None = None,
    ) -> Problem:
        self._seq += 1
        return Problem(
            path or fr.path, line, element, message, (fr.index, group, line or 0, self._seq)
        )

    def _from_error(self, fr: FileResult, e: AceInputError, group: int = 0) -> Problem:
        self._seq += 1
        message = f"{e.cause}; NIST: {e.message}" if e.cause else e.message
        return Problem(
            e.path or fr.path, e.line, e.element, message, (fr.index, group, e.line or 0, self._seq)
        )

    # -- entry points -----------------------------------------------------------------------
    def run(self, paths: list[str]) -> Report:
        for p in paths:
            try:
                files = discover(p, lenient=True)  # a missing list entry: one problem
            except AceInputError as e:
                self.report.unusable.append(one_line(str(e)))
                continue
            self.validate_side(files)
        if self.sources is not None:
            self.sources.require_some()
            self.report.sources = self.sources.count
        return self.report

    def validate_side(self, files: list[str]) -> None:
        results = []
        for i, path in enumerate(files):
            fr = FileResult(path, i)
            try:
                self.check_file(fr)
            except Exception as e:  # never a traceback
                fr.problems.append(
                    self._p(fr, None, None, f"internal error: {type(e).__name__}: {e}")
                )
            results.append(fr)
        side_problems: list[Problem] = []
        try:
            side_problems = self.check_side(results)
        except Exception as e:
            fr = results[0] if results else FileResult("?", 0)
            side_problems = [
                self._p(
                    fr, None, None, f"internal error in reference checks: {type(e).__name__}: {e}"
                )
            ]
        allp = [p for fr in results for p in fr.problems] + side_problems
        # the reader stops at its first problem; the DTD or the reference checks usually
        # report the same thing on the same line, with more detail
        taken = {(p.path, p.line) for p in allp if p.line}
        allp += [p for fr in results for p in fr.source_problems]
        for fr in results:
            for rp in fr.reader_problems:
                if not (rp.line and (rp.path, rp.line) in taken):
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
            tree = parse_xml(fr.path, self.max_bytes)
        except AceInputError as e:
            fr.problems.append(self._from_error(fr, e))
            return
        root = tree.getroot()
        fr.documents = sum(1 for _ in root.iter("document"))
        fr.ids = {v.strip() for el in root.iter(*_ID_TAGS) if (v := el.get("ID")) is not None}
        dtd_problems = dtdmod.validate_apf_tree(tree, fr.path, self.forced_dtd)
        policy = Collect()
        fr.apf = read_apf_tree(tree, fr.path, self.params, policy)
        fr.reader_problems = [self._from_error(fr, p.error()) for p in policy.problems]
        for err in dtd_problems:
            # ID uniqueness and ID references are reported by the reference checks
            if getattr(err, "dtd_type", None) in dtdmod.ID_ERROR_TYPES:
                continue
            fr.problems.append(self._from_error(fr, err))
        if self.sources is not None:
            self.check_sources(fr, root)

    def check_sources(self, fr: FileResult, root: Any) -> None:
        src_index = self.sources
        assert src_index is not None  # called with sources only
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
                fr.source_problems.append(
                    self._p(
                        fr,
                        doc.sourceline,
                        label,
                        f"no source document in {src_index.directory}"
                        f" (looked for {', '.join(tried)})",
                    )
                )
                continue
            src = src_index.read(spath)
            if isinstance(src, AceInputError):
                fr.source_problems.append(
                    self._p(fr, doc.sourceline, label, f"source document {spath}: {src.message}")
                )
                continue
            if spath not in src_index.dtd_checked:
                src_index.dtd_checked.add(spath)
                for e in _source_dtd_problems(src):
                    fr.source_problems.append(self._from_error(fr, e, group=1))
            if src.docid is not None and src.docid != docid:
                fr.source_problems.append(
                    self._p(
                        fr,
                        doc.sourceline,
                        label,
                        f"source document {spath} has DOCID '{src.docid}'",
                    )
                )
            if data_type != "text":
                continue
            text = src.text
            n = len(text)
            for c in doc.iter("charseq", "charspan"):
                start = _int(c.get("START"))
                end = _int(c.get("END"))
                if start is None or end is None:
                    continue  # the reader reports missing or bad numbers
                if c.tag == "charspan":
                    end -= 1
                if start < 0 or end < start:
                    continue  # reported by the reader (non-positive span)
                self.report.charseqs += 1
                parent = c.getparent()
                where = parent.tag if parent is not None else c.tag
                got = c.text or ""
                if end >= n:
                    fr.source_problems.append(
                        self._p(
                            fr,
                            c.sourceline,
                            dtdmod.element_label(c),
                            f"{where} START={start} END={end}: beyond the end of the source"
                            f" document ({n} characters)",
                        )
                    )
                    continue
                expected = text[start : end + 1]
                if span_matches(got, expected):
                    continue
                hint = ""
                for d in (-1, 1, -2, 2):
                    if start + d >= 0 and span_matches(got, text[start + d : end + d + 1]):
                        hint = (
                            f" (offsets off by {-d:+d}: the text is at START={start + d}"
                            f" END={end + d})"
                        )
                        break
                if not hint and len(got) != end - start + 1:
                    hint = f" (text has {len(got)} characters, the span {end - start + 1})"
                fr.source_problems.append(
                    self._p(
                        fr,
                        c.sourceline,
                        dtdmod.element_label(c),
                        f"{where} START={start} END={end}: text {_quote(got)} does not match the"
                        f" source text {_quote(expected)}{hint}",
                    )
                )

    # -- per side -------------------------------------------------------------------------------
    def check_side(self, results: list[FileResult]) -> list[Problem]:
        """The scorer's input rules (:mod:`acescore.rules.corpus`, every problem) on the files as
        the reader read them (without the elements it rejected), and the containment
        checks.  A missing argument (mention) that the reader rejected or an earlier
        problem removed is not reported again: it follows from a problem reported already."""
        out: list[Problem] = []
        read = [fr for fr in results if fr.apf is not None]
        by_path: dict[str | None, FileResult] = {fr.path: fr for fr in read}
        rejected = set()  # every element and mention ID of the files ...
        for fr in results:
            rejected.update(fr.ids)
        files = [fr.apf for fr in read if fr.apf is not None]  # (all of them)
        mentions_of: dict = {}  # (kind, ID, DOCID) -> the element's mention IDs
        for f in files:  # ... less those the reader accepted: what it rejected
            for doc in f.documents:
                for kind in KINDS:
                    for el in doc.elements(kind):
                        ms = mentions_of[(kind, el.id, doc.docid)] = [m.id for m in el.mentions]
                        rejected.discard(el.id)
                        rejected.difference_update(ms)
        removed_docs: set = set()
        problems = list(rules.document_problems(files, [], removed_docs))
        problems += rules.side_problems("REF", rules.side_documents(files, removed_docs), set())
        for p in problems:
            if p.rule in _FOLLOW_UPS and p.subject in rejected:
                continue
            for key in p.removed:  # what refers to it follows from this problem
                rejected.add(key[1])
                rejected.update(mentions_of.get(key, ()))
            out.append(self._from_error(by_path[p.path], p.error()))
        mention_ext: dict = {}  # mention id -> (docid, extent locator)
        twice: set = set()  # mention IDs used twice (their extents are not compared)
        for f in files:
            for doc in f.documents:
                for kind in KINDS:
                    for el in doc.elements(kind):
                        for m in el.mentions:
                            if m.id in mention_ext:
                                twice.add(m.id)
                            mention_ext[m.id] = (doc.docid, m.extent)
        for fr, f in zip(read, files):
            for doc in f.documents:
                if doc.data_type == "text":
                    out.extend(self._containment(fr, doc, mention_ext, twice))
        return out

    def _containment(
        self, fr: FileResult, doc: Document, mention_ext: dict, dup_ids: set
    ) -> list[Problem]:
        out = []

        def inside(inner: Locator, outer: Locator) -> bool:
            return outer.start <= inner.start and inner.end <= outer.end

        def span(loc: Locator) -> str:
            return f"{loc.start}..{loc.end}"

        m: Any
        for e in doc.entities:
            for m in e.mentions:
                if (
                    m.head.kind == "text"
                    and m.extent.kind == "text"
                    and not inside(m.head, m.extent)
                ):
                    out.append(
                        self._p(
                            fr,
                            m.line,
                            f"entity_mention {m.id}",
                            f"head {span(m.head)} is not inside the extent {span(m.extent)}",
                        )
                    )
        for kind, coll in (("relation", doc.relations), ("event", doc.events)):
            for el in coll:
                for m in el.mentions:
                    if kind == "event" and not inside(m.anchor, m.extent):
                        out.append(
                            self._p(
                                fr,
                                m.line,
                                f"event_mention {m.id}",
                                f"anchor {span(m.anchor)} is not inside the extent"
                                f" {span(m.extent)}",
                            )
                        )
                    for a in m.arguments:
                        x = mention_ext.get(a.refid)
                        if (
                            x is None
                            or a.refid in dup_ids
                            or x[0] != doc.docid
                            or x[1].kind != "text"
                        ):
                            continue
                        if not inside(x[1], m.extent):
                            out.append(
                                self._p(
                                    fr,
                                    m.line,
                                    f"{kind}_mention {m.id}",
                                    f"argument mention '{a.refid}' ({span(x[1])}) is"
                                    f" not inside the extent {span(m.extent)}",
                                )
                            )
        return out

    def scorer_check(self, results: list[FileResult]) -> list[Problem]:
        """Load a clean side (its input rules were checked) with the scorer's database
        code; report what fails."""
        files = [fr.apf for fr in results if fr.apf is not None]
        if not files:
            return []
        fr0 = results[0]
        side = database.Side("REF")
        warnings: list = []
        try:
            database.add_files(side, files, self.params, warnings)
            database.finish(side, self.params, warnings)
        except Exception as e:
            return [
                self._p(
                    fr0,
                    None,
                    None,
                    f"internal error while loading the side: {type(e).__name__}: {e}",
                )
            ]
        return []


def validate_paths(
    paths: list[str],
    source_dir: str | None = None,
    dtd: str | None = None,
    params: Params | None = None,
    entities: str = "raw",
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> Report:
    """Validate the APF files meant by ``paths`` (each at most ``max_bytes`` long).  Raises
    :class:`AceUsageError` for a bad ``dtd`` and :class:`AceInputError` for a bad
    ``source_dir`` (unusable input); every other problem is in the returned
    :class:`Report`."""
    return Validator(source_dir, dtd, params, entities, max_bytes).run(list(paths))
