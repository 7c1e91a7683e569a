"""Name similarity of entities (docs/rules/entities.md §2.4, the global parameter sets): the edit-distance
similarity of two names, the best one-to-one name map of two entities, and the name maps
of mapped entity pairs that the recognition tables and the listings need."""

from __future__ import annotations

from acescore.model.apf import Entity
from acescore.model.bgm import bgm


def levenshtein(a: str, b: str) -> int:
    """Edit distance (unit insertions, deletions, substitutions), with the bit-parallel
    method of Myers (1999) in Hyyrö's formulation: one pass over ``b`` with ``len(a)``-bit
    vectors held in Python ints (names are short; this is ~10x the classic table)."""
    if a == b:
        return 0
    m = len(a)
    if not m or not b:
        return m or len(b)
    peq: dict = {}  # character -> bit mask of its positions in a
    bit = 1
    for c in a:
        peq[c] = peq.get(c, 0) | bit
        bit <<= 1
    full = bit - 1
    top = 1 << (m - 1)
    pv, mv, score = full, 0, m
    for c in b:
        eq = peq.get(c, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def name_similarity(a: str, b: str) -> float:
    if not a and not b:
        # two empty names (NAM mentions with empty head text promoted by -m): the NIST tool
        # dies dividing by zero; they are equal
        return 1.0
    return 1 - levenshtein(a, b) / max(len(a), len(b))


def entity_name_similarity(x: Entity, y: Entity, min_sim: float) -> tuple[float, dict | None]:
    """NS(x, y) and the name map {ref name index: sys name index} (docs/rules/entities.md §2.4)."""
    if x.level != "NAM" and y.level != "NAM":
        return 1, None
    if x.level != "NAM" or y.level != "NAM":
        return 0, None
    rn, tn = x.names, y.names
    if len(rn) == 1 and len(tn) == 1:
        # one name each (every promoted NAM mention): the steps below for one pair
        s = name_similarity(rn[0], tn[0])
        if s < min_sim or not s:
            return 0, None
        return (s + s) / 2, {0: 0}
    costs: dict = {}
    best_r: list = [None] * len(rn)
    best_t: list = [None] * len(tn)
    cum = None
    for i, a in enumerate(rn):
        for j, b in enumerate(tn):
            s = name_similarity(a, b)
            if s < min_sim:
                s = 0
            if s:
                costs.setdefault(j, {})[i] = -s
            if not best_r[i] or s > best_r[i]:
                best_r[i] = s
            if not best_t[j] or s > best_t[j]:
                best_t[j] = s
        if best_r[i] is not None:
            cum = best_r[i] if cum is None else cum + best_r[i]
    if not costs:
        return 0, None
    for j in range(len(tn)):
        if best_t[j] is not None:
            cum = best_t[j] if cum is None else cum + best_t[j]
    assert cum is not None  # every name has a best similarity
    cum /= len(rn) + len(tn)
    m = bgm(costs)
    return cum, {i: j for j, i in m.items()}


def best_name_scores(x: Entity, y: Entity, min_sim: float) -> tuple[list, list]:
    """Per-name best similarities (for -a listings): (ref list, sys list)."""
    rn, tn = x.names, y.names
    br = [0.0] * len(rn)
    bt = [0.0] * len(tn)
    for i, a in enumerate(rn):
        for j, b in enumerate(tn):
            s = name_similarity(a, b)
            if s < min_sim:
                s = 0
            br[i] = max(br[i], s)
            bt[j] = max(bt[j], s)
    return br, bt


def name_maps(ref: dict, sys: dict, mapping: dict, valued: dict, min_sim: float) -> dict:
    """Name maps of the mapped entity pairs in their valued documents (needed by the name
    statistics and the listings; in the name-similarity sets the passes record them)."""
    out = {}
    for r, s in mapping.items():
        for d, x in ref[r].docs.items():
            key = (r, s, d)
            if key not in valued:
                continue
            y = sys[s].docs[d]
            if x.level != "NAM" or y.level != "NAM":
                continue  # no names to map
            nmap = entity_name_similarity(x, y, min_sim)[1]
            if nmap:
                out[key] = nmap
    return out
