"""The structure of a prediction, checked before it is read (``acescore import``).

Every line of a JSON Lines prediction file is parsed with a bound on its nesting
(:data:`MAX_DEPTH`; deeper JSON is refused before the parser recurses into it), and every
field the readers use is checked for its JSON type: a line whose field has another type is
refused with one line naming the file, the line and the field
(``pred.json:3: field entity_mentions[0].start: an integer expected, not a string``) --
never a crash in the middle of the conversion, never a document silently dropped (a
``doc_id`` that is no string found no source document).  Fields the readers do not use
are not looked at.

Two predictions of one document (DyGIE++: two lines with one ``doc_key``; OneIE/TextEE:
two lines with one ``doc_id`` and window ID) are refused with both line numbers, and a file
without any prediction is refused ("nothing to import").
"""

from __future__ import annotations

import json
import re

from acescore.model.errors import AceInputError

#: the deepest nesting of arrays and objects read from one line (the formats need 4)
MAX_DEPTH = 100

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}


def depth(line: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in the JSON text ``line`` (strings skipped)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", line))
    deepest = n = 0
    for c in brackets:
        n += _DEPTH[c]
        if n > deepest:
            deepest = n
    return deepest


def parse_line(line: str, path: str, n: int, what: str):
    """The JSON value of line ``n`` (a JSON object expected), refused in one line when it is
    no JSON, nested deeper than :data:`MAX_DEPTH` or no object."""
    if line.count("[") + line.count("{") > MAX_DEPTH and depth(line) > MAX_DEPTH:
        raise AceInputError(
            f"JSON nested deeper than {MAX_DEPTH} levels; hint: one {what} a line", path, line=n
        )
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as e:
        raise AceInputError(
            f"not a {what} (not JSON: {e}); hint: one {what} a line (JSON Lines)", path, line=n
        ) from None
    if not isinstance(obj, dict):
        raise AceInputError(
            f"not a {what} ({_kind(obj)}, not a JSON object); hint: one {what} a line", path, line=n
        )
    return obj


def _kind(x) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, int):
        return "an integer"
    if isinstance(x, float):
        return "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "an array"
    return "an object"


class Checker:
    """Type checks of one line's fields; every failure one :class:`AceInputError`
    (``prefix``: the start of its message; ``element``: e.g. ``window D-0``)."""

    def __init__(self, path: str, line: int, prefix: str = "", element: str | None = None):
        self.path, self.line, self.prefix, self.element = path, line, prefix, element

    def error(self, message: str) -> AceInputError:
        return AceInputError(self.prefix + message, self.path, line=self.line, element=self.element)

    def fail(self, field: str, expected: str, got) -> AceInputError:
        return self.error(f"field {field}: {expected} expected, not {_kind(got)}")

    def obj(self, x, field: str) -> dict:
        if not isinstance(x, dict):
            raise self.fail(field, "an object", x)
        return x

    def array(self, x, field: str, optional: bool = False) -> list:
        """An array (``optional``: or null, or absent: read as empty)."""
        if x is None and optional:
            return []
        if not isinstance(x, list):
            raise self.fail(field, "an array", x)
        return x

    def integer(self, x, field: str, optional: bool = False):
        if x is None and optional:
            return x
        if not isinstance(x, int) or isinstance(x, bool):
            raise self.fail(field, "an integer", x)
        return x

    def string(self, x, field: str, optional: bool = False):
        if x is None and optional:
            return x
        if not isinstance(x, str):
            raise self.fail(field, "a string", x)
        return x

    def key(self, x, field: str):
        """A string or an integer (an ID)."""
        if not isinstance(x, (str, int)) or isinstance(x, bool):
            raise self.fail(field, "a string or an integer", x)
        return x

    def strings(self, x, field: str) -> list:
        for k, t in enumerate(self.array(x, field)):
            self.string(t, f"{field}[{k}]")
        return x

    def tuple_(self, x, field: str, kinds: str, least: int, most: int | None = None) -> list:
        """An array whose first items have the kinds ``kinds`` (``i``: integer, ``s``:
        string, ``S``: string or null, ``k``: string or integer, ``.``: anything), at least
        ``least`` items (and at most ``most``)."""
        self.array(x, field)
        if len(x) < least or (most is not None and len(x) > most):
            many = f"{least}" if most == least else f"at least {least}"
            raise self.error(f"field {field}: an array of {many} items expected, not {len(x)}")
        for k, (kind, item) in enumerate(zip(kinds, x)):
            f = f"{field}[{k}]"
            if kind == "i":
                self.integer(item, f)
            elif kind == "s":
                self.string(item, f)
            elif kind == "S":
                self.string(item, f, optional=True)
            elif kind == "k":
                self.key(item, f)
        return x

    def index(self, x, field: str, size: int):
        """An integer index into an array of ``size`` items."""
        self.integer(x, field)
        if not 0 <= x < size:
            raise self.error(f"field {field}: {x} is no index of the {size} items it refers to")
        return x


