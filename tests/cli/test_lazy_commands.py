"""The command group loads a command's module when the command runs (acescore.cli.LazyGroup):
``acescore --help`` lists every command from the registry without importing one, and the
registry's lines are the commands' own."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from acescore import entry
from acescore.cli import COMMANDS, load_command, main
from acescore.model.version import __version__

TINY = Path(__file__).parent.parent / "data" / "golden" / "tiny"
DOC = "SYNBC_20040910.0003.apf.xml"
#: the code of the products a run makes only when asked (acescore.run.products)
PRODUCT_MODULES = (
    "acescore.metrics",
    "acescore.report.listing_records",
    "acescore.report.nist.mappings",
    "acescore.report.nist.diagnostics",
    "numpy",
    "scipy",
)


def _python(code: str, *args: str, **env: str) -> str:
    """The standard output of ``python -c CODE ARGS`` (``env``: more environment)."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, **env),
        check=True,
    ).stdout


def _imported_by(args: list, prefixes: tuple) -> list:
    """The modules of ``prefixes`` that a real ``acescore ARGS`` run (a process of its own)
    has imported when it ends."""
    code = (
        "import sys; from acescore.cli import main\n"
        "try:\n    main.main(sys.argv[1:], prog_name='acescore')\nexcept SystemExit:\n    pass\n"
        f"print('IMPORTED', sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    )
    out = _python(code, *args, ACESCORE_NO_FAST_EXIT="1")  # (else it ends with os._exit)
    last = out.splitlines()[-1]
    assert last.startswith("IMPORTED "), out[-500:]
    return ast.literal_eval(last.removeprefix("IMPORTED "))


def test_registry_lines_are_the_commands_own():
    for listed in COMMANDS:
        command = load_command(listed)
        assert command.name == listed.name
        assert command.get_short_help_str(limit=10**6) == listed.summary


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
    out = _python(code)
    assert out.splitlines()[-1] == "[]"


@pytest.mark.slow
def test_score_imports_only_the_products_it_makes():
    """A text report imports neither the literature metrics of the JSON nor the code of the
    -s/-a/-e listings (nor numpy or scipy); a JSON report with listings imports both."""
    inputs = [str(TINY / "ref" / DOC), str(TINY / "sys-heavy" / DOC)]
    assert _imported_by(["score", *inputs, "-m", "-q"], PRODUCT_MODULES) == []
    asked = _imported_by(
        ["score", *inputs, "-m", "-q", "-a", "-s", "--format", "json"], PRODUCT_MODULES
    )
    assert {"acescore.metrics.records", "acescore.report.listing_records", "numpy"} <= set(asked)


def test_version_without_the_command_line():
    """``acescore --version`` prints the group's own line without importing click."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('click' in sys.modules))\n"
        "sys.argv = ['acescore', '--version']\n"
        "from acescore.entry import run\n"
        "run()"
    )
    out = _python(code)
    group = CliRunner().invoke(main, ["--version"]).output
    assert out == group + "False\n"
    assert group == "acescore, version " + __version__ + "\n"


def _help_run(**env: str) -> tuple[str, bool]:
    """The standard output of ``acescore --help`` in a process of its own (``env``: its
    language and width), and whether it loaded click."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('click' in sys.modules))\n"
        "sys.argv = ['acescore', '--help']\n"
        "from acescore.entry import run\n"
        "run()"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        base.pop(name, None)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**base, "LANG": "C.UTF-8", **env},
        check=True,
    ).stdout
    text, loaded = out.rsplit("\n", 2)[:2]
    return text + "\n", loaded == "True"


def test_help_text_is_the_groups():
    """entry.GROUP_HELP is what the group prints at the width of an 80-column terminal
    (click formats for 2 columns less).  If this fails, the commands' lines, the group's
    docstring or click changed: copy the group's text (below) into GROUP_HELP."""
    group = CliRunner().invoke(main, ["--help"], terminal_width=78, prog_name="acescore")
    assert group.exit_code == 0
    assert group.output == entry.GROUP_HELP


@pytest.mark.slow
def test_help_without_the_command_line():
    """``acescore --help`` prints the group's help without importing click where the
    group would print GROUP_HELP (standard output not a terminal: 80 columns; $COLUMNS of
    80 or more), and goes through the group where it would not (fewer columns, another
    language): the same text as the group's either way."""
    for columns in (None, "80", "200"):
        text, loaded = _help_run(**({"COLUMNS": columns} if columns else {}))
        assert (text, loaded) == (entry.GROUP_HELP, False)
    narrow = CliRunner().invoke(main, ["--help"], terminal_width=58, prog_name="acescore")
    assert _help_run(COLUMNS="60") == (narrow.output, True)
    assert narrow.output != entry.GROUP_HELP
    assert _help_run(LANG="de_DE.UTF-8") == (entry.GROUP_HELP, True)  # (no German catalog)


def test_unknown_command_is_one_line():
    r = CliRunner().invoke(main, ["scroe"])
    assert r.exit_code == 2
    assert isinstance(main, click.Group) and "No such command 'scroe'" in r.output
