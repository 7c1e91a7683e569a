"""The ``-a``/``-e`` mapping listings of the NIST report (04-report.md §5.3): for every REF
element its mapped SYS element, their values and the errors that cost value; then the
unmapped SYS elements.  The order of every traversal is the canonical one of
05-determinism.md; the "phantom" document parts of relation/event argument matching are
explained in :mod:`acescore.report.diagnostics`."""
from __future__ import annotations

from typing import Optional

from acescore.params import EPSILON
from acescore.report.diagnostics import (
    ATTRIBUTES,
    ENTITY_ATTRIBUTES,
    Blocks,
    SEPARATOR,
    _attr,
    _Ctx,
    _id_plus_external_ids,
    _list_element_attributes,
    _loc_text,
    _match_external_links,
    _num,
    _phantom_parts,
    _q,
    _s,
    _sorted_mentions,
    _true,
)
from acescore.spans import extent_mismatch

# ---------------------------------------------------------------------------------------------
# -a / -e: mapping listings


def mapping_text(results, res, all_blocks: bool) -> str:
    """The ``-a`` (``all_blocks``) or ``-e`` mapping listing of one pass (04 §5.3)."""
    return "".join(mapping_blocks(results, res, all_blocks))


def mapping_blocks(results, res, all_blocks: bool) -> Blocks:
    """:func:`mapping_text` as :class:`Blocks`, keyed (0, REF ID) then (1, SYS ID)."""
    ctx = _Ctx(results, res)
    out = Blocks(f"\n======== {res.task} mapping ========\n")
    if res.kind == "entity":
        _entity_mapping(out, ctx, all_blocks)
    elif res.kind in ("value", "timex2"):
        _value_mapping(out, ctx, all_blocks)
    else:
        _releve_mapping(out, ctx, all_blocks)
    return out


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


def _unmatched_sys(out, ctx, word: str, head, details, more=None) -> None:
    """The blocks of the SYS elements without a REF partner, in ID order (always printed):
    ``head(s)``, the FA score, ``more(flag, s)`` if given, then ``details(flag, s, d)`` for
    every evaluated document of the element, in DOCID order."""
    res = ctx.res
    for sid in sorted(res.sys):
        if sid in res.rmapping:
            continue
        out.start((1, sid))
        s = res.sys[sid]
        flag = _Flag(True)
        out.append(head(s))
        out.append(f"      {word} score:  %.5f out of 0.00000\n" % _num(res.fa_value.get(sid)))
        if more is not None:
            out.append(more(flag, s))
        for d in sorted(s.docs):
            if d in ctx.eval_docs:
                out.append(details(flag, s, d))
        out.append(SEPARATOR)


def _entity_mapping(out, ctx: _Ctx, all_blocks: bool):
    res = ctx.res
    for rid in sorted(res.ref):
        out.start((0, rid))
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
    _unmatched_sys(out, ctx, "entity",
                   lambda s: (f">>> tst entity {_id_plus_external_ids(s)} "
                              f"{_list_element_attributes(s, ENTITY_ATTRIBUTES)}"
                              " -- NO MATCHING REF ENTITY\n"),
                   lambda flag, s, d: _entity_details(ctx, flag, None, s.id, d))


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
        from acescore.scoring.names import best_name_scores
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
    sigma_r, sigma_s, corr = res.sigma_r, res.sigma_s, res.corr
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
        out.start((0, rid))
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
    _unmatched_sys(out, ctx, word,
                   lambda s: (f">>> tst {word} {s.id}{_value_attr_list(s, attributes)}"
                              " -- NO MATCHING REF VALUE\n"),
                   lambda flag, s, d: _value_details(ctx, flag, None, s.id, d))


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
        self.entries: tuple = (None, [])       # (REF id, SYS id) of a block, its arguments

    def sys_arg_in_doc(self, b: str, d: str) -> bool:
        g = self.ctx.arg_element("SYS", b)
        return (g is not None and d in g.docs) or (b, d) in self.phantoms

    def ref_arg_in_doc(self, a: str, d: str) -> bool:
        g = self.ctx.arg_element("REF", a)
        return g is not None and d in g.docs


def _releve_mapping(out, ctx: _Ctx, all_blocks: bool):
    res = ctx.res
    st = _ReleveMapping(ctx)
    word = res.task
    attributes = ATTRIBUTES[res.kind]
    for rid in sorted(res.ref):
        out.start((0, rid))
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
    _unmatched_sys(out, ctx, word,
                   lambda s: (f">>> tst {word} {s.id} {_list_element_attributes(s, attributes)}"
                              " -- NO MATCHING REF\n"),
                   lambda flag, s, d: _releve_doc_mapping(st, flag, None, s, d),
                   more=lambda flag, s: _argument_mapping(st, flag, None, s, None))


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
    key = (r.id if r is not None else None, s.id if s is not None else None)
    if st.entries[0] != key:        # the block's entries, for it and each of its documents
        st.entries = (key, [(ra, ta, [_argument_errors(side, mine, other, arg_map,
                                                       ctx.mention_level)
                                      if mine is not None else ""
                                      for side, mine, other, arg_map in (
                                          ("ref", ra, ta, st.arg_map_ref),
                                          ("tst", ta, ra, st.arg_map_sys))])
                            for ra, ta in _argument_entries(st, r, s)])
    for ra, ta, errs in st.entries[1]:
        for side, mine, other, partner, err in (("ref", ra, ta, s, errs[0]),
                                                ("tst", ta, ra, r, errs[1])):
            if mine is None:
                continue
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
        out += ctx.best_text(g)
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
