"""Maximum-weight one-to-one matching for the literature metrics (not for the NIST-faithful
scores, which use the tool's own routine, acescore.model.bgm).

The edges are sparse: a REF item scores above zero with the few SYS items it overlaps or
shares mentions with.  A document of ordinary size is solved as it always was: the dense
matrix of the rows and columns that have an edge, given to
:func:`scipy.optimize.linear_sum_assignment` with rows and columns in ascending order.
When that matrix would exceed :data:`DENSE_CELLS` cells (20,000 mentions a side: 3.2 GB,
twice over in the solver), the matching is taken per connected component of the edge graph
(a maximum-weight matching of a graph is the union of those of its components): an
isolated edge is matched as it is, a component on the dense block of its own rows and
columns by the same solver, and a component whose block alone would exceed
:data:`DENSE_CELLS` (a long chain of overlapping items; no real annotation has one) on its
edges alone by the sparse Jonker-Volgenant solver
(:func:`scipy.sparse.csgraph.min_weight_full_bipartite_matching`).

Ties.  Every way gives a maximum-weight matching, so the weight total is the same.  Where
several matchings reach it, the solver of the whole matrix lets the rows of one component
take (zero-weight) columns of another, and so which of the tied pairs it keeps depends on
the other components: below :data:`DENSE_CELLS` the pairs are those of the whole-matrix
solution (every result of before, to the bit); above it the per-component solutions may
keep other tied pairs (the same totals).
"""

from __future__ import annotations

from heapq import heappop, heappush

import numpy as np

from acescore.model.memory import SCIPY_HEADROOM, load_native

#: the largest dense matrix (rows x columns) given to the dense solver: 4M cells, 32 MB
#: (the solver holds about three copies)
DENSE_CELLS = 4_000_000


def components(edges) -> list:
    """The connected components of the bipartite graph ``edges`` (pairs (row, column)) as
    lists of edges, each in the order given; components in the order of their first edge."""
    edges = list(edges)
    rid: dict = {}
    cid: dict = {}
    ends = [(rid.setdefault(i, len(rid)), cid.setdefault(j, len(cid))) for i, j in edges]
    nr = len(rid)
    parent = list(range(nr + len(cid)))  # rows 0..nr-1, then the columns

    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for a, b in ends:
        ra, rb = find(a), find(nr + b)
        if ra != rb:
            parent[rb] = ra
    groups: dict = {}
    for e, (a, _) in zip(edges, ends):
        groups.setdefault(find(a), []).append(e)
    return list(groups.values())


def max_weight_matching(weights: dict) -> list:
    """Pairs (i, j) of a maximum-weight one-to-one matching over the edges {(i, j): w > 0},
    in ascending order of i; rows and columns are taken in ascending order, so ties resolve
    deterministically (see the module docstring)."""
    if not weights:
        return []
    rows = sorted({i for i, _ in weights})
    cols = sorted({j for _, j in weights})
    if len(rows) * len(cols) <= DENSE_CELLS:
        return _dense(weights, list(weights), rows, cols)
    out = []
    for comp in components(weights):
        if len(comp) == 1:
            pair = comp[0]
            if weights[pair] > 0:
                out.append(pair)
            continue
        rows = sorted({i for i, _ in comp})
        cols = sorted({j for _, j in comp})
        if len(rows) * len(cols) <= DENSE_CELLS:
            out.extend(_dense(weights, comp, rows, cols))
        else:
            out.extend(_sparse(weights, comp, rows, cols))
    out.sort(key=lambda p: p[0])
    return out


def _dense(weights: dict, comp: list, rows: list, cols: list) -> list:
    # scipy (0.3 s to import) only when a matching is computed: `score` imports this module
    # for the JSON's literature metrics, and its text report needs no scipy
    linear_sum_assignment = load_native("scipy.optimize", SCIPY_HEADROOM).linear_sum_assignment

    ri = {i: n for n, i in enumerate(rows)}
    ci = {j: n for n, j in enumerate(cols)}
    w = np.zeros((len(rows), len(cols)))
    for i, j in comp:
        w[ri[i], ci[j]] = weights[(i, j)]
    a, b = linear_sum_assignment(w, maximize=True)
    return [(rows[x], cols[y]) for x, y in zip(a, b) if w[x, y] > 0]


def _sparse(weights: dict, comp: list, rows: list, cols: list) -> list:
    """A maximum-weight (not necessarily maximum-cardinality) matching of one component on
    its edges: the full matching of minimum cost of the graph where every row and every
    column may instead go to a dummy partner of its own (rows R + dummy columns' partners,
    columns C + dummy rows' partners; the classic reduction), with cost ``top - w`` for an
    edge and ``top`` for a dummy pair (all positive: the solver takes a stored zero as no
    edge); every full matching has |R| + |C| pairs, so the constant ``top`` changes
    nothing."""
    coo_matrix = load_native("scipy.sparse", SCIPY_HEADROOM).coo_matrix  # (see _dense)
    csgraph = load_native("scipy.sparse.csgraph", SCIPY_HEADROOM)
    min_weight_full_bipartite_matching = csgraph.min_weight_full_bipartite_matching

    nr, nc = len(rows), len(cols)
    ri = {i: n for n, i in enumerate(rows)}
    ci = {j: n for n, j in enumerate(cols)}
    ws = [float(weights[p]) for p in comp]
    top = max(ws) + 1.0
    r, c, v = [], [], []
    for (i, j), x in zip(comp, ws):
        if x <= 0:
            continue
        a, b = ri[i], ci[j]
        r += [a, nr + b]  # the edge, and its mirror between the dummies
        c += [b, nc + a]
        v += [top - x, top]
    for a in range(nr):  # row a unmatched: to its own dummy column nc + a
        r.append(a)
        c.append(nc + a)
        v.append(top)
    for b in range(nc):  # column b unmatched: its own dummy row nr + b
        r.append(nr + b)
        c.append(b)
        v.append(top)
    g = coo_matrix((v, (r, c)), shape=(nr + nc, nc + nr)).tocsr()
    a, b = min_weight_full_bipartite_matching(g)
    return [(rows[x], cols[y]) for x, y in zip(a.tolist(), b.tolist()) if x < nr and y < nc]


def intersecting_pairs(ref: list, sys: list, limit: int, refuse) -> list:
    """Pairs (i, j), in ascending order, of the closed intervals ``ref[i]`` and ``sys[j]``
    (``(start, end)``, end included) that share a position; an interval whose end is before
    its start shares none.  A sweep over the starts: the work grows with the number of
    intervals and of pairs found, not with their product.  ``refuse(count)`` is raised when
    more than ``limit`` pairs are found (:func:`acescore.model.limits.too_many_pairs`)."""
    points = sorted(
        [(s, 0, i, e) for i, (s, e) in enumerate(ref) if e >= s]
        + [(s, 1, j, e) for j, (s, e) in enumerate(sys) if e >= s]
    )
    active: tuple = ({}, {})  # per side: index -> end, of the intervals still open
    ends: tuple = ([], [])  # per side: heap of (end, index)
    out = []
    for start, side, n, end in points:
        other = 1 - side
        heap, act = ends[other], active[other]
        while heap and heap[0][0] < start:
            del act[heappop(heap)[1]]
        if act:
            out.extend((n, m) if side == 0 else (m, n) for m in act)
            if len(out) > limit:
                raise refuse(len(out))
        heappush(ends[side], (end, n))
        active[side][n] = end
    out.sort()
    return out