def nothing_to_import(path: str) -> AceInputError:
    return AceInputError(
        "nothing to import: the file holds no prediction (no non-blank"
        " line); hint: the prediction file of the model's output",
        path,
    )


def duplicate(path: str, what: str, first: int, again: int) -> AceInputError:
    return AceInputError(
        f"{what} again (first at line {first}): a second prediction would"
        f" replace the first; hint: one prediction per document",
        path,
        line=again,
    )


# ---------------------------------------------------------------- the formats' lines


def check_window(obj: dict, c: Checker, keys: dict, tokens_from: bool) -> None:
    """The fields of a OneIE / TextEE line (:func:`acescore.formats.windowed.read_windows`);
    ``tokens_from``: a line may go without ``tokens`` (they come from another file, by
    ``doc_id`` and window ID)."""
    c.string(obj.get("doc_id"), "doc_id")
    if keys["window"] in obj or ("tokens" not in obj and tokens_from):
        c.key(obj.get(keys["window"]), keys["window"])
    if "tokens" in obj or not tokens_from:
        c.strings(obj.get("tokens"), "tokens")
    graph = obj.get("graph")
    if graph is not None:
        c.obj(graph, "graph")
        ents = c.array(graph.get("entities"), "graph.entities", optional=True)
        for k, e in enumerate(ents):
            f = f"graph.entities[{k}]"
            c.tuple_(e, f, "iis" + ("S" if len(c.array(e, f)) > 4 else ""), 3)
        trig = c.array(graph.get("triggers"), "graph.triggers", optional=True)
        for k, t in enumerate(trig):
            c.tuple_(t, f"graph.triggers[{k}]", "iis", 3)
        for k, r in enumerate(c.array(graph.get("roles"), "graph.roles", optional=True)):
            f = f"graph.roles[{k}]"
            c.tuple_(r, f, "..s", 3)
            c.index(r[0], f + "[0]", len(trig))
            c.index(r[1], f + "[1]", len(ents))
        for k, r in enumerate(c.array(graph.get("relations"), "graph.relations", optional=True)):
            f = f"graph.relations[{k}]"
            c.tuple_(r, f, "..S" + (".S" if len(c.array(r, f)) > 4 else ""), 3)
            c.index(r[0], f + "[0]", len(ents))
            c.index(r[1], f + "[1]", len(ents))
        return
    for k, e in enumerate(c.array(obj.get("events"), "events", optional=True)):
        f = f"events[{k}]"
        c.obj(e, f)
        c.tuple_(e.get("trigger"), f + ".trigger", "iis", 3)
        for a, arg in enumerate(c.array(e.get("arguments"), f + ".arguments", optional=True)):
            c.tuple_(arg, f"{f}.arguments[{a}]", "iis", 3)
    for k, m in enumerate(c.array(obj.get("entity_mentions"), "entity_mentions", optional=True)):
        f = f"entity_mentions[{k}]"
        c.obj(m, f)
        c.string(m.get("id"), f + ".id")
        c.integer(m.get("start"), f + ".start")
        c.integer(m.get("end"), f + ".end")
        for name in ("entity_type", "mention_type", "entity_subtype", "text"):
            c.string(m.get(name), f"{f}.{name}", optional=True)
        c.key(m["entity_id"], f + ".entity_id") if m.get("entity_id") is not None else None
    for k, e in enumerate(c.array(obj.get("event_mentions"), "event_mentions", optional=True)):
        f = f"event_mentions[{k}]"
        c.obj(e, f)
        t = c.obj(e.get("trigger"), f + ".trigger")
        c.integer(t.get("start"), f + ".trigger.start")
        c.integer(t.get("end"), f + ".trigger.end")
        c.string(t.get("text"), f + ".trigger.text", optional=True)
        c.string(e.get("event_type"), f + ".event_type")
        for a, arg in enumerate(c.array(e.get("arguments"), f + ".arguments", optional=True)):
            _argument(c, arg, f"{f}.arguments[{a}]")
    for k, r in enumerate(
        c.array(obj.get("relation_mentions"), "relation_mentions", optional=True)
    ):
        f = f"relation_mentions[{k}]"
        c.obj(r, f)
        c.string(r.get("relation_type"), f + ".relation_type", optional=True)
        c.string(r.get("relation_subtype"), f + ".relation_subtype", optional=True)
        for a, arg in enumerate(c.array(r.get("arguments"), f + ".arguments", optional=True)):
            _argument(c, arg, f"{f}.arguments[{a}]", mention=True)


