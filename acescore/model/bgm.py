"""The assignment routine ("BGM") of the NIST ACE scorer, reproduced exactly.

Spec: docs/rules/determinism.md section 3 (with sections 4 and 6 Q1-Q4).

Every mapping step of the scorer (element cohorts, mentions, names, relation and
event mentions, arguments, image boxes) ends in one call of the same routine: given
a sparse table of costs between "rows" and "columns", pick an injective partial
map of rows to columns with the smallest total cost, where not mapping a row costs
a tiny bit more than nothing. Ties are common in real data, and which of the
equally good answers gets picked changes the printed report. The reference tool
settles ties through the steps of its own algorithm, so this module follows those
steps exactly: the same row and column order, the same floating-point operations
in the same order, and exact comparisons throughout. A generic solver such as
``scipy.optimize.linear_sum_assignment`` would not give the same answers.

How the routine works
---------------------

*Trivial cases.* With no rows the answer is empty. With a single row the routine
doesn't search at all. It maps the row to its cheapest column, taking the lowest
column key on ties, and it does so even when that cost is positive (quirk Q1).

*The padded square matrix.* Row keys and the distinct column keys are put in
ascending order. Let ``m`` be the smallest cost. Every cost is shifted by ``-m``
so that all costs are ``>= 0``, and a "no-match" cost ``NM = (-m) * (1 + 1e-12)``
is introduced. With a negative ``m``, ``NM`` is a touch more than the shift, so
a pair is worth keeping only if its original cost is (essentially) negative.
One extra row ("miss") and one extra column ("fa") are added. If there are fewer
rows than columns, the table is transposed first, so that the matrix's row side
is the longer one (quirk Q4). The shorter side is then padded with columns to
make the matrix square. Every cell without a table entry (the missing pairs, the
extra row and column, and the padding) holds ``NM``. Because there is only a
small supply of no-match cells, a dense table may have to keep pairs even when
they cost more than leaving the rows unmatched (quirk Q2).

*Column reduction.* Each real column's minimum (starting from ``NM``) is
subtracted from that column's cells, which gives a reduced matrix ``B >= 0``. The
extra column and the padding columns are all zeros.

*Greedy start.* Rows are taken in order. A row's decrement is the smallest of
``NM`` (unreduced) and its reduced cells in the real columns. The row is matched
with the first free column, padding included, whose reduced cell equals that
decrement. Rows that find no such column are "unchosen". When ``m <= 0`` every
decrement is 0, so this is the usual greedy step of the Hungarian method. When
every cost is positive, no cell equals the negative decrement, so every row
starts unchosen (quirk Q3). In practice this stage usually matches every row, and
the result is then final.

*Stages.* Each stage is one round of Knuth's ``assign_lisa`` (Stanford
GraphBase). A forest of alternating paths is grown breadth-first from the
unchosen rows, and each column keeps the smallest slack seen so far and the row
that gave it. Reaching a free column through a zero slack is a breakthrough.
Otherwise the smallest positive slack is used to shift the duals: it is added to
the decrements of all rows in the forest and to the increments of all columns
already in the forest, and subtracted from the other slacks. This creates new
zero slacks, either reaching a free column (a breakthrough) or bringing more
rows into the forest. After a breakthrough, the matching is flipped along the
parent pointers, which matches one more row. Stages repeat until every row is
matched.

*Result.* Only cells that pair a real row with a real column and that carry a
table entry are reported, as original row key -> original column key (undoing
the transposition). Pairs that were matched through a no-match cell are dropped.

Floating point: the reduced matrix is computed once and stored. The tool
recomputes ``A - cmin`` on every use, but that is one deterministic rounding, so
storing it gives bit-identical values. The remaining operations are
``d = (B - dec) + inc``, ``dec += s``, ``inc += s``, ``slack -= s``, and exact
minima and comparisons, in the tool's order. In the places where the tool tests
a slack for truth rather than comparing it with ``> 0``, ``!= 0`` is used here.
The two are the same for the non-negative slacks the method produces.
"""

from __future__ import annotations

__all__ = ["BGMError", "bgm"]

_INF = 1e30
_PRECISION = 1e-12
_NM_FACTOR = 1 + _PRECISION  # the double nearest to 1 + 1e-12, as the tool computes it


class BGMError(RuntimeError):
    """The final optimality check failed (the tool's "BGM FAILED"; never observed)."""


