"""The marks of a document page of the HTML view: one for every mention of the document's
elements, described once (partner, colour, status, notes, errors), with what the page shows
of it made in the same pass -- its text spans, its link in the element tables and its entry
in the page data (see :mod:`acescore.view.page`)."""

from __future__ import annotations

# (the page data in ASCII: strings of one byte a character are joined and copied fastest)
from json.encoder import encode_basestring_ascii as _enc

from acescore.reading.sgml import span_matches
from acescore.report.counts.conditions import ERROR_ATTRIBUTES
from acescore.report.counts.records import attribute_differences
from acescore.view.common import ENTITY_LIKE, RELEVE, esc

NCOLOURS = 24
_MISMATCH = "the charseq text differs from the source text at these offsets"
_MTYPES: dict = {}  # a mention type -> it in JSON


def attr_text(kind: str, attrs: dict) -> str:
    """The attributes of an element as its table row shows them."""
    if kind == "entity":
        return (
            f"{attrs.get('TYPE')}.{attrs.get('SUBTYPE')} {attrs.get('CLASS')} {attrs.get('LEVEL')}"
        )
    if kind in ("relation", "event"):
        s = f"{attrs.get('TYPE')}.{attrs.get('SUBTYPE')}"
        rest = [
            f"{a}={attrs[a]}"
            for a in ERROR_ATTRIBUTES[kind]
            if a not in ("TYPE", "SUBTYPE") and attrs.get(a) is not None
        ]
        return s + (" " + " ".join(rest) if rest else "")
    if kind == "value":
        return f"{attrs.get('TYPE')}" + (f".{attrs['SUBTYPE']}" if attrs.get("SUBTYPE") else "")
    rest = [
        f"{a}={attrs[a]}"
        for a in ERROR_ATTRIBUTES[kind]
        if a not in ("TYPE", "SUBTYPE") and attrs.get(a) is not None
    ]
    return "TIMEX2" + (" " + " ".join(rest) if rest else "")


def attr_diffs(kind: str, rd, sd) -> list[str]:
    """The attributes counted as errors (docs/rules/report.md §2.5): 'NAME: ref ≠ sys'."""
    return [
        f"{a}: {x if x is not None else '—'} ≠ {y if y is not None else '—'}"
        for a, x, y in attribute_differences(kind, rd, sd)
    ]


def _quote(s: str, n: int = 60) -> str:
    return _quoted(" ".join((s or "").split()), n)


def _short(quoted: dict, s: str) -> str:
    """``_quote(s, 30)``, remembered in ``quoted`` (under ``s`` itself)."""
    out = quoted.get(s)
    if out is None:
        out = quoted[s] = _quote(s, 30)
    return out


def _quoted(s: str, n: int) -> str:
    """``s`` (blanks squeezed) in quotes, cut to ``n`` characters."""
    return "“" + (s if len(s) <= n else s[: n - 1] + "…") + "”"


def collect(page) -> None:
    """Fill ``page`` (a DocPage): a mark for every mention of the document's elements (REF
    then SYS, the kinds in order, the elements in ID order: the marks of an element are
    consecutive, keys ``R0``, ``R1``, ..., ``S<n>``...), its entry of the page data in
    ``page.data`` (seven pieces of JSON each, the second, fourth and sixth its text segments,
    "null" until :func:`~acescore.view.text.text_html` finds them) and the entry of
    every element in ``page.edata`` (see :meth:`~acescore.view.page.DocPage.data_json`
    for the format); with a source text, the text spans of the marks in ``page.spans`` (in
    mark order, extent, head, anchor: ``(index in page.data, slot, start, end + 1, is REF,
    key, extra)``, slot 1 an entity-like extent with its classes as extra, 0 another extent,
    2 a head, 3 an anchor with whether the mention has errors as extra) and the boundaries
    of the text (and its region) in ``page.points``; the elements (``page.elements``), the
    first mark of every entity-like element (``page.first_marks``) and the links to their
    mentions (``page.links``)."""
    d = page.docid
    kinds = [
        (kind, t)
        for kind, t in ((k, page.tasks.get(k)) for k in ENTITY_LIKE + RELEVE)
        if t is not None
    ]
    colour, mapped = page.colour, page.mapped
    ncol = 0
    for kind, t in kinds:
        res = t.res
        for rid in t.ids("REF", d):
            sid = mapped[(kind, rid)] = res.doc_mapped(rid, d)
            if sid is not None:
                colour[(kind, rid)] = ncol % NCOLOURS
                ncol += 1
    first: dict = {}  # (side, kind, id) -> the index of the element's first mark
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
    source = page.source
    if source is not None:
        page.points.update((0, len(source.text)))
        if source.text_region:
            page.points.update(source.text_region)
    # (prefix, text) -> a mention text's note (JSON) and link label; text -> it cut short
    quoted: dict = {}
    use_mentions = getattr(page.params, "use_mentions", True)
    for side, kind, res, eid, g, el in order:
        _element_marks(page, first, quoted, use_mentions, side, kind, res, eid, g, el)


