"""Diagnostic outputs of the NIST report: ``-s`` listings, ``-a``/``-e`` mapping listings
(docs/rules/report.md §5.2-§5.4, docs/rules/input.md §1.8) and the ``-c`` duplicate-element warnings
(docs/rules/input.md §4).

Entry points
------------
* :func:`documents_text` -- the REF and TST document lists (``-s``);
* :func:`listing_text` -- the REF or TST element listing of one pass (``-s``);
* :func:`acescore.report.nist.mappings.mapping_text` -- the mapping listing of one pass (``-a`` prints every REF block,
  ``-e`` only the blocks whose print flag is raised; unmapped SYS elements always);
* the ``-c`` warnings live in :mod:`acescore.scoring.duplicates`.

Everything is read from the :class:`~acescore.api.Results` of the run and the pass's
:class:`~acescore.scoring.result.PassResult`; the order of every traversal is the canonical
one of docs/rules/determinism.md (IDs and DOCIDs in code-point order, R31-R32).

Two behaviours of the NIST tool that only show in these listings are imitated:

* mention-level passes: the SYS relation/event argument elements are the promoted
  one-mention elements (their IDs are the argument mention IDs) and the SYS mention-level
  argument mentions carry the suffix `` mention``;
* "phantom" document parts (docs/rules/relations-events.md §12): when the tool matches the arguments of a putative
  relation/event pair it creates, for every SYS argument element that has a pair value with a
  REF argument of the pair (and, where arguments must map, is that argument's mapped element),
  an empty document part in every document of the SYS relation.  Such a part makes the
  ``-a`` document-level argument listing print the SYS argument line (score ``-0.00000``)
  instead of the REF one.  The parts persist from the relation pass into the event pass of
  the same level.
"""

from __future__ import annotations

from operator import attrgetter

from acescore.model.tasks import task as task_of
from acescore.model.text import old_display_text
from acescore.report.counts.old_names import longest_text
from acescore.report.nist.blocks import Blocks
from acescore.scoring.promote import promote_elements

SEPARATOR = "--------\n"

ENTITY_ATTRIBUTES = ("CLASS", "ID", "LEVEL", "SUBTYPE", "TYPE")
VALUE_ATTRIBUTES = ("ID", "SUBTYPE", "TYPE")
TIMEX2_ATTRIBUTES = (
    "ANCHOR_DIR",
    "ANCHOR_VAL",
    "COMMENT",
    "ID",
    "MOD",
    "NON_SPECIFIC",
    "SET",
    "SUBTYPE",
    "TYPE",
    "VAL",
)
RELATION_ATTRIBUTES = ("ID", "MODALITY", "SUBTYPE", "TYPE")
EVENT_ATTRIBUTES = ("GENERICITY", "ID", "MODALITY", "POLARITY", "SUBTYPE", "TENSE", "TYPE")
ATTRIBUTES = {
    "entity": ENTITY_ATTRIBUTES,
    "value": VALUE_ATTRIBUTES,
    "timex2": TIMEX2_ATTRIBUTES,
    "relation": RELATION_ATTRIBUTES,
    "event": EVENT_ATTRIBUTES,
}

ARG_KINDS = ("entity", "value", "timex2")


# ---------------------------------------------------------------------------------------------
# small helpers


def _true(v) -> bool:
    """Perl truthiness of a string (or number)."""
    if v is None:
        return False
    if isinstance(v, str):
        return v != "" and v != "0"
    return bool(v)


def _s(v) -> str:
    return "" if v is None else str(v)


def _num(v) -> float:
    """A Perl number: undefined counts as 0."""
    return 0.0 if v is None else v


def _attr(g, name: str):
    return g.id if name == "ID" else g.attrs.get(name)


def _opt(v) -> str:
    return v if _true(v) else "---"


def _locator_key(m):
    """Sort key of a mention (docs/rules/report.md §5.4): head locator if any, else extent (compare_locators)."""
    loc = getattr(m, "head", None)
    if loc is None:
        loc = m.extent
    if loc.kind != "image":
        return (loc.start,)
    pages: dict = {}
    for b in loc.boxes:
        pages.setdefault(b.page, []).append(b)
    p = min(pages)
    boxes = pages[p]
    return (p, -max(b.yend for b in boxes), min(b.x for b in boxes), max(b.xend for b in boxes))


