"""The task registry: every scoring pass of the NIST report, declared once.

A *task* is one section of the report (a *pass* of the scoring run).  Everything else that
names tasks — the engine's chains, the parallel plan, the report's titles and codes, the
``-s`` listing banners, the JSON names and ``--fail-under`` choices, the schema's enum and
the HTML view — is derived from :data:`TASKS`.  To add a task, add a :class:`Task` here (in
report order) and a scoring step for its chain in :mod:`acescore.scoring.engine`.
"""

from __future__ import annotations

from acescore.model.records import dataclass

#: the element kinds scored (a task scores elements of one kind)
KINDS = ("entity", "value", "timex2", "relation", "event")
#: kinds whose elements have arguments
RELEVE_KINDS = ("relation", "event")


@dataclass(frozen=True)
class Task:
    name: str  # the pass name used inside acescore: entity, ..., mention_event
    kind: str  # the element kind it scores
    level: str  # "document" or "mention"
    chain: str  # the chain of passes it belongs to (scoring.engine)
    code: str  # NIST section code: EDR, VAL, ..., VMD (banner, -d lines)
    title: str  # NIST section title
    json_name: str  # the name in JSON/CSV and for --fail-under
    aliases: tuple  # other names accepted for json_name
    listing_label: str  # the -s listing banner's label (the tool's own spacing)
    view_label: str  # the HTML view's name
    description: str  # a few words for help texts

    @property
    def mention_level(self) -> bool:
        return self.level == "mention"

    @property
    def releve(self) -> bool:
        return self.kind in RELEVE_KINDS


#: every task, in report order (docs/rules/report.md §1.1)
TASKS: tuple[Task, ...] = (
    Task(
        "entity",
        "entity",
        "document",
        "documents",
        "EDR",
        "Entity Detection and Recognition statistics:",
        "edr",
        ("entity", "entities"),
        "entities",
        "Entities (EDR)",
        "entities",
    ),
    Task(
        "value",
        "value",
        "document",
        "documents",
        "VAL",
        "Value Detection and Recognition statistics:",
        "val",
        ("value", "values"),
        "values",
        "Values (VAL)",
        "values",
    ),
    Task(
        "timex2",
        "timex2",
        "document",
        "documents",
        "TIM",
        "Timex2 Detection and Recognition statistics:",
        "tim",
        ("timex2", "tdr"),
        "timexs",
        "Timex2 (TIM)",
        "timex2",
    ),
    Task(
        "relation",
        "relation",
        "document",
        "documents",
        "RDR",
        "Relation Detection and Recognition statistics:",
        "rdr",
        ("relation", "relations"),
        "relations ",
        "Relations (RDR)",
        "relations",
    ),
    Task(
        "event",
        "event",
        "document",
        "documents",
        "VDR",
        "Event Detection and Recognition statistics:",
        "vdr",
        ("event", "events", "evdr"),
        "events ",
        "Events (VDR)",
        "events",
    ),
    Task(
        "mention_entity",
        "entity",
        "mention",
        "entity_mentions",
        "EMD",
        "Entity Mention Detection statistics:",
        "emd",
        ("mention_entity",),
        "mention_entities",
        "Entity mentions (EMD)",
        "entity mentions",
    ),
    Task(
        "mention_relation",
        "relation",
        "mention",
        "mention_releves",
        "RMD",
        "Relation Mention Detection and Recognition statistics:",
        "rmd",
        ("mention_relation",),
        "mention_relations ",
        "Relation mentions (RMD)",
        "relation mentions",
    ),
    Task(
        "mention_event",
        "event",
        "mention",
        "mention_releves",
        "VMD",
        "Event Mention Detection and Recognition statistics:",
        "vmd",
        ("mention_event", "evmd"),
        "mention_events ",
        "Event mentions (VMD)",
        "event mentions",
    ),
)

BY_NAME: dict[str, Task] = {t.name: t for t in TASKS}

#: every accepted spelling (JSON name, alias, pass name, NIST code) -> the task
_LOOKUP: dict[str, Task] = {}
for _t in TASKS:
    for _key in (_t.json_name, _t.code, _t.name) + _t.aliases:
        _LOOKUP.setdefault(_key.lower(), _t)

#: the independent chains of passes, in report order: the document-level tasks, the entity
#: mentions, the relation/event mentions (the last needs the element mapping of the first)
CHAINS: tuple[str, ...] = tuple(dict.fromkeys(t.chain for t in TASKS))

#: JSON names in report order (the schema's enum, --fail-under's choices)
JSON_NAMES: tuple[str, ...] = tuple(t.json_name for t in TASKS)


def task(name: str) -> Task:
    """The task of a pass name (``entity``, ``mention_event``, ...)."""
    return BY_NAME[name]


def lookup(name: str) -> Task | None:
    """The task a user means by ``name`` (JSON name, NIST code, alias; any case), or None."""
    return _LOOKUP.get(name.strip().lower())


def mention_task(kind: str) -> Task | None:
    """The mention-level task of an element kind (EMD for entities), if there is one."""
    return next((t for t in TASKS if t.mention_level and t.kind == kind), None)


def chain_tasks(chain: str) -> tuple[Task, ...]:
    return tuple(t for t in TASKS if t.chain == chain)


def tasks_help() -> str:
    """``edr (entities), val (values), ...`` for help texts."""
    return ", ".join(f"{t.json_name} ({t.description})" for t in TASKS)
