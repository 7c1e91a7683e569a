"""The -e mapping listings make a block's text only if the block is printed
(acescore.report.nist.mapping_parts._later, _flush_block): a part's pieces wait while the
block's print flag is down, are made in order once it goes up later in the block, and are
never made for a block whose flag stays down; with -a (flag up from the start) every part
is made at once.  The listings themselves are compared with the NIST tool's in
test_golden.py."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from acescore.report.nist.blocks import Blocks
from acescore.report.nist.diagnostics import SEPARATOR
from acescore.report.nist.mapping_parts import _Flag, _flush_block, _later


def _element(*docs):
    return SimpleNamespace(docs={d: None for d in docs})


def _recorder():
    made = []

    def make(a, b):
        made.append((a, b))
        return f"{a}-{b}\n"

    return made, make


CTX = SimpleNamespace(eval_docs={"D1", "D2", "D3"})


def test_block_without_error_is_dropped_unmade():
    made, make = _recorder()
    out = Blocks("head\n")
    flag = _Flag(False)
    out.start((0, "R1"))
    block = [_later(flag, make, "ref", 1)]
    assert block == [(make, "ref", 1)] and flag.later
    _flush_block(
        out, block, flag, CTX, _element("D1", "D2"), None, lambda d: _later(flag, make, d, 2)
    )
    assert list(out) == ["head\n"] and made == []


def test_flag_raised_late_makes_the_earlier_pieces_in_order():
    made, make = _recorder()
    out = Blocks("head\n")
    flag = _Flag(False)
    block = [_later(flag, make, "ref", 1)]

    def details(d):
        if d == "D2":  # an error in the second document
            flag.on = True
        return _later(flag, make, d, 2)

    # the SYS element's document D3 too, D9 not evaluated: documents in DOCID order
    _flush_block(out, block, flag, CTX, _element("D2", "D1"), _element("D3", "D9"), details)
    assert out[-1] == "ref-1\nD1-2\nD2-2\nD3-2\n" + SEPARATOR
    # made once each: D2 and D3 at once (the flag was up), ref and D1 at the end
    assert made == [("D2", 2), ("D3", 2), ("ref", 1), ("D1", 2)]


def test_all_blocks_make_every_part_at_once():
    made, make = _recorder()
    out = Blocks("head\n")
    flag = _Flag(True)
    block = [_later(flag, make, "ref", 1)]
    assert block == ["ref-1\n"] and not flag.later
    _flush_block(out, block, flag, CTX, _element("D1"), None, lambda d: _later(flag, make, d, 2))
    assert out[-1] == "ref-1\nD1-2\n" + SEPARATOR and made == [("ref", 1), ("D1", 2)]


def test_details_get_their_arguments_and_the_document_last():
    """_flush_block(..., details, *args) calls details(*args, docid) for each evaluated
    document, in DOCID order (no closure per block)."""
    _made, make = _recorder()
    out = Blocks("head\n")
    flag = _Flag(True)
    _flush_block(
        out,
        [],
        flag,
        CTX,
        _element("D3", "D1"),
        _element("D2", "D9"),
        lambda tag, d: _later(flag, make, tag, d),
        "x",
    )
    assert out[-1] == "x-D1\nx-D2\nx-D3\n" + SEPARATOR


def test_one_flag_per_listing_is_lowered_for_each_block():
    """_ref_blocks hands out one print flag, down again (and without pieces) at the start
    of every block under -e, up under -a."""
    from acescore.report.nist.mapping_parts import _ref_blocks

    res = SimpleNamespace(ref={"R2": 2, "R1": 1}, sys={"S1": 10}, mapping={"R1": "S1"})
    for all_blocks in (False, True):
        out = Blocks("head\n")
        seen = []
        for rid, flag, r, sid, s in _ref_blocks(out, SimpleNamespace(res=res), all_blocks):
            seen.append((rid, flag.on, flag.later, r, sid, s))
            flag.on = flag.later = True  # as a block with an error would leave it
        assert seen == [
            ("R1", all_blocks, False, 1, "S1", 10),
            ("R2", all_blocks, False, 2, None, None),
        ]
        assert out.starts == [((0, "R1"), 1), ((0, "R2"), 1)]


@pytest.mark.slow
def test_one_pair_emd_blocks_both_ways():
    """The EMD blocks of one mapped pair of mentions in one document are flagged whole
    before their text is made (mappings._one_pair_block): under -e those without an error
    are dropped and those with one are printed as under -a."""
    from pathlib import Path

    from acescore import api

    corpus = Path(__file__).parent.parent / "data" / "golden" / "small"
    texts = {}
    for opt in ("all_mappings", "error_mappings"):
        text = api.score(
            str(corpus / "ref"), str(corpus / "sys-heavy"), "local_2008", True, **{opt: True}
        ).to_text()
        emd = text.split("======== mention_entity mapping ========\n")[1].split("\n========")[0]
        texts[opt] = [b + SEPARATOR for b in emd.split(SEPARATOR)[:-1]]

    def one_pair(b):
        return b.count("ref mention:") == 1 and b.count("\n") == 7

    pairs = [b for b in texts["all_mappings"] if one_pair(b)]
    clean = [b for b in pairs if ">>>" not in b]
    wrong = [b for b in pairs if ">>>" in b]
    assert clean and wrong
    kept = set(texts["error_mappings"])
    assert not kept & set(clean)
    assert set(wrong) <= kept


def test_fixed_scores_as_printf_and_zero_signs_kept():
    """FIXED[v] is "%.5f" % v, made once per non-zero value; 0.0 and -0.0 (one dict key)
    are never kept, so -0.00000 (a SYS argument's false alarm of 0) stays signed."""
    from acescore.report.nist.mapping_parts import FIXED

    for v in (1.0, 0.5, 1, 0.123456, -0.25, 2.5e-6, -0.0, 0.0, 0, -0.0):
        assert FIXED[v] == "%.5f" % v
    assert FIXED[-0.0] == "-0.00000" and FIXED[0.0] == "0.00000"
    assert 0.0 not in FIXED and FIXED.get(0.123456) == "0.12346"
