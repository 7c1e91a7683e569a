"""The window-per-line JSON shared by OneIE and TextEE (their key names differ a little:
``KEYS``)."""

from __future__ import annotations

import json

from acescore.formats.checks import Checker, check_window, duplicate, nothing_to_import, parse_line
from acescore.formats.tokens import TokDoc, output_budget, output_too_large
from acescore.model.errors import AceInputError


def _entity_of(mention_id: str) -> str:
    return mention_id.rsplit("-", 1)[0] if "-" in mention_id else mention_id


def write_windows(tokdocs: list, keys: dict) -> str:
    lines = []
    for td in tokdocs:
        starts = td.window_starts()
        where = {}
        for w, s in enumerate(starts):
            for t in range(s, s + len(td.windows[w])):
                where[t] = w
        per = [{"ents": [], "evs": [], "rels": []} for _ in td.windows]
        local = {}
        for i, m in enumerate(td.mentions):
            if m["start"] is None or m["end"] is None:
                continue
            w = where[m["start"]]
            local[i] = (w, len(per[w]["ents"]))
            per[w]["ents"].append(m)
        for ev in td.events:
            if ev["start"] is not None:
                per[where[ev["start"]]]["evs"].append(ev)
        for rel in td.relations:
            i, _ = rel["args"]
            if i in local:
                per[local[i][0]]["rels"].append(rel)
        budget, size = output_budget(td), 0
        for w, toks in enumerate(td.windows):
            base = starts[w]
            # what this window's line will take, before it is made (a line can be huge:
            # a long mention's text repeated by every argument naming it)
            size += _estimate(td, toks, per[w], local)
            if size > budget:
                raise output_too_large(td, size, keys["name"])

            def arg(i, role, m=None):
                m = td.mentions[i]  # noqa: B023 (called in this iteration)
                a = {"entity_id": m["id"], "role": role, "text": m["text"]}
                if keys["arg_offsets"]:
                    a["start"], a["end"] = m["start"] - base, m["end"] - base  # noqa: B023 (called in this iteration)
                return a

            obj = {
                "doc_id": td.docid,
                keys["window"]: f"{td.docid}-{w}",
                "tokens": toks,
                keys["text"]: " ".join(toks),
            }
            obj["entity_mentions"] = [
                {
                    "id": m["id"],
                    "entity_id": m["entity"],
                    "text": m["text"],
                    "entity_type": m["label"],
                    "entity_subtype": m["subtype"],
                    "mention_type": m["mtype"],
                    "start": m["start"] - base,
                    "end": m["end"] - base,
                }
                for m in per[w]["ents"]
            ]
            obj["relation_mentions"] = [
                {
                    "id": r["id"],
                    "relation_type": r["type"],
                    "relation_subtype": r["subtype"],
                    "arguments": [arg(r["args"][0], "Arg-1"), arg(r["args"][1], "Arg-2")],
                }
                for r in per[w]["rels"]
            ]
            obj["event_mentions"] = [
                {
                    "id": e["id"],
                    "event_type": e["type"],
                    "trigger": {
                        "start": e["start"] - base,
                        "end": e["end"] - base,
                        "text": e["text"],
                    },
                    "arguments": [arg(i, role) for i, role in e["args"] if i in local],
                }
                for e in per[w]["evs"]
            ]
            lines.append(json.dumps(obj, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def _estimate(td: TokDoc, toks: list, items: dict, local: dict) -> int:
    """An upper bound of the characters of a window's line without its ``\\u`` escapes:
    the tokens (twice, quoted), and per mention, event and relation its texts and a fixed
    part (keys, IDs, types, offsets)."""
    fixed = 200 + len(td.docid) * 4

    def text(m):
        return len(m.get("text") or "") + len(m.get("id") or "") + len(str(m.get("entity")))

    n = sum(len(t) + 4 for t in toks) * 2 + fixed
    n += sum(fixed + text(m) for m in items["ents"])
    n += sum(
        fixed
        + len(e.get("text") or "")
        + len(str(e.get("id")))
        + sum(fixed + text(td.mentions[i]) for i, _ in e["args"] if i in local)
        for e in items["evs"]
    )
    n += sum(
        fixed * 3 + text(td.mentions[r["args"][0]]) + text(td.mentions[r["args"][1]])
        for r in items["rels"]
    )
    return n


def _kind(m: dict) -> str:
    mt = m.get("mention_type")
    if mt == "VALUE":
        return "value"
    if mt in ("TIME", "TIMEX2"):
        return "timex2"
    return "entity"


def _lines(text: str):
    """(line number, line) of the non-blank lines of JSON Lines text: lines end at ``\n``
    only (a JSON string may hold U+2028, U+0085 ... which str.splitlines() takes for line
    ends)."""
    for n, line in enumerate(text.split("\n"), 1):
        if line.strip():
            yield n, line


def window_tokens(text: str, path: str, keys: dict) -> dict:
    """``{(doc_id, window id): tokens}`` of a window-per-line file (for predictions that
    carry no tokens)."""
    out = {}
    for n, line in _lines(text):
        obj = parse_line(line, path, n, "window")
        c = Checker(path, n, "not a window: ")
        c.string(obj.get("doc_id"), "doc_id")
        c.key(obj.get(keys["window"]), keys["window"])
        c.strings(obj.get("tokens"), "tokens")
        out[(obj["doc_id"], obj[keys["window"]])] = obj["tokens"]
    return out


def read_windows(text: str, path: str, keys: dict, tokens: dict | None = None) -> list:
    """TokDocs (in order of first appearance) from window-per-line JSON; ``tokens``: the
    tokens of windows whose lines have none (:func:`window_tokens`).  Every line's structure
    is checked first (:mod:`acescore.formats.checks`); a window given twice (one doc_id and
    window ID on two lines) and a file without windows are refused."""
    docs: dict = {}
    size: dict = {}  # doc_id -> tokens of its windows so far
    seen: dict = {}  # (doc_id, window ID) -> line
    for n, line in _lines(text):
        obj = parse_line(line, path, n, "window")
        wid = obj.get(keys["window"])
        named = isinstance(wid, (str, int)) and not isinstance(wid, bool)
        check_window(
            obj,
            Checker(path, n, "malformed annotation: ", f"window {wid}" if named else None),
            keys,
            tokens is not None,
        )
        doc_id = obj["doc_id"]
        if wid is not None:
            if (doc_id, wid) in seen:
                raise duplicate(
                    path, f"doc_id {doc_id!r}, {keys['window']} {wid!r}", seen[(doc_id, wid)], n
                )
            seen[(doc_id, wid)] = n
        if "tokens" in obj:
            toks = obj["tokens"]
        else:
            toks = tokens.get((doc_id, wid))
            if toks is None:
                raise AceInputError(
                    f"no tokens for doc_id {doc_id!r}, {keys['window']}"
                    f" {wid!r} in the --tokens-from file; hint: the data"
                    f" file of the same windows",
                    path,
                    line=n,
                )
        td = docs.setdefault(doc_id, TokDoc(doc_id))
        base = size.get(doc_id, 0)
        td.windows.append(list(toks))
        size[doc_id] = base + len(toks)
        try:
            _window(td, obj, base)
        except (KeyError, TypeError, IndexError, ValueError) as e:
            raise AceInputError(
                f"malformed annotation ({e!r}); hint: token offsets are"
                f" integers, mentions are referred to by their id",
                path,
                line=n,
                element=f"window {wid}",
            ) from None
    if not docs:
        raise nothing_to_import(path)
    return list(docs.values())


def _window(td: TokDoc, obj: dict, base: int) -> None:
    first = len(td.mentions)
    ids = {}
    graph = obj.get("graph")
    if graph is not None:
        for k, e in enumerate(graph.get("entities") or []):
            td.mentions.append(
                {
                    "start": base + e[0],
                    "end": base + e[1],
                    "label": e[2],
                    "mtype": e[3] if len(e) > 4 else None,
                    "kind": _kind({"mention_type": e[3] if len(e) > 4 else None}),
                    "subtype": None,
                    "entity": None,
                    "id": f"g{k}",
                }
            )
        trig = []
        for t in graph.get("triggers") or []:
            trig.append(len(td.events))
            td.events.append({"start": base + t[0], "end": base + t[1], "type": t[2], "args": []})
        for ti, ei, role, *_ in graph.get("roles") or []:
            td.events[trig[ti]]["args"].append((first + ei, role))
        for r in graph.get("relations") or []:
            i, j, rtype = r[0], r[1], r[2]
            sub = r[4] if len(r) > 4 else None
            td.relations.append({"args": (first + i, first + j), "type": rtype, "subtype": sub})
        return
    for e in obj.get("events") or []:
        # TextEE's in-memory E2E predictions: trigger [start, end, type], arguments
        # [start, end, role] (TextEE/scorer.py compute_E2E_*), no mentions
        t = e["trigger"]
        td.events.append(
            {
                "start": base + t[0],
                "end": base + t[1],
                "type": t[2],
                "text": "",
                "args": [((base + a[0], base + a[1]), a[2]) for a in e.get("arguments") or []],
            }
        )
    for m in obj.get("entity_mentions") or []:
        ids[m["id"]] = len(td.mentions)
        td.mentions.append(
            {
                "start": base + m["start"],
                "end": base + m["end"],
                "label": m.get("entity_type"),
                "mtype": m.get("mention_type"),
                "kind": _kind(m),
                "subtype": m.get("entity_subtype"),
                "entity": m.get("entity_id") or _entity_of(m["id"]),
                "id": m["id"],
                "text": m.get("text", ""),
            }
        )
    for e in obj.get("event_mentions") or []:
        t = e["trigger"]
        td.events.append(
            {
                "start": base + t["start"],
                "end": base + t["end"],
                "type": e["event_type"],
                "text": t.get("text", ""),
                "args": [(_arg(ids, a, base), a["role"]) for a in e.get("arguments") or []],
            }
        )
    for r in obj.get("relation_mentions") or []:
        a = {x["role"]: ids.get(x["entity_id"], -1) for x in r.get("arguments") or []}
        td.relations.append(
            {
                "args": (a.get("Arg-1", -1), a.get("Arg-2", -1)),
                "type": r.get("relation_type"),
                "subtype": r.get("relation_subtype"),
            }
        )


def _arg(ids: dict, a: dict, base: int):
    """The mention index of an argument; (start, end) token bounds when its ``entity_id`` is
    no mention of the window but it has offsets (TextEE); -1 otherwise."""
    if a.get("entity_id") in ids:
        return ids[a["entity_id"]]
    if isinstance(a.get("start"), int) and isinstance(a.get("end"), int):
        return (base + a["start"], base + a["end"])
    return -1
