"""Event, entity and relation scores of SYS against REF under a named convention
(:mod:`acescore.metrics.conventions`), computed from APF.

Items (offsets are inclusive character offsets; a *span* is ``(start, end)``):
  trigger   ``(anchor span, type)``, type = ``TYPE:SUBTYPE`` of the event.
  argument  ``(anchor span, type, argument span, role)``.
  entity    ``(span, entity TYPE)`` of each kept entity mention (values: their TYPE, timex2:
            ``TIME``).
  relation  ``(Arg-1 span, Arg-2 span, label)`` of each relation mention whose two arguments
            are kept (plus their entity types for "strict").

The descriptions each score compares (``(doc, ...)`` always first, so nothing matches
across documents):
  trigger identification  anchor span;   classification  + type
  argument identification type, argument span;   classification  + role
  attached (``attached=yes``)  the same with the anchor span in front
  entity "boundary"  span;  "strict"  + type
  relation "boundaries"  both spans (either order when the label is symmetric), label;
  "strict"  + both arguments' entity types (Taille et al. 2020).
Per-label tables are for the classification scores: triggers by event type, arguments by
role, entities by type, relations by label; macro = mean of the per-label F1 over the labels
seen in REF or SYS; micro = the pooled counts.
"""

from __future__ import annotations

from collections import Counter

from acescore.metrics import registry
from acescore.metrics.conventions import Convention, signature
from acescore.metrics.events import _prf
from acescore.model.params import SYMMETRIC_RELATIONS

# the scores, their titles and those scored per label: the registry's (acescore.metrics.registry)
EVENT_TASKS = registry.names("events")
ATTACHED_TASKS = registry.extra("events")
ENTITY_TASKS = registry.names("entities", core_only=False)
RELATION_TASKS = registry.names("relations", core_only=False)
TASK_TITLES = {n: t for n, t in registry.titles().items() if registry.BY_NAME[n].family != "coref"}
LABELLED = registry.labelled()


# ---------------------------------------------------------------------------- items


def _span(loc) -> tuple:
    return (loc.start, loc.end)


def _overlaps(a: tuple, b: tuple) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _longest_first(items: list, span_of) -> set:
    """Indices of the items kept by the ``overlaps=longest`` rule."""
    order = sorted(range(len(items)), key=lambda i: -(span_of(items[i])[1] - span_of(items[i])[0]))
    kept: list = []
    out = set()
    for i in order:
        s = span_of(items[i])
        if not any(_overlaps(s, k) for k in kept):
            kept.append(s)
            out.add(i)
    return out


def document_mentions(doc, conv: Convention, dropped: Counter | None = None) -> dict:
    """``{mention id: (span, label, mention type)}`` of the mentions the convention keeps;
    ``dropped`` counts the others by the rule that drops them."""
    dropped = Counter() if dropped is None else dropped
    found = []
    for e in doc.entities:
        for m in e.mentions:
            if conv.pronouns == "drop" and m.type == "PRO":
                dropped["mentions: pronouns=drop"] += 1
                continue
            loc = m.head if conv.span == "head" and m.head is not None else m.extent
            if loc.kind == "text":
                found.append((m.id, _span(loc), e.type, m.type))
    if conv.values_times == "drop":
        dropped["mentions: values_times=drop"] += sum(len(el.mentions) for el in doc.values) + sum(
            len(el.mentions) for el in doc.timex2s
        )
    else:
        for coll, kind in ((doc.values, "VALUE"), (doc.timex2s, "TIME")):
            for el in coll:
                label = el.type if kind == "VALUE" else "TIME"
                for m in el.mentions:
                    if m.extent.kind == "text":
                        found.append((m.id, _span(m.extent), label, kind))
    if conv.overlaps == "longest":
        keep = _longest_first(found, lambda x: x[1])
        dropped["mentions: overlaps=longest"] += len(found) - len(keep)
        found = [x for i, x in enumerate(found) if i in keep]
    return {mid: (span, label, mtype) for mid, span, label, mtype in found}


