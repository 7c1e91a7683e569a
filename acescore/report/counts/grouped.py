"""Grouped sequential sums (step 2 of :mod:`acescore.report.counts.tables`): condition values as
integer keys (:class:`Keys`) and, per key, column sums added one record after the other in
record order, exactly as the NIST tool's ``+=`` in its loop (:func:`grouped_sums`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import compress, repeat
from operator import add, mul

from acescore.report.counts.conditions import encode

#: a column of values as :func:`grouped_sums` adds it: (positions of its nonzero values,
#: or None: every value; those values, in record order)
SparseColumn = tuple[list[int] | None, Sequence[float]]


class Keys:
    """Condition values of a list of records, encoded: ``codes[i]`` is the position of
    record i's value in ``names``."""

    __slots__ = ("codes", "names")

    def __init__(self, codes: list[int], names: list):
        self.codes = codes
        self.names = names

    @classmethod
    def encode(cls, values: list) -> Keys:
        return cls(*encode(values))

    @classmethod
    def constant(cls, value, n: int) -> Keys:
        return cls([0] * n, [value])

    def take(self, positions: list[int]) -> Keys:
        """The keys of the records at ``positions`` (same names)."""
        return Keys(list(map(self.codes.__getitem__, positions)), self.names)

    def pair(self, inner: Keys) -> Keys:
        """Keys (self value, inner value) for the same records."""
        n = len(inner.names)
        names = [(a, b) for a in self.names for b in inner.names]
        return Keys(list(map(add, map(mul, self.codes, repeat(n)), inner.codes)), names)

    def __len__(self) -> int:
        return len(self.codes)


def sparse_columns(columns: Sequence[Sequence[float]]) -> list[SparseColumn]:
    """Each column as :func:`grouped_sums` adds it: its nonzero values and their positions,
    or the whole column (no positions) where at least three quarters of it are nonzero
    (fewer look-ups of positions).  A zero, +0.0 or -0.0, changes no sum (see
    :func:`grouped_sums`): left out or added, the sums are the same."""
    out: list[SparseColumn] = []
    for col in columns:
        vals = list(compress(col, col))
        if 4 * len(vals) >= 3 * len(col):
            out.append((None, col))
        else:
            out.append((list(compress(range(len(col)), col)), vals))
    return out


class Summands:
    """What :func:`grouped_sums` adds up, for every grouping of the same records: each
    record's label (``labels[i]``, below ``nlabels``; counted) and its values in
    ``columns`` (summed), the columns as :func:`sparse_columns`."""

    __slots__ = ("labels", "nlabels", "parts", "whole")

    def __init__(
        self, columns: Sequence[Sequence[float]] = (), labels: bytes = b"", nlabels: int = 1
    ):
        self.labels = labels
        self.nlabels = nlabels
        self.parts = sparse_columns(columns)
        #: (sums, counts) over all records: those of every grouping with one key
        self.whole: tuple[list[float], list[int]] | None = None


def _tally(codes: list[int], nk: int, summands: Summands) -> dict[int, int]:
    """How many records have each combined code ``code * nlabels + label`` (those present).

    Where the combined codes fit in a byte, they are made as one: the codes' bytes read as
    one integer, times ``nlabels``, plus the labels' bytes read likewise (no byte
    carries), and counted byte by byte."""
    nlabels = summands.nlabels
    m = nk * nlabels
    if m <= 256:
        b = bytes(codes)
        if nlabels > 1:
            n = len(codes)
            whole = int.from_bytes(b, "little") * nlabels
            b = (whole + int.from_bytes(summands.labels, "little")).to_bytes(n, "little")
        if m <= 24:
            tally = {}
            for v in range(m):
                c = b.count(v)
                if c:
                    tally[v] = c
            return tally
        return Counter(b)
    if nlabels > 1:
        return Counter(map(add, map(mul, codes, repeat(nlabels)), summands.labels))
    return Counter(codes)


def grouped_sums(keys: Keys, summands: Summands) -> dict:
    """For every key with records: the sums of each of the ``summands``' columns over its
    records, added one record after the other in record order (as the NIST tool's ``+=``
    from 0), and the count of each label.  Returns key -> (list of sums, list of counts),
    in key-code order.

    Every key's sum starts at 0.0 and gets ``w[i]`` added for i = 0, 1, ... (a plain
    sequential loop, no pairwise summation); starting from 0.0 also turns a -0.0 sum into
    0 as Perl does.  Adding a zero (+0.0 or -0.0) to a sum that starts at +0.0 never
    changes it (a sum of nonzero numbers that cancel is +0.0, never -0.0), so the zeros
    of a column may be left out (:func:`sparse_columns`): the same sums.  A grouping with
    one key has the sums of all records (``summands.whole``, made once)."""
    codes = keys.codes
    if not codes:
        return {}
    names = keys.names
    nk = len(names)
    nlabels = summands.nlabels
    tally = _tally(codes, nk, summands)
    if nlabels == 1:
        present = sorted(tally)
        counts = [[tally[k]] for k in present]
    else:
        present = sorted({v // nlabels for v in tally})
        get = tally.get
        counts = [[get(k * nlabels + j, 0) for j in range(nlabels)] for k in present]
    if len(present) == 1 and summands.whole is not None:
        return {names[present[0]]: summands.whole}
    sums = []
    for positions, vals in summands.parts:
        s = [0.0] * nk
        for c, v in zip(codes if positions is None else map(codes.__getitem__, positions), vals):
            s[c] += v
        sums.append(s)
    out = {names[k]: ([s[k] for s in sums], c) for k, c in zip(present, counts)}
    if len(present) == 1:
        summands.whole = out[names[present[0]]]
    return out
