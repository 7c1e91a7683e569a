"""The parameter header of the NIST report (docs/rules/input.md §1.6)."""

from __future__ import annotations

from acescore.model.params import Params
from acescore.model.versions import VERSION_OPTIONS, version


def header(p: Params) -> str:
    """The parameter header the NIST tool prints (docs/rules/input.md §1.6), starting with an
    empty line; that of the older versions for their sets (docs/rules/versions.md §1.4)."""
    form = version(p.nist).report.header
    out = [""]
    if form == "2008":
        out.append(f'The scoring mode parameter set is "{p.name}":')
        out += _rules(p)
    else:
        out += _old_rules(p)
    out.append("")
    out += _limits(p)
    out.append("")
    out += _entity_weights(p)
    out.append("")
    out += _releve_weights(p)
    out.append("")
    out += _timex2_and_value_weights(p)
    if form == "2005":
        out = [x for line in out for x in _ace05_lines(line, p)]
    return "\n".join(out) + "\n"


#: the switch lines of the older versions, by option (the word printed upper-cased as typed)
_OLD_RULE_LINES = {
    "weighting": " Entity scoring is %s weighted",
    "mapping": " Relation/Event mapping is allowed when %s criterion is satisfied",
    "nargs": " Overlap of %s of Arg-* relation arguments is required for mapping",
    "arg_scoring": " Arguments contribute to scoring when arguments are %s",
    "averaging": " Argument averaging is %s",
}


def _old_rules(p: Params) -> list:
    words = dict(p.option_words)
    out = [
        _OLD_RULE_LINES[k] % words[k].upper()
        for k in VERSION_OPTIONS
        if k in words and k in _OLD_RULE_LINES
    ]
    out.append(f' Scoring mode parameter set is "{p.name}"')
    return out


#: ace05's header differs from ace07's in its false-alarm lines (docs/rules/versions.md §1.4):
#: 07's line (up to its colon) -> ace05's element, its plural, what else is spurious, and the
#: weights of both (Params fields); None: the line is not printed
_ACE05_FA = {
    "  Entity mention value (cost) for spurious entity mentions": (
        "Entity",
        "entities",
        "entity mentions",
        "entity_fa_wgt",
        "entity_fa_wgt",
    ),
    "  Relation argument value (cost) for spurious relation arguments": (
        "Relation",
        "relations",
        "relation arguments",
        "relation_fa_wgt",
        "relation_argument_fa_wgt",
    ),
    "  Relation argument value (cost) discount for Arg-[12] asymmetry errors": None,
    "  Event argument value (cost) for spurious event arguments": (
        "Event",
        "events",
        "event arguments",
        "event_fa_wgt",
        "event_argument_fa_wgt",
    ),
    "  Timex2 mention value (cost) for spurious timex2 mentions": (
        "Timex2",
        "timex2's",
        "timex2 mentions",
        "timex2_fa_wgt",
        "timex2_fa_wgt",
    ),
    "  Value mention value (cost) for spurious value mentions": (
        "Value",
        "values",
        "value mentions",
        "value_fa_wgt",
        "value_fa_wgt",
    ),
}


def _ace05_lines(line: str, p: Params) -> list:
    key = line.split(":")[0]
    if key not in _ACE05_FA:
        return [line]
    spec = _ACE05_FA[key]
    if spec is None:
        return []
    element, plural, what, fa, sub = spec
    part = " mention" if what.endswith("mentions") else ""
    return [
        f"  {element} value (cost) weight for spurious (false alarm) {plural}:%6.3f"
        % getattr(p, fa),
        f"  {element}{part} value (cost) weight for spurious {what}:%6.3f" % getattr(p, sub),
    ]


def _rules(p: Params) -> list:
    """What is scored, and how elements are mapped."""
    out = []
    out.append(
        " Scoring %s mentions for mapping and to compute value"
        % ("USES" if p.use_mentions else "DOES NOT use")
    )
    out.append(
        " %s document entities are allowed"
        % ("All" if p.allow_non_named_entities else "Only NAM-level")
    )
    out.append(
        " %s document entities are mapped and scored"
        % ("All" if p.score_non_named_entities else "Only NAM-level")
    )
    out.append(f" Entity mapping is {p.map_weighting} weighted")
    out.append(f" Entity scoring is {p.eval_weighting} weighted")
    if p.use_name_similarity:
        out.append(" Entity scoring USES name (dis)similarity to penalize entity values")
        out.append(f"   (minimum acceptable similarity is {p.min_name_similarity:g})")
    else:
        out.append(" Entity scoring DOES NOT use name (dis)similarity to penalize entity values")
    out.append(
        " Time arguments of relations are %s"
        % ("SCORED" if p.score_relation_times else "NOT scored")
    )
    out.append(
        " Relation/Event mapping %s overlap of Relation/Event mentions"
        % ("REQUIRES" if p.mention_overlap_required else "DOES NOT require")
    )
    if not p.argscore_required:
        x = "does NOT require that arguments"
    elif p.argscore_required == 1:
        x = "requires that AT LEAST ONE argument"
    else:
        x = "requires that ALL arguments"
    out.append(f" Relation/Event mapping {x} have a non-null argument score")
    x = "BOTH" if p.nargs_required == 2 else f"at least {p.nargs_required}"
    out.append(
        f" Relation mapping requires that {x} Arg-* relation arguments have a non-null argument score"
    )
    out.append(
        " Relation/Event arguments %s required to map correctly in order to contribute to the argument score"
        % ("are NOT" if p.allow_wrong_mapping else "ARE")
    )
    return out


