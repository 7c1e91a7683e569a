"""A scored run as per-document components, per task (what :mod:`acescore.compare.stats`
resamples).

NIST tasks (``edr`` ... ``vmd``, the names of ``score --format json``)
    A task's Value is the total row of its first table: ``100 (RV - Σ cost) / RV`` where RV
    is the sum of the REF document-level values and the costs are those of the
    document-level records (docs/rules/report.md §2.5/§2.6).  Every record belongs to one document, so the
    two sums split by document: the components of a document are (Σ cost, Σ REF value) of
    its records -- the numbers ``score -d`` prints.  Summed over the documents they give
    the report's Value (to the last bits of floating point: the point estimate itself is
    the report's total row, so it is ``score``'s number).
Literature metrics (``coref.*``, ``events.*``)
    Per-document counts (correct/REF/SYS items; MUC, B-cubed, CEAF numerators and
    denominators; BLANC link counts); the corpus score is the micro-average, a function of
    their sums.

Units.  The mapping of an element that spans documents (a cross-document ID: the global
parameter sets, or IDs that recur across documents) is chosen for all its documents at
once, so those documents' components are not independent: resampling must keep them
together.  :func:`units` groups the documents linked by any element of the kinds a task
depends on (REF or any system's); each group is one resampling unit.  Entities, values and
timex2 depend on their own elements, relations and events (and their mention-level tasks)
also on their arguments', so on every kind; EMD and the literature metrics are per
document.  A task whose documents all fall into one group cannot be resampled.
"""

from __future__ import annotations

from dataclasses import field

import numpy as np

from acescore.compare.stats import STATISTICS, nist_value
from acescore.metrics import registry
from acescore.metrics.coref import corpus_counts, document_clusterings
from acescore.metrics.events import event_scores, span_key
from acescore.model.records import dataclass
from acescore.model.tasks import JSON_NAMES, KINDS, TASKS
from acescore.model.tasks import task as task_of
from acescore.report.counts.rows import row_fields
from acescore.report.counts.tables import PassTables


@dataclass
class _OneDocument:
    """One document of a side, as :func:`acescore.metrics.events.event_scores` reads a
    side (its ``documents``)."""

    documents: dict


_NONE: dict = {}
#: the element kinds whose cross-document elements tie a task's documents together
#: (relations and events also depend on their arguments' mappings; EMD's elements are
#: single mentions, each in one document)
LINKING_KINDS = {
    t.json_name: KINDS if t.releve else (() if t.mention_level else (t.kind,)) for t in TASKS
}
NIST_ORDER = JSON_NAMES
COREF_METRICS = registry.names("coref")  # (acescore.metrics.registry)
EVENT_TASKS = registry.names("events")


@dataclass
class TaskScores:
    """One task of one system: the point estimate and the per-document components."""

    task: str
    statistic: str  # a key of acescore.compare.stats.STATISTICS
    value: float  # the score as `acescore score` (or `coref`/`events`) gives it
    x: np.ndarray  # (documents, components), documents in corpus order
    #: NIST tasks: per document, REF element ID -> its partner's mention spans (None:
    #: unmapped; see same_partner)
    partners: list | None = None
    #: per document: the document's own Value (%) as ``score -d`` prints it
    doc_values: np.ndarray | None = None
    #: set when ``score`` prints no section for the task (see :func:`fill_absent`)
    note: str | None = None


@dataclass
class SystemScores:
    name: str
    tasks: dict = field(default_factory=dict)  # task -> TaskScores
    absent: dict = field(default_factory=dict)  # task -> why score has no section


def document_value(x: np.ndarray) -> np.ndarray:
    """Per-document Value (%) from (cost, REF value) rows, as ``score -d``: the system value
    over the REF value, -99.9999 (×100) for a document without REF value but with costs, 100
    for one without either."""
    cost, refv = x[:, 0], x[:, 1]
    sysv = refv - cost
    safe = np.where(refv != 0, refv, 1.0)
    score = np.where(refv != 0, sysv / safe, np.where(sysv != 0, -99.9999, 1.0))
    return 100 * np.maximum(score, -99.9999)


