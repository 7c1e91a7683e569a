"""The document pages of the HTML view (``doc/<DOCID>.html``): the source text with REF and
SYS mentions marked, and tables of the document's elements with their mapping, value and
costs (see :mod:`acescore.report.html_view`)."""
from __future__ import annotations

import json
from json.encoder import encode_basestring as _enc
from typing import Optional

from acescore.report.conditions import ERROR_ATTRIBUTES
from acescore.report.records import attribute_differences
from acescore.report.view_common import ENTITY_LIKE, RELEVE, _fmt, esc, page, script_json
from acescore.report.view_text import segments, text_html

KIND_TITLES = {"entity": "Entities", "value": "Values", "timex2": "Timex2",
               "relation": "Relations", "event": "Events"}
NCOLOURS = 24
_EXPLAIN = {"correct": "mapped, no attribute error", "miss": "missed", "fa": "false alarm"}
_WHAT = {"entity": "entity mention", "value": "value mention", "timex2": "timex2 mention",
         "relation": "relation mention", "event": "event mention"}


def _attr_text(kind: str, attrs: dict) -> str:
    if kind == "entity":
        return (f'{attrs.get("TYPE")}.{attrs.get("SUBTYPE")} {attrs.get("CLASS")} '
                f'{attrs.get("LEVEL")}')
    if kind in ("relation", "event"):
        s = f'{attrs.get("TYPE")}.{attrs.get("SUBTYPE")}'
        rest = [f"{a}={attrs[a]}" for a in ERROR_ATTRIBUTES[kind]
                if a not in ("TYPE", "SUBTYPE") and attrs.get(a) is not None]
        return s + (" " + " ".join(rest) if rest else "")
    if kind == "value":
        return f'{attrs.get("TYPE")}' + (f'.{attrs["SUBTYPE"]}' if attrs.get("SUBTYPE") else "")
    rest = [f"{a}={attrs[a]}" for a in ERROR_ATTRIBUTES[kind]
            if a not in ("TYPE", "SUBTYPE") and attrs.get(a) is not None]
    return "TIMEX2" + (" " + " ".join(rest) if rest else "")


def _attr_diffs(kind: str, rd, sd) -> list[str]:
    """The attributes counted as errors (04 §2.5): 'NAME: ref ≠ sys'."""
    return [f"{a}: {x if x is not None else '—'} ≠ {y if y is not None else '—'}"
            for a, x, y in attribute_differences(kind, rd, sd)]


def _quote(s: str, n: int = 60) -> str:
    return _quoted(" ".join((s or "").split()), n)


def _quoted(s: str, n: int) -> str:
    """``s`` (blanks squeezed) in quotes, cut to ``n`` characters."""
    return "“" + (s if len(s) <= n else s[:n - 1] + "…") + "”"