def document_events(doc, conv: Convention, mentions: dict, dropped: Counter | None = None) -> list:
    """``[(anchor span, type, [(argument span, role), ...])]`` in document order;
    ``dropped`` counts the event mentions and arguments left out."""
    dropped = Counter() if dropped is None else dropped
    out = []
    for ev in doc.events:
        etype = f"{ev.type}:{ev.subtype}"
        for em in ev.mentions:
            a = em.anchor
            if a.kind != "text":
                continue
            if conv.triggers == "single-token" and any(c.isspace() for c in a.text):
                dropped["event mentions: triggers=single-token"] += 1
                continue
            args = []
            seen: set = set()
            for arg in em.arguments:
                m = mentions.get(arg.refid)
                if m is None:
                    dropped["arguments: their mention left out"] += 1
                    continue
                if conv.roles == "first":
                    if arg.refid in seen:
                        dropped["arguments: roles=first"] += 1
                        continue
                    seen.add(arg.refid)
                role = arg.role
                if conv.time_roles == "collapse" and role.startswith("Time"):
                    role = "Time"
                args.append((m[0], role))
            out.append((_span(a), etype, args))
    if conv.overlaps == "longest":
        keep = _longest_first(out, lambda x: x[0])
        dropped["event mentions: overlaps=longest"] += len(out) - len(keep)
        out = [x for i, x in enumerate(out) if i in keep]
    return out


def _trigger_items(events: list, how: str) -> list:
    if how == "dict":
        d: dict = {}
        for span, etype, _args in sorted(events, key=lambda e: (e[0], e[1], sorted(e[2]))):
            d[span] = etype
        return list(d.items())
    items = [(span, etype) for span, etype, _ in events]
    return sorted(set(items)) if how == "set" else items


def _arg_items(events: list, how: str) -> list:
    if how == "dict":
        types: dict = {}
        roles: dict = {}
        for span, etype, args in sorted(events, key=lambda e: (e[0], e[1], sorted(e[2]))):
            types[span] = etype
            for aspan, role in sorted(args):
                roles[(span, aspan)] = role
        return [(t, types[t], a, r) for (t, a), r in roles.items()]
    # "set": the distinct descriptions are taken where each score builds its keys
    return [(span, etype, aspan, role) for span, etype, args in events for aspan, role in args]


# ---------------------------------------------------------------------------- counting


class _Tally:
    """correct / REF / SYS counts of one score, per label where it has one."""

    def __init__(self):
        self.correct = Counter()
        self.ref = Counter()
        self.sys = Counter()

    def add(self, correct: list, ref: list, sys: list, label_at) -> None:
        for coll, items in ((self.correct, correct), (self.ref, ref), (self.sys, sys)):
            for it in items:
                coll[it[label_at] if label_at is not None else ""] += 1

    def total(self) -> dict:
        return _prf(sum(self.correct.values()), sum(self.ref.values()), sum(self.sys.values()))

    def per_label(self) -> dict:
        labels = sorted(set(self.ref) | set(self.sys))
        return {lab: _prf(self.correct[lab], self.ref[lab], self.sys[lab]) for lab in labels}


def _match(ref: list, sys: list, how: str, distinct: bool) -> tuple:
    """(correct SYS descriptions, REF descriptions, SYS descriptions) of one score, for
    ``one-to-one`` and ``intersection``; ``distinct``: the items were collected as a set."""
    if how == "intersection" or distinct:
        r, s = sorted(set(ref)), sorted(set(sys))
        common = sorted(set(r) & set(s))
        return common, r, s
    common = Counter(ref) & Counter(sys)
    return sorted(common.elements()), ref, sys


def _any_triggers(ref: list, sys: list, classify: bool) -> list:
    """SYS triggers counted correct by the ``any`` rule."""
    first: dict = {}
    for span, etype in sorted(ref, key=lambda t: t[0]):
        first.setdefault(span, etype)
    if not classify:
        return [t for t in sys if t[0] in first]
    return [t for t in sys if first.get(t[0]) == t[1]]


def _any(ref: list, sys: list) -> list:
    keys = set(ref)
    return [x for x in sys if x in keys]