def _partner_key(el) -> tuple:
    """The spans of a document element's mentions (heads where mentions have them), as
    :func:`acescore.metrics.events.span_key` gives them."""
    out = []
    for m in el.mentions:
        loc = m.head
        if loc is None:
            loc = m.extent
        out.append((loc.kind, loc.start, loc.end) if loc.kind != "image" else span_key(loc))
    return tuple(out)


def same_partner(a: tuple, b: tuple) -> bool:
    """Two partners (:func:`_partner_key`) are the same element when a mention span of one
    shares a character with one of the other (text) or is identical (audio, image), or
    when both have the same spans (also none)."""
    if a == b:
        return True
    for x in a:
        for y in b:
            if x == y or (x[0] == y[0] == "text" and x[1] <= y[2] and y[1] <= x[2]):
                return True
    return False


def partners(res, docindex: dict) -> list:
    """Per document: {REF id: key of the SYS element mapped to it in that document (the
    spans of its mentions there), or None}."""
    out: list = [dict() for _ in docindex]
    sys, mapping = res.sys, res.mapping
    for rid, g in res.ref.items():
        s = mapping.get(rid)
        sdocs = sys[s].docs if s is not None else _NONE
        for d in g.docs:
            i = docindex.get(d)
            if i is not None:
                el = sdocs.get(d)  # the partner's document element (PassResult.doc_mapped)
                out[i][rid] = _partner_key(el) if el is not None else None
    return out


def document_components(res, docindex: dict) -> tuple[np.ndarray, float]:
    """(documents x (Σ cost, Σ REF value)) of a pass's document-level records, and the
    pass's Value: the total row of the report's tables, from the same records
    (:class:`~acescore.report.counts.tables.PassTables`; what ``first_table_value`` returns)."""
    x, tables = pass_components(res, docindex)
    return x, table_value(tables)


def table_value(tables: PassTables) -> float:
    """A pass's Value: the total row of its tables (one process's, or merged from document
    shards: :func:`acescore.report.counts.sections.merged_tables`)."""
    total = tables.total()
    return row_fields(total, total.norm)["value"] if total is not None else 0.0


def pass_components(res, docindex: dict) -> tuple[np.ndarray, PassTables]:
    """(documents x (Σ cost, Σ REF value)) of a pass's document-level records, each
    document's summed in record order, and the pass's PassTables."""
    tables = PassTables(res)
    cols = tables.cols
    x = np.zeros((len(docindex), 2))
    if cols.n:
        where = np.fromiter(map(docindex.__getitem__, cols.docids), dtype=np.intp, count=cols.n)
        np.add.at(x[:, 0], where, np.asarray(cols.costs, dtype=np.float64))
        np.add.at(x[:, 1], where, np.asarray(cols.norms, dtype=np.float64))
    return x, tables


def nist_tasks(
    run, docids: list, mention_tasks: bool = False, with_partners: bool = True
) -> tuple[dict, dict]:
    """{task: TaskScores} for every NIST task the report prints, and {task: reason} for
    the tasks it does not (the system has no elements of that kind)."""
    docindex = {d: i for i, d in enumerate(docids)}
    out: dict = {}
    for res in run.passes:
        if not res.printed:
            continue
        name = task_of(res.task).json_name
        x, value = document_components(res, docindex)
        out[name] = TaskScores(
            name,
            "value",
            value,
            x,
            partners(res, docindex) if with_partners else None,
            document_value(x),
        )
    has = {(side.name, k): bool(side.of(k)) for side in (run.ref, run.sys) for k in KINDS}
    return out, absent_tasks(out, has, mention_tasks)


def absent_tasks(scored: dict, has: dict, mention_tasks: bool) -> dict:
    """{task: reason} for the tasks the report does not print although REF has elements of
    their kind: the system output has none (``has``: (side, kind) -> whether it has)."""
    absent = {}
    for t in TASKS:
        if t.mention_level and not mention_tasks:
            continue
        if t.json_name not in scored and has[("REF", t.kind)] and not has[("SYS", t.kind)]:
            absent[t.json_name] = f"the system output has no {t.kind} elements"
    return absent


