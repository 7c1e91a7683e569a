"""Mention promotion for the mention-level tasks (02 §7, 03 §10).

Every mention of an element becomes an element of its own: its ID is the mention's ID, its
single mention gets the ID ``"<mention ID> mention"``, attributes come from the host element.
Promoted elements are read only: they share their attribute dictionaries (with the host,
or among equal entity attributes) and their empty argument and link dictionaries.
"""
from __future__ import annotations

from acescore.database import NOTHING, GlobalElement
from acescore.model import Entity, EntityMention, SimpleMention, Timex2, Value


def promote_elements(coll: dict, warnings: list | None = None) -> tuple[dict, dict]:
    """Promote every mention of entities/values/timex2.  Returns (elements, origin) where
    origin maps each new element ID to its host element ID."""
    out: dict = {}
    origin: dict = {}
    entity_attrs: dict = {}     # one attribute dict per distinct combination (read only)
    for eid in sorted(coll):
        g = coll[eid]
        for d in sorted(g.docs):
            x = g.docs[d]
            if not x.mentions and warnings is not None:
                warnings.append(f"\nWARNING:  no mentions found for '{eid}' in document '{d}' in"
                                " promote_mentions_of_element\n")
            for m in x.mentions:
                if isinstance(m, EntityMention):
                    nm = EntityMention(f"{m.id} mention", m.type, m.role, m.style, m.head,
                                       m.extent, m.line)
                else:
                    nm = SimpleMention(f"{m.id} mention", m.extent, m.line)
                if isinstance(x, Entity):
                    level = m.level
                    if m.type == "NAM" and m.style != "METONYMIC":
                        names = (m.head.display,) if m.head.display is not None else ("",)
                    else:
                        names = x.names
                    new = Entity(m.id, x.type, x.subtype, x.cls, (nm,), names, level, (),
                                 x.line, origin=eid)
                    key = (x.cls, level, x.subtype, x.type)
                    attrs = entity_attrs.get(key)
                    if attrs is None:
                        attrs = entity_attrs[key] = {"CLASS": x.cls, "LEVEL": level,
                                                     "SUBTYPE": x.subtype, "TYPE": x.type}
                elif isinstance(x, Value):
                    new = Value(m.id, x.type, x.subtype, (nm,), (), x.line, origin=eid)
                    attrs = g.attrs
                else:
                    new = Timex2(m.id, x.attrs, (nm,), (), x.line, origin=eid)
                    attrs = g.attrs
                ng = GlobalElement(m.id, g.kind, {d: new}, attrs,
                                   level=attrs.get("LEVEL"), name_entropy=g.name_entropy,
                                   arguments=NOTHING, links=NOTHING, origin=eid)
                out[m.id] = ng
                origin[m.id] = eid
    return out, origin
