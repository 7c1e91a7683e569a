"""Input discovery: files, directories, list files; REF/SYS pairing by DOCID."""

from __future__ import annotations

import os

import pytest

from acescore.model.errors import AceInputError
from acescore.reading.discovery import (
    discover,
    discover_all,
    looks_like_list,
    pair_documents,
    read_list,
)

APF = b'<?xml version="1.0"?>\n<source_file URI="x" SOURCE="newswire" TYPE="text"/>\n'


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "c" / "sub").mkdir(parents=True)
    for rel in ("c/b.apf.xml", "c/a.apf", "c/sub/a.apf.xml", "c/notes.txt", "c/x.xml"):
        (tmp_path / rel).write_bytes(APF)
    return tmp_path


def test_file(tree):
    p = str(tree / "c" / "b.apf.xml")
    assert discover(p) == [p]
    assert not looks_like_list(p)


def test_directory_recursive_sorted(tree):
    d = str(tree / "c")
    assert discover(d) == [
        os.path.join(d, "a.apf"),
        os.path.join(d, "b.apf.xml"),
        os.path.join(d, "sub", "a.apf.xml"),
    ]


def test_missing_and_empty(tmp_path):
    with pytest.raises(AceInputError) as e:
        discover(str(tmp_path / "nope"))
    assert str(e.value) == f"{tmp_path / 'nope'}: no such file or directory"
    (tmp_path / "empty").mkdir()
    with pytest.raises(AceInputError) as e:
        discover(str(tmp_path / "empty"))
    assert (
        str(e.value) == f"{tmp_path / 'empty'}: no APF files (*.apf.xml, *.apf) in this directory"
    )
    (tmp_path / "empty.list").write_text("\n  \n")
    with pytest.raises(AceInputError) as e:
        discover(str(tmp_path / "empty.list"))
    assert str(e.value).endswith("empty.list: file list is empty")


def test_list_file(tree, monkeypatch):
    lst = tree / "c" / "files.list"
    lst.write_text(
        "# REF files\nb.apf.xml\r\n  sub/a.apf.xml  \n\n  # a.apf.xml\n" + str(tree / "c" / "a.apf")
    )
    assert looks_like_list(str(lst))
    # relative to the list's folder, wherever the command runs
    monkeypatch.chdir(tree)
    c = os.path.join(str(tree), "c")
    assert discover(str(lst)) == [
        os.path.join(c, "b.apf.xml"),
        os.path.join(c, "sub/a.apf.xml"),
        str(tree / "c" / "a.apf"),
    ]
    monkeypatch.chdir(tree / "c")
    assert read_list("files.list")[:2] == ["b.apf.xml", "sub/a.apf.xml"]
    # the list's folder first: x.apf.xml exists both there and in the current directory
    (tree / "c" / "x.apf.xml").write_bytes(APF)
    (tree / "x.apf.xml").write_bytes(APF)
    monkeypatch.chdir(tree)
    (tree / "c" / "two.list").write_text("x.apf.xml\n")
    assert read_list("c/two.list") == [os.path.join("c", "x.apf.xml")]
    # ... and the current directory when nothing is there (a list written for the NIST tool)
    (tree / "only_here.apf.xml").write_bytes(APF)
    (tree / "c" / "three.list").write_text("only_here.apf.xml\n")
    assert read_list("c/three.list") == ["only_here.apf.xml"]


@pytest.mark.parametrize("line", ["missing.apf.xml", "sub/nothing/x.apf", "b.apf.xml/x.apf"])
def test_list_file_bad_entry(tree, line):
    lst = tree / "c" / "files.list"
    lst.write_text(f"# header\n\nb.apf.xml\n{line}\n")
    with pytest.raises(AceInputError) as e:
        discover(str(lst))
    reason = "Not a directory" if line.startswith("b.apf.xml/") else "No such file or directory"
    assert str(e.value) == f"{lst}:4: {line}: cannot open: {reason}"