def _item_key(item):
    """:func:`_locator_key` of a (tag, mention) item."""
    return _locator_key(item[1])


def _sorted_mentions(items: list) -> list:
    """Stable sort of (tag, mention) items by locator (a list of one: itself)."""
    return sorted(items, key=_item_key) if len(items) > 1 else items


def _id_plus_external_ids(g) -> str:
    links = getattr(g, "links", None) or {}
    if not links:
        return g.id
    pairs = sorted(((eid, res) for res, eid in links.items()), key=lambda t: t[0])
    return g.id + " (" + ", ".join(f"{eid} in {res}" for eid, res in pairs) + ")"


def _match_external_links(r, s) -> str | None:
    rl = getattr(r, "links", None) or {}
    sl = (getattr(s, "links", None) or {}) if s is not None else {}
    if rl:
        if not sl:
            return "miss"
    else:
        return "fa" if sl else None
    for res, eid in rl.items():
        if sl.get(res) == eid:
            return "correct"
    return "error"


_LISTED: dict = {}  # attribute names -> those listed after TYPE and SUBTYPE


def _list_element_attributes(g, attributes) -> str:
    """``(TYPE/SUBTYPE/...)``: the element's attributes in ``attributes`` order, ``---``
    for those not true (ID left out)."""
    rest = _LISTED.get(attributes)
    if rest is None:
        rest = _LISTED[attributes] = ("TYPE", "SUBTYPE") + tuple(
            a for a in attributes if a not in ("TYPE", "SUBTYPE", "ID")
        )
    # (v and v != "0": _true(v))
    return "(" + "/".join([v if v and v != "0" else "---" for v in map(g.attrs.get, rest)]) + ")"


def _longest_name(g) -> str:
    best = ""
    for d in sorted(g.docs):
        for n in getattr(g.docs[d], "names", ()) or ():
            if len(n) > len(best):
                best = n
    return best


def _longest_mention(g, which: str) -> str:
    best = ""
    for d in sorted(g.docs):
        for m in g.docs[d].mentions:
            loc = getattr(m, which, None)
            # (a display text is never longer than its raw text, nor than 40 characters)
            if loc is None or min(len(loc.text), 40) <= len(best):
                continue
            t = _shown(loc)
            if t is not None and len(t) > len(best):
                best = t
    return best


def _best_text(g) -> str:
    """``, name="…"`` / ``, head="…"`` / ``, extent="…"`` of an argument element, or ''."""
    for tag, text in (("name", _longest_name(g)), ("head", None), ("extent", None)):
        if text is None:
            text = _longest_mention(g, tag)
        if _true(text):
            return f', {tag}="{text}"'
    return ""


def _shown(loc) -> str | None:
    """``loc.display``, None without a locator."""
    return None if loc is None else loc.display


def _q(text) -> str:
    """Text or ``???`` when it is not true."""
    return text if _true(text) else "???"


# ---------------------------------------------------------------------------------------------
# the context of one pass


