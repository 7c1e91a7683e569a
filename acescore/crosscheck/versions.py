"""Per-version rule tables for the rewriter (:mod:`acescore.crosscheck.rewriter`).

A table is data only; it holds no text of the NIST tool.  Each row names a subroutine, the
census of hash traversals the scan must find in it (``keys``, ``values``, ``each`` counts: if
they differ the file is not the version the table was made for), which of those traversals
are rewritten (``kind`` + ordinal in file order within the subroutine, e.g. ``each1 keys2``)
and the canonical order they are given (docs/rules/determinism.md §1, Appendix A):

* ``id``      keys in string order (Perl's default ``sort``: code point order on the decoded
              text), used for element/document/mention IDs, role and attribute names;
* ``index``   keys in numeric order (``<=>``), used for list positions (assignment-routine
              rows and columns, image pages and boxes);
* ``mention`` keys ordered by the ID of the mention record each value holds
              (``$h->{$k}{MENTION}{ID}``): the B-cubed tables are keyed by the address of the
              mention record, which has no stable order of its own (docs/rules/determinism.md §2.2 D4).

Rows marked ``repair`` fix a defect that is not a matter of ties (D1: the tool dies or
half-converts a symmetric relation, depending on the hash order); ``crosscheck --runs``
applies them alone, leaving every other traversal in Perl's hash order.

A rewritten ``keys``/``values`` walks the keys in that order; a rewritten
``while (my ($k, $v) = each %h) {`` becomes a ``foreach`` over the keys in that order, taken
once when the loop starts, with ``$v`` read from the hash at each step -- which is also the
repair of the each()-while-inserting defect (docs/rules/determinism.md §6 D1).

``spec`` cites the rule of docs/rules/determinism.md §2 (or docs/rules/versions.md Appendix A, X1-X5) each row
implements.  Tables: ace08-eval-v08 (72 + 2), ace07-eval-v01 (62), ace05-eval-v14 (61).
"""

from __future__ import annotations

from acescore.model.records import dataclass

ID, INDEX, MENTION = "id", "index", "mention"
ORDERS = (ID, INDEX, MENTION)


@dataclass(frozen=True)
class SubRules:
    sub: str  # subroutine name
    census: tuple  # (keys, values, each) traversals found in it
    rewrite: str  # e.g. "each1 keys1": which traversals are put in order
    order: str  # ID | INDEX | MENTION
    spec: str  # the spec rules this row implements
    repair: bool = False  # a defect repair (D1), applied also with --runs

    def targets(self) -> list[tuple[str, int]]:
        out = []
        for tok in self.rewrite.split():
            kind = tok.rstrip("0123456789")
            out.append((kind, int(tok[len(kind) :])))
        return out


@dataclass(frozen=True)
class ToolVersion:
    name: str  # e.g. "ace08-eval-v08"
    sha256: tuple  # digests of the known releases of the file
    total: int  # hash traversals the scan finds in the whole file
    rows: tuple  # SubRules
    note: str = ""

    @property
    def rewrites(self) -> int:
        return sum(len(r.targets()) for r in self.rows)

    @property
    def repairs(self) -> int:
        return sum(len(r.targets()) for r in self.rows if r.repair)


