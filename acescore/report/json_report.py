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
from acescore.report.machine import (UNIT, coref_json, events_json, make_signature,
                                     pass_details)
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
    return make_signature(results.params.name, flags, o.get("dtd"), bool(o.get("lenient")))


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
        "score_unit": UNIT,
        "parameters": {"name": p.name, "mentions": bool(results.mentions and p.use_mentions),
                       "map_weighting": p.map_weighting, "eval_weighting": p.eval_weighting,
                       "use_mentions": bool(p.use_mentions),
                       "use_name_similarity": bool(p.use_name_similarity),
                       "allow_wrong_mapping": bool(p.allow_wrong_mapping),
                       "min_overlap": p.min_overlap},
        "sources": results.all_sources,
        **({"inputs": results.options["inputs"]} if results.options.get("inputs") else {}),
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
            out["tasks"][name] = dict(pass_json(res, p, results.all_sources),
                                      **pass_details(results.options, res))
            out["document_scores"][name] = documents_json(res)
    if results.options.get("summary"):
        out["summary"] = {"ref_documents": sorted(results.run.ref.documents),
                          "sys_documents": sorted(results.run.sys.all_documents)}
    if literature and p.use_mentions and results.run.ref.of("entity"):
        try:
            from acescore.metrics import literature_scores
            lit = literature_scores(results.run.ref, results.run.sys, p)
            out["coref"] = coref_json(lit["coref"])
            out["events"] = events_json(lit["events"])
        except Exception as e:  # pragma: no cover - never lose the main results
            out["literature_error"] = str(e)
    return out


def to_json(results, indent: int = 1, **kw) -> str:
    return json.dumps(to_dict(results, **kw), indent=indent, sort_keys=False) + "\n"


CSV_FIELDS = None


#: CSV columns after the table row fields: -d's document scores, then the signature
CSV_DOCUMENT_FIELDS = ("ref_value", "sys_value")


def to_csv(results) -> str:
    """One line per table row (task, condition, group, key, the row's fields); with -d also
    one line per document and task (condition ``document``, key the DOCID, ``value`` its
    Value in %, ``ref_value``/``sys_value``); every line ends with the run's signature."""
    d = to_dict(results, literature=False)
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
                        w = csv.DictWriter(buf, fieldnames=list(rec) + list(CSV_DOCUMENT_FIELDS)
                                           + ["signature"], lineterminator="\n",
                                           extrasaction="ignore")
                        w.writeheader()
                    w.writerow(dict(rec, signature=sig))
    if w is not None and results.options.get("doc_scores"):
        for task, docs in d["document_scores"].items():
            for docid, v in docs.items():
                w.writerow({"task": task, "condition": "document", "group": "", "key": docid,
                            "value": v["value_pct"], "ref_value": v["ref_value"],
                            "sys_value": v["sys_value"], "signature": sig})
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
