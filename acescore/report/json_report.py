"""Machine-readable results: JSON (documented by acescore/schema/results.schema.json), CSV,
CI gates and the reproducibility signature.

Every number is taken from the same accumulation as the text report
(:mod:`acescore.report.tables`), unrounded; rounding a JSON number the way the report does
(``%.1f`` / ``%.2f``) gives the printed text.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Optional

from acescore import __version__
from acescore.errors import AceUsageError
from acescore.report.conditions import MULTI, table_specs
from acescore.report.tables import PassTables, accumulate, is_b3_table, row_fields

#: task names (as used by --fail-under and in JSON) for each pass of the report
TASK_NAMES = {"entity": "edr", "value": "val", "timex2": "tim", "relation": "rdr",
              "event": "vdr", "mention_entity": "emd", "mention_relation": "rmd",
              "mention_event": "vmd"}
ALIASES = {"evdr": "vdr", "event": "vdr", "vdr": "vdr", "entity": "edr", "relation": "rdr",
           "value": "val", "values": "val", "timex2": "tim", "tdr": "tim", "vmd": "vmd",
           "evmd": "vmd", "emd": "emd", "rmd": "rmd", "edr": "edr", "rdr": "rdr",
           "val": "val", "tim": "tim"}

SCHEMA_ID = "https://acescore.invalid/schema/results-1.json"


def signature(results) -> str:
    """A one-line reproducibility signature in the spirit of sacrebleu's."""
    o = results.options
    flags = "".join(f for f, k in (("m", None), ("d", "doc_scores"), ("a", "all_mappings"),
                                     ("e", "error_mappings"), ("s", "summary"))
                    if (k is None and results.mentions) or (k and o.get(k)))
    dtd = o.get("dtd") or "none"
    mode = "|lenient" if o.get("lenient") else ""
    return (f"acescore:{__version__}|params:{results.params.name}|flags:{flags or '-'}"
            f"|order:canonical-05|dtd:{dtd}{mode}")


def _condition_name(spec) -> str:
    return spec.cond1 if spec.cond2 is None else f"{spec.cond1}/{spec.cond2}"


def pass_json(res, params, all_sources) -> dict:
    tables = PassTables(res)
    out: dict = {"section": res.task, "kind": res.kind, "conditions": {}}
    first = True
    for spec in table_specs(res.kind, params, all_sources):
        acc = accumulate(tables, spec.cond1, spec.cond2)
        b3 = is_b3_table(res.kind, spec)
        scores = tables.b3().scores(spec.cond1, spec.cond2) if b3 else {}
        rows = tuple(spec.values1) + (MULTI, "total")
        name = _condition_name(spec)
        if name in out["conditions"]:
            continue
        if spec.cond2 is None:
            lst = []
            for row in rows:
                c = acc.cells.get(row)
                if c is not None:
                    lst.append({"key": row, **row_fields(c, acc.total_value, scores.get(row),
                                                         b3)})
            out["conditions"][name] = lst
            if first and lst:
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
                        lst.append({"key": row, **row_fields(c, acc.total_value,
                                                             scores.get((k2, row)), b3)})
                sub[k2] = lst
            out["conditions"][name] = sub
    return out


def documents_json(res) -> dict:
    from acescore.report.nist_report import document_costs
    out = {}
    for d, (refv, cost) in sorted(document_costs(res).items()):
        sysv = refv - cost
        score = sysv / refv if refv else (-99.9999 if sysv else 1)
        out[d] = {"ref_value": refv, "sys_value": sysv, "value_pct": 100 * max(score, -99.9999)}
    return out