def _score_document(
    tallies: dict, docid: str, ref_ev: list, sys_ev: list, conv: Convention
) -> None:
    how = conv.matching
    rt = _trigger_items(ref_ev, conv.trigger_items)
    st = _trigger_items(sys_ev, conv.trigger_items)
    ra = _arg_items(ref_ev, conv.arg_items)
    sa = _arg_items(sys_ev, conv.arg_items)
    tset = conv.trigger_items != "list"
    aset = conv.arg_items == "set"
    d = (docid,)
    # the description each score compares (label, if any, at the index passed to add)
    tid = lambda t: d + (t[0],)  # noqa: E731
    tcl = lambda t: d + (t[1], t[0])  # noqa: E731  label at 1
    aid = lambda a: d + (a[1], a[2])  # noqa: E731
    acl = lambda a: d + (a[1], a[2], a[3])  # noqa: E731  label (role) at 3
    atid = lambda a: d + (a[0], a[1], a[2])  # noqa: E731
    atcl = lambda a: d + (a[0], a[1], a[2], a[3])  # noqa: E731  label at 4
    if how == "any":
        # OneIE / DyGIE++: each SYS item against any REF item; counts are the items collected
        tallies["trigger_identification"].add(_any_triggers(rt, st, False), rt, st, None)
        tallies["trigger_classification"].add(_any_triggers(rt, st, True), rt, st, 1)
        full = (ra, sa)
        if aset:
            # OneIE's set holds (argument span, type, role): no anchor
            ra = sorted({(None, t, a, r) for _, t, a, r in ra})
            sa = sorted({(None, t, a, r) for _, t, a, r in sa})
        rid = {aid(a) for a in ra}
        tallies["argument_identification"].add([a for a in sa if aid(a) in rid], ra, sa, None)
        rk, sk = [acl(a) for a in ra], [acl(a) for a in sa]
        tallies["argument_classification"].add(_any(rk, sk), rk, sk, 3)
        if conv.attached == "yes":
            ra, sa = full
            if aset:
                ra, sa = sorted(set(ra)), sorted(set(sa))
            rk, sk = [atid(a) for a in ra], [atid(a) for a in sa]
            tallies["argument_attached_identification"].add(_any(rk, sk), rk, sk, None)
            rk, sk = [atcl(a) for a in ra], [atcl(a) for a in sa]
            tallies["argument_attached_classification"].add(_any(rk, sk), rk, sk, 4)
        return
    for task, key, items, distinct, lab in (
        ("trigger_identification", tid, (rt, st), tset, None),
        ("trigger_classification", tcl, (rt, st), tset, 1),
        ("argument_identification", aid, (ra, sa), aset, None),
        ("argument_classification", acl, (ra, sa), aset, 3),
        ("argument_attached_identification", atid, (ra, sa), aset, None),
        ("argument_attached_classification", atcl, (ra, sa), aset, 4),
    ):
        if task.startswith("argument_attached") and conv.attached != "yes":
            continue
        ok, r, s = _match([key(x) for x in items[0]], [key(x) for x in items[1]], how, distinct)
        tallies[task].add(ok, r, s, lab)


def _entity_relation(
    tallies: dict, docid: str, rdoc, sdoc, rment: dict, sment: dict, conv: Convention
) -> None:
    d = (docid,)
    ents = []
    for ments in (rment, sment):
        ents.append([d + (span, label) for span, label, _ in ments.values()])
    rels = []
    for doc, ments in ((rdoc, rment), (sdoc, sment)):
        items = []
        for r in doc.relations if doc is not None else ():
            label = r.type if conv.relation_label == "type" else f"{r.type}:{r.subtype}"
            for m in r.mentions:
                a = {x.role: ments.get(x.refid) for x in m.arguments}
                a1 = a.get("Arg-1") or a.get("Arg")
                a2 = a.get("Arg-2")
                if a2 is None and "Arg" in a:
                    args = [ments.get(x.refid) for x in m.arguments if x.role == "Arg"]
                    a1, a2 = (args + [None, None])[:2]
                if a1 is None or a2 is None:
                    continue
                sym = r.type in SYMMETRIC_RELATIONS or conv.relation_order == "any"
                items.append((a1, a2, label, sym))
        rels.append(items)
    if conv.entity_items != "list":
        ents = [_collect(e, 2, conv.entity_items) for e in ents]
        for k in (0, 1):
            keyed = [((x[0][0], x[1][0]), x) for x in rels[k]]
            if conv.entity_items == "dict":
                last = {}
                for key, x in sorted(keyed, key=lambda kx: (kx[0], kx[1][2])):
                    last[key] = x
                rels[k] = list(last.values())
            else:
                rels[k] = list(dict.fromkeys(rels[k]))
    how = conv.matching
    for task, ref, sys, lab in (
        ("entity_boundary", [e[:2] for e in ents[0]], [e[:2] for e in ents[1]], None),
        ("entity_strict", ents[0], ents[1], 2),
    ):
        if how == "any":
            tallies[task].add(_any(ref, sys), ref, sys, lab)
        else:
            ok, r, s = _match(ref, sys, how, False)
            tallies[task].add(ok, r, s, lab)
    for task, strict in (("relation_boundaries", False), ("relation_strict", True)):

        def key(x, swap=False):
            a1, a2, label, _ = x
            if swap:
                a1, a2 = a2, a1
            if strict:  # noqa: B023 (called in this iteration)
                return d + (label, a1[0], a2[0], a1[1], a2[1])
            return d + (label, a1[0], a2[0])

        ref = [key(x) for x in rels[0]]
        sys = [key(x) for x in rels[1]]
        # a symmetric relation matches in either order: describe it in its sorted order
        ref = [_canon(k, strict) if x[3] else k for k, x in zip(ref, rels[0])]
        sys = [_canon(k, strict) if x[3] else k for k, x in zip(sys, rels[1])]
        if how == "any":
            tallies[task].add(_any(ref, sys), ref, sys, 1)
        else:
            ok, r, s = _match(ref, sys, how, False)
            tallies[task].add(ok, r, s, 1)


