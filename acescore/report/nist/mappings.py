"""The ``-a``/``-e`` mapping listings of the NIST report (docs/rules/report.md §5.3): for every REF
element its mapped SYS element, their values and the errors that cost value; then the
unmapped SYS elements.  The order of every traversal is the canonical one of
docs/rules/determinism.md; the "phantom" document parts of relation/event argument matching are
explained in :mod:`acescore.report.nist.diagnostics`."""

from __future__ import annotations

from acescore.model.params import EPSILON
from acescore.model.spans import extent_mismatch
from acescore.report.counts import old_names
from acescore.report.nist.blocks import Blocks
from acescore.report.nist.diagnostics import (
    ATTRIBUTES,
    ENTITY_ATTRIBUTES,
    SEPARATOR,
    _attr,
    _Ctx,
    _id_plus_external_ids,
    _match_external_links,
    _num,
    _q,
    _s,
    _shown,
    _sorted_mentions,
    _true,
    attributes_of,
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
from acescore.report.nist.old_releve_mappings import old_releve_mapping
from acescore.report.nist.releve_mappings import releve_mapping
from acescore.scoring.names import best_name_scores

# ---------------------------------------------------------------------------------------------
# -a / -e: mapping listings


def mapping_text(results, res, all_blocks: bool) -> str:
    """The ``-a`` (``all_blocks``) or ``-e`` mapping listing of one pass (docs/rules/report.md §5.3)."""
    return "".join(mapping_blocks(results, res, all_blocks))


def mapping_blocks(results, res, all_blocks: bool) -> Blocks:
    """:func:`mapping_text` as :class:`Blocks`, keyed (0, REF ID) then (1, SYS ID)."""
    ctx = _Ctx(results, res)
    out = Blocks(f"\n======== {res.task} mapping ========\n")
    if res.kind == "entity":
        _entity_mapping(out, ctx, all_blocks)
    elif res.kind in ("value", "timex2"):
        _value_mapping(out, ctx, all_blocks)
    elif ctx.params.nist != "ace08":  # the older versions' listing, with relation TENSE
        old_releve_mapping(out, ctx, all_blocks, attributes_of(res.kind, ctx.params))
    else:
        releve_mapping(out, ctx, all_blocks)
    return out


_ENTITY_CHECKED = ("TYPE", "SUBTYPE", "CLASS", "LEVEL")


def _entity_mapping(out, ctx: _Ctx, all_blocks: bool):
    res = ctx.res
    value = res.value
    listed: dict = {}
    params = ctx.params
    # blocks of one mapped pair of mentions in one document (most EMD blocks) are flagged
    # whole before any text is made (no pieces, :func:`_one_pair_blocks`)
    one_pair = (
        _one_pair_blocks(out, ctx)
        if (params.use_mentions and not params.use_name_similarity and params.nist == "ace08")
        else None
    )
    mention_map, eval_docs = res.mention_map, ctx.eval_docs
    # (REF, SYS attribute dict) by id -> their errors, their texts (elements with equal
    # attributes share one dict: few pairs of dicts)
    differ: dict = {}
    for rid, flag, r, sid, s in _ref_blocks(out, ctx, all_blocks):
        if s is not None:
            ra, sa = r.attrs, s.attrs
            key = (id(ra), id(sa))
            pair = differ.get(key)
            if pair is None:
                pair = differ[key] = (
                    _attribute_errors(ra, sa),
                    _attributes_text(r, ENTITY_ATTRIBUTES, listed),
                    _attributes_text(s, ENTITY_ATTRIBUTES, listed),
                )
            err = pair[0]
            if r.links or s.links:
                ext = _match_external_links(r, s)
                if ext and ext != "correct":
                    err += ", EXTERNAL ID MISMATCH"
            if err:
                flag.on = True
            if one_pair is not None and len(r.docs) == 1 and len(s.docs) == 1:
                d, x = next(iter(r.docs.items()))
                y = s.docs.get(d)
                if (
                    y is not None
                    and d in eval_docs
                    and len(x.mentions) == 1
                    and len(y.mentions) == 1
                    and mention_map.get((rid, sid, d))
                ):
                    one_pair(flag, rid, r, sid, s, err, pair, d, x, y)
                    continue
            block = [_later(flag, _entity_pair_head, res, rid, r, sid, s, err, listed)]
        else:
            flag.on = True
            rv = value.get(("REF", rid))
            block = [
                ">>> ref entity %s %s -- NO MATCHING TST ENTITY\n"
                "      entity score:  0.00000 out of %.5f\n"
                % (
                    _id_plus_external_ids(r),
                    _attributes_text(r, ENTITY_ATTRIBUTES, listed),
                    0.0 if rv is None else rv,
                )
            ]
        _flush_block(out, block, flag, ctx, r, s, _entity_details, ctx, flag, r, s)
    _unmatched_sys(
        out,
        ctx,
        "entity",
        lambda s: (
            f">>> tst entity {_id_plus_external_ids(s)} "
            f"{_attributes_text(s, ENTITY_ATTRIBUTES, listed)}"
            " -- NO MATCHING REF ENTITY\n"
        ),
        lambda flag, s, d: _entity_details(ctx, flag, None, s, d),
    )


def _attribute_errors(ra: dict, sa: dict) -> str:
    """The attribute errors of a REF and a SYS entity's attributes (or "")."""
    rget, sget = ra.get, sa.get
    if tuple(map(rget, _ENTITY_CHECKED)) == tuple(map(sget, _ENTITY_CHECKED)):
        return ""
    err = "/".join(
        [a for a in _ENTITY_CHECKED if rget(a) != sget(a) and _s(rget(a)) != _s(sget(a))]
    )
    return f" -- ENTITY {err} MISMATCH" if err else ""


_PAIR_HEAD = "%sref entity %s %s%s\n%stst entity %s %s%s\n      entity score:  %s out of %s\n"
_DOC_LINE = "- in document %s:  score:  %s out of %s\n"


def _entity_pair_head(res, rid, r, sid, s, err: str, listed: dict) -> str:
    """The first lines of the block of a REF entity ``r`` mapped to ``s`` (``err``: their
    errors)."""
    tag = ">>> " if err else "    "
    pv = res.pair_value.get((rid, sid))
    rv = res.value.get(("REF", rid))
    return _PAIR_HEAD % (
        tag,
        _id_plus_external_ids(r),
        _attributes_text(r, ENTITY_ATTRIBUTES, listed),
        err,
        tag,
        _id_plus_external_ids(s),
        _attributes_text(s, ENTITY_ATTRIBUTES, listed),
        err,
        FIXED[0.0 if pv is None else pv],
        FIXED[0.0 if rv is None else rv],
    )


_ONE_PAIR = _PAIR_HEAD + _DOC_LINE + "%s" + SEPARATOR


def _one_pair_blocks(out, ctx: _Ctx):
    """The maker of the blocks of a REF entity ``r`` mapped to ``s`` (``err``: their
    errors; ``pair``: (errors of their attributes, the text of ``r``'s, of ``s``'s)), both
    of one mention in one evaluated document ``d`` (``x``, ``y``: their parts), their
    mentions mapped.  A block is made only if printed, with one format (the text of
    :func:`_entity_pair_head` and :func:`_entity_doc_text`)."""
    res = ctx.res
    params = ctx.params
    pair_value, value, doc_mv, doc_fa = res.pair_value, res.value, res.doc_mv, res.doc_fa
    doc_value, corr, sigma_r = res.doc_value, res.corr, res.sigma_r
    append = out.append

    def block(flag: _Flag, rid, r, sid, s, err: str, pair: tuple, d, x, y) -> None:
        m, n = x.mentions[0], y.mentions[0]
        merr, extent = _mention_pair_errors(m, n, params)
        if not (flag.on or merr or extent):
            return
        tag = ">>> " if err else "    "
        pv = pair_value.get((rid, sid))
        rv = value.get(("REF", rid))
        mv = doc_mv.get((rid, sid, d))
        if mv is None:  # not valued: the tool's false-alarm term of the pair
            mv = doc_fa.get((sid, d))
        dv = doc_value.get(("REF", rid, d))
        append(
            _ONE_PAIR
            % (
                tag,
                _id_plus_external_ids(r) if r.links else r.id,
                pair[1],
                err,
                tag,
                _id_plus_external_ids(s) if s.links else s.id,
                pair[2],
                err,
                FIXED[0.0 if pv is None else pv],
                FIXED[0.0 if rv is None else rv],
                d,
                FIXED[0.0 if mv is None else mv],
                FIXED[0.0 if dv is None else dv],
                _pair_lines(m, n, merr, extent, corr, sigma_r),
            )
        )

    return block


def _entity_details(ctx: _Ctx, flag: _Flag, r, s, d):
    """The part of an entity block for document ``d``: REF element ``r`` and SYS element
    ``s`` (either None); its text or a piece (:func:`_later`)."""
    rid = sid = x = y = None
    if r is not None:
        rid = r.id
        x = r.docs.get(d)
    if s is not None:
        sid = s.id
        y = s.docs.get(d)
    params = ctx.params
    names = _entity_name_details(ctx, flag, rid, sid, d, x, y) if params.use_name_similarity else ""
    rows = _entity_mention_rows(ctx, flag, rid, sid, d, x, y) if params.use_mentions else ()
    if params.nist != "ace08":  # the older versions: name lines after the mentions
        mapped = sid is not None and ctx.res.mapping.get(rid) == sid
        last, error = old_names.mapping_name_lines(x, y, params, mapped)
        if error:
            flag.on = True
        return _later(flag, _entity_doc_text, ctx, rid, sid, d, x, y, "", rows, last)
    return _later(flag, _entity_doc_text, ctx, rid, sid, d, x, y, names, rows)


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
        rscore, tscore = best_name_scores(x, y, ctx.params.min_name_similarity)
    items = [(n, "REF", i) for i, n in enumerate(rnames)] + [
        (n, "TST", j) for j, n in enumerate(tnames)
    ]
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
                out.append(
                    '>>>      tst name score:%8.5f, "%s" -- NAME MISMATCH\n'
                    % (_num(tscore[partner]), tname)
                )
        else:
            flag.on = True
            score = rscore[k] if typ == "REF" else tscore[k]
            if x is not None and y is not None:
                out.append(
                    '>>>      %s name score:%8.5f, "%s" -- NO CORRESPONDING %s NAME\n'
                    % (typ.lower(), _num(score), name, "TST" if typ == "REF" else "REF")
                )
            else:
                out.append('         %s name                 "%s"\n' % (typ.lower(), name))
    return "".join(out)


def _entity_mention_rows(ctx: _Ctx, flag: _Flag, rid, sid, d, x, y) -> list:
    """The mention lines of an entity block's document part, to be made: (REF mention,
    its SYS partner, their errors, whether their extents differ) or (mention without a
    partner, None, "REF" or "TST", False), in locator order; flags the errors."""
    # the REF mentions and the SYS mentions without a REF partner (the others are not
    # listed), as (side, mention, REF mention's partner or None)
    mmap = ctx.res.mention_map.get((rid, sid, d)) if (x is not None and y is not None) else None
    if mmap:
        xm, ym = x.mentions, y.mentions
        if len(xm) == 1 and len(ym) == 1:  # (one mapped pair: most EMD blocks)
            items = [("REF", xm[0], ym[0])]
        else:
            partner = {xm[i].id: ym[j] for i, j in mmap.items()}.get
            items = [("REF", m, partner(m.id)) for m in xm]
            if len(mmap) < len(ym):
                tmapped = {ym[j].id for j in mmap.values()}
                items.extend([("TST", m, None) for m in ym if m.id not in tmapped])
    else:
        items = [("REF", m, None) for m in x.mentions] if x is not None else []
        if y is not None:
            items.extend([("TST", m, None) for m in y.mentions])
    p = ctx.params
    rows = []
    for typ, m, n in _sorted_mentions(items):  # by locator (docs/rules/report.md §5.4)
        if n is None:
            flag.on = True
            rows.append((m, None, typ, False))
            continue
        err, extent = _mention_pair_errors(m, n, p)
        if err or extent:
            flag.on = True
        rows.append((m, n, err, extent))
    return rows


def _mention_pair_errors(m, n, p) -> tuple:
    """(the TYPE/ROLE/STYLE errors of mapped entity mentions ``m`` and ``n``, whether their
    extents differ) (docs/rules/report.md §5.3.1)."""
    err = "" if m.type == n.type else "TYPE"
    if m.role != n.role:
        err += "/ROLE" if err else "ROLE"
    if m.style != n.style:
        err += "/STYLE" if err else "STYLE"
    me, ne = m.extent, n.extent
    return err, (
        max(abs(me.start - ne.start), abs(me.end - ne.end)) / p.max_diff_chars > 1
        if me.kind == "text"
        else extent_mismatch(me, ne, p) > 1
    )


_PAIR_LINE = (
    '%s   ref mention:                               "%s" (%3.3s/%3.3s/%3.3s) ID=%s%s'
    '%s   tst mention score: %s out of %s, "%s" (%3.3s/%3.3s/%3.3s) ID=%s%s'
)


def _pair_lines(
    m, n, err: str, extent: bool, corr: dict, sigma_r: dict, ace05: bool = False
) -> str:
    """The lines of a REF entity mention ``m`` mapped to ``n`` (``err``: their errors;
    ``extent``: whether their extents differ) in an entity block; ``ace05``: its one line."""
    if err:
        lead, tail = ">>>", f" -- MENTION {err} MISMATCH\n"
    else:
        lead, tail = "   ", "\n"
    c = corr.get(m.id)
    score = c.get(n.id) if c else None
    of = sigma_r.get(m.id)
    rhead, thead = _shown(m.head), _shown(n.head)
    if ace05:  # one line, the SYS mention's attributes after the errors
        text = '%s   ref mention score: %s out of %s, "%s" (%3.3s/%3.3s/%3.3s) ID=%s%s' % (
            lead,
            FIXED[0.0 if score is None else score],
            FIXED[0.0 if of is None else of],
            "???" if rhead is None else rhead,
            m.type,
            m.role,
            m.style,
            m.id,
            tail[:-1] + " (%3.3s/%3.3s/%3.3s)\n" % (n.type, n.role, n.style) if err else tail,
        )
    else:
        text = _PAIR_LINE % (
            lead,
            "???" if rhead is None else rhead,
            m.type,
            m.role,
            m.style,
            m.id,
            tail,
            lead,
            FIXED[0.0 if score is None else score],
            FIXED[0.0 if of is None else of],
            "???" if thead is None else thead,
            n.type,
            n.role,
            n.style,
            n.id,
            tail,
        )
    if not extent:
        return text
    re_, te = _shown(m.extent), _shown(n.extent)
    return text + (
        '>>>    ref mention extent = "%s"\n'
        '>>>    tst mention extent = "%s" -- MENTION EXTENT MISMATCH\n'
        % (re_ if re_ is not None else "???", te if te is not None else "???")
    )


def _ref_mentions(res) -> set:
    """The SYS mentions that correspond to some REF mention (made once per pass)."""
    got = res.__dict__.get("_ref_mentions")
    if got is None:
        got = res.__dict__["_ref_mentions"] = {t for c in res.corr.values() for t in c}
    return got


def _entity_doc_text(ctx: _Ctx, rid, sid, d, x, y, names: str, rows, last: str = "") -> str:
    """The text of an entity block's part for document ``d`` (``x``, ``y``: the REF and
    the SYS element's parts in it, either None): its score, the name lines ``names``, the
    mention lines of :func:`_entity_mention_rows`."""
    res = ctx.res
    if x is not None and y is not None:
        mv = res.doc_mv.get((rid, sid, d))
        if mv is None:  # not valued: the tool's false-alarm term of the pair
            mv = res.doc_fa.get((sid, d))
        value, max_value = _num(mv), _num(res.doc_value.get(("REF", rid, d)))
    elif x is not None:
        value, max_value = 0, _num(res.doc_value.get(("REF", rid, d)))
    else:  # (the older versions print the element's FA value)
        fa = res.doc_fa.get((sid, d)) if ctx.params.nist == "ace08" else res.fa_value.get(sid)
        value, max_value = _num(fa), 0
    p = ctx.params
    sigma_r, sigma_s, corr = res.sigma_r, res.sigma_s, res.corr
    out = [_DOC_LINE % (d, FIXED[value], FIXED[max_value]) + names]
    for m, n, err, extent in rows:
        if n is not None:
            out.append(_pair_lines(m, n, err, extent, corr, sigma_r, p.nist == "ace05"))
        else:
            if err == "TST":
                ss = sigma_s.get(m.id)
                if ss is None:
                    ss = p.entity_mention_type_wgt[m.type] + EPSILON
                tw = p.entity_type_wgt.get(y.type)
                cw = p.entity_class_wgt.get(y.cls)
                fa = -p.entity_fa_wgt * ss * _num(tw) * _num(cw)
                if p.nist == "ace05":  # the valuation's cached FA score of the mention
                    fa = -p.entity_fa_wgt * ss * (0.0 if m.id in _ref_mentions(res) else 1)
                score, of, low, other = fa, 0, "tst", "REF"
            else:
                score, of, low, other = 0, _num(sigma_r.get(m.id)), "ref", "TST"
            head = _shown(m.head)
            out.append(
                '>>>   %s mention score: %.5f out of %.5f, "%s"'
                " (%3.3s/%3.3s/%3.3s) ID=%s -- NO MATCHING %s MENTION\n"
                % (
                    low,
                    score,
                    of,
                    head if head is not None else "???",
                    m.type,
                    m.role,
                    m.style,
                    m.id,
                    other,
                )
            )
    out.append(last)
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
    word = res.kind  # "value" or "timex2"
    attributes = ATTRIBUTES[res.kind]
    checked = tuple(a for a in attributes if a != "ID")
    for rid, flag, r, sid, s in _ref_blocks(out, ctx, all_blocks):
        block = []
        if s is not None:
            err = ""
            ra, sa = r.attrs, s.attrs
            if tuple(map(ra.get, checked)) != tuple(map(sa.get, checked)):  # (else none)
                for a in checked:
                    rv, sv = ra.get(a), sa.get(a)
                    if (_true(rv) != _true(sv)) or (_true(rv) and _s(sv) != rv):
                        err += ("/" if err else "") + a
            if err:
                flag.on = True
            block.append(_later(flag, _value_pair_head, res, word, attributes, rid, r, sid, s, err))
        else:
            flag.on = True
            block.append(f">>> ref {word} {rid} -- NO MATCHING TST VALUE\n")
            block.append(
                f"      {word} score:  0.00000 out of %.5f\n" % _num(res.value.get(("REF", rid)))
            )
        _flush_block(out, block, flag, ctx, r, s, _value_details, ctx, flag, rid, sid)
    _unmatched_sys(
        out,
        ctx,
        word,
        lambda s: (
            f">>> tst {word} {s.id}{_value_attr_list(s, attributes)} -- NO MATCHING REF VALUE\n"
        ),
        lambda flag, s, d: _value_details(ctx, flag, None, s.id, d),
    )


def _value_pair_head(res, word: str, attributes, rid, r, sid, s, err: str) -> str:
    """The first lines of the block of a REF value/timex2 ``r`` mapped to ``s`` (``err``:
    their attribute errors)."""
    tag = ">>> " if err else "    "
    return (
        f"{tag}ref {word} {rid}{_value_attr_list(r, attributes)}\n"
        f"{tag}tst {word} {sid}{_value_attr_list(s, attributes)}"
        + (f" -- ATTRIBUTE ERROR ({err})\n" if err else "\n")
        + f"      {word} score:  %.5f out of %.5f\n"
        % (_num(res.pair_value.get((rid, sid))), _num(res.value.get(("REF", rid))))
    )


def _value_details(ctx: _Ctx, flag: _Flag, rid, sid, d):
    """The part of a value/timex2 block for document ``d``: its text, or a piece
    (:func:`_later`) of :func:`_value_doc_text` with the mention rows: (side, mention,
    its partner or None, whether their extents differ), in locator order."""
    if not ctx.params.use_mentions:
        return f"- in document {d}:\n"
    res = ctx.res
    x = res.ref[rid].docs.get(d) if rid is not None else None
    y = res.sys[sid].docs.get(d) if sid is not None else None
    items = []
    if x is not None:
        items.extend(("REF", m) for m in x.mentions)
    if y is not None:
        items.extend(("TST", m) for m in y.mentions)
    rows = []
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
                if error:
                    flag.on = True
                rows.append((typ, m, n, error))
            else:
                flag.on = True
                rows.append((typ, m, None, True))
    else:
        flag.on = True
        rows = [(typ, m, None, False) for typ, m in _sorted_mentions(items)]
    return _later(flag, _value_doc_text, d, x is not None and y is not None, rows)


def _value_doc_text(d, both: bool, rows: list) -> str:
    """The text of :func:`_value_details` (``both``: the REF and the SYS element are in
    the document)."""
    out = [f"- in document {d}:\n"]
    if not both:
        for typ, m, _n, _error in rows:
            out.append(f'      {typ.lower()} mention="{_q(_shown(m.extent))}"\n')
        return "".join(out)
    for typ, m, n, error in rows:
        if n is not None:
            rt, tt = _shown(m.extent), _shown(n.extent)
            if not error and _true(rt) and _true(tt) and rt == tt:
                out.append(f'          mention="{rt}"\n')
            else:
                tag = ">>>   " if error else "      "
                out.append(f'{tag}ref mention="{_q(rt)}"\n')
                out.append(
                    f'{tag}tst mention="{_q(tt)}"' + (" -- EXTENT ERROR\n" if error else "\n")
                )
        else:
            out.append(
                f'>>>   {typ.lower()} mention="{_q(_shown(m.extent))}" -- NO MATCHING %s MENTION\n'
            )
    return "".join(out)
