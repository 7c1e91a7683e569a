"""Span arithmetic: mutual overlap, extent mismatch, text match (docs/rules/entities.md §1)."""

from __future__ import annotations

from acescore.model.apf import Locator
from acescore.model.bgm import bgm
from acescore.model.params import Params

MAX_MISMATCH = 9999999999


def _pages(loc: Locator) -> dict:
    pages: dict = {}
    for b in loc.boxes:
        pages.setdefault(b.page, []).append(b)
    return pages


def _box_pair_costs(rboxes: list, tboxes: list) -> dict:
    costs: dict = {}
    for i, rb in enumerate(rboxes):
        for j, tb in enumerate(tboxes):
            x1 = max(rb.x, tb.x)
            x2 = min(rb.xend, tb.xend)
            if x1 > x2:
                continue
            y1 = max(rb.y, tb.y)
            y2 = min(rb.yend, tb.yend)
            if y1 > y2:
                continue
            costs.setdefault(j, {})[i] = -((x2 - x1) * (y2 - y1))
    return costs


def _image_overlap(a: Locator, b: Locator) -> float:
    ra, ta = _pages(a), _pages(b)
    area_r = area_t = None
    for p in sorted(ra):
        s = None
        for bx in ra[p]:
            s = bx.width * bx.height if s is None else s + bx.width * bx.height
        area_r = s if area_r is None else area_r + s
    for p in sorted(ta):
        s = None
        for bx in ta[p]:
            s = bx.width * bx.height if s is None else s + bx.width * bx.height
        area_t = s if area_t is None else area_t + s
    mutual = 0.0
    for p in sorted(ra):
        if p not in ta:
            continue
        costs = _box_pair_costs(ra[p], ta[p])
        area = 0
        if costs:
            m = bgm(costs)
            for j in sorted(m):
                area -= costs[j][m[j]]
        mutual += area
    if not mutual:
        return 0
    return mutual / max(area_r or 0, area_t or 0)


def overlap(a: Locator, b: Locator) -> float:
    """Minimum mutual overlap of two locators (0 when they do not overlap)."""
    if a.kind == "text":
        inter = 1 + (min(a.end, b.end) - max(a.start, b.start))
        if inter <= 0:
            return 0
        return inter / max(a.end - a.start + 1, b.end - b.start + 1)
    if a.kind == "audio":
        inter = min(a.end, b.end) - max(a.start, b.start)
        if inter <= 0:
            return 0
        return inter / max(a.end - a.start, b.end - b.start)
    return _image_overlap(a, b)


def extent_mismatch(a: Locator, b: Locator, params: Params) -> float:
    """How far two extents differ, in units of the allowed difference (> 1 is an error)."""
    if a.kind == "text":
        return max(abs(a.start - b.start), abs(a.end - b.end)) / params.max_diff_chars
    if a.kind == "audio":
        return max(abs(a.start - b.start), abs(a.end - b.end)) / params.max_diff_time
    ra, ta = _pages(a), _pages(b)
    worst = 0
    for p in ra:
        if p not in ta or len(ra[p]) != len(ta[p]):
            return MAX_MISMATCH
        costs = _box_pair_costs(ra[p], ta[p])
        if not costs:
            return MAX_MISMATCH
        m = bgm(costs)
        if len(m) != len(ra[p]):
            return MAX_MISMATCH
        for j, i in m.items():
            r, t = ra[p][i], ta[p][j]
            worst = max(
                worst, abs(r.x - t.x), abs(r.xend - t.xend), abs(r.y - t.y), abs(r.yend - t.yend)
            )
    return worst / params.max_diff_xy


def text_match(x: str, y: str) -> float:
    """Longest common substring of two head texts as a fraction of the longer (docs/rules/entities.md §1.3)."""
    x, y = x.upper(), y.upper()
    if x.isascii() and y.isascii():
        x = x.translate(_NOT_ALNUM)
        y = y.translate(_NOT_ALNUM)
    fx = bool(x) and x != "0"
    fy = bool(y) and y != "0"
    if fx != fy:
        return 0
    if x == y:
        return 1
    return _longest_common(x, y) / max(len(x), len(y))


# the ASCII characters that are not alphanumeric (str.translate deletes them)
_NOT_ALNUM = dict.fromkeys(c for c in range(128) if not chr(c).isalnum())


def _longest_common(x: str, y: str) -> int:
    """The length of the longest common substring of ``x`` and ``y``: the largest k for
    which a substring of length k of ``y`` is one of ``x``'s (a common substring of length
    k has common substrings of every smaller length: bisection on k)."""
    if len(y) < len(x):
        x, y = y, x
    if x in y:
        return len(x)
    lo, hi = 0, len(x) - 1  # x itself is not in y
    while lo < hi:
        k = (lo + hi + 1) // 2
        subs = {x[i : i + k] for i in range(len(x) - k + 1)}
        if any(y[j : j + k] in subs for j in range(len(y) - k + 1)):
            lo = k
        else:
            hi = k - 1
    return lo
