"""The ``-a``/``-e`` mapping listings of relations and events (docs/rules/report.md §5.3.3): per
REF element its mapped SYS element, the argument mapping and, per document, the mentions
and the document-level arguments; then the SYS elements without a REF partner.  The
entry point is :func:`acescore.report.nist.mappings.mapping_blocks`; the "phantom" document
parts are explained in :mod:`acescore.report.nist.diagnostics`, the blocks in
:mod:`acescore.report.nist.mapping_parts`.

A listing has a line for every argument of every relation and event, in every document:
the lines are made with one format each, and what does not depend on the document (the
argument's own description) is made once per argument."""

from __future__ import annotations

from acescore.report.nist.diagnostics import (
    ATTRIBUTES,
    _Ctx,
    _phantom_parts,
    _s,
    _shown,
    _sorted_mentions,
    _true,
)
from acescore.report.nist.mapping_parts import (
    FIXED,
    _attributes_text,
    _Flag,
    _flush_block,
    _later,
    _ref_blocks,
    _unmatched_sys,
)


class _ReleveMapping:
    """State shared by the blocks of one relation/event mapping listing."""

    def __init__(self, ctx: _Ctx):
        self.ctx = ctx
        res = ctx.res
        p = ctx.params
        self.res = res
        self.relation = res.kind == "relation"
        self.role_err_wgt = (
            p.relation_argument_role_err_wgt if self.relation else p.event_argument_role_err_wgt
        )
        args = ctx.args_ctx()
        self.sv = args.self_value if args is not None else {}
        self.mv = args.pair_value if args is not None else {}
        # element mapping of the argument elements (document level only: the mention-level
        # listings do not report argument mapping errors)
        mapping = {} if (ctx.mention_level or args is None) else args.mapping
        self.arg_map_ref = mapping  # REF arg element -> SYS
        self.arg_map_sys = {v: k for k, v in mapping.items() if v is not None}
        self._phantoms: set | None = None
        self.entries: tuple = (None, [])  # (REF id, SYS id) of a block, its arguments
        # (src, (role, ID)) -> the block-level text of an argument (:func:`_described`),
        # made once per run: a REF one for every pass, a SYS one for the passes of a level
        # (their argument elements: _Ctx.arg_collection)
        self.described: dict = ctx.run.__dict__.setdefault("_described_args", {}).setdefault(
            ctx.mention_level, {}
        )
        self.described_ref: dict = ctx.run.__dict__.setdefault("_described_ref_args", {})
        self.ref_args = ctx.arg_collection("REF")  # the argument elements by ID
        self.sys_args = ctx.arg_collection("SYS")

    @property
    def phantoms(self) -> set:
        """The phantom document parts (:func:`_phantom_parts`), made when first asked: only
        a SYS argument element outside a document of its relation/event asks."""
        p = self._phantoms
        if p is None:
            p = self._phantoms = _phantom_parts(self.ctx)
        return p


