"""Named scoring conventions of the event-extraction literature, as data (the sacrebleu way).

A convention is one :class:`Convention`: a name, where its rules come from, and the value of
every rule.  Every rule is also a named option (``acescore events --rule-option VALUE``)
that overrides the convention's value, and :func:`signature` lists them all, so a printed
number says exactly how it was computed.  :data:`CONVENTIONS` is the one registry.

The rules fall in two groups.  *Preprocessing* rules say which APF items exist for the
scorer (each codebase decides that in its ACE preprocessing script, not in its scorer);
they apply to REF and SYS alike.  *Counting* rules say how the scorer collects and matches
them.  APF has no sentence windows: the window of every rule is the document.

Preprocessing
  ``span``         ``head`` | ``extent``: the offsets of an entity mention (value and timex2
                   mentions have only an extent).
  ``pronouns``     ``keep`` | ``drop``: entity mentions of TYPE PRO (and the arguments and
                   relations that use them).
  ``values_times`` ``keep`` | ``drop``: value and timex2 mentions (and the arguments that use
                   them).
  ``triggers``     ``all`` | ``single-token``: ``single-token`` drops every event mention whose
                   anchor text contains white space.
  ``overlaps``     ``keep`` | ``longest``: ``longest`` keeps, in order of decreasing length (ties:
                   document order), each entity mention that overlaps no mention kept before,
                   and the same for event-mention anchors; arguments of dropped mentions go.
  ``time_roles``   ``keep`` | ``collapse``: ``collapse`` renames every role starting with
                   ``Time`` to ``Time``.
  ``roles``        ``all`` | ``first``: ``first`` keeps one role per (event mention, argument
                   mention), the first in the event mention's order (OneIE's graph has one
                   role per trigger-entity pair: its data loader keeps the first).
Counting
  ``trigger_items`` ``list`` (every event mention) | ``set`` (distinct descriptions) | ``dict``
                   (one per anchor span; event mentions taken in the order of (anchor, type,
                   arguments) and the last one's type wins).
  ``arg_items``    ``list`` | ``set`` | ``dict`` (one per (anchor span, argument span); the
                   last role wins, in the same order; its event type is the anchor's type
                   after the trigger dict).
  ``matching``     ``one-to-one`` (maximum one-to-one matching: the multiset intersection) |
                   ``intersection`` (distinct descriptions of each score, intersected) |
                   ``any`` (a SYS item is correct when some REF item agrees; a SYS trigger is
                   classified correctly when the first REF trigger with its span has its type).
  ``attached``     ``no`` | ``yes``: also score arguments with the anchor span in their
                   description (TextEE's "attached" Arg-I+/Arg-C+).
  ``relation_label`` ``type`` | ``subtype``: the label of a relation mention.
  ``relation_order`` ``ace`` (Arg-1/Arg-2 order counts, except for the symmetric types) |
                   ``any`` (either order matches).
  ``entity_items`` ``list`` | ``set`` | ``dict``: entity and relation mentions as collected
                   for their scores; ``dict``: one label per entity span and per (Arg-1 span,
                   Arg-2 span), in sorted order, the last one winning.
"""

from __future__ import annotations

from dataclasses import fields, replace

from acescore.model.records import dataclass

RULES = {
    "span": ("head", "extent"),
    "pronouns": ("keep", "drop"),
    "values_times": ("keep", "drop"),
    "triggers": ("all", "single-token"),
    "overlaps": ("keep", "longest"),
    "time_roles": ("keep", "collapse"),
    "roles": ("all", "first"),
    "trigger_items": ("list", "set", "dict"),
    "arg_items": ("list", "set", "dict"),
    "matching": ("one-to-one", "intersection", "any"),
    "attached": ("no", "yes"),
    "relation_label": ("type", "subtype"),
    "relation_order": ("ace", "any"),
    "entity_items": ("list", "set", "dict"),
}

#: one line on each rule (the module documentation has the whole definition)
RULE_HELP = {
    "span": "offsets of an entity mention: its head or its extent",
    "pronouns": "keep or drop PRO entity mentions (and what uses them)",
    "values_times": "keep or drop value and timex2 mentions (and the arguments using them)",
    "triggers": "all event mentions, or only those whose anchor has no white space",
    "overlaps": "keep overlapping mentions/anchors, or keep the longest first (OneIE)",
    "time_roles": "keep Time-* roles, or collapse them to Time (DyGIE++)",
    "roles": "every role of an argument mention in an event mention, or the first (OneIE)",
    "trigger_items": "triggers as a list, a set, or a dict by anchor (last type wins)",
    "arg_items": "arguments as a list, a set, or a dict by (anchor, span) (last role wins)",
    "matching": "one-to-one, set intersection, or any (a SYS item vs any REF item)",
    "attached": "also score arguments with their anchor (TextEE's attached scores)",
    "relation_label": "a relation's label: its TYPE or TYPE:SUBTYPE",
    "relation_order": "Arg-1/Arg-2 order counts (ACE; not for symmetric types) or not",
    "entity_items": "entity and relation mentions as a list, a set, or a dict (last wins)",
}

