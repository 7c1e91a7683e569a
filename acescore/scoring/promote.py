"""Mention promotion for the mention-level tasks (docs/rules/entities.md §7, docs/rules/relations-events.md §10).

Every mention of an element becomes an element of its own: its ID is the mention's ID, its
single mention gets the ID ``"<mention ID> mention"``, attributes come from the host element.
Promoted elements are read only: they share their attribute dictionaries (with the host,
or among equal entity attributes) and their empty argument and link dictionaries.
"""

from __future__ import annotations

from typing import Any

from acescore.model.apf import (
    Argument,
    Entity,
    EntityMention,
    Event,
    EventMention,
    Relation,
    RelationMention,
    SimpleMention,
    Timex2,
    Value,
)
from acescore.model.params import Params
from acescore.model.spans import overlap
from acescore.model.text import old_display_text
from acescore.rules.database import NOTHING, GlobalElement, Side


def promote_elements(
    coll: dict, warnings: list | None = None, params: Params | None = None
) -> tuple[dict, dict]:
    """Promote every mention of entities/values/timex2.  Returns (elements, origin) where
    origin maps each new element ID to its host element ID.  ``params`` of an older version:
    its rules (:func:`_old_name`)."""
    old = params is not None and params.nist != "ace08"
    out: dict = {}
    origin: dict = {}
    entity_attrs: dict = {}  # one attribute dict per distinct combination (read only)
    for eid in sorted(coll):
        g = coll[eid]
        docs = g.docs
        kind, entropy = g.kind, g.name_entropy
        for d in docs if len(docs) == 1 else sorted(docs):
            x = docs[d]
            if not x.mentions and warnings is not None:
                warnings.append(
                    f"\nWARNING:  no mentions found for '{eid}' in document '{d}' in"
                    " promote_mentions_of_element\n"
                )
            is_entity = isinstance(x, Entity)
            for m in x.mentions:
                mid = m.id
                nm: EntityMention | SimpleMention
                new: Entity | Value | Timex2
                if is_entity:
                    nm = EntityMention(
                        f"{mid} mention", m.type, m.role, m.style, m.head, m.extent, m.line
                    )
                    located: tuple = ()
                    names: tuple
                    if params is not None and old:
                        level, names = m.type, ()
                        located = _old_name(x, m, params.min_overlap, warnings)
                    elif m.type == "NAM" and m.style != "METONYMIC":
                        level = "NAM"
                        shown = m.head.display
                        names = (shown,) if shown is not None else ("",)
                    else:
                        level = m.level
                        names = x.names
                    new = Entity(
                        mid,
                        x.type,
                        x.subtype,
                        x.cls,
                        (nm,),
                        names,
                        level,
                        (),
                        x.line,
                        origin=eid,
                        located_names=located,
                    )
                    key = (x.cls, level, x.subtype, x.type)
                    attrs = entity_attrs.get(key)
                    if attrs is None:
                        attrs = entity_attrs[key] = {
                            "CLASS": x.cls,
                            "LEVEL": level,
                            "SUBTYPE": x.subtype,
                            "TYPE": x.type,
                        }
                else:
                    nm = SimpleMention(f"{mid} mention", m.extent, m.line)
                    level = g.attrs.get("LEVEL")
                    attrs = g.attrs
                    if isinstance(x, Value):
                        new = Value(mid, x.type, x.subtype, (nm,), (), x.line, origin=eid)
                    else:
                        new = Timex2(mid, x.attrs, (nm,), (), x.line, origin=eid)
                out[mid] = GlobalElement(
                    mid,
                    kind,
                    {d: new},
                    attrs,
                    level=level,
                    name_entropy=entropy,
                    arguments=NOTHING,
                    links=NOTHING,
                    origin=eid,
                )
                origin[mid] = eid
    return out, origin


def _old_name(x: Entity, m: EntityMention, min_overlap: float, warnings: list | None) -> tuple:
    """The older versions' name of a promoted entity mention (docs/rules/versions.md §3.8):
    the entity's name overlapping the head most (at least ``min_overlap``; the later of
    equal ones), else the head of a metonymic NAM mention; with the two EMD warnings."""
    best = None
    most = min_overlap
    for name in x.located_names:
        o = overlap(name[0], m.head)
        if o < most:
            continue
        best, most = name, o
    if best is not None:
        if m.type != "NAM" and warnings is not None:
            warnings.append(
                f"\nWARNING:  NAME found for un-NAME mention {m.id}"
                f" (name = '{old_display_text(best[0].text)}')\n"
            )
        return (best,)
    if m.type == "NAM" and m.style == "METONYMIC":
        return ((m.head, None),)
    if m.type == "NAM" and warnings is not None:
        warnings.append(f"\nWARNING:  no NAME found for NAME mention {m.id}\n")
    return ()


# ---- relation and event mentions (docs/rules/relations-events.md §10.2) -------------------------------------------------


def _renamed_mention(
    m: RelationMention | EventMention, new_id: str
) -> RelationMention | EventMention:
    """A relation/event mention under another ID (``dataclasses.replace`` is slow)."""
    if isinstance(m, EventMention):
        return EventMention(new_id, m.extent, m.anchor, m.arguments, m.line)
    return RelationMention(new_id, m.extent, m.arguments, m.line)


def _promoted_element(
    x: Relation | Event, new_id: str, mention: Any, arguments: tuple, origin: str
) -> Relation | Event:
    """The element of one promoted mention: ``x``'s attributes, one mention, no links."""
    if isinstance(x, Event):
        return Event(
            new_id,
            x.type,
            x.subtype,
            x.genericity,
            x.modality,
            x.polarity,
            x.tense,
            arguments,
            (mention,),
            (),
            x.line,
            origin=origin,
        )
    return Relation(
        new_id,
        x.type,
        x.subtype,
        x.modality,
        arguments,
        (mention,),
        (),
        x.line,
        origin=origin,
        tense=x.tense,
    )


def promote_releves(kind: str, coll: dict, side: Side, is_ref: bool, warnings: list) -> dict:
    """Every relation (event) mention becomes an element of its own (see module doc)."""
    out: dict = {}
    for eid in sorted(coll):
        g = coll[eid]
        for d in sorted(g.docs):
            x = g.docs[d]
            if not x.mentions:
                warnings.append(
                    f"\nWARNING:  no mentions found for '{eid}' in document '{d}' in"
                    " promote_mentions_of_element\n"
                )
                continue
            for m in x.mentions:
                arguments: dict = {}
                for a in m.arguments:
                    if is_ref:
                        info = side.mentions.get(a.refid)
                        if info is None:
                            raise AssertionError(
                                f"FATAL ERROR in promote_mentions_of_element:"
                                f"  '{a.refid}' is not registered"
                            )
                        aid = info[1]
                    else:
                        aid = a.refid
                    arguments.setdefault(a.role, set()).add(aid)
                args = {role: tuple(sorted(ids)) for role, ids in arguments.items()}
                nm = _renamed_mention(m, f"{m.id} mention")
                el_args = tuple(Argument(role, aid) for role in sorted(args) for aid in args[role])
                new = _promoted_element(x, m.id, nm, el_args, eid)
                ng = GlobalElement(m.id, g.kind, {d: new}, g.attrs, arguments=args, origin=eid)
                out[m.id] = ng
    return out