# ace08-eval-v08.pl: the 72 traversals of docs/rules/determinism.md Appendix A, plus the two each()
# loops of make_doc_relation_symmetric (D1, the symmetric-relation repair).
ACE08 = ToolVersion(
    name="ace08-eval-v08",
    sha256=("b06a46e5f584d045fb73d4d018f88cec742d80c5f2a1b69b1973ac63d6f96fa9",),
    total=286,
    rows=(
        # subroutine                      census     rewritten traversals          order    spec
        SubRules("get_data", (1, 0, 1), "each1 keys1", ID, "R1"),
        SubRules("check_metonymic_mentions", (0, 2, 1), "values1 each1", ID, "R2"),
        SubRules("label_element_language", (1, 2, 1), "values2 keys1", ID, "R3"),
        SubRules("check_arguments", (2, 0, 4), "each1 each2 keys1 each3 each4 keys2", ID, "R4"),
        SubRules("get_document_data", (2, 0, 2), "keys1 keys2", ID, "R5"),
        SubRules("get_releves", (1, 0, 0), "keys1", ID, "R6"),
        SubRules("check_docs", (1, 0, 0), "keys1", ID, "R7"),
        SubRules("entity_name_entropy", (0, 2, 0), "values2", ID, "R8"),
        SubRules("promote_external_links", (0, 0, 1), "each1", ID, "R9"),
        SubRules(
            "compute_element_values",
            (9, 3, 7),
            "each1 each2 each3 each4 keys7 each6 keys8",
            ID,
            "R10-R12",
        ),
        SubRules("element_value", (0, 0, 3), "each1 each2 each3", ID, "R13"),
        SubRules("entity_mention_score", (0, 0, 1), "each1", ID, "R14"),
        SubRules("mention_refs", (0, 2, 0), "values2", ID, "R15"),
        SubRules("compute_b3", (0, 2, 3), "values1", MENTION, "R16"),
        SubRules("conditional_b3_stats", (0, 3, 3), "values1", MENTION, "R17"),
        SubRules("compute_releve_values", (5, 1, 5), "each3 keys5", ID, "R18-R19"),
        SubRules("releve_value", (0, 0, 1), "each1", ID, "R20"),
        SubRules(
            "releve_document_value", (5, 0, 4), "each1 keys1 each3 keys4 each4 keys5", ID, "R21"
        ),
        SubRules("compute_argument_map", (3, 0, 2), "each1 keys1 each2 keys2 keys3", ID, "R22-R23"),
        SubRules("map_elements", (1, 1, 1), "values1", ID, "R24"),
        SubRules("get_cohorts", (2, 0, 0), "keys1 keys2", ID, "R25"),
        SubRules(
            "weighted_bipartite_graph_matching", (7, 0, 0), "keys1 keys2 keys3 keys5", INDEX, "R26"
        ),
        SubRules("conditional_error_stats", (4, 0, 2), "each1 keys1 each2 keys4", ID, "R27"),
        SubRules("condition_value", (6, 0, 1), "keys5", ID, "R28"),
        SubRules("score_confusion_stats", (1, 0, 2), "each1 each2 keys1", ID, "R29-R30"),
        SubRules("longest_name", (0, 1, 0), "values1", ID, "R31"),
        SubRules("longest_mention", (0, 1, 0), "values1", ID, "R31"),
        SubRules("print_releve_mentions", (2, 0, 1), "each1", ID, "R32"),
        SubRules("promote_mentions", (0, 1, 0), "values1", ID, "R33"),
        SubRules("promote_mentions_of_element", (3, 0, 0), "keys1 keys2 keys3", ID, "R33"),
        SubRules("image_span_overlap", (1, 2, 1), "values1 values2 each1 keys1", INDEX, "R34"),
        SubRules("make_doc_relation_symmetric", (2, 0, 2), "each1 each2", ID, "D1", repair=True),
    ),
    note="05-determinism Appendix A (72 traversals) and the D1 repair (2 each() loops)",
)


