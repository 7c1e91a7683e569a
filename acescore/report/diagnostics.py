"""Diagnostic outputs of the NIST report: ``-s`` listings, ``-a``/``-e`` mapping listings
(04-report.md §5.2-§5.4, 01-input.md §1.8) and the ``-c`` duplicate-element warnings
(01-input.md §4).

Entry points
------------
* :func:`documents_text` -- the REF and TST document lists (``-s``);
* :func:`listing_text` -- the REF or TST element listing of one pass (``-s``);
* :func:`mapping_text` -- the mapping listing of one pass (``-a`` prints every REF block,
  ``-e`` only the blocks whose print flag is raised; unmapped SYS elements always);
* :func:`duplicate_warnings` -- the ``equivalent ... elements`` warnings of one valuation.

Everything is read from the :class:`~acescore.api.Results` of the run and the pass's
:class:`~acescore.scoring.result.PassResult`; the order of every traversal is the canonical
one of 05-determinism.md (IDs and DOCIDs in code-point order, R31-R32).

Two behaviours of the NIST tool that only show in these listings are imitated:

* mention-level passes: the SYS relation/event argument elements are the promoted
  one-mention elements (their IDs are the argument mention IDs) and the SYS mention-level
  argument mentions carry the suffix `` mention``;
* "phantom" document parts (03 §12): when the tool matches the arguments of a putative
  relation/event pair it creates, for every SYS argument element that has a pair value with a
  REF argument of the pair (and, where arguments must map, is that argument's mapped element),
  an empty document part in every document of the SYS relation.  Such a part makes the
  ``-a`` document-level argument listing print the SYS argument line (score ``-0.00000``)
  instead of the REF one.  The parts persist from the relation pass into the event pass of
  the same level.
"""
from __future__ import annotations

from typing import Iterable, Optional

from acescore.params import EPSILON
from acescore.scoring.spans import extent_mismatch

SEPARATOR = "--------\n"

ENTITY_ATTRIBUTES = ("CLASS", "ID", "LEVEL", "SUBTYPE", "TYPE")
VALUE_ATTRIBUTES = ("ID", "SUBTYPE", "TYPE")
TIMEX2_ATTRIBUTES = ("ANCHOR_DIR", "ANCHOR_VAL", "COMMENT", "ID", "MOD", "NON_SPECIFIC", "SET",
                     "SUBTYPE", "TYPE", "VAL")
RELATION_ATTRIBUTES = ("ID", "MODALITY", "SUBTYPE", "TYPE")
EVENT_ATTRIBUTES = ("GENERICITY", "ID", "MODALITY", "POLARITY", "SUBTYPE", "TENSE", "TYPE")
ATTRIBUTES = {"entity": ENTITY_ATTRIBUTES, "value": VALUE_ATTRIBUTES,
              "timex2": TIMEX2_ATTRIBUTES, "relation": RELATION_ATTRIBUTES,
              "event": EVENT_ATTRIBUTES}

# listing labels of the ``-s`` banners (relations and events: one more space, so that the
# banner has two spaces before ========)
LISTING_LABELS = {"entity": "entities", "value": "values", "timex2": "timexs",
                  "relation": "relations ", "event": "events ",
                  "mention_entity": "mention_entities", "mention_relation": "mention_relations ",
                  "mention_event": "mention_events "}
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
    """Sort key of a mention (04 §5.4): head locator if any, else extent (compare_locators)."""
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


def _sorted_mentions(items):
    """Stable sort of (tag, mention) items by locator."""
    return sorted(items, key=lambda it: _locator_key(it[1]))


def _id_plus_external_ids(g) -> str:
    links = getattr(g, "links", None) or {}
    if not links:
        return g.id
    pairs = sorted(((eid, res) for res, eid in links.items()), key=lambda t: t[0])
    return g.id + " (" + ", ".join(f"{eid} in {res}" for eid, res in pairs) + ")"


def _match_external_links(r, s) -> Optional[str]:
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


def _list_element_attributes(g, attributes) -> str:
    out = "(" + _opt(g.attrs.get("TYPE")) + "/" + _opt(g.attrs.get("SUBTYPE"))
    for a in attributes:
        if a in ("TYPE", "SUBTYPE", "ID"):
            continue
        out += "/" + _opt(_attr(g, a))
    return out + ")"


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
            if loc is None:
                continue
            t = loc.display
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


def _loc_text(loc) -> Optional[str]:
    return None if loc is None else loc.display


def _q(text) -> str:
    """Text or ``???`` when it is not true."""
    return text if _true(text) else "???"


