"""Event-extraction scores as ACE 2005 papers report them, computed directly from APF.

The four scores -- trigger identification, trigger classification, argument identification
and argument classification, each as recall, precision and F1 -- follow the definitions of
Ji & Grishman (2008) and Li, Ji & Huang (2013), which most later ACE 2005 event-extraction
papers reuse:

* "A trigger is correctly identified if its offsets match those of a reference trigger."
* "A trigger is correctly classified if its event subtype and offsets match those of a
  reference trigger."
* "An argument is correctly identified if its event subtype and offsets match those of any of
  the reference argument mentions."
* "An argument is correctly classified if its event subtype, offsets and argument role match
  those of any of the reference argument mentions."

Exactly what is implemented (everything per document; REF documents without SYS output count
with no SYS items; the units are *event mentions* and *event-mention arguments*):

Triggers
    A trigger is an event mention's ``anchor``.  ``trigger_match="exact"`` (default): two
    triggers match when their anchor offsets are identical (START and END);
    ``trigger_match="overlap"``: when their anchors share at least one character.
    Event subtype = the event's (TYPE, SUBTYPE) pair.
Arguments
    An argument is one ``event_mention_argument`` of an event mention: its ROLE and the
    offsets of the mention it references.  ``arg_match="head"`` (default): the offsets are
    the referenced entity mention's **head**; ``arg_match="extent"``: its **extent**.  Value
    and timex2 mentions have no head and always use their extent.  Offsets must be identical.
    ``arg_scope="subtype"`` (default, the definition above): a SYS argument can match any REF
    argument of the same document whose event mention has the same event subtype -- the
    trigger itself need not be found.  ``arg_scope="trigger"`` (stricter, "argument with
    correct trigger"): a SYS argument can match only arguments of the REF event mention its
    own event mention is aligned with, where the alignment is a one-to-one matching of REF
    and SYS event mentions whose triggers match (per ``trigger_match``) and whose event
    subtypes are equal, choosing the largest number of aligned pairs, then the most
    identified arguments, then the largest total anchor overlap.
One-to-one
    Every count is the size of a maximum one-to-one matching between REF and SYS items (no
    REF item counts for two SYS items, and vice versa), computed separately for each of the
    four scores.  With exact offsets this is the multiset intersection of the items'
    descriptions (document, offsets[, subtype][, role]): a REF argument mention used by two
    REF event mentions of the same subtype counts twice in the REF total and can be matched
    twice, by two SYS arguments.
Scores
    recall = correct / REF items, precision = correct / SYS items, F1 = 2PR/(P+R); 0 when
    a denominator (or P+R) is 0.  Counts are summed over the corpus before dividing
    (micro-average).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from acescore.metrics import registry
from acescore.metrics.matching import intersecting_pairs, max_weight_matching
from acescore.model.limits import DEFAULT_MAX_PAIRS, too_many_pairs
from acescore.model.records import dataclass
from acescore.model.spans import overlap

TRIGGER_MATCHES = ("exact", "overlap")
ARG_MATCHES = ("head", "extent")
ARG_SCOPES = ("subtype", "trigger")
TASKS = registry.names("events")  # (acescore.metrics.registry)
TASK_NAMES = registry.titles("events")


def span_key(loc) -> tuple:
    """Hashable offsets of a locator (text: inclusive START/END)."""
    if loc.kind == "image":
        return (loc.kind, tuple((b.page, b.x, b.y, b.width, b.height) for b in loc.boxes))
    return (loc.kind, loc.start, loc.end)


@dataclass
class _EM:
    """One event mention, as needed here."""

    id: str
    subtype: tuple  # (TYPE, SUBTYPE)
    anchor: object  # Locator
    args: list = field(default_factory=list)  # [(role, offsets key)]


def _mention_index(doc) -> dict:
    idx = {}
    for coll in (doc.entities, doc.values, doc.timex2s):
        for el in coll:
            for m in el.mentions:
                idx[m.id] = m
    return idx


def _arg_key(m, arg_match: str) -> tuple:
    if arg_match == "head" and getattr(m, "head", None) is not None:
        return span_key(m.head)
    return span_key(m.extent)


def _event_mentions(doc, arg_match: str) -> list:
    if doc is None:
        return []
    idx = _mention_index(doc)
    out = []
    for ev in doc.events:
        for em in ev.mentions:
            args = []
            for a in em.arguments:
                m = idx.get(a.refid)
                key = _arg_key(m, arg_match) if m is not None else ("missing", a.refid)
                args.append((a.role, key))
            out.append(_EM(em.id, (ev.type, ev.subtype), em.anchor, args))
    out.sort(key=lambda e: e.id)
    return out


def _triggers_match(a, b, how: str) -> bool:
    if how == "exact":
        return span_key(a) == span_key(b)
    if a.kind != b.kind:
        return False
    return overlap(a, b) > 0


def _intersection(a: list, b: list) -> int:
    return sum((Counter(a) & Counter(b)).values())


def _trigger_pairs(ref: list, sys: list, how: str, max_pairs: int, docid: str) -> list:
    """The pairs (i, j), in ascending order, of REF and SYS event mentions whose triggers
    match (:func:`_triggers_match`), found without valuing every REF/SYS pair: exact
    matches by their offsets, overlapping text (and audio) anchors by a sweep over their
    starts (:func:`~acescore.metrics.matching.intersecting_pairs`, which may propose pairs
    that only touch: each is checked).  More than ``max_pairs`` of them is an error
    (acescore.model.limits)."""

    def refuse(count):
        return too_many_pairs(docid, "event mention", count, max_pairs)

    if how == "exact":
        by_span: dict = {}
        for j, s in enumerate(sys):
            by_span.setdefault(span_key(s.anchor), []).append(j)
        count = 0
        groups = []
        for _i, r in enumerate(ref):
            js = by_span.get(span_key(r.anchor), ())
            count += len(js)
            if count > max_pairs:
                raise refuse(count)
            groups.append(js)
        return [(i, j) for i, js in enumerate(groups) for j in js]
    out = []
    for kind in sorted({r.anchor.kind for r in ref} & {s.anchor.kind for s in sys}):
        ri = [i for i, r in enumerate(ref) if r.anchor.kind == kind]
        si = [j for j, s in enumerate(sys) if s.anchor.kind == kind]
        if kind in ("text", "audio"):
            cand = intersecting_pairs(
                [(ref[i].anchor.start, ref[i].anchor.end) for i in ri],
                [(sys[j].anchor.start, sys[j].anchor.end) for j in si],
                max_pairs - len(out),
                lambda n: refuse(n + len(out)),
            )
            cand = [(ri[a], si[b]) for a, b in cand]
        else:
            if len(ri) * len(si) > max_pairs - len(out):
                raise refuse(len(ri) * len(si) + len(out))
            cand = [(i, j) for i in ri for j in si]
        out.extend(p for p in cand if _triggers_match(ref[p[0]].anchor, sys[p[1]].anchor, how))
    out.sort()
    return out


def _document_counts(
    ref: list,
    sys: list,
    trigger_match: str,
    arg_scope: str,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    docid: str = "",
) -> dict:
    """{task: (correct, ref, sys)} for one document."""
    out = {}
    edges = {}
    for i, j in _trigger_pairs(ref, sys, trigger_match, max_pairs, docid):
        edges[(i, j)] = ref[i].subtype == sys[j].subtype
    n_id = len(max_weight_matching(dict.fromkeys(edges, 1.0)))
    cls_edges = [e for e, same in edges.items() if same]
    n_cls = len(max_weight_matching(dict.fromkeys(cls_edges, 1.0)))
    out["trigger_identification"] = (n_id, len(ref), len(sys))
    out["trigger_classification"] = (n_cls, len(ref), len(sys))

    n_ref_args = sum(len(e.args) for e in ref)
    n_sys_args = sum(len(e.args) for e in sys)
    if arg_scope == "subtype":
        rid = [(e.subtype, k) for e in ref for _, k in e.args]
        sid = [(e.subtype, k) for e in sys for _, k in e.args]
        rcl = [(e.subtype, k, role) for e in ref for role, k in e.args]
        scl = [(e.subtype, k, role) for e in sys for role, k in e.args]
        a_id, a_cls = _intersection(rid, sid), _intersection(rcl, scl)
    else:
        # alignment: most pairs, then most identified arguments, then most anchor overlap
        delta = 1.0 / (n_ref_args + len(ref) + 2)
        weights = {}
        for i, j in cls_edges:
            r, s = ref[i], sys[j]
            n_args = _intersection([k for _, k in r.args], [k for _, k in s.args])
            ov = overlap(r.anchor, s.anchor) if r.anchor.kind == s.anchor.kind else 0.0
            weights[(i, j)] = 1.0 + delta * (n_args + min(float(ov), 1.0))
        a_id = a_cls = 0
        for i, j in max_weight_matching(weights):
            r, s = ref[i], sys[j]
            a_id += _intersection([k for _, k in r.args], [k for _, k in s.args])
            a_cls += _intersection(list(r.args), list(s.args))
    out["argument_identification"] = (a_id, n_ref_args, n_sys_args)
    out["argument_classification"] = (a_cls, n_ref_args, n_sys_args)
    return out


def _prf(correct: int, nref: int, nsys: int) -> dict:
    r = correct / nref if nref else 0.0
    p = correct / nsys if nsys else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"recall": r, "precision": p, "f1": f, "correct": correct, "ref": nref, "sys": nsys}


def event_scores(
    ref_side,
    sys_side,
    trigger_match: str = "exact",
    arg_match: str = "head",
    arg_scope: str = "subtype",
    max_pairs: int = DEFAULT_MAX_PAIRS,
) -> dict:
    """Trigger and argument identification/classification of SYS against REF (two
    :class:`~acescore.rules.database.Side`); see the module docstring for the exact definitions.

    Returns ``{task: {"recall", "precision", "f1", "correct", "ref", "sys"}}`` for the tasks
    ``trigger_identification``, ``trigger_classification``, ``argument_identification`` and
    ``argument_classification`` (recall, precision, f1 as fractions), plus ``"definition"``:
    the options used.  A document with more than ``max_pairs`` pairs of matching
    triggers is an error (acescore.model.limits; the run's limit is ``Params.max_pairs``).
    """
    if trigger_match not in TRIGGER_MATCHES:
        raise ValueError(f"trigger_match must be one of {TRIGGER_MATCHES}, not {trigger_match!r}")
    if arg_match not in ARG_MATCHES:
        raise ValueError(f"arg_match must be one of {ARG_MATCHES}, not {arg_match!r}")
    if arg_scope not in ARG_SCOPES:
        raise ValueError(f"arg_scope must be one of {ARG_SCOPES}, not {arg_scope!r}")
    return scores_from_totals(
        event_totals(ref_side, sys_side, trigger_match, arg_match, arg_scope, max_pairs),
        trigger_match,
        arg_match,
        arg_scope,
    )


def event_totals(
    ref_side,
    sys_side,
    trigger_match: str = "exact",
    arg_match: str = "head",
    arg_scope: str = "subtype",
    max_pairs: int = DEFAULT_MAX_PAIRS,
) -> dict:
    """{task: (correct, REF items, SYS items)} summed over the REF documents (integers: the
    totals of disjoint sets of documents add up)."""
    totals = {t: (0, 0, 0) for t in TASKS}
    for docid in sorted(ref_side.documents):
        ref = _event_mentions(ref_side.documents[docid], arg_match)
        sys = _event_mentions(sys_side.documents.get(docid), arg_match)
        counts = _document_counts(ref, sys, trigger_match, arg_scope, max_pairs, docid)
        for t in TASKS:
            totals[t] = tuple(a + b for a, b in zip(totals[t], counts[t]))
    return totals


def scores_from_totals(
    totals: dict, trigger_match: str = "exact", arg_match: str = "head", arg_scope: str = "subtype"
) -> dict:
    """:func:`event_scores` from :func:`event_totals`."""
    out: dict = {t: _prf(*totals[t]) for t in TASKS}
    out["definition"] = {
        "trigger_match": trigger_match,
        "arg_match": arg_match,
        "arg_scope": arg_scope,
    }
    return out
