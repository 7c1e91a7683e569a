"""The APF data model: what one APF file says, as typed, immutable records.

Everything here is *read-time* data: attribute values after the NIST tool's defaults and
checks (docs/rules/input.md §2), spans as inclusive START..END offsets with their text.  Scoring-time
state (values, mappings) lives in :mod:`acescore.scoring`, never on these records.

Kinds of element (the NIST tool's collections): ``entity``, ``value``, ``timex2``,
``relation``, ``event``.  Every element of a document is a *document element*; elements of
one side that share an ID across documents form one global element (see
:mod:`acescore.rules.database`).
"""

from __future__ import annotations

from dataclasses import field

from acescore.model.records import record
from acescore.model.text import display_text

Number = int | float

KINDS = ("entity", "value", "timex2", "relation", "event")
PLURAL = {
    "entity": "entities",
    "value": "values",
    "timex2": "timex2s",
    "relation": "relations",
    "event": "events",
}


@record
class Box:
    """One bounding box of an image locator."""

    page: int
    x: float
    y: float
    width: float
    height: float
    text: str = ""

    @property
    def xend(self) -> float:
        return self.x + self.width

    @property
    def yend(self) -> float:
        return self.y + self.height


@record
class Locator:
    """A head, extent or anchor.

    ``kind`` is the data type of the source (``text``, ``audio`` or ``image``).  For text,
    ``start``/``end`` are inclusive character offsets (a ``charspan``'s exclusive END is
    already converted); for audio they are seconds; for image they are the bounding
    rectangle of the boxes on the lowest page and ``boxes`` holds every box.
    ``text`` is the raw text of the ``charseq``; ``display`` the 40-character display text
    (docs/rules/input.md §2.5) or ``None`` when the raw text is empty.
    """

    kind: str
    start: Number
    end: Number
    text: str = ""
    boxes: tuple[Box, ...] = ()

    @property
    def display(self) -> str | None:
        """Computed when asked: most locators are never displayed (the listings, the view
        and the language labels of heads ask)."""
        return display_text(self.text)

    @property
    def length(self) -> Number:
        return self.end - self.start + 1 if self.kind == "text" else self.end - self.start


@record
class Argument:
    """A relation/event argument (element level: REFID is an element ID; mention level:
    a mention ID).  ``role`` is the stored role (``Arg`` for symmetric relations)."""

    role: str
    refid: str


@record
class EntityMention:
    id: str
    type: str  # NAM, NOM, PRO
    role: str  # ROLE attribute, default: the host entity's TYPE
    style: str  # LITERAL or METONYMIC
    head: Locator
    extent: Locator
    line: int = field(default=0, compare=False)

    @property
    def level(self) -> str:
        """The mention's contribution to the entity LEVEL (metonymic NAM counts as NOM)."""
        return "NOM" if self.type == "NAM" and self.style == "METONYMIC" else self.type


@record
class SimpleMention:
    """A value or timex2 mention: an extent only."""

    id: str
    extent: Locator
    line: int = field(default=0, compare=False)

    @property
    def head(self) -> None:
        return None


@record
class RelationMention:
    id: str
    extent: Locator
    arguments: tuple[Argument, ...]
    line: int = field(default=0, compare=False)

    @property
    def head(self) -> None:
        return None

    anchor = None


@record
class EventMention:
    id: str
    extent: Locator
    anchor: Locator
    arguments: tuple[Argument, ...]
    line: int = field(default=0, compare=False)

    @property
    def head(self) -> None:
        return None


@record
class Entity:
    id: str
    type: str
    subtype: str
    cls: str
    mentions: tuple[EntityMention, ...]
    names: tuple[str, ...]  # normalised, sorted, distinct
    level: str  # document LEVEL (NAM/NOM/PRO), derived
    links: tuple[tuple[str, str], ...] = ()  # (RESOURCE, EID)
    line: int = field(default=0, compare=False)
    kind: str = field(default="entity", init=False)
    # EMD: the entity a promoted mention element came from (None for read entities)
    origin: str | None = None
    #: the older versions' names (docs/rules/versions.md §2.3): (locator, NAME as written
    #: or None) of every name of every entity_attributes, in document order
    located_names: tuple = ()

    def attributes(self) -> dict[str, str | None]:
        return {"CLASS": self.cls, "LEVEL": self.level, "SUBTYPE": self.subtype, "TYPE": self.type}


