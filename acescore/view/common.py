"""What the pages of the HTML view share: the numbers of the report as the report prints them
(:class:`TaskNumbers`) and small HTML helpers."""

from __future__ import annotations

import html
import re

from acescore.model.tasks import task as task_of
from acescore.report.counts.conditions import MULTI, table_specs
from acescore.report.counts.rows import ROW_FORMAT, format_row
from acescore.writing.names import safe_name  # noqa: F401 - the pages' file names

#: the kinds of element whose mentions are marked in the text as such, and the others
ENTITY_LIKE = ("entity", "value", "timex2")
RELEVE = ("relation", "event")

# ---- numbers of the report ----------------------------------------------------------------

#: the 30 numeric fields of a detection-table row (after the 7-character label), in order
ROW_FIELDS = (
    "ref_tot",
    "ref_fa",
    "ref_miss",
    "doc_tot",
    "doc_fa",
    "doc_miss",
    "doc_err",
    "doc_fa_pct",
    "doc_miss_pct",
    "doc_err_pct",
    "pre",
    "rec",
    "f",
    "cost_fa",
    "cost_miss",
    "cost_attr",
    "cost_mfa",
    "cost_mmiss",
    "cost_merr",
    "value",
    "value_pre",
    "value_rec",
    "value_f",
    "max_value",
    "un_fa",
    "un_miss",
    "un_err",
    "un_mfa",
    "un_mmiss",
    "un_merr",
)
#: fields that depend on B-cubed scores in entity tables (not shown: format_row is called
#: without them)

#: the fields of the chart data tables, with their headers
CHART_FIELDS = (
    ("max_value", "Max value"),
    ("un_fa", "FA"),
    ("un_miss", "Miss"),
    ("un_err", "Err"),
    ("un_mfa", "FA"),
    ("un_mmiss", "Miss"),
    ("un_merr", "Err"),
    ("value", "Value (%)"),
)
COST_FIELDS = ("un_fa", "un_miss", "un_err", "un_mfa", "un_mmiss", "un_merr")
COST_COLOURS = ("#d62728", "#ff7f0e", "#9467bd", "#f4a3c0", "#ffc98a", "#c5b0d5")


def _row_regex() -> re.Pattern:
    parts = []
    for width, prec, conv in re.findall(r"%(\d+)(?:\.(\d+))?([sdf])", ROW_FORMAT):
        if conv == "s":
            parts.append("(.{%s})" % width)
        elif conv == "d":
            parts.append(r"\s*(-?\d+)")
        else:
            parts.append(r"\s*(-?\d+\.\d{%s})" % prec)
    return re.compile("".join(parts) + r"\n?$", re.S)


_ROW_RE = _row_regex()


def report_fields(label: str, cell, total_value: float) -> dict:
    """The fields of one report row as printed (strings, stripped): ``label`` and
    :data:`ROW_FIELDS`."""
    line = format_row(label, cell, total_value)
    m = _ROW_RE.match(line)
    if m is None:  # pragma: no cover - format changed
        raise ValueError(f"cannot read back report row {line!r}")
    groups = m.groups()
    out = {"label": groups[0].strip()}
    out.update(zip(ROW_FIELDS, (g.strip() for g in groups[1:])))
    return out


def doc_score(refv: float, cost: float) -> tuple[str, float, float]:
    """(percentage as printed by ``-d``, SYS value, REF value) of one document."""
    sysv = refv - cost
    score = sysv / refv if refv else (-99.9999 if sysv else 1)
    return "%.2f" % (100 * max(score, -99.9999)), sysv, refv


#: the conditions charted per kind (all of them detection tables of the report)
CHART_CONDITIONS = {
    "entity": ("TYPE", "LEVEL"),
    "relation": ("TYPE",),
    "event": ("TYPE",),
    "value": ("SOURCE",),
    "timex2": ("SOURCE",),
}


class TaskNumbers:
    """The numbers of one printed pass on the index page: totals, per-document values,
    chart rows -- from the pass's tables (a :class:`PassTables`, or the tables merged from
    document shards) and its :func:`document_costs`."""

    def __init__(self, task: str, kind: str, tables, costs: dict, params, all_sources):
        self.task = task
        self.kind = kind
        self.code = task_of(task).code
        tot = tables.total()
        self.total_value = tot.norm if tot is not None else 0.0
        self.total = report_fields("total", tot, self.total_value) if tot is not None else None
        self.doc_values = {d: doc_score(refv, cost) for d, (refv, cost) in costs.items()}
        self.charts = []  # (condition, table label, rows)
        specs = table_specs(kind, params, all_sources)
        for cond in CHART_CONDITIONS[kind]:
            spec = next((s for s in specs if s.cond1 == cond and s.cond2 is None), None)
            if spec is None or tot is None:
                continue
            cells = tables.single(cond)
            rows = []
            for key in spec.values1 + (MULTI, "total"):
                c = cells.get(key)
                if c is not None:
                    f = report_fields(key, c, self.total_value)
                    f["key"] = key
                    rows.append(f)
            if rows:
                self.charts.append((cond, f"{spec.label1} {spec.label2}", rows))


