"""The source text of a document page of the HTML view: cut at every mention boundary into
segments, each a ``span`` with the classes of the mentions that cover it (see
:mod:`acescore.report.view_page`)."""
from __future__ import annotations

from bisect import bisect_left

from acescore.reading.sgml import span_matches
from acescore.report.view_common import ENTITY_LIKE, esc

_MISMATCH = "the charseq text differs from the source text at these offsets"


def segments(page):
    """The segment boundaries of the text of ``page`` (a DocPage) and the text spans of
    its mentions ``(mark, "x"/"h"/"a", start, end + 1)``."""
    text = page.source.text
    n = len(text)
    points = {0, n}
    if page.source.text_region:
        points.update(page.source.text_region)
    spans = []                     # (mark, what, start, end+1)
    add, append = points.add, spans.append
    for mk in page.marks:
        m = mk["m"]
        kind = mk["kind"]
        locs = (("x", m.extent), ("h", m.head)) if kind == "entity" else \
            (("x", m.extent), ("a", m.anchor)) if kind == "event" else (("x", m.extent),)
        for what, loc in locs:
            if loc is None or loc.kind != "text":
                continue
            s, e = int(loc.start), int(loc.end) + 1
            if s < 0 or e > n or e <= s:
                mk.setdefault("bad", True)
                continue
            if what == "x":
                lt = loc.text
                if lt and lt != text[s:e] and not span_matches(lt, text[s:e]):
                    page.offset_mismatch += 1
                    mk["notes"].append(_MISMATCH)
            add(s)
            add(e)
            append((mk, what, s, e))
    bounds = sorted(points)
    return bounds, spans


def text_html(page) -> str:
    """The source text of ``page`` (a DocPage) as spans of HTML."""
    text = page.source.text
    bounds, spans = segments(page)
    nseg = len(bounds) - 1
    big = len(text) + 1
    ref_len = [big] * nseg          # innermost REF entity-like mention: its length and
    ref_cls = [None] * nseg         # classes (the first of equal lengths)
    sys_len = [big] * nseg
    sys_cls = [None] * nseg
    ref_head = [False] * nseg
    sys_head = [False] * nseg
    err = [False] * nseg
    anc = [""] * nseg
    cover: list = [None] * nseg
    # bounds are distinct and sorted: a position -> its index
    where = {b: i for i, b in enumerate(bounds)}
    classes: dict = {}
    for mk, what, s, e in spans:
        i0 = where[s]
        i1 = where[e]
        mk[what] = f"[{i0},{i1}]"         # (JSON)
        entity_like = mk["kind"] in ENTITY_LIKE
        ln = e - s
        is_ref = mk["side"] == "REF"
        if what == "x" and entity_like:
            lens, clss = (ref_len, ref_cls) if is_ref else (sys_len, sys_cls)
            ck = (is_ref, mk["status"], mk["colour"])
            c = classes.get(ck)
            if c is None:
                c = classes[ck] = _extent_classes(*ck)
            item = (ln, 0 if is_ref else 1, mk["k"])
            for i in range(i0, i1):
                if ln < lens[i]:
                    lens[i] = ln
                    clss[i] = c
                cv = cover[i]
                if cv is None:
                    cover[i] = [item]
                else:
                    cv.append(item)
        elif what == "h" and entity_like:
            arr = ref_head if is_ref else sys_head
            bad = bool(mk["errors"])
            for i in range(i0, i1):
                arr[i] = True
                if bad:
                    err[i] = True
        elif what == "a":
            c = "ra" if is_ref else "sa"
            bad = bool(mk["errors"])
            item = (10 ** 9 + ln, 0 if is_ref else 1, mk["k"])
            for i in range(i0, i1):
                anc[i] = (anc[i] + " " + c).strip() if c not in anc[i] else anc[i]
                cv = cover[i]
                if cv is None:
                    cover[i] = [item]
                else:
                    cv.append(item)
                if bad:
                    err[i] = True
    region = page.source.text_region
    if region is not None:          # the segments outside the text region: [0, t0), [t1, ..)
        t0, t1 = bisect_left(bounds, region[0]), bisect_left(bounds, region[1])
    else:
        t0, t1 = 0, nseg
    out = []
    append = out.append
    opening: dict = {}              # the classes of a segment -> its opening tag
    newlines = 2                   # blank lines at the start are not shown
    for i in range(nseg):
        a, b = bounds[i], bounds[i + 1]
        key = (ref_cls[i], ref_head[i], sys_cls[i], sys_head[i], err[i], anc[i],
               not t0 <= i < t1)
        tag = opening.get(key)
        if tag is None:
            tag = opening[key] = _opening(*key)
        seg = text[a:b]
        if "&" in seg or "<" in seg or ">" in seg or '"' in seg or "'" in seg:
            escape = True
        else:
            escape = False
        cv = cover[i]
        if cv is None:
            # display only: runs of blank lines (left by removed tags) shrink to one;
            # the offsets live in the segment ranges, not in the displayed characters
            if "\n" not in seg:        # (what _squeeze_blank_lines does with it)
                if seg.strip():
                    newlines = 0
                elif newlines >= 2:
                    seg = ""
            else:
                seg, newlines = _squeeze_blank_lines(seg, newlines)
            append(f'{tag}>{esc(seg) if escape else seg}</span>')
        else:
            newlines = 0
            if len(cv) == 1:
                keys = cv[0][2]
            else:
                cv.sort()
                keys = " ".join([k for _, _, k in cv])
            append(f'{tag} data-c="{keys}">{esc(seg) if escape else seg}</span>')
    return "".join(out)


def _opening(rc, rh, sc, sh, e, anc, nt) -> str:
    """The opening tag (without its ``>``) of a segment of these classes."""
    cls = []
    if rc is not None:
        cls.append(rc)
        if rh:
            cls.append("rh")
    if sc is not None:
        cls.append(sc)
        if sh:
            cls.append("sh")
    if e:
        cls.append("e")
    if anc:
        cls.append(anc)
    if nt:
        cls.append("nt")
    return f'<span class="{" ".join(cls)}"' if cls else "<span"


def _extent_classes(is_ref: bool, status: str, colour) -> str:
    """The classes of a segment of text whose innermost REF (SYS) entity-like mention is
    one of this status and colour."""
    if is_ref:
        if status == "miss":
            return "r rx"
        return ("r" + (f" k{colour}" if colour is not None else "")
                + (" rd" if status == "mmiss" else ""))
    if status == "fa":
        return "s sx"
    return ("s" + (f" q{colour}" if colour is not None else "")
            + (" sd" if status == "mfa" else ""))


def _squeeze_blank_lines(seg: str, newlines: int) -> tuple[str, int]:
    """``seg`` with at most one blank line in a row, given that the text shown before it
    ends with ``newlines`` line breaks (and blanks); returns the new count as well."""
    out = []
    parts = seg.split("\n")
    for j, part in enumerate(parts):
        if j > 0:
            if newlines < 2:
                out.append("\n")
            newlines += 1
        if part.strip():
            out.append(part)
            newlines = 0
        elif newlines < 2:
            out.append(part)
    return "".join(out), newlines


def _span_ok(charseq: str, source_span: str) -> bool:
    return span_matches(charseq, source_span)
