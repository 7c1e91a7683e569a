"""Machine-readable results: JSON (documented by acescore/schema/results.schema.json), CSV,
CI gates and the reproducibility signature.

Every number is taken from the same accumulation as the text report
(:mod:`acescore.report.counts.tables`), unrounded; rounding a JSON number the way the report does
(``%.1f`` / ``%.2f``) gives the printed text.
"""

from __future__ import annotations

import csv
import io
import json

from acescore.model.errors import AceUsageError
from acescore.model.tasks import JSON_NAMES, lookup
from acescore.model.tasks import task as task_of
from acescore.model.version import __version__, schema_url
from acescore.report.counts import old_rows
from acescore.report.counts.conditions import MULTI, table_specs
from acescore.report.counts.rows import is_b3_table
from acescore.report.counts.rows import row_fields as rows_row_fields
from acescore.report.counts.tables import PassTables, accumulate, document_costs
from acescore.report.data.machine import UNIT, coref_json, events_json, make_signature

SCHEMA_ID = schema_url("results")


def signature(results) -> str:
    """A one-line reproducibility signature in the spirit of sacrebleu's."""
    o = results.options
    return make_signature(o.params, o.flags, results.dtd, o.lenient, nist=o.nist_label)


def _condition_name(spec) -> str:
    return spec.cond1 if spec.cond2 is None else f"{spec.cond1}/{spec.cond2}"


def _row_fields(old: bool, c, total_value, b3_entry, b3_table) -> dict:
    """A row as data: ``old``, the 22-column rows of the older versions, as printed."""
    if old:
        return dict(old_rows.row_fields(c, total_value), b3=False)
    return rows_row_fields(c, total_value, b3_entry, b3_table)


def pass_value(res, params, all_sources, tables=None) -> float | None:
    """A pass's total Value (%) -- what :func:`total_value` reads from its
    :func:`pass_json` -- without the rest of its data (a text report needs no more): the
    total row of its first table of one condition."""
    tables = PassTables(res) if tables is None else tables
    old = params.nist != "ace08"
    for spec in table_specs(res.kind, params, all_sources):
        if spec.cond2 is not None:
            continue
        acc = accumulate(tables, spec.cond1, None)
        c = acc.cells.get("total")
        if c is None:
            return None
        b3 = is_b3_table(res.kind, spec) and not old
        entry = tables.b3().scores(spec.cond1, None).get("total") if b3 else None
        return _row_fields(old, c, acc.total_value, entry, b3)["value"]
    return None


def pass_json(res, params, all_sources, tables=None) -> dict:
    """The tables of a pass as data (``tables``: its PassTables if at hand)."""
    tables = PassTables(res) if tables is None else tables
    out: dict = {"section": res.task, "kind": res.kind, "conditions": {}}
    first = True
    old = params.nist != "ace08"  # the 22-column rows of the older versions, as printed

    def row_fields(c, total_value, b3_entry, b3_table):
        return _row_fields(old, c, total_value, b3_entry, b3_table)

    for spec in table_specs(res.kind, params, all_sources):
        acc = accumulate(tables, spec.cond1, spec.cond2)
        b3 = is_b3_table(res.kind, spec) and not old
        scores = tables.b3().scores(spec.cond1, spec.cond2) if b3 else {}
        rows = tuple(spec.values1) + ((MULTI,) if not old else ()) + ("total",)
        name = _condition_name(spec)
        if name in out["conditions"]:
            continue
        if spec.cond2 is None:
            lst = []
            for row in rows:
                c = acc.cells.get(row)
                if c is not None:
                    lst.append({"key": row, **row_fields(c, acc.total_value, scores.get(row), b3)})
            out["conditions"][name] = lst
            if first:
                if lst and lst[-1]["key"] == "total":
                    out["total"] = lst[-1]
                first = False
        else:
            sub: dict = {}
            for k2 in ("ALL",) + tuple(spec.values2):
                if k2 not in acc.doc_keys2:
                    continue
                lst = []
                for row in rows:
                    c = acc.cells.get((k2, row))
                    if c is not None:
                        lst.append(
                            {
                                "key": row,
                                **row_fields(c, acc.total_value, scores.get((k2, row)), b3),
                            }
                        )
                sub[k2] = lst
            out["conditions"][name] = sub
    return out


def documents_json(res, costs=None) -> dict:
    """The document scores of a pass (``costs``: its document_costs if known)."""
    out = {}
    if costs is None:
        costs = document_costs(res)
    for d, (refv, cost) in sorted(costs.items()):
        sysv = refv - cost
        score = sysv / refv if refv else (-99.9999 if sysv else 1)
        out[d] = {"ref_value": refv, "sys_value": sysv, "value_pct": 100 * max(score, -99.9999)}
    return out


def total_value(data: dict) -> float | None:
    """A pass's total Value (%): the total row of its first table (``pass_json`` data)."""
    total = data.get("total")
    return total["value"] if total is not None else None


