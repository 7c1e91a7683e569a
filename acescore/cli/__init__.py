"""The command line: ``acescore score`` and the other commands, one module each, on one
click group.  Exit codes: 0 ok, 1 validation problems (or crosscheck differences), 2 unusable
input (one-line message, never a traceback), 3 a ``--fail-under`` gate failed."""
from __future__ import annotations

import click

from acescore.cli.common import OneLineGroup
from acescore.cli.compare import compare
from acescore.cli.crosscheck import crosscheck
from acescore.cli.formats import export, import_
from acescore.cli.metrics import coref, events
from acescore.cli.score import score
from acescore.cli.validate import validate
from acescore.cli.view import view
from acescore.model.version import __version__


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["--help"]})
@click.version_option(__version__, prog_name="acescore")
def main():
    """acescore: score ACE APF system output against a reference, as the NIST ACE
    evaluation tool (ace08-eval-v08.pl) does -- same numbers, same report."""


for _command in (score, crosscheck, validate, coref, events, view, import_, export, compare):
    main.add_command(_command)
