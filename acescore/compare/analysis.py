"""The comparison itself: per task each system's score with a bootstrap interval, against
the baseline the difference with its paired-bootstrap interval and approximate-randomization
p-value, and Kehler et al.'s per-document view (which documents moved, which moved against
the corpus, where the mapping changed).

The result is one JSON-ready dict (:func:`compare`), which both renderers
(:mod:`acescore.compare.render`) read.
"""

from __future__ import annotations

import math

import numpy as np

from acescore.compare.components import (
    COREF_METRICS,
    EVENT_TASKS,
    NIST_ORDER,
    by_unit,
    same_partner,
)
from acescore.compare.stats import (
    STATISTICS,
    Draws,
    approximate_randomization,
    bootstrap_samples,
    percentile_interval,
)
from acescore.compare.systems import Scored
from acescore.model.errors import AceUsageError
from acescore.model.limits import MAX_BOOTSTRAP, MAX_RANDOMIZATION
from acescore.model.version import schema_url
from acescore.report.data.machine import make_signature

#: below this, a document's effect on the corpus difference counts as none
EFFECT_EPS = 1e-9


def task_order(tasks) -> list:
    """NIST tasks in report order, then the literature metrics in the order of ``acescore
    coref`` and ``acescore events``."""
    known = (
        list(NIST_ORDER)
        + [f"coref.{m}" for m in COREF_METRICS]
        + [f"events.{t}" for t in EVENT_TASKS]
    )
    return [t for t in known if t in tasks] + sorted(t for t in tasks if t not in known)


def signature(scored: Scored, bootstrap: int, randomization: int, seed: int) -> str:
    """``score``'s signature (:func:`acescore.report.data.json_report.signature`) and the
    resampling: ``|bs:N|ar:N|seed:S``."""
    o = scored.options
    return (
        f"{make_signature(o.params, o.flags, scored.dtd, o.lenient, nist=o.nist_label)}"
        f"|bs:{bootstrap}|ar:{randomization}|seed:{seed}"
    )


def _unit_note(unit: np.ndarray, ndocs: int) -> tuple[bool, str]:
    nunits = int(unit.max()) + 1 if len(unit) else 0
    if nunits < 2:
        if ndocs < 2:
            return False, "not resampled: fewer than two documents"
        return False, (
            f"not resampled: elements spanning documents link all {ndocs} "
            "documents, so no document can be drawn without the others"
        )
    if nunits < ndocs:
        return True, (
            f"resampled in {nunits} groups of documents linked by elements spanning "
            f"documents (of {ndocs} documents)"
        )
    return True, f"resampled over {ndocs} documents"


def mapping_changes(before: dict, after: dict) -> tuple[int, int, int]:
    """(remapped, newly mapped, unmapped) REF elements of one document between two systems;
    a REF element is remapped when its two partners are not the same (no mention head, or
    extent where mentions have no head, in common: :func:`same_partner`)."""
    remapped = newly = unmapped = 0
    for rid, a in before.items():
        b = after.get(rid)
        if a is None and b is not None:
            newly += 1
        elif a is not None and b is None:
            unmapped += 1
        elif a is not None and not same_partner(a, b):
            remapped += 1
    return remapped, newly, unmapped


def disagreement(c: dict, level: float, alpha: float, rounds: int, units: int) -> str | None:
    """Why the interval of a difference and its p-value disagree (one excludes 0, the other
    is not significant, or the reverse), or None when they agree."""
    lo, hi, p = c["ci_low"], c["ci_high"], c["p_value"]
    if lo is None or p is None:
        return None
    excludes = lo > 0 or hi < 0
    if excludes == (p < alpha):
        return None
    pct = f"{100 * level:g}%"
    if excludes:
        floor = 1 / (rounds + 1)
        if floor >= alpha:
            return (
                f"the {pct} interval excludes 0 but p = {p:.4f} >= {alpha:g}: with --ar {rounds}"
                f" p cannot fall below 1/({rounds} + 1) = {floor:.4f}; raise --ar"
            )
        if 1 - level > alpha + 1e-12:
            return (
                f"the {pct} interval excludes 0 but p = {p:.4f} >= {alpha:g}: the interval"
                f" is at {pct}, the test at alpha {alpha:g} (a stricter level)"
            )
        return (
            f"the {pct} interval excludes 0 but p = {p:.4f} >= {alpha:g}: a percentile"
            f" bootstrap interval is too narrow when few units ({units} here) or a few"
            " documents carry the difference; the randomization test (the systems' outputs"
            " exchanged document by document) does not assume otherwise, so trust p (it is"
            " what --fail-if-worse tests)"
        )
    return (
        f"p = {p:.4f} < {alpha:g} but the {pct} interval contains 0: a percentile bootstrap"
        f" interval is wide when a few of the {units} units carry the difference (resamples"
        " without them pull it to 0); the randomization test decides (it is what"
        " --fail-if-worse tests)"
    )


