"""The pieces a large listing report is made of: a listing's blocks packed for the trip from
a shard (acescore.report.nist.blocks.Blocks.packed) and the report written encoded piece by
piece (acescore.writing.output.ReportFile).  The listings' text itself is checked against the NIST
tool's reports in test_diagnostics.py and test_shards_listings.py."""

from __future__ import annotations

from acescore.report.nist.blocks import Blocks, packed
from acescore.writing import output


def test_packed_blocks_hand_checked():
    b = Blocks("HEAD\n")
    b.start((0, "R1"))
    b.append("ab\n")
    b.append("cd\n")  # a block of two pieces
    b.start((0, "R2"))  # a block left empty (-e: not printed)
    b.start((1, "S1"))
    b.append("xyz\n")
    assert b.packed() == ("HEAD\n", [(0, "R1"), (0, "R2"), (1, "S1")], "ab\ncd\nxyz\n", [0, 6, 6])


def test_packed_by_group_hand_checked():
    b = Blocks("HEAD\n")
    b.start((0, "R1"))
    b.append("ab\n")
    b.start((0, "R2"))
    b.append("c\n")
    b.append("d\n")
    b.start((1, "S1"))
    b.append("xyz\n")
    b.start((1, "S2"))
    b.append("w\n")
    assert b.packed_by_group() == (
        ("HEAD\n", [(0, "R1"), (0, "R2")], "ab\nc\nd\n", [0, 3]),
        ("", [(1, "S1"), (1, "S2")], "xyz\nw\n", [0, 4]),
    )
    only_ref = Blocks("H\n")
    only_ref.start((0, "R1"))
    only_ref.append("a\n")
    assert only_ref.packed_by_group() == (("H\n", [(0, "R1")], "a\n", [0]), ("", [], "", []))
    only_sys = Blocks("H\n")
    only_sys.start((1, "S1"))
    only_sys.append("s\n")
    assert only_sys.packed_by_group() == (("H\n", [], "", []), ("", [(1, "S1")], "s\n", [0]))


def test_packed_without_blocks():
    assert Blocks("H\n").packed() == ("H\n", [], "", [])


def test_pieces_are_the_packed_listing_before_the_join():
    # what a shard sends (acescore.report.listing_records.spooled): the pieces, each
    # block's first piece; packed, the text and each block's first character
    b = Blocks("HEAD\n")
    b.start((0, "R1"))
    b.append("ab\n")
    b.append("é\n")
    b.start((0, "R2"))  # a block left empty
    b.start((1, "S1"))
    b.append("xyz\n")
    b.start((1, "S2"))
    b.append("")
    b.append("w\n")
    ref, sys_ = b.pieces_by_group()
    assert ref == ("HEAD\n", [(0, "R1"), (0, "R2")], ["ab\n", "é\n"], [0, 2])
    assert sys_ == ("", [(1, "S1"), (1, "S2")], ["xyz\n", "", "w\n"], [0, 1])
    assert b.pieces() == (
        "HEAD\n",
        [(0, "R1"), (0, "R2"), (1, "S1"), (1, "S2")],
        ["ab\n", "é\n", "xyz\n", "", "w\n"],
        [0, 2, 2, 3],
    )
    assert packed(ref) == ("HEAD\n", [(0, "R1"), (0, "R2")], "ab\né\n", [0, 5])
    assert tuple(map(packed, (ref, sys_))) == b.packed_by_group()
    assert packed(b.pieces()) == b.packed()


def test_report_written_in_pieces_is_its_utf8(tmp_path, monkeypatch):
    # pieces of 3 characters: cuts fall between the bytes of é, ü and of the 4-byte 𝄞
    monkeypatch.setattr(output, "_CHUNK", 3)
    text = "ab\u00e9c\u00fc\U0001d11exyz\n" * 5 + "end"
    target = tmp_path / "report.txt"
    output.ReportFile(str(target)).write(text)
    assert target.read_bytes() == text.encode("utf-8")
    assert [len(p) for p in output._encoded("abcdefg")] == [3, 3, 1]
    assert list(output._encoded(b"raw")) == [b"raw"]
    assert list(output._encoded("")) == []
    # a list of str (the report's pieces): written one after the other
    pieces = ["h\u00e9", "", "abcd\U0001d11e", "z"]
    output.Emitter(str(target)).emit(pieces)
    assert target.read_bytes() == "".join(pieces).encode("utf-8")
    assert [len(p) for p in output._encoded(pieces)] == [3, 3, 5, 1]


def test_report_that_fails_part_way_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "_CHUNK", 2)
    target = tmp_path / "report.txt"
    target.write_text("previous\n")
    f = output.ReportFile(str(target))
    try:
        f.write("ok" + "\ud800")  # a lone surrogate has no UTF-8 form
    except UnicodeEncodeError:
        pass
    else:
        raise AssertionError("a lone surrogate was written")
    assert target.read_text() == "previous\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]
