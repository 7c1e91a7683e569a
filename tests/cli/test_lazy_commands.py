"""The command group loads a command's module when the command runs (acescore.cli.LazyGroup):
``acescore --help`` lists every command from the registry without importing one, and the
registry's lines are the commands' own."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from acescore.cli import COMMANDS, load_command, main


def test_registry_lines_are_the_commands_own():
    for entry in COMMANDS:
        command = load_command(entry)
        assert command.name == entry.name
        assert command.get_short_help_str(limit=10**6) == entry.summary


def test_help_lists_every_command_in_order():
    out = CliRunner().invoke(main, ["--help"]).output
    listed = [line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == [c.name for c in COMMANDS]
    assert "Score SYS against REF and print the NIST report." in out


def test_help_and_version_import_no_command():
    code = (
        "import sys; from acescore.cli import main\n"
        "try:\n    main.main(['--help'], prog_name='acescore')\nexcept SystemExit:\n    pass\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('numpy', 'scipy', 'lxml',"
        " 'acescore.run', 'acescore.scoring', 'acescore.cli.score')))\n"
        "print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == "[]"


def test_unknown_command_is_one_line():
    r = CliRunner().invoke(main, ["scroe"])
    assert r.exit_code == 2
    assert isinstance(main, click.Group) and "No such command 'scroe'" in r.output
