"""Machine-readable output that agrees with itself (JSON and CSV of every command).

* One unit: every score (Value, costs, precision, recall, F1 of the NIST tables, of ``coref``
  and of ``events``) is a percentage, 0-100, as in the NIST report; counts are integers.
  The literature metrics are computed as fractions (:mod:`acescore.metrics`) and turned
  into percentages here, for JSON only.
* The content of ``-a``/``-e`` (:func:`mappings_json`: per element its partner, values,
  and per document the status, value, costs and attribute errors), of ``-s``
  (:func:`listing_json`) and of ``-d`` (``document_scores``, also in CSV).
* The reproducibility signature (:func:`make_signature`) in every JSON, CSV and the view.
"""

from __future__ import annotations

import os

from acescore.model.version import __version__
from acescore.report.counts.records import attribute_differences
from acescore.report.counts.tables import PassTables

SCORE_KEYS = frozenset({"recall", "precision", "f1"})
UNIT = "percent"


def make_signature(
    params: str,
    flags: str = "",
    dtd: str = "none",
    lenient: bool = False,
    extra: str = "",
    nist: str = "ace08",
) -> str:
    """``acescore:VERSION|params:NAME|nist:V|flags:F|order:canonical-05|dtd:D[|lenient][|EXTRA]``
    (in the spirit of sacrebleu's signatures); ``nist``: the NIST version reproduced, with
    the older versions' options given, e.g. ``ace05(W=mention)``."""
    return (
        f"acescore:{__version__}|params:{params}|nist:{nist}|flags:{flags or '-'}"
        f"|order:canonical-05|dtd:{dtd or 'none'}"
        + ("|lenient" if lenient else "")
        + (f"|{extra}" if extra else "")
    )


def dtd_label(files) -> str:
    """The DOCTYPE system files of the APF files read (for the signature)."""
    return (
        ",".join(sorted({os.path.basename(f.doctype) if f.doctype else "none" for f in files}))
        or "none"
    )


def as_percent(obj):
    """A copy of ``obj`` with every recall/precision/f1 fraction as a percentage."""
    if isinstance(obj, dict):
        return {
            k: (
                100.0 * v
                if k in SCORE_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool)
                else as_percent(v)
            )
            for k, v in obj.items()
        }
    if isinstance(obj, list):
        return [as_percent(v) for v in obj]
    return obj


def conll_f1(scores: dict) -> float:
    """The CoNLL-2012 average: the mean of the MUC, B-cubed and CEAF-e F1 (a fraction when
    ``scores`` holds fractions)."""
    return (scores["muc"]["f1"] + scores["bcub"]["f1"] + scores["ceafe"]["f1"]) / 3


def coref_json(scores: dict) -> dict:
    out = as_percent(scores)
    out["conll_f1"] = 100.0 * conll_f1(scores)
    return out


def events_json(scores: dict) -> dict:
    """The JSON of :func:`acescore.metrics.events.event_scores` (``acescore events`` and the
    ``events`` of ``score --format json`` alike): ``definition`` and, in percent, the
    ``scores`` by task -- the shape of every events result, with or without a
    convention."""
    pct = as_percent(scores)
    return {"definition": pct.pop("definition"), "scores": pct}


# --------------------------------------------------------------------------------------------
# -a / -e / -s


def _val(x) -> float | None:
    return None if x is None else float(x)


def mappings_json(res, errors_only: bool = False, tables=None) -> list:
    """The ``-a`` listing (``errors_only``: ``-e``) of one pass as records: every REF element
    with its SYS partner (or none), then every SYS element without one.  ``documents``:
    per document the record's status (correct, error, miss, fa), the REF document value,
    the mapped pair's value, the cost (REF value - pair value, or the false-alarm cost),
    the cost components and the attributes in error.  ``-e`` keeps the elements with
    a document that is not correct.  ``tables``: the pass's PassTables, if at hand."""
    by_elem: dict = {}
    for rec in (PassTables(res) if tables is None else tables).docs:
        by_elem.setdefault((rec.side, rec.eid), []).append(rec)
    out = []
    for (side, eid), recs in by_elem.items():
        rid = eid if side == "REF" else None
        sid = res.mapping.get(eid) if side == "REF" else eid
        docs = []
        for rec in recs:
            d = rec.docid
            dsid = res.doc_mapped(rid, d) if rid else sid
            rd = res.ref[rid].docs.get(d) if rid else None
            sd = res.sys[dsid].docs.get(d) if dsid else None
            comps = rec.comps or (None, None, None, None)
            entry = {
                "docid": d,
                "status": rec.status,
                "ref_value": _val(res.doc_value.get(("REF", rid, d))) if rid else None,
                "sys_value": _val(res.doc_value.get(("SYS", dsid, d))) if dsid else None,
                "pair_value": _val(res.doc_mv.get((rid, dsid, d))) if rid and dsid else None,
                "cost": _val(rec.cost),
                "costs": dict(zip(("attr", "sub_miss", "sub_err", "sub_fa"), map(_val, comps))),
                "errors": [
                    {"attribute": a, "ref": x, "sys": y}
                    for a, x, y in (
                        attribute_differences(res.kind, rd, sd)
                        if rd is not None and sd is not None
                        else ()
                    )
                ],
            }
            docs.append(entry)
        if errors_only and all(e["status"] == "correct" for e in docs):
            continue
        item = {
            "ref": rid,
            "sys": sid,
            "status": "fa" if rid is None else ("mapped" if sid else "miss"),
            "ref_value": _val(res.value.get(("REF", rid))) if rid else None,
            "sys_value": _val(res.value.get(("SYS", sid))) if sid else None,
            "pair_value": _val(res.pair_value.get((rid, sid))) if rid and sid else None,
            "documents": docs,
        }
        if res.kind in ("relation", "event"):
            item["argument_errors"] = res.arg_errors.get(rid if rid else sid, 0)
        out.append(item)
    return out


def listing_json(res) -> dict:
    """The ``-s`` listing of one pass: the elements of each side with their attributes,
    documents and (relations/events) arguments."""
    out = {}
    for side, coll in (("ref", res.ref), ("sys", res.sys)):
        lst = []
        for eid in sorted(coll):
            g = coll[eid]
            item = {"id": eid, "attributes": dict(g.attrs), "documents": sorted(g.docs)}
            if g.arguments:
                item["arguments"] = {r: list(ids) for r, ids in sorted(g.arguments.items())}
            lst.append(item)
        out[side] = lst
    return out


def pass_details(options, res, tables=None) -> dict:
    """What ``-a``/``-e``/``-s`` add to one pass's JSON (nothing where the options say that
    no JSON is wanted: ``listing_data``; ``tables``: the pass's PassTables if at hand)."""
    out = {}
    if not options.listing_data:
        return out
    if options.all_mappings or options.error_mappings:
        out["mappings"] = mappings_json(res, errors_only=not options.all_mappings, tables=tables)
    if options.summary:
        out["listing"] = listing_json(res)
    return out