def bgm(table: dict[int, dict[int, float]]) -> dict[int, int]:
    """table: row key -> {column key -> cost}; keys are non-negative ints (list positions).
    Returns an injective partial map row key -> column key."""
    if len(table) == 1:  # one row with one entry: most calls (one-mention elements)
        for r, entries in table.items():
            if len(entries) == 1:
                for c in entries:
                    return {r: c}
    row_keys = sorted(r for r, entries in table.items() if entries)
    if not row_keys:
        return {}

    if len(row_keys) == 1:  # single-row shortcut (maps even a positive cost)
        return _single_row(row_keys[0], table[row_keys[0]])

    diagonal = _diagonal(table, row_keys)
    if diagonal is not None:
        return diagonal

    sparse, col_keys, reverse, m = _padded(table, row_keys)
    p = len(sparse) + 1
    q = (len(row_keys) if reverse else len(col_keys)) + 1
    n = p  # p >= q always; columns q .. n-1 are padding
    nm = (-m) * _NM_FACTOR
    B = _reduced(sparse, n, nm)
    dec = [0.0] * n
    inc = [0.0] * n
    row_mate = [-1] * n  # column -> row
    col_mate = [-1] * n  # row -> column
    unchosen = _initial_stage(B, n, q, nm, dec, row_mate, col_mate)
    if unchosen:
        _stages(B, n, dec, inc, row_mate, col_mate, unchosen)
        _check(B, n, dec, inc, col_mate)

    # ---- result ------------------------------------------------------------------------
    result: dict[int, int] = {}
    last_row = p - 1  # "miss" (or "fa" when reversed)
    last_col = q - 1  # "fa" (or "miss" when reversed)
    for l in range(last_col):
        k = row_mate[l]
        if k >= last_row:
            continue
        if l not in sparse[k]:
            continue  # matched through a no-match cell
        if reverse:
            result[row_keys[l]] = col_keys[k]
        else:
            result[row_keys[k]] = col_keys[l]
    return result


def _single_row(r: int, entries: dict) -> dict:
    """The map of a table of one row: its least cost's column (the first of equal ones in
    column order), whatever its sign."""
    best_col = -1
    best = 0.0
    for c in sorted(entries):
        v = entries[c]
        if best_col < 0 or v < best:
            best_col = c
            best = v
    return {r: best_col}


def _padded(table: dict, row_keys: list) -> tuple:
    """The rows of the padded square matrix, sparse: per real matrix row {matrix column:
    cost - m} (the table transposed when it has fewer rows than columns: ``reverse``),
    the table's columns in order, ``reverse`` and ``m``, the least cost."""
    col_set: set[int] = set()
    m = None
    for r in row_keys:
        entries = table[r]
        col_set.update(entries)
        for v in entries.values():
            if m is None or v < m:
                m = v
    col_keys = sorted(col_set)
    reverse = len(row_keys) < len(col_keys)
    if reverse:
        row_pos = {c: i for i, c in enumerate(col_keys)}
        sparse: list[dict[int, float]] = [{} for _ in range(len(col_keys))]
        for l, r in enumerate(row_keys):
            for c, v in table[r].items():
                sparse[row_pos[c]][l] = v - m
    else:
        col_pos = {c: i for i, c in enumerate(col_keys)}
        sparse = []
        for r in row_keys:
            sparse.append({col_pos[c]: v - m for c, v in table[r].items()})
    return sparse, col_keys, reverse, m


def _reduced(sparse: list, n: int, nm: float) -> list:
    """Column reduction: the full matrix, each column less its least value (a cell without
    an entry is worth ``nm``), with the extra row of no entries last."""
    cmin = [nm] * n
    for row in sparse:
        for l, s in row.items():
            if s < cmin[l]:
                cmin[l] = s
    base = [nm - x for x in cmin]  # the reduced value of a cell without an entry
    B: list[list[float]] = []
    for row in sparse:
        b = base[:]
        for l, s in row.items():
            b[l] = s - cmin[l]
        B.append(b)
    B.append(base)  # the extra row has no entries (never modified below)
    return B


def _initial_stage(
    B: list, n: int, q: int, nm: float, dec: list, row_mate: list, col_mate: list
) -> list:
    """The greedy initial stage: each row's least value over the real columns (``dec``)
    and its first free column of that value; the rows left unchosen."""
    unchosen: list[int] = []
    for k in range(n):
        b = B[k]
        rmin = nm
        for l in range(q):
            if b[l] < rmin:
                rmin = b[l]
        dec[k] = rmin
        for l in range(n):
            if b[l] == rmin and row_mate[l] < 0:
                col_mate[k] = l
                row_mate[l] = k
                break
        else:
            unchosen.append(k)
    return unchosen


