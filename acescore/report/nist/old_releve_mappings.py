"""The ``-a``/``-e`` relation and event listings of the older versions (docs/rules/versions.md
§4.9): one element-level argument listing with scores summed over the documents, then per
REF document the mentions; no per-document argument lines.  Shares the blocks, the
attribute texts and the element heads of :mod:`acescore.report.nist.releve_mappings`."""

from __future__ import annotations

from acescore.model.params import SYMMETRIC_RELATIONS
from acescore.model.text import old_display_text
from acescore.report.counts.old_names import longest_text
from acescore.report.nist.diagnostics import _Ctx, _s, _sorted_mentions, _true
from acescore.report.nist.mapping_parts import (
    FIXED,
    _attributes_text,
    _Flag,
    _ref_blocks,
    _unmatched_sys,
)
from acescore.report.nist.releve_mappings import _attributes_differ, _pair_head, _ReleveMapping

SEPARATOR = "--------\n"
_SWAP = {"Arg-1": "Arg-2", "Arg-2": "Arg-1"}


def old_releve_mapping(out, ctx: _Ctx, all_blocks: bool, attributes: tuple) -> None:
    """The blocks of a relation or event listing into ``out`` (``attributes``: those of the
    kind, with relation TENSE)."""
    res = ctx.res
    st = _ReleveMapping(ctx)
    word = res.task
    checked = [a for a in attributes if a != "ID"]
    listed: dict = {}
    for rid, flag, r, sid, s in _ref_blocks(out, ctx, all_blocks):
        if s is not None:
            differ = _attributes_differ(r.attrs, s.attrs, checked)
            if differ:
                flag.on = True
            tag, suffix = (">>> ", " -- ATTRIBUTE ERRORS\n") if differ else ("    ", "\n")
            pair = (
                differ,
                _attributes_text(r, attributes, listed),
                _attributes_text(s, attributes, listed),
            )
            pv, rv = res.pair_value.get((rid, sid)), res.value.get(("REF", rid))
            block = [_pair_head(word, tag, suffix, rid, sid, pair, pv, rv)]
        else:
            flag.on = True
            rv = res.value.get(("REF", rid))
            block = [
                ">>> ref %s %s %s -- NO MATCHING TST\n      %s score:  0.00000 out of %.5f\n"
                % (word, rid, _attributes_text(r, attributes, listed), word, rv or 0.0)
            ]
        block.append(_arguments(st, flag, r, s))
        for d in sorted(r.docs):
            if d in ctx.eval_docs:
                block.append(_mentions(st, flag, r, s, d))
        if flag.on:
            out.append("".join(block) + SEPARATOR)
    _unmatched_sys(
        out,
        ctx,
        word,
        lambda s: (
            ">>> tst %s %s %s -- NO MATCHING REF\n"
            % (word, s.id, _attributes_text(s, attributes, listed))
        ),
        lambda flag, s, d: _mentions(st, flag, None, s, d),
        more=lambda flag, s: _arguments(st, flag, None, s),
    )


def _arguments(st: _ReleveMapping, flag: _Flag, r, s) -> str:
    """The element-level argument lines of a block."""
    res = st.res
    amap = res.argument_map.get((r.id, s.id)) if r is not None and s is not None else None
    amap = amap or {}
    rows: dict = {}  # REF (role, id) or SYS (role, id) -> [REF arg, SYS arg (role, id)]
    if r is not None:
        for role, ids in r.arguments.items():
            for aid in ids:
                rows[("REF", role, aid)] = [(role, aid), None]
    reversed_order = False
    if s is not None:
        for role, ids in s.arguments.items():
            for aid in ids:
                ra = amap.get((role, aid))
                if ra is not None and ("REF",) + ra in rows:
                    rows[("REF",) + ra][1] = (role, aid)
                    reversed_order = reversed_order or (st.relation and ra[0] != role)
                else:
                    rows[("SYS", role, aid)] = [None, (role, aid)]
    if reversed_order and r is not None and r.attrs.get("TYPE") in SYMMETRIC_RELATIONS:
        for row in rows.values():
            if row[1] is not None:
                row[1] = (_SWAP.get(row[1][0], row[1][0]), row[1][1])

    def key(row):
        ref_arg, sys_arg = row
        main = ref_arg if ref_arg is not None else sys_arg
        return (main[0], not (ref_arg and sys_arg), ref_arg is None, main[1])

    symmetric = r is not None and r.attrs.get("TYPE") in SYMMETRIC_RELATIONS
    out = []
    for ref_arg, sys_arg in sorted(rows.values(), key=key):
        if ref_arg is not None:
            err = _errors(st, "REF", ref_arg, sys_arg, symmetric)
            flag.on = flag.on or bool(err)
            err = err if s is not None else ""
            out.append(
                ("     " if not err else ">>>  ")
                + " "
                + _described(st, "ref", ref_arg, sys_arg, r, s, err)
            )
        if sys_arg is not None:
            err = _errors(st, "SYS", sys_arg, ref_arg, symmetric)
            flag.on = flag.on or bool(err)
            err = err if r is not None else ""
            out.append(
                ("     " if not err else ">>>  ")
                + " "
                + _described(st, "tst", ref_arg, sys_arg, r, s, err)
            )
    return "".join(out)


