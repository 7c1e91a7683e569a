"""The 22-column detection tables of the older versions, ace05 and ace07
(docs/rules/versions.md §4.2): document-level counts only, no cost components, no B-cubed,
no ``(multi)`` row.  The data are the same :class:`~acescore.report.counts.tables.Cell` sums
as those of the 31-column tables."""

from __future__ import annotations

from acescore.report.counts.conditions import TINY, TableSpec, table_specs
from acescore.report.counts.tables import Cell, PassTables, accumulate

ROW_FORMAT = (
    "%7.7s%6d%6d%6d%6d%8.1f%6.1f%6.1f%7.1f%5.1f%5.1f%8.1f%6.1f%6.1f%8.1f%7.1f%5.1f%5.1f"
    "%9.2f%7.2f%7.2f%7.2f\n"
)

_HDR1 = (
    "________Count________     __________Count_(%)__________        "
    "______________Cost_(%)________________       __Unconditioned_Cost_(%)_"
)
_HDR2 = (
    "Ent   Detection   Rec     Detection   Rec    Unweighted        Detection   Rec   Value"
    "    Value-based       Max      Detection    Rec"
)
_HDR3 = (
    "Tot    FA  Miss   Err      FA  Miss   Err    Pre--Rec--F        FA  Miss   Err     (%)"
    "    Pre--Rec--F      Value     FA   Miss    Err"
)

#: names of the 21 numeric columns of a row, in print order
ROW_FIELDS = (
    "doc_ref_count",
    "doc_fa_count",
    "doc_miss_count",
    "doc_error_count",
    "doc_fa_pct",
    "doc_miss_pct",
    "doc_error_pct",
    "precision",
    "recall",
    "f1",
    "fa_cost",
    "miss_cost",
    "error_cost",
    "value",
    "value_precision",
    "value_recall",
    "value_f1",
    "max_value",
    "uncond_fa_cost",
    "uncond_miss_cost",
    "uncond_error_cost",
)


def header_lines(label1: str, label2: str) -> str:
    """The three header lines after an empty line (``label2`` as given)."""
    return "\n ref      %s\n %-8s %s\n %-8s %s\n" % (_HDR1, label1, _HDR2, label2, _HDR3)


def row_values(c: Cell, total_value: float) -> tuple:
    """The 21 numbers of a row (unrounded), in the order of operations of the NIST tool."""
    rv = c.norm
    nref = c.correct + c.error + c.miss
    nsys = c.correct + c.error + c.fa
    pn = 100 / max(TINY, nref)
    cn = 100 / max(TINY, rv)
    recall = c.correct / max(nref, TINY)
    precision = c.correct / max(nsys, TINY)
    fmeasure = 2 * precision * recall / max(precision + recall, TINY)
    value_correct = rv - c.c_miss - c.c_error - c.c_correct
    sys_value = rv - c.c_miss + c.c_fa
    value_recall = max(value_correct, 0) / max(TINY, rv)
    value_precision = max(value_correct, 0) / max(TINY, sys_value)
    value_f = 2 * value_precision * value_recall / max(value_precision + value_recall, TINY)
    un = 100 / max(total_value, TINY)
    return (
        nref,
        c.fa,
        c.miss,
        c.error,
        min(999.9, pn * c.fa),
        pn * c.miss,
        pn * c.error,
        100 * precision,
        100 * recall,
        100 * fmeasure,
        min(999.9, cn * c.c_fa),
        cn * c.c_miss,
        cn * (c.c_error + c.c_correct),
        max(-999.9, cn * (value_correct - c.c_fa)),
        100 * value_precision,
        100 * value_recall,
        100 * value_f,
        un * rv,
        min(999.99, un * c.c_fa),
        un * c.c_miss,
        un * (c.c_error + c.c_correct),
    )


def row_fields(c: Cell, total_value: float) -> dict:
    """The numbers of a row by name (:data:`ROW_FIELDS`, unrounded)."""
    return dict(zip(ROW_FIELDS, row_values(c, total_value)))


def format_row(label: str, c: Cell, total_value: float) -> str:
    return ROW_FORMAT % ((label,) + row_values(c, total_value))


def detection_table(spec: TableSpec, tables: PassTables) -> str:
    """One table, single- or two-condition form (rows: the values, then ``total``)."""
    acc = accumulate(tables, spec.cond1, spec.cond2)
    head = header_lines(spec.label1, spec.label2)
    rows = spec.values1 + ("total",)
    out = []
    if spec.cond2 is None:
        if not acc.cells:
            return ""
        out.append(head)
        out += [format_row(r, acc.cells[r], acc.total_value) for r in rows if r in acc.cells]
    else:
        for k2 in ("ALL",) + tuple(spec.values2):
            if k2 not in acc.doc_keys2:
                continue
            out.append(f"\nPerformance statistics for {spec.cond2} = {k2}:")
            out.append(head)
            for r in rows:
                c = acc.cells.get((k2, r))
                if c is not None:
                    out.append(format_row(r, c, acc.total_value))
    return "".join(out)


def detection_tables(result, params, all_sources, tables: PassTables) -> str:
    """All detection tables of a pass, in print order."""
    return "".join(
        detection_table(spec, tables) for spec in table_specs(result.kind, params, all_sources)
    )
