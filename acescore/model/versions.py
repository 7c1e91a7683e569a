"""The NIST scorer versions acescore reproduces, as data (docs/rules/versions.md).

ace08-eval-v08 is the default.  The two older scorers, ace07-eval-v01 and ace05-eval-v14,
differ from it by their parameter sets, the options they take (``-W -M -N -S``, 05 ``-A``,
07 ``-V``), switches of the reader and of the valuation, and the report layout.  A version
is one :class:`NistVersion`: the one execution path reads these switches; only the few
routines that really differ are written per version.  Which tasks a version has is
:attr:`NistVersion.tasks` (tasks it lacks are absent from its results, not zero).

Its records are named tuples, not dataclasses: a dataclass compiles its methods when it is
defined (~1 ms each), and every command imports this module.
"""

# (no `from __future__ import annotations` here: typing.NamedTuple would compile each of its
# annotations, as strings, when the class is defined)
import re
from dataclasses import replace
from typing import Any, NamedTuple

from acescore.model.errors import AceUsageError
from acescore.model.params import EPSILON, PARAMETER_SETS, Params
from acescore.model.tasks import TASKS

#: every task of the report; the three versions score the same eight
ALL_TASKS = tuple(t.name for t in TASKS)


class VersionOption(NamedTuple):
    """An option only the older versions take (docs/rules/versions.md §1.1)."""

    key: str  # the Options field
    letter: str  # the NIST letter (-W ...)
    default: str
    choices: tuple  # accepted words (any case)
    what: str  # the words of the NIST PARAMETER ERROR message
    expected: str  # the NIST message's list of legal values


VERSION_OPTIONS: dict[str, VersionOption] = {
    o.key: o
    for o in (
        VersionOption(
            "weighting", "W", "level", ("level", "mention"), "weighting", "'level' or 'mention'"
        ),
        VersionOption(
            "mapping",
            "M",
            "arguments",
            ("arguments", "extents", "both", "either", "all", "all+extents"),
            "relation/event mapping",
            "'arguments', 'extents', 'both', 'either', 'all', or 'all+extents'",
        ),
        VersionOption(
            "nargs",
            "N",
            "both",
            ("0", "1", "both"),
            "relation argument mapping requirement",
            "'0', '1', or 'both'",
        ),
        VersionOption(
            "arg_scoring",
            "S",
            "overlapping",
            ("mapped", "overlapping"),
            "argument scoring restriction",
            "'mapped' or 'overlapping'",
        ),
        VersionOption(
            "averaging",
            "A",
            "arithmetic",
            ("arithmetic", "geometric"),
            "averaging",
            "'arithmetic' or 'geometric'",
        ),
        VersionOption(
            "arg_valuation",
            "V",
            "both",
            ("both", "attributes", "mentions", "none"),
            "argument valuation",
            "'full' or 'attributes' or 'mentions' or 'none'",
        ),
    )
}


class ReaderSwitches(NamedTuple):
    """How a version reads APF (docs/rules/versions.md §2)."""

    old_tokenizer: bool = False  # start tags end at '>' or any white space; no unclosed error
    quantity_labels: bool = False  # values are called "quantity" in messages
    relation_times: bool = False  # relation Time-* arguments kept and scored
    relation_tense: bool = False  # relation TENSE read (an attribute everywhere)
    symmetric_arg: bool = True  # symmetric relations' Arg-1/Arg-2 become Arg
    level_conflict_fatal: bool = False  # an entity's LEVEL differing between documents
    metonymic_level: bool = True  # a metonymic NAM does not make an entity NAM-level
    unevaluated_sys_fatal: bool = False  # a SYS document missing from REF (05)
    located_names: bool = False  # names are located raw texts, not normalized strings


class ValuationSwitches(NamedTuple):
    """How a version values and maps (docs/rules/versions.md §3)."""

    model: str = "2008"  # 2008 (two passes), 2007 (one pass, 08 formulas), 2005 (own model)
    name_similarity: bool = True
    b3: bool = True
    sys_only_fa_terms: bool = True  # FA terms of SYS-only documents in pair values
    releve_docs: str = "sys"  # whose documents a relation/event pair is valued over
    arg_errors: str = "2008"  # argument mapping errors: 2008, 2007 (needs -m), 2005 (REF only)