class _Ctx:
    """What the listings of one pass need from the run."""

    def __init__(self, results, res):
        self.res = res
        self.run = results.run
        self.params = results.params
        self.mention_level = task_of(res.task).mention_level
        self.eval_docs = self.run.ref.documents
        self._arg_elements: dict = {}
        self._mentions: dict = {}
        # (the argument elements of a side and level are the same in every pass of a run)
        self._best: dict = self.run.__dict__.setdefault("_best_texts", {})

    def best_text(self, side: str, eid: str, g) -> str:
        """:func:`_best_text` of the argument element ``g`` (``eid`` of ``side``), made
        once per run (a REF one for both levels: :meth:`arg_collection`)."""
        key = (self.mention_level and side == "SYS", side, eid)
        t = self._best.get(key)
        if t is None:
            old = self.params.nist != "ace08"
            t = self._best[key] = longest_text(g) if old else _best_text(g)
        return t

    # argument elements ("refs" of the tool) ------------------------------------------------
    def arg_element(self, side: str, eid: str):
        key = (side, eid)
        if key in self._arg_elements:
            return self._arg_elements[key]
        coll = self.arg_collection(side)
        g = coll.get(eid)
        self._arg_elements[key] = g
        return g

    def arg_collection(self, side: str) -> dict:
        """The argument elements of a side by ID."""
        cache_key = ("coll", side)
        if cache_key in self._arg_elements:
            return self._arg_elements[cache_key]
        sd = self.run.ref if side == "REF" else self.run.sys
        coll: dict = {}
        if side == "SYS" and self.mention_level:
            promoted = getattr(self.run, "promoted", None) or {}  # the run's, if kept
            for k in ARG_KINDS:
                prom, _ = promoted.get(("SYS", k)) or promote_elements(sd.of(k))
                coll.update(prom)
        else:
            for k in ARG_KINDS:
                coll.update(sd.of(k))
        self._arg_elements[cache_key] = coll
        return coll

    def args_ctx(self):
        return self.run.mention_args if self.mention_level else self.run.args

    def mention(self, side: str, mid: str):
        """A read mention by ID (entity/value/timex2 mentions), or None."""
        key = (side, mid)
        if key in self._mentions:
            return self._mentions[key]
        sd = self.run.ref if side == "REF" else self.run.sys
        out = None
        info = sd.mentions.get(mid)
        if info is not None:
            kind, eid, d = info
            g = sd.of(kind).get(eid)
            if g is not None and d in g.docs:
                for m in g.docs[d].mentions:
                    if m.id == mid:
                        out = m
                        break
        self._mentions[key] = out
        return out


# ---------------------------------------------------------------------------------------------
# -s: document lists


def documents_text(results) -> str:
    """The REF and TST document lists of ``-s`` (docs/rules/input.md §1.8)."""
    return documents_listing(document_lines(results.run.ref, results.run.sys))


def document_lines(ref, sys) -> tuple[list, list]:
    """The lines of the REF and the TST document list of two Sides, as (DOCID, line), in
    DOCID order."""
    out = []
    for docs in (ref.documents, sys.all_documents or sys.documents):
        out.append(
            [
                (
                    d,
                    f"ID={d}, TYPE={docs[d].data_type}, FILE={docs[d].uri},"
                    f" SOURCE={docs[d].source}\n",
                )
                for d in sorted(docs)
            ]
        )
    return out[0], out[1]


def documents_listing(lines: tuple) -> str:
    """The ``-s`` document lists from :func:`document_lines`."""
    out = []
    for label, items in zip(("REF", "TST"), lines):
        out.append(f"\n======== {label} documents ========\n")
        out.extend(line for _, line in items)
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# -s: element listings


def listing_text(results, res, side: str) -> str:
    """The ``-s`` listing of the REF (``side`` = "REF") or SYS ("SYS"/"TST") elements of one
    pass (docs/rules/report.md §5.2)."""
    return "".join(listing_blocks(results, res, side))


def listing_blocks(results, res, side: str) -> Blocks:
    """:func:`listing_text` as :class:`Blocks` (keyed by element ID)."""
    side = "REF" if side == "REF" else "SYS"
    label = "REF" if side == "REF" else "TST"
    ctx = _Ctx(results, res)
    coll = res.ref if side == "REF" else res.sys
    out = Blocks(f"\n======== {label} {task_of(res.task).listing_label} ========\n")
    if res.kind == "entity":
        _list_entities(out, ctx, side, coll)
    elif res.kind in ("value", "timex2"):
        _list_values(out, ctx, side, coll)
    else:
        _list_releves(out, ctx, side, coll)
    return out