def to_dict(results, literature: bool = True) -> dict:
    p = results.params
    out = {
        "$schema": SCHEMA_ID,
        "acescore_version": __version__,
        "signature": signature(results),
        "parameters": {"name": p.name, "mentions": bool(results.mentions and p.use_mentions),
                       "map_weighting": p.map_weighting, "eval_weighting": p.eval_weighting,
                       "use_mentions": bool(p.use_mentions),
                       "use_name_similarity": bool(p.use_name_similarity),
                       "allow_wrong_mapping": bool(p.allow_wrong_mapping),
                       "min_overlap": p.min_overlap},
        "sources": results.all_sources,
        "documents": {"ref": len(results.run.ref.documents),
                      "sys": len(results.run.sys.all_documents)},
        "tasks": {},
        "document_scores": {},
        # canonical order: the NIST order (standard error) follows the order of the files
        "warnings": sorted(w.strip() for w in results.warnings),
    }
    skipped = getattr(results, "skipped", None)
    if skipped is not None:     # lenient mode (acescore.robust)
        out["skipped"] = skipped.as_dict()
    if results.rendered is not None:     # passes rendered in worker processes
        if any(o.printed and o.json is None for o in results.rendered):
            raise AceUsageError("these results were rendered as text (render='text'); score"
                                " with render='json' or 'csv' for machine-readable output")
        for o in results.rendered:
            if o.printed:
                out["tasks"][TASK_NAMES[o.task]] = o.json
                out["document_scores"][TASK_NAMES[o.task]] = o.documents
    else:
        for res in results.passes:
            if not res.extra.get("print", True):
                continue
            name = TASK_NAMES[res.task]
            out["tasks"][name] = pass_json(res, p, results.all_sources)
            out["document_scores"][name] = documents_json(res)
    if literature and p.use_mentions and results.run.ref.of("entity"):
        try:
            from acescore.metrics import literature_scores
            lit = literature_scores(results.run.ref, results.run.sys, p)
            out["coref"] = lit.get("coref")
            out["events"] = lit.get("events")
        except Exception as e:  # pragma: no cover - never lose the main results
            out["literature_error"] = str(e)
    return out


def to_json(results, indent: int = 1, **kw) -> str:
    return json.dumps(to_dict(results, **kw), indent=indent, sort_keys=False) + "\n"


CSV_FIELDS = None


def to_csv(results) -> str:
    d = to_dict(results, literature=False)
    buf = io.StringIO()
    w = None
    for task, t in d["tasks"].items():
        for cond, rows in t["conditions"].items():
            groups = rows.items() if isinstance(rows, dict) else [("", rows)]
            for k2, lst in groups:
                for row in lst:
                    rec = {"task": task, "condition": cond, "group": k2, **row}
                    if w is None:
                        w = csv.DictWriter(buf, fieldnames=list(rec.keys()), lineterminator="\n",
                                           extrasaction="ignore")
                        w.writeheader()
                    w.writerow(rec)
    return buf.getvalue()


def first_table_value(res, params, all_sources) -> Optional[float]:
    """A pass's total Value (%): the total row of its first table."""
    tables = PassTables(res)
    spec = table_specs(res.kind, params, all_sources)[0]
    acc = accumulate(tables, spec.cond1)
    c = acc.cells.get("total")
    return row_fields(c, acc.total_value, None, False)["value"] if c else None


def task_value(results, task: str) -> Optional[float]:
    """The total Value (%) of a task (first table's total row), or None if not scored."""
    name = ALIASES.get(task.lower(), task.lower())
    if results.rendered is not None:
        for o in results.rendered:
            if TASK_NAMES[o.task] == name and o.printed:
                return o.value
        return None
    for res in results.passes:
        if TASK_NAMES[res.task] == name and res.extra.get("print", True):
            return first_table_value(res, results.params, results.all_sources)
    return None


def gate_failures(results, gates) -> list[str]:
    out = []
    for task, threshold in gates:
        if task.lower() not in ALIASES:
            out.append(f"--fail-under: unknown task '{task}' (known: "
                       + ", ".join(sorted(set(TASK_NAMES.values()))) + ")")
            continue
        v = task_value(results, task)
        if v is None:
            out.append(f"{task} was not scored (no {task} section in the report), required >= "
                       f"{threshold:g}")
        elif round(v, 1) < threshold:
            out.append(f"{task} Value {v:.1f} is below the required {threshold:g}")
    return out


def table(results, task: str, condition: str = "TYPE"):
    """The rows of one table of one task as a list of dicts (Results.table)."""
    name = ALIASES.get(task.lower(), task.lower())
    for res in results.passes:
        if TASK_NAMES[res.task] == name:
            t = pass_json(res, results.params, results.all_sources)
            return t["conditions"][condition]
    raise KeyError(task)


def score_line(results) -> str:
    """``score --score-only``: each scored task's Value (%, as the report rounds it) and the
    signature on one line, e.g. ``edr=22.7 val=40.2 ... acescore:0.1.0|params:...``."""
    values = []
    for name in dict.fromkeys(TASK_NAMES.values()):
        v = task_value(results, name)
        if v is not None:
            values.append(f"{name}={v:.1f}")
    return " ".join(values + [signature(results)]) + "\n"
