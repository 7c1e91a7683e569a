"""APF documents <-> the token-level view (:class:`acescore.formats.tokens.TokDoc`).

What the JSON formats carry (and so what a round trip APF -> format -> APF keeps): every
entity mention with one span (its head, or its extent with ``span="extent"``), its entity
TYPE, SUBTYPE (OneIE, TextEE), mention TYPE (OneIE, TextEE) and its entity (coreference:
DyGIE++ ``clusters``; OneIE/TextEE through the mention ID ``ENTITY-n``); value and timex2
mentions (extent; value TYPE); every event mention with its anchor, TYPE:SUBTYPE and its
arguments (role, mention); every relation mention with TYPE (SUBTYPE) and its Arg-1 and
Arg-2.  Not carried: extents besides the one span, event and relation attributes, event
coreference, names, external links, relation time arguments.

Importing: mentions become APF elements with head = extent = the span (an event mention's
extent and a relation mention's: from its first to its last character); an entity mention
without SUBTYPE gets the first SUBTYPE of its TYPE, without mention TYPE ``NAM``, without
entity ``SPC``; each event mention is an event of its own (GENERICITY Specific, MODALITY
Asserted, POLARITY Positive, TENSE Unspecified).
"""

from __future__ import annotations

from dataclasses import field

from acescore.formats.tokens import TokDoc, align, tokenize, windows
from acescore.model.apf import (
    Argument,
    Document,
    Entity,
    EntityMention,
    Event,
    EventMention,
    Locator,
    Relation,
    RelationMention,
    SimpleMention,
    Timex2,
    Value,
)
from acescore.model.params import (
    ENTITY_SUBTYPES,
    EVENT_ROLES,
    EVENT_SUBTYPES,
    RELATION_SUBTYPES,
    VALUE_SUBTYPES,
)
from acescore.model.records import dataclass
from acescore.reading.as_written import written

EXAMPLES = 5


@dataclass
class ImportReport:
    """What an import kept and dropped; ``dropped``: reason -> count, ``examples``: reason ->
    the first few items."""

    documents: int = 0
    mentions: int = 0
    events: int = 0
    arguments: int = 0
    relations: int = 0
    misaligned_tokens: int = 0
    dropped: dict = field(default_factory=dict)
    examples: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)

    def drop(self, reason: str, example: str) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < EXAMPLES:
            ex.append(example)

    def note(self, what: str) -> None:
        self.notes[what] = self.notes.get(what, 0) + 1

    def text(self) -> str:
        out = [
            f"imported {self.documents} documents: {self.mentions} mentions, {self.events}"
            f" event mentions, {self.arguments} arguments, {self.relations} relation"
            f" mentions; {self.misaligned_tokens} tokens misaligned"
        ]
        for reason in sorted(self.dropped):
            out.append(
                f"dropped {self.dropped[reason]} {reason}, first: "
                + "; ".join(self.examples[reason])
            )
        for what in sorted(self.notes):
            out.append(f"{self.notes[what]} {what}")
        return "\n".join(out) + "\n"


# ------------------------------------------------------------------------ APF -> tokens


def apf_to_tokdoc(
    doc, text: str, span: str = "head", report: ImportReport | None = None, others=()
) -> TokDoc:
    """The token-level view of an APF document over its source ``text``.  A mention or
    anchor that is not text, or whose span does not start and end on a token even with its
    white space trimmed, is left out and counted in ``report`` (with what uses it).
    ``others``: APF documents of the same source (e.g. the SYS of this REF) whose bounds
    the tokens and windows respect too, so that both sides are written on the same tokens
    and windows (as a codebase's scorer expects)."""
    report = report if report is not None else ImportReport()
    ments, evs = _items(doc, span)
    cuts, elements = _bounds(doc, text, ments, evs)
    for other in others:
        c, e = _bounds(other, text, *_items(other, span))
        cuts |= c
        elements += e
    toks: list = []
    out = TokDoc(doc.docid, path=doc.path or None)
    cuts = sorted(cuts)
    for ws, we in windows(text, elements):
        wt = tokenize(text, ws, we, cuts)
        if wt:
            out.windows.append([text[s:e] for s, e in wt])
            toks.extend(wt)
    out.offsets = toks
    first = {s: i for i, (s, _) in enumerate(toks)}
    last = {e - 1: i + 1 for i, (_, e) in enumerate(toks)}

    def tok(loc, what, ident):
        sp = _trimmed(text, loc)
        se = (first.get(sp[0]), last.get(sp[1])) if sp is not None else (None, None)
        if None in se:
            report.drop(f"{what} not on token bounds (left out)", f"{doc.docid} {ident}")
            return None
        return se, text[sp[0] : sp[1] + 1]

    index = {}
    for mid, loc, label, mtype, kind, sub, ent in ments:
        t = tok(loc, "mentions", mid)
        if t is None:
            continue
        index[mid] = len(out.mentions)
        out.mentions.append(
            {
                "id": mid,
                "start": t[0][0],
                "end": t[0][1],
                "label": label,
                "mtype": mtype,
                "kind": kind,
                "subtype": sub,
                "entity": ent,
                "text": t[1],
            }
        )
    for mid, loc, etype, arguments in evs:
        t = tok(loc, "event mentions", mid)
        if t is None:
            continue
        args = []
        for a in arguments:
            if a.refid in index:
                args.append((index[a.refid], a.role))
            else:
                report.drop(
                    "event arguments whose mention was left out", f"{doc.docid} {mid} {a.role}"
                )
        out.events.append(
            {"id": mid, "start": t[0][0], "end": t[0][1], "type": etype, "args": args, "text": t[1]}
        )
    for r in doc.relations:
        for rm in r.mentions:
            a = [
                index.get(x.refid)
                for x in sorted(rm.arguments, key=lambda x: x.role)
                if x.role in ("Arg-1", "Arg-2", "Arg")
            ]
            if len(a) == 2 and None not in a:
                out.relations.append(
                    {"id": rm.id, "args": tuple(a), "type": r.type, "subtype": r.subtype}
                )
            else:
                report.drop("relation mentions whose argument was left out", f"{doc.docid} {rm.id}")
    return out


