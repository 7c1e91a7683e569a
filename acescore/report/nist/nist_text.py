"""The text of one scoring section of the NIST report (docs/rules/report.md §1.1 items 3.3-3.6, 4-7, 9-11).

:func:`section_text` returns everything the NIST tool prints for a section from its banner
on: the banner and title, the detection tables (:mod:`acescore.report.counts.tables`) and the
recognition tables (:mod:`acescore.report.counts.recognition`).  The ``-d``, ``-s``, ``-a`` and
``-e`` outputs are not part of it.
"""

from __future__ import annotations

from acescore.model.params import EVENT_SUBTYPES, RELATION_SUBTYPES, Params
from acescore.model.tasks import task as task_of
from acescore.report.counts import detection_text as dtext
from acescore.report.counts import recognition as rec
from acescore.report.counts import releve_recognition as rrec
from acescore.report.counts.conditions import recognition_attributes
from acescore.report.counts.recognition_stats import recognition_stats
from acescore.report.counts.rows import detection_tables
from acescore.report.counts.tables import PassTables


def banner(task: str) -> str:
    return f"\n======== {task} scoring ========\n\n{task_of(task).title}\n"


def entity_recognition(
    result, params: Params, source_label: str, with_mentions: bool, pairs=None
) -> str:
    """:func:`entity_text` of a pass (``pairs``: the doc-mapped pairs if known)."""
    return entity_text(
        recognition_stats(result, params, pairs, with_mentions), params, source_label
    )


def releve_recognition(result, params: Params, source_label: str, pairs=None) -> str:
    """:func:`releve_text` of a pass."""
    return releve_text(
        result.task, result.kind, recognition_stats(result, params, pairs), params, source_label
    )


def entity_text(stats: dict, params: Params, source_label: str) -> str:
    """Type matrix, attribute blocks, class matrix, name table; then, with mentions, the
    three mention tables and the mention role/style matrices (docs/rules/report.md §4.1-4.6)."""
    attrs = recognition_attributes("entity", params)
    by_attr = stats["attrs"]
    out = [rec.entity_type_matrix(by_attr.get("TYPE"), params.entity_types, source_label)]
    for a in attrs:
        out.append(rec.recognition_block(by_attr.get(a), f"attribute {a}", _old(params)))
    out.append(rec.entity_class_matrix(by_attr.get("CLASS"), params.entity_classes, source_label))
    out.append(dtext.name_table(stats["names"], params.entity_types, _old(params)))
    if stats["mentions"] is not None:
        detection, role, style = stats["mentions"]
        out.append(dtext.mention_tables(detection, params))
        out.append(dtext.mention_role_style_matrices(role, style, params, source_label))
    return "".join(out)


def _old(params: Params) -> bool:
    """The older versions' layout (docs/rules/versions.md §4)."""
    return params.nist != "ace08"


def value_text(kind: str, stats: dict, params: Params) -> str:
    """Attribute blocks of values and timex2 (docs/rules/report.md §4.8)."""
    by_attr = stats["attrs"]
    return "".join(
        rec.recognition_block(by_attr.get(a), f"attribute {a}", _old(params))
        for a in recognition_attributes(kind, params)
    )


def releve_text(task: str, kind: str, stats: dict, params: Params, source_label: str) -> str:
    """Type, subtype and modality matrices, attribute and argument-role blocks (docs/rules/report.md §4.7)."""
    name = task  # relation, event, mention_relation, mention_event
    ace05_mentions = params.nist == "ace05" and task_of(task).mention_level
    if ace05_mentions:  # ace05 titles its mention-level matrices as the element's
        name = kind
    if kind == "relation":
        types, mods, subtypes = params.relation_types, params.relation_modalities, RELATION_SUBTYPES
    else:
        types, mods, subtypes = params.event_types, params.event_modalities, EVENT_SUBTYPES
    by_attr = stats["attrs"]
    out = [
        rrec.releve_matrix(name, "Type", by_attr.get("TYPE"), types, source_label),
        rrec.releve_subtype_matrices(name, stats["subtypes"], types, subtypes, source_label),
        rrec.releve_matrix(name, "Modality", by_attr.get("MODALITY"), mods, source_label),
    ]
    for a in recognition_attributes(kind, params):
        out.append(rec.recognition_block(by_attr.get(a), f"attribute {a}", _old(params)))
    roles = stats["roles"]
    if _old(params):  # one block, per mapped element (docs/rules/versions.md §4.1); ace05's
        # role data are the document-level argument lists: none at mention level
        if not ace05_mentions:
            out.append(rec.recognition_block(roles.get("ELEMENT"), "argument ROLE", True))
        return "".join(out)
    for level in rrec.ROLE_LEVELS:
        out.append(rec.recognition_block(roles.get(level), rrec.ROLE_LABELS[level]))
    return "".join(out)


def recognition_text(task: str, kind: str, stats: dict, params: Params, source_label: str) -> str:
    """The recognition tables of a pass from its :func:`recognition_stats`."""
    if kind == "entity":
        return entity_text(stats, params, source_label)
    if kind in ("value", "timex2"):
        return value_text(kind, stats, params)
    return releve_text(task, kind, stats, params, source_label)


def section_text(
    result,
    params: Params,
    source_label: str,
    all_sources: list[str],
    tables=None,
    after_tables: str = "",
) -> str:
    """Everything the NIST tool prints for one scoring section, from the banner on.

    ``source_label``: the S of ``for "S" sources`` (docs/rules/report.md §1.3); ``all_sources``: the sorted
    SOURCE values seen (value list of the SOURCE condition); ``tables``: the pass's
    PassTables if at hand."""
    tables = PassTables(result) if tables is None else tables
    return (
        banner(result.task)
        + detection_tables(result, params, all_sources, tables)
        + after_tables  # (ace05's -d lines)
        + recognition_text(
            result.task,
            result.kind,
            recognition_stats(result, params, tables.cols.pairs),
            params,
            source_label,
        )
    )
