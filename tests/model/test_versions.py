"""The NIST versions as data (acescore.model.versions): parameter sets, the older versions'
options and their checks, as docs/rules/versions.md §1 gives them."""

from __future__ import annotations

import pytest

from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.model.versions import VERSIONS


def test_each_version_s_default_parameter_set():
    assert Options().params == "local_2008"
    assert Options(nist="ace07").params == "default_parameters"
    assert Options(nist="ace05").params == "2005-TERN"


def test_old_sets_differ_from_08_where_the_spec_says():
    p07 = Options(nist="ace07").parameter_set
    assert p07.min_text_match == 0.3
    assert dict(p07.entity_class_wgt) == {"SPC": 1.0, "GEN": 0.0, "NEG": 0.0, "USP": 0.0}
    assert (p07.map_weighting, p07.eval_weighting) == ("LEVEL", "LEVEL")
    assert p07.allow_wrong_mapping == 1 and p07.score_relation_times == 1
    orig = Options(nist="ace07", params="original_entity_type_weights").parameter_set
    assert dict(orig.entity_mention_type_wgt) == {"NAM": 1.0, "NOM": 0.2, "PRO": 0.04}
    tern = Options(nist="ace05").parameter_set
    assert tern.min_text_match == 0.0 and tern.timex2_attribute_wgt["TYPE"] == 0.5
    assert tern.timex2_attribute_wgt["VAL"] == 0.0 and tern.entity_mention_coref_fa_wgt == 0.0
    assert (tern.relation_argument_fa_wgt, tern.event_argument_fa_wgt) == (0.0, 0.5)
    assert Options(nist="ace05", params="DEFAULT").parameter_set.min_text_match == 0.3


def test_old_options_set_the_switches():
    p = Options(
        nist="ace05", weighting="Mention", mapping="both", nargs="1", arg_scoring="MAPPED"
    ).parameter_set
    assert (p.map_weighting, p.eval_weighting) == ("MENTION", "MENTION")
    assert (p.argscore_required, p.mention_overlap_required, p.all_args_required) == (1, 1, 0)
    assert p.nargs_required == 1 and p.allow_wrong_mapping == 0
    # "all" alone does not require an argument score (docs/rules/versions.md §1.1)
    p = Options(nist="ace07", mapping="all").parameter_set
    assert (p.argscore_required, p.all_args_required) == (0, 1)
    assert dict(p.option_words)["mapping"] == "all"


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(nist="ace07", averaging="geometric"), "-A does not go with --nist ace07"),
        (dict(weighting="level"), "-W does not go with --nist ace08"),
        (dict(nist="ace05", weighting="x"), "weighting (-W) was specified as 'x' but must be"),
        (dict(nist="ace05", averaging="geometric"), "event_argument_fa_wgt must be = 0"),
        (dict(nist="ace07", params="local_2008"), "unknown parameter set 'local_2008' for"),
        (dict(nist="ace06"), "unknown NIST version 'ace06'"),
    ],
)
def test_refusals(kw, message):
    with pytest.raises(AceUsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Options(**kw)


def test_every_version_has_the_eight_tasks_and_its_own_sets():
    for v in VERSIONS.values():
        assert len(v.tasks) == 8
        assert v.default_params in v.parameter_sets
    assert sorted(VERSIONS["ace05"].parameter_sets) == ["2005+TERN", "2005-TERN", "DEFAULT"]