def _items(doc, span: str) -> tuple:
    """(mentions, event mentions) of an APF document as the formats write them."""
    ments = []  # (id, locator, label, mtype, kind, subtype, element id)
    for e in doc.entities:
        for m in e.mentions:
            loc = m.head if span == "head" else m.extent
            ments.append((m.id, loc, e.type, m.type, "entity", e.subtype, e.id))
    for v in doc.values:
        for m in v.mentions:
            ments.append((m.id, m.extent, v.type, "VALUE", "value", v.subtype, v.id))
    for t in doc.timex2s:
        for m in t.mentions:
            ments.append((m.id, m.extent, "TIME", "TIME", "timex2", None, t.id))
    evs = [
        (em.id, em.anchor, f"{ev.type}:{ev.subtype}", em.arguments)
        for ev in doc.events
        for em in ev.mentions
    ]
    return ments, evs


def _bounds(doc, text: str, ments: list, evs: list) -> tuple:
    """(token cuts, spans no window may cut) of one document."""
    spans = [_trimmed(text, x[1]) for x in ments + evs]
    spans = [sp for sp in spans if sp is not None]
    return {s for s, _ in spans} | {e + 1 for _, e in spans}, _elements(doc, ments, evs, text)


def _trimmed(text: str, loc):
    """Inclusive ``(start, end)`` of a text locator without its outer white space."""
    if loc.kind != "text":
        return None
    s, e = int(loc.start), int(loc.end)
    while s <= e and s < len(text) and text[s].isspace():
        s += 1
    while e >= s and e < len(text) and text[e].isspace():
        e -= 1
    return (s, e) if s <= e else None


def _elements(doc, ments, evs, text) -> list:
    """Spans no window may cut: every mention, every event mention with its arguments,
    every relation mention's two arguments."""
    where = {}
    for x in ments:
        sp = _trimmed(text, x[1])
        if sp is not None:
            where[x[0]] = sp
    out = list(where.values())
    for _, loc, _, arguments in evs:
        pts = [
            p
            for p in [_trimmed(text, loc)] + [where.get(a.refid) for a in arguments]
            if p is not None
        ]
        if pts:
            out.append((min(p[0] for p in pts), max(p[1] for p in pts)))
    for r in doc.relations:
        for rm in r.mentions:
            pts = [where[a.refid] for a in rm.arguments if a.refid in where]
            if pts:
                out.append((min(p[0] for p in pts), max(p[1] for p in pts)))
    return out


# ------------------------------------------------------------------------ tokens -> APF


def _split_type(label: str) -> tuple:
    for sep in (":", "."):
        if sep in label:
            a, b = label.split(sep, 1)
            return a, b
    return label, None


def tokdoc_to_document(
    td: TokDoc,
    text: str,
    source: str,
    uri: str,
    report: ImportReport,
    argument_type: str | None = None,
) -> Document:
    """An APF document from the token-level view, its tokens aligned to ``text``.
    ``argument_type``: an event argument whose span is no mention of the document becomes an
    entity mention of this TYPE (default: it is dropped and reported)."""
    b = _Builder(td, text, report, argument_type)
    b.mentions()
    b.events()
    b.relations()
    report.documents += 1
    return b.document(source, uri)


