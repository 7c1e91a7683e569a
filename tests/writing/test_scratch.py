"""Temporary files and folders without :mod:`tempfile` (acescore.writing.scratch): what
tempfile's mkstemp/mkdtemp/rmtree gave the writers."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from acescore.writing import scratch


def test_new_file_is_private_and_new(tmp_path):
    fd, path = scratch.new_file(str(tmp_path), prefix=".r.txt.", suffix=".part")
    os.write(fd, b"x")
    assert not os.get_inheritable(fd)  # (not passed on to programs a run starts)
    os.close(fd)
    name = os.path.basename(path)
    assert os.path.isabs(path) and os.path.dirname(path) == str(tmp_path)
    assert name.startswith(".r.txt.") and name.endswith(".part") and len(name) == 7 + 12 + 5
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # another call never returns the same file
    fd2, other = scratch.new_file(str(tmp_path), prefix=".r.txt.", suffix=".part")
    os.close(fd2)
    assert other != path and Path(path).read_bytes() == b"x"


def test_new_file_in_a_missing_folder_is_an_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        scratch.new_file(str(tmp_path / "missing"))


def test_new_folder_follows_tmpdir_and_falls_back(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    made = scratch.new_folder("acescore-spool-")
    assert os.path.dirname(made) == str(tmp_path)
    assert os.path.basename(made).startswith("acescore-spool-")
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o700
    monkeypatch.setenv("TMPDIR", str(tmp_path / "not-there"))
    monkeypatch.setenv("TEMP", str(tmp_path / "sub"))
    (tmp_path / "sub").mkdir()
    assert os.path.dirname(scratch.new_folder()) == str(tmp_path / "sub")


def test_remove_folder_removes_everything_and_follows_no_link(tmp_path):
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "k.txt").write_text("k")
    top = tmp_path / "spool"
    (top / "a" / "b").mkdir(parents=True)
    (top / "x.txt").write_text("x")
    (top / "a" / "b" / "y.txt").write_text("y")
    os.symlink(keep, top / "link")
    scratch.remove_folder(str(top))
    assert not top.exists()
    assert (keep / "k.txt").read_text() == "k"
    scratch.remove_folder(str(top))  # gone already: nothing to do, no error