def _older(
    name: str, sha: str, total: int, cev: tuple, element_value: tuple, rdv: tuple, extra: tuple
) -> ToolVersion:
    """ace05-eval-v14 and ace07-eval-v01 share most rows (docs/rules/versions.md §0.2, Appendix A)."""
    return ToolVersion(
        name=name,
        sha256=(sha,),
        total=total,
        rows=(
            SubRules("get_data", (1, 0, 1), "each1 keys1", ID, "R1"),
            SubRules("check_arguments", (2, 0, 4), "each1 each2 keys1 each3 each4 keys2", ID, "R4"),
            SubRules("check_docs", (1, 0, 0), "keys1", ID, "R7"),
            SubRules("score_confusion_stats", (1, 0, 2), "each1 each2 keys1", ID, "R29-R30"),
            SubRules("conditional_error_stats", (0, 0, 4), "each1 each2 each3 each4", ID, "R27"),
            SubRules("compute_element_values", *cev, ID, "R10-R12"),
            SubRules("map_elements", (1, 1, 1), "values1", ID, "R24"),
            SubRules("get_cohorts", (2, 0, 0), "keys1 keys2", ID, "R25"),
            *element_value,
            SubRules("entity_mention_score", (0, 0, 1), "each1", ID, "R14"),
            SubRules("image_span_overlap", (1, 2, 1), "values1 values2 each1 keys1", INDEX, "R34"),
            SubRules("get_document_data", (1, 0, 3), "each3", ID, "X4"),
            SubRules("promote_mentions", (0, 1, 0), "values1", ID, "R33"),
            SubRules("promote_mentions_of_element", (3, 0, 0), "keys1 keys2 keys3", ID, "R33"),
            SubRules("get_releves", (1, 0, 0), "keys1", ID, "R6"),
            SubRules("print_releve_mentions", (2, 0, 1), "each1", ID, "R32"),
            SubRules(
                "compute_releve_values", (3, 1, 5), "each3 each4 keys3 each5", ID, "R18-R19, X5"
            ),
            SubRules("releve_document_value", *rdv, ID, "R20-R21"),
            SubRules(
                "compute_argument_map", (3, 0, 2), "each1 keys1 each2 keys2 keys3", ID, "R22-R23"
            ),
            SubRules("relation_mention_args_overlap", (2, 0, 0), "keys1 keys2", ID, "X1"),
            SubRules("mapped_argument_description", (3, 0, 0), "keys3", ID, "X2"),
            SubRules("print_quantity_mapping", (4, 0, 0), "keys2", ID, "X3"),
            SubRules("longest_string", (1, 0, 0), "keys1", ID, "R31"),
            SubRules("promote_external_links", (0, 0, 1), "each1", ID, "R9"),
            SubRules(
                "weighted_bipartite_graph_matching",
                (7, 0, 0),
                "keys1 keys2 keys3 keys5",
                INDEX,
                "R26",
            ),
            *extra,
        ),
        note="07-versions Appendix A",
    )


# ace07-eval-v01.pl: 62 traversals (docs/rules/versions.md Appendix A)
ACE07 = _older(
    "ace07-eval-v01",
    "e11657ae7dcca720fa9077bc05ae3ad9b9976222e8b6becb38529935dbb0632f",
    223,
    cev=((1, 2, 6), "each1 each3 each5 keys1 each6"),
    element_value=(SubRules("element_value", (0, 0, 2), "each1 each2", ID, "R13"),),
    rdv=((3, 0, 3), "each1 keys1 each3 keys3"),
    extra=(
        SubRules("releve_value", (0, 0, 1), "each1", ID, "R20"),
        SubRules("element_document_value", (0, 0, 0), "", ID, "census only"),
    ),
)

# ace05-eval-v14.pl: 61 traversals (docs/rules/versions.md Appendix A)
ACE05 = _older(
    "ace05-eval-v14",
    "dc4ff0ef16ce327778743c72e78f314e5a7388728204fef9dc0aa2f636f2b0c2",
    221,
    cev=((1, 1, 5), "each1 each3 keys1 each5"),
    element_value=(SubRules("element_document_value", (0, 0, 2), "each1 each2", ID, "R13"),),
    rdv=((3, 0, 4), "each2 keys2 each3 keys3 each4"),
    extra=(),
)

# Tables by version name.
VERSIONS = {v.name: v for v in (ACE08, ACE07, ACE05)}


def by_sha256(digest: str):
    for v in VERSIONS.values():
        if digest in v.sha256:
            return v
    return None