@record
class Value:
    id: str
    type: str
    subtype: str | None
    mentions: tuple[SimpleMention, ...]
    links: tuple[tuple[str, str], ...] = ()
    line: int = field(default=0, compare=False)
    kind: str = field(default="value", init=False)
    origin: str | None = None

    def attributes(self) -> dict[str, str | None]:
        return {"SUBTYPE": self.subtype, "TYPE": self.type}


TIMEX2_ATTRIBUTES = ("ANCHOR_DIR", "ANCHOR_VAL", "COMMENT", "MOD", "NON_SPECIFIC", "SET", "VAL")


@record
class Timex2:
    id: str
    attrs: tuple[tuple[str, str], ...]  # defined attributes of TIMEX2_ATTRIBUTES, sorted
    mentions: tuple[SimpleMention, ...]
    links: tuple[tuple[str, str], ...] = ()
    line: int = field(default=0, compare=False)
    kind: str = field(default="timex2", init=False)
    origin: str | None = None

    type = "TIMEX2"
    subtype = "---"

    def attributes(self) -> dict[str, str | None]:
        d: dict[str, str | None] = dict(self.attrs)
        d["SUBTYPE"] = "---"
        d["TYPE"] = "TIMEX2"
        return d

    def get(self, name: str) -> str | None:
        for k, v in self.attrs:
            if k == name:
                return v
        return None


@record
class Relation:
    id: str
    type: str
    subtype: str
    modality: str
    arguments: tuple[Argument, ...]
    mentions: tuple[RelationMention, ...]
    links: tuple[tuple[str, str], ...] = ()
    line: int = field(default=0, compare=False)
    kind: str = field(default="relation", init=False)
    origin: str | None = None
    #: symmetric relations: the IDs given as both Arg-1 and Arg-2 (one argument after
    #: the conversion to Arg; the cause of the NIST tool's argument-count error)
    both_args: tuple[str, ...] = field(default=(), compare=False)
    # the NIST tool's warnings from reading this relation (reading/as_written.py)
    warnings: tuple[str, ...] = field(default=(), compare=False)
    #: read by the older versions only (docs/rules/versions.md §2.6); None in ace08
    tense: str | None = None

    def attributes(self) -> dict[str, str | None]:
        if self.tense is not None:
            return {
                "MODALITY": self.modality,
                "SUBTYPE": self.subtype,
                "TENSE": self.tense,
                "TYPE": self.type,
            }
        return {"MODALITY": self.modality, "SUBTYPE": self.subtype, "TYPE": self.type}


@record
class Event:
    id: str
    type: str
    subtype: str
    genericity: str
    modality: str
    polarity: str
    tense: str
    arguments: tuple[Argument, ...]
    mentions: tuple[EventMention, ...]
    links: tuple[tuple[str, str], ...] = ()
    line: int = field(default=0, compare=False)
    kind: str = field(default="event", init=False)
    origin: str | None = None
    # the NIST tool's warnings from reading this event (reading/as_written.py)
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def attributes(self) -> dict[str, str | None]:
        return {
            "GENERICITY": self.genericity,
            "MODALITY": self.modality,
            "POLARITY": self.polarity,
            "SUBTYPE": self.subtype,
            "TENSE": self.tense,
            "TYPE": self.type,
        }


Element = Entity | Value | Timex2 | Relation | Event


@record
class Document:
    docid: str
    source: str  # SOURCE of the source_file
    uri: str  # URI of the source_file
    data_type: str  # text, audio, image
    path: str  # the APF file it was read from
    entities: tuple[Entity, ...] = ()
    values: tuple[Value, ...] = ()
    timex2s: tuple[Timex2, ...] = ()
    relations: tuple[Relation, ...] = ()
    events: tuple[Event, ...] = ()
    line: int = field(default=0, compare=False)
    nist: str = field(default="ace08", compare=False)  # the version whose rules read it

    def elements(self, kind: str) -> tuple:
        elements: tuple = getattr(self, PLURAL[kind])
        return elements


@record
class ApfFile:
    """One APF file as read: its documents in file order and the SOURCE of every
    ``source_file`` (a file can have source_files without documents)."""

    path: str
    documents: tuple[Document, ...]
    sources: tuple[str, ...] = ()
    doctype: str | None = None  # DOCTYPE system identifier, if any
