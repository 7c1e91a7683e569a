"""The element mapping (docs/rules/determinism.md R24/R25, §3): the cohorts of REF and SYS elements linked by
valued pairs, and the optimal one-to-one mapping of each (the assignment algorithm of
:mod:`acescore.model.bgm`).  Used by every element pass and the relation/event passes."""

from __future__ import annotations

from acescore.model.bgm import bgm


def map_elements(ref: dict, sys: dict, pv: dict, fa_value: dict, cand: dict, rcand: dict) -> dict:
    """Cohorts (docs/rules/determinism.md R24/R25) and the optimal one-to-one mapping of each; returns REF -> SYS."""
    placed: set = set()
    mapping: dict = {}
    for seed in sorted(ref):
        if seed in placed:
            continue
        cs = cand.get(seed)
        if cs is not None and len(cs) == 1:
            (only,) = cs
            if (seed, only) in pv and len(rcand.get(only, ())) == 1:
                # a 1x1 cohort (the usual case): the routine maps its single pair,
                # whatever the cost (docs/rules/determinism.md §3, single-row shortcut)
                placed.add(seed)
                mapping[seed] = only
                continue
        refs = [seed]
        syss: list = []
        in_r = {seed}
        in_s: set = set()
        placed.add(seed)
        queue = [(seed, True)]
        qi = 0
        while qi < len(queue):
            eid, is_ref = queue[qi]
            qi += 1
            if is_ref:
                for s in sorted(cand.get(eid, ())):
                    if (eid, s) not in pv or s in in_s:
                        continue
                    in_s.add(s)
                    syss.append(s)
                    queue.append((s, False))
            else:
                for r in sorted(rcand.get(eid, ())):
                    if (r, eid) not in pv or r in in_r:
                        continue
                    in_r.add(r)
                    placed.add(r)
                    refs.append(r)
                    queue.append((r, True))
        if not syss:
            continue
        table: dict = {}
        for i, r in enumerate(refs):
            for j, s in enumerate(syss):
                v = pv.get((r, s))
                if v is not None:
                    table.setdefault(i, {})[j] = fa_value[s] - v
        for i, j in bgm(table).items():
            mapping[refs[i]] = syss[j]
    return mapping
