"""Entity coreference metrics from the literature: MUC, B-cubed, CEAF-m, CEAF-e and BLANC.

Two layers:

* **Pure functions on clusterings** -- :func:`muc`, :func:`bcubed`, :func:`ceaf_m`,
  :func:`ceaf_e`, :func:`blanc`.  A *clustering* is an iterable of entities, an entity an
  iterable of hashable mention identities (one document).  ``key`` is the reference,
  ``response`` the system output; the two may contain different mentions ("twinless"
  mentions).  Each function returns ``(recall, precision, f1)`` as fractions.  The matching
  ``*_counts`` functions return the numerators and denominators, which is what is summed over
  the documents of a corpus.
* **APF** -- :func:`coref_scores` aligns the REF and SYS entity mentions of every document
  and computes all five metrics on the aligned mention identities, summed over the corpus.

Definitions (those of the CoNLL-2012 reference scorer, version 8.01, ``lib/CorScorer.pm``,
which implements the metrics on key and response mention sets that may differ, singletons
kept).  K ranges over key entities, R over response entities, N_k / N_r are the numbers of
key / response mentions; "K∩R" is the set of mention identities the two share:

MUC (Vilain et al. 1995)
    recall = Σ_K (|K| − |p(K)|) / Σ_K (|K| − 1), where p(K) is the partition of K by the
    response and every key mention not in the response is a part of its own; precision is
    the same with key and response swapped.  Equivalently both numerators are
    Σ_{K,R} max(0, |K∩R| − 1).  Singletons have no links and contribute nothing.
B-cubed (Bagga & Baldwin 1998, the standard definition)
    recall = Σ_{K,R} |K∩R|² / |K| / N_k,   precision = Σ_{K,R} |K∩R|² / |R| / N_r.
    A twinless key mention scores 0 in recall, a twinless response mention 0 in precision;
    both stay in the denominators.  (The NIST ace08 tool prints a different "B-cubed",
    computed from many-to-many head correspondences and entity IDs across documents
    (docs/rules/entities.md §8); :func:`coref_scores` reports it next to this one as ``bcub_nist``.)
CEAF (Luo 2005)
    Φ(g*) = the maximum total similarity of a one-to-one alignment of key and response
    entities (Kuhn-Munkres; :func:`scipy.optimize.linear_sum_assignment`);
    recall = Φ(g*) / Σ_K φ(K, K), precision = Φ(g*) / Σ_R φ(R, R).
    CEAF-m uses φ3(K, R) = |K∩R| (denominators N_k and N_r), CEAF-e uses
    φ4(K, R) = 2|K∩R| / (|K| + |R|) (denominators: the numbers of key and response entities).
BLANC (Recasens & Hovy 2011, extended to system mentions by Luo et al. 2014)
    Coreference links C = unordered pairs of mentions in the same entity, non-coreference
    links N = pairs of mentions in different entities, each taken within one clustering
    (so a twinless mention only takes part in links of its own side).
    R_c = |C_k∩C_r|/|C_k|, P_c = |C_k∩C_r|/|C_r|, R_n = |N_k∩N_r|/|N_k|,
    P_n = |N_k∩N_r|/|N_r| (0 when a denominator is 0), F_c and F_n their harmonic means;
    recall = (R_c + R_n)/2, precision = (P_c + P_n)/2, f1 = (F_c + F_n)/2 -- except that
    when the key has no coreference links only the non-coreference part is used, when it has
    no non-coreference links only the coreference part, and when it has neither all three
    are 0.

Corpus level (as the CoNLL scorer's TOTALS): the numerators and denominators above are
summed over the documents and recall = Σ num / Σ den (0 when the denominator is 0),
f1 = 2PR/(P+R) (0 when P+R = 0); for BLANC the six link counts are summed and the formula
above (with its special cases) is applied to the sums.

Mention identities are the mentions' own IDs (the CoNLL scorer uses token spans; duplicate
spans are not an issue here).  Entities are taken per document: cross-document (global)
entity IDs are ignored, as in the CoNLL scorer, which is within-document.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from heapq import merge
from math import fsum

from acescore.metrics import registry
from acescore.metrics.matching import intersecting_pairs, max_weight_matching
from acescore.model.limits import DEFAULT_MAX_PAIRS, too_many_pairs
from acescore.model.params import Params, get_params
from acescore.model.spans import overlap
from acescore.scoring.b3 import compute_b3
from acescore.scoring.elements import ElementPass

Clustering = Iterable[Iterable[Hashable]]

METRICS = registry.names("coref")  # (acescore.metrics.registry)
METRIC_NAMES = registry.titles("coref")


# --------------------------------------------------------------------------------------------
# helpers


def _norm(clustering: Clustering) -> list[frozenset]:
    """Entities as frozensets, empty entities dropped."""
    out = []
    for e in clustering:
        s = frozenset(e)
        if s:
            out.append(s)
    return out


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def f_measure(recall: float, precision: float) -> float:
    """Harmonic mean, 0 when both are 0."""
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def prf(rnum: float, rden: float, pnum: float, pden: float) -> tuple[float, float, float]:
    """(recall, precision, f1) from numerators and denominators (CoNLL scorer's ShowRPF)."""
    r = _ratio(rnum, rden)
    p = _ratio(pnum, pden)
    return r, p, f_measure(r, p)


def _overlaps(key: list, response: list) -> dict:
    """{(i, j): |K_i ∩ R_j|} for the pairs that share mentions (in no defined order: that
    of the mentions' hashes within an entity)."""
    where = {}
    for j, r in enumerate(response):
        for m in r:
            where[m] = j
    out: dict = {}
    for i, k in enumerate(key):
        for m in k:
            j = where.get(m)
            if j is not None:
                out[(i, j)] = out.get((i, j), 0) + 1
    return out


# --------------------------------------------------------------------------------------------
# counts (one document)


# Each metric's counts from the normalized key ``k``, response ``r`` and their
# :func:`_overlaps` ``ov`` (computed once for the five metrics of a document:
# :func:`document_counts`); ``*_counts`` of clusterings below.  Every result is independent
# of the order of ``ov``'s pairs.


def _muc(k: list, r: list, ov: dict) -> tuple[int, int, int, int]:
    correct = sum(c - 1 for c in ov.values())
    return (correct, sum(len(e) - 1 for e in k), correct, sum(len(e) - 1 for e in r))


def _bcubed(k: list, r: list, ov: dict) -> tuple[float, int, float, int]:
    # math.fsum: the sums rounded once, whatever the order of the terms (_overlaps meets
    # the pairs of a key entity in the order of its mentions' hashes, which changes with
    # PYTHONHASHSEED; an order-dependent sum would change in its last bits with it)
    pairs = sorted(ov.items())
    rn = fsum(c * c / len(k[i]) for (i, _), c in pairs)
    pn = fsum(c * c / len(r[j]) for (_, j), c in pairs)
    return (rn, sum(len(e) for e in k), pn, sum(len(e) for e in r))


def _ceaf_m(k: list, r: list, ov: dict) -> tuple[float, int, float, int]:
    t = _ceaf_total(k, r, ov, _phi3)
    return (t, sum(len(e) for e in k), t, sum(len(e) for e in r))


def _ceaf_e(k: list, r: list, ov: dict) -> tuple[float, int, float, int]:
    t = _ceaf_total(k, r, ov, _phi4)
    return (t, len(k), t, len(r))


def muc_counts(key: Clustering, response: Clustering) -> tuple[int, int, int, int]:
    """(recall num, recall den, precision num, precision den) of MUC."""
    k, r = _norm(key), _norm(response)
    return _muc(k, r, _overlaps(k, r))


def bcubed_counts(key: Clustering, response: Clustering) -> tuple[float, int, float, int]:
    """(recall num, recall den, precision num, precision den) of B-cubed."""
    k, r = _norm(key), _norm(response)
    return _bcubed(k, r, _overlaps(k, r))


def _ceaf_total(k: list, r: list, ov: dict, phi) -> float:
    """Φ(g*): the similarity total of the optimal one-to-one entity alignment."""
    weights = {(i, j): phi(c, len(k[i]), len(r[j])) for (i, j), c in ov.items()}
    return float(sum(weights[pair] for pair in max_weight_matching(weights)))


def _phi3(common: int, nk: int, nr: int) -> float:
    return float(common)


def _phi4(common: int, nk: int, nr: int) -> float:
    return 2.0 * common / (nk + nr)


def ceaf_m_counts(key: Clustering, response: Clustering) -> tuple[float, int, float, int]:
    """(Φ(g*), N_k, Φ(g*), N_r) of mention-based CEAF (φ3)."""
    k, r = _norm(key), _norm(response)
    return _ceaf_m(k, r, _overlaps(k, r))


def ceaf_e_counts(key: Clustering, response: Clustering) -> tuple[float, int, float, int]:
    """(Φ(g*), #key entities, Φ(g*), #response entities) of entity-based CEAF (φ4)."""
    k, r = _norm(key), _norm(response)
    return _ceaf_e(k, r, _overlaps(k, r))


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def blanc_counts(key: Clustering, response: Clustering) -> tuple[int, int, int, int, int, int]:
    """(correct coref links, key coref links, response coref links,
    correct non-coref links, key non-coref links, response non-coref links)."""
    k, r = _norm(key), _norm(response)
    return _blanc(k, r, _overlaps(k, r))


def _blanc(k: list, r: list, ov: dict) -> tuple[int, int, int, int, int, int]:
    kc = sum(_pairs(len(e)) for e in k)
    rc = sum(_pairs(len(e)) for e in r)
    nk = sum(len(e) for e in k)
    nr = sum(len(e) for e in r)
    cc = sum(_pairs(c) for c in ov.values())
    # non-coreference links present on both sides join two mentions that both sides have
    # (the common mentions) and that are apart in the key and apart in the response
    kin: dict = {}
    rin: dict = {}
    for (i, j), c in ov.items():
        kin[i] = kin.get(i, 0) + c
        rin[j] = rin.get(j, 0) + c
    common = sum(ov.values())
    cn = (
        _pairs(common)
        - sum(_pairs(c) for c in kin.values())
        - sum(_pairs(c) for c in rin.values())
        + cc
    )
    return (cc, kc, rc, cn, _pairs(nk) - kc, _pairs(nr) - rc)


def blanc_from_counts(
    cc: int, kc: int, rc: int, cn: int, kn: int, rn: int
) -> tuple[float, float, float]:
    """BLANC (recall, precision, f1) from the six link counts (CoNLL v8 special cases)."""
    rc_r, rc_p = _ratio(cc, kc), _ratio(cc, rc)
    rn_r, rn_p = _ratio(cn, kn), _ratio(cn, rn)
    fc, fn = f_measure(rc_r, rc_p), f_measure(rn_r, rn_p)
    if kc == 0 and kn == 0:
        return 0.0, 0.0, 0.0
    if kc == 0:
        return rn_r, rn_p, fn
    if kn == 0:
        return rc_r, rc_p, fc
    return (rc_r + rn_r) / 2, (rc_p + rn_p) / 2, (fc + fn) / 2


# --------------------------------------------------------------------------------------------
# scores (one document)


def muc(key: Clustering, response: Clustering) -> tuple[float, float, float]:
    """MUC (Vilain et al. 1995): (recall, precision, f1)."""
    return prf(*muc_counts(key, response))


def bcubed(key: Clustering, response: Clustering) -> tuple[float, float, float]:
    """B-cubed (Bagga & Baldwin 1998), standard definition: (recall, precision, f1)."""
    return prf(*bcubed_counts(key, response))


def ceaf_m(key: Clustering, response: Clustering) -> tuple[float, float, float]:
    """Mention-based CEAF, φ3 (Luo 2005): (recall, precision, f1)."""
    return prf(*ceaf_m_counts(key, response))


def ceaf_e(key: Clustering, response: Clustering) -> tuple[float, float, float]:
    """Entity-based CEAF, φ4 (Luo 2005): (recall, precision, f1)."""
    return prf(*ceaf_e_counts(key, response))


def blanc(key: Clustering, response: Clustering) -> tuple[float, float, float]:
    """BLANC for system mentions (Luo et al. 2014, CoNLL scorer v8): (recall, precision, f1)."""
    return blanc_from_counts(*blanc_counts(key, response))


COUNTS = {
    "muc": muc_counts,
    "bcub": bcubed_counts,
    "ceafm": ceaf_m_counts,
    "ceafe": ceaf_e_counts,
    "blanc": blanc_counts,
}
#: the same from the normalized clusterings and their overlaps
_FROM_OVERLAPS = {"muc": _muc, "bcub": _bcubed, "ceafm": _ceaf_m, "ceafe": _ceaf_e, "blanc": _blanc}


def document_counts(key: Clustering, response: Clustering) -> dict:
    """The counts of every metric for one document's ``key`` and ``response``."""
    k, r = _norm(key), _norm(response)
    ov = _overlaps(k, r)  # (once for the five metrics)
    return {m: _FROM_OVERLAPS[m](k, r, ov) for m in METRICS}


def corpus_counts(documents: Iterable[tuple[Clustering, Clustering]]) -> dict:
    """Summed counts of every metric over ``(key, response)`` document pairs."""
    return summed_counts(document_counts(key, response) for key, response in documents)


def summed_counts(counts: Iterable[dict]) -> dict:
    """The sum of per-document :func:`document_counts`, added in the order given (floating
    point: the order of the documents is part of the result)."""
    total = {m: None for m in METRICS}
    for c_doc in counts:
        for m in METRICS:
            c = c_doc[m]
            total[m] = c if total[m] is None else tuple(a + b for a, b in zip(total[m], c))
    for m in METRICS:
        if total[m] is None:
            total[m] = (0,) * (6 if m == "blanc" else 4)
    return total


def scores_from_counts(counts: dict) -> dict:
    """{metric: {"recall", "precision", "f1"}} from :func:`corpus_counts`."""
    out = {}
    for m in METRICS:
        c = counts[m]
        r, p, f = blanc_from_counts(*c) if m == "blanc" else prf(*c)
        out[m] = {"recall": r, "precision": p, "f1": f}
    return out


def corpus_scores(documents: Iterable[tuple[Clustering, Clustering]]) -> dict:
    """All five metrics, micro-averaged over ``(key, response)`` document pairs."""
    return scores_from_counts(corpus_counts(documents))


# --------------------------------------------------------------------------------------------
# APF: mention alignment and clusterings


def _candidates(
    ref: Sequence,
    sys: Sequence,
    min_overlap: float,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    docid: str = "",
) -> dict:
    """{(i, j): overlap} for REF/SYS entity mentions whose heads correspond (docs/rules/entities.md §1.4:
    they share a position and their mutual overlap is at least ``min_overlap``).  More than
    ``max_pairs`` heads sharing a position (the candidates) is an error
    (acescore.model.limits)."""
    out: dict = {}
    if not ref or not sys:
        return out
    text = all(m.head.kind != "image" for m in ref) and all(m.head.kind != "image" for m in sys)
    if text:
        # heads sharing a position, found by a sweep over their starts (the work grows with
        # the mentions and the pairs found, not their product; a long SYS head made the
        # window of every REF head as long before)
        cand = intersecting_pairs(
            [(m.head.start, m.head.end) for m in ref],
            [(m.head.start, m.head.end) for m in sys],
            max_pairs,
            lambda n: too_many_pairs(docid, "entity mention", n, max_pairs),
        )
        for i, j in cand:
            h, sh = ref[i].head, sys[j].head
            if sh.kind != h.kind:
                continue
            ov = overlap(h, sh)
            if ov > 0 and ov >= min_overlap:
                out[(i, j)] = ov
    else:
        if len(ref) * len(sys) > max_pairs:
            raise too_many_pairs(docid, "entity mention", len(ref) * len(sys), max_pairs)
        for i, rm in enumerate(ref):
            for j, sm in enumerate(sys):
                if rm.head.kind != sm.head.kind:
                    continue
                ov = overlap(rm.head, sm.head)
                if ov > 0 and ov >= min_overlap:
                    out[(i, j)] = ov
    return out


def align_mentions(
    ref_mentions: Sequence,
    sys_mentions: Sequence,
    min_overlap: float = 0.3,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    docid: str = "",
) -> dict:
    """One-to-one alignment of the entity mentions of one document.

    Candidate pairs are the NIST tool's corresponding pairs (heads sharing a position with a
    mutual overlap ≥ ``min_overlap``); among them the alignment is a maximum-weight bipartite
    matching with the overlap as weight.  Returns {SYS mention ID: REF mention ID}.
    Ties between equal-weight matchings are broken by :func:`linear_sum_assignment` on the
    mentions in mention-ID order (deterministic).
    """
    ref = sorted(ref_mentions, key=lambda m: m.id)
    sys = sorted(sys_mentions, key=lambda m: m.id)
    cand = _candidates(ref, sys, min_overlap, max_pairs, docid)
    if len(cand) > max_pairs:
        raise too_many_pairs(docid, "entity mention", len(cand), max_pairs)
    return {sys[j].id: ref[i].id for i, j in max_weight_matching(cand)}


def document_clusterings(
    ref_doc, sys_doc, min_overlap: float = 0.3, max_pairs: int = DEFAULT_MAX_PAIRS
):
    """(key, response, alignment) of one document: the key holds the REF entities' mention
    IDs, the response the SYS entities' mentions, an aligned SYS mention standing for the ID
    of its REF mention, a twinless one for itself (as ``("SYS", id)``, so that it can never
    collide with a REF ID)."""
    rents = ref_doc.entities if ref_doc is not None else ()
    sents = sys_doc.entities if sys_doc is not None else ()
    rm = [m for e in rents for m in e.mentions]
    sm = [m for e in sents for m in e.mentions]
    alignment = align_mentions(rm, sm, min_overlap, max_pairs, getattr(ref_doc, "docid", ""))
    key = [[m.id for m in e.mentions] for e in rents]
    response = [[alignment.get(m.id, ("SYS", m.id)) for m in e.mentions] for e in sents]
    return key, response, alignment


def nist_b3(ref_side, sys_side, params: Params) -> dict | None:
    """The NIST tool's B-cubed (unweighted, docs/rules/entities.md §8.3) over all entities, for comparison;
    ``None`` when the parameter set does not use mentions."""
    if not params.use_mentions:
        return None
    return nist_b3_from_summands([nist_b3_summands(ref_side, sys_side, params)])


def nist_b3_summands(ref_side, sys_side, params: Params, b3=None) -> tuple | None:
    """Per side (REF, SYS), per mention of an entity in mention-ID order (docs/rules/determinism.md R17),
    (mention ID, its summand: max COUNT / the host's mention count, or None without
    partners); None when neither side has entities.  ``b3``: the B-cubed data of the
    entity pass of these sides (:func:`acescore.scoring.b3.compute_b3` of its scoring
    valuation), if at hand: the mention correspondences and counts do not depend on the
    weighting, so it is what a valuation made here would give."""
    ref, sys = ref_side.of("entity"), sys_side.of("entity")
    if not ref and not sys:
        return None
    if b3 is None:
        ep = ElementPass("entity", ref, sys, params, params.eval_weighting == "LEVEL").run()
        b3 = compute_b3(ep)
    return tuple(
        [
            (bm.mention.id, max(bm.count.values()) / totals[bm.entity_id][0] if bm.count else None)
            for bm in mentions
        ]
        for mentions, totals in ((b3.ref, b3.ref_totals), (b3.sys, b3.sys_totals))
    )


def nist_b3_from_summands(parts: list) -> dict:
    """The NIST B-cubed from the :func:`nist_b3_summands` of one or more disjoint sets of
    documents (document shards): the summands are added in mention-ID order over all."""
    parts = [p for p in parts if p is not None]
    if not parts:
        return {"recall": 0.0, "precision": 0.0, "f1": 0.0}
    sums = []
    for side in (0, 1):
        runs = [p[side] for p in parts]
        s = 0.0
        n = 0
        for _, x in runs[0] if len(runs) == 1 else merge(*runs, key=lambda t: t[0]):
            n += 1
            if x is not None:
                s += x
        sums.append(_ratio(s, n))
    r, p = sums
    return {"recall": r, "precision": p, "f1": 2 * p * r / max(p + r, 1e-30)}


def coref_scores(
    ref_side, sys_side, params: Params | None = None, with_nist_b3: bool = True
) -> dict:
    """Coreference metrics of SYS against REF (two :class:`~acescore.rules.database.Side`).

    Every REF document is scored (a REF document without SYS output has an empty response);
    see the module docstring for the definitions.  Returns::

        {"muc": {"recall", "precision", "f1"}, "bcub": ..., "ceafm": ..., "ceafe": ...,
         "blanc": ...,
         "mentions": {"ref": N_k, "sys": N_r, "aligned": n},   # the mention alignment
         "bcub_nist": {"recall", "precision", "f1"} or None}    # docs/rules/entities.md §8, for comparison

    all values fractions.
    """
    params = params or get_params("local_2008")
    out = coref_from_documents(coref_documents(ref_side, sys_side, params))
    if with_nist_b3:
        out["bcub_nist"] = nist_b3(ref_side, sys_side, params)
    return out


def coref_documents(ref_side, sys_side, params: Params) -> list:
    """Per REF document in DOCID order: (DOCID, its :func:`document_counts`, (REF
    mentions, SYS mentions, aligned mentions))."""
    out = []
    for docid in sorted(ref_side.documents):
        rd = ref_side.documents[docid]
        sd = sys_side.documents.get(docid)
        key, response, alignment = document_clusterings(
            rd, sd, params.min_overlap, params.max_pairs
        )
        out.append(
            (
                docid,
                document_counts(key, response),
                (sum(len(e) for e in key), sum(len(e) for e in response), len(alignment)),
            )
        )
    return out


def coref_from_documents(documents: list) -> dict:
    """:func:`coref_scores` (without ``bcub_nist``) from :func:`coref_documents` records in
    DOCID order (those of document shards merged)."""
    out = scores_from_counts(summed_counts(c for _, c, _ in documents))
    nref = nsys = naligned = 0
    for _, _, (r, s, a) in documents:
        nref += r
        nsys += s
        naligned += a
    out["mentions"] = {"ref": nref, "sys": nsys, "aligned": naligned}
    return out
