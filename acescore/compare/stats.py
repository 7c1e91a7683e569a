"""Resampling statistics over documents, vectorised (numpy), seeded.

Every score compared here is a function of *sums over documents* of per-document
components: the NIST Value is ``100 (1 - Σ cost / Σ ref value)``, an F1 of the literature is
``2 Σ correct / (Σ ref + Σ sys)``, and so on.  A corpus is therefore a matrix ``X`` of
shape (units, components) -- a unit is a document, or a group of documents that must stay
together (:mod:`acescore.compare.components`) -- and a statistic a function ``f`` that maps
summed components (shape (..., components)) to scores (shape (...)).  Resampling never
re-scores: it re-weights the rows of ``X``.

* :func:`bootstrap_weights` -- N bootstrap resamples of n units as an (N, n) matrix of
  multiplicities (how often each unit was drawn), so a resample's sums are ``W @ X``.
* :func:`swap_masks` -- R approximate-randomization rounds: (R, n) booleans, True where the
  two systems' components of a unit are exchanged.
* :func:`bootstrap_interval` -- percentile interval of ``f(W @ X)``.
* :func:`paired_bootstrap` -- the same resamples for two systems: percentile interval of
  ``f(W @ XB) - f(W @ XA)``.
* :func:`approximate_randomization` -- two-sided p-value of ``f(ΣXB) - f(ΣXA)``:
  ``p = (c + 1) / (R + 1)`` with ``c`` the rounds whose absolute difference is at least
  the observed one (Noreen 1989; as sacrebleu's paired AR).

Intervals are percentile intervals (``numpy.quantile``, linear interpolation), widened to
contain the point estimate when they miss it (which can only happen with very few units).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import numpy as np

from acescore.model.records import dataclass

Statistic = Callable[[np.ndarray], np.ndarray]

#: randomization rounds processed at once (bounds memory: chunk x units/8 x components
#: floats)
CHUNK = 5000
#: relative tolerance when comparing a randomized difference with the observed one
TOLERANCE = 1e-9


def rng_for(seed: int, name: str) -> np.random.Generator:
    """A generator seeded by ``seed`` and a name (``acescore compare``: the number of units
    drawn, so that a task's draws depend on nothing else -- not on which other tasks are
    scored, nor in which order -- and tasks with as many units share their draws)."""
    return np.random.default_rng([int(seed), zlib.crc32(name.encode("utf-8"))])


def bootstrap_weights(n: int, rounds: int, rng: np.random.Generator) -> np.ndarray:
    """(rounds, n) float matrix: row r counts how often each of the n units was drawn in
    bootstrap resample r (n draws with replacement)."""
    if n == 0 or rounds == 0:
        return np.zeros((rounds, n))
    idx = rng.integers(0, n, size=(rounds, n))
    flat = (idx + (np.arange(rounds) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rounds * n).reshape(rounds, n).astype(np.float64)


def swap_masks(n: int, rounds: int, rng: np.random.Generator) -> np.ndarray:
    """(rounds, n) booleans: True where a unit's two systems are exchanged in that round
    (each with probability 1/2, independently: random bits)."""
    size = rounds * n
    bits = np.unpackbits(np.frombuffer(rng.bytes((size + 7) // 8), dtype=np.uint8))
    return bits[:size].reshape(rounds, n).view(bool)


#: the bits of every byte value, most significant first (numpy.packbits order)
_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float64)


def masked_sums(masks: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``masks @ x`` for boolean masks (rounds, n) without a float copy of the masks: the
    masks are packed eight units to a byte, the sums of x over every bit pattern of each
    byte's eight units are tabled (256 rows per byte), and a round's sum is the sum of its
    bytes' table rows."""
    rounds, n = masks.shape
    packed = np.packbits(masks, axis=1)  # (rounds, ceil(n / 8))
    nbytes = packed.shape[1]
    padded = np.zeros((nbytes * 8, x.shape[1]))
    padded[:n] = x
    tables = np.matmul(_BYTE_BITS, padded.reshape(nbytes, 8, x.shape[1]))  # (bytes, 256, k)
    where = packed.astype(np.intp) + 256 * np.arange(nbytes)  # rows of the flat tables
    out = np.empty((rounds, x.shape[1]))
    for j in range(x.shape[1]):
        out[:, j] = np.take(np.ascontiguousarray(tables[:, :, j]).ravel(), where).sum(axis=1)
    return out


def percentile_interval(
    samples: np.ndarray, point: float, level: float = 0.95
) -> tuple[float, float]:
    """The central ``level`` percentile interval of ``samples``, widened to ``point``."""
    if samples.size == 0:
        return point, point
    a = (1 - level) / 2
    lo, hi = np.quantile(samples, [a, 1 - a])
    return min(float(lo), point), max(float(hi), point)