def _element_marks(
    page, first: dict, quoted: dict, use_mentions: bool, side: str, kind: str, res, eid: str, g, el
) -> None:
    """The marks of the mentions of one element and its entry in the page data (see
    :func:`collect`; ``first``: the index of the first mark of every element, ``quoted``:
    the notes and labels of mention texts made so far).  What the mentions share (side,
    kind, element, attributes, notes and errors, the partner element) is said once, in the
    element's entry; view.js makes the sentences of a mark's notes from it."""
    source = page.source
    text = source.text if source is not None else None
    data, by_mid = page.data, page.by_mid
    enc = _enc
    is_ref = side == "REF"
    s0 = side[0]
    ekey = f"{s0}:{kind}:{eid}"
    (other_side, other, oel, mm, status0, enotes, eerrors, attrs) = element_facts(
        page, side, kind, res, eid, g, el
    )
    plain = mm is None and not use_mentions and kind in ENTITY_LIKE
    col, mm, omentions, ofirst = _partner(
        page, first, is_ref, kind, eid, other_side, other, oel, mm
    )
    entity = kind == "entity"
    event = kind == "event"
    entity_like = kind in ENTITY_LIKE
    by_side = by_mid if kind in RELEVE else None
    xcls: dict = {}  # status -> the classes of the element's extents
    mentions = el.mentions
    keys = _element_entry(page, side, kind, eid, ekey, len(mentions), other, attrs, enotes, eerrors)
    elinks = page.links[ekey] = []
    slot2 = 2 if entity else 3  # the slot of a head (entity) or anchor (event)
    xslot = 1 if entity_like else 0
    for i, m in enumerate(mentions):
        b = len(data)  # (seven pieces a mark)
        k = f"{s0}{b // 7}"
        keys.append(k)
        mid = m.id
        ex = m.extent
        if entity:
            loc2 = head = m.head
            anchor = None
            mtype = m.type
            mtj = _MTYPES.get(mtype)
            if mtj is None:
                mtj = _MTYPES[mtype] = "null" if mtype is None else enc(mtype)
        else:
            head = None
            loc2 = anchor = m.anchor if event else None
            mtj = "null"
        if entity_like:
            by_mid[(side, mid)] = k
        pm = None
        pj = "null"
        if mm is not None:
            j = mm.get(i)
            if j is not None and 0 <= j < len(omentions):
                pj = ofirst + j
                pm = omentions[j]
        xerr = xnotes = None  # the mark's own errors and notes (after those it shares)
        text_loc = head or anchor or ex
        raw = text_loc.text if text_loc is not None else None
        if raw:  # (the same text recurs: REF and SYS, several mentions)
            prefix = "head " if head else "anchor " if anchor else "extent "
            said = quoted.get((prefix, raw))
            if said is None:
                q = " ".join(raw.split())
                said = quoted[(prefix, raw)] = (enc(prefix + _quoted(q, 60)), esc(_quoted(q, 24)))
            saidj, label = said
        else:
            saidj = "null"
            label = None  # (of its link: the text of the mention, squeezed, quoted)
        status = status0
        if status is not None:
            pass
        elif pm is not None:
            status = "ok"  # (view.js says to which mention)
            xerr, xnotes = _partner_findings(quoted, entity, m, pm)
        elif plain:
            status = "ok"  # (view.js says that mentions are not mapped)
        else:
            status = "mmiss" if is_ref else "mfa"
        # the mark's entry in the page data: its text segments (JSON) at b + 1, 3, 5
        data += (
            f"{',' if b else ''}[{'null' if mid is None else enc(mid)},",
            "null",
            ",",
            "null",
            ",",
            "null",
            None,
        )
        if text is not None and _text_spans(
            page,
            text,
            b,
            k,
            is_ref,
            ex,
            xslot,
            loc2,
            slot2,
            bool(eerrors or xerr),
            xcls,
            status,
            col,
        ):
            xnotes = (xnotes or []) + [_MISMATCH]
        # the mark's own notes, errors and the marks of its arguments
        more = f'"n":[{",".join(map(enc, xnotes))}]' if xnotes else ""
        if xerr:
            more += f'{"," if more else ""}"e":[{",".join(map(enc, xerr))}]'
        if by_side is not None and m.arguments:
            aj = ",".join(
                [
                    '"' + a + '"'
                    for a in [by_side.get((side, a.refid)) for a in m.arguments]
                    if a is not None
                ]
            )
            if aj:
                more += f'{"," if more else ""}"a":[{aj}]'
        # (the keys of marks, "R12", "S7", and the statuses need no escaping)
        data[b + 6] = (
            f',"{status}",{pj},{mtj},{saidj},{{{more}}}]'
            if more
            else f',"{status}",{pj},{mtj},{saidj}]'
        )
        emid = esc(mid)
        elinks.append(
            f'<a href="#" class="ml st-{status}" data-k="{k}" '
            f'title="{emid}: {status}">{label or emid}</a>'
        )