def _document_view(docids: list, ta, tb, f, top: int) -> dict:
    """Per document: both systems' own scores, the difference and the document's effect,
    its contribution to the corpus difference Δ: f(ΣB) - f(ΣB with this document's
    components taken from A), so with the baseline's output for the document the corpus
    difference would be Δ - effect."""
    xa, xb = ta.x, tb.x
    sb = xb.sum(axis=0)
    effect = tb.value - f(sb[None, :] - xb + xa) if len(docids) else np.zeros(0)
    if ta.doc_values is not None:
        va, vb = ta.doc_values, tb.doc_values
    else:
        va, vb = f(xa), f(xb)
    corpus = tb.value - ta.value
    sign = np.sign(corpus) if abs(corpus) > EFFECT_EPS else 0.0
    moved = np.abs(effect) > EFFECT_EPS
    opposite = moved & (np.sign(effect) == -sign) if sign else np.zeros(len(docids), bool)
    rows = []
    changed = 0
    for i, d in enumerate(docids):
        row = {
            "docid": d,
            "baseline": float(va[i]),
            "system": float(vb[i]),
            "delta": float(vb[i] - va[i]),
            "effect": float(effect[i]),
            "opposite_sign": bool(opposite[i]),
        }
        if ta.partners is not None and tb.partners is not None:
            r, n, u = mapping_changes(ta.partners[i], tb.partners[i])
            row.update(remapped=r, newly_mapped=n, unmapped=u, mapping_changed=bool(r or n or u))
            changed += bool(r or n or u)
        rows.append(row)
    order = sorted(range(len(docids)), key=lambda i: (-abs(effect[i]), docids[i]))
    most = [docids[i] for i in order[:top] if moved[i]]
    against = [docids[i] for i in order if opposite[i]][:top]
    out = {
        "moved": int(moved.sum()),
        "opposite_sign": int(opposite.sum()),
        "moved_most": most,
        "opposite_most": against,
        "per_document": rows,
    }
    if ta.partners is not None and tb.partners is not None:
        out["mapping_changed"] = changed
        out["opposite_and_mapping_changed"] = sum(
            1 for r in rows if r["opposite_sign"] and r["mapping_changed"]
        )
    return out


def check_parameters(bootstrap: int, randomization: int, alpha: float) -> None:
    """The resampling parameters in their ranges (checked before any work): NaN and
    infinities refused, the draws bounded (:data:`acescore.model.limits.MAX_BOOTSTRAP`)."""
    for option, n, most in (
        ("bootstrap", bootstrap, MAX_BOOTSTRAP),
        ("ar", randomization, MAX_RANDOMIZATION),
    ):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= most:
            raise AceUsageError(f"--{option} {n}: give a whole number from 0 to {most}")
    if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and 0 < alpha < 1):
        raise AceUsageError(f"--alpha {alpha}: give a number between 0 and 1 (exclusive)")


def require_scored(scored: Scored) -> None:
    """Nothing to score is an error, as for ``score``: a system without a DOCID in common
    with REF (or whose every document lenient mode skipped) cannot be compared."""
    for name, c in scored.coverage.items():
        if c.scored == 0:
            e_g = f", e.g. {scored.docids[0]}" if scored.docids else ""
            raise AceUsageError(
                f"nothing to score: SYS {name} ({c.sys} document{'' if c.sys == 1 else 's'})"
                f" has no DOCID in common with REF ({c.ref} document"
                f"{'' if c.ref == 1 else 's'}{e_g}): the systems cannot be compared"
            )


