"""Reading one APF file into the data model (docs/rules/input.md §2).

XML is parsed with lxml, safely: no external entities, no DTD loading, no network.  The
attribute rules (demanded/optional attributes, legal values, defaults), the locator rules and
the per-element checks follow the NIST tool; every problem is an
:class:`~acescore.model.errors.AceInputError` naming file, line and element, handed to the reader's
error policy (:mod:`acescore.model.problems`): strict raises it, a collecting policy (lenient mode,
``acescore validate``) records it and the reader skips the element or document concerned.

Text and attribute values are read as written, as the NIST tool's home-made tokenizer reads
them (no entity decoding, line breaks in attribute values kept; reading/as_written.py).  Where
the tokenizer differs otherwise from a real XML parser (comments, single-quoted attributes;
docs/rules/input.md §2.2) we follow XML; the README lists these cases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from typing import Any, Literal, NoReturn, overload

from acescore.model.apf import ApfFile, Box, Document, Locator, Number
from acescore.model.errors import AceInputError
from acescore.model.params import Params, get_params
from acescore.model.problems import STRICT, UNKNOWN_DOCID, Policy, from_error
from acescore.reading.apf_entities import EntityReading
from acescore.reading.fastpath import _fast_text_locator
from acescore.reading.xmlfile import DEFAULT_MAX_BYTES, guess_docid, parse_xml, scan_docids

# Largest locator number accepted: beyond it numbers are not exact as floats (and huge ones
# or NaN/infinity would break the arithmetic of scoring and reporting).
MAX_NUMBER = 2**53
# Numbers of locators: ASCII digits with an optional minus sign (and, for times and
# coordinates, a decimal point and exponent).  Python's int() and float() would also take
# full-width or other Unicode digits, "6_1" and "+61"; the NIST tool's Perl reads none of
# them as the number they seem to be.
_INTEGER = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


@overload
def ascii_number(v: str, integer: Literal[True] = True) -> int | None: ...


@overload
def ascii_number(v: str, integer: bool) -> int | float | None: ...


def ascii_number(v: str, integer: bool = True) -> int | float | None:
    """The int (or float) written as ``v`` in ASCII digits (see ``_INTEGER``/``_DECIMAL``),
    or None when ``v`` is not such a number."""
    if (_INTEGER if integer else _DECIMAL).fullmatch(v) is None:
        return None
    try:
        return int(v) if integer else float(v)
    except ValueError:  # more digits than int() converts
        return None


class _Reader(EntityReading):
    """Reads one APF file; holds the context needed for error messages.

    Elements are read through the fast paths where possible (:mod:`.fastpath`); the
    checked methods (``demand``, ``optional``, ``locator`` and the ``_<kind>_mention``
    readers) define the behaviour.
    """

    def __init__(self, path: str, params: Params, policy: Policy = STRICT) -> None:
        self.path = path
        self.p = params
        self.policy = policy
        self.docid: str | None = None
        self.data_type: str | None = None

    # ---- errors -------------------------------------------------------------------------
    def fail(
        self, node: Any, message: str, element: str | None = None, cause: str | None = None
    ) -> NoReturn:
        raise AceInputError(
            message, self.path, getattr(node, "sourceline", None), element, cause=cause
        )

    def _skip_docs(
        self, err: AceInputError, docids: Iterable[str], note: str | None = None
    ) -> None:
        """A document-level problem: strict raises it; otherwise ``docids`` are skipped."""
        if self.policy.strict:
            raise err
        self.policy.report(from_error(err, "document", docids, (), note))

    # ---- attribute access -----------------------------------------------------------------
    @staticmethod
    def _get(node: Any, name: str) -> str | None:
        v = node.get(name)
        if v is None:
            # attribute names are case-insensitive in the NIST tool
            for k in node.keys():  # noqa: SIM118  (an lxml element: iterating it gives its children)
                if k.upper() == name:
                    v = node.get(k)
                    break
            else:
                return None
        value: str = v.strip()
        return value

    @overload
    def demand(
        self, node: Any, name: str, label: str, legal: None = None, element: str | None = None
    ) -> str: ...

    @overload
    def demand(
        self, node: Any, name: str, label: str, legal: Collection[str], element: str | None = None
    ) -> str | None: ...

    def demand(
        self,
        node: Any,
        name: str,
        label: str,
        legal: Collection[str] | None = None,
        element: str | None = None,
    ) -> str | None:
        """The attribute ``name`` of ``node`` (in ``legal``, if given), or a failure; None
        only when ``legal`` is empty (no legal value: e.g. the subtypes of a type without
        any)."""
        v = self._get(node, name)
        if v is None:
            if legal is not None and len(legal) == 0:
                return None
            self.fail(node, f"Missing {label} {name} attribute", element)
        if legal is not None and v not in legal:
            self.fail(node, f"Illegal {label} {name} attribute (= '{v}')", element)
        return v

    def optional(
        self,
        node: Any,
        name: str,
        label: str,
        legal: Collection[str] | None = None,
        element: str | None = None,
    ) -> str | None:
        v = self._get(node, name)
        if v is not None and legal is not None and v not in legal:
            self.fail(node, f"Unrecognized {label} {name} attribute (= '{v}')", element)
        return v

    # ---- locators ---------------------------------------------------------------------------
    @overload
    def _number(self, node: Any, name: str, element: str | None, integer: Literal[True]) -> int: ...

    @overload
    def _number(self, node: Any, name: str, element: str | None, integer: bool) -> int | float: ...

    def _number(self, node: Any, name: str, element: str | None, integer: bool) -> int | float:
        v = self._get(node, name)
        if v is None:
            self.fail(node, f"No '{name}' attribute found", element)
        shown = v if len(v) <= 40 else v[:37] + "..."
        x = ascii_number(v, integer)
        if x is None:
            what = "an integer" if integer else "a number"
            self.fail(node, f"{name} attribute is not {what} (= '{shown}')", element)
        if not -MAX_NUMBER <= x <= MAX_NUMBER:  # also NaN; keeps all arithmetic finite
            self.fail(node, f"{name} attribute is out of range (= '{shown}')", element)
        return x

    def locator(self, container: Any, element: str | None) -> Locator:
        dt = self.data_type
        if dt == "text":
            loc = _fast_text_locator(container)
            if loc is not None:
                return loc
            seq = container.find("charseq")
            span = seq is None
            if span:
                seq = container.find("charspan")
            if seq is None:
                self.fail(
                    container,
                    "text mention contains no position info (no 'charseq' or 'charspan')",
                    element,
                )
            start: Number = self._number(seq, "START", element, True)
            end: Number
            if span and self._get(seq, "END") is None:
                end = -1
            else:
                end = self._number(seq, "END", element, True)
                if span:
                    end -= 1
            if start < 0:
                self.fail(seq, f"negative START offset (= {start})", element)
            if end - start < 0:
                self.fail(seq, f"Non-positive text span (start={start}, end={end})", element)
            raw = seq.text or ""
            return Locator("text", start, end, raw)
        if dt == "audio":
            ts = container.find("timespan")
            if ts is None:
                self.fail(
                    container,
                    "audio mention contains no timing info (no 'timespan' element)",
                    element,
                )
            start = self._number(ts, "START", element, False)
            end = self._number(ts, "END", element, False)
            if end - start <= 0:
                self.fail(ts, f"Non-positive time span (start={start}, end={end})", element)
            raw = ts.text or ""
            return Locator("audio", start, end, raw)
        # image
        bbl = container.find("bblist")
        if bbl is None:
            self.fail(
                container, "image mention contains no image data (no 'bblist' element)", element
            )
        boxes = []
        for bb in bbl.findall("bbox"):
            vals: dict = {}
            for a in ("PAGE", "X", "Y", "WIDTH", "HEIGHT"):
                if self._get(bb, a) is None:
                    self.fail(bb, f"No '{a.lower()}' attribute found in 'bbox' element", element)
                vals[a] = self._number(bb, a, element, a == "PAGE")
            if vals["WIDTH"] <= 0:
                self.fail(bb, "Non-positive bounding box width", element)
            if vals["HEIGHT"] <= 0:
                self.fail(bb, "Non-positive bounding box height", element)
            boxes.append(
                Box(
                    vals["PAGE"], vals["X"], vals["Y"], vals["WIDTH"], vals["HEIGHT"], bb.text or ""
                )
            )
        if not boxes:
            self.fail(bbl, "image mention contains no boxes (no 'bbox' data)", element)
        boxes.sort(key=lambda b: (b.page, -b.yend, b.x, -b.y, b.xend))
        first = boxes[0].page
        on_first = [b for b in boxes if b.page == first]
        raw = "".join(b.text for b in boxes if b.text)
        return Locator(
            "image", min(b.y for b in on_first), max(b.yend for b in on_first), raw, tuple(boxes)
        )

    def required_locator(self, node: Any, tag: str, element: str | None, missing: str) -> Locator:
        """:meth:`locators`, failing with ``missing`` when there is no ``tag`` container."""
        loc = self.locators(node, tag, element)
        if loc is None:
            self.fail(node, missing, element)
        return loc

    def locators(self, node: Any, tag: str, element: str | None) -> Locator | None:
        """Every child container ``tag`` is validated; the first one is used."""
        found = None
        for c in node.findall(tag):
            loc = self.locator(c, element)
            if found is None:
                found = loc
        return found

    def _fast_locators(
        self, m: Any, first: str, second: str | None = None, arg_tag: str | None = None
    ) -> tuple | None:
        """Fast path for the children of mention ``m``, in one pass: ``(loc1, loc2, args)``,
        the first locator of the containers ``first`` and ``second`` (None if not asked for)
        and the argument children (tag ``arg_tag``).  None (the caller takes the checked
        path) unless every container is fast-path material (:func:`_fast_text_locator`) and
        each asked-for tag has one."""
        if self.data_type != "text":
            return None
        loc1 = loc2 = None
        args = []
        for c in m:
            tag = c.tag
            if tag in (first, second):
                loc = _fast_text_locator(c)
                if loc is None:
                    return None
                if tag == first:
                    if loc1 is None:
                        loc1 = loc
                elif loc2 is None:
                    loc2 = loc
            elif tag == arg_tag:
                args.append(c)
        if loc1 is None or (loc2 is None and second is not None):
            return None
        return loc1, loc2, args

    # ---- file -----------------------------------------------------------------------------
    def read(self, tree: Any) -> ApfFile | None:
        """The file's documents.  Under a collecting policy broken documents are left out;
        None when the file had documents and none was usable."""
        root = tree.getroot()
        doctype = tree.docinfo.system_url
        # The NIST tool finds nothing inside a wrapper element (docs/rules/input.md §2.3).
        sfs = [root] if root.tag == "source_file" else []
        documents = []
        sources = []
        seen = set()
        had_documents = False
        n_docs = sum(len(sf.findall("document")) for sf in sfs)
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
                    if n_docs == 1:
                        self._skip_docs(
                            err, [guess_docid(self.path)], "DOCID guessed from the file name"
                        )
                    else:
                        self._skip_docs(err, [], UNKNOWN_DOCID)
                    continue
                if docid in seen:
                    # every definition of the DOCID is skipped, on both sides (lenient mode):
                    # which one is "first" must not depend on file order
                    self._skip_docs(
                        AceInputError(
                            f"document ID '{docid}' has already been defined",
                            self.path,
                            doc.sourceline,
                            f"document {docid}",
                        ),
                        [docid],
                    )
                    continue
                seen.add(docid)
                documents.append(self.document(doc, docid, uri, source))
                kept += 1
            if kept or not docs:
                sources.append(source)
        if had_documents and not documents:
            return None
        return ApfFile(self.path, tuple(documents), tuple(sources), doctype)

    def document(self, node: Any, docid: str, uri: str, source: str) -> Document:
        self.docid = docid
        ents = self._unique(node, "entity", self.entity)
        rels = self._unique(node, "relation", self.relation)
        evs = self._unique(node, "event", self.event)
        tims = self._unique(node, "timex2", self.timex2)
        vals = self._unique(node, "value", self.value)
        return Document(
            docid,
            source,
            uri,
            self.data_type,
            self.path,
            tuple(ents),
            tuple(vals),
            tuple(tims),
            tuple(rels),
            tuple(evs),
            node.sourceline or 0,
            self.p.nist,
        )

    def _unique(self, node: Any, tag: str, fn: Callable[[Any], Any]) -> list:
        out = []
        seen = set()
        policy = self.policy
        for el in node.findall(tag):
            try:
                e = fn(el)
            except AceInputError as err:
                if policy.strict:
                    raise
                key = (tag, self._get(el, "ID"), self.docid)
                policy.report(from_error(err, "element", (self.docid,), (key,)))
                continue
            if e.id in seen:
                twice = AceInputError(
                    f"multiple {tag} definitions (only one definition allowed per document)",
                    self.path,
                    el.sourceline,
                    f"{tag} {e.id}",
                )
                if policy.strict:
                    raise twice
                policy.report(
                    from_error(
                        twice,
                        "element",
                        (self.docid,),
                        ((tag, e.id, self.docid),),
                        "the first definition is kept",
                    )
                )
                continue
            seen.add(e.id)
            out.append(e)
        return out

    def _links(self, nodes: list, element: str | None) -> tuple:
        """The (RESOURCE, EID) pairs of the ``external_link`` elements ``nodes``, sorted."""
        if not nodes:
            return ()
        links: dict = {}
        for ln in nodes:
            res = self.demand(ln, "RESOURCE", "external_link", element=element)
            eid = self.demand(ln, "EID", "external_link", element=element)
            if res in links:
                self.fail(
                    ln,
                    f"multiple external ID's ('{eid}'/'{links[res]}') given for resource '{res}'",
                    element,
                )
            links[res] = eid
        return tuple(sorted(links.items()))

    def _id(self, node: Any, kind: str, label: str | None = None) -> str:
        label = label or kind
        v = self._get(node, "ID")
        if v is None:
            self.fail(node, f"Missing {label} ID attribute", f"{kind} in document {self.docid}")
        return v

    # Element attributes below are read as ``_TABLE.get(node.get(NAME)) or self.demand(...)``:
    # the table lookup is the fast path, ``demand`` the checked one (a legal value is never
    # empty, so ``or`` only falls through when the lookup fails).  A table can also be the
    # ``legal`` argument of ``demand``: its keys are the legal values.


def read_apf(
    path: str,
    params: Params | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    policy: Policy = STRICT,
) -> ApfFile | None:
    """Read one APF file.  ``params`` decides the mention-dependent checks (default
    ``local_2008``).  ``policy``: what to do with a problem (:mod:`acescore.model.problems`; strict:
    raise).  Under a collecting policy an unreadable file is a document-level problem (its
    DOCIDs from its ``document`` tags, else its file name) and the result is None when
    nothing of the file is usable."""
    params = params or get_params("local_2008")
    try:
        tree = parse_xml(path, max_bytes)
    except AceInputError as err:
        if policy.strict:
            raise
        docids, found = scan_docids(path)
        policy.report(
            from_error(
                err, "document", docids, (), None if found else "DOCID guessed from the file name"
            )
        )
        return None
    return _Reader(path, params, policy).read(tree)


def read_apf_tree(
    tree: Any, path: str, params: Params | None = None, policy: Policy = STRICT
) -> ApfFile | None:
    """Like :func:`read_apf` for a tree already returned by :func:`parse_xml` (so that a
    caller that also validates the tree parses the file once)."""
    return _Reader(path, params or get_params("local_2008"), policy).read(tree)
