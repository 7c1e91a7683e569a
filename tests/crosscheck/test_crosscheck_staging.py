"""crosscheck never hands the NIST tool a path it could read as a command.

The NIST tool opens its list files and every file they name with Perl's two-argument
``open()``, where a name ending in ``|`` runs the rest as a command.  A stand-in tool that
opens the same way shows that a REF/SYS file named ``...|`` is read as a file, not run.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore.cli import main
from acescore.crosscheck.nist_tool import SAFE_NAME, Staging, run_nist

GOLDEN = Path(__file__).parent.parent / "data" / "golden"

# Opens -r and -t lists and each file they name with two-argument open, as the NIST tool
# does, then prints the golden report the CLI test compares with.
TWO_ARG_OPEN_TOOL = r"""
my %opt = @ARGV;
my $n = 0;
foreach my $list ($opt{"-r"}, $opt{"-t"}) {
  open (LIST, $list) or die "cannot open list $list";
  while (my $f = <LIST>) {
    $f =~ s/\n//;
    open (FILE, $f) or die "cannot open $f";
    my $data = join "", <FILE>;
    close FILE;
    $data =~ /<source_file/ or die "not an APF file: $f";
    $n++;
  }
  close LIST;
}
print STDERR "read $n files\n";
if ($ENV{REPORT}) { open (R, "<", $ENV{REPORT}); print while <R>; }
else { print "The scoring mode parameter set is \"local_2008\":\n"; }
"""


def _trap(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A valid APF file named ``name + '|'`` and an executable ``name`` that would create
    a marker file if run."""
    marker = tmp_path / "MARKER"
    cmd = tmp_path / name
    cmd.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    cmd.chmod(cmd.stat().st_mode | stat.S_IXUSR)
    apf = tmp_path / (name + "|")
    apf.write_bytes((GOLDEN / "tiny" / "ref" / "SYNBC_20040910.0003.apf.xml").read_bytes())
    return apf, marker


def test_the_trap_works_when_the_path_is_handed_over(tmp_path):
    """Without staging (the path in the list as it is) the stand-in runs the command: the
    test below would catch a regression."""
    apf, marker = _trap(tmp_path, "doc.apf.xml")
    tool = tmp_path / "tool.pl"
    tool.write_text(TWO_ARG_OPEN_TOOL)
    lst = tmp_path / "naive.list"
    lst.write_text(f"{apf}\n")
    import subprocess

    subprocess.run(["perl", str(tool), "-r", str(lst), "-t", str(lst)], capture_output=True)
    assert marker.exists()


def test_a_path_ending_in_a_pipe_is_never_run(tmp_path):
    apf, marker = _trap(tmp_path, "doc.apf.xml")
    tool = tmp_path / "tool.pl"
    tool.write_text(TWO_ARG_OPEN_TOOL)
    run = run_nist(str(tool), [str(apf)], [str(apf)], [])
    assert run.status == 0, run.stderr
    assert "read 2 files" in run.stderr
    assert not marker.exists()


def test_crosscheck_command_with_a_pipe_path_in_a_list(tmp_path):
    apf, marker = _trap(tmp_path, "SYNBC_20040910.0003.apf.xml")
    lst = tmp_path / "ref.list"
    lst.write_text(f"{apf}\n")
    tool = tmp_path / "tool.pl"
    tool.write_text(TWO_ARG_OPEN_TOOL)
    env = dict(os.environ, ACE_NIST_SCORER=str(tool))
    r = CliRunner().invoke(main, ["crosscheck", str(lst), str(lst), "--runs", "1"], env=env)
    assert r.exit_code in (0, 1), r.output
    assert not marker.exists()


@pytest.mark.parametrize(
    "bad", ["x|", "|x", "<x", ">x", "+<x", " x", "x ", "-", "-x", "a/../b", "x\n"]
)
def test_unsafe_names_are_refused(bad):
    assert not SAFE_NAME.match(bad) or ".." in bad


def test_the_private_folder_is_private_and_removed_also_on_error(tmp_path):
    apf, _ = _trap(tmp_path, "d.apf.xml")
    with pytest.raises(RuntimeError), Staging() as st:
        folder = st.dir
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        name = st.stage("ref", [str(apf)])
        assert SAFE_NAME.match(name)
        entries = Path(st.path(name)).read_text().splitlines()
        assert entries == ["ref/00001.apf.xml"]
        assert Path(st.path(entries[0])).read_bytes() == apf.read_bytes()
        raise RuntimeError("boom")
    assert not os.path.exists(folder)


def test_option_values_pass_the_check(tmp_path):
    """-P local_2007 and the like are handed over; an unsafe word is not."""
    tool = tmp_path / "tool.pl"
    tool.write_text('print "@ARGV\\n";\n')
    with Staging() as st:
        assert (
            st.run(str(tool), ["-P", "global_2008_with_mentions", "-m"]).stdout
            == "-P global_2008_with_mentions -m\n"
        )
        with pytest.raises(ValueError):
            st.run(str(tool), ["-r", "x|"])


def test_the_tools_messages_name_the_users_files(tmp_path):
    tool = tmp_path / "tool.pl"
    tool.write_text(
        "open (L, $ARGV[1]); my $f = <L>; chomp $f; die \"ERROR: cannot score '$f'\\n\";\n"
    )
    apf, _ = _trap(tmp_path, "d.apf.xml")
    run = run_nist(str(tool), [str(apf)], [str(apf)], [])
    assert run.status != 0
    assert f"ERROR: cannot score '{apf}'" in run.failure()


def test_crosscheck_refuses_an_unknown_tool_in_one_line(tmp_path):
    """Without --runs the tool must be a version the rewriter knows."""
    tool = tmp_path / "tool.pl"
    tool.write_text(TWO_ARG_OPEN_TOOL)
    env = dict(os.environ, ACE_NIST_SCORER=str(tool))
    args = ["crosscheck", str(GOLDEN / "tiny" / "ref"), str(GOLDEN / "tiny" / "sys-heavy")]
    r = CliRunner().invoke(main, args, env=env)
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and str(tool) in lines[0] and "unknown version" in lines[0]
    assert "--runs" in lines[0]


def test_save_nist_keeps_the_report(tmp_path):
    tool = tmp_path / "tool.pl"
    tool.write_text(TWO_ARG_OPEN_TOOL)
    saved = tmp_path / "nist.txt"
    env = dict(
        os.environ,
        ACE_NIST_SCORER=str(tool),
        REPORT=str(GOLDEN / "tiny" / "expected" / "heavy__m.txt"),
    )
    args = [
        "crosscheck",
        str(GOLDEN / "tiny" / "ref"),
        str(GOLDEN / "tiny" / "sys-heavy"),
        "-m",
        "--runs",
        "2",
        "--save-nist",
        str(saved),
        "--format",
        "json",
    ]
    r = CliRunner().invoke(main, args, env=env)
    assert r.exit_code == 0, r.output
    assert saved.read_bytes() == (GOLDEN / "tiny" / "expected" / "heavy__m.txt").read_bytes()
    import json

    data = json.loads(r.stdout)
    assert data["identical"] and data["nist"]["mode"] == "runs"
    assert data["nist"]["tie_lines"] == 0 and data["nist"]["real_differences"] == 0
    assert [x["seed"] for x in data["nist"]["runs"]] == [1, 2]