def compare(
    scored: Scored,
    bootstrap: int = 1000,
    randomization: int = 10000,
    seed: int = 12345,
    level: float = 0.95,
    alpha: float = 0.05,
    top: int = 10,
) -> dict:
    check_parameters(bootstrap, randomization, alpha)
    require_scored(scored)
    systems = scored.systems
    base = systems[0]
    docids = scored.docids
    tasks = task_order({t for s in systems for t in s.tasks})
    out: dict = {
        "$schema": schema_url("compare"),
        "signature": signature(scored, bootstrap, randomization, seed),
        "parameters": {
            "name": scored.params.name,
            "mentions": bool(scored.options.mentions),
            "bootstrap": bootstrap,
            "randomization": randomization,
            "seed": seed,
            "level": level,
            "alpha": alpha,
        },
        "documents": len(docids),
        "tasks": {},
        "systems": [],
        "comparisons": [],
    }
    draws = {}
    by_count: dict = {}  # tasks with as many units share their draws
    unit_x: dict = {}
    for t in tasks:
        unit = scored.units[t]
        ok, note = _unit_note(unit, len(docids))
        nunits = int(unit.max()) + 1 if len(unit) else 0
        out["tasks"][t] = {"units": nunits, "resampled": ok, "note": note}
        if ok:
            if nunits not in by_count:
                by_count[nunits] = Draws.make(
                    nunits, bootstrap, randomization, seed, f"units:{nunits}"
                )
            draws[t] = by_count[nunits]

    def ux(s, t):
        key = (id(s), t)
        if key not in unit_x:
            unit = scored.units[t]
            unit_x[key] = by_unit(s.tasks[t].x, unit, int(unit.max()) + 1)
        return unit_x[key]

    samples: dict = {}  # (system, task) -> its bootstrap statistics, made once: for its own
    # interval and for the paired interval against the baseline

    def boot(s, t):
        key = (id(s), t)
        if key not in samples:
            f = STATISTICS[s.tasks[t].statistic]
            samples[key] = bootstrap_samples(ux(s, t), f, draws[t].weights)
        return samples[key]

    for s in systems:
        entry: dict = {"name": s.name, "tasks": {}, "absent": dict(s.absent)}
        if s.name in scored.coverage:
            entry["coverage"] = scored.coverage[s.name].as_dict()
        for t in tasks:
            ts = s.tasks.get(t)
            if ts is None:
                continue
            lo = hi = None
            if t in draws and bootstrap:
                lo, hi = percentile_interval(boot(s, t), ts.value, level)
            entry["tasks"][t] = {"value": ts.value, "ci_low": lo, "ci_high": hi}
            if ts.note:
                entry["tasks"][t]["note"] = ts.note
        out["systems"].append(entry)
    for s in systems[1:]:
        comp = {"baseline": base.name, "system": s.name, "tasks": {}, "documents": {}}
        for t in tasks:
            ta, tb = base.tasks.get(t), s.tasks.get(t)
            if ta is None or tb is None:
                continue
            f = STATISTICS[ta.statistic]
            delta = tb.value - ta.value
            lo = hi = p = None
            if t in draws:
                xa, xb = ux(base, t), ux(s, t)
                if bootstrap:
                    lo, hi = percentile_interval(boot(s, t) - boot(base, t), delta, level)
                if randomization:
                    p = approximate_randomization(xa, xb, f, draws[t].masks, delta)
            comp["tasks"][t] = {
                "delta": delta,
                "ci_low": lo,
                "ci_high": hi,
                "p_value": p,
                "significant": p is not None and p < alpha,
            }
            why = disagreement(
                comp["tasks"][t], level, alpha, randomization, out["tasks"][t]["units"]
            )
            if why:
                comp["tasks"][t]["note"] = why
            comp["documents"][t] = _document_view(docids, ta, tb, f, top)
        out["comparisons"].append(comp)
    return out


def worse(result: dict, tasks: list, alpha: float) -> tuple[list, list]:
    """(failures, notes) of ``--fail-if-worse``: a system significantly worse than the
    baseline (delta < 0 and p < alpha) on one of ``tasks``; notes for tasks not tested."""
    failures, notes = [], []
    for comp in result["comparisons"]:
        for t in tasks:
            c = comp["tasks"].get(t)
            if c is None:
                notes.append(f"{t}: not scored for both {comp['baseline']} and {comp['system']}")
            elif c["p_value"] is None:
                why = (
                    result["tasks"][t]["note"] if not result["tasks"][t]["resampled"] else "--ar 0"
                )
                notes.append(f"{t}: no significance test ({why})")
            elif c["delta"] < 0 and c["p_value"] < alpha:
                failures.append(
                    f"{comp['system']} is worse than {comp['baseline']} on {t}: "
                    f"{c['delta']:+.2f} (p = {c['p_value']:.4f} < {alpha:g})"
                )
    return failures, notes