def weighted_sums(weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``weights @ x`` column by column: x has a few columns, for which a BLAS product
    spends more time starting its threads than computing (on a busy machine, 10x more)."""
    out = np.empty((weights.shape[0], x.shape[1]))
    for j in range(x.shape[1]):
        out[:, j] = (weights * x[:, j]).sum(axis=1)
    return out


def bootstrap_samples(x: np.ndarray, f: Statistic, weights: np.ndarray) -> np.ndarray:
    """``f`` of every bootstrap resample (``weights`` from :func:`bootstrap_weights`)."""
    return f(weighted_sums(weights, x))


def bootstrap_interval(
    x: np.ndarray, f: Statistic, weights: np.ndarray, point: float, level: float = 0.95
) -> tuple[float, float]:
    return percentile_interval(bootstrap_samples(x, f, weights), point, level)


def paired_bootstrap(
    xa: np.ndarray,
    xb: np.ndarray,
    f: Statistic,
    weights: np.ndarray,
    point: float,
    level: float = 0.95,
) -> tuple[float, float]:
    """Interval of the difference B - A over the same resamples of both systems."""
    d = bootstrap_samples(xb, f, weights) - bootstrap_samples(xa, f, weights)
    return percentile_interval(d, point, level)


def randomized_differences(
    xa: np.ndarray, xb: np.ndarray, f: Statistic, masks: np.ndarray
) -> np.ndarray:
    """f(B') - f(A') for every round, where A' and B' have the units of ``masks``
    exchanged: ΣA' = ΣA + M (XB - XA), ΣB' = ΣB - M (XB - XA)."""
    sa, sb = xa.sum(axis=0), xb.sum(axis=0)
    out = np.empty(len(masks))
    for start in range(0, len(masks), CHUNK):
        moved = masked_sums(masks[start : start + CHUNK], xb - xa)
        out[start : start + CHUNK] = f(sb - moved) - f(sa + moved)
    return out


def approximate_randomization(
    xa: np.ndarray, xb: np.ndarray, f: Statistic, masks: np.ndarray, observed: float | None = None
) -> float:
    """Two-sided p-value of the difference f(ΣXB) - f(ΣXA): (c + 1) / (R + 1)."""
    if observed is None:
        observed = float(f(xb.sum(axis=0)) - f(xa.sum(axis=0)))
    rounds = len(masks)
    if rounds == 0:
        return 1.0
    d = np.abs(randomized_differences(xa, xb, f, masks))
    c = int(np.count_nonzero(d >= abs(observed) - TOLERANCE * max(1.0, abs(observed))))
    return (c + 1) / (rounds + 1)


# ---- statistics -------------------------------------------------------------------------

VALUE_FLOOR = -999.9  # the report's lowest Value (docs/rules/report.md §2.6)
TINY = 1e-30


def nist_value(s: np.ndarray) -> np.ndarray:
    """The NIST Value (%) from summed (cost, ref value): 100 (ref - cost) / ref, at least
    -999.9, as the report's total row."""
    s = np.asarray(s, dtype=np.float64)
    cost, norm = s[..., 0], s[..., 1]
    return np.maximum(VALUE_FLOOR, 100 * (norm - cost) / np.maximum(TINY, norm))


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)


def f1_counts(s: np.ndarray) -> np.ndarray:
    """F1 (%) from summed (correct, ref, sys), as the literature's micro-average."""
    s = np.asarray(s, dtype=np.float64)
    r = _ratio(s[..., 0], s[..., 1])
    p = _ratio(s[..., 0], s[..., 2])
    return 100 * _ratio(2 * p * r, p + r)


def f1_recall_precision(s: np.ndarray) -> np.ndarray:
    """F1 (%) from summed (recall num, recall den, precision num, precision den) (MUC,
    B-cubed, CEAF)."""
    s = np.asarray(s, dtype=np.float64)
    return 100 * _harmonic(_ratio(s[..., 0], s[..., 1]), _ratio(s[..., 2], s[..., 3]))


def _harmonic(r: np.ndarray, p: np.ndarray) -> np.ndarray:
    return _ratio(2 * r * p, r + p)


def blanc_f1(s: np.ndarray) -> np.ndarray:
    """BLANC F1 (%) from the six summed link counts (cc, kc, rc, cn, kn, rn), with the
    special cases of :func:`acescore.metrics.coref.blanc_from_counts`."""
    s = np.asarray(s, dtype=np.float64)
    cc, kc, rc, cn, kn, rn = (s[..., i] for i in range(6))
    fc = _harmonic(_ratio(cc, kc), _ratio(cc, rc))
    fn = _harmonic(_ratio(cn, kn), _ratio(cn, rn))
    both = (fc + fn) / 2
    out = np.where(kc == 0, fn, np.where(kn == 0, fc, both))
    return 100 * np.where((kc == 0) & (kn == 0), 0.0, out)


STATISTICS = {
    "value": nist_value,
    "f1_counts": f1_counts,
    "f1_rp": f1_recall_precision,
    "blanc_f1": blanc_f1,
}


@dataclass
class Draws:
    """The resamples of one task, shared by every system and comparison of that task."""

    weights: np.ndarray  # (bootstrap rounds, units)
    masks: np.ndarray  # (randomization rounds, units) booleans

    @classmethod
    def make(cls, units: int, bootstrap: int, randomization: int, seed: int, name: str) -> Draws:
        rng = rng_for(seed, name)
        w = bootstrap_weights(units, bootstrap, rng)
        m = swap_masks(units, randomization, rng)
        return cls(w, m)
