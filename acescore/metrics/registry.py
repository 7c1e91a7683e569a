"""The literature metrics, declared once (as :mod:`acescore.model.tasks` declares the NIST
tasks): the coreference metrics of ``acescore coref``, the event-extraction scores of
``acescore events`` and the entity/relation F1 its conventions add.  Their JSON names, the
titles of the tables, the names ``compare`` and ``--fail-if-worse`` take
(``coref.muc``, ``events.trigger_classification``) and the lists the scorers iterate
(:data:`acescore.metrics.coref.METRICS`, :data:`acescore.metrics.events.TASKS`, the
convention tasks) all come from :data:`METRICS`.
"""

from __future__ import annotations

from acescore.model.records import dataclass

#: the families, the command that reports each
FAMILIES = {"coref": "coref", "events": "events", "entities": "events", "relations": "events"}


@dataclass(frozen=True)
class Metric:
    name: str  # the name in JSON: muc, trigger_classification, entity_strict, ...
    family: str  # coref, events, entities, relations
    title: str  # the table's name for it
    core: bool = True  # scored without a convention (coref; events' four scores)
    compared: bool = False  # ``acescore compare`` compares it (as ``family.name``)
    labelled: bool = False  # a convention scores it per label too (and its macro average)

    @property
    def command(self) -> str:
        return FAMILIES[self.family]

    @property
    def qualified(self) -> str:
        """``coref.muc``: the name in ``acescore compare`` and ``--fail-if-worse``."""
        return f"{self.family}.{self.name}"


METRICS: tuple[Metric, ...] = (
    Metric("muc", "coref", "MUC", compared=True),
    Metric("bcub", "coref", "B-cubed", compared=True),
    Metric("ceafm", "coref", "CEAF-m (phi3)", compared=True),
    Metric("ceafe", "coref", "CEAF-e (phi4)", compared=True),
    Metric("blanc", "coref", "BLANC", compared=True),
    Metric("bcub_nist", "coref", "B-cubed, NIST ace08 variant", core=False),
    Metric("trigger_identification", "events", "Trigger identification", compared=True),
    Metric(
        "trigger_classification", "events", "Trigger classification", compared=True, labelled=True
    ),
    Metric("argument_identification", "events", "Argument identification", compared=True),
    Metric(
        "argument_classification", "events", "Argument classification", compared=True, labelled=True
    ),
    Metric(
        "argument_attached_identification",
        "events",
        "Argument identification (attached)",
        core=False,
    ),
    Metric(
        "argument_attached_classification",
        "events",
        "Argument classification (attached)",
        core=False,
        labelled=True,
    ),
    Metric("entity_boundary", "entities", "Entity mentions (boundary)", core=False),
    Metric("entity_strict", "entities", "Entity mentions (strict)", core=False, labelled=True),
    Metric("relation_boundaries", "relations", "Relations (boundaries)", core=False, labelled=True),
    Metric("relation_strict", "relations", "Relations (strict)", core=False, labelled=True),
)

BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}


def names(family: str, core_only: bool = True) -> tuple[str, ...]:
    """The names of a family's metrics, in table order (``core_only``: those scored without
    a convention)."""
    return tuple(m.name for m in METRICS if m.family == family and (m.core or not core_only))


def titles(family: str | None = None) -> dict:
    """``{name: title}`` (of one family, or of all)."""
    return {m.name: m.title for m in METRICS if family is None or m.family == family}


def extra(family: str) -> tuple[str, ...]:
    """The names of a family's metrics that only a convention scores."""
    return tuple(m.name for m in METRICS if m.family == family and not m.core)


def labelled() -> tuple[str, ...]:
    """The metrics a convention scores per label too."""
    return tuple(m.name for m in METRICS if m.labelled)


def compared() -> tuple[str, ...]:
    """The qualified names ``acescore compare`` compares, in order."""
    return tuple(m.qualified for m in METRICS if m.compared)
