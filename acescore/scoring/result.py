"""What one scoring pass hands to the report writers.

A *pass* is one section of the NIST report: ``entity``, ``value``, ``timex2``, ``relation``,
``event`` and, with ``-m``, ``mention_entity``, ``mention_relation``, ``mention_event``.
Its :class:`PassResult` holds the elements scored in that pass (for mention passes the
promoted one-mention elements), their final (scoring-pass) values, the element mapping and the
per-document pair values and cost components (docs/rules/entities.md §4, docs/rules/relations-events.md §7), all keyed by IDs so that the
report code never needs the valuation internals.

Conventions
-----------
* ``ref`` / ``sys``: element ID -> :class:`~acescore.rules.database.GlobalElement`; a global
  element's ``docs`` maps DOCID -> document element (model records such as
  :class:`~acescore.model.apf.Entity`).  SYS elements only have evaluated documents.
* ``doc_value[(side, id, docid)]``: VALUE of a document element (``side`` is ``"REF"`` or
  ``"SYS"``); ``0.0`` where the NIST tool leaves it undefined.
* ``value[(side, id)]``: element VALUE = sum of its document VALUEs in DOCID order.
* ``doc_fa[(id, docid)]`` and ``fa_value[id]``: SYS false-alarm values (negative numbers).
* ``mapping``: REF id -> SYS id (only mapped elements); ``rmapping`` the inverse.
* ``doc_mv[(ref_id, sys_id, docid)]``: the pair's document value for every *valued*
  document (docs/rules/entities.md §4.2 / docs/rules/relations-events.md §7); ``doc_costs`` the same keys -> (ATTR_ERR, MISS_SUB, ERR_SUB,
  FA_SUB), each a float (0.0 where the tool has undef).
* ``pair_value[(ref_id, sys_id)]``: mapped element value PV (including the FA terms of
  documents where only the SYS element is valued); used by ``-a`` listings.
* ``mention_map[(ref_id, sys_id, docid)]``: {REF mention index -> SYS mention index} of
  the document, from the pass in which the mapping was made (entities/values/timex2), or the
  extent pairing (relations/events).
* ``languages[(side, id, docid)]``: LANGUAGE label of a document element (or None).
* ``sources[docid]``: SOURCE of each evaluated document.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, NamedTuple

from acescore.model.records import dataclass
from acescore.scoring.elements import ElementPass

#: the partners of a mention without any (shared: never written to)
NO_PARTNERS: dict = {}


@dataclass(slots=True)
class B3Mention:
    """B-cubed data of one mention (docs/rules/entities.md §8.2).  ``count`` and ``value`` are
    :data:`NO_PARTNERS` until :func:`~acescore.scoring.b3.compute_b3` gives the mention
    partners (there is one of these per mention of a pass)."""

    mention: Any  # the model mention
    entity_id: str  # host entity
    docid: str
    self_score: float
    count: dict  # partner entity id -> COUNT
    value: dict  # partner entity id -> VALUE


@dataclass
class B3Data:
    ref: list = field(default_factory=list)  # B3Mention, in mention-ID order
    sys: list = field(default_factory=list)
    ref_totals: dict = field(default_factory=dict)  # entity id -> (mention count, Σ self)
    sys_totals: dict = field(default_factory=dict)


class ReleveElements(NamedTuple):
    """The elements of a relation/event pass (what later passes' listings need of it)."""

    task: str
    ref: dict
    sys: dict


@dataclass
class PassResult:
    task: str
    kind: str
    ref: dict
    sys: dict
    doc_value: dict = field(default_factory=dict)
    value: dict = field(default_factory=dict)
    doc_fa: dict = field(default_factory=dict)
    fa_value: dict = field(default_factory=dict)
    mapping: dict = field(default_factory=dict)
    rmapping: dict = field(default_factory=dict)
    doc_mv: dict = field(default_factory=dict)
    doc_costs: dict = field(default_factory=dict)
    pair_value: dict = field(default_factory=dict)
    mention_map: dict = field(default_factory=dict)
    name_map: dict = field(default_factory=dict)
    languages: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)
    b3: B3Data | None = None
    # relations / events
    argument_map: dict = field(
        default_factory=dict
    )  # (ref_id, sys_id) -> {sys (role,id): ref (role,id)}
    arg_errors: dict = field(
        default_factory=dict
    )  # element id -> number of argument mapping errors
    #: the pass has a section in the report (a value/timex2 pass whose SYS side is empty
    #: prints only its ``-s`` REF listing)
    printed: bool = True
    #: the NIST version scored (ace05's document costs compare strings: report.counts.records)
    nist: str = "ace08"
    # entity-like passes: what the -a/-e mention details print (docs/rules/entities.md §3)
    sigma_r: dict = field(default_factory=dict)  # REF mention id -> self score
    sigma_s: dict = field(default_factory=dict)  # SYS mention id -> self score
    corr: dict = field(default_factory=dict)  # REF mention id -> {SYS mention id: score}

    def doc_mapped(self, ref_id: str, docid: str) -> str | None:
        """The SYS id whose document element in ``docid`` is mapped to REF ``ref_id``'s."""
        s: str | None = self.mapping.get(ref_id)
        if s is not None and docid in self.sys[s].docs:
            return s
        return None

    def sys_doc_mapped(self, sys_id: str, docid: str) -> str | None:
        r: str | None = self.rmapping.get(sys_id)
        if r is not None and docid in self.ref[r].docs:
            return r
        return None


@dataclass
class ArgContext:
    """What the relation/event passes need from the entity, value and timex2 passes:
    self values, pair values (MV) and the element mapping of every argument element."""

    self_value: dict = field(default_factory=dict)  # (side, id, docid) -> SV
    pair_value: dict = field(default_factory=dict)  # (ref_id, sys_id, docid) -> MV
    mapping: dict = field(default_factory=dict)  # ref arg id -> sys arg id (element map)
    origin: dict = field(default_factory=dict)  # sys promoted id -> host id (mention level)

    def add_pass(self, ep: ElementPass) -> None:
        self.self_value.update(ep.doc_value)
        self.pair_value.update(ep.argument_values)
