"""The index page of the HTML view: the Value of every document and task, sortable, and bar
charts of the cost components (see :mod:`acescore.view.site`)."""

from __future__ import annotations

from acescore.model.tasks import task as task_of
from acescore.view.common import (
    CHART_FIELDS,
    COST_COLOURS,
    COST_FIELDS,
    TaskNumbers,
    _fmt,
    esc,
    page,
)

# ---- the index page -------------------------------------------------------------------------


def _chart_svg(task: TaskNumbers, cond: str, rows: list, arg_label: str) -> str:
    bars = [r for r in rows if r["key"] != "total"] or rows
    label_w, bar_w, right_w, row_h = 150, 440, 110, 22

    def num(r, f):
        try:
            return float(r[f])
        except ValueError:
            return 0.0

    scale = max(
        [max(num(r, "max_value"), sum(num(r, f) for f in COST_FIELDS)) for r in bars] + [1e-9]
    )
    height = row_h * len(bars) + 8
    out = [
        f'<svg class="chart" role="img" width="{label_w + bar_w + right_w}" '
        f'height="{height}" viewBox="0 0 {label_w + bar_w + right_w} {height}" '
        f'aria-label="{esc(task.code)} cost components by {esc(cond)}">'
    ]
    names = ("FA", "Miss", "Err", f"{arg_label} FA", f"{arg_label} Miss", f"{arg_label} Err")
    for i, r in enumerate(bars):
        y = 4 + i * row_h
        label = r["key"]
        out.append(
            f'<text class="lab" x="{label_w - 6}" y="{y + 15}" text-anchor="end">'
            f"{esc(label if len(label) <= 22 else label[:21] + '…')}"
            f"<title>{esc(label)}</title></text>"
        )
        mv = num(r, "max_value")
        out.append(
            f'<rect class="maxv" x="{label_w}" y="{y + 2}" '
            f'width="{mv / scale * bar_w:.2f}" height="{row_h - 4}">'
            f"<title>{esc(label)}: max value {esc(r['max_value'])} % of the total"
            f"</title></rect>"
        )
        x = float(label_w)
        for f, name, colour in zip(COST_FIELDS, names, COST_COLOURS):
            w = num(r, f) / scale * bar_w
            if w <= 0:
                continue
            out.append(
                f'<rect x="{x:.2f}" y="{y + 6}" width="{w:.2f}" height="{row_h - 12}" '
                f'fill="{colour}"><title>{esc(label)}: {esc(name)} cost '
                f"{esc(r[f])} % of the total value</title></rect>"
            )
            x += w
        out.append(
            f'<text class="val" x="{label_w + bar_w + 6}" y="{y + 15}">Value '
            f"{esc(r['value'])} %</text>"
        )
    out.append("</svg>")
    return "".join(out)


def _chart_block(task: TaskNumbers, cond: str, title: str, rows: list) -> str:
    arg_label = "Arg" if task.kind in ("relation", "event") else "Mention"
    body = []
    for r in rows:
        tds = "".join(f'<td data-f="{f}">{esc(r[f])}</td>' for f, _ in CHART_FIELDS)
        body.append(f'<tr data-row="{esc(r["key"])}"><th>{esc(r["key"])}</th>{tds}</tr>')
    group = "Arguments" if arg_label == "Arg" else "Mentions"
    return (
        f'<figure class="chart-block" data-task="{esc(task.task)}" data-cond="{esc(cond)}">'
        f"<figcaption>{esc(task_of(task.task).view_label)} by {esc(cond)} "
        f'<span class="muted">(report table “{esc(title)}”, unconditioned cost, % of the '
        f"total value)</span></figcaption>"
        f"{_chart_svg(task, cond, rows, arg_label)}"
        f'<details><summary>numbers</summary><table class="chart-data">'
        f'<thead><tr><th rowspan="2">{esc(cond)}</th><th rowspan="2">Max value</th>'
        f'<th colspan="3">Detection</th><th colspan="3">{group}</th>'
        f'<th rowspan="2">Value (%)</th></tr><tr>'
        + "".join(f"<th>{h}</th>" for h in ("FA", "Miss", "Err", "FA", "Miss", "Err"))
        + f"</tr></thead><tbody>{''.join(body)}</tbody></table></details></figure>"
    )


def _legend_costs() -> str:
    names = (
        "FA",
        "Miss",
        "Err (attributes)",
        "mention/argument FA",
        "mention/argument Miss",
        "mention/argument Err",
    )
    items = [
        f'<span class="sw" style="background:{c}"></span>{esc(n)}'
        for n, c in zip(names, COST_COLOURS)
    ]
    items.append('<span class="sw maxsw"></span>max value (the share of the total value)')
    return '<p class="legend">' + " ".join(f"<span>{i}</span>" for i in items) + "</p>"


def _provenance(results) -> str:
    """The REF and SYS inputs and the signature of the run, as on every JSON and CSV."""
    inputs = results.inputs or {}
    return (
        '<p class="muted" id="provenance">'
        + "".join(
            f"{side.upper()} <code>{esc(inputs[side])}</code>, "
            for side in ("ref", "sys")
            if inputs.get(side)
        )
        + f'signature <code id="signature">{esc(results.signature())}</code>'
        + _skipped(results)
        + "</p>"
    )


