"""The source text of a document page of the HTML view: cut at every mention boundary into
segments, each a ``span`` with the classes of the mentions that cover it (see
:mod:`acescore.view.page`; the spans of the mentions are found by
:func:`acescore.view.marks.collect`)."""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter

from acescore.view.common import esc


def text_html(page) -> str:
    """The source text of ``page`` (a DocPage) as spans of HTML."""
    text = page.source.text
    spans = page.spans
    # the segment boundaries: those of the text (region) and of every span
    bounds = sorted(page.points.union(map(itemgetter(2), spans), map(itemgetter(3), spans)))
    ref_cls, sys_cls, flags, anc, cover = _segment_marks(page, bounds, len(text) + 1)
    nseg = len(bounds) - 1
    region = page.source.text_region
    if region is not None:  # the segments outside the text region: [0, t0), [t1, ..)
        t0, t1 = bisect_left(bounds, region[0]), bisect_left(bounds, region[1])
    else:
        t0, t1 = 0, nseg
    for i in range(t0):
        flags[i] |= 8
    for i in range(t1, nseg):
        flags[i] |= 8
    return _segments(text, bounds, ref_cls, sys_cls, flags, anc, cover)


def _segment_marks(page, bounds: list, big: int) -> tuple:
    """Per segment between ``bounds``: the classes of its innermost REF and SYS
    entity-like mentions, its flags (1: REF head, 2: SYS head, 4: error), the classes of
    its anchors and the marks that cover it; and each span's segment range written into
    the page data."""
    spans = page.spans
    nseg = len(bounds) - 1
    ref_len = [big] * nseg  # innermost REF entity-like mention: its length and
    ref_cls = [None] * nseg  # classes (the first of equal lengths)
    sys_len = [big] * nseg
    sys_cls = [None] * nseg
    flags = [0] * nseg  # 1: REF head, 2: SYS head, 4: error, 8: outside the text
    anc = [""] * nseg
    cover: list = [None] * nseg
    # bounds are distinct and sorted: a position -> its index
    where = {b: i for i, b in enumerate(bounds)}
    data = page.data
    for at, slot, s, e, is_ref, k, extra in spans:
        i0 = where[s]
        i1 = where[e]
        data[at] = f"[{i0},{i1}]"  # (the page data: JSON)
        if slot == 0:  # a relation or event extent
            continue
        ln = e - s
        if slot == 1:  # an entity-like extent; extra: its classes
            lens, clss = (ref_len, ref_cls) if is_ref else (sys_len, sys_cls)
            item = (ln, 0 if is_ref else 1, k)
            for i in range(i0, i1):
                if ln < lens[i]:
                    lens[i] = ln
                    clss[i] = extra
                cv = cover[i]
                if cv is None:
                    cover[i] = [item]
                else:
                    cv.append(item)
        elif slot == 2:  # a head; extra: whether the mention has errors
            bit = (1 if is_ref else 2) | (4 if extra else 0)
            for i in range(i0, i1):
                flags[i] |= bit
        else:  # an anchor
            c = "ra" if is_ref else "sa"
            item = (10**9 + ln, 0 if is_ref else 1, k)
            for i in range(i0, i1):
                anc[i] = (anc[i] + " " + c).strip() if c not in anc[i] else anc[i]
                cv = cover[i]
                if cv is None:
                    cover[i] = [item]
                else:
                    cv.append(item)
                if extra:
                    flags[i] |= 4
    return ref_cls, sys_cls, flags, anc, cover


def _segments(
    text: str, bounds: list, ref_cls: list, sys_cls: list, flags: list, anc: list, cover: list
) -> str:
    """The segments of ``text`` as spans with their classes (see :func:`_segment_marks`;
    flag 8: outside the text region) and the keys of the marks covering them."""
    out = []
    append = out.append
    opening: dict = {}  # the classes of a segment -> its opening tag
    # (a text without these characters needs no escaping in any of its segments)
    special = "&" in text or "<" in text or ">" in text or '"' in text or "'" in text
    newlines = 2  # blank lines at the start are not shown
    for a, b, rc, sc, f, an, cv in zip(bounds, bounds[1:], ref_cls, sys_cls, flags, anc, cover):
        key = (rc, sc, f, an)
        tag = opening.get(key)
        if tag is None:
            tag = opening[key] = _opening(rc, f & 1, sc, f & 2, f & 4, an, f & 8)
        seg = text[a:b]
        if cv is None:
            # display only: runs of blank lines (left by removed tags) shrink to one;
            # the offsets live in the segment ranges, not in the displayed characters
            if "\n" not in seg:  # (what _squeeze_blank_lines does with it)
                if seg.strip():
                    newlines = 0
                elif newlines >= 2:
                    seg = ""
            else:
                seg, newlines = _squeeze_blank_lines(seg, newlines)
            append(f"{tag}>{esc(seg) if special else seg}</span>")
        else:
            newlines = 0
            if len(cv) == 1:
                keys = cv[0][2]
            else:
                cv.sort()
                keys = " ".join([k for _, _, k in cv])
            append(f'{tag} data-c="{keys}">{esc(seg) if special else seg}</span>')
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