#: short names of the rules in a signature
ABBREVIATIONS = {
    "span": "span",
    "pronouns": "pro",
    "values_times": "vt",
    "triggers": "trig",
    "overlaps": "ovl",
    "time_roles": "troles",
    "roles": "roles",
    "trigger_items": "titems",
    "arg_items": "aitems",
    "matching": "match",
    "attached": "att",
    "relation_label": "rel",
    "relation_order": "rord",
    "entity_items": "eitems",
}


@dataclass(frozen=True)
class Convention:
    name: str
    title: str
    source: str
    span: str = "head"
    pronouns: str = "keep"
    values_times: str = "keep"
    triggers: str = "all"
    overlaps: str = "keep"
    time_roles: str = "keep"
    roles: str = "all"
    trigger_items: str = "list"
    arg_items: str = "list"
    matching: str = "one-to-one"
    attached: str = "no"
    relation_label: str = "subtype"
    relation_order: str = "ace"
    entity_items: str = "list"
    #: the groups of scores the codebase prints (the others are left out of its table)
    groups: tuple = ("events", "entities", "relations")

    def rules(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name in RULES}

    def with_rules(self, **overrides) -> Convention:
        """This convention with some rules changed (``None`` values are ignored)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        for k, v in given.items():
            if k not in RULES:
                raise ValueError(f"unknown rule {k!r}")
            if v not in RULES[k]:
                raise ValueError(f"rule {k} must be one of {', '.join(RULES[k])}, not {v!r}")
        return replace(self, **given) if given else self


CONVENTIONS = {
    c.name: c
    for c in (
        Convention(
            "ace05",
            "ACE 2005 standard (Ji & Grishman 2008; Li, Ji & Huang 2013)",
            "acescore.metrics.events (one-to-one, head offsets, every argument)",
        ),
        Convention(
            "oneie",
            "OneIE scorer on process_ace.py output without --time_and_val",
            "OneIE scorer.py score_graphs (as copied in ej0cl6/TextEE TextEE/models/OneIE/); "
            "preprocessing/process_ace.py (as copied in jeremytanjianle/event-extraction-oneie); "
            "data.py get_role_list (GAIA-IE/oneie)",
            values_times="drop",
            overlaps="longest",
            roles="first",
            trigger_items="list",
            arg_items="set",
            matching="any",
            relation_label="type",
            relation_order="any",
        ),
        Convention(
            "dygiepp",
            "DyGIE++ event metrics on its default ACE event preprocessing",
            "dwadden/dygiepp dygie/training/event_metrics.py; "
            "scripts/data/ace-event/parse_ace_event.py",
            pronouns="drop",
            values_times="drop",
            triggers="single-token",
            time_roles="collapse",
            trigger_items="dict",
            arg_items="dict",
            matching="any",
            relation_label="subtype",
            entity_items="dict",
        ),
        Convention(
            "textee",
            "TextEE E2E scorer on its ace05-en preprocessing (plus attached AI+/AC+)",
            "ej0cl6/TextEE TextEE/scorer.py compute_E2E_*; "
            "data/preprocessing/ace05/process_ace05_en.py",
            values_times="drop",
            trigger_items="set",
            arg_items="set",
            matching="intersection",
            attached="yes",
            relation_label="type",
        ),
        Convention(
            "degree",
            "DEGREE end-to-end scores on its ace05e data (DyGIE++ preprocessing)",
            "PlusLabNLP/DEGREE degree/eval_end2endEE.py cal_scores; scripts/process_ace05e.sh",
            pronouns="drop",
            values_times="drop",
            triggers="single-token",
            time_roles="collapse",
            trigger_items="set",
            arg_items="set",
            matching="intersection",
            relation_label="subtype",
        ),
        Convention(
            "pure",
            "PURE entity and relation scores on DyGIE++'s ACE05 relation data",
            "princeton-nlp/PURE shared/data_structures.py evaluate_predictions; "
            "dwadden/dygiepp scripts/data/ace05/preprocess/ace2ann.py",
            values_times="drop",
            matching="any",
            relation_label="type",
            entity_items="set",
            groups=("entities", "relations"),
        ),
    )
}

DEFAULT = "ace05"


def get_convention(name: str, **overrides) -> Convention:
    """The convention ``name`` with the rules given in ``overrides`` changed."""
    if name not in CONVENTIONS:
        raise ValueError(f"unknown convention {name!r} (one of {', '.join(CONVENTIONS)})")
    return CONVENTIONS[name].with_rules(**overrides)


def signature(conv: Convention, version: str = "") -> str:
    """``conv:NAME|span:head|pro:keep|...`` -- every rule, in the order of :data:`RULES`;
    a rule changed from the named convention's value is marked with ``*``."""
    base = CONVENTIONS.get(conv.name)
    parts = [f"conv:{conv.name}"]
    for k in RULES:
        v = getattr(conv, k)
        mark = "*" if base is not None and getattr(base, k) != v else ""
        parts.append(f"{ABBREVIATIONS[k]}:{v}{mark}")
    if version:
        parts.append(f"v:{version}")
    return "|".join(parts)
