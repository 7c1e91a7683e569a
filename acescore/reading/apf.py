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

from acescore.model.apf import (
    TIMEX2_ATTRIBUTES,
    ApfFile,
    Box,
    Document,
    Entity,
    EntityMention,
    Locator,
    Number,
    SimpleMention,
    Timex2,
    Value,
)
from acescore.model.errors import AceInputError
from acescore.model.params import (
    ENTITY_CLASSES,
    ENTITY_SUBTYPES,
    MENTION_TYPES,
    VALUE_SUBTYPES,
    Params,
    get_params,
)
from acescore.model.problems import STRICT, UNKNOWN_DOCID, Policy, from_error
from acescore.model.text import normalize_name
from acescore.reading.apf_releves import ReleveReading
from acescore.reading.fastpath import (
    _ENTITY_CLASSES,
    _ENTITY_SUBTYPES,
    _ENTITY_TYPES,
    _MENTION_TYPES,
    _TRUE_FALSE,
    _VALUE_SUBTYPES,
    _VALUE_TYPES,
    _children,
    _fast_text_locator,
    _upper_names,
)
from acescore.reading.xmlfile import DEFAULT_MAX_BYTES, guess_docid, parse_xml, scan_docids

LEVEL_WEIGHT = {"NAM": 1.0, "NOM": 0.5, "PRO": 0.1}
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


