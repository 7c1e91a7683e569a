"""DyGIE++'s JSON lines (one document a line; dwadden/dygiepp ``doc/data.md`` and
``dygie/data/dataset_readers/document.py``): ``doc_key``, ``dataset``, ``sentences`` (lists
of tokens), and per sentence ``ner`` ``[start, end, label]``, ``relations`` ``[start1, end1,
start2, end2, label]``, ``events`` ``[[trigger, label], [start, end, role], ...]`` -- token
indices in the *document*, ends inclusive -- plus ``clusters`` (lists of ``[start, end]``:
coreference).  A model's output adds ``predicted_ner``, ``predicted_relations``,
``predicted_events`` (the same with scores appended); reading takes those when a line has
them.  Labels: entity TYPE, value TYPE, ``TIMEX2`` for timex2 mentions; events and relations
``TYPE.SUBTYPE`` (``:`` is read too).  DyGIE++ carries no mention TYPE.

Writing follows DyGIE++'s ACE preprocessing (``scripts/data/ace-event/parse_ace_event.py``):
a trigger is one token, ``[token, label]`` (its reader takes the second item as the label);
an event mention whose anchor spans several tokens is left out and counted, as that
preprocessing skips it (a head token would be a guess: DyGIE++'s own code has that choice
commented out); within a sentence ``ner`` is in span order, ``relations`` and ``events``
sorted, and an event's arguments sorted (by start, end, role).  Reading also takes
``[start, end, label]`` triggers.  Mentions that share one span stay distinct mentions (of
distinct entities unless ``clusters`` join them), so a relation between two of them keeps
two entities.
"""

from __future__ import annotations

import json
from bisect import bisect_right

from acescore.formats.checks import Checker, check_dygiepp, duplicate, nothing_to_import, parse_line
from acescore.formats.tokens import TokDoc, output_budget, output_too_large
from acescore.model.errors import AceInputError
from acescore.model.params import VALUE_SUBTYPES


def _label(m: dict) -> str:
    return "TIMEX2" if m["kind"] == "timex2" else m["label"]


#: the reason an event mention is not written (ImportReport.drop)
MULTI_TOKEN = (
    "event mentions with a trigger of several tokens (DyGIE++ triggers are one token;"
    " its preprocessing skips them)"
)


def write(tokdocs: list, report=None) -> str:
    """The JSON lines of ``tokdocs``; the event mentions left out (multi-token triggers)
    are counted in ``report`` (:class:`acescore.formats.convert.ImportReport`)."""
    lines = []
    for td in tokdocs:
        starts = td.window_starts()
        nwin = len(td.windows)

        def win(tok):
            # the last window starting at or before the token (bisection: a scan from the
            # first window made the export quadratic)
            return max(bisect_right(starts, tok) - 1, 0)  # noqa: B023 (called in this iteration)

        ner = [[] for _ in range(nwin)]
        rels = [[] for _ in range(nwin)]
        evs = [[] for _ in range(nwin)]
        clusters: dict = {}
        for m in td.mentions:
            if m["start"] is None or m["end"] is None:
                continue
            ner[win(m["start"])].append([m["start"], m["end"] - 1, _label(m)])
            clusters.setdefault(m["entity"], []).append([m["start"], m["end"] - 1])
        for r in td.relations:
            a, b = (td.mentions[i] for i in r["args"])
            rels[win(a["start"])].append(
                [a["start"], a["end"] - 1, b["start"], b["end"] - 1, f"{r['type']}.{r['subtype']}"]
            )
        for e in td.events:
            if e["end"] - e["start"] != 1:
                if report is not None:
                    report.drop(MULTI_TOKEN, f"{td.docid} {e.get('id', '')}".rstrip())
                continue
            trig = [e["start"], e["type"].replace(":", ".", 1)]
            args = sorted(
                [td.mentions[i]["start"], td.mentions[i]["end"] - 1, role] for i, role in e["args"]
            )
            evs[win(e["start"])].append([trig] + args)
        obj = {
            "doc_key": td.docid,
            "dataset": "ace-event",
            "sentences": td.windows,
            "ner": [sorted(w, key=lambda m: (m[0], m[1])) for w in ner],
            "relations": [sorted(w) for w in rels],
            "events": [sorted(w) for w in evs],
            "clusters": [c for c in clusters.values() if len(c) > 1],
        }
        line = json.dumps(obj, ensure_ascii=False)
        if len(line) > output_budget(td):
            raise output_too_large(td, len(line), "DyGIE++")
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def _kind(label: str) -> tuple:
    if label in ("TIMEX2", "TIME"):
        return "timex2", "TIME"
    if label in VALUE_SUBTYPES or label == "VALUE":
        return "value", label
    return "entity", label


