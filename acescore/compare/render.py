"""Text and JSON output of ``acescore compare`` (the dict of
:func:`acescore.compare.analysis.compare`)."""

from __future__ import annotations

import json

from acescore.compare.components import NIST_ORDER
from acescore.metrics.coref import METRIC_NAMES
from acescore.metrics.events import TASK_NAMES as EVENT_NAMES
from acescore.model.tasks import TASKS

TITLES = {t.json_name: f"{t.code}: {t.description}" for t in TASKS}


def to_json(result: dict) -> str:
    return json.dumps(result, indent=1) + "\n"


def _num(x, fmt: str = "%.1f") -> str:
    return "-" if x is None else fmt % x


def _interval(lo, hi) -> str:
    return "-" if lo is None else f"[{lo:.1f}, {hi:.1f}]"


def _title(task: str) -> str:
    if task in TITLES:
        return TITLES[task]
    family, _, name = task.partition(".")
    if family == "coref":
        return f"{task}: coreference, {METRIC_NAMES.get(name, name)} F1"
    return f"{task}: event extraction, {EVENT_NAMES.get(name, name).lower()} F1"


def task_table(result: dict, task: str) -> list:
    """The lines of one task's table: each system's score and interval, the difference
    from the baseline, its interval and p-value, ``*`` where p < alpha."""
    level = round(100 * result["parameters"]["level"])
    names = [s["name"] for s in result["systems"]]
    w = max([len(n) for n in names] + [6])
    info = result["tasks"][task]
    lines = [
        f"{_title(task)}  ({info['note']})",
        f"  {'system':<{w}}  {'Value' if task in NIST_ORDER else 'F1':>7}  "
        f"{f'{level}% CI':>16}  {'delta':>7}  "
        f"{f'{level}% CI':>16}  {'p':>7}",
    ]
    deltas = {c["system"]: c["tasks"].get(task) for c in result["comparisons"]}
    notes: list = []
    for k, s in enumerate(result["systems"]):
        t = s["tasks"].get(task)
        if t is None:
            why = s["absent"].get(task, "not scored")
            lines.append(f"  {s['name']:<{w}}  {'-':>7}  ({why})")
            continue
        row = f"  {s['name']:<{w}}  {t['value']:7.1f}  {_interval(t['ci_low'], t['ci_high']):>16}"
        if t.get("note"):
            notes.append(f"  {s['name']}: {t['note']} (score prints no section)")
        if k == 0:
            row += "  (baseline)"
        else:
            d = deltas.get(s["name"])
            if d is None:
                row += "  (baseline not scored)"
            else:
                mark = " *" if d["significant"] else ""
                row += (
                    f"  {d['delta']:+7.1f}  {_interval(d['ci_low'], d['ci_high']):>16}  "
                    f"{_num(d['p_value'], '%.4f'):>7}{mark}"
                )
        lines.append(row.rstrip())
    for name, d in deltas.items():
        if d is not None and d.get("note"):
            notes.append(f"  {name}: {d['note']}")
    return lines + notes


def _footnote(result: dict) -> list:
    """The ``*`` footnote, once, where some difference has a p-value."""
    if any(d["p_value"] is not None for c in result["comparisons"] for d in c["tasks"].values()):
        alpha = result["parameters"]["alpha"]
        return [f"* p < {alpha:g} (paired approximate randomization)", ""]
    return []


def _coverage(result: dict) -> list:
    """The systems that miss REF documents (scored as misses) or have documents REF does
    not have (ignored), in the header."""
    out = []
    for s in result["systems"]:
        c = s.get("coverage")
        if not c or not (c["ref_without_sys"] or c["sys_without_ref"]):
            continue
        said = []
        if c["ref_without_sys"]:
            said.append(
                f"{c['ref_without_sys']} of {c['ref']} REF documents missing (scored as misses)"
            )
        if c["sys_without_ref"]:
            n = c["sys_without_ref"]
            said.append(f"{n} document{'' if n == 1 else 's'} not in REF (ignored)")
        out.append(f"{s['name']}: " + "; ".join(said))
    return out


def _doc_rows(view: dict, docids: list, names: tuple) -> list:
    rows = {r["docid"]: r for r in view["per_document"]}
    has_map = "mapping_changed" in view
    w = max([len(d) for d in docids] + [8])
    a, b = (max(9, len(n)) for n in names)
    head = f"    {'document':<{w}}  {names[0]:>{a}}  {names[1]:>{b}}  {'delta':>7}  {'effect':>7}"
    if has_map:
        head += "  remapped  new  unmapped"
    out = [head]
    for d in docids:
        r = rows[d]
        line = (
            f"    {d:<{w}}  {r['baseline']:{a}.1f}  {r['system']:{b}.1f}  {r['delta']:+7.1f}  "
            f"{r['effect']:+7.2f}"
        )
        if has_map:
            line += f"  {r['remapped']:8d}  {r['newly_mapped']:3d}  {r['unmapped']:8d}"
        if r["opposite_sign"]:
            line += "  opposite"
        out.append(line)
    return out


def document_view(result: dict, all_documents: bool = False) -> list:
    """Kehler et al.'s view, per comparison: per task the documents that moved, those that
    moved against the corpus difference and those whose mapping changed; then the documents
    that moved most (or, with ``all_documents``, every document)."""
    lines = []
    for comp in result["comparisons"]:
        names = (comp["baseline"], comp["system"])
        lines += [
            "",
            f"Documents: {names[1]} against {names[0]} ({result['documents']} documents)",
            f"  {'task':<32}  {'delta':>7}  {'moved':>5}  {'opposite':>8}  "
            f"{'mapping changed':>15}  {'both':>4}",
        ]
        views = comp["documents"]
        for task, view in views.items():
            d = comp["tasks"][task]["delta"]
            mc = view.get("mapping_changed")
            both = view.get("opposite_and_mapping_changed")
            lines.append(
                f"  {task:<32}  {d:+7.1f}  {view['moved']:5d}  "
                f"{view['opposite_sign']:8d}  {_num(mc, '%d'):>15}  "
                f"{_num(both, '%d'):>4}"
            )
        lines += [
            "  effect: a document's contribution to the corpus difference (with "
            f"{names[0]}'s output for the document, the difference changes by -effect)",
            "  moved: documents whose effect is not 0; opposite: against the sign of the "
            "corpus difference; both: opposite with a changed mapping",
        ]
        for task, view in views.items():
            if not all_documents and task not in NIST_ORDER:
                continue
            if all_documents:
                lists = [("every document", [r["docid"] for r in view["per_document"]])]
            else:
                lists = [
                    ("documents that moved most", view["moved_most"]),
                    ("documents that moved against the corpus difference", view["opposite_most"]),
                ]
            for label, docids in lists:
                if docids:
                    lines += ["", f"  {task}: {label}"]
                    lines += _doc_rows(view, docids, names)
    return lines


def to_text(result: dict, all_documents: bool = False) -> str:
    p = result["parameters"]
    lines = [
        f"acescore compare: {len(result['systems'])} systems, baseline "
        f"{result['systems'][0]['name']}, {result['documents']} documents, parameter set "
        f"{p['name']}",
        f"bootstrap: {p['bootstrap']} resamples of documents; approximate randomization: "
        f"{p['randomization']} rounds; seed {p['seed']}",
        *_coverage(result),
        "",
    ]
    for task in result["tasks"]:
        lines += task_table(result, task) + [""]
    lines += _footnote(result)
    lines += document_view(result, all_documents)
    # the signature: on standard error after the text, as for every command that scores
    return "\n".join(lines) + "\n"