def releve_mapping(out, ctx: _Ctx, all_blocks: bool):
    """The blocks of a relation or event mapping listing into ``out``
    (:class:`~acescore.report.nist.blocks.Blocks`)."""
    res = ctx.res
    st = _ReleveMapping(ctx)
    word = res.task
    attributes = ATTRIBUTES[res.kind]
    checked = [a for a in attributes if a != "ID"]
    listed: dict = {}
    # (REF, SYS attribute dict) by id -> whether they differ, their texts
    differ: dict = {}
    for rid, flag, r, sid, s in _ref_blocks(out, ctx, all_blocks):
        block = []
        if s is not None:
            # (elements with equal attributes share one dict: few pairs of dicts)
            ra, sa = r.attrs, s.attrs
            key = (id(ra), id(sa))
            pair = differ.get(key)
            if pair is None:
                pair = differ[key] = (
                    _attributes_differ(ra, sa, checked),
                    _attributes_text(r, attributes, listed),
                    _attributes_text(s, attributes, listed),
                )
            if pair[0]:
                flag.on = True
                tag, suffix = ">>> ", " -- ATTRIBUTE ERRORS\n"
            else:
                tag, suffix = "    ", "\n"
            pv, rv = res.pair_value.get((rid, sid)), res.value.get(("REF", rid))
            block.append(_later(flag, _pair_head, word, tag, suffix, rid, sid, pair, pv, rv))
        else:
            flag.on = True
            rv = res.value.get(("REF", rid))
            block.append(
                ">>> ref %s %s %s -- NO MATCHING TST\n"
                "      %s score:  0.00000 out of %.5f\n"
                % (
                    word,
                    rid,
                    _attributes_text(r, attributes, listed),
                    word,
                    0.0 if rv is None else rv,
                )
            )
        block.append(_argument_mapping(st, flag, r, s, None))
        _flush_block(out, block, flag, ctx, r, s, _releve_doc_mapping, st, flag, r, s)
    _unmatched_sys(
        out,
        ctx,
        word,
        lambda s: (
            f">>> tst {word} {s.id} {_attributes_text(s, attributes, listed)} -- NO MATCHING REF\n"
        ),
        lambda flag, s, d: _releve_doc_mapping(st, flag, None, s, d),
        more=lambda flag, s: _argument_mapping(st, flag, None, s, None),
    )


def _attributes_differ(ra: dict, sa: dict, checked) -> bool:
    """Whether the attributes ``checked`` of a REF and a SYS relation/event differ (a block
    error)."""
    for a in checked:
        rv, sv = ra.get(a), sa.get(a)
        if (_true(rv) != _true(sv)) or (sv is not None and sv != _s(rv)):
            return True
    return False


def _pair_head(word: str, tag: str, suffix: str, rid, sid, pair: tuple, pv, rv) -> str:
    """The first lines of the block of REF element ``rid`` mapped to ``sid`` (``pair``:
    whether their attributes differ, the texts of their attributes)."""
    return "%sref %s %s %s%s%stst %s %s %s%s      %s score:  %s out of %s\n" % (
        tag,
        word,
        rid,
        pair[1],
        suffix,
        tag,
        word,
        sid,
        pair[2],
        suffix,
        word,
        FIXED[0.0 if pv is None else pv],
        FIXED[0.0 if rv is None else rv],
    )


def _argument_sort_key(e):
    ra, ta = e
    if ra is not None:
        return (ra[0], 0 if ta is not None else 1, 0, ra[1])
    return (ta[0], 1, 1, ta[1])


def _argument_entries(st: _ReleveMapping, r, s) -> list:
    """[(ref (role, id) or None, sys (role, id) or None)] in the tool's display order:
    by role, pairs first, then REF arguments, then by ID."""
    entries = {key: [key, None] for key in r.arg_pairs} if r is not None else {}
    if s is not None:
        am = st.res.argument_map.get((r.id, s.id)) if r is not None else None
        unpaired: dict = {}
        for key in s.arg_pairs:
            e = entries.get(am.get(key)) if am else None
            if e is not None:
                e[1] = key
            else:
                unpaired[key] = [None, key]
        if unpaired:
            return sorted([*entries.values(), *unpaired.values()], key=_argument_sort_key)
    return sorted(entries.values(), key=_argument_sort_key)


def _argument_errors(side: str, mine, other, arg_map: dict, mention_level: bool) -> str:
    """The error text of one side's argument line (docs/rules/report.md §5.3.3); ``side`` is "ref" or "tst"."""
    role, aid = mine
    if other is not None and role == other[0]:  # (most arguments: no error)
        if mention_level:
            return ""
        target = arg_map.get(aid)
        if target and target == other[1]:
            return ""
    own, counterpart = ("REF", "TST") if side == "ref" else ("TST", "REF")
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