class ReportLayout(NamedTuple):
    """How a version prints its report (docs/rules/versions.md §4)."""

    header: str = "2008"  # the parameter header's form: 2008, 2007, 2005
    columns: int = 31  # columns of a detection table (22 in 05/07)
    confusion_values: int = 10  # values shown in a recognition block
    precision_line: bool = True
    doc_scores: str = "2008"  # -d: 2008 (also 07) or 2005 (inline, wrong but for entities)


class NistVersion(NamedTuple):
    name: str  # ace08, ace07, ace05 (--nist, the signature)
    script: str  # the NIST script reproduced
    parameter_sets: dict[str, Params]  # name -> Params
    default_params: str
    options: tuple  # keys of VERSION_OPTIONS it takes, in its header's order
    reader: ReaderSwitches
    valuation: ValuationSwitches
    report: ReportLayout
    tasks: tuple = ALL_TASKS
    implemented: bool = True  # whether acescore reproduces its report yet

    def params(self, name: str | None) -> Params:
        """Its parameter set ``name`` (None: the default); an unknown name is a usage error."""
        name = name or self.default_params
        try:
            return self.parameter_sets[name]
        except KeyError:
            raise AceUsageError(
                f"unknown parameter set '{name}' for --nist {self.name} (known: "
                + ", ".join(sorted(self.parameter_sets))
                + ")"
            ) from None

    def option(self, key: str, given: str | None) -> str:
        """The value of an old-version option (``given``, or its default), checked as the NIST
        tool checks it (case-insensitive)."""
        opt = VERSION_OPTIONS[key]
        if given is None:
            return opt.default
        if key not in self.options:
            raise AceUsageError(
                f"-{opt.letter} does not go with --nist {self.name} (versions that take it: "
                + ", ".join(v.name for v in VERSIONS.values() if key in v.options)
                + ")"
            )
        if given.lower() not in opt.choices:
            raise AceUsageError(
                f"{opt.what} (-{opt.letter}) was specified as '{given}' but must be {opt.expected}"
            )
        return given


# ---- parameter sets of the older versions (docs/rules/versions.md §1.3)

_OLD_CLASS_WGT = {"SPC": 1.0, "GEN": 0.0, "NEG": 0.0, "USP": 0.0}
_TERN_TIMEX2 = {
    "VAL": 0.0,
    "ANCHOR_VAL": 0.0,
    "ANCHOR_DIR": 0.0,
    "MOD": 0.0,
    "SET": 0.0,
    "TYPE": 0.5,
}


def _old(name: str, **kw: Any) -> Params:
    """A parameter set of ace05/ace07: 08's constants with the old ones (-W/-M/-N/-S
    defaults: LEVEL weighting for mapping and scoring, arguments, both, overlapping)."""
    base: dict[str, Any] = dict(
        name=name,
        nist="ace07",
        map_weighting="LEVEL",
        eval_weighting="LEVEL",
        use_name_similarity=0,
        score_relation_times=1,
        allow_wrong_mapping=1,
        min_text_match=0.3,
        entity_class_wgt=_OLD_CLASS_WGT,
    )
    base.update(kw)
    return Params(**base)


_ACE05_BASE: dict[str, Any] = dict(
    nist="ace05",
    entity_mention_coref_fa_wgt=0.0,
    timex2_mention_coref_fa_wgt=0.0,
    value_mention_coref_fa_wgt=0.0,
    relation_argument_fa_wgt=0.0,
    event_argument_fa_wgt=0.5,
)

ACE05_SETS = {
    "2005-TERN": _old(
        "2005-TERN", min_text_match=0.0, timex2_attribute_wgt=_TERN_TIMEX2, **_ACE05_BASE
    ),
    "2005+TERN": _old("2005+TERN", min_text_match=0.0, **_ACE05_BASE),
    "DEFAULT": _old("DEFAULT", **_ACE05_BASE),
}
ACE07_SETS = {
    "default_parameters": _old("default_parameters"),
    "original_entity_type_weights": _old(
        "original_entity_type_weights",
        entity_mention_type_wgt={"NAM": 1.0, "NOM": 0.2, "PRO": 0.04},
    ),
}