class DocPage:
    """Builds one document page."""

    def __init__(self, docid: str, params, tasks: dict, source, source_note: str,
                 nav: tuple, printed: tuple = ()):
        self.docid = docid
        self.params = params
        self.tasks = tasks                  # task name -> DocNumbers (element passes)
        self.printed = printed              # DocNumbers of the report's sections
        self.source = source                # SourceText or None
        self.source_note = source_note
        self.nav = nav
        self.marks: list = []               # mention / mark dicts (JSON)
        self.by_mid: dict = {}              # (side, mention id) -> key (entity-like)
        self.elements: dict = {}            # "R:kind:id" -> {"row":..., "m": [keys]}
        self.element_marks: dict = {}       # "R:kind:id" -> [the marks of its mentions]
        self.colour: dict = {}              # (kind, ref id) -> colour index
        self.offset_mismatch = 0
        self._diffs: dict = {}              # (kind, REF id, SYS id) -> _attr_diffs
        self._attr_texts: dict = {}         # (side, kind, id) -> _attr_text

    # ---- collecting the mentions
    def element_key(self, side: str, kind: str, eid: str) -> str:
        return f"{side[0]}:{kind}:{eid}"

    def collect(self) -> None:
        """A mark for every mention of the document's elements (REF then SYS, the kinds in
        order, the elements in ID order), with what the text, the tables and the page data
        show of it: partner, colour, status, title, notes, errors."""
        d = self.docid
        kinds = [(kind, t) for kind, t in ((k, self.tasks.get(k)) for k in ENTITY_LIKE + RELEVE)
                 if t is not None]
        colour = self.colour
        ncol = 0
        for kind, t in kinds:
            res = t.res
            for rid in t.ids("REF", d):
                if res.doc_mapped(rid, d) is not None:
                    colour[(kind, rid)] = ncol % NCOLOURS
                    ncol += 1
        # the marks of an element are consecutive: the index of its first one
        first: dict = {}
        order = []
        n = 0
        for side in ("REF", "SYS"):
            for kind, t in kinds:
                res = t.res
                coll = res.ref if side == "REF" else res.sys
                for eid in t.ids(side, d):
                    g = coll[eid]
                    el = g.docs[d]
                    first[(side, kind, eid)] = n
                    order.append((side, kind, res, eid, g, el))
                    n += len(el.mentions)
        marks, by_mid, elements = self.marks, self.by_mid, self.elements
        element_marks = self.element_marks
        use_mentions = getattr(self.params, "use_mentions", True)
        for side, kind, res, eid, g, el in order:
            is_ref = side == "REF"
            s0 = side[0]
            ekey = f"{s0}:{kind}:{eid}"
            (other_side, other, oel, mm, status0, enotes, eerrors,
             of, pe) = self._element_facts(side, kind, res, eid, g, el)
            col = None
            omentions = ()
            ofirst = 0
            if other is not None:
                col = self.colour.get((kind, eid if is_ref else other))
                ofirst = first.get((other_side, kind, other))
                if ofirst is None or not mm:
                    mm = None
                else:
                    omentions = oel.mentions
            plain = mm is None and not use_mentions and kind in ENTITY_LIKE
            if mm is not None and not is_ref:
                inv: dict = {}
                for a, b in mm.items():
                    inv.setdefault(b, a)
                mm = inv
            entity = kind == "entity"
            event = kind == "event"
            what = f"{side} {_WHAT[kind]} "
            jh = (f',"sd":"{side}","kd":"{kind}","el":{_js(eid)},"ek":{_enc(ekey)}')
            pej = "null" if pe is None else _enc(pe)
            by_side = by_mid if kind in RELEVE else None
            keys = []
            elements[ekey] = {"row": f"row-{ekey}", "m": keys}
            emarks = element_marks[ekey] = []
            for i, m in enumerate(el.mentions):
                k = f"{s0}{len(marks)}"
                keys.append(k)
                if entity:
                    head, anchor, mtype = m.head, None, m.type
                    if kind in ENTITY_LIKE:
                        by_mid[(side, m.id)] = k
                elif event:
                    head, anchor, mtype = None, m.anchor, None
                else:
                    head = anchor = mtype = None
                    if kind in ENTITY_LIKE:
                        by_mid[(side, m.id)] = k
                partner = pm = None
                if mm is not None:
                    j = mm.get(i)
                    if j is not None and 0 <= j < len(omentions):
                        partner = f"{other_side[0]}{ofirst + j}"
                        pm = omentions[j]
                errors = list(eerrors)
                mid = m.id
                title = what + mid + (f" ({mtype})" if mtype else "")
                notes = [of]
                text_loc = head or anchor or m.extent
                q = None            # the text of the mention, blanks squeezed
                if text_loc is not None and text_loc.text:
                    q = " ".join(text_loc.text.split())
                    notes.append(("head " if head else "anchor " if anchor else "extent ")
                                 + _quoted(q, 60))
                if enotes:
                    notes.extend(enotes)
                status = status0
                if status is not None:
                    pass
                elif pm is not None:
                    status = "ok"
                    notes.append(f"mapped to {other_side} mention {pm.id} of {kind} {other}")
                    if entity:
                        if mtype != pm.type:
                            errors.append(f"mention type: {mtype} ≠ {pm.type}")
                        if m.role != pm.role:
                            errors.append(f"mention role: {m.role} ≠ {pm.role}")
                        if m.style != pm.style:
                            errors.append(f"mention style: {m.style} ≠ {pm.style}")
                        ph = pm.head
                        if head is not None and ph is not None and head.kind == "text" and \
                                (head.start != ph.start or head.end != ph.end):
                            notes.append(f"heads differ: {_quote(head.text, 30)} vs "
                                         f"{_quote(ph.text, 30)}")
                    ex, pex = m.extent, pm.extent
                    if ex.kind == "text" and (ex.start != pex.start or ex.end != pex.end):
                        notes.append(f"extents differ: {_quote(ex.text, 30)} vs "
                                     f"{_quote(pex.text, 30)}")
                elif plain:
                    status = "ok"
                    notes.append(f"{kind} mapped to {other_side} {kind} {other} (mentions are"
                                 " not mapped under this parameter set)")
                elif is_ref:
                    status = "mmiss"
                    notes.append(f"MENTION MISS: {kind} {eid} is mapped to {other}, but no SYS"
                                 " mention corresponds to this one")
                else:
                    status = "mfa"
                    notes.append(f"MENTION FALSE ALARM: {kind} {eid} is mapped to {other}, but"
                                 " no REF mention corresponds to this one")
                aj = ""             # the marks of its arguments (relation, event)
                if by_side is not None and m.arguments:
                    args = [by_side.get((side, a.refid)) for a in m.arguments]
                    aj = ",".join(['"' + a + '"' for a in args if a is not None])
                mk = {"k": k, "side": side, "kind": kind, "el": eid, "ek": ekey, "id": mid,
                      "m": m, "partner": partner, "colour": col, "status": status,
                      "title": title, "notes": notes, "errors": errors, "q": q,
                      # the page data (JSON) of the mark; x, h, a: its text segments
                      "jh": jh, "jid": "null" if mid is None else _enc(mid),
                      "pj": "null" if partner is None else '"' + partner + '"', "pej": pej,
                      "aj": aj, "x": "null", "h": "null", "a": "null"}
                marks.append(mk)
                emarks.append(mk)

    def diffs(self, kind: str, rid: str, sid: str, rd, sd) -> list[str]:
        """_attr_diffs of a mapped pair in this document (once per pair)."""
        key = (kind, rid, sid)
        out = self._diffs.get(key)
        if out is None:
            out = self._diffs[key] = _attr_diffs(kind, rd, sd)
        return out

    def attr_text(self, side: str, kind: str, eid: str, g) -> str:
        """_attr_text of an element (once per element)."""
        key = (side, kind, eid)
        out = self._attr_texts.get(key)
        if out is None:
            out = self._attr_texts[key] = _attr_text(kind, g.attrs)
        return out

    def _element_facts(self, side: str, kind: str, res, eid: str, g, el) -> tuple:
        """What every mention of one element ``eid`` (``g``, its document element ``el``)
        shares: the other side, its partner element in this document (its document element),
        their mention mapping (REF to SYS), the element's status if not decided per mention,
        its notes and errors, the first note of its mentions and the key of the partner."""
        d = self.docid
        if side == "REF":
            other_side = "SYS"
            other = res.doc_mapped(eid, d)
            key = (eid, other, d)
        else:
            other_side = "REF"
            other = res.sys_doc_mapped(eid, d)
            key = (other, eid, d)
        mm = oel = None
        notes, errors = [], []
        status = None               # None: decided per mention (mapped with a value)
        if other is None:
            mapped_elsewhere = (res.mapping.get(eid) if side == "REF"
                                else res.rmapping.get(eid))
            if side == "REF":
                status = "miss"
                notes.append(f"MISS: {kind} {eid} is not mapped to a SYS {kind}"
                             + (f" in this document (mapped to {mapped_elsewhere} elsewhere)"
                                if mapped_elsewhere else ""))
            else:
                status = "fa"
                notes.append(f"FALSE ALARM: {kind} {eid} is not mapped to a REF {kind}"
                             + (f" in this document (mapped to {mapped_elsewhere} elsewhere)"
                                if mapped_elsewhere else ""))
        else:
            mm = res.mention_map.get(key)
            ograph = (res.sys if side == "REF" else res.ref)[other]
            oel = ograph.docs[d]
            if key not in res.doc_costs:
                status = "miss" if side == "REF" else "fa"
                notes.append(f"{'MISS' if side == 'REF' else 'FALSE ALARM'}: {kind} {eid} is"
                             f" mapped to {other}, but the pair has no value in this document")
            else:
                rid, sid = (eid, other) if side == "REF" else (other, eid)
                rd, sd = (el, oel) if side == "REF" else (oel, el)
                diffs = self.diffs(kind, rid, sid, rd, sd)
                if diffs:
                    errors.append(f"attribute error ({kind} {rid} ↔ {sid}): "
                                  + "; ".join(diffs))
                if kind in RELEVE:
                    ne = res.arg_errors.get(rid, 0)
                    if ne:
                        errors.append(f"{ne} argument error{'s' if ne != 1 else ''}")
        return (other_side, other, oel, mm, status, tuple(notes), tuple(errors),
                f"of {kind} {eid}: {self.attr_text(side, kind, eid, g)}",
                f"{other_side[0]}:{kind}:{other}" if other is not None else None)

    # ---- text segmentation (acescore.report.view_text)
    def segments(self):
        return segments(self)

    def text_html(self) -> str:
        return text_html(self)

    # ---- tables
    def _mention_links(self, ekey: str) -> str:
        links = []
        for mk in self.element_marks.get(ekey, ()):
            mid = mk["id"]
            q = mk["q"]
            label = mid if q is None else _quoted(q, 24)
            st = mk["status"]       # a status name: nothing to escape
            links.append(f'<a href="#" class="ml st-{st}" data-k="{mk["k"]}" '
                         f'title="{esc(mid)}: {st}">{esc(label)}</a>')
        return " ".join(links)

    def _arguments(self, kind: str, rid: Optional[str], sid: Optional[str]) -> str:
        """The element-level arguments of a REF/SYS pair in this document, with their
        argument mapping."""
        res = self.tasks[kind].res
        d = self.docid
        amap = res.argument_map.get((rid, sid)) if rid is not None and sid is not None else None
        inv = {v: k for k, v in (amap or {}).items()}
        items = []

        def link(side, aid):
            for kd in ENTITY_LIKE:
                ek = self.element_key(side, kd, aid)
                if ek in self.elements and self.elements[ek]["m"]:
                    return (f'<a href="#" class="ml" data-k="{self.elements[ek]["m"][0]}">'
                            f'{esc(aid)}</a>')
            return esc(aid)
        if rid is not None:
            rel = res.ref[rid].docs.get(d)
            for a in (rel.arguments if rel is not None else ()):
                s = inv.get((a.role, a.refid))
                if s is not None:
                    role = a.role if s[0] == a.role else f"{a.role}→{s[0]}"
                    items.append(f'<li class="ok">{esc(role)}: {link("REF", a.refid)} ↔ '
                                 f'{link("SYS", s[1])}</li>')
                else:
                    items.append(f'<li class="bad">{esc(a.role)}: {link("REF", a.refid)} '
                                 f'<i>not mapped</i></li>')
        if sid is not None:
            sel = res.sys[sid].docs.get(d)
            for a in (sel.arguments if sel is not None else ()):
                if amap is not None and (a.role, a.refid) in amap:
                    continue
                items.append(f'<li class="bad">{esc(a.role)}: {link("SYS", a.refid)} '
                             f'<i>(SYS) not mapped</i></li>')
        return f'<ul class="args">{"".join(items)}</ul>' if items else ""

    def table(self, kind: str) -> str:
        t = self.tasks.get(kind)
        if t is None:
            return ""
        res = t.res
        recs = t.records.get(self.docid, [])
        if not recs:
            return ""
        d = self.docid
        releve = kind in RELEVE
        sub_label = "Arg" if releve else "Mention"
        head = ("<tr><th>REF</th><th>SYS</th><th>status</th><th>REF attributes</th>"
                "<th>SYS attributes</th>" + ("<th>arguments</th>" if releve else "")
                + "<th>REF mentions</th><th>SYS mentions</th>"
                "<th title=\"REF document value\">REF value</th>"
                "<th title=\"value of the mapped pair in this document\">pair value</th>"
                "<th title=\"REF value − pair value, or the FA cost\">cost</th>"
                "<th title=\"cost of attribute errors\">Attr</th>"
                f"<th title=\"{sub_label} miss cost\">{sub_label} Miss</th>"
                f"<th title=\"{sub_label} error cost\">{sub_label} Err</th>"
                f"<th title=\"{sub_label} false-alarm cost\">{sub_label} FA</th></tr>")
        rows = []
        counts = {"correct": 0, "error": 0, "miss": 0, "fa": 0}
        for rec in recs:
            counts[rec.status] += 1
            if rec.side == "REF":
                rid = rec.eid
                sid = res.doc_mapped(rid, d)
                if sid is None and rid in res.mapping:
                    sid_note = f'<span class="muted">{esc(res.mapping[rid])} (elsewhere)</span>'
                else:
                    sid_note = None
            else:
                sid = rec.eid
                rid = None
                sid_note = None
            rkey = self.element_key("REF", kind, rid) if rid else None
            skey = self.element_key("SYS", kind, sid) if sid else None
            rg = res.ref[rid] if rid else None
            sg = res.sys[sid] if sid else None
            rd = rg.docs.get(d) if rg is not None else None
            sd = sg.docs.get(d) if sg is not None else None
            diffs = (self.diffs(kind, rid, sid, rd, sd) if rd is not None and sd is not None
                     else [])
            status = rec.status
            if status == "error":
                expl = "mapped with errors: " + "; ".join(diffs)
                if releve and res.arg_errors.get(rid, 0):
                    expl += ("; " if diffs else "") + f"{res.arg_errors[rid]} argument error(s)"
            else:
                expl = _EXPLAIN[status]
            if diffs:
                bad = esc("; ".join(diffs))
                rcell = (f'<td class="attr bad" title="{bad}">'
                         f'{esc(self.attr_text("REF", kind, rid, rg))}</td>'
                         if rg is not None else "<td></td>")
                scell = (f'<td class="attr bad" title="{bad}">'
                         f'{esc(self.attr_text("SYS", kind, sid, sg))}</td>'
                         if sg is not None else "<td></td>")
            else:
                rcell = (f'<td class="attr">{esc(self.attr_text("REF", kind, rid, rg))}</td>'
                         if rg is not None else "<td></td>")
                scell = (f'<td class="attr">{esc(self.attr_text("SYS", kind, sid, sg))}</td>'
                         if sg is not None else "<td></td>")
            c1, c2, c3, c4 = rec.comps or (None, None, None, None)
            pair_value = res.doc_mv.get((rid, sid, d)) if rid and sid else None
            ids = f"{rkey} {skey}" if rkey and skey else (rkey or skey)
            row_id = rkey or skey
            rows.append(
                f'<tr id="row-{esc(row_id)}" class="st-{status}" data-el="{esc(ids)}">'
                f'<td class="id">{esc(rid) if rid else ""}</td>'
                f'<td class="id">{esc(sid) if sid else (sid_note or "")}</td>'
                f'<td class="status" title="{esc(expl)}">{status}</td>'
                f'{rcell}{scell}'
                + (f'<td>{self._arguments(kind, rid, sid)}</td>' if releve else "")
                + f'<td class="ms">{self._mention_links(rkey) if rkey else ""}</td>'
                f'<td class="ms">{self._mention_links(skey) if skey else ""}</td>'
                f'<td class="num">{_fmt(rec.norm) if rec.side == "REF" else ""}</td>'
                f'<td class="num">{_fmt(pair_value)}</td>'
                f'<td class="num">{_fmt(rec.cost)}</td>'
                f'<td class="num">{_fmt(c1)}</td><td class="num">{_fmt(c2)}</td>'
                f'<td class="num">{_fmt(c3)}</td><td class="num">{_fmt(c4)}</td></tr>')
            if skey:
                # make the SYS element of a mapped row findable as well
                self.elements.get(skey, {})["row"] = f"row-{row_id}"
            if rkey:
                self.elements.get(rkey, {})["row"] = f"row-{row_id}"
        summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
        return (f'<section class="elements" id="tab-{kind}"><h2>{KIND_TITLES[kind]} '
                f'<span class="muted">({summary})</span></h2>'
                f'<div class="tablewrap"><table class="el"><thead>{head}</thead><tbody>'
                + "".join(rows) + "</tbody></table></div></section>")

    # ---- the page data (JSON)
    def data_json(self) -> str:
        """The page's data, ``{"m": [every mark], "el": self.elements}``, as
        ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` writes it (built
        piece by piece: what an element's marks share is encoded once, in :meth:`collect`)."""
        enc = _enc
        # (the keys of marks, "R12", "S7", and the statuses need no escaping)
        marks = [f'{{"k":"{mk["k"]}"{mk["jh"]},"id":{mk["jid"]},"x":{mk["x"]},"h":{mk["h"]},'
                 f'"an":{mk["a"]},"p":{mk["pj"]},"pe":{mk["pej"]},"st":"{mk["status"]}",'
                 f'"t":{enc(mk["title"])},"n":[{",".join(map(enc, mk["notes"]))}],'
                 f'"e":[{",".join(map(enc, mk["errors"]))}],"a":[{mk["aj"]}]}}'
                 for mk in self.marks]
        return ('{"m":[' + ",".join(marks) + '],"el":'
                + json.dumps(self.elements, ensure_ascii=False, separators=(",", ":")) + "}")

    # ---- the page
    def render(self, sources: dict) -> str:
        self.collect()
        d = self.docid
        prev_f, next_f = self.nav
        vals = []
        for t in self.printed:
            v = t.doc_values.get(d)
            if v is None:
                continue
            pct, sysv, refv = v
            vals.append(f'<span class="dv" data-task="{esc(t.task)}" '
                        f'title="{sysv:.5f} out of {refv:.5f}">{esc(t.code)} <b>{pct}</b> %'
                        f'</span>')
        nav = ['<a href="../index.html">index</a>']
        if prev_f:
            nav.append(f'<a href="{esc(prev_f)}" rel="prev">← previous</a>')
        if next_f:
            nav.append(f'<a href="{esc(next_f)}" rel="next">next →</a>')
        tables = "".join(self.table(k) for k in ENTITY_LIKE + RELEVE)
        if self.source is not None:
            text = self.text_html()
            text_block = f'<div id="text" class="text">{text}</div>'
        else:
            text_block = f'<p class="warn">{esc(self.source_note)}</p>'
        notes = []
        if self.source is not None and self.source_note:
            notes.append(self.source_note)
        if self.offset_mismatch:
            notes.append(f"{self.offset_mismatch} mention extent(s) whose charseq text differs"
                         " from the source text at their offsets")
        bad = sum(1 for mk in self.marks if mk.get("bad"))
        if bad and self.source is not None:
            notes.append(f"{bad} mention(s) with offsets outside the source text")
        data = self.data_json()
        legend = ('<div class="legend doc-legend">'
                  '<span><span class="smp r k0">REF</span> underlined: reference mention'
                  ' (thick + tint: head)</span>'
                  '<span><span class="smp s q0">SYS</span> overlined: system mention</span>'
                  '<span>same colour: mapped pair</span>'
                  '<span><span class="smp r rx">miss</span> / '
                  '<span class="smp s sx">false alarm</span>: element not mapped</span>'
                  '<span><span class="smp r rd k1">dashed</span>: mention not mapped within'
                  ' a mapped pair</span>'
                  '<span><span class="smp e">wavy red</span>: attribute error</span>'
                  '<span><span class="smp ra">bold</span> / <span class="smp sa">italic'
                  '</span>: REF / SYS event anchor</span>'
                  '<span>click a mention to see its partner; click again to cycle through'
                  ' overlapping mentions</span></div>')
        body = (f'<header><nav>{" · ".join(nav)}</nav><h1>{esc(d)}</h1>'
                f'<p class="muted">source: {esc(sources.get(d, ""))}</p>'
                f'<p class="values">{" ".join(vals)}</p>'
                + "".join(f'<p class="warn">{esc(n)}</p>' for n in notes)
                + f'</header>{legend}<main class="docmain"><div class="textcol">{text_block}'
                f'</div><aside id="info"><p class="muted">Click a mention in the text or in a'
                f' table.</p></aside></main>{tables}'
                f'<div id="tip" hidden></div><div id="selftest" hidden></div>'
                + script_json(data, "doc-data"))
        return page(f"{d} — acescore view", body, "../", "doc")


def _js(s) -> str:
    """A string or None as JSON."""
    return "null" if s is None else _enc(s)