class DocNumbers:
    """What the document pages need of one pass: its result, every document's Value (as
    ``-d`` prints it), its document-level records and element IDs by document."""

    def __init__(self, res, tables, costs: dict):
        self.res = res
        self.task = res.task
        self.code = task_of(res.task).code
        self.printed = bool(res.printed)
        self.tables = tables
        self.doc_values = {d: doc_score(refv, cost) for d, (refv, cost) in costs.items()}
        self._records: dict | None = None
        self._ids: dict | None = None

    def values_only(self) -> DocNumbers:
        """Let go of the pass (its Values stay): the pages of a pass whose elements they do
        not show need no more."""
        self.res = self.tables = None
        return self

    @property
    def records(self) -> dict:
        """DOCID -> the document-level records of the document, in canonical order."""
        if self._records is None:
            self._records = {}
            for rec in self.tables.docs:
                self._records.setdefault(rec.docid, []).append(rec)
        return self._records

    def ids(self, side: str, docid: str) -> list:
        """IDs of the ``side`` elements that occur in ``docid``, in ID order."""
        if self._ids is None:
            self._ids = {}
            for s, coll in (("REF", self.res.ref), ("SYS", self.res.sys)):
                for eid in sorted(coll):
                    for d in coll[eid].docs:
                        self._ids.setdefault((s, d), []).append(eid)
        return self._ids.get((side, docid), [])


# ---- small helpers ------------------------------------------------------------------------


def esc(s) -> str:
    """``s`` (None: empty) escaped for HTML text and attribute values (most strings need
    nothing: they are returned as they are)."""
    if s is None:
        return ""
    if type(s) is not str:
        s = str(s)
    if "&" in s or "<" in s or ">" in s or '"' in s or "'" in s:
        return html.escape(s, quote=True)
    return s


def script_json(text: str, id_: str) -> str:
    """A script element holding the JSON ``text`` (which cannot end it early)."""
    if "<" in text:  # (one quick scan where, as mostly, there is none)
        text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return f'<script type="application/json" id="{id_}">{text}</script>'


_FMT3: dict = {None: ""}


def fmt3(x: float | None) -> str:
    """``_fmt(x)`` (three digits), remembered: the tables of a page repeat few numbers."""
    s = _FMT3.get(x)
    if s is None:
        if len(_FMT3) > 100_000:
            _FMT3.clear()
            _FMT3[None] = ""
        s = _FMT3[x] = _fmt(x)
    return s


def _fmt(x: float | None, digits: int = 3) -> str:
    if x is None:
        return ""
    v = round(x, digits)
    if v == 0:
        v = 0.0
    return f"{v:.{digits}f}"


HEAD_SCRIPT = """<script>
window.__acescoreErrors = [];
window.addEventListener('error', function (e) {
  var t = e.target, what = t && t !== window && (t.src || t.href);
  window.__acescoreErrors.push('error: ' + (e.message || e.type)
    + (e.filename ? ' at ' + e.filename + ':' + e.lineno : '')
    + (what ? ' loading ' + what : ''));
}, true);
window.addEventListener('unhandledrejection', function (e) {
  window.__acescoreErrors.push('unhandled rejection: ' + e.reason);
});
(function () {
  var orig = console.error;
  console.error = function () {
    window.__acescoreErrors.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return orig.apply(console, arguments);
  };
})();
</script>"""


def page(title: str, body: str, root: str, kind: str) -> str:
    before, after = page_parts(title, root, kind)
    return before + body + after


def page_parts(title: str, root: str, kind: str) -> tuple[str, str]:
    """What comes before and after the body of a page."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        f'<link rel="stylesheet" href="{root}assets/view.css">\n{HEAD_SCRIPT}\n'
        f'</head>\n<body class="{kind}">\n',
        f'\n<pre id="js-errors" hidden></pre>\n'
        f'<script src="{root}assets/view.js"></script>\n</body>\n</html>\n',
    )