#: what ace05 and ace07 share (ace05's own: its valuation, -d, the SYS-document death)
_OLD_READER = ReaderSwitches(
    old_tokenizer=True,
    quantity_labels=True,
    relation_times=True,
    relation_tense=True,
    symmetric_arg=False,
    level_conflict_fatal=True,
    metonymic_level=False,
    located_names=True,
)
_OLD_VALUATION = ValuationSwitches(
    model="2007",
    name_similarity=False,
    b3=False,
    sys_only_fa_terms=False,
    releve_docs="ref",
    arg_errors="2007",
)
_OLD_REPORT = ReportLayout(header="2007", columns=22, confusion_values=8, precision_line=False)

VERSIONS: dict[str, NistVersion] = {
    "ace08": NistVersion(
        "ace08",
        "ace08-eval-v08",
        PARAMETER_SETS,
        "local_2008",
        (),
        ReaderSwitches(),
        ValuationSwitches(),
        ReportLayout(),
    ),
    "ace07": NistVersion(
        "ace07",
        "ace07-eval-v01",
        ACE07_SETS,
        "default_parameters",
        ("weighting", "mapping", "nargs", "arg_scoring", "arg_valuation"),
        _OLD_READER,
        _OLD_VALUATION,
        _OLD_REPORT,
        implemented=True,
    ),
    "ace05": NistVersion(
        "ace05",
        "ace05-eval-v14",
        ACE05_SETS,
        "2005-TERN",
        ("weighting", "mapping", "nargs", "arg_scoring", "averaging"),
        _OLD_READER._replace(unevaluated_sys_fatal=True),
        _OLD_VALUATION._replace(model="2005", arg_errors="2005"),
        _OLD_REPORT._replace(header="2005", doc_scores="2005"),
        implemented=True,
    ),
}

DEFAULT_VERSION = "ace08"


def version(name: str) -> NistVersion:
    """The version ``name`` (ace05, ace07, ace08); an unknown name is a usage error."""
    try:
        return VERSIONS[name]
    except KeyError:
        raise AceUsageError(
            f"unknown NIST version '{name}' (known: " + ", ".join(sorted(VERSIONS)) + ")"
        ) from None


def _mapping_switches(mapping: str) -> dict:
    """The Params switches of -M (docs/rules/versions.md §1.1)."""
    return dict(
        argscore_required=1 if re.search("arguments|both", mapping, re.I) else 0,
        mention_overlap_required=1 if re.search("extents|both", mapping, re.I) else 0,
        all_args_required=1 if re.search("all", mapping, re.I) else 0,
    )


def version_params(v: NistVersion, name: str | None, given: dict) -> Params:
    """The parameter set of a run of ``v``: the named set with the old-version options
    (``given``: key -> value as typed, or None) applied; ace08's sets unchanged."""
    p = v.params(name)
    values = {k: v.option(k, given.get(k)) for k in VERSION_OPTIONS}
    if not v.options:
        return p
    if values["averaging"].lower() == "geometric":
        # NIST: checked for both argument kinds; no shipped set passes the second
        for kind, w in (
            ("relation", p.relation_argument_fa_wgt),
            ("event", p.event_argument_fa_wgt),
        ):
            if w != 0:
                raise AceUsageError(
                    f"{kind}_argument_fa_wgt must be = 0 when using geometric argument mean"
                    f" scoring (-A geometric; it is {w:.2f} in every parameter set of {v.name})"
                )
    weighting = values["weighting"].upper()
    nargs = values["nargs"]
    return replace(
        p,
        map_weighting=weighting,
        eval_weighting=weighting,
        nargs_required=2 if nargs.lower() == "both" else int(nargs),
        allow_wrong_mapping=1 if values["arg_scoring"].lower() == "overlapping" else 0,
        option_words=tuple((k, values[k]) for k in v.options),
        **_mapping_switches(values["mapping"]),
    )


__all__ = ["EPSILON", "VERSIONS", "NistVersion", "version", "version_params"]