def _argument_mapping(st: _ReleveMapping, flag: _Flag, r, s, d: str | None) -> str:
    ctx = st.ctx
    # (the tool's "no ref args" / "no tst args" lines never appear: its valuation has
    # already created an empty argument table for every relation and event)
    key = (r.id if r is not None else None, s.id if s is not None else None)
    if st.entries[0] != key:  # the block's entries, for it and each of its documents
        level, map_ref, map_sys = ctx.mention_level, st.arg_map_ref, st.arg_map_sys
        st.entries = (
            key,
            [
                (
                    ra,
                    ta,
                    (
                        _argument_errors("ref", ra, ta, map_ref, level) if ra is not None else "",
                        _argument_errors("tst", ta, ra, map_sys, level) if ta is not None else "",
                    ),
                )
                for ra, ta in _argument_entries(st, r, s)
            ],
        )
    entries = st.entries[1]
    if not entries:
        return ""
    if d is None:
        if not flag.on:
            for _ra, _ta, errs in entries:
                if errs[0] or errs[1]:  # ("" for a side without an argument)
                    flag.on = True
                    break
        return _later(flag, _block_arguments, st, entries, r, s)
    out = []
    sd = s is not None and d in s.docs
    rd = r is not None and d in r.docs
    ref_args, sys_args = st.ref_args, st.sys_args
    mv, sv = st.mv, st.sv
    # (the errors were flagged by the block's argument lines: this text is made only when
    # the block is printed)
    for ra, ta, (rerr, terr) in entries:
        # the argument elements in the document (a SYS one maybe as a phantom part): a
        # line for the REF argument if it is there and the SYS one not, the SYS one's if
        # it is there
        r_in = s_in = False
        if ra is not None:
            g = ref_args.get(ra[1])
            r_in = g is not None and d in g.docs
        if ta is not None:
            g = sys_args.get(ta[1])
            s_in = (g is not None and d in g.docs) or (ta[1], d) in st.phantoms
        if not s_in and not r_in:
            continue
        # the scores of the line: the pair's value in the document (a role error
        # weighted), else the SYS argument's false alarm; the REF argument's value
        if ra is not None and ta is not None:
            key = (ra[1], ta[1], d)
            if sd and rd and key in mv:
                score = mv[key] * (st.role_err_wgt if ta[0] != ra[0] else 1)
            elif sd and s_in:
                v = sv.get(("SYS", ta[1], d))
                score = -(0.0 if v is None else v)
            else:
                score = 0
        elif sd and s_in:
            v = sv.get(("SYS", ta[1], d))
            score = -(0.0 if v is None else v)
        else:
            score = 0
        if rd and r_in:
            v = sv.get(("REF", ra[1], d))
            refscore = 0.0 if v is None else v
        else:
            refscore = 0
        if s_in:
            out.append(
                "%s%11.11s score: %s out of %s, tst ID=%s\n"
                % (
                    ">>>   " if (terr and r is not None) else "      ",
                    ta[0],
                    FIXED[score],
                    FIXED[refscore],
                    ta[1],
                )
            )
        else:
            out.append(
                "%s%11.11s score: %s out of %s, ref ID=%s\n"
                % (
                    ">>>   " if (rerr and s is not None) else "      ",
                    ra[0],
                    FIXED[score],
                    FIXED[refscore],
                    ra[1],
                )
            )
    return "".join(out)


def _block_arguments(st: _ReleveMapping, entries: list, r, s) -> str:
    """The block-level argument lines of the block of ``r`` and ``s`` (``entries``: from
    :func:`_argument_mapping`, which flagged their errors)."""
    out = []
    described_ref, described = st.described_ref, st.described
    for ra, ta, (rerr, terr) in entries:
        if ra is not None:
            text = described_ref.get(ra) or _described(st, "ref", ra)
            out.append(f">>>   {text} -- {rerr}\n" if rerr and s is not None else f"      {text}\n")
        if ta is not None:
            text = described.get(ta) or _described(st, "tst", ta)
            out.append(f">>>   {text} -- {terr}\n" if terr and r is not None else f"      {text}\n")
    return "".join(out)