def _skipped(results) -> str:
    """Lenient mode: what it skipped, counted (each skip is on standard error with
    ``--verbose`` and in the JSON report)."""
    skipped = getattr(results, "skipped", None)
    if skipped is None:
        return ""
    return (
        f'<br><span id="skipped">{esc(skipped.summary())}: each is listed by'
        " <code>--verbose</code> and in the JSON report (<code>skipped</code>)</span>"
    )


def index_page(
    results, tasks: list, docs: list, files: dict, sources: dict, missing_sources: list
) -> str:
    params = results.params
    out = [
        "<header><h1>acescore view</h1>"
        f'<p class="muted">parameter set <b>{esc(params.name if hasattr(params, "name") else "")}'
        f"</b>, {len(docs)} documents, mentions {'on' if results.mentions else 'off'}"
        f"{', source: ' + esc(results.source_label) if results.source_label else ''}</p>"
        + _provenance(results)
        + "</header><main>"
    ]
    # task summary
    out.append(
        '<section><h2>Tasks</h2><table class="summary sortable" id="tasks"><thead><tr>'
        '<th data-type="text">Task</th><th data-type="num">Value (%)</th>'
        '<th data-type="num">Ref</th><th data-type="num">FA</th>'
        '<th data-type="num">Miss</th><th data-type="num">Err</th>'
        '<th data-type="num" title="sum of the reference values">REF value'
        "</th></tr></thead><tbody>"
    )
    for t in tasks:
        tot = t.total
        if tot is None:
            continue
        out.append(
            f'<tr data-task="{esc(t.task)}"><td>{esc(task_of(t.task).view_label)}</td>'
            f'<td class="num" data-f="value">{esc(tot["value"])}</td>'
            f'<td class="num">{esc(tot["doc_tot"])}</td>'
            f'<td class="num">{esc(tot["doc_fa"])}</td>'
            f'<td class="num">{esc(tot["doc_miss"])}</td>'
            f'<td class="num">{esc(tot["doc_err"])}</td>'
            f'<td class="num">{_fmt(t.total_value, 3)}</td></tr>'
        )
    out.append(
        '</tbody></table><p class="muted">Value (%), document counts (Ref, FA, Miss,'
        " Err) of the report’s <code>total</code> rows; REF value: the sum of the"
        " reference values (100 % of the Value).</p></section>"
    )
    # documents
    out.append(
        '<section><h2>Documents</h2><p class="muted">Value (%) of each document, as'
        " printed by <code>acescore score -d</code>; click a column header to sort.</p>"
        '<table class="docs sortable" id="docs"><thead><tr>'
        '<th data-type="text">Document</th><th data-type="text">Source</th>'
    )
    for t in tasks:
        out.append(
            f'<th data-type="num" data-task="{esc(t.task)}" '
            f'title="{esc(task_of(t.task).view_label)}">{esc(t.code)}</th>'
        )
    out.append("</tr></thead><tbody>")
    for d in docs:
        warn = (
            ' <span class="warn" title="source text not found">⚠</span>'
            if d in missing_sources
            else ""
        )
        out.append(
            f'<tr data-doc="{esc(d)}"><td><a href="{esc(files[d])}">{esc(d)}</a>'
            f"{warn}</td><td>{esc(sources.get(d, ''))}</td>"
        )
        for t in tasks:
            v = t.doc_values.get(d)
            if v is None:
                out.append(f'<td class="num none" data-task="{esc(t.task)}" data-sort="">—</td>')
            else:
                pct, sysv, refv = v
                out.append(
                    f'<td class="num" data-task="{esc(t.task)}" data-sort="{pct}" '
                    f'data-sysv="{sysv:.5f}" data-refv="{refv:.5f}" '
                    f'title="{sysv:.5f} out of {refv:.5f}">{pct}</td>'
                )
        out.append("</tr>")
    out.append("</tbody></table></section>")
    # charts
    out.append(
        '<section><h2>Cost components</h2><p class="muted">From the detection tables'
        " of the report: the unconditioned costs (% of the task’s total reference"
        " value) of false alarms, misses and attribute errors, and the mention (for"
        " relations and events: argument) costs of mapped elements.</p>" + _legend_costs()
    )
    for t in tasks:
        if not t.charts:
            continue
        out.append(f'<h3>{esc(task_of(t.task).view_label)}</h3><div class="charts">')
        for cond, title, rows in t.charts:
            out.append(_chart_block(t, cond, title, rows))
        out.append("</div>")
    out.append("</section>")
    if missing_sources:
        out.append(
            "<section><h2>Missing sources</h2><p>No source text was found for: "
            + ", ".join(esc(d) for d in missing_sources)
            + "</p></section>"
        )
    out.append('<div id="selftest" hidden></div></main>')
    return page("acescore view", "".join(out), "", "index")


# ---- document pages --------------------------------------------------------------------------