class _Reader(ReleveReading):
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

    # ---- entities -------------------------------------------------------------------------
    def entity(self, node: Any) -> Entity:
        eid = self._id(node, "entity")
        el = f"entity {eid}"
        etype = _ENTITY_TYPES.get(node.get("TYPE"))
        if etype is None:
            etype = self.demand(node, "TYPE", "entity", element=el)
            if etype not in ENTITY_SUBTYPES:
                self.fail(node, f"Illegal entity TYPE attribute (= '{etype}')", el)
        subtype = _ENTITY_SUBTYPES[etype].get(node.get("SUBTYPE")) or self.demand(
            node, "SUBTYPE", "entity", ENTITY_SUBTYPES[etype], el
        )
        cls = _ENTITY_CLASSES.get(node.get("CLASS")) or self.demand(
            node, "CLASS", "entity", ENTITY_CLASSES, el
        )
        # one pass over the children: the mentions in order (as node.findall would give
        # them), the first entity_attributes and the external links for later
        mentions = []
        attr_node = None
        link_nodes = []
        for c in node:
            tag = c.tag
            if tag == "entity_mention":
                mention = self._fast_entity_mention(c, etype)
                mentions.append(
                    mention if mention is not None else self._entity_mention(c, etype, el)
                )
            elif tag == "entity_attributes":
                if attr_node is None:
                    attr_node = c
            elif tag == "external_link":
                link_nodes.append(c)
        if not mentions and self.p.use_mentions:
            self.fail(node, "this entity contains no mentions", el)
        names = set()
        if attr_node is not None:
            (name_nodes,) = _children(attr_node, "name")
            for nm in name_nodes:
                n = self._get(nm, "NAME")
                if n is None:
                    self.fail(nm, "a name is defined without a NAME attribute", el)
                norm = normalize_name(n)
                if not norm:
                    self.fail(nm, f"name '{n}' is empty after normalisation", el)
                names.add(norm)
        level = None
        for m in mentions:
            t = m.level
            if level is None or LEVEL_WEIGHT[t] > LEVEL_WEIGHT[level]:
                level = t
        if not self.p.use_mentions:
            level = "NAM" if names else (level or "PRO")
        if names and level != "NAM":
            self.fail(
                node, f"this entity is declared to be of level '{level}', but it has names", el
            )
        return Entity(
            eid,
            etype,
            subtype,
            cls,
            tuple(mentions),
            tuple(sorted(names)),
            level,
            self._links(link_nodes, el),
            node.sourceline or 0,
        )

    def _entity_mention(self, m: Any, etype: str, el: str) -> EntityMention:
        """Checked path of an entity_mention."""
        mid = self.demand(m, "ID", "entity_mention", element=el)
        mel = f"entity_mention {mid}"
        mtype = self.demand(m, "TYPE", "entity_mention", MENTION_TYPES, mel)
        role = self.optional(m, "ROLE", "entity_mention", tuple(ENTITY_SUBTYPES), mel)
        met = self.optional(m, "METONYMY_MENTION", "entity_mention", ("TRUE", "FALSE"), mel)
        head = self.required_locator(m, "head", mel, "no mention head found")
        extent = self.required_locator(m, "extent", mel, "no mention extent found")
        return EntityMention(
            mid,
            mtype,
            role if role is not None else etype,
            "METONYMIC" if met == "TRUE" else "LITERAL",
            head,
            extent,
            m.sourceline or 0,
        )

    def _fast_entity_mention(self, m: Any, etype: str) -> EntityMention | None:
        """Fast path of :meth:`_entity_mention`; None for the checked path."""
        get = m.get
        mid, role, met = get("ID"), get("ROLE"), get("METONYMY_MENTION")
        mtype = _MENTION_TYPES.get(get("TYPE"))
        if mid is None or mtype is None:
            return None
        if (role is None or met is None) and not _upper_names(m):
            return None  # an optional attribute may be there in another case
        if role is None:
            role = etype
        else:
            role = _ENTITY_TYPES.get(role)
            if role is None:
                return None
        if met is not None and met not in _TRUE_FALSE:
            return None
        parts = self._fast_locators(m, "head", "extent")
        if parts is None:
            return None
        head, extent, _ = parts
        return EntityMention(
            mid.strip(),
            mtype,
            role,
            "METONYMIC" if met == "TRUE" else "LITERAL",
            head,
            extent,
            m.sourceline or 0,
        )

    # ---- values and timex2 ---------------------------------------------------------------------
    def _simple_mentions(self, nodes: list, label: str, el: str) -> tuple:
        out = []
        for m in nodes:
            mention = self._fast_simple_mention(m)
            if mention is None:  # checked path
                mid = self.demand(m, "ID", label, element=el)
                extent = self.required_locator(
                    m, "extent", f"{label} {mid}", "no mention extent found"
                )
                mention = SimpleMention(mid, extent, m.sourceline or 0)
            out.append(mention)
        return tuple(out)

    def _fast_simple_mention(self, m: Any) -> SimpleMention | None:
        """Fast path of a value or timex2 mention; None for the checked path."""
        mid = m.get("ID")
        if mid is None:
            return None
        parts = self._fast_locators(m, "extent")
        if parts is None:
            return None
        return SimpleMention(mid.strip(), parts[0], m.sourceline or 0)

    def _type_subtype(
        self, node: Any, tag: str, fast_types: dict, fast_subtypes: dict, subtypes: dict, el: str
    ) -> tuple:
        """TYPE and SUBTYPE of a value or event: looked up in the fast path's tables, else
        read by the checked path (``subtypes``: the legal subtypes of each type)."""
        t = fast_types.get(node.get("TYPE")) or self.demand(node, "TYPE", tag, tuple(subtypes), el)
        st = fast_subtypes[t].get(node.get("SUBTYPE")) or self.demand(
            node, "SUBTYPE", tag, subtypes[t], el
        )
        return t, st

    def value(self, node: Any) -> Value:
        vid = self._id(node, "value")
        el = f"value {vid}"
        vtype, subtype = self._type_subtype(
            node, "value", _VALUE_TYPES, _VALUE_SUBTYPES, VALUE_SUBTYPES, el
        )
        mention_nodes, link_nodes = _children(node, "value_mention", "external_link")
        mentions = self._simple_mentions(mention_nodes, "value_mention", el)
        if not mentions and self.p.use_mentions:
            self.fail(node, "value data contains no mentions", el)
        return Value(
            vid, vtype, subtype, mentions, self._links(link_nodes, el), node.sourceline or 0
        )

    def timex2(self, node: Any) -> Timex2:
        tid = self._id(node, "timex2", "TIMEX2")
        el = f"timex2 {tid}"
        plain = _upper_names(node)  # then an attribute node.get misses is absent
        attrs = {}
        for a in TIMEX2_ATTRIBUTES:
            v = node.get(a)
            v = v.strip() if v is not None else (None if plain else self._get(node, a))
            if v is None and a in ("SET", "NON_SPECIFIC"):
                v = "NO"
            if v is not None:
                attrs[a] = v
        mention_nodes, link_nodes = _children(node, "timex2_mention", "external_link")
        mentions = self._simple_mentions(mention_nodes, "TIMEX2_mention", el)
        if not mentions and self.p.use_mentions:
            self.fail(node, "timex2 data contains no mentions", el)
        return Timex2(
            tid,
            tuple(sorted(attrs.items())),
            mentions,
            self._links(link_nodes, el),
            node.sourceline or 0,
        )


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
