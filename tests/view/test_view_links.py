"""``acescore view`` never writes through a symbolic link inside OUT_DIR (issue "Trust",
class 3): the site is staged in a private folder and moved into place by rename; a link at
``index.html``, ``doc`` or ``assets`` (a folder prepared by someone else) is refused before
the run, one put there during the run is never followed, and a link among the pages is
replaced, its target untouched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.view.site import Site
from acescore.writing.output import OutputError

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
SECRET = "not the view's to replace\n"


def run_view(out: Path, *args: str):
    return CliRunner().invoke(
        main,
        [
            "view",
            str(EXAMPLES / "ref"),
            str(EXAMPLES / "sys"),
            "--source-dir",
            str(EXAMPLES / "src"),
            "-O",
            str(out),
            "-q",
            *args,
        ],
    )


def tree(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_link_to_a_file_outside_is_refused_and_its_target_untouched(tmp_path, jobs):
    out, victim = tmp_path / "out", tmp_path / "victim.html"
    out.mkdir()
    victim.write_text(SECRET)
    (out / "index.html").symlink_to(victim)
    r = run_view(out, "-j", jobs)
    assert r.exit_code == 2
    assert r.output == (
        f"acescore: {out}/index.html: is a symbolic link; acescore view writes nothing"
        " through a link (remove it, or choose another folder)\n"
    )
    assert victim.read_text() == SECRET
    assert tree(out) == ["index.html"]  # nothing staged is left


@pytest.mark.slow
@pytest.mark.parametrize("name", ["doc", "assets"])
def test_link_to_a_folder_outside_is_refused_and_nothing_written_there(tmp_path, name):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / name).symlink_to(elsewhere, target_is_directory=True)
    r = run_view(out, "-j", "2")
    assert r.exit_code == 2
    assert r.output.startswith(f"acescore: {out}/{name}: is a symbolic link;")
    assert list(elsewhere.iterdir()) == []
    assert tree(out) == [name]


@pytest.mark.slow
def test_link_among_the_pages_is_replaced_not_followed(tmp_path):
    out, victim = tmp_path / "out", tmp_path / "victim.html"
    (out / "doc").mkdir(parents=True)
    victim.write_text(SECRET)
    page = out / "doc" / "SYNNW_20030216.0001.html"
    page.symlink_to(victim)
    (out / "doc" / "older.html").write_text("a page of an earlier run\n")
    r = run_view(out)
    assert r.exit_code == 0, r.output
    assert victim.read_text() == SECRET
    assert not page.is_symlink() and page.read_text().startswith("<!DOCTYPE html>")
    assert (out / "doc" / "older.html").exists()  # files in OUT_DIR are overwritten, not removed
    assert not list(out.glob(".acescore-view.*"))


def test_link_made_during_the_run_is_not_followed(tmp_path):
    """A link put at ``doc`` after the check (while the run scores): the move into place
    opens ``doc`` without following links and stops; nothing reaches the link's target."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    site = Site(str(out))
    site.write("doc/A.html", "<p>a</p>")
    site.write("index.html", "<p>index</p>")
    (out / "doc").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutputError, match=r"/out/doc: not a folder or a symbolic link"):
        site.publish()
    site.discard()
    assert list(elsewhere.iterdir()) == []
    assert tree(out) == ["doc"]
    assert os.path.islink(out / "doc")


def test_staging_folder_is_private(tmp_path):
    site = Site(str(tmp_path / "out"))
    try:
        assert os.stat(site.stage).st_mode & 0o777 == 0o700
        assert Path(site.stage).parent == tmp_path / "out"
    finally:
        site.discard()
    assert tree(tmp_path / "out") == []
