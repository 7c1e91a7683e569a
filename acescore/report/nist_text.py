"""The text of one scoring section of the NIST report (04 §1.1 items 3.3-3.6, 4-7, 9-11).

:func:`section_text` returns everything the NIST tool prints for a section from its banner
on: the banner and title, the detection tables (:mod:`acescore.report.tables`) and the
recognition tables (:mod:`acescore.report.recognition`).  The ``-d``, ``-s``, ``-a`` and
``-e`` outputs are not part of it.
"""
from __future__ import annotations

from acescore.params import EVENT_SUBTYPES, RELATION_SUBTYPES, Params
from acescore.report import recognition as rec
from acescore.report.conditions import RECOGNITION_ATTRIBUTES
from acescore.report.tables import PassTables, detection_tables
from acescore.tasks import task as task_of



def banner(task: str) -> str:
    return f"\n======== {task} scoring ========\n\n{task_of(task).title}\n"


def entity_recognition(result, params: Params, source_label: str, with_mentions: bool,
                       pairs=None) -> str:
    """Type matrix, attribute blocks, class matrix, name table; then, with mentions, the
    three mention tables and the mention role/style matrices (04 §4.1-4.6).  ``pairs``:
    the doc-mapped pairs if already known (:class:`~acescore.report.recognition.DocPairs`)."""
    attrs = RECOGNITION_ATTRIBUTES["entity"]
    pairs = rec.DocPairs.of(result, pairs)
    stats = rec.attribute_stats(result, attrs, pairs)
    out = [rec.entity_type_matrix(stats.get("TYPE"), params.entity_types, source_label)]
    for a in attrs:
        out.append(rec.recognition_block(stats.get(a), f"attribute {a}"))
    out.append(rec.entity_class_matrix(stats.get("CLASS"), params.entity_classes, source_label))
    names, mentions = rec.pair_stats(result, params, pairs, names=True,
                                     mentions=with_mentions)
    out.append(rec.name_table(names, params.entity_types))
    if with_mentions:
        detection, role, style = mentions
        out.append(rec.mention_tables(detection, params))
        out.append(rec.mention_role_style_matrices(role, style, params, source_label))
    return "".join(out)


def value_recognition(result, pairs=None) -> str:
    """Attribute blocks of values and timex2 (04 §4.8)."""
    attrs = RECOGNITION_ATTRIBUTES[result.kind]
    stats = rec.attribute_stats(result, attrs, pairs)
    return "".join(rec.recognition_block(stats.get(a), f"attribute {a}") for a in attrs)


def releve_recognition(result, params: Params, source_label: str, pairs=None) -> str:
    """Type, subtype and modality matrices, attribute and argument-role blocks (04 §4.7)."""
    name = result.task                  # relation, event, mention_relation, mention_event
    if result.kind == "relation":
        types, mods, subtypes = params.relation_types, params.relation_modalities, RELATION_SUBTYPES
    else:
        types, mods, subtypes = params.event_types, params.event_modalities, EVENT_SUBTYPES
    attrs = RECOGNITION_ATTRIBUTES[result.kind]
    pairs = rec.DocPairs.of(result, pairs)
    stats = rec.attribute_stats(result, attrs, pairs)
    out = [rec.releve_matrix(name, "Type", stats.get("TYPE"), types, source_label),
           rec.releve_subtype_matrices(name, rec.subtype_stats(result, pairs), types,
                                       subtypes, source_label),
           rec.releve_matrix(name, "Modality", stats.get("MODALITY"), mods, source_label)]
    for a in attrs:
        out.append(rec.recognition_block(stats.get(a), f"attribute {a}"))
    roles = rec.role_stats(result, pairs)
    for level in rec.ROLE_LEVELS:
        out.append(rec.recognition_block(roles.get(level), rec.ROLE_LABELS[level]))
    return "".join(out)


def section_text(result, params: Params, source_label: str, all_sources: list[str]) -> str:
    """Everything the NIST tool prints for one scoring section, from the banner on.

    ``source_label``: the S of ``for "S" sources`` (04 §1.3); ``all_sources``: the sorted
    SOURCE values seen (value list of the SOURCE condition)."""
    tables = PassTables(result)
    out = [banner(result.task), detection_tables(result, params, all_sources, tables)]
    pairs = tables.cols.pairs
    if result.kind == "entity":
        with_mentions = bool(params.use_mentions) or task_of(result.task).mention_level
        out.append(entity_recognition(result, params, source_label, with_mentions, pairs))
    elif result.kind in ("value", "timex2"):
        out.append(value_recognition(result, pairs))
    else:
        out.append(releve_recognition(result, params, source_label, pairs))
    return "".join(out)
