"""Parameter sets of the NIST tool (01-input.md §6) and the legal attribute values.

The four predefined sets are the only ones the NIST tool knows; none of their numbers can be
changed from the command line.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

EPSILON = 1e-8

ENTITY_SUBTYPES = {
    "FAC": ("Airport", "Building-Grounds", "Path", "Plant", "Subarea-Facility"),
    "GPE": ("Continent", "County-or-District", "GPE-Cluster", "Nation", "Population-Center",
            "Special", "State-or-Province"),
    "LOC": ("Address", "Boundary", "Celestial", "Land-Region-Natural", "Region-General",
            "Region-International", "Water-Body"),
    "ORG": ("Commercial", "Educational", "Entertainment", "Government", "Media",
            "Medical-Science", "Non-Governmental", "Religious", "Sports"),
    "PER": ("Group", "Indeterminate", "Individual"),
    "VEH": ("Air", "Land", "Subarea-Vehicle", "Underspecified", "Water"),
    "WEA": ("Biological", "Blunt", "Chemical", "Exploding", "Nuclear", "Projectile", "Sharp",
            "Shooting", "Underspecified"),
}
ENTITY_CLASSES = ("GEN", "NEG", "SPC", "USP")
MENTION_TYPES = ("NAM", "NOM", "PRO")

VALUE_SUBTYPES = {
    "Contact-Info": ("E-Mail", "Phone-Number", "URL"),
    "Crime": (),
    "Job-Title": (),
    "Numeric": ("Money", "Percent"),
    "Sentence": (),
}

RELATION_SUBTYPES = {
    "ART": ("User-Owner-Inventor-Manufacturer",),
    "GEN-AFF": ("Citizen-Resident-Religion-Ethnicity", "Org-Location"),
    "METONYMY": (),
    "ORG-AFF": ("Employment", "Founder", "Investor-Shareholder", "Membership", "Ownership",
                "Sports-Affiliation", "Student-Alum"),
    "PART-WHOLE": ("Artifact", "Geographical", "Subsidiary"),
    "PER-SOC": ("Business", "Family", "Lasting-Personal"),
    "PHYS": ("Located", "Near"),
}
SYMMETRIC_RELATIONS = frozenset({"PER-SOC", "PHYS", "METONYMY"})
TIME_ROLES = ("Time-After", "Time-At-Beginning", "Time-At-End", "Time-Before", "Time-Ending",
              "Time-Holds", "Time-Starting", "Time-Within")
RELATION_ROLES = ("Arg-1", "Arg-2") + TIME_ROLES
RELATION_MODALITIES = ("Asserted", "Other")

EVENT_SUBTYPES = {
    "Business": ("Declare-Bankruptcy", "End-Org", "Merge-Org", "Start-Org"),
    "Conflict": ("Attack", "Demonstrate"),
    "Contact": ("Meet", "Phone-Write"),
    "Justice": ("Acquit", "Appeal", "Arrest-Jail", "Charge-Indict", "Convict", "Execute",
                "Extradite", "Fine", "Pardon", "Release-Parole", "Sentence", "Sue",
                "Trial-Hearing"),
    "Life": ("Be-Born", "Date", "Die", "Divorce", "Injure", "Marry"),
    "Movement": ("Transport",),
    "Personnel": ("Elect", "End-Position", "Nominate", "Start-Position"),
    "Transaction": ("Transfer-Money", "Transfer-Ownership"),
}
EVENT_ROLES = ("Adjudicator", "Agent", "Artifact", "Attacker", "Beneficiary", "Buyer", "Crime",
               "Defendant", "Destination", "Entity", "Giver", "Instrument", "Money", "Org",
               "Origin", "Person", "Place", "Plaintiff", "Position", "Price", "Prosecutor",
               "Recipient", "Seller", "Sentence", "Target") + TIME_ROLES + (
               "Vehicle", "Victim")
EVENT_ATTRIBUTES = {
    "GENERICITY": ("Generic", "Specific"),
    "MODALITY": ("Asserted", "Other"),
    "POLARITY": ("Negative", "Positive"),
    "TENSE": ("Future", "Past", "Present", "Unspecified"),
}

LANGUAGES = ("Arabic", "Chinese", "English", "MIXED", "UNKNOWN")


def _ordered(weights: dict) -> tuple:
    """Decreasing weight, ties in increasing code-point order (01 §6.3)."""
    return tuple(k for k, _ in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))


@dataclass(frozen=True)
class Params:
    name: str = "local_2008"
    map_weighting: str = "MENTION"
    eval_weighting: str = "LEVEL"
    mention_overlap_required: int = 0
    argscore_required: int = 1
    nargs_required: int = 2
    allow_wrong_mapping: int = 1
    use_name_similarity: int = 0
    use_mentions: int = 1
    score_non_named_entities: int = 1
    allow_non_named_entities: int = 1
    score_relation_times: int = 0
    min_overlap: float = 0.3
    min_text_match: float = 0.0
    max_diff_chars: int = 4
    max_diff_time: float = 0.4
    max_diff_xy: float = 0.4
    min_name_similarity: float = 0.5
    # not a NIST parameter: the most REF/SYS pairs valued in one document (scoring/limits.py)
    max_pairs: int = 100_000          # = acescore.scoring.limits.DEFAULT_MAX_PAIRS

    entity_type_wgt: dict = field(default_factory=lambda: dict.fromkeys(
        ("PER", "ORG", "LOC", "GPE", "FAC", "VEH", "WEA"), 1.0))
    entity_class_wgt: dict = field(default_factory=lambda: {
        "SPC": 1.0, "GEN": EPSILON, "NEG": EPSILON, "USP": EPSILON})
    entity_err_wgt: dict = field(default_factory=lambda: {
        "TYPE": 0.5, "SUBTYPE": 0.9, "CLASS": 0.75})
    entity_fa_wgt: float = 0.75
    entity_mention_type_wgt: dict = field(default_factory=lambda: {
        "NAM": 1.0, "NOM": 0.5, "PRO": 0.1})
    entity_mention_err_wgt: dict = field(default_factory=lambda: {
        "TYPE": 0.9, "ROLE": 0.9, "STYLE": 0.9})
    entity_mention_coref_fa_wgt: float = 1.0

    relation_type_wgt: dict = field(default_factory=lambda: dict.fromkeys(
        ("ART", "GEN-AFF", "METONYMY", "ORG-AFF", "PART-WHOLE", "PER-SOC", "PHYS"), 1.0))
    relation_modality_wgt: dict = field(default_factory=lambda: {
        "Asserted": 1.0, "Other": 1.0, "Unspecified": 1.0})
    relation_err_wgt: dict = field(default_factory=lambda: {
        "TYPE": 1.0, "SUBTYPE": 0.7, "MODALITY": 0.75, "TENSE": 1 - EPSILON})
    relation_fa_wgt: float = 0.75
    relation_argument_role_err_wgt: float = 0.75
    relation_asymmetry_err_wgt: float = 0.7

    event_type_wgt: dict = field(default_factory=lambda: dict.fromkeys(
        ("Business", "Conflict", "Contact", "Justice", "Life", "Movement", "Personnel",
         "Transaction"), 1.0))
    event_modality_wgt: dict = field(default_factory=lambda: {"Asserted": 1.0, "Other": 1.0})
    event_err_wgt: dict = field(default_factory=lambda: {
        "TYPE": 0.5, "SUBTYPE": 0.9, "MODALITY": 0.75, "GENERICITY": 1 - EPSILON,
        "POLARITY": 1 - EPSILON, "TENSE": 1 - EPSILON})
    event_fa_wgt: float = 0.75
    event_argument_role_err_wgt: float = 0.75

    timex2_attribute_wgt: dict = field(default_factory=lambda: {
        "VAL": 1.0, "ANCHOR_VAL": 0.5, "ANCHOR_DIR": 0.25, "MOD": 0.1, "SET": 0.1,
        "TYPE": 0.1})
    timex2_fa_wgt: float = 0.75
    timex2_mention_coref_fa_wgt: float = 1.0

    value_type_wgt: dict = field(default_factory=lambda: dict.fromkeys(
        ("Contact-Info", "Crime", "Illness", "Job-Title", "Numeric", "Sentence"), 1.0))
    value_err_wgt: dict = field(default_factory=lambda: {"TYPE": 0.5, "SUBTYPE": 0.9})
    value_fa_wgt: float = 0.75
    value_mention_coref_fa_wgt: float = 1.0

    # ---- derived orders (01 §6.3)
    @property
    def mention_types(self) -> tuple:
        return _ordered(self.entity_mention_type_wgt)

    @property
    def entity_types(self) -> tuple:
        return _ordered(self.entity_type_wgt)

    @property
    def entity_classes(self) -> tuple:
        return _ordered(self.entity_class_wgt)

    @property
    def relation_types(self) -> tuple:
        return _ordered(self.relation_type_wgt)

    @property
    def relation_modalities(self) -> tuple:
        return _ordered(self.relation_modality_wgt)

    @property
    def event_types(self) -> tuple:
        return _ordered(self.event_type_wgt)

    @property
    def event_modalities(self) -> tuple:
        return _ordered(self.event_modality_wgt)

    @property
    def value_types(self) -> tuple:
        return _ordered(self.value_type_wgt)

    @property
    def is_global(self) -> bool:
        return bool(self.use_name_similarity)


def _global_err():
    return {"TYPE": 0.5, "SUBTYPE": 0.9, "CLASS": 0.75, "LEVEL": 0.5}


PARAMETER_SETS = {
    "local_2008": Params(name="local_2008", allow_wrong_mapping=0),
    "local_2007": Params(name="local_2007", map_weighting="LEVEL"),
    "global_2008": Params(name="global_2008", allow_wrong_mapping=0, use_mentions=0,
                          use_name_similarity=1, entity_err_wgt=_global_err()),
    "global_2008_with_mentions": Params(name="global_2008_with_mentions", allow_wrong_mapping=0,
                                        use_name_similarity=1, entity_err_wgt=_global_err()),
}


def get_params(name: str) -> Params:
    return PARAMETER_SETS[name]


def with_wrong_mapping_allowed(p: Params) -> Params:
    return replace(p, allow_wrong_mapping=1)


def header(p: Params) -> str:
    """The parameter header the NIST tool prints (01 §1.6), starting with an empty line."""
    out = ["", f'The scoring mode parameter set is "{p.name}":']
    out.append(" Scoring %s mentions for mapping and to compute value"
               % ("USES" if p.use_mentions else "DOES NOT use"))
    out.append(" %s document entities are allowed"
               % ("All" if p.allow_non_named_entities else "Only NAM-level"))
    out.append(" %s document entities are mapped and scored"
               % ("All" if p.score_non_named_entities else "Only NAM-level"))
    out.append(f" Entity mapping is {p.map_weighting} weighted")
    out.append(f" Entity scoring is {p.eval_weighting} weighted")
    if p.use_name_similarity:
        out.append(" Entity scoring USES name (dis)similarity to penalize entity values")
        out.append(f"   (minimum acceptable similarity is {p.min_name_similarity:g})")
    else:
        out.append(" Entity scoring DOES NOT use name (dis)similarity to penalize entity values")
    out.append(" Time arguments of relations are %s"
               % ("SCORED" if p.score_relation_times else "NOT scored"))
    out.append(" Relation/Event mapping %s overlap of Relation/Event mentions"
               % ("REQUIRES" if p.mention_overlap_required else "DOES NOT require"))
    if not p.argscore_required:
        x = "does NOT require that arguments"
    elif p.argscore_required == 1:
        x = "requires that AT LEAST ONE argument"
    else:
        x = "requires that ALL arguments"
    out.append(f" Relation/Event mapping {x} have a non-null argument score")
    x = "BOTH" if p.nargs_required == 2 else f"at least {p.nargs_required}"
    out.append(f" Relation mapping requires that {x} Arg-* relation arguments have a non-null argument score")
    out.append(" Relation/Event arguments %s required to map correctly in order to contribute to the argument score"
               % ("are NOT" if p.allow_wrong_mapping else "ARE"))
    out.append("")
    out.append("  min acceptable overlap of matching mention heads or names:")
    out.append("%11.1f percent" % (100 * p.min_overlap))
    out.append("  min acceptable run of matching characters in mention heads:")
    out.append("%11.1f percent" % (100 * p.min_text_match))
    out.append("  max acceptable extent difference for names and mentions to match:")
    out.append("%11d chars for text sources" % p.max_diff_chars)
    out.append("%11.3f sec for audio sources" % p.max_diff_time)
    out.append("%11.3f cm for image sources" % p.max_diff_xy)

    def wlist(title, weights, what, order=None):
        out.append(title)
        keys = order if order is not None else sorted(weights)
        for k in keys:
            out.append("%11.3f for %s %s" % (weights[k], what, k))

    def errs(title, weights):
        out.append(title)
        for k in sorted(weights):
            out.append("%11.3f for %s errors" % (weights[k], k))

    out.append("")
    wlist("  Entity mention values:", p.entity_mention_type_wgt, "type", p.mention_types)
    wlist("  Entity value weights for entity types:", p.entity_type_wgt, "type", p.entity_types)
    wlist("  Entity value weights for entity classes:", p.entity_class_wgt, "class",
          p.entity_classes)
    errs("  Entity value discounts for entity attribute recognition errors:", p.entity_err_wgt)
    errs("  Entity mention value discounts for mention attribute recognition errors:",
         p.entity_mention_err_wgt)
    out.append("  Entity mention value (cost) for spurious entity mentions:%6.3f" % p.entity_fa_wgt)
    out.append("  Entity mention value (cost) discount for incorrect coreference:%6.3f"
               % p.entity_mention_coref_fa_wgt)
    out.append("")
    wlist("  Relation value weights for relation types:", p.relation_type_wgt, "type",
          p.relation_types)
    wlist("  Relation value weights for relation modalities:", p.relation_modality_wgt,
          "modality", p.relation_modalities)
    errs("  Relation value discounts for relation attribute recognition errors:",
         p.relation_err_wgt)
    out.append("  Relation argument value (cost) for spurious relation arguments:%6.3f"
               % p.relation_fa_wgt)
    out.append("  Relation argument value (cost) discount for argument role errors:%6.3f"
               % p.relation_argument_role_err_wgt)
    out.append("  Relation argument value (cost) discount for Arg-[12] asymmetry errors:%6.3f"
               % p.relation_asymmetry_err_wgt)
    out.append("")
    wlist("  Event value weights for event types:", p.event_type_wgt, "type", p.event_types)
    wlist("  Event value weights for event modalities:", p.event_modality_wgt, "modality",
          p.event_modalities)
    errs("  Event value discounts for event attribute recognition errors:", p.event_err_wgt)
    out.append("  Event argument value (cost) for spurious event arguments:%6.3f" % p.event_fa_wgt)
    out.append("  Event argument value (cost) discount for argument role errors:%6.3f"
               % p.event_argument_role_err_wgt)
    out.append("")
    out.append("  Timex2 attribute value weights for timex2 attributes:")
    for k in sorted(p.timex2_attribute_wgt):
        out.append("%11.3f for type %s" % (p.timex2_attribute_wgt[k], k))
    out.append("  Timex2 mention value (cost) for spurious timex2 mentions:%6.3f" % p.timex2_fa_wgt)
    out.append("  Timex2 mention value (cost) discount for incorrect coreference:%6.3f"
               % p.timex2_mention_coref_fa_wgt)
    out.append("")
    wlist("  Value value weights for value types:", p.value_type_wgt, "type", p.value_types)
    errs("  Value value discounts for value attribute recognition errors:", p.value_err_wgt)
    out.append("  Value mention value (cost) for spurious value mentions:%6.3f" % p.value_fa_wgt)
    out.append("  Value mention value (cost) discount for incorrect coreference:%6.3f"
               % p.value_mention_coref_fa_wgt)
    return "\n".join(out) + "\n"