def _limits(p: Params) -> list:
    """The least overlap and text match, the largest extent difference."""
    out = []
    out.append("  min acceptable overlap of matching mention heads or names:")
    out.append("%11.1f percent" % (100 * p.min_overlap))
    out.append("  min acceptable run of matching characters in mention heads:")
    out.append("%11.1f percent" % (100 * p.min_text_match))
    out.append("  max acceptable extent difference for names and mentions to match:")
    out.append("%11d chars for text sources" % p.max_diff_chars)
    out.append("%11.3f sec for audio sources" % p.max_diff_time)
    out.append("%11.3f cm for image sources" % p.max_diff_xy)
    return out


def _weight_list(out: list, title: str, weights: dict, what: str, order=None) -> None:
    out.append(title)
    keys = order if order is not None else sorted(weights)
    for k in keys:
        out.append("%11.3f for %s %s" % (weights[k], what, k))


def _error_list(out: list, title: str, weights: dict) -> None:
    out.append(title)
    for k in sorted(weights):
        out.append("%11.3f for %s errors" % (weights[k], k))


def _entity_weights(p: Params) -> list:
    out: list = []
    _weight_list(
        out, "  Entity mention values:", p.entity_mention_type_wgt, "type", p.mention_types
    )
    _weight_list(
        out, "  Entity value weights for entity types:", p.entity_type_wgt, "type", p.entity_types
    )
    _weight_list(
        out,
        "  Entity value weights for entity classes:",
        p.entity_class_wgt,
        "class",
        p.entity_classes,
    )
    _error_list(
        out, "  Entity value discounts for entity attribute recognition errors:", p.entity_err_wgt
    )
    _error_list(
        out,
        "  Entity mention value discounts for mention attribute recognition errors:",
        p.entity_mention_err_wgt,
    )
    out.append("  Entity mention value (cost) for spurious entity mentions:%6.3f" % p.entity_fa_wgt)
    out.append(
        "  Entity mention value (cost) discount for incorrect coreference:%6.3f"
        % p.entity_mention_coref_fa_wgt
    )
    return out


def _releve_kind(
    out: list, kind: str, type_wgt: dict, types, modality_wgt: dict, modalities, err_wgt: dict
) -> None:
    """A relation's or event's type and modality weights and attribute error discounts."""
    title = kind.capitalize()
    _weight_list(out, f"  {title} value weights for {kind} types:", type_wgt, "type", types)
    _weight_list(
        out, f"  {title} value weights for {kind} modalities:", modality_wgt, "modality", modalities
    )
    _error_list(out, f"  {title} value discounts for {kind} attribute recognition errors:", err_wgt)


def _releve_weights(p: Params) -> list:
    """Relations', then events'."""
    out: list = []
    _releve_kind(
        out,
        "relation",
        p.relation_type_wgt,
        p.relation_types,
        p.relation_modality_wgt,
        p.relation_modalities,
        p.relation_err_wgt,
    )
    out.append(
        "  Relation argument value (cost) for spurious relation arguments:%6.3f" % p.relation_fa_wgt
    )
    out.append(
        "  Relation argument value (cost) discount for argument role errors:%6.3f"
        % p.relation_argument_role_err_wgt
    )
    out.append(
        "  Relation argument value (cost) discount for Arg-[12] asymmetry errors:%6.3f"
        % p.relation_asymmetry_err_wgt
    )
    out.append("")
    _releve_kind(
        out,
        "event",
        p.event_type_wgt,
        p.event_types,
        p.event_modality_wgt,
        p.event_modalities,
        p.event_err_wgt,
    )
    out.append("  Event argument value (cost) for spurious event arguments:%6.3f" % p.event_fa_wgt)
    out.append(
        "  Event argument value (cost) discount for argument role errors:%6.3f"
        % p.event_argument_role_err_wgt
    )
    return out


def _timex2_and_value_weights(p: Params) -> list:
    out: list = []
    out.append("  Timex2 attribute value weights for timex2 attributes:")
    for k in sorted(p.timex2_attribute_wgt):
        out.append("%11.3f for type %s" % (p.timex2_attribute_wgt[k], k))
    out.append("  Timex2 mention value (cost) for spurious timex2 mentions:%6.3f" % p.timex2_fa_wgt)
    out.append(
        "  Timex2 mention value (cost) discount for incorrect coreference:%6.3f"
        % p.timex2_mention_coref_fa_wgt
    )
    out.append("")
    _weight_list(
        out, "  Value value weights for value types:", p.value_type_wgt, "type", p.value_types
    )
    _error_list(
        out, "  Value value discounts for value attribute recognition errors:", p.value_err_wgt
    )
    out.append("  Value mention value (cost) for spurious value mentions:%6.3f" % p.value_fa_wgt)
    out.append(
        "  Value mention value (cost) discount for incorrect coreference:%6.3f"
        % p.value_mention_coref_fa_wgt
    )
    return out
