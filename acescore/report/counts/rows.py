"""The rows of the 31-column detection tables as text and as named numbers (docs/rules/report.md §2.2-§2.6): the row format, the header lines, a row's fields and the tables of a pass."""

from __future__ import annotations

from acescore.report.counts import old_rows
from acescore.report.counts.conditions import B3_CONDITIONS, MULTI, TINY, TableSpec, table_specs

# ---- accumulation ---------------------------------------------------------------------
from acescore.report.counts.tables import B3Entry, Cell, PassTables, accumulate

ROW_FORMAT = (
    "%7.7s%6d%6d%6d%8d%6d%6d%6d%8.1f%6.1f%6.1f%7.1f%5.1f%5.1f%8.1f%6.1f%6.1f%6.1f"
    "%6.1f%6.1f%8.1f%7.1f%5.1f%5.1f%9.2f%7.2f%7.2f%7.2f%7.2f%7.2f%7.2f\n"
)

COUNT_LABELS = {
    "entity": "_Entity_Count__",
    "relation": "Relation_Count_",
    "event": "__Event_Count__",
    "timex2": "_Timex2_Count__",
    "value": "__Value_Count__",
}

_HDR1 = (
    "     ___Document_Count____     _____Document_Count_(%)______        "
    "________________________Cost_(%)________________________       "
    "____________Unconditioned_Cost_(%)____________"
)
_HDR3 = (
    "Tot    FA  Miss     Tot    FA  Miss   Err      FA  Miss   Err    Pre--Rec--F        FA"
    "  Miss   Err    FA  Miss   Err     (%)    Pre--Rec--F      Value     FA   Miss    Err"
    "     FA   Miss    Err"
)


def header_lines(kind: str, label1: str, label2: str, b3: bool) -> str:
    """The three header lines, each preceded by a newline (docs/rules/report.md §2.2)."""
    am = "__Arguments___" if kind in ("relation", "event") else "___Mentions___"
    w1 = "B3 Unweighted" if b3 else " Unweighted  "
    w2 = "B3 Value_based" if b3 else " Value-based  "
    hdr1 = COUNT_LABELS[kind] + _HDR1
    hdr2 = (
        "Ref   Detection     Ref   Detection   Rec     Detection   Rec   "
        + w1
        + "      Detection  Attr    "
        + am
        + "   Value   "
        + w2
        + "     Max      Detection   Attr     _"
        + am
        + "_"
    )
    return "\n %-8s %s\n %-8s %s\n          %s\n" % (label1, hdr1, label2.upper(), hdr2, _HDR3)


#: names of the 31 numeric columns AB..ZZ of a row, in print order (docs/rules/report.md §2.6)
ROW_FIELDS = (
    "ref_count",
    "fa_count",
    "miss_count",
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
    "attr_cost",
    "sub_fa_cost",
    "sub_miss_cost",
    "sub_err_cost",
    "value",
    "value_precision",
    "value_recall",
    "value_f1",
    "max_value",
    "uncond_fa_cost",
    "uncond_miss_cost",
    "uncond_attr_cost",
    "uncond_sub_fa_cost",
    "uncond_sub_miss_cost",
    "uncond_sub_err_cost",
)