def _argument(c: Checker, arg, f: str, mention: bool = False) -> None:
    """An argument: its role, the mention it names (``mention``: required), and its token
    offsets if any."""
    c.obj(arg, f)
    c.string(arg.get("role"), f + ".role")
    if mention or arg.get("entity_id") is not None:
        c.key(arg["entity_id"], f + ".entity_id")
    for name in ("start", "end"):
        if name in arg and not isinstance(arg[name], int):
            c.integer(arg[name], f"{f}.{name}", optional=True)


def check_dygiepp(obj: dict, c: Checker) -> None:
    """The fields of a DyGIE++ line (:func:`acescore.formats.dygiepp.read`)."""
    c.string(obj.get("doc_key"), "doc_key")
    for k, s in enumerate(c.array(obj.get("sentences"), "sentences")):
        c.strings(s, f"sentences[{k}]")

    def pick(name):
        key = "predicted_" + name if "predicted_" + name in obj else name
        return key, c.array(obj.get(key), key, optional=True)

    key, clusters = (
        ("predicted_clusters", obj["predicted_clusters"])
        if "predicted_clusters" in obj
        else ("clusters", obj.get("clusters"))
    )
    for k, members in enumerate(c.array(clusters, key, optional=True)):
        for m, span in enumerate(c.array(members, f"{key}[{k}]")):
            c.tuple_(span, f"{key}[{k}][{m}]", "ii", 2, 2)
    key, ner = pick("ner")
    for k, sent in enumerate(ner):
        for m, item in enumerate(c.array(sent, f"{key}[{k}]")):
            c.tuple_(item, f"{key}[{k}][{m}]", "iis", 3)
    key, events = pick("events")
    for k, sent in enumerate(events):
        for m, ev in enumerate(c.array(sent, f"{key}[{k}]")):
            f = f"{key}[{k}][{m}]"
            c.array(ev, f)
            if not ev:
                raise c.error(
                    f"field {f}: an event (trigger and arguments) expected, not an empty array"
                )
            trig = c.array(ev[0], f + "[0]")
            if len(trig) >= 2 and isinstance(trig[1], str):
                c.tuple_(trig, f + "[0]", "is", 2)
            else:
                c.tuple_(trig, f + "[0]", "iis", 3)
            for a, arg in enumerate(ev[1:], 1):
                c.tuple_(arg, f"{f}[{a}]", "iis", 3)
    key, rels = pick("relations")
    for k, sent in enumerate(rels):
        for m, r in enumerate(c.array(sent, f"{key}[{k}]")):
            c.tuple_(r, f"{key}[{k}][{m}]", "iiiis", 5)
