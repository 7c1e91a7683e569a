"""The shortcuts of the -a/-e mapping listings give the text of the general path: each is
switched back to the general one (monkeypatched) on synthetic corpora with errors of every
kind, and the reports compared.  The listings themselves are compared with the NIST
tool's in test_golden.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from synth import make_corpus

from acescore import api
from acescore.report.nist import mappings
from acescore.report.nist.mapping_parts import _flush_block, _later

pytestmark = pytest.mark.slow  # generated corpus

PROFILES = ("heavy", "boundary", "attributes", "miss", "fa", "perfect")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return make_corpus(
        tmp_path_factory.mktemp("fastpaths"), 5, "mapping-fast-paths", ",".join(PROFILES)
    )


def _reports(corpus: Path, params: str) -> dict:
    out = {}
    for profile in PROFILES:
        for opt in ("all_mappings", "error_mappings"):
            out[profile, opt] = api.score(
                str(corpus / "ref"),
                str(corpus / f"sys-{profile}"),
                params,
                True,
                literature=False,
                **{opt: True},
            ).to_text()
    return out


def _general_one_pair_blocks(out, ctx):
    """What _entity_mapping does for a block that is not of one mapped pair of mentions."""
    listed: dict = {}

    def block(flag, rid, r, sid, s, err, pair, d, x, y):
        parts = [_later(flag, mappings._entity_pair_head, ctx.res, rid, r, sid, s, err, listed)]
        _flush_block(out, parts, flag, ctx, r, s, mappings._entity_details, ctx, flag, r, s)

    return block


@pytest.mark.parametrize("params", ["local_2008", "local_2007"])
def test_one_pair_blocks_as_the_general_path(corpus, monkeypatch, params):
    calls = []
    fast = mappings._one_pair_blocks

    def counted(out, ctx):
        make = fast(out, ctx)

        def block(*args):
            calls.append(args[-3])
            return make(*args)

        return block

    monkeypatch.setattr(mappings, "_one_pair_blocks", counted)
    got = _reports(corpus, params)
    assert calls, "no block of one mapped pair of mentions"
    text = got["heavy", "all_mappings"]
    # the corpus has such blocks with each kind of error
    assert " -- MENTION TYPE" in text and "MENTION EXTENT MISMATCH" in text
    monkeypatch.setattr(mappings, "_one_pair_blocks", _general_one_pair_blocks)
    want = _reports(corpus, params)
    for key in got:
        assert got[key] == want[key], key


def test_argument_errors_hand_checked():
    """_argument_errors, its no-error shortcut (same role, mapped to the partner) and the
    general path around it."""
    from acescore.report.nist.releve_mappings import _argument_errors as errors

    amap = {"E1": "S1", "E2": "S9", "E3": None, "": ""}
    assert errors("ref", ("Arg-1", "E1"), ("Arg-1", "S1"), amap, False) == ""
    assert errors("ref", ("Arg-1", "E1"), ("Arg-1", "S1"), {}, True) == ""
    assert errors("ref", ("Arg-1", "E1"), ("Arg-2", "S1"), amap, False) == "ARGUMENT ROLE MISMATCH"
    assert errors("ref", ("Arg-1", "E1"), ("Arg-2", "S1"), {}, True) == "ARGUMENT ROLE MISMATCH"
    assert errors("ref", ("Arg-1", "E2"), ("Arg-1", "S1"), amap, False) == "REF ARGUMENT MISMAPPED"
    assert errors("tst", ("Arg-1", "E3"), ("Arg-1", "S1"), amap, False) == "TST ARGUMENT NOT MAPPED"
    assert errors("ref", ("Arg-1", "E4"), ("Arg-1", "S1"), amap, False) == "REF ARGUMENT NOT MAPPED"
    # an ID "" mapped to "" is not mapped (the tool's truth)
    assert errors("ref", ("Arg-1", ""), ("Arg-1", ""), amap, False) == "REF ARGUMENT NOT MAPPED"
    assert errors("ref", ("Arg-1", "E1"), None, amap, False) == "NO CORRESPONDING TST ARGUMENT"
    assert (
        errors("tst", ("Arg-1", "S7"), None, {}, False)
        == "NO CORRESPONDING REF ARGUMENT, TST ARGUMENT NOT MAPPED"
    )
    assert errors("tst", ("Arg-1", "S7"), None, {}, True) == "NO CORRESPONDING REF ARGUMENT"
    assert (
        errors("ref", ("Time", "E2"), ("Place", "S1"), amap, False)
        == "REF ARGUMENT MISMAPPED, ARGUMENT ROLE MISMATCH"
    )
