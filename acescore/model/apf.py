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

from dataclasses import MISSING, dataclass, field, fields
from typing import TypeVar

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


_Record = TypeVar("_Record")


def _fast_init(cls: type[_Record]) -> type[_Record]:
    """Give the frozen slots dataclass ``cls`` a faster ``__init__``.

    The ``__init__`` that dataclasses generates for a frozen class stores every field with
    ``object.__setattr__(self, name, value)``; a corpus has hundreds of thousands of records,
    and that was over a tenth of the time to read one.  The ``__init__`` made here has the
    same parameters and defaults and stores the fields through their slot descriptors, which
    is what ``object.__setattr__`` ends up doing.  Everything else (frozenness, equality,
    hashing, ``repr``, pickling, :func:`dataclasses.replace`) is dataclasses' own.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if (
        params is None
        or not params.frozen
        or "__slots__" not in cls.__dict__
        or hasattr(cls, "__post_init__")
    ):
        raise TypeError(
            f"{cls.__name__}: @_fast_init needs a frozen slots dataclass without __post_init__"
        )
    env: dict = {}
    args, body = [], []
    for f in fields(cls):  # type: ignore[arg-type]  # a dataclass: checked above
        if f.default_factory is not MISSING:
            raise TypeError(
                f"{cls.__name__}.{f.name}: default_factory is not supported by @_fast_init"
            )
        if f.default is not MISSING:
            env[f"_default_{f.name}"] = f.default
        if f.init:
            value = f.name
            args.append(f.name if f.default is MISSING else f"{f.name}=_default_{f.name}")
        elif f.default is not MISSING:
            value = f"_default_{f.name}"
        else:
            continue  # dataclasses leaves it unset as well
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        body.append(f"    _set_{f.name}(self, {value})")
    exec(f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n", env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
class Argument:
    """A relation/event argument (element level: REFID is an element ID; mention level:
    a mention ID).  ``role`` is the stored role (``Arg`` for symmetric relations)."""

    role: str
    refid: str


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
class SimpleMention:
    """A value or timex2 mention: an extent only."""

    id: str
    extent: Locator
    line: int = field(default=0, compare=False)

    @property
    def head(self) -> None:
        return None


@_fast_init
@dataclass(frozen=True, slots=True)
class RelationMention:
    id: str
    extent: Locator
    arguments: tuple[Argument, ...]
    line: int = field(default=0, compare=False)

    @property
    def head(self) -> None:
        return None

    anchor = None


@_fast_init
@dataclass(frozen=True, slots=True)
class EventMention:
    id: str
    extent: Locator
    anchor: Locator
    arguments: tuple[Argument, ...]
    line: int = field(default=0, compare=False)

    @property
    def head(self) -> None:
        return None


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
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


@_fast_init
@dataclass(frozen=True, slots=True)
class ApfFile:
    """One APF file as read: its documents in file order and the SOURCE of every
    ``source_file`` (a file can have source_files without documents)."""

    path: str
    documents: tuple[Document, ...]
    sources: tuple[str, ...] = ()
    doctype: str | None = None  # DOCTYPE system identifier, if any