def _collect(items: list, label_at: int, how: str) -> list:
    """``set``: distinct items; ``dict``: one per description without its label, in sorted
    order, the last one winning."""
    if how == "set":
        return sorted(set(items))
    last: dict = {}
    for it in sorted(items, key=lambda x: x[:label_at]):
        last[it[:label_at]] = it
    return list(last.values())


def _canon(key: tuple, strict: bool) -> tuple:
    d, label, s1, s2 = key[0], key[1], key[2], key[3]
    if strict:
        t1, t2 = key[4], key[5]
        if (s2, t2) < (s1, t1):
            return (d, label, s2, s1, t2, t1)
        return key
    return (d, label, min(s1, s2), max(s1, s2))


def convention_scores(ref_side, sys_side, conv: Convention, version: str = "") -> dict:
    """Scores of SYS against REF (two :class:`~acescore.rules.database.Side`) under ``conv``.

    Returns ``{"convention", "signature", "rules", "scores": {task: prf}, "per_label":
    {task: {label: prf}}, "macro": {task: {"recall", "precision", "f1"}}, "dropped": {"ref",
    "sys": {what: count}}}`` (what the preprocessing rules left out); every prf has
    ``recall``, ``precision``, ``f1`` (fractions), ``correct``, ``ref``, ``sys``.
    """
    tasks = ()
    if "events" in conv.groups:
        tasks += EVENT_TASKS + (ATTACHED_TASKS if conv.attached == "yes" else ())
    if "entities" in conv.groups:
        tasks += ENTITY_TASKS
    if "relations" in conv.groups:
        tasks += RELATION_TASKS
    every = EVENT_TASKS + ATTACHED_TASKS + ENTITY_TASKS + RELATION_TASKS
    tallies = {t: _Tally() for t in every}
    dropped = {"ref": Counter(), "sys": Counter()}
    for docid in sorted(set(ref_side.documents) | set(sys_side.documents)):
        rdoc = ref_side.documents.get(docid)
        sdoc = sys_side.documents.get(docid)
        rment = document_mentions(rdoc, conv, dropped["ref"]) if rdoc is not None else {}
        sment = document_mentions(sdoc, conv, dropped["sys"]) if sdoc is not None else {}
        if "events" in conv.groups:
            rev = document_events(rdoc, conv, rment, dropped["ref"]) if rdoc is not None else []
            sev = document_events(sdoc, conv, sment, dropped["sys"]) if sdoc is not None else []
            _score_document(tallies, docid, rev, sev, conv)
        _entity_relation(tallies, docid, rdoc, sdoc, rment, sment, conv)
    scores = {t: tallies[t].total() for t in tasks}
    per_label = {}
    macro = {}
    for t in tasks:
        if t not in LABELLED:
            continue
        pl = tallies[t].per_label()
        per_label[t] = pl
        n = len(pl)
        macro[t] = {
            k: (sum(v[k] for v in pl.values()) / n if n else 0.0)
            for k in ("recall", "precision", "f1")
        }
    return {
        "convention": conv.name,
        "title": conv.title,
        "source": conv.source,
        "signature": signature(conv, version),
        "rules": conv.rules(),
        "scores": scores,
        "per_label": per_label,
        "macro": macro,
        "dropped": {k: {w: n for w, n in sorted(v.items()) if n} for k, v in dropped.items()},
    }