def _diagonal(table: dict, row_keys: list) -> dict[int, int] | None:
    """The routine's answer for a *diagonal* table -- every row one entry, no two rows in
    one column, every shifted cost below NM (so every cost negative) -- without the
    matrix: each row mapped to its entry (most mention matchings are such tables); None
    for any other table.

    Why that is the routine's answer: a column's minimum is its one shifted cost ``s``
    (below NM), so a row's reduced cells are 0 in its own column, ``NM - s' > 0`` in
    every other row's column and 0 in "fa" and the padding.  Its decrement is 0 and its
    first zero is its own column (every real column comes before "fa"), free since no
    other row has it; the extra row takes "fa".  Every row is matched at the greedy start,
    so that is the result, reported in column order as the routine reports it."""
    pairs = []
    m: float | None = None
    for r in row_keys:
        entries = table[r]
        if len(entries) != 1:
            return None
        for c, v in entries.items():
            pairs.append((c, r, v))
            if m is None or v < m:
                m = v
    if m is None or not m < 0:
        return None
    nm = (-m) * _NM_FACTOR
    pairs.sort()
    prev = None
    for c, _r, v in pairs:
        if c == prev or not v - m < nm:
            return None
        prev = c
    return {r: c for c, r, _v in pairs}


def _stages(
    B: list, n: int, dec: list, inc: list, row_mate: list, col_mate: list, unchosen: list
) -> None:
    """Knuth's stages: one augmentation per stage until every row is matched."""
    slack = [_INF] * n
    slack_row = [0] * n
    parent = [-1] * n
    unmatched = len(unchosen)
    while True:
        qi = 0
        # grow the forest until a breakthrough at (k, l)
        while True:
            found = False
            while qi < len(unchosen):
                k = unchosen[qi]
                s = dec[k]
                b = B[k]
                found = False
                for l in range(n):
                    sl = slack[l]
                    if sl > 0:
                        d = (b[l] - s) + inc[l]
                        if d < sl:
                            if d == 0:
                                if row_mate[l] < 0:
                                    found = True
                                    break
                                slack[l] = 0.0
                                parent[l] = k
                                unchosen.append(row_mate[l])
                            else:
                                slack[l] = d
                                slack_row[l] = k
                if found:
                    break
                qi += 1
            if found:
                break

            # introduce a new zero by moving the duals
            s = _INF
            for l in range(n):
                sl = slack[l]
                if sl != 0 and sl < s:
                    s = sl
            for r in unchosen:
                dec[r] += s
            found = False
            for l in range(n):
                if slack[l] != 0:
                    slack[l] -= s
                    if slack[l] == 0:
                        k = slack_row[l]
                        if row_mate[l] < 0:
                            for j in range(l + 1, n):
                                if slack[j] == 0:
                                    inc[j] += s
                            found = True
                            break
                        parent[l] = k
                        unchosen.append(row_mate[l])
                else:
                    inc[l] += s
            if found:
                break

        # augment along the parent pointers
        while True:
            j = col_mate[k]
            col_mate[k] = l
            row_mate[l] = k
            if j < 0:
                break
            k = parent[j]
            l = j

        unmatched -= 1
        if unmatched == 0:
            return
        for l in range(n):
            parent[l] = -1
            slack[l] = _INF
        unchosen[:] = [k for k in range(n) if col_mate[k] < 0]


def _check(B: list, n: int, dec: list, inc: list, col_mate: list) -> None:
    """The tool's final check: dual feasibility and tightness of the matching, each
    with a tolerance of 1e-12 times the larger magnitude of the two duals involved."""
    for k in range(n):
        b = B[k]
        dk = dec[k]
        for l in range(n):
            bound = dk - inc[l]
            if b[l] < bound and b[l] < bound - _PRECISION * max(abs(dk), abs(inc[l])):
                raise BGMError("BGM FAILED: reduced cost below the dual bound")
    for k in range(n):
        l = col_mate[k]
        if l < 0:
            raise BGMError("BGM FAILED: a row has no column mate")
        bound = dec[k] - inc[l]
        c = B[k][l]
        if c != bound and abs(c - bound) > _PRECISION * max(abs(dec[k]), abs(inc[l])):
            raise BGMError("BGM FAILED: a matched cell is not tight")
