"""Parameter sets of the NIST tool (docs/rules/input.md §6) and the legal attribute values.

The four predefined sets are the only ones the NIST tool knows; none of their numbers can be
changed from the command line.
"""

from __future__ import annotations

from dataclasses import field, fields
from typing import NoReturn

from acescore.model.errors import AceUsageError
from acescore.model.records import dataclass

EPSILON = 1e-8

ENTITY_SUBTYPES = {
    "FAC": ("Airport", "Building-Grounds", "Path", "Plant", "Subarea-Facility"),
    "GPE": (
        "Continent",
        "County-or-District",
        "GPE-Cluster",
        "Nation",
        "Population-Center",
        "Special",
        "State-or-Province",
    ),
    "LOC": (
        "Address",
        "Boundary",
        "Celestial",
        "Land-Region-Natural",
        "Region-General",
        "Region-International",
        "Water-Body",
    ),
    "ORG": (
        "Commercial",
        "Educational",
        "Entertainment",
        "Government",
        "Media",
        "Medical-Science",
        "Non-Governmental",
        "Religious",
        "Sports",
    ),
    "PER": ("Group", "Indeterminate", "Individual"),
    "VEH": ("Air", "Land", "Subarea-Vehicle", "Underspecified", "Water"),
    "WEA": (
        "Biological",
        "Blunt",
        "Chemical",
        "Exploding",
        "Nuclear",
        "Projectile",
        "Sharp",
        "Shooting",
        "Underspecified",
    ),
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
    "ORG-AFF": (
        "Employment",
        "Founder",
        "Investor-Shareholder",
        "Membership",
        "Ownership",
        "Sports-Affiliation",
        "Student-Alum",
    ),
    "PART-WHOLE": ("Artifact", "Geographical", "Subsidiary"),
    "PER-SOC": ("Business", "Family", "Lasting-Personal"),
    "PHYS": ("Located", "Near"),
}
SYMMETRIC_RELATIONS = frozenset({"PER-SOC", "PHYS", "METONYMY"})
TIME_ROLES = (
    "Time-After",
    "Time-At-Beginning",
    "Time-At-End",
    "Time-Before",
    "Time-Ending",
    "Time-Holds",
    "Time-Starting",
    "Time-Within",
)
RELATION_ROLES = ("Arg-1", "Arg-2") + TIME_ROLES
RELATION_MODALITIES = ("Asserted", "Other")

EVENT_SUBTYPES = {
    "Business": ("Declare-Bankruptcy", "End-Org", "Merge-Org", "Start-Org"),
    "Conflict": ("Attack", "Demonstrate"),
    "Contact": ("Meet", "Phone-Write"),
    "Justice": (
        "Acquit",
        "Appeal",
        "Arrest-Jail",
        "Charge-Indict",
        "Convict",
        "Execute",
        "Extradite",
        "Fine",
        "Pardon",
        "Release-Parole",
        "Sentence",
        "Sue",
        "Trial-Hearing",
    ),
    "Life": ("Be-Born", "Date", "Die", "Divorce", "Injure", "Marry"),
    "Movement": ("Transport",),
    "Personnel": ("Elect", "End-Position", "Nominate", "Start-Position"),
    "Transaction": ("Transfer-Money", "Transfer-Ownership"),
}
EVENT_ROLES = (
    (
        "Adjudicator",
        "Agent",
        "Artifact",
        "Attacker",
        "Beneficiary",
        "Buyer",
        "Crime",
        "Defendant",
        "Destination",
        "Entity",
        "Giver",
        "Instrument",
        "Money",
        "Org",
        "Origin",
        "Person",
        "Place",
        "Plaintiff",
        "Position",
        "Price",
        "Prosecutor",
        "Recipient",
        "Seller",
        "Sentence",
        "Target",
    )
    + TIME_ROLES
    + ("Vehicle", "Victim")
)
EVENT_ATTRIBUTES = {
    "GENERICITY": ("Generic", "Specific"),
    "MODALITY": ("Asserted", "Other"),
    "POLARITY": ("Negative", "Positive"),
    "TENSE": ("Future", "Past", "Present", "Unspecified"),
}

LANGUAGES = ("Arabic", "Chinese", "English", "MIXED", "UNKNOWN")


def _ordered(weights: dict) -> tuple:
    """Decreasing weight, ties in increasing code-point order (docs/rules/input.md §6.3)."""
    return tuple(k for k, _ in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))


#: the parameter set used when none is named (the NIST tool's default)
DEFAULT_PARAMS = "local_2008"


class FrozenDict(dict):
    """A dict that cannot be changed (the weights of a parameter set)."""

    def _readonly(self, *args: object, **kw: object) -> NoReturn:
        raise TypeError("parameter sets are immutable: make a new one with dataclasses.replace")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly
    __ior__ = _readonly

    def __reduce__(self) -> tuple:
        return (FrozenDict, (dict(self),))