def test_list_detection(tmp_path):
    (tmp_path / "bom.apf").write_bytes(b"\xef\xbb\xbf  \n" + APF)
    (tmp_path / "noext").write_bytes(b"\n" + APF)
    (tmp_path / "ref.txt").write_text("a.apf.xml\n")
    (tmp_path / "bin").write_bytes(b"\x00\x01\x02")
    (tmp_path / "latin1").write_bytes(b"caf\xe9 file\n" * 10)
    assert not looks_like_list(str(tmp_path / "bom.apf"))
    assert not looks_like_list(str(tmp_path / "noext"))
    assert looks_like_list(str(tmp_path / "ref.txt"))
    assert not looks_like_list(str(tmp_path / "bin"))
    assert not looks_like_list(str(tmp_path / "latin1"))
    assert not looks_like_list(str(tmp_path))


def test_discover_all(tree):
    c = str(tree / "c")
    assert len(discover_all([c, os.path.join(c, "x.xml")])) == 4


def test_pair_documents():
    pairs, warnings = pair_documents(
        {"D2": "r2", "D1": "r1"}, {"D1": "s1.apf.xml", "D9": "s9.apf.xml"}
    )
    assert pairs == [("D1", "r1", "s1.apf.xml"), ("D2", "r2", None)]
    assert warnings == [
        "\n\nWARNING:  INPUT ERROR in document 'D9' in file 's9.apf.xml'\n"
        "    system output for unevaluated document\n",
        "\nWARNING:  ref doc 'D2' has no corresponding tst doc\n",
    ]


def test_directory_case_insensitive_suffixes(tmp_path):
    for name in ("A.APF.XML", "b.Apf", "c.apf.XML", "d.xml", "e.apfx"):
        (tmp_path / name).write_bytes(APF)
    assert [os.path.basename(p) for p in discover(str(tmp_path))] == [
        "A.APF.XML",
        "b.Apf",
        "c.apf.XML",
    ]


def test_directory_follows_links_without_looping(tmp_path):
    top = tmp_path / "top"
    (top / "a").mkdir(parents=True)
    (top / "a" / "x.apf.xml").write_bytes(APF)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "y.apf.xml").write_bytes(APF)
    os.symlink(other, top / "linked")  # a folder outside the tree
    os.symlink(top, top / "a" / "back_to_top")  # a loop
    os.symlink(top / "a", top / "a_again")  # the same folder a second time
    os.symlink(other / "y.apf.xml", top / "z.apf.xml")  # a link to a file
    got = [os.path.relpath(p, top) for p in discover(str(top))]
    assert got == [os.path.join("a", "x.apf.xml"), os.path.join("linked", "y.apf.xml"), "z.apf.xml"]


def test_directory_dangling_link_is_kept_for_the_reader(tmp_path):
    (tmp_path / "x.apf.xml").write_bytes(APF)
    os.symlink(tmp_path / "gone.apf.xml", tmp_path / "y.apf.xml")
    assert [os.path.basename(p) for p in discover(str(tmp_path))] == ["x.apf.xml", "y.apf.xml"]


def test_directory_unreadable_subdirectory_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "x.apf.xml").write_bytes(APF)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "y.apf.xml").write_bytes(APF)
    locked = str(tmp_path / "locked")
    real_scandir = os.scandir

    def scandir(path):  # what a folder without read permission gives (root reads all)
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(AceInputError) as e:
        discover(str(tmp_path))
    assert str(e.value) == (
        f"{locked}: cannot read folder: Permission denied (the APF files"
        " in it would be missing from the score)"
    )


@pytest.mark.slow
def test_directory_deeper_than_the_recursion_limit(tmp_path):
    deep = str(tmp_path)
    for _ in range(1500):  # (os.makedirs is recursive itself)
        deep = os.path.join(deep, "d")
        os.mkdir(deep)
    with open(os.path.join(deep, "x.apf.xml"), "wb") as fh:
        fh.write(APF)
    try:
        assert discover(str(tmp_path)) == [os.path.join(deep, "x.apf.xml")]
    finally:  # (so is the removal of pytest's temporary folders)
        os.unlink(os.path.join(deep, "x.apf.xml"))
        while deep != str(tmp_path):
            os.rmdir(deep)
            deep = os.path.dirname(deep)