def _errors(st: _ReleveMapping, side: str, mine, other, symmetric: bool) -> str:
    """The errors of an argument line (docs/rules/versions.md §4.9)."""
    word = "TST" if side == "REF" else "REF"
    errs = [] if other is not None else [f"NO CORRESPONDING {word} ARGUMENT"]
    if not st.ctx.mention_level:
        mapping = st.arg_map_ref if side == "REF" else st.arg_map_sys
        partner = mapping.get(mine[1])
        if partner is None:
            errs.append(f"{side if side == 'REF' else 'TST'} ARGUMENT NOT MAPPED")
        elif other is not None and partner != other[1]:
            errs.append(f"{side if side == 'REF' else 'TST'} ARGUMENT MISMAPPED")
    if other is not None and mine[0] != other[0] and not (mine[0] in _SWAP and symmetric):
        errs.append("ARGUMENT ROLE MISMATCH")
    return ", ".join(errs)


def _described(st: _ReleveMapping, src: str, ref_arg, sys_arg, r, s, err: str) -> str:
    """``%11.11s <src> arg`` with its score (or the REF line of a matched pair), the
    argument element's ID, attributes and longest text, and its errors."""
    role, aid = ref_arg if src == "ref" else sys_arg
    text = "%11.11s %s arg" % (role, src)
    if src == "ref" and ref_arg is not None and sys_arg is not None:
        text += ":" + " " * 31
    else:
        docs = sorted(set(r.docs if r is not None else ()) | set(s.docs if s is not None else ()))
        cum = refscore = fa = 0.0
        ace05 = st.ctx.params.nist == "ace05"
        for d in docs:
            if ref_arg is not None and sys_arg is not None:
                cum += st.mv.get((ref_arg[1], sys_arg[1], d)) or 0.0
                refscore += st.sv.get(("REF", ref_arg[1], d)) or 0.0
                if ace05:
                    fa += st.sv.get(("SYS", sys_arg[1], d)) or 0.0
            elif ref_arg is not None:
                refscore += st.sv.get(("REF", ref_arg[1], d)) or 0.0
            else:
                fa += st.sv.get(("SYS", sys_arg[1], d)) or 0.0
        weighted = cum
        if ref_arg is not None and sys_arg is not None and ref_arg[0] != sys_arg[0]:
            weighted *= st.role_err_wgt
        if ace05:  # the SYS arguments' value beyond the matched one, × the argument FA weight
            p = st.ctx.params
            w = p.relation_argument_fa_wgt if st.relation else p.event_argument_fa_wgt
            score = weighted - (fa - cum) * w
        else:
            score = weighted - fa
        text += " score: %s out of %s, " % (FIXED[score], FIXED[refscore])
    g = st.ctx.arg_element("REF" if src == "ref" else "SYS", aid)
    a = g.attrs if g is not None else {}
    sub = a.get("SUBTYPE")
    text += "ID=%s (%3.3s/%3.3s" % (aid, _s(a.get("TYPE")), sub[:7] if _true(sub) else "---")
    if g is not None and g.kind == "entity":
        text += "/%3.3s/%3.3s)" % (_s(a.get("LEVEL")), _s(a.get("CLASS")))
    else:
        text += ")"
    if g is not None:
        text += longest_text(g)
    return text + (f" -- {err}\n" if err else "\n")


def _mentions(st: _ReleveMapping, flag: _Flag, r, s, d: str) -> str:
    """The document line and the mention lines of a block's document ``d``."""
    res = st.res
    x = r.docs.get(d) if r is not None else None
    y = s.docs.get(d) if s is not None else None
    if x is not None:
        ref_value = res.doc_value.get(("REF", r.id, d)) or 0.0
        tst_value = (res.doc_mv.get((r.id, s.id, d)) or 0.0) if y is not None else 0.0
    else:
        ref_value, tst_value = 0.0, res.doc_fa.get((s.id, d)) or 0.0
    out = ["- in document %s:  score:  %s out of %s\n" % (d, FIXED[tst_value], FIXED[ref_value])]
    items = [("ref", m) for m in x.mentions] if x is not None else []
    if y is not None:
        items += [("tst", m) for m in y.mentions]
    rmapped: set = set()
    tmapped: set = set()
    if x is not None and y is not None:
        for i, j in (res.mention_map.get((r.id, s.id, d)) or {}).items():
            rmapped.add(x.mentions[i].id)
            tmapped.add(y.mentions[j].id)
    both = r is not None and s is not None
    event = res.kind == "event"
    for typ, m in _sorted_mentions(items):
        mapped = m.id in (rmapped if typ == "ref" else tmapped)
        if mapped and typ == "tst":
            continue
        error = not mapped and both
        flag.on = flag.on or error
        ext = _old_text(m.extent)
        line = (
            f'anchor="{_old_text(getattr(m, "anchor", None))}", extent="{ext}"'
            if event
            else f'extent="{ext}"'
        )
        out.append(
            "%s   %s %s%s"
            % (">>>" if error else "   ", typ, line, " -- unmatched mention\n" if error else "\n")
        )
    return "".join(out)


def _old_text(loc) -> str:
    return old_display_text(loc.text) if loc is not None and loc.text else "???"