def _partner(
    page, first: dict, is_ref: bool, kind: str, eid: str, other_side: str, other, oel, mm
) -> tuple:
    """The partner element's colour, the mention mapping from this side's mentions (None
    if the partner has no marks or the pair no mapping), the partner's mentions and the
    index of its first mark."""
    if other is None:
        return None, None, (), 0  # (element_facts gives no mapping without a partner)
    col = page.colour.get((kind, eid if is_ref else other))
    ofirst = first.get((other_side, kind, other))
    if ofirst is None or not mm:
        return col, None, (), 0
    if not is_ref:
        inv: dict = {}
        for a, b in mm.items():
            inv.setdefault(b, a)
        mm = inv
    return col, mm, oel.mentions, ofirst


def _element_entry(
    page,
    side: str,
    kind: str,
    eid: str,
    ekey: str,
    nmentions: int,
    other,
    attrs: str,
    enotes: tuple,
    eerrors: tuple,
) -> list:
    """The element's entry in the page data and in ``page.elements`` (whose list of mark
    keys is returned, to be filled), and its first mark as an argument's link target."""
    enc = _enc
    edata = page.edata
    edata.append(
        (
            ekey,
            (
                f'{"," if edata else ""}{{"sd":"{side}","kd":"{kind}","el":{enc(eid)},'
                f'"c":{nmentions},"o":{"null" if other is None else enc(other)},'
                f'"a":{enc(attrs)},"n":[{",".join(map(enc, enotes))}],'
                f'"e":[{",".join(map(enc, eerrors))}]'
            ),
        )
    )
    keys: list = []
    page.elements[ekey] = {"row": f"row-{ekey}", "m": keys}
    if kind in ENTITY_LIKE and nmentions:  # (an argument's link: the first kind that has it)
        page.first_marks.setdefault((side, eid), f"{side[0]}{len(page.data) // 7}")
    return keys


def _partner_findings(quoted: dict, entity: bool, m, pm) -> tuple:
    """The errors and notes of a mention ``m`` mapped to ``pm``: its type, role and style
    where they differ (entities), its head and extent where their offsets differ."""
    errors: list = []
    notes: list = []
    if entity:
        mtype = m.type
        if mtype != pm.type:
            errors.append(f"mention type: {mtype} ≠ {pm.type}")
        if m.role != pm.role:
            errors.append(f"mention role: {m.role} ≠ {pm.role}")
        if m.style != pm.style:
            errors.append(f"mention style: {m.style} ≠ {pm.style}")
        head, ph = m.head, pm.head
        if (
            head is not None
            and ph is not None
            and head.kind == "text"
            and (head.start != ph.start or head.end != ph.end)
        ):
            notes.append(f"heads differ: {_short(quoted, head.text)} vs {_short(quoted, ph.text)}")
    ex, pex = m.extent, pm.extent
    if ex.kind == "text" and (ex.start != pex.start or ex.end != pex.end):
        notes.append(f"extents differ: {_short(quoted, ex.text)} vs {_short(quoted, pex.text)}")
    return errors or None, notes or None