@dataclass(frozen=True)
class Params:
    """One parameter set (docs/rules/input.md §6).  Immutable: its weight tables are :class:`FrozenDict`."""

    name: str = DEFAULT_PARAMS
    map_weighting: str = "MENTION"
    eval_weighting: str = "LEVEL"
    mention_overlap_required: int = 0
    argscore_required: int | str = 1  # 0, 1 or "ALL" (no set uses ALL: docs/rules/input.md)
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
    max_pairs: int = 100_000
    # the older versions only (docs/rules/versions.md §1): -M all, the option words as typed
    # (key, value) for the header, ace05's argument FA weights
    all_args_required: int = 0
    nist: str = "ace08"  # the version whose set this is (acescore.model.versions)
    option_words: tuple = ()
    relation_argument_fa_wgt: float = 0.75
    event_argument_fa_wgt: float = 0.75

    entity_type_wgt: dict = field(
        default_factory=lambda: dict.fromkeys(
            ("PER", "ORG", "LOC", "GPE", "FAC", "VEH", "WEA"), 1.0
        )
    )
    entity_class_wgt: dict = field(
        default_factory=lambda: {"SPC": 1.0, "GEN": EPSILON, "NEG": EPSILON, "USP": EPSILON}
    )
    entity_err_wgt: dict = field(
        default_factory=lambda: {"TYPE": 0.5, "SUBTYPE": 0.9, "CLASS": 0.75}
    )
    entity_fa_wgt: float = 0.75
    entity_mention_type_wgt: dict = field(
        default_factory=lambda: {"NAM": 1.0, "NOM": 0.5, "PRO": 0.1}
    )
    entity_mention_err_wgt: dict = field(
        default_factory=lambda: {"TYPE": 0.9, "ROLE": 0.9, "STYLE": 0.9}
    )
    entity_mention_coref_fa_wgt: float = 1.0

    relation_type_wgt: dict = field(
        default_factory=lambda: dict.fromkeys(
            ("ART", "GEN-AFF", "METONYMY", "ORG-AFF", "PART-WHOLE", "PER-SOC", "PHYS"), 1.0
        )
    )
    relation_modality_wgt: dict = field(
        default_factory=lambda: {"Asserted": 1.0, "Other": 1.0, "Unspecified": 1.0}
    )
    relation_err_wgt: dict = field(
        default_factory=lambda: {
            "TYPE": 1.0,
            "SUBTYPE": 0.7,
            "MODALITY": 0.75,
            "TENSE": 1 - EPSILON,
        }
    )
    relation_fa_wgt: float = 0.75
    relation_argument_role_err_wgt: float = 0.75
    relation_asymmetry_err_wgt: float = 0.7

    event_type_wgt: dict = field(
        default_factory=lambda: dict.fromkeys(
            (
                "Business",
                "Conflict",
                "Contact",
                "Justice",
                "Life",
                "Movement",
                "Personnel",
                "Transaction",
            ),
            1.0,
        )
    )
    event_modality_wgt: dict = field(default_factory=lambda: {"Asserted": 1.0, "Other": 1.0})
    event_err_wgt: dict = field(
        default_factory=lambda: {
            "TYPE": 0.5,
            "SUBTYPE": 0.9,
            "MODALITY": 0.75,
            "GENERICITY": 1 - EPSILON,
            "POLARITY": 1 - EPSILON,
            "TENSE": 1 - EPSILON,
        }
    )
    event_fa_wgt: float = 0.75
    event_argument_role_err_wgt: float = 0.75

    timex2_attribute_wgt: dict = field(
        default_factory=lambda: {
            "VAL": 1.0,
            "ANCHOR_VAL": 0.5,
            "ANCHOR_DIR": 0.25,
            "MOD": 0.1,
            "SET": 0.1,
            "TYPE": 0.1,
        }
    )
    timex2_fa_wgt: float = 0.75
    timex2_mention_coref_fa_wgt: float = 1.0

    value_type_wgt: dict = field(
        default_factory=lambda: dict.fromkeys(
            ("Contact-Info", "Crime", "Illness", "Job-Title", "Numeric", "Sentence"), 1.0
        )
    )
    value_err_wgt: dict = field(default_factory=lambda: {"TYPE": 0.5, "SUBTYPE": 0.9})
    value_fa_wgt: float = 0.75
    value_mention_coref_fa_wgt: float = 1.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, dict) and not isinstance(v, FrozenDict):
                object.__setattr__(self, f.name, FrozenDict(v))

    # ---- derived orders (docs/rules/input.md §6.3)
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


def _global_err() -> dict[str, float]:
    return {"TYPE": 0.5, "SUBTYPE": 0.9, "CLASS": 0.75, "LEVEL": 0.5}


PARAMETER_SETS = {
    "local_2008": Params(name="local_2008", allow_wrong_mapping=0),
    "local_2007": Params(name="local_2007", map_weighting="LEVEL"),
    "global_2008": Params(
        name="global_2008",
        allow_wrong_mapping=0,
        use_mentions=0,
        use_name_similarity=1,
        entity_err_wgt=_global_err(),
    ),
    "global_2008_with_mentions": Params(
        name="global_2008_with_mentions",
        allow_wrong_mapping=0,
        use_name_similarity=1,
        entity_err_wgt=_global_err(),
    ),
}


def get_params(name: str) -> Params:
    """The parameter set called ``name``; an unknown name is a usage error."""
    try:
        return PARAMETER_SETS[name]
    except KeyError:
        raise AceUsageError(
            f"unknown parameter set '{name}' (known: " + ", ".join(sorted(PARAMETER_SETS)) + ")"
        ) from None
