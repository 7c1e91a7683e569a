"""Maximum-weight one-to-one matching for the literature metrics (not for the NIST-faithful
scores, which use the tool's own routine, acescore.model.bgm)."""
from __future__ import annotations

import numpy as np


def max_weight_matching(weights: dict) -> list:
    """Pairs (i, j) of a maximum-weight one-to-one matching over the edges {(i, j): w > 0};
    rows and columns are taken in ascending order, so ties resolve deterministically."""
    if not weights:
        return []
    # scipy takes 0.3 s to import, and acescore.cli still imports every command's module when
    # it starts: this import moves to the top once the CLI loads a command when it runs
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415
    rows = sorted({i for i, _ in weights})
    cols = sorted({j for _, j in weights})
    ri = {i: n for n, i in enumerate(rows)}
    ci = {j: n for n, j in enumerate(cols)}
    w = np.zeros((len(rows), len(cols)))
    for (i, j), x in weights.items():
        w[ri[i], ci[j]] = x
    a, b = linear_sum_assignment(w, maximize=True)
    return [(rows[x], cols[y]) for x, y in zip(a, b) if w[x, y] > 0]