def _text_spans(
    page,
    text: str,
    b: int,
    k: str,
    is_ref: bool,
    ex,
    xslot: int,
    loc2,
    slot2: int,
    has_errors: bool,
    xcls: dict,
    status: str,
    col,
) -> bool:
    """Add the text spans of a mark (its entry at ``b`` in the page data, key ``k``) to
    ``page.spans``: its extent (slot ``xslot``) and its head or anchor ``loc2`` (slot
    ``slot2``); count the offsets outside the text.  True when the extent's charseq text
    differs from the source text there."""
    ntext = len(text)
    spans = page.spans
    bad = mismatch = False
    if ex is not None and ex.kind == "text":
        s, e = int(ex.start), int(ex.end) + 1
        if s < 0 or e > ntext or e <= s:
            bad = True
        else:
            lt = ex.text
            if (
                lt
                and not (len(lt) == e - s and text.startswith(lt, s))
                and not span_matches(lt, text[s:e])
            ):
                page.offset_mismatch += 1
                mismatch = True
            if xslot:
                extra = xcls.get(status)
                if extra is None:
                    extra = xcls[status] = extent_classes(is_ref, status, col)
            else:
                extra = None  # a relation or event extent: not marked
            spans.append((b + 1, xslot, s, e, is_ref, k, extra))
    if loc2 is not None and loc2.kind == "text":
        s, e = int(loc2.start), int(loc2.end) + 1
        if s < 0 or e > ntext or e <= s:
            bad = True
        else:
            spans.append((b + _AT[slot2], slot2, s, e, is_ref, k, has_errors))
    if bad:
        page.bad_offsets += 1
    return mismatch


#: the place of a text span's segments in the entry of its mark: slot (see collect) -> index
_AT = (1, 1, 3, 5)


def extent_classes(is_ref: bool, status: str, colour) -> str:
    """The classes of a segment of text whose innermost REF (SYS) entity-like mention is
    one of this status and colour."""
    if is_ref:
        if status == "miss":
            return "r rx"
        return (
            "r"
            + (f" k{colour}" if colour is not None else "")
            + (" rd" if status == "mmiss" else "")
        )
    if status == "fa":
        return "s sx"
    return "s" + (f" q{colour}" if colour is not None else "") + (" sd" if status == "mfa" else "")


def element_facts(page, side: str, kind: str, res, eid: str, g, el) -> tuple:
    """What every mention of one element ``eid`` of ``page`` (``g``, its document element
    ``el``) shares: the other side, its partner element in this document and the partner's
    document element, their mention mapping (REF to SYS), the element's status if not
    decided per mention, its notes and errors, its attributes (as its table row shows
    them)."""
    d = page.docid
    if side == "REF":
        other_side = "SYS"
        other = page.mapped[(kind, eid)]
        key = (eid, other, d)
    else:
        other_side = "REF"
        other = res.sys_doc_mapped(eid, d)
        key = (other, eid, d)
    mm = oel = None
    notes, errors = [], []
    status = None  # None: decided per mention (mapped with a value)
    if other is None:
        mapped_elsewhere = res.mapping.get(eid) if side == "REF" else res.rmapping.get(eid)
        if side == "REF":
            status = "miss"
            notes.append(
                f"MISS: {kind} {eid} is not mapped to a SYS {kind}"
                + (
                    f" in this document (mapped to {mapped_elsewhere} elsewhere)"
                    if mapped_elsewhere
                    else ""
                )
            )
        else:
            status = "fa"
            notes.append(
                f"FALSE ALARM: {kind} {eid} is not mapped to a REF {kind}"
                + (
                    f" in this document (mapped to {mapped_elsewhere} elsewhere)"
                    if mapped_elsewhere
                    else ""
                )
            )
    else:
        mm = res.mention_map.get(key)
        ograph = (res.sys if side == "REF" else res.ref)[other]
        oel = ograph.docs[d]
        if key not in res.doc_costs:
            status = "miss" if side == "REF" else "fa"
            notes.append(
                f"{'MISS' if side == 'REF' else 'FALSE ALARM'}: {kind} {eid} is"
                f" mapped to {other}, but the pair has no value in this document"
            )
        else:
            rid, sid = (eid, other) if side == "REF" else (other, eid)
            rd, sd = (el, oel) if side == "REF" else (oel, el)
            diffs = page.diffs(kind, rid, sid, rd, sd)
            if diffs:
                errors.append(f"attribute error ({kind} {rid} ↔ {sid}): " + "; ".join(diffs))
            if kind in RELEVE:
                ne = res.arg_errors.get(rid, 0)
                if ne:
                    errors.append(f"{ne} argument error{'s' if ne != 1 else ''}")
    return (
        other_side,
        other,
        oel,
        mm,
        status,
        tuple(notes),
        tuple(errors),
        page.attr_text(side, kind, eid, g),
    )
