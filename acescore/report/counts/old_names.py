"""The older versions' names (docs/rules/versions.md §3.4, §4.4): located names, mapped in a
mapped document pair by the largest overlap above the least one."""

from __future__ import annotations

from acescore.model.spans import overlap
from acescore.report.counts.extent import extent_mismatch


def name_map(rd, sd, params) -> dict:
    """REF name index -> SYS name index of a mapped document pair: for each REF name in
    order, the SYS name overlapping it most, strictly more than ``min_overlap`` (the first of
    equal ones); several REF names may take the same SYS name."""
    out = {}
    snames = sd.located_names
    for i, (rloc, _) in enumerate(rd.located_names):
        best = params.min_overlap
        for j, (sloc, _) in enumerate(snames):
            o = overlap(rloc, sloc)
            if o > best:
                best = o
                out[i] = j
    return out


def name_counts(rd, sd, params) -> tuple:
    """(correct, miss, fa, error) of the names of a mapped document pair (name extents
    within the extent tolerance are correct)."""
    nmap = name_map(rd, sd, params)
    correct = error = 0
    rnames, snames = rd.located_names, sd.located_names
    for i, j in nmap.items():
        if extent_mismatch(rnames[i][0], snames[j][0], params) <= 1:
            correct += 1
        else:
            error += 1
    fa = len(snames) - len(set(nmap.values()))
    return correct, len(rnames) - len(nmap), fa, error