def _list_entities(out, ctx: _Ctx, side, coll):
    res = ctx.res
    value, doc_value = res.value, res.doc_value
    for eid in sorted(coll):
        out.start(eid)
        g = coll[eid]
        a = g.attrs
        v = value.get((side, eid))
        block = [
            "ID=%s, VALUE=%.5f, TYPE=%s, SUBTYPE=%s, LEVEL=%s, CLASS=%s\n"
            % (
                _id_plus_external_ids(g),
                0.0 if v is None else v,
                _s(a.get("TYPE")),
                _s(a.get("SUBTYPE")),
                _s(a.get("LEVEL")),
                _s(a.get("CLASS")),
            )
        ]
        docs = g.docs
        for d in sorted(docs) if len(docs) > 1 else docs:
            x = docs[d]
            v = doc_value.get((side, eid, d))
            block.append("    -- in document %s VALUE=%.5f\n" % (d, 0.0 if v is None else v))
            for n in x.names:
                block.append(f'      name="{n}"\n')
            mentions = x.mentions
            for m in sorted(mentions, key=_locator_key) if len(mentions) > 1 else mentions:
                head, ext = _shown(m.head), _shown(m.extent)
                block.append(
                    '      mention TYPE=%s, ROLE=%s, STYLE=%s, head="%s", extent="%s"\n'
                    % (
                        m.type,
                        m.role,
                        m.style,
                        head if head is not None else "???",
                        ext if ext is not None else "???",
                    )
                )
            # the older versions: located names after the mentions (versions.md §4.8)
            for loc, _ in sorted(x.located_names, key=lambda n: n[0].start):
                text = old_display_text(loc.text) if loc.text else "???"
                block.append(f'      name extent="{text}"\n')
        out.append("".join(block))


def _list_values(out, ctx: _Ctx, side, coll):
    res = ctx.res
    attributes = ATTRIBUTES[res.kind]
    for eid in sorted(coll):
        out.start(eid)
        g = coll[eid]
        line = "ID=%s, VALUE=%.5f, TYPE=%s" % (
            eid,
            _num(res.value.get((side, eid))),
            _s(g.attrs.get("TYPE")),
        )
        for a in attributes:
            if a in ("ID", "TYPE"):
                continue
            v = g.attrs.get(a)
            if _true(v):
                line += f", {a}={v}"
        out.append(line + "\n")
        for d in sorted(g.docs):
            out.append(f"    -- in document {d}\n")
            for _tag, m in _sorted_mentions([(None, m) for m in g.docs[d].mentions]):
                out.append(f'      mention extent="{_q(_shown(m.extent))}"\n')


def _argument_description(ctx: _Ctx, side: str, role: str, aid: str) -> str:
    g = ctx.arg_element(side, aid)
    a = g.attrs if g is not None else {}
    out = "%11.11s (%3.3s/%3.3s/%3.3s/%3.3s): ID=%s" % (
        role,
        _s(a.get("TYPE")),
        _opt(a.get("SUBTYPE")),
        _opt(a.get("LEVEL")),
        _opt(a.get("CLASS")),
        g.id if g is not None else "",
    )
    if g is not None:
        out += ctx.best_text(side, aid, g)
    return out + "\n"


_ROLE_REFID = attrgetter("role", "refid")


def attributes_of(kind: str, params) -> tuple:
    """The attributes of a kind in the listings; the older versions' relations have TENSE."""
    if kind == "relation" and params.nist != "ace08":
        return ("ID", "MODALITY", "SUBTYPE", "TENSE", "TYPE")
    return ATTRIBUTES[kind]


