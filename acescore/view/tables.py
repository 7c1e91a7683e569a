"""The element tables of a document page of the HTML view: one row per REF element (with its
mapped SYS element) and per unmapped SYS element, with status, attributes, mention links,
value and costs (see :mod:`acescore.view.page`)."""

from __future__ import annotations

from acescore.view.common import RELEVE, esc, fmt3

KIND_TITLES = {
    "entity": "Entities",
    "value": "Values",
    "timex2": "Timex2",
    "relation": "Relations",
    "event": "Events",
}
_UNSEEN = object()
_CELLS: dict = {}  # the cost components of a row -> their cells
_EXPLAIN = {"correct": "mapped, no attribute error", "miss": "missed", "fa": "false alarm"}


def _head(releve: bool) -> str:
    sub_label = "Arg" if releve else "Mention"
    return (
        "<tr><th>REF</th><th>SYS</th><th>status</th><th>REF attributes</th>"
        "<th>SYS attributes</th>"
        + ("<th>arguments</th>" if releve else "")
        + "<th>REF mentions</th><th>SYS mentions</th>"
        '<th title="REF document value">REF value</th>'
        '<th title="value of the mapped pair in this document">pair value</th>'
        '<th title="REF value − pair value, or the FA cost">cost</th>'
        '<th title="cost of attribute errors">Attr</th>'
        f'<th title="{sub_label} miss cost">{sub_label} Miss</th>'
        f'<th title="{sub_label} error cost">{sub_label} Err</th>'
        f'<th title="{sub_label} false-alarm cost">{sub_label} FA</th></tr>'
    )


_HEADS = {False: _head(False), True: _head(True)}


def arguments(page, kind: str, rid: str | None, sid: str | None) -> str:
    """The element-level arguments of a REF/SYS pair of ``page`` in its document, with
    their argument mapping."""
    res = page.tasks[kind].res
    d = page.docid
    first = page.first_marks
    amap = res.argument_map.get((rid, sid)) if rid is not None and sid is not None else None
    inv = {v: k for k, v in (amap or {}).items()}
    items = []

    def link(side, aid):
        k = first.get((side, aid))
        return f'<a href="#" class="ml" data-k="{k}">{esc(aid)}</a>' if k is not None else esc(aid)

    if rid is not None:
        rel = res.ref[rid].docs.get(d)
        for a in rel.arguments if rel is not None else ():
            s = inv.get((a.role, a.refid))
            if s is not None:
                role = a.role if s[0] == a.role else f"{a.role}→{s[0]}"
                items.append(
                    f'<li class="ok">{esc(role)}: {link("REF", a.refid)} ↔ {link("SYS", s[1])}</li>'
                )
            else:
                items.append(
                    f'<li class="bad">{esc(a.role)}: {link("REF", a.refid)} <i>not mapped</i></li>'
                )
    if sid is not None:
        sel = res.sys[sid].docs.get(d)
        for a in sel.arguments if sel is not None else ():
            if amap is not None and (a.role, a.refid) in amap:
                continue
            items.append(
                f'<li class="bad">{esc(a.role)}: {link("SYS", a.refid)} '
                f"<i>(SYS) not mapped</i></li>"
            )
    return f'<ul class="args">{"".join(items)}</ul>' if items else ""


