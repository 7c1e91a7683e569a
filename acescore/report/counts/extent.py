"""Extent mismatch of two mapped mentions (docs/rules/entities.md §1.6), used by the mention detection tables.

The mismatch is the largest offset difference of the two extents in units of the allowed
difference: ``max(|Δstart|, |Δend|) / max_diff_chars`` for text, ``/ max_diff_time`` for
audio; image extents compare box by box on every page (``/ max_diff_xy``).  A mismatch
above 1 is an extent error.  As in the NIST tool, the data type of the REF locator decides.
"""

from __future__ import annotations

from acescore.model.apf import Locator
from acescore.model.bgm import bgm  # the assignment routine of docs/rules/determinism.md §3

#: what the NIST tool returns when two image extents cannot be compared box by box
MAX_MISMATCH = 9999999999


def _pages(loc: Locator) -> dict:
    """Boxes per page, in the NIST tool's box order (descending bottom edge, then left edge,
    descending top edge, right edge)."""
    pages: dict = {}
    for b in loc.boxes:
        pages.setdefault(b.page, []).append(b)
    for boxes in pages.values():
        boxes.sort(key=lambda b: (-b.yend, b.x, -b.y, b.xend))
    return pages


def _image_mismatch(ref: Locator, sys: Locator, max_diff_xy: float) -> float:
    rp, tp = _pages(ref), _pages(sys)
    worst = 0
    for page in rp:
        rboxes, tboxes = rp[page], tp.get(page)
        if not tboxes or len(rboxes) != len(tboxes):
            return MAX_MISMATCH
        costs: dict = {}
        for i, rb in enumerate(rboxes):
            for j, tb in enumerate(tboxes):
                x1, x2 = max(rb.x, tb.x), min(rb.xend, tb.xend)
                if x1 > x2:
                    continue
                y1, y2 = max(rb.y, tb.y), min(rb.yend, tb.yend)
                if y1 > y2:
                    continue
                costs.setdefault(j, {})[i] = -((x2 - x1) * (y2 - y1))
        if not costs:
            return MAX_MISMATCH
        pairs = bgm(costs)
        if len(pairs) != len(rboxes):
            return MAX_MISMATCH
        for j, i in pairs.items():
            r, t = rboxes[i], tboxes[j]
            worst = max(
                worst, abs(r.x - t.x), abs(r.xend - t.xend), abs(r.y - t.y), abs(r.yend - t.yend)
            )
    return worst / max_diff_xy


def extent_mismatch(ref: Locator, sys: Locator, params) -> float:
    """How far two extents differ, in units of the allowed difference (> 1: error)."""
    if ref.kind == "text":
        return max(abs(ref.start - sys.start), abs(ref.end - sys.end)) / params.max_diff_chars
    if ref.kind == "audio":
        return max(abs(ref.start - sys.start), abs(ref.end - sys.end)) / params.max_diff_time
    if ref.kind == "image":
        return _image_mismatch(ref, sys, params.max_diff_xy)
    raise ValueError("FATAL ERROR in extent_mismatch")
