"""The entities, values and timex2 of an APF file (docs/rules/input.md §2): the part of the
APF reader (:class:`acescore.reading.apf._Reader`) that reads ``entity``, ``value`` and
``timex2`` elements and their mentions, with the same fast and checked paths as the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acescore.model.apf import (
    TIMEX2_ATTRIBUTES,
    Entity,
    EntityMention,
    Locator,
    SimpleMention,
    Timex2,
    Value,
)
from acescore.model.params import ENTITY_CLASSES, ENTITY_SUBTYPES, MENTION_TYPES, VALUE_SUBTYPES
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
    _upper_names,
)

#: the weight of a mention level: an entity's LEVEL is that of its highest mention
LEVEL_WEIGHT = {"NAM": 1.0, "NOM": 0.5, "PRO": 0.1}


class EntityReading(ReleveReading):
    """Entities, values and timex2, for the APF reader (which supplies what
    :class:`~acescore.reading.apf_releves.ReleveReading` lists, and ``locator``,
    ``locators``, ``_unique``, ``_number``)."""

    if TYPE_CHECKING:  # what the reader supplies (acescore.reading.apf._Reader)

        @staticmethod
        def _get(node: Any, name: str) -> str | None: ...

        def locator(self, container: Any, element: str | None) -> Locator: ...

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
        attr_nodes: list = []
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
                attr_nodes.append(c)
            elif tag == "external_link":
                link_nodes.append(c)
        if not mentions and self.p.use_mentions:
            self.fail(node, "this entity contains no mentions", el)
        names: set = set()
        old = self.p.nist != "ace08"  # the older versions (docs/rules/versions.md §2.3-2.4)
        located = ()
        if old:
            located = tuple(
                (self.locator(nm, el), nm.get("NAME"))
                for a in attr_nodes
                for nm in a.findall("name")
            )
        elif attr_node is not None:
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
        for m in mentions:  # older versions: a metonymic NAM is NAM
            t = m.type if old else m.level
            if level is None or LEVEL_WEIGHT[t] > LEVEL_WEIGHT[level]:
                level = t
        if not self.p.use_mentions:
            level = "NAM" if names else (level or "PRO")
        if names and level != "NAM" and not old:
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
            located_names=located,
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