def to_dict(results) -> dict:
    p = results.params
    out = {
        "$schema": SCHEMA_ID,
        "acescore_version": __version__,
        "signature": signature(results),
        "score_unit": UNIT,
        "parameters": {
            "name": p.name,
            "mentions": bool(results.options.scores_mentions),
            "map_weighting": p.map_weighting,
            "eval_weighting": p.eval_weighting,
            "use_mentions": bool(p.use_mentions),
            "use_name_similarity": bool(p.use_name_similarity),
            "allow_wrong_mapping": bool(p.allow_wrong_mapping),
            "min_overlap": p.min_overlap,
        },
        "sources": results.all_sources,
        **({"inputs": dict(results.inputs)} if results.inputs else {}),
        "documents": (
            results.coverage.as_dict() if results.coverage is not None else dict(results.documents)
        ),
        "tasks": {},
        "document_scores": {},
        # canonical order: the NIST order (standard error) follows the order of the files
        "warnings": sorted(w.strip() for w in results.warnings),
    }
    if results.skipped is not None:  # lenient mode (acescore.rules.robust)
        out["skipped"] = results.skipped.as_dict()
    for o in results.outputs:
        if o.printed:
            name = task_of(o.task).json_name
            out["tasks"][name] = o.data
            out["document_scores"][name] = o.documents
    if results.document_ids is not None:  # -s
        out["summary"] = {
            "ref_documents": results.document_ids["ref"],
            "sys_documents": results.document_ids["sys"],
        }
    if results.literature is not None:
        out["coref"] = coref_json(results.literature["coref"])
        out["events"] = events_json(results.literature["events"])
    return out


def to_json(results, indent: int = 1) -> str:
    return json.dumps(to_dict(results), indent=indent, sort_keys=False) + "\n"


#: CSV columns after the table row fields: -d's document values, then the signature
CSV_DOCUMENT_FIELDS = ("ref_value", "sys_value")


def to_csv(results) -> str:
    """One line per table row (task, condition, group, key, the row's fields); with -d also
    one line per document and task (condition ``document``, key the DOCID, ``value`` its
    Value in %, ``ref_value``/``sys_value``); every line ends with the run's signature."""
    d = to_dict(results)
    buf = io.StringIO()
    w = None
    sig = d["signature"]
    for task, t in d["tasks"].items():
        for cond, rows in t["conditions"].items():
            groups = rows.items() if isinstance(rows, dict) else [("", rows)]
            for k2, lst in groups:
                for row in lst:
                    rec = {"task": task, "condition": cond, "group": k2, **row}
                    if w is None:
                        w = csv.DictWriter(
                            buf,
                            fieldnames=list(rec) + list(CSV_DOCUMENT_FIELDS) + ["signature"],
                            lineterminator="\n",
                            extrasaction="ignore",
                        )
                        w.writeheader()
                    w.writerow(dict(rec, signature=sig))
    if w is not None and results.options.doc_scores:
        for task, docs in d["document_scores"].items():
            for docid, v in docs.items():
                w.writerow(
                    {
                        "task": task,
                        "condition": "document",
                        "group": "",
                        "key": docid,
                        "value": v["value_pct"],
                        "ref_value": v["ref_value"],
                        "sys_value": v["sys_value"],
                        "signature": sig,
                    }
                )
    return buf.getvalue()


def _output(results, task: str):
    """The rendered pass of a task (any spelling ``lookup`` accepts) that has a section in
    the report, or None; an unknown task name is a usage error."""
    t = lookup(task)
    if t is None:
        raise AceUsageError(f"unknown task '{task}' (known: {', '.join(JSON_NAMES)})")
    return next((o for o in results.outputs if o.task == t.name and o.printed), None)


def task_value(results, task: str) -> float | None:
    """The total Value (%) of a task (first table's total row), or None if not scored."""
    o = _output(results, task)
    return o.value if o is not None else None


def gate_failures(results, gates) -> list[str]:
    out = []
    for task, threshold in gates:
        if lookup(task) is None:
            out.append(f"--fail-under: unknown task '{task}' (known: {', '.join(JSON_NAMES)})")
            continue
        v = task_value(results, task)
        if v is None:
            out.append(
                f"{task} was not scored (no {task} section in the report), required >= "
                f"{threshold:g}"
            )
        elif round(v, 1) < threshold:
            out.append(f"{task} Value {v:.1f} is below the required {threshold:g}")
    return out


def table(results, task: str, condition: str = "TYPE"):
    """The rows of one table of one task as a list of dicts (Results.table)."""
    o = _output(results, task)
    if o is None:
        raise KeyError(task)
    return o.data["conditions"][condition]


def score_line(results) -> str:
    """``score --score-only``: each scored task's Value (%, as the report rounds it) and the
    signature on one line, e.g. ``edr=22.7 val=40.2 ... acescore:0.1.0|params:...``."""
    values = [
        f"{name}={v:.1f}" for name in JSON_NAMES if (v := task_value(results, name)) is not None
    ]
    return " ".join(values + [signature(results)]) + "\n"