def _described(st: _ReleveMapping, src: str, arg) -> str:
    """The block-level line of an argument (without its tag and errors), made once per
    (side, role, ID) in a run (see :class:`_ReleveMapping`)."""
    cache = st.described_ref if src == "ref" else st.described
    text = cache.get(arg)
    if text is not None:
        return text
    role, aid = arg
    ctx = st.ctx
    side = "REF" if src == "ref" else "SYS"
    g = ctx.arg_element(side, aid)
    a = g.attrs if g is not None else {}
    sub = a.get("SUBTYPE")
    text = "%11.11s %s ID=%s (%3.3s/%3.3s" % (
        role,
        src,
        aid,
        _s(a.get("TYPE")),
        sub[:7] if _true(sub) else "---",
    )
    if g is not None and g.kind == "entity":
        text += "/%3.3s/%3.3s)" % (_s(a.get("LEVEL")), _s(a.get("CLASS")))
    else:
        text += ")"
    if g is not None:
        text += ctx.best_text(side, aid, g)
    cache[arg] = text
    return text


def _releve_doc_mapping(st: _ReleveMapping, flag: _Flag, r, s, d) -> str:
    res = st.res
    x = r.docs.get(d) if r is not None else None
    y = s.docs.get(d) if s is not None else None
    if x is not None:
        v = res.doc_value.get(("REF", r.id, d))
        ref_value = 0.0 if v is None else v
        if y is not None:
            v = res.doc_mv.get((r.id, s.id, d))
            tst_value = v if _true(v) else 0
        else:
            tst_value = 0
    else:
        ref_value = 0
        v = res.doc_fa.get((s.id, d))
        tst_value = 0.0 if v is None else v
    rows = []
    if (
        x is not None
        and y is not None
        and len(x.mentions) == 1
        and len(y.mentions) == 1
        and res.mapping.get(r.id) == s.id
        and res.mention_map.get((r.id, s.id, d))
    ):
        rows.append(("ref", x.mentions[0], False))  # (one mapped pair: the SYS one not
    elif x is not None or y is not None:  # listed; most mention-level blocks)
        items = [("ref", m) for m in x.mentions] if x is not None else []
        if y is not None:
            items.extend([("tst", m) for m in y.mentions])
        rmapped: set = set()
        tmapped: set = set()
        if x is not None and y is not None and res.mapping.get(r.id) == s.id:
            mm = res.mention_map.get((r.id, s.id, d)) or {}
            for i, j in mm.items():
                rmapped.add(x.mentions[i].id)
                tmapped.add(y.mentions[j].id)
        both_or_neither = (r is None) == (s is None)
        for typ, m in _sorted_mentions(items):
            mapped = m.id in (rmapped if typ == "ref" else tmapped)
            if mapped and typ == "tst":
                continue
            error = (not mapped) and both_or_neither
            if error:
                flag.on = True
            rows.append((typ, m, error))
    return _later(flag, _releve_doc_text, st, flag, r, s, d, x, y, tst_value, ref_value, rows)


def _releve_doc_text(
    st: _ReleveMapping, flag: _Flag, r, s, d, x, y, tst_value, ref_value, rows: list
) -> str:
    """The part of a relation/event block for document ``d``: the mention lines of
    :func:`_releve_doc_mapping` (which flagged their errors), then the arguments (their
    errors were flagged by the block's argument lines)."""
    out = ["- in document %s:  score:  %s out of %s\n" % (d, FIXED[tst_value], FIXED[ref_value])]
    if x is None and r is not None:
        out.append(">>>   no ref mentions\n")
    if y is None and s is not None:
        out.append(">>>   no tst mentions\n")
    event = st.res.kind == "event"
    for typ, m, error in rows:
        ext = _shown(m.extent)
        if not _true(ext):
            ext = "???"
        if event:
            anchor = _shown(getattr(m, "anchor", None))
            out.append(
                '%s   %s anchor="%s", extent="%s"%s'
                % (
                    ">>>" if error else "   ",
                    typ,
                    anchor if _true(anchor) else "???",
                    ext,
                    " -- unmatched mention\n" if error else "\n",
                )
            )
        else:
            out.append(
                '%s   %s extent="%s"%s'
                % (
                    ">>>" if error else "   ",
                    typ,
                    ext,
                    " -- unmatched mention\n" if error else "\n",
                )
            )
    out.append(_argument_mapping(st, flag, r, s, d))
    return "".join(out)
