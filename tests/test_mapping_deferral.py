"""The -e mapping listings make a block's text only if the block is printed
(acescore.report.mapping_parts._later, _flush_block): a part's pieces wait while the
block's print flag is down, are made in order once it goes up later in the block, and are
never made for a block whose flag stays down; with -a (flag up from the start) every part
is made at once.  The listings themselves are compared with the NIST tool's in
test_golden.py."""
from __future__ import annotations

from types import SimpleNamespace

from acescore.report.diagnostics import SEPARATOR, Blocks
from acescore.report.mapping_parts import _flush_block, _Flag, _later


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
    _flush_block(out, block, flag, CTX, _element("D1", "D2"), None,
                 lambda d: _later(flag, make, d, 2))
    assert list(out) == ["head\n"] and made == []


def test_flag_raised_late_makes_the_earlier_pieces_in_order():
    made, make = _recorder()
    out = Blocks("head\n")
    flag = _Flag(False)
    block = [_later(flag, make, "ref", 1)]

    def details(d):
        if d == "D2":               # an error in the second document
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