def _list_releves(out, ctx: _Ctx, side, coll):
    res = ctx.res
    attributes = attributes_of(res.kind, ctx.params)
    old = ctx.params.nist != "ace08"
    listed = [at for at in attributes if at not in ("ID", "TYPE", "SUBTYPE")]
    event = res.kind == "event"
    sys_mention_suffix = " mention" if (ctx.mention_level and side == "SYS") else ""
    # argument mention ID -> the end of its line; (role, argument ID) -> its line: made
    # once per run (a REF argument is the same element in the passes of both levels, a
    # SYS one a promoted mention at mention level)
    cache = ctx.run.__dict__.setdefault("_listing_arguments", {})
    tails: dict = cache.setdefault(("tails", side), {})
    described: dict = cache.setdefault(("described", side, side == "SYS" and ctx.mention_level), {})
    for eid in sorted(coll):
        out.start(eid)
        g = coll[eid]
        a = g.attrs
        v = res.value.get((side, eid))
        line = "ID=%s, VALUE=%.5f, TYPE=%s, SUBTYPE=%s" % (
            eid,
            0.0 if v is None else v,
            _s(a.get("TYPE")),
            _s(a.get("SUBTYPE")),
        )
        for at in listed:
            v = a.get(at)
            if v is not None:
                line += f", {at}={v}"
        block = [line, "\n"]
        for key in g.arg_pairs:
            text = described.get(key)
            if text is None:  # an argument of many elements (promoted mentions): once
                text = described[key] = "  " + _argument_description(ctx, side, *key)
            block.append(text)
        docs = g.docs
        for d in sorted(docs) if len(docs) > 1 else docs:  # R32
            block.append(f"      -- in document {d}\n")
            for m in docs[d].mentions:
                line = f"         mention ID={m.id}"
                if event and getattr(m, "anchor", None) is not None:
                    line += f', anchor="{_s(_shown(m.anchor))}"'
                ext = _shown(m.extent)
                if old and _true(ext):
                    ext = old_display_text(m.extent.text)
                block.append(line + (f', extent="{ext}"\n' if _true(ext) else "\n"))
                args = m.arguments
                if len(args) > 1:
                    args = sorted(args, key=_ROLE_REFID)
                seen = set()
                for arg in args:
                    key = (arg.role, arg.refid)
                    if key in seen:
                        continue
                    seen.add(key)
                    tail = tails.get(arg.refid)
                    if tail is None:
                        tail = tails[arg.refid] = _argument_tail(ctx.mention(side, arg.refid))
                    block.append("%21s: ID=%s%s" % (arg.role, arg.refid + sys_mention_suffix, tail))
        out.append("".join(block))


def _argument_tail(am) -> str:
    """The end of a mention's argument line: the argument mention's head or extent."""
    if am is not None:
        if getattr(am, "head", None) is not None:
            return f', head="{_s(_shown(am.head))}"\n'
        if am.extent is not None:
            return f', extent="{_s(_shown(am.extent))}"\n'
    return "\n"


# ---------------------------------------------------------------------------------------------
# -a/-e: the phantom document parts of relation/event argument matching


def _phantom_parts(ctx: _Ctx) -> set:
    """The empty SYS argument document parts the tool creates while matching arguments
    (docs/rules/relations-events.md §12), accumulated over the relation/event passes of this level up to this one:
    (b, every document of s) for every SYS argument b of a SYS element s that shares an
    evaluated document with a REF element r one of whose arguments a has a pair value
    with b (and, where arguments must map, is mapped to b)."""
    run = ctx.run
    level = ctx.mention_level
    args = ctx.args_ctx()
    if args is None:
        return set()
    allow_wrong = True if level else bool(ctx.params.allow_wrong_mapping)
    mapping = args.mapping if not level else {}
    # SYS argument b -> REF arguments a with a pair (the same for every pass of a level)
    cache = run.__dict__.setdefault("_phantom_partners", {})
    partners = cache.get((level, id(args)))
    if partners is None:
        partners = cache[(level, id(args))] = {}
        for a, b, _d in args.pair_value:
            if allow_wrong or mapping.get(a) == b:
                partners.setdefault(b, set()).add(a)
    eval_docs = run.ref.documents
    out: set = set()
    done = run.__dict__.setdefault("_phantoms_of_pass", {})  # each pass's, made once
    for p in run.releve_passes:
        if task_of(p.task).mention_level != level:
            continue
        mine = done.get((level, id(args), id(p)))
        if mine is None:
            mine = done[(level, id(args), id(p))] = _pass_phantoms(p, eval_docs, partners)
        out |= mine
        if p is ctx.res:
            break
    return out


def _pass_phantoms(p, eval_docs, partners: dict) -> set:
    """The phantom document parts that the matching of one relation/event pass creates
    (see :func:`_phantom_parts`)."""
    out: set = set()
    ref_args: dict = {}  # evaluated document -> its REF elements' arguments
    for g in p.ref.values():
        for d in g.docs:
            if d in eval_docs and g.arg_pairs:
                ref_args.setdefault(d, set()).update(a for _r, a in g.arg_pairs)
    for s in p.sys.values():
        near = [ref_args[d] for d in s.docs if d in ref_args]
        if not near:
            continue
        for _tr, b in s.arg_pairs:
            mine = partners.get(b)
            if mine and any(not mine.isdisjoint(x) for x in near):
                out.update((b, sd) for sd in s.docs)
    return out
