"""Grouped sequential sums (step 2 of :mod:`acescore.report.counts.tables`): condition values as
integer keys (:class:`Keys`) and, per key, column sums added one record after the other in
record order, exactly as the NIST tool's ``+=`` in its loop (:func:`grouped_sums`)."""

from __future__ import annotations

import numpy as np

from acescore.report.counts.conditions import encode


class Keys:
    """Condition values of a list of records, encoded: ``codes[i]`` is the position of
    record i's value in ``names``."""

    __slots__ = ("codes", "names")

    def __init__(self, codes: np.ndarray, names: list):
        self.codes = codes
        self.names = names

    @classmethod
    def encode(cls, values: list) -> Keys:
        return cls(*encode(values))

    @classmethod
    def constant(cls, value, n: int) -> Keys:
        return cls(np.zeros(n, dtype=np.intp), [value])

    def take(self, positions: np.ndarray) -> Keys:
        """The keys of the records at ``positions`` (same names)."""
        return Keys(self.codes[positions], self.names)

    def pair(self, inner: Keys) -> Keys:
        """Keys (self value, inner value) for the same records."""
        n = len(inner.names)
        names = [(a, b) for a in self.names for b in inner.names]
        return Keys(self.codes * n + inner.codes, names)

    def __len__(self) -> int:
        return len(self.codes)


def sparse_columns(columns: np.ndarray) -> list:
    """Per column of ``columns`` (``values.T``): (positions, values) of its nonzero values
    where they are fewer than half, else None (see :func:`grouped_sums`)."""
    out = []
    n = columns.shape[1] if columns.ndim == 2 else 0
    for col in columns:
        nz = np.flatnonzero(col)
        out.append((nz, col[nz]) if 2 * len(nz) < n else None)
    return out


def grouped_sums(
    keys: Keys,
    values: np.ndarray,
    labels: np.ndarray,
    nlabels: int,
    columns: np.ndarray | None = None,
    sparse: list | None = None,
) -> dict:
    """For every key with records: the column sums of ``values`` over its records, added one
    record after the other in record order (as the NIST tool's ``+=`` from 0), and the count
    of each label.  Returns key -> (list of sums, list of counts), in key-code order.
    ``columns``: ``values.T`` as a C-contiguous array, if at hand; ``sparse``: its
    :func:`sparse_columns`, if at hand.

    ``np.bincount(codes, weights=w)`` is exactly that sum: it starts every key at 0.0 and
    adds ``w[i]`` to the key of record i for i = 0, 1, ... (a plain sequential loop, no
    pairwise summation); starting from 0.0 also turns a -0.0 sum into 0 as Perl does.
    Adding a zero (+0.0 or -0.0) to a sum that starts at +0.0 never changes it (a sum of
    nonzero numbers that cancel is +0.0, never -0.0), so a sparse column adds only its
    nonzero values, in record order: the same sums."""
    n = len(keys)
    if not n:
        return {}
    codes = keys.codes
    names = keys.names
    nk = len(names)
    present = np.flatnonzero(np.bincount(codes, minlength=nk))
    counts = np.bincount(codes * nlabels + labels, minlength=nk * nlabels)
    counts = counts.reshape(nk, nlabels)[present].tolist()
    ncols = values.shape[1]
    if ncols:
        cols = values.T if columns is None else columns
        sums = np.empty((nk, ncols), dtype=np.float64)
        for j in range(ncols):
            part = sparse[j] if sparse is not None else None
            if part is None:
                sums[:, j] = np.bincount(codes, weights=cols[j], minlength=nk)
            else:
                sums[:, j] = np.bincount(codes[part[0]], weights=part[1], minlength=nk)
        sums = sums[present].tolist()
    else:
        sums = [[] for _ in range(len(present))]
    return {names[i]: (s, c) for i, s, c in zip(present.tolist(), sums, counts)}