def _perl_str(x) -> str:
    """Perl's stringification of a number (15 significant digits)."""
    if x is None:
        return ""
    if isinstance(x, int):
        return str(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    return "%.15g" % x


# ---------------------------------------------------------------------------------------------
# the context of one pass


class _Ctx:
    """What the listings of one pass need from the run."""

    def __init__(self, results, res):
        self.res = res
        self.run = results.run
        self.params = results.params
        self.mention_level = res.task.startswith("mention_")
        self.eval_docs = self.run.ref.documents
        self._arg_elements: dict = {}
        self._mentions: dict = {}

    # argument elements ("refs" of the tool) ------------------------------------------------
    def arg_element(self, side: str, eid: str):
        key = (side, eid)
        if key in self._arg_elements:
            return self._arg_elements[key]
        coll = self._arg_collection(side)
        g = coll.get(eid)
        self._arg_elements[key] = g
        return g

    def _arg_collection(self, side: str) -> dict:
        cache_key = ("coll", side)
        if cache_key in self._arg_elements:
            return self._arg_elements[cache_key]
        sd = self.run.ref if side == "REF" else self.run.sys
        coll: dict = {}
        if side == "SYS" and self.mention_level:
            from acescore.scoring.promote import promote_elements
            for k in ARG_KINDS:
                prom, _ = promote_elements(sd.of(k))
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
    """The REF and TST document lists of ``-s`` (01 §1.8)."""
    out = []
    for label, docs in (("REF", results.run.ref.documents),
                        ("TST", results.run.sys.all_documents or results.run.sys.documents)):
        out.append(f"\n======== {label} documents ========\n")
        for d in sorted(docs):
            doc = docs[d]
            out.append(f"ID={d}, TYPE={doc.data_type}, FILE={doc.uri}, SOURCE={doc.source}\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# -s: element listings


def listing_text(results, res, side: str) -> str:
    """The ``-s`` listing of the REF (``side`` = "REF") or SYS ("SYS"/"TST") elements of one
    pass (04 §5.2)."""
    side = "REF" if side == "REF" else "SYS"
    label = "REF" if side == "REF" else "TST"
    ctx = _Ctx(results, res)
    coll = res.ref if side == "REF" else res.sys
    out = [f"\n======== {label} {LISTING_LABELS[res.task]} ========\n"]
    if res.kind == "entity":
        _list_entities(out, res, side, coll)
    elif res.kind in ("value", "timex2"):
        _list_values(out, res, side, coll)
    else:
        _list_releves(out, ctx, side, coll)
    return "".join(out)


def _list_entities(out, res, side, coll):
    for eid in sorted(coll):
        g = coll[eid]
        a = g.attrs
        out.append("ID=%s, VALUE=%.5f, TYPE=%s, SUBTYPE=%s, LEVEL=%s, CLASS=%s\n"
                   % (_id_plus_external_ids(g), _num(res.value.get((side, eid))),
                      _s(a.get("TYPE")), _s(a.get("SUBTYPE")), _s(a.get("LEVEL")),
                      _s(a.get("CLASS"))))
        for d in sorted(g.docs):
            x = g.docs[d]
            out.append("    -- in document %s VALUE=%.5f\n"
                       % (d, _num(res.doc_value.get((side, eid, d)))))
            for n in x.names:
                out.append(f'      name="{n}"\n')
            for _tag, m in _sorted_mentions([(None, m) for m in x.mentions]):
                head = _loc_text(m.head)
                ext = _loc_text(m.extent)
                out.append(f"      mention TYPE={m.type}, ROLE={m.role}, STYLE={m.style}, "
                           f'head="{head if head is not None else "???"}", '
                           f'extent="{ext if ext is not None else "???"}"\n')


def _list_values(out, res, side, coll):
    attributes = ATTRIBUTES[res.kind]
    for eid in sorted(coll):
        g = coll[eid]
        line = "ID=%s, VALUE=%.5f, TYPE=%s" % (eid, _num(res.value.get((side, eid))),
                                               _s(g.attrs.get("TYPE")))
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
                out.append(f'      mention extent="{_q(_loc_text(m.extent))}"\n')


def _argument_description(ctx: _Ctx, side: str, role: str, aid: str) -> str:
    g = ctx.arg_element(side, aid)
    a = g.attrs if g is not None else {}
    out = "%11.11s (%3.3s/%3.3s/%3.3s/%3.3s): ID=%s" % (
        role, _s(a.get("TYPE")), _opt(a.get("SUBTYPE")), _opt(a.get("LEVEL")),
        _opt(a.get("CLASS")), g.id if g is not None else "")
    if g is not None:
        out += _best_text(g)
    return out + "\n"


def _list_releves(out, ctx: _Ctx, side, coll):
    res = ctx.res
    attributes = ATTRIBUTES[res.kind]
    event = res.kind == "event"
    sys_mention_suffix = " mention" if (ctx.mention_level and side == "SYS") else ""
    for eid in sorted(coll):
        g = coll[eid]
        a = g.attrs
        line = "ID=%s, VALUE=%.5f, TYPE=%s, SUBTYPE=%s" % (
            eid, _num(res.value.get((side, eid))), _s(a.get("TYPE")), _s(a.get("SUBTYPE")))
        for at in attributes:
            if at in ("ID", "TYPE", "SUBTYPE"):
                continue
            v = a.get(at)
            if v is not None:
                line += f", {at}={v}"
        out.append(line + "\n")
        for role, aid in g.arg_pairs:
            out.append("  " + _argument_description(ctx, side, role, aid))
        for d in sorted(g.docs):                                      # R32
            out.append(f"      -- in document {d}\n")
            for m in g.docs[d].mentions:
                line = f"         mention ID={m.id}"
                if event and getattr(m, "anchor", None) is not None:
                    line += f', anchor="{_s(_loc_text(m.anchor))}"'
                ext = _loc_text(m.extent)
                line += f', extent="{ext}"\n' if _true(ext) else "\n"
                out.append(line)
                seen = set()
                for arg in sorted(m.arguments, key=lambda x: (x.role, x.refid)):
                    if (arg.role, arg.refid) in seen:
                        continue
                    seen.add((arg.role, arg.refid))
                    am = ctx.mention(side, arg.refid)
                    tail = "\n"
                    if am is not None:
                        if getattr(am, "head", None) is not None:
                            tail = f', head="{_s(_loc_text(am.head))}"\n'
                        elif am.extent is not None:
                            tail = f', extent="{_s(_loc_text(am.extent))}"\n'
                    out.append("%21s: ID=%s%s" % (arg.role, arg.refid + sys_mention_suffix, tail))


# ---------------------------------------------------------------------------------------------
# -a / -e: mapping listings


def mapping_text(results, res, all_blocks: bool) -> str:
    """The ``-a`` (``all_blocks``) or ``-e`` mapping listing of one pass (04 §5.3)."""
    ctx = _Ctx(results, res)
    out = [f"\n======== {res.task} mapping ========\n"]
    if res.kind == "entity":
        _entity_mapping(out, ctx, all_blocks)
    elif res.kind in ("value", "timex2"):
        _value_mapping(out, ctx, all_blocks)
    else:
        _releve_mapping(out, ctx, all_blocks)
    return "".join(out)


class _Flag:
    """The tool's print flag of one REF block."""
    __slots__ = ("on",)

    def __init__(self, on: bool):
        self.on = on


# ---- entities ---------------------------------------------------------------------------------


def _flush_block(out: list, block: list, flag, ctx, r, s, details) -> None:
    """Close the mapping block of REF element ``r`` (and its SYS partner ``s``, or None):
    ``details(docid)`` for every evaluated document of either, in DOCID order; the block
    is printed only if something in it was flagged."""
    docs = set(r.docs) | (set(s.docs) if s is not None else set())
    for d in sorted(docs):
        if d in ctx.eval_docs:
            block.append(details(d))
    if flag.on:
        out.extend(block)
        out.append(SEPARATOR)


def _entity_mapping(out, ctx: _Ctx, all_blocks: bool):
    res = ctx.res
    for rid in sorted(res.ref):
        flag = _Flag(all_blocks)
        r = res.ref[rid]
        sid = res.mapping.get(rid)
        s = res.sys[sid] if sid is not None else None
        block = []
        rattrs = _list_element_attributes(r, ENTITY_ATTRIBUTES)
        if s is not None:
            err = ""
            for a in ("TYPE", "SUBTYPE", "CLASS", "LEVEL"):
                if _s(r.attrs.get(a)) != _s(s.attrs.get(a)):
                    err += ("/" if err else "") + a
            if err:
                err = f" -- ENTITY {err} MISMATCH"
            ext = _match_external_links(r, s)
            if ext and ext != "correct":
                err += ", EXTERNAL ID MISMATCH"
            if err:
                flag.on = True
            tag = ">>> " if err else "    "
            block.append(f"{tag}ref entity {_id_plus_external_ids(r)} {rattrs}{err}\n")
            block.append(f"{tag}tst entity {_id_plus_external_ids(s)} "
                         f"{_list_element_attributes(s, ENTITY_ATTRIBUTES)}{err}\n")
            block.append("      entity score:  %.5f out of %.5f\n"
                         % (_num(res.pair_value.get((rid, sid))), _num(res.value.get(("REF", rid)))))
        else:
            flag.on = True
            block.append(f">>> ref entity {_id_plus_external_ids(r)} {rattrs}"
                         " -- NO MATCHING TST ENTITY\n")
            block.append("      entity score:  0.00000 out of %.5f\n"
                         % _num(res.value.get(("REF", rid))))
        _flush_block(out, block, flag, ctx, r, s,
                     lambda d: _entity_details(ctx, flag, rid, sid, d))
    for sid in sorted(res.sys):
        if sid in res.rmapping:
            continue
        s = res.sys[sid]
        flag = _Flag(True)
        out.append(f">>> tst entity {_id_plus_external_ids(s)} "
                   f"{_list_element_attributes(s, ENTITY_ATTRIBUTES)} -- NO MATCHING REF ENTITY\n")
        out.append("      entity score:  %.5f out of 0.00000\n" % _num(res.fa_value.get(sid)))
        for d in sorted(s.docs):
            if d in ctx.eval_docs:
                out.append(_entity_details(ctx, flag, None, sid, d))
        out.append(SEPARATOR)


def _entity_details(ctx: _Ctx, flag: _Flag, rid, sid, d) -> str:
    res = ctx.res
    x = res.ref[rid].docs.get(d) if rid is not None else None
    y = res.sys[sid].docs.get(d) if sid is not None else None
    if x is not None and y is not None:
        mv = res.doc_mv.get((rid, sid, d))
        if mv is None:              # not valued: the tool's false-alarm term of the pair
            mv = res.doc_fa.get((sid, d))
        value, max_value = _num(mv), _num(res.doc_value.get(("REF", rid, d)))
    elif x is not None:
        value, max_value = 0, _num(res.doc_value.get(("REF", rid, d)))
    else:
        value, max_value = _num(res.doc_fa.get((sid, d))), 0
    out = "- in document %s:  score:  %.5f out of %.5f\n" % (d, value, max_value)
    if ctx.params.use_name_similarity:
        out += _entity_name_details(ctx, flag, rid, sid, d, x, y)
    if ctx.params.use_mentions:
        out += _entity_mention_details(ctx, flag, rid, sid, d, x, y)
    return out


def _entity_name_details(ctx: _Ctx, flag: _Flag, rid, sid, d, x, y) -> str:
    res = ctx.res
    rnames = list(x.names) if x is not None else []
    tnames = list(y.names) if y is not None else []
    rmap: dict = {}
    tmap: dict = {}
    rscore = [None] * len(rnames)
    tscore = [None] * len(tnames)
    nmap = res.name_map.get((rid, sid, d)) if (rnames and tnames) else None
    if nmap:
        for i, j in nmap.items():
            rmap[i] = j
            tmap[j] = i
        from acescore.scoring.elements import best_name_scores
        rscore, tscore = best_name_scores(x, y, ctx.params.min_name_similarity)
    items = [(n, "REF", i) for i, n in enumerate(rnames)] + \
            [(n, "TST", j) for j, n in enumerate(tnames)]
    items.sort(key=lambda t: (t[0], t[1]))
    out = []
    for name, typ, k in items:
        partner = rmap.get(k) if typ == "REF" else tmap.get(k)
        if partner is not None:
            if typ == "TST":
                continue
            tname = tnames[partner]
            if name == tname:
                out.append('         ref name score:%8.5f, "%s"\n' % (_num(rscore[k]), name))
            else:
                flag.on = True
                out.append('>>>      ref name score:%8.5f, "%s"\n' % (_num(rscore[k]), name))
                out.append('>>>      tst name score:%8.5f, "%s" -- NAME MISMATCH\n'
                           % (_num(tscore[partner]), tname))
        else:
            flag.on = True
            score = rscore[k] if typ == "REF" else tscore[k]
            if x is not None and y is not None:
                out.append('>>>      %s name score:%8.5f, "%s" -- NO CORRESPONDING %s NAME\n'
                           % (typ.lower(), _num(score), name, "TST" if typ == "REF" else "REF"))
            else:
                out.append('         %s name                 "%s"\n' % (typ.lower(), name))
    return "".join(out)


def _entity_mention_details(ctx: _Ctx, flag: _Flag, rid, sid, d, x, y) -> str:
    res = ctx.res
    p = ctx.params
    sigma_r = res.extra.get("sigma_r", {})
    sigma_s = res.extra.get("sigma_s", {})
    corr = res.extra.get("corr", {})
    mmap = {}
    if x is not None and y is not None:
        mmap = res.mention_map.get((rid, sid, d)) or {}
    rmapped = {x.mentions[i].id: y.mentions[j] for i, j in mmap.items()} if mmap else {}
    tmapped = {y.mentions[j].id for j in mmap.values()} if mmap else set()
    items = []
    if x is not None:
        items.extend(("REF", m) for m in x.mentions)
    if y is not None:
        items.extend(("TST", m) for m in y.mentions)
    out = []
    for typ, m in _sorted_mentions(items):
        if typ == "TST" and m.id in tmapped:
            continue
        n = rmapped.get(m.id) if typ == "REF" else None
        if n is not None:
            err = "" if m.type == n.type else "TYPE"
            if m.role != n.role:
                err += "/ROLE" if err else "ROLE"
            if m.style != n.style:
                err += "/STYLE" if err else "STYLE"
            if err:
                flag.on = True
            lead = ">>>" if err else "   "
            for t2, mm in (("REF", m), ("TST", n)):
                line = "%s   %s mention" % (lead, t2.lower())
                if t2 == "REF":
                    line += ":" + " " * 31
                else:
                    line += " score: %.5f out of %.5f, " % (
                        _num(corr.get(m.id, {}).get(n.id)), _num(sigma_r.get(m.id)))
                head = _loc_text(mm.head)
                line += f'"{head}"' if head is not None else '"???"'
                line += " (%3.3s/%3.3s/%3.3s) ID=%s" % (mm.type, mm.role, mm.style, mm.id)
                if err:
                    line += f" -- MENTION {err} MISMATCH"
                out.append(line + "\n")
            if extent_mismatch(m.extent, n.extent, p) > 1:
                flag.on = True
                re_ = _loc_text(m.extent)
                te = _loc_text(n.extent)
                out.append('>>>    ref mention extent = "%s"\n' % (re_ if re_ is not None else "???"))
                out.append('>>>    tst mention extent = "%s" -- MENTION EXTENT MISMATCH\n'
                           % (te if te is not None else "???"))
        else:
            flag.on = True
            if typ == "TST":
                own = y
                ss = sigma_s.get(m.id)
                if ss is None:
                    ss = p.entity_mention_type_wgt[m.type] + EPSILON
                tw = p.entity_type_wgt.get(own.type)
                cw = p.entity_class_wgt.get(own.cls)
                fa = -p.entity_fa_wgt * ss * _num(tw) * _num(cw)
                score, of = fa, 0
            else:
                score, of = 0, _num(sigma_r.get(m.id))
            head = _loc_text(m.head)
            out.append('>>>   %s mention score: %.5f out of %.5f, "%s"'
                       % (typ.lower(), score, of, head if head is not None else "???"))
            out.append(" (%3.3s/%3.3s/%3.3s) ID=%s -- NO MATCHING %s MENTION\n"
                       % (m.type, m.role, m.style, m.id, "TST" if typ == "REF" else "REF"))
    return "".join(out)


# ---- values and timex2 ------------------------------------------------------------------------


def _value_attr_list(g, attributes) -> str:
    out = ""
    for a in attributes:
        v = _attr(g, a)
        if _true(v):
            out += f", {a}={v}"
    return out


def _value_mapping(out, ctx: _Ctx, all_blocks: bool):
    res = ctx.res
    word = res.kind                        # "value" or "timex2"
    attributes = ATTRIBUTES[res.kind]
    for rid in sorted(res.ref):
        flag = _Flag(all_blocks)
        r = res.ref[rid]
        sid = res.mapping.get(rid)
        s = res.sys[sid] if sid is not None else None
        block = []
        if s is not None:
            err = ""
            for a in attributes:
                if a == "ID":
                    continue
                rv, sv = _attr(r, a), _attr(s, a)
                if (_true(rv) != _true(sv)) or (_true(rv) and _s(sv) != rv):
                    err += ("/" if err else "") + a
            if err:
                flag.on = True
            tag = ">>> " if err else "    "
            block.append(f"{tag}ref {word} {rid}{_value_attr_list(r, attributes)}\n")
            block.append(f"{tag}tst {word} {sid}{_value_attr_list(s, attributes)}"
                         + (f" -- ATTRIBUTE ERROR ({err})\n" if err else "\n"))
            block.append(f"      {word} score:  %.5f out of %.5f\n"
                         % (_num(res.pair_value.get((rid, sid))), _num(res.value.get(("REF", rid)))))
        else:
            flag.on = True
            block.append(f">>> ref {word} {rid} -- NO MATCHING TST VALUE\n")
            block.append(f"      {word} score:  0.00000 out of %.5f\n"
                         % _num(res.value.get(("REF", rid))))
        _flush_block(out, block, flag, ctx, r, s,
                     lambda d: _value_details(ctx, flag, rid, sid, d))
    for sid in sorted(res.sys):
        if sid in res.rmapping:
            continue
        s = res.sys[sid]
        flag = _Flag(True)
        out.append(f">>> tst {word} {sid}{_value_attr_list(s, attributes)} -- NO MATCHING REF VALUE\n")
        out.append(f"      {word} score:  %.5f out of 0.00000\n" % _num(res.fa_value.get(sid)))
        for d in sorted(s.docs):
            if d in ctx.eval_docs:
                out.append(_value_details(ctx, flag, None, sid, d))
        out.append(SEPARATOR)


def _value_details(ctx: _Ctx, flag: _Flag, rid, sid, d) -> str:
    res = ctx.res
    out = [f"- in document {d}:\n"]
    if not ctx.params.use_mentions:
        return out[0]
    x = res.ref[rid].docs.get(d) if rid is not None else None
    y = res.sys[sid].docs.get(d) if sid is not None else None
    items = []
    if x is not None:
        items.extend(("REF", m) for m in x.mentions)
    if y is not None:
        items.extend(("TST", m) for m in y.mentions)
    if x is not None and y is not None:
        mmap = res.mention_map.get((rid, sid, d)) or {}
        rmapped = {x.mentions[i].id: y.mentions[j] for i, j in mmap.items()}
        tmapped = {y.mentions[j].id for j in mmap.values()}
        for typ, m in _sorted_mentions(items):
            if typ == "TST" and m.id in tmapped:
                continue
            n = rmapped.get(m.id) if typ == "REF" else None
            if n is not None:
                error = extent_mismatch(m.extent, n.extent, ctx.params) > 1
                rt, tt = _loc_text(m.extent), _loc_text(n.extent)
                if not error and _true(rt) and _true(tt) and rt == tt:
                    out.append(f'          mention="{rt}"\n')
                else:
                    if error:
                        flag.on = True
                    tag = ">>>   " if error else "      "
                    out.append(f'{tag}ref mention="{_q(rt)}"\n')
                    out.append(f'{tag}tst mention="{_q(tt)}"'
                               + (" -- EXTENT ERROR\n" if error else "\n"))
            else:
                flag.on = True
                out.append(f'>>>   {typ.lower()} mention="{_q(_loc_text(m.extent))}"'
                           " -- NO MATCHING %s MENTION\n")
    else:
        flag.on = True
        for typ, m in _sorted_mentions(items):
            out.append(f'      {typ.lower()} mention="{_q(_loc_text(m.extent))}"\n')
    return "".join(out)


# ---- relations and events ---------------------------------------------------------------------


class _ReleveMapping:
    """State shared by the blocks of one relation/event mapping listing."""

    def __init__(self, ctx: _Ctx):
        self.ctx = ctx
        res = ctx.res
        p = ctx.params
        self.res = res
        self.relation = res.kind == "relation"
        self.role_err_wgt = (p.relation_argument_role_err_wgt if self.relation
                             else p.event_argument_role_err_wgt)
        args = ctx.args_ctx()
        self.sv = args.self_value if args is not None else {}
        self.mv = args.pair_value if args is not None else {}
        # element mapping of the argument elements (document level only: the mention-level
        # listings do not report argument mapping errors)
        mapping = {} if (ctx.mention_level or args is None) else args.mapping
        self.arg_map_ref = mapping                              # REF arg element -> SYS
        self.arg_map_sys = {v: k for k, v in mapping.items() if v is not None}
        self.phantoms = _phantom_parts(ctx)

    def sys_arg_in_doc(self, b: str, d: str) -> bool:
        g = self.ctx.arg_element("SYS", b)
        return (g is not None and d in g.docs) or (b, d) in self.phantoms

    def ref_arg_in_doc(self, a: str, d: str) -> bool:
        g = self.ctx.arg_element("REF", a)
        return g is not None and d in g.docs


def _phantom_parts(ctx: _Ctx) -> set:
    """The empty SYS argument document parts the tool creates while matching arguments
    (03 §12), accumulated over the relation/event passes of this level up to this one."""
    run = ctx.run
    level = ctx.mention_level
    args = ctx.args_ctx()
    if args is None:
        return set()
    pair_keys = set()
    for (a, b, _d) in args.pair_value:
        pair_keys.add((a, b))
    allow_wrong = True if level else bool(ctx.params.allow_wrong_mapping)
    mapping = args.mapping if not level else {}
    eval_docs = run.ref.documents
    out: set = set()
    for p in run.passes:
        if p.kind not in ("relation", "event") or p.task.startswith("mention_") != level:
            continue
        ref_by_doc: dict = {}
        for rid, g in p.ref.items():
            if g.arg_pairs:
                for d in g.docs:
                    ref_by_doc.setdefault(d, []).append(g)
        sys_by_doc: dict = {}
        for sid, g in p.sys.items():
            if g.arg_pairs:
                for d in g.docs:
                    sys_by_doc.setdefault(d, []).append(g)
        done = set()
        for d in eval_docs:
            for r in ref_by_doc.get(d, ()):
                for s in sys_by_doc.get(d, ()):
                    if (r.id, s.id) in done:
                        continue
                    done.add((r.id, s.id))
                    for _rr, a in r.arg_pairs:
                        for _tr, b in s.arg_pairs:
                            if (a, b) not in pair_keys:
                                continue
                            if not allow_wrong and mapping.get(a) != b:
                                continue
                            for sd in s.docs:
                                out.add((b, sd))
        if p is ctx.res:
            break
    return out


def _releve_mapping(out, ctx: _Ctx, all_blocks: bool):
    res = ctx.res
    st = _ReleveMapping(ctx)
    word = res.task
    attributes = ATTRIBUTES[res.kind]
    for rid in sorted(res.ref):
        flag = _Flag(all_blocks)
        r = res.ref[rid]
        sid = res.mapping.get(rid)
        s = res.sys[sid] if sid is not None else None
        block = []
        if s is not None:
            err = False
            for a in attributes:
                if a == "ID":
                    continue
                rv, sv = r.attrs.get(a), s.attrs.get(a)
                if (_true(rv) != _true(sv)) or (sv is not None and sv != _s(rv)):
                    err = True
                    break
            if err:
                flag.on = True
            tag = ">>> " if err else "    "
            suffix = " -- ATTRIBUTE ERRORS\n" if err else "\n"
            block.append(f"{tag}ref {word} {rid} {_list_element_attributes(r, attributes)}{suffix}")
            block.append(f"{tag}tst {word} {sid} {_list_element_attributes(s, attributes)}{suffix}")
            block.append(f"      {word} score:  %.5f out of %.5f\n"
                         % (_num(res.pair_value.get((rid, sid))), _num(res.value.get(("REF", rid)))))
        else:
            flag.on = True
            block.append(f">>> ref {word} {rid} {_list_element_attributes(r, attributes)}"
                         " -- NO MATCHING TST\n")
            block.append(f"      {word} score:  0.00000 out of %.5f\n"
                         % _num(res.value.get(("REF", rid))))
        block.append(_argument_mapping(st, flag, r, s, None))
        _flush_block(out, block, flag, ctx, r, s,
                     lambda d: _releve_doc_mapping(st, flag, r, s, d))
    for sid in sorted(res.sys):
        if sid in res.rmapping:
            continue
        s = res.sys[sid]
        flag = _Flag(True)
        out.append(f">>> tst {word} {sid} {_list_element_attributes(s, attributes)}"
                   " -- NO MATCHING REF\n")
        out.append(f"      {word} score:  %.5f out of 0.00000\n" % _num(res.fa_value.get(sid)))
        out.append(_argument_mapping(st, flag, None, s, None))
        for d in sorted(s.docs):
            if d in ctx.eval_docs:
                out.append(_releve_doc_mapping(st, flag, None, s, d))
        out.append(SEPARATOR)


def _argument_entries(st: _ReleveMapping, r, s) -> list:
    """[(ref (role, id) or None, sys (role, id) or None)] in the tool's display order."""
    entries: dict = {}
    if r is not None:
        for key in r.arg_pairs:
            entries[("REF",) + key] = [key, None]
    if s is not None:
        am = st.res.argument_map.get((r.id, s.id)) if r is not None else None
        for key in s.arg_pairs:
            rk = am.get(key) if am else None
            if rk is not None and ("REF",) + rk in entries:
                entries[("REF",) + rk][1] = key
            else:
                entries[("TST",) + key] = [None, key]

    def sort_key(e):
        ra, ta = e
        role = ra[0] if ra is not None else ta[0]
        both = 0 if (ra is not None and ta is not None) else 1
        has_ref = 0 if ra is not None else 1
        ident = ra[1] if ra is not None else ta[1]
        return (role, both, has_ref, ident)

    return sorted(entries.values(), key=sort_key)


def _argument_errors(side: str, mine, other, arg_map: dict, mention_level: bool) -> str:
    """The error text of one side's argument line (04 §5.3.3); ``side`` is "ref" or "tst"."""
    own, counterpart = ("REF", "TST") if side == "ref" else ("TST", "REF")
    role, aid = mine
    errs = []
    if other is None:
        errs.append(f"NO CORRESPONDING {counterpart} ARGUMENT")
    if not mention_level:
        target = arg_map.get(aid)
        if not target:
            errs.append(f"{own} ARGUMENT NOT MAPPED")
        elif other is not None and target != other[1]:
            errs.append(f"{own} ARGUMENT MISMAPPED")
    if other is not None and role != other[0]:
        errs.append("ARGUMENT ROLE MISMATCH")
    return ", ".join(errs)


def _argument_mapping(st: _ReleveMapping, flag: _Flag, r, s, d: Optional[str]) -> str:
    ctx = st.ctx
    out = []
    # (the tool's "no ref args" / "no tst args" lines never appear: its valuation has
    # already created an empty argument table for every relation and event)
    for ra, ta in _argument_entries(st, r, s):
        for side, mine, other, partner, arg_map in (("ref", ra, ta, s, st.arg_map_ref),
                                                    ("tst", ta, ra, r, st.arg_map_sys)):
            if mine is None:
                continue
            err = _argument_errors(side, mine, other, arg_map, ctx.mention_level)
            if err:
                flag.on = True
            if partner is None:
                err = ""
            if side == "ref":
                shown = d is None or (st.ref_arg_in_doc(mine[1], d) and
                                      (ta is None or not st.sys_arg_in_doc(ta[1], d)))
            else:
                shown = d is None or st.sys_arg_in_doc(mine[1], d)
            if shown:
                line = (">>>   " if err else "      ") + \
                    _mapped_argument_description(st, side, ra, ta, r, s, d)
                line += f" -- {err}\n" if (err and d is None) else "\n"
                out.append(line)
    return "".join(out)


def _mapped_argument_description(st: _ReleveMapping, src: str, ra, ta, r, s, d) -> str:
    ctx = st.ctx
    if src == "ref":
        role, aid = ra
        g = ctx.arg_element("REF", aid)
    else:
        role, aid = ta
        g = ctx.arg_element("SYS", aid)
    out = "%11.11s" % role
    if d is not None:
        weight = st.role_err_wgt if (ra is not None and ta is not None and ta[0] != ra[0]) else 1
        sd = s is not None and d in s.docs
        rd = r is not None and d in r.docs
        key = (ra[1], ta[1], d) if (ra is not None and ta is not None) else None
        if sd and rd and key is not None and key in st.mv:
            score = st.mv[key] * weight
        elif sd and ta is not None and st.sys_arg_in_doc(ta[1], d):
            score = -_num(st.sv.get(("SYS", ta[1], d)))
        else:
            score = 0
        if rd and ra is not None and st.ref_arg_in_doc(ra[1], d):
            refscore = _num(st.sv.get(("REF", ra[1], d)))
        else:
            refscore = 0
        out += " score: %.5f out of %.5f, %s ID=%s" % (score, refscore, src, aid)
        return out
    a = g.attrs if g is not None else {}
    sub = a.get("SUBTYPE")
    out += " %s ID=%s (%3.3s/%3.3s" % (src, aid, _s(a.get("TYPE")),
                                       sub[:7] if _true(sub) else "---")
    if g is not None and g.kind == "entity":
        out += "/%3.3s/%3.3s)" % (_s(a.get("LEVEL")), _s(a.get("CLASS")))
    else:
        out += ")"
    if g is not None:
        out += _best_text(g)
    return out


def _releve_doc_mapping(st: _ReleveMapping, flag: _Flag, r, s, d) -> str:
    res = st.res
    x = r.docs.get(d) if r is not None else None
    y = s.docs.get(d) if s is not None else None
    ref_value = _num(res.doc_value.get(("REF", r.id, d))) if x is not None else 0
    if x is not None:
        if y is not None:
            v = res.doc_mv.get((r.id, s.id, d))
            tst_value = v if _true(v) else 0
        else:
            tst_value = 0
    else:
        tst_value = _num(res.doc_fa.get((s.id, d)))
    out = ["- in document %s:  score:  %.5f out of %.5f\n" % (d, tst_value, ref_value)]
    items = []
    if x is not None:
        items.extend(("ref", m) for m in x.mentions)
    elif r is not None:
        out.append(">>>   no ref mentions\n")
    if y is not None:
        items.extend(("tst", m) for m in y.mentions)
    elif s is not None:
        out.append(">>>   no tst mentions\n")
    rmapped: set = set()
    tmapped: set = set()
    if x is not None and y is not None and r.id in res.mapping and res.mapping[r.id] == s.id:
        mm = res.mention_map.get((r.id, s.id, d)) or {}
        for i, j in mm.items():
            rmapped.add(x.mentions[i].id)
            tmapped.add(y.mentions[j].id)
    event = res.kind == "event"
    both_or_neither = (r is None) == (s is None)
    for typ, m in _sorted_mentions(items):
        mapped = m.id in (rmapped if typ == "ref" else tmapped)
        if mapped and typ == "tst":
            continue
        error = (not mapped) and both_or_neither
        if error:
            flag.on = True
        line = "%s   %s " % (">>>" if error else "   ", typ)
        ext = _q(_loc_text(m.extent))
        if event:
            line += f'anchor="{_q(_loc_text(getattr(m, "anchor", None)))}", extent="{ext}"'
        else:
            line += f'extent="{ext}"'
        line += " -- unmatched mention\n" if error else "\n"
        out.append(line)
    out.append(_argument_mapping(st, flag, r, s, d))
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# -c: duplicate elements


def duplicate_warnings(element_type: str, sys_ids: Iterable[str], sys_value: dict,
                       pair_value: dict) -> list:
    """The ``-c`` warnings of one valuation (01 §4): for every SYS element id1 (code-point
    order) with pair values (looked up as a REF id) and every partner id2 > id1, warn when
    the pair value of (id1, id2) equals id1's SYS VALUE as the tool compares them (numbers
    as 15-significant-digit strings).  ``sys_value``: SYS id -> VALUE (None: undefined);
    ``pair_value``: (ref id, sys id) -> mapped value."""
    partners: dict = {}
    for (r, s), v in pair_value.items():
        partners.setdefault(r, {})[s] = v
    out = []
    for id1 in sorted(sys_ids):
        if id1 in ("", "0"):          # the tool's `while (my $id1 = shift @ids)` stops here
            break
        row = partners.get(id1)
        if not row:
            continue
        own = _perl_str(sys_value.get(id1))
        for id2 in sorted(row):
            if id2 <= id1 or _perl_str(row[id2]) != own:
                continue
            out.append(f"\nWARNING:  equivalent {element_type} elements: {id1} and {id2}\n")
    return out