def element_table(page, kind: str) -> str:
    """The table of the ``kind`` elements of ``page`` (a DocPage, collected): "" if the
    document has none."""
    t = page.tasks.get(kind)
    if t is None:
        return ""
    d = page.docid
    recs = t.records.get(d, [])
    if not recs:
        return ""
    res = t.res
    ref, sys_, mapping = res.ref, res.sys, res.mapping
    doc_mv = res.doc_mv
    elements, links, mapped = page.elements, page.links, page.mapped
    attr_text, diffs_of = page.attr_text, page.diffs
    releve = kind in RELEVE
    rows = []
    counts = {"correct": 0, "error": 0, "miss": 0, "fa": 0}
    for rec in recs:
        status = rec.status
        counts[status] += 1
        sid_note = ""
        if rec.side == "REF":
            rid = rec.eid
            sid = mapped.get((kind, rid), _UNSEEN)
            if sid is _UNSEEN:
                sid = res.doc_mapped(rid, d)
            if sid is None and rid in mapping:
                sid_note = f'<span class="muted">{esc(mapping[rid])} (elsewhere)</span>'
        else:
            sid = rec.eid
            rid = None
        rg = ref[rid] if rid else None
        sg = sys_[sid] if sid else None
        rd = rg.docs.get(d) if rg is not None else None
        sd = sg.docs.get(d) if sg is not None else None
        diffs = diffs_of(kind, rid, sid, rd, sd) if rd is not None and sd is not None else []
        if status == "error":
            expl = "mapped with errors: " + "; ".join(diffs)
            if releve and res.arg_errors.get(rid, 0):
                expl += ("; " if diffs else "") + f"{res.arg_errors[rid]} argument error(s)"
        else:
            expl = _EXPLAIN[status]  # (nothing to escape)
        cls = (
            f'<td class="attr bad" title="{esc("; ".join(diffs))}">'
            if diffs
            else '<td class="attr">'
        )
        rcell = (
            f"{cls}{esc(attr_text('REF', kind, rid, rg))}</td>" if rg is not None else "<td></td>"
        )
        scell = (
            f"{cls}{esc(attr_text('SYS', kind, sid, sg))}</td>" if sg is not None else "<td></td>"
        )
        comps = rec.comps
        ccells = _CELLS.get(comps)  # (the cost components repeat: made once)
        if ccells is None:
            if len(_CELLS) > 100_000:
                _CELLS.clear()
            c1, c2, c3, c4 = comps or (None, None, None, None)
            ccells = _CELLS[comps] = (
                f'<td class="num">{fmt3(c1)}</td><td class="num">{fmt3(c2)}</td>'
                f'<td class="num">{fmt3(c3)}</td><td class="num">{fmt3(c4)}</td></tr>'
            )
        pair_value = doc_mv.get((rid, sid, d)) if rid and sid else None
        erid = esc(rid) if rid else ""
        esid = esc(sid) if sid else ""
        rkey = f"R:{kind}:{rid}" if rid else None
        skey = f"S:{kind}:{sid}" if sid else None
        row_id = rkey or skey
        erow = f"R:{kind}:{erid}" if rid else f"S:{kind}:{esid}"
        ids = f"{erow} S:{kind}:{esid}" if rkey and skey else erow
        rows.append(
            f'<tr id="row-{erow}" class="st-{status}" data-el="{ids}">'
            f'<td class="id">{erid}</td>'
            f'<td class="id">{esid or sid_note}</td>'
            f'<td class="status" title="{esc(expl) if status == "error" else expl}">{status}</td>'
            f"{rcell}{scell}"
            f"{f'<td>{arguments(page, kind, rid, sid)}</td>' if releve else ''}"
            f'<td class="ms">{" ".join(links.get(rkey, ())) if rkey else ""}</td>'
            f'<td class="ms">{" ".join(links.get(skey, ())) if skey else ""}</td>'
            f'<td class="num">{fmt3(rec.norm) if rec.side == "REF" else ""}</td>'
            f'<td class="num">{fmt3(pair_value)}</td>'
            f'<td class="num">{fmt3(rec.cost)}</td>{ccells}'
        )
        if skey:
            # make the SYS element of a mapped row findable as well
            elements.get(skey, {})["row"] = f"row-{row_id}"
        if rkey:
            elements.get(rkey, {})["row"] = f"row-{row_id}"
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    return (
        f'<section class="elements" id="tab-{kind}"><h2>{KIND_TITLES[kind]} '
        f'<span class="muted">({summary})</span></h2>'
        f'<div class="tablewrap"><table class="el"><thead>{_HEADS[releve]}</thead><tbody>'
        + "".join(rows)
        + "</tbody></table></div></section>"
    )
