"""The relations and events of an APF file (docs/rules/input.md §2): the part of the APF reader
(:class:`acescore.reading.apf._Reader`) that reads ``relation`` and ``event`` elements,
their mentions and arguments, with the same fast and checked paths as the rest of it."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any, NoReturn, overload

from acescore.model.apf import Argument, Event, EventMention, Locator, Relation, RelationMention
from acescore.model.params import (
    EVENT_ATTRIBUTES,
    EVENT_SUBTYPES,
    RELATION_MODALITIES,
    RELATION_SUBTYPES,
    SYMMETRIC_RELATIONS,
    Params,
)
from acescore.reading.as_written import reading_warnings
from acescore.reading.fastpath import (
    _EVENT_ATTRIBUTES,
    _EVENT_ROLES,
    _EVENT_SUBTYPES,
    _EVENT_TYPES,
    _RELATION_MODALITIES,
    _RELATION_ROLES,
    _RELATION_SUBTYPES,
    _RELATION_TYPES,
    _TIME_ROLES,
    _children,
)


class ReleveReading:
    """Relations and events, for the APF reader: it supplies ``p`` (the parameters),
    ``docid``, ``path``, ``demand``, ``optional``, ``fail``, ``_id``, ``_links``,
    ``_type_subtype``, ``required_locator`` and ``_fast_locators``."""

    if TYPE_CHECKING:  # what the reader supplies (acescore.reading.apf._Reader)
        p: Params
        docid: str | None
        path: str

        @overload
        def demand(
            self, node: Any, name: str, label: str, legal: None = None, element: str | None = None
        ) -> str: ...

        @overload
        def demand(
            self,
            node: Any,
            name: str,
            label: str,
            legal: Collection[str],
            element: str | None = None,
        ) -> str | None: ...

        def demand(
            self,
            node: Any,
            name: str,
            label: str,
            legal: Collection[str] | None = None,
            element: str | None = None,
        ) -> str | None: ...

        def optional(
            self,
            node: Any,
            name: str,
            label: str,
            legal: Collection[str] | None = None,
            element: str | None = None,
        ) -> str | None: ...

        def fail(
            self, node: Any, message: str, element: str | None = None, cause: str | None = None
        ) -> NoReturn: ...

        def _id(self, node: Any, kind: str, label: str | None = None) -> str: ...

        def _links(self, nodes: list, element: str | None) -> tuple: ...

        def _type_subtype(
            self,
            node: Any,
            tag: str,
            fast_types: dict,
            fast_subtypes: dict,
            subtypes: dict,
            el: str,
        ) -> tuple: ...

        def required_locator(
            self, node: Any, tag: str, element: str | None, missing: str
        ) -> Locator: ...

        def _fast_locators(
            self, m: Any, first: str, second: str | None = None, arg_tag: str | None = None
        ) -> tuple | None: ...

    def _arguments(
        self, nodes: list, tag: str, roles: dict, el: str, relation: bool, mid: str | None = None
    ) -> list[Argument]:
        """The arguments of the ``nodes`` (tag ``tag``); ``roles``: the legal roles (a
        canonical table).  Relation time roles are dropped unless the parameters score them.
        ``mid``: the ID of the mention holding them (messages name it)."""
        skip = _TIME_ROLES if relation and not self.p.score_relation_times else ()
        args = []
        seen = set()
        for a in nodes:
            refid = a.get("REFID")
            role = roles.get(a.get("ROLE"))
            if refid is None or role is None:  # checked path
                refid = self.demand(a, "REFID", tag, element=el)
                role = self.demand(a, "ROLE", tag, roles, el)
            else:
                refid = refid.strip()
            if role in skip:
                continue
            if (role, refid) in seen:
                holder = f"{tag.replace('_argument', '')} {mid} of {el}" if mid else el
                self.fail(
                    a,
                    f"multiple declarations of argument {refid} in role {role}",
                    el,
                    f"argument {refid} is declared twice in {holder} (role {role})",
                )
            seen.add((role, refid))
            args.append(Argument(role, refid))
        return args

    @staticmethod
    def _symmetric(args: Iterable[Argument]) -> tuple[Argument, ...]:
        out = []
        seen = set()
        for a in args:
            if a.role in ("Arg-1", "Arg-2"):
                a = Argument("Arg", a.refid)
            if (a.role, a.refid) in seen:
                continue
            seen.add((a.role, a.refid))
            out.append(a)
        return tuple(out)

    def relation(self, node: Any) -> Relation:
        rid = self._id(node, "relation")
        el = f"relation {rid}"
        rtype = _RELATION_TYPES.get(node.get("TYPE")) or self.demand(
            node, "TYPE", "relation", tuple(RELATION_SUBTYPES), el
        )
        if rtype == "METONYMY":
            subtype = "Unspecified"
        else:
            subtype = _RELATION_SUBTYPES[rtype].get(node.get("SUBTYPE")) or self.demand(
                node, "SUBTYPE", "relation", RELATION_SUBTYPES[rtype], el
            )
        modality = _RELATION_MODALITIES.get(node.get("MODALITY"))
        if modality is None:
            modality = self.optional(node, "MODALITY", "relation", RELATION_MODALITIES, el)
            if modality is None:
                modality = "Unspecified"
        arg_nodes, mention_nodes, link_nodes = _children(
            node, "relation_argument", "relation_mention", "external_link"
        )
        args = self._arguments(arg_nodes, "relation_argument", _RELATION_ROLES, el, True)
        mentions = []
        for m in mention_nodes:
            mention = self._fast_relation_mention(m, el)
            mentions.append(mention if mention is not None else self._relation_mention(m, el))
        if not mentions and rtype != "METONYMY" and self.p.use_mentions:
            self.fail(node, "no mentions found", el)
        notes = reading_warnings(
            "relation", rid, self.docid, self.path, args, mentions, self.p.min_overlap
        )
        args = tuple(args)
        both = ()
        tense = None
        if self.p.nist != "ace08":  # TENSE read, no Arg (docs/rules/versions.md §2.6)
            tense = self.optional(node, "TENSE", "relation", EVENT_ATTRIBUTES["TENSE"], el)
            tense = tense if tense is not None else "Unspecified"
        elif rtype in SYMMETRIC_RELATIONS:
            arg1 = {a.refid for a in args if a.role == "Arg-1"}
            both = tuple(sorted(arg1.intersection(a.refid for a in args if a.role == "Arg-2")))
            args = self._symmetric(args)
            mentions = [
                RelationMention(m.id, m.extent, self._symmetric(m.arguments), m.line)
                for m in mentions
            ]
        return Relation(
            rid,
            rtype,
            subtype,
            modality,
            args,
            tuple(mentions),
            self._links(link_nodes, el),
            node.sourceline or 0,
            both_args=both,
            warnings=notes,
            tense=tense,
        )

    def _relation_mention(self, m: Any, el: str) -> RelationMention:
        """Checked path of a relation_mention."""
        mid = self.demand(m, "ID", "relation_mention", element=el)
        margs = self._arguments(
            m.findall("relation_mention_argument"),
            "relation_mention_argument",
            _RELATION_ROLES,
            el,
            True,
            mid,
        )
        extent = self.required_locator(m, "extent", f"relation_mention {mid}", "No extent found")
        return RelationMention(mid, extent, tuple(margs), m.sourceline or 0)

    def _fast_relation_mention(self, m: Any, el: str) -> RelationMention | None:
        """Fast path of :meth:`_relation_mention`; None for the checked path.  The arguments
        are read last, once the ID and extents passed: an argument error is then the one
        the checked path raises."""
        mid = m.get("ID")
        if mid is None:
            return None
        parts = self._fast_locators(m, "extent", arg_tag="relation_mention_argument")
        if parts is None:
            return None
        extent, _, arg_nodes = parts
        margs = self._arguments(
            arg_nodes, "relation_mention_argument", _RELATION_ROLES, el, True, mid.strip()
        )
        return RelationMention(mid.strip(), extent, tuple(margs), m.sourceline or 0)

    def event(self, node: Any) -> Event:
        vid = self._id(node, "event")
        el = f"event {vid}"
        etype, subtype = self._type_subtype(
            node, "event", _EVENT_TYPES, _EVENT_SUBTYPES, EVENT_SUBTYPES, el
        )
        attrs = {
            a: table.get(node.get(a)) or self.demand(node, a, "event", table, el)
            for a, table in _EVENT_ATTRIBUTES.items()
        }
        arg_nodes, mention_nodes, link_nodes = _children(
            node, "event_argument", "event_mention", "external_link"
        )
        args = self._arguments(arg_nodes, "event_argument", _EVENT_ROLES, el, False)
        mentions = []
        for m in mention_nodes:
            mention = self._fast_event_mention(m, el)
            mentions.append(mention if mention is not None else self._event_mention(m, el))
        if not mentions and self.p.use_mentions:
            self.fail(node, "no mentions found", el)
        notes = reading_warnings(
            "event", vid, self.docid, self.path, args, mentions, self.p.min_overlap
        )
        return Event(
            vid,
            etype,
            subtype,
            attrs["GENERICITY"],
            attrs["MODALITY"],
            attrs["POLARITY"],
            attrs["TENSE"],
            tuple(args),
            tuple(mentions),
            self._links(link_nodes, el),
            node.sourceline or 0,
            warnings=notes,
        )

    def _event_mention(self, m: Any, el: str) -> EventMention:
        """Checked path of an event_mention."""
        mid = self.demand(m, "ID", "event_mention", element=el)
        mel = f"event_mention {mid}"
        margs = self._arguments(
            m.findall("event_mention_argument"),
            "event_mention_argument",
            _EVENT_ROLES,
            el,
            False,
            mid,
        )
        extent = self.required_locator(m, "extent", mel, "No extent found")
        anchor = self.required_locator(m, "anchor", mel, "No anchor found")
        return EventMention(mid, extent, anchor, tuple(margs), m.sourceline or 0)

    def _fast_event_mention(self, m: Any, el: str) -> EventMention | None:
        """Fast path of :meth:`_event_mention` (arguments last, as for relation mentions)."""
        mid = m.get("ID")
        if mid is None:
            return None
        parts = self._fast_locators(m, "extent", "anchor", "event_mention_argument")
        if parts is None:
            return None
        extent, anchor, arg_nodes = parts
        margs = self._arguments(
            arg_nodes, "event_mention_argument", _EVENT_ROLES, el, False, mid.strip()
        )
        return EventMention(mid.strip(), extent, anchor, tuple(margs), m.sourceline or 0)