def fill_absent(systems: list) -> None:
    """A task ``score`` prints no section for, because the system output has no elements
    of its kind, is still a comparison's business (an empty output must fail a CI gate):
    every REF element is missed, so each document's cost is its REF value and the Value is
    0.  The REF values come from a system that has the task (they do not depend on the
    system output)."""
    for s in systems:
        for task, why in s.absent.items():
            if task in s.tasks:
                continue
            model = next(
                (o.tasks[task] for o in systems if task in o.tasks and o.tasks[task].note is None),
                None,
            )
            if model is None:
                continue
            x = model.x.copy()
            x[:, 0] = x[:, 1]
            s.tasks[task] = TaskScores(
                task,
                model.statistic,
                float(nist_value(x.sum(axis=0))),
                x,
                [dict.fromkeys(p) for p in model.partners] if model.partners else None,
                document_value(x),
                note=f"{why}: every REF element missed",
            )


def literature_tasks(rside, sside, params, docids: list) -> dict:
    """{``coref.METRIC`` / ``events.TASK``: TaskScores} with per-document counts (F1 in %)."""
    return literature_scores(literature_rows(rside, sside, params, docids))


def literature_rows(rside, sside, params, docids: list) -> dict:
    """{``coref.METRIC`` / ``events.TASK``: (documents x counts)}, documents ``docids``."""
    n = len(docids)
    coref = {m: np.zeros((n, 6 if m == "blanc" else 4)) for m in COREF_METRICS}
    events = {t: np.zeros((n, 3)) for t in EVENT_TASKS}
    for i, d in enumerate(docids):
        rd = rside.documents[d]
        sd = sside.documents.get(d)
        key, response, _ = document_clusterings(rd, sd, params.min_overlap)
        counts = corpus_counts([(key, response)])
        for m in COREF_METRICS:
            coref[m][i] = counts[m]
        ev = event_scores(_OneDocument({d: rd}), _OneDocument({d: sd} if sd is not None else {}))
        for t in EVENT_TASKS:
            events[t][i] = (ev[t]["correct"], ev[t]["ref"], ev[t]["sys"])
    out = {f"coref.{m}": coref[m] for m in COREF_METRICS}
    out.update({f"events.{t}": events[t] for t in EVENT_TASKS})
    return out


def literature_scores(rows: dict) -> dict:
    """{task: TaskScores} of the per-document counts ``rows`` (:func:`literature_rows`):
    the corpus score of each, a function of their sums."""
    out = {}
    for task, x in rows.items():
        if task.startswith("coref."):
            stat = "blanc_f1" if task == "coref.blanc" else "f1_rp"
        else:
            stat = "f1_counts"
        out[task] = TaskScores(task, stat, float(STATISTICS[stat](x.sum(axis=0))), x)
    return out


class _Groups:
    """Union-find over document positions."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        p = self.parent
        while p[i] != i:
            p[i] = p[p[i]]
            i = p[i]
        return i

    def join(self, items: list) -> None:
        if len(items) < 2:
            return
        root = self.find(items[0])
        for j in items[1:]:
            r = self.find(j)
            if r != root:
                self.parent[r] = root


def element_links(side, docids: list) -> dict:
    """{kind: [document positions of each element that spans more than one document]}."""
    docindex = {d: i for i, d in enumerate(docids)}
    out: dict = {}
    for kind in KINDS:
        out[kind] = [
            [docindex[d] for d in g.docs if d in docindex]
            for g in side.of(kind).values()
            if len(g.docs) > 1
        ]
    return out


def units(links: list, kinds: tuple, n: int) -> np.ndarray:
    """Unit number of each of ``n`` documents: documents linked by an element of ``kinds``
    (``links``: :func:`element_links` of REF and of each system) share a unit.  Units are
    numbered in the order of their first document."""
    groups = _Groups(n)
    for side_links in links:
        for kind in kinds:
            for positions in side_links.get(kind, ()):
                groups.join(positions)
    roots = [groups.find(i) for i in range(n)]
    number: dict = {}
    return np.array([number.setdefault(r, len(number)) for r in roots], dtype=np.intp)


def by_unit(x: np.ndarray, unit: np.ndarray, nunits: int) -> np.ndarray:
    """Per-unit sums of per-document rows."""
    out = np.zeros((nunits, x.shape[1]))
    np.add.at(out, unit, x)
    return out