def row_values(c: Cell, total_value: float, b3: B3Entry | None = None) -> tuple:
    """The 30 numbers of a row (columns AB..ZZ, unrounded), formulas of docs/rules/report.md §2.6 in the NIST
    tool's order of operations (print_eval)."""
    rv = c.norm
    nref = c.mapped + c.emiss
    nref_doc = c.correct + c.error + c.miss
    nsys = c.correct + c.error + c.fa
    pn = 100 / max(TINY, nref_doc)
    cn = 100 / max(TINY, rv)
    if b3 is not None:
        recall, precision = b3.count_recall, b3.count_precision
    else:
        recall = c.correct / max(nref_doc, TINY)
        precision = c.correct / max(nsys, TINY)
    fmeasure = 2 * precision * recall / max(precision + recall, TINY)
    value_correct = rv - c.c_miss - c.c_error - c.c_correct
    sys_value = rv - c.c_miss + c.c_fa
    if b3 is not None:
        value_recall, value_precision = b3.value_recall, b3.value_precision
    else:
        value_recall = max(value_correct, 0) / max(TINY, rv)
        value_precision = max(value_correct, 0) / max(TINY, sys_value)
    value_f = 2 * value_precision * value_recall / max(value_precision + value_recall, TINY)
    un = 100 / max(total_value, TINY)
    return (
        nref,
        c.efa,
        c.emiss,
        nref_doc,
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
        min(999.9, cn * c.attr_err),
        min(999.9, cn * c.fa_sub),
        min(999.9, cn * c.miss_sub),
        min(999.9, cn * c.err_sub),
        max(-999.9, cn * (value_correct - c.c_fa)),
        100 * value_precision,
        100 * value_recall,
        100 * value_f,
        un * rv,
        min(999.99, un * c.c_fa),
        un * c.c_miss,
        un * c.attr_err,
        un * c.fa_sub,
        un * c.miss_sub,
        un * c.err_sub,
    )


def row_fields(
    c: Cell, total_value: float, b3: B3Entry | None = None, b3_table: bool = False
) -> dict:
    """The numbers of a row by name (:data:`ROW_FIELDS`, unrounded; for machine-readable
    output), plus ``b3``: whether precision/recall/f1 and the value-based ones are B-cubed
    (a B3 table whose row received B3 data)."""
    out = dict(zip(ROW_FIELDS, row_values(c, total_value, b3)))
    out["b3"] = bool(b3_table and b3 is not None)
    return out


def format_row(label: str, c: Cell, total_value: float, b3: B3Entry | None = None) -> str:
    """One printed row (docs/rules/report.md §2.3): the row key cut to 7 characters and the 30 numbers."""
    return ROW_FORMAT % ((label,) + row_values(c, total_value, b3))


# ---- tables -----------------------------------------------------------------------------


def is_b3_table(kind: str, spec: TableSpec) -> bool:
    """B3 headers: entity kind (also EMD) and every condition B3-eligible (docs/rules/report.md §2.7)."""
    if kind != "entity":
        return False
    return spec.cond1 in B3_CONDITIONS and (spec.cond2 is None or spec.cond2 in B3_CONDITIONS)


def detection_table(kind: str, spec: TableSpec, tables: PassTables) -> str:
    """One table (single- or two-condition form, docs/rules/report.md §2.1)."""
    acc = accumulate(tables, spec.cond1, spec.cond2)
    b3 = is_b3_table(kind, spec)
    scores = tables.b3().scores(spec.cond1, spec.cond2) if b3 else {}
    head = header_lines(kind, spec.label1, spec.label2, b3)
    rows = spec.values1 + (MULTI, "total")
    out = []
    if spec.cond2 is None:
        if not acc.cells:
            return ""
        out.append(head)
        for row in rows:
            c = acc.cells.get(row)
            if c is not None:
                out.append(format_row(row, c, acc.total_value, scores.get(row)))
    else:
        for k2 in ("ALL",) + tuple(spec.values2):
            if k2 not in acc.doc_keys2:
                continue
            out.append(f"\nPerformance statistics for {spec.cond2} = {k2}:")
            out.append(head)
            for row in rows:
                c = acc.cells.get((k2, row))
                if c is not None:
                    out.append(format_row(row, c, acc.total_value, scores.get((k2, row))))
    return "".join(out)


def detection_tables(result, params, all_sources, tables: PassTables | None = None) -> str:
    """All detection tables of a pass, in print order."""
    if tables is None:
        tables = PassTables(result)
    if params.nist != "ace08":
        return old_rows.detection_tables(result, params, all_sources, tables)
    return "".join(
        detection_table(result.kind, spec, tables)
        for spec in table_specs(result.kind, params, all_sources)
    )