def read(text: str, path: str) -> list:
    """TokDocs from DyGIE++ JSON Lines, in file order.  Every line's structure is checked
    first (:mod:`acescore.formats.checks`); a document given twice (one ``doc_key`` on two
    lines) and a file without documents are refused."""
    out = []
    seen: dict = {}
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        obj = parse_line(line, path, n, "DyGIE++ document")
        check_dygiepp(obj, Checker(path, n, "not a DyGIE++ document: "))
        key = obj["doc_key"]
        if key in seen:
            raise duplicate(path, f"doc_key {key!r}", seen[key], n)
        seen[key] = n
        try:
            out.append(_document(obj))
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise AceInputError(
                f"not a DyGIE++ document ({e!r}); hint: one JSON object with"
                f" doc_key, sentences and per-sentence ner/relations/events"
                f" a line",
                path,
                line=n,
            ) from None
    if not out:
        raise nothing_to_import(path)
    return out


def _document(obj: dict) -> TokDoc:
    td = TokDoc(obj["doc_key"], windows=[[str(t) for t in s] for s in obj["sentences"]])
    pick = lambda k: obj.get("predicted_" + k, obj.get(k)) or []  # noqa: E731
    by_span: dict = {}  # span -> the mentions on it, in file order
    clusters_of: dict = {}  # span -> the clusters holding it, in file order
    for c, members in enumerate(obj.get("predicted_clusters", obj.get("clusters")) or []):
        for s, e in members:
            clusters_of.setdefault((s, e), []).append(f"c{c}")
    for sent in pick("ner"):
        for item in sent:
            s, e, label = item[0], item[1], item[2]
            kind, lab = _kind(label)
            on_span = by_span.setdefault((s, e), [])
            # mentions sharing a span: the k-th takes the k-th cluster holding the span,
            # else an entity of its own (never the entity of another mention on the span)
            k = len(on_span)
            clusters = clusters_of.get((s, e), [])
            entity = clusters[k] if k < len(clusters) else f"s{s}-{e}" + (f"#{k + 1}" if k else "")
            on_span.append(len(td.mentions))
            td.mentions.append(
                {
                    "start": s,
                    "end": e + 1,
                    "label": lab,
                    "kind": kind,
                    "mtype": None,
                    "subtype": None,
                    "entity": entity,
                    "id": f"{s}-{e}" + (f"#{k + 1}" if k else ""),
                    "text": "",
                }
            )
    for sent in pick("events"):
        for ev in sent:
            trig = ev[0]
            if isinstance(trig[1], str):
                s, e, label = trig[0], trig[0], trig[1]
            else:
                s, e, label = trig[0], trig[1], trig[2]
            # an argument span that is no NER span: (start, end) token bounds
            args = [(_first(by_span, a[0], a[1], (a[0], a[1] + 1)), a[2]) for a in ev[1:]]
            td.events.append({"start": s, "end": e + 1, "type": label, "args": args, "text": ""})
    for sent in pick("relations"):
        for r in sent:
            td.relations.append({"args": _pair(td, by_span, r), "type": r[4], "subtype": None})
    return td


def _first(by_span: dict, s: int, e: int, default):
    on_span = by_span.get((s, e))
    return on_span[0] if on_span else default


def _pair(td: TokDoc, by_span: dict, r: list) -> tuple:
    """The mentions of a relation's two spans: the first on each, or where they share a
    span (or the first two are of one entity), the first two of distinct entities."""
    one, two = by_span.get((r[0], r[1]), [-1]), by_span.get((r[2], r[3]), [-1])
    for i in one:
        for j in two:
            if i != j and (i < 0 or j < 0 or td.mentions[i]["entity"] != td.mentions[j]["entity"]):
                return i, j
    return one[0], two[0]
