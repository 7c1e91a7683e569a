"""The input rules of the older NIST scorers that ace08 does not have
(docs/rules/versions.md §2.6-2.7), for :mod:`acescore.rules.corpus`."""

from __future__ import annotations

from collections.abc import Iterable

from acescore.model.apf import Document
from acescore.model.problems import Problem


def _ids(ids: Iterable[str]) -> str:
    return " and ".join(f"'{i}'" for i in sorted(ids))


def old_relation_problem(eid: str, args: dict) -> tuple[str, str, str | None] | None:
    """The older versions' argument rule (docs/rules/versions.md §2.6): Arg-1 and Arg-2
    each exactly once, for every relation type."""
    for role in ("Arg-1", "Arg-2"):
        ids = args.get(role, ())
        if len(ids) > 1:
            return (
                "relation-arguments",
                f"argument conflict:  '{role}' arg is multiply defined in relation '{eid}'",
                f"the relation has more than one {role}: {_ids(ids)}",
            )
    for role in ("Arg-1", "Arg-2"):
        if not args.get(role):
            return (
                "relation-arguments",
                f"relation '{eid}' does not have a '{role}' argument, which is required",
                f"the relation has no {role}",
            )
    return None


def missing_ref_document(d: Document) -> Problem:
    """ace05: a SYS document whose DOCID is not in REF (the script compares its source with
    an undefined REF source and dies)."""
    return Problem(
        "SYS",
        "document",
        f"system source ({d.source}) disagrees with reference source ()",
        d.path,
        d.line,
        f"document {d.docid}",
        (d.docid,),
        rule="source-differs",
        cause=f"document {d.docid} is not in REF: ace05 scores REF documents only",
    )
