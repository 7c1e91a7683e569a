"""The whole NIST text report: parameter header, then every section in the tool's order
(04 §1.1) with the optional diagnostics (-s, -a/-e, -d)."""
from __future__ import annotations

from acescore.params import header

EPS = 1e-8
TASK_CODES = {"entity": "EDR", "value": "VAL", "timex2": "TIM", "relation": "RDR",
              "event": "VDR", "mention_entity": "EMD", "mention_relation": "RMD",
              "mention_event": "VMD"}


def document_costs(res) -> dict:
    """Per document: [REF value, summed record costs] accumulated as the tool does (R27)."""
    costs: dict = {}
    for rid in sorted(res.ref):
        g = res.ref[rid]
        for d in sorted(g.docs):
            v = res.doc_value.get(("REF", rid, d), 0.0)
            s = res.doc_mapped(rid, d)
            cost = v
            if s is not None and (rid, s, d) in res.doc_costs:
                cost = v - res.doc_mv[(rid, s, d)]
                if cost < EPS:
                    cost = 0
            c = costs.setdefault(d, [0.0, 0.0])
            c[0] += v
            c[1] += cost
    for sid in sorted(res.sys):
        g = res.sys[sid]
        for d in sorted(g.docs):
            if res.sys_doc_mapped(sid, d) is not None:
                continue
            c = costs.setdefault(d, [0.0, 0.0])
            c[0] += 0
            c[1] += -res.doc_fa.get((sid, d), 0.0)
    return costs


def document_scores_text(res, costs=None) -> str:
    """The -d lines of a pass; ``costs``: its :func:`document_costs` if known (one document
    shard's do not depend on the others')."""
    task = TASK_CODES[res.task]
    out = [""]
    if costs is None:
        costs = document_costs(res)
    for d, (refv, cost) in sorted(costs.items()):
        sysv = refv - cost
        score = sysv / refv if refv else (-99.9999 if sysv else 1)
        out.append("%10.2f %% (%.5f out of %.5f) %s score for %s"
                   % (100 * max(score, -99.9999), sysv, refv, task, d))
    return "\n".join(out) + "\n"


def pass_text(results, res) -> str:
    """Everything the report prints for one pass: the ``-s`` listings, the ``-a``/``-e``
    mappings, the section itself and the ``-d`` document scores (as asked by the options)."""
    from acescore.report.nist_text import section_text
    opts = results.options
    summary = bool(opts.get("summary"))
    mappings = bool(opts.get("all_mappings") or opts.get("error_mappings"))
    if summary or mappings:
        from acescore.report import diagnostics as diag
    parts = []
    if summary:
        parts.append(diag.listing_text(results, res, "REF"))
    if not res.extra.get("print", True):
        return "".join(parts)
    if summary:
        parts.append(diag.listing_text(results, res, "SYS"))
    if mappings:
        parts.append(diag.mapping_text(results, res, all_blocks=bool(opts.get("all_mappings"))))
    parts.append(section_text(res, results.params, results.source_label, results.all_sources))
    if opts.get("doc_scores"):
        parts.append(document_scores_text(res))
    return "".join(parts)


def full_report(results, command_line=None) -> str:
    """The whole report (without the command-line banner).  Passes scored in worker
    processes (``results.rendered``) arrive as text already."""
    parts = [header(results.params)]
    if results.options.get("summary"):
        from acescore.report import diagnostics as diag
        parts.append(diag.documents_text(results))
    if results.rendered is not None:
        if any(out.text is None for out in results.rendered):
            from acescore.errors import AceUsageError
            raise AceUsageError("these results were rendered as JSON/CSV (render=...); score"
                                " with render='text' for the text report")
        parts.extend(out.text for out in results.rendered)
    else:
        parts.extend(pass_text(results, res) for res in results.passes)
    return "".join(parts)