class _Builder:
    """APF elements of one imported document, with the report of what was dropped."""

    def __init__(self, td: TokDoc, text: str, report: ImportReport, argument_type):
        self.td, self.text, self.report = td, text, report
        self.d = td.docid
        self.offs = align(text, td.windows)
        report.misaligned_tokens += sum(1 for o in self.offs if o is None)
        self.argument_type = argument_type
        self.entities: dict = {}  # entity key -> [type, subtype, [EntityMention]]
        self.values: dict = {}
        self.timexes: dict = {}
        self.ids: dict = {}  # mention index -> (APF mention id, element id)
        self.extents: dict = {}  # APF mention id -> Locator
        self.event_list: list = []
        self.relation_list: list = []
        self.numbers: dict = {"E": {}, "V": {}, "T": {}}  # kind -> {key: number}

    def chars(self, m: dict, what: str):
        s, e = m.get("start"), m.get("end")
        if not isinstance(s, int) or not isinstance(e, int) or not 0 <= s < e <= len(self.offs):
            self.report.drop(f"{what} with bad token indices", f"{self.d} {s}-{e}")
            return None
        a, b = self.offs[s], self.offs[e - 1]
        if a is None or b is None:
            self.report.drop(
                f"{what} on misaligned tokens", f"{self.d} tokens {s}-{e} {m.get('text', '')!r}"
            )
            return None
        return a[0], b[1] - 1

    def number(self, kind: str, key) -> int:
        """The number of the entity (``kind`` E), value (V) or timex2 (T) ``key``: 1, 2 ...
        in order of first appearance, its position in ``self.entities`` (...), kept in a
        dict (list.index made the import quadratic)."""
        numbers = self.numbers[kind]
        n = numbers.get(key)
        if n is None:
            n = numbers[key] = len(numbers) + 1
        return n

    def loc(self, sp) -> Locator:
        return Locator("text", sp[0], sp[1], written(self.text[sp[0] : sp[1] + 1]))

    def mentions(self) -> None:
        for i, m in enumerate(self.td.mentions):
            sp = self.chars(m, "mention")
            if sp is not None:
                self.add_mention(i, m, sp)

    def add_mention(self, i, m: dict, sp) -> bool:
        loc = self.loc(sp)
        label, kind = m.get("label"), m.get("kind") or "entity"
        key = m.get("entity") or f"m{i}"
        rep, d = self.report, self.d
        if kind == "entity":
            if label not in ENTITY_SUBTYPES:
                rep.drop("mentions of unknown entity TYPE", f"{d} {label!r}")
                return False
            sub = m.get("subtype")
            if sub not in ENTITY_SUBTYPES[label]:
                sub = ENTITY_SUBTYPES[label][0]
                rep.note("entity mentions without SUBTYPE (written as the first of the TYPE)")
            mtype = m.get("mtype")
            if mtype not in ("NAM", "NOM", "PRO"):
                mtype = "NAM"
                rep.note("entity mentions without mention TYPE (written NAM)")
            ent = self.entities.setdefault(key, [label, sub, []])
            eid = f"{d}-E{self.number('E', key)}"
            mid = f"{eid}-{len(ent[2]) + 1}"
            ent[2].append(EntityMention(mid, mtype, label, "LITERAL", loc, loc))
        elif kind == "value":
            if label not in VALUE_SUBTYPES:
                rep.drop("mentions of unknown value TYPE", f"{d} {label!r}")
                return False
            sub = m.get("subtype")
            if VALUE_SUBTYPES[label] and sub not in VALUE_SUBTYPES[label]:
                sub = VALUE_SUBTYPES[label][0]
                rep.note("value mentions without SUBTYPE (written as the first of the TYPE)")
            elif not VALUE_SUBTYPES[label]:
                sub = None
            val = self.values.setdefault(key, [label, sub, []])
            eid = f"{d}-V{self.number('V', key)}"
            mid = f"{eid}-{len(val[2]) + 1}"
            val[2].append(SimpleMention(mid, loc))
        else:
            tx = self.timexes.setdefault(key, [])
            eid = f"{d}-T{self.number('T', key)}"
            mid = f"{eid}-{len(tx) + 1}"
            tx.append(SimpleMention(mid, loc))
        self.ids[i] = (mid, eid)
        self.extents[mid] = loc
        rep.mentions += 1
        return True

    def argument(self, mi, role: str):
        """(mention id, element id) of an event argument, or None (reported)."""
        if isinstance(mi, tuple) and self.argument_type is not None:
            # a span that is no mention: a new entity mention of the given TYPE
            key = ("arg",) + mi
            if key not in self.ids:
                m = {
                    "start": mi[0],
                    "end": mi[1],
                    "label": self.argument_type,
                    "kind": "entity",
                    "entity": None,
                }
                sp = self.chars(m, "argument mention")
                if sp is None or not self.add_mention(key, m, sp):
                    return None
                self.report.note(
                    f"argument spans without a mention (written as"
                    f" {self.argument_type} entity mentions)"
                )
            return self.ids[key]
        if mi not in self.ids:
            self.report.drop(
                "event arguments whose mention was dropped or is missing", f"{self.d} {role}"
            )
            return None
        return self.ids[mi]

    def events(self) -> None:
        rep, d = self.report, self.d
        for ev in self.td.events:
            sp = self.chars(ev, "event mention")
            if sp is None:
                for _, role in ev.get("args", []):
                    rep.drop("event arguments of a dropped event mention", f"{d} {role}")
                continue
            etype, sub = _split_type(ev.get("type") or "")
            if sub not in EVENT_SUBTYPES.get(etype, ()):
                rep.drop("event mentions of unknown TYPE:SUBTYPE", f"{d} {ev.get('type')!r}")
                continue
            args, eargs = [], []
            for mi, role in ev.get("args", []):
                if role not in EVENT_ROLES:
                    rep.drop("event arguments of unknown role", f"{d} {role!r}")
                    continue
                ids = self.argument(mi, role)
                if ids is None:
                    continue
                args.append(Argument(role, ids[0]))
                if (role, ids[1]) not in eargs:
                    eargs.append((role, ids[1]))
            evid = f"{d}-EV{len(self.event_list) + 1}"
            anchor = self.loc(sp)
            locs = [anchor] + [self.extents[a.refid] for a in args]
            extent = self.loc((min(x.start for x in locs), max(x.end for x in locs)))
            em = EventMention(f"{evid}-1", extent, anchor, tuple(args))
            self.event_list.append(
                Event(
                    evid,
                    etype,
                    sub,
                    "Specific",
                    "Asserted",
                    "Positive",
                    "Unspecified",
                    tuple(Argument(r, e) for r, e in eargs),
                    (em,),
                )
            )
            rep.events += 1
            rep.arguments += len(args)

    def relations(self) -> None:
        rep, d = self.report, self.d
        for rel in self.td.relations:
            i, j = rel["args"]
            rtype, sub = rel.get("type"), rel.get("subtype")
            if sub is None:
                rtype, sub = _split_type(rtype or "")
            if i not in self.ids or j not in self.ids:
                rep.drop(
                    "relation mentions whose argument was dropped or is missing", f"{d} {rtype}"
                )
                continue
            known = RELATION_SUBTYPES.get(rtype)
            if known is None or (sub is not None and known and sub not in known):
                rep.drop("relation mentions of unknown TYPE/SUBTYPE", f"{d} {rtype} {sub}")
                continue
            if sub is None and known:
                sub = known[0]
                rep.note("relation mentions without SUBTYPE (written as the first of the TYPE)")
            (m1, e1), (m2, e2) = self.ids[i], self.ids[j]
            if e1 == e2:  # validate refuses it (and the NIST tool stops on it)
                rep.drop("relation mentions whose Arg-1 and Arg-2 are one entity", f"{d} {rtype}")
                continue
            a, b = self.extents[m1], self.extents[m2]
            ext = self.loc((min(a.start, b.start), max(a.end, b.end)))
            rid = f"{d}-R{len(self.relation_list) + 1}"
            rm = RelationMention(f"{rid}-1", ext, (Argument("Arg-1", m1), Argument("Arg-2", m2)))
            self.relation_list.append(
                Relation(
                    rid,
                    rtype,
                    sub or "",
                    "Unspecified",
                    (Argument("Arg-1", e1), Argument("Arg-2", e2)),
                    (rm,),
                )
            )
            rep.relations += 1

    def document(self, source: str, uri: str) -> Document:
        d = self.d
        ents = tuple(
            Entity(f"{d}-E{n}", t, s, "SPC", tuple(ms), (), "NAM")
            for n, (t, s, ms) in enumerate(self.entities.values(), 1)
        )
        vals = tuple(
            Value(f"{d}-V{n}", t, s, tuple(ms))
            for n, (t, s, ms) in enumerate(self.values.values(), 1)
        )
        txs = tuple(
            Timex2(f"{d}-T{n}", (), tuple(ms)) for n, ms in enumerate(self.timexes.values(), 1)
        )
        return Document(
            d,
            source,
            uri,
            "text",
            "",
            entities=ents,
            values=vals,
            timex2s=txs,
            relations=tuple(self.relation_list),
            events=tuple(self.event_list),
        )
