"""The command line: ``acescore score`` and the other commands, one module each, on one
click group.  Exit codes: 0 ok, 1 validation problems (or crosscheck differences), 2 unusable
input (one-line message, never a traceback), 3 a ``--fail-under`` gate failed.

The group loads a command's module when that command runs (:class:`LazyGroup`): ``acescore
--help``, ``--version`` and each command import only what they use (numpy, scipy, lxml and
the scoring layers are not loaded to print the help)."""

from __future__ import annotations

import importlib
from typing import NamedTuple

import click

from acescore.cli.common import OneLineGroup
from acescore.model.memory import COMMAND_HEADROOM, NUMPY_HEADROOM, load_native, require_headroom
from acescore.model.version import VERSION_MESSAGE, __version__


class CommandEntry(NamedTuple):
    """One command of the group: where it is defined and the line ``acescore --help``
    shows for it (a test checks that line against the command's own help).  (A named
    tuple: ``typing`` is imported by click already, ``dataclasses`` would be imported for
    it alone, with every ``--help`` and ``--version``.)"""

    name: str
    module: str
    attribute: str
    summary: str


#: the commands, in the order ``acescore --help`` lists them
COMMANDS = (
    CommandEntry(
        "score", "acescore.cli.score", "score", "Score SYS against REF and print the NIST report."
    ),
    CommandEntry(
        "crosscheck",
        "acescore.cli.crosscheck",
        "crosscheck",
        "Run acescore and the NIST tool (named by $ACE_NIST_SCORER) on the same"
        " input and report, section by section, where the two reports differ.",
    ),
    CommandEntry(
        "validate",
        "acescore.cli.validate",
        "validate",
        "Check APF files: DTD validity, the scorer's input rules, IDs and"
        " references, and with --source-dir the offsets and text of every charseq.",
    ),
    CommandEntry(
        "coref",
        "acescore.cli.metrics",
        "coref",
        "Entity coreference metrics of SYS against REF: MUC, B-cubed, CEAF-m, CEAF-e, BLANC.",
    ),
    CommandEntry(
        "events",
        "acescore.cli.metrics",
        "events",
        "Event-extraction scores of SYS against REF as ACE 2005 papers report them:"
        " trigger identification and classification, argument identification and"
        " classification (recall, precision, F1), with one-to-one matching.",
    ),
    CommandEntry(
        "view",
        "acescore.cli.view",
        "view",
        "Write an HTML view of REF against SYS into OUT_DIR: index.html (the Value"
        " of every document and task, sortable, and charts of the cost components)"
        " and one page per document (the source text with REF and SYS mentions"
        " marked, and the document's elements with their mapping, value and"
        " costs).",
    ),
    CommandEntry(
        "import",
        "acescore.cli.formats",
        "import_",
        "Turn a JSON prediction file (OneIE, DyGIE++ or TextEE) into APF, with"
        " character offsets aligned to the source documents by the ACE offset"
        " rule.",
    ),
    CommandEntry(
        "export",
        "acescore.cli.formats",
        "export",
        "Write the APF documents of APF (a file, a directory or a list file) in a"
        " codebase's JSON format, tokenized by the simple documented tokenizer"
        " (acescore.formats.tokens).",
    ),
    CommandEntry(
        "compare",
        "acescore.cli.compare",
        "compare",
        "Compare systems on the same reference: each system's scores with bootstrap"
        " confidence intervals, and against the first system (the baseline) the"
        " difference, its paired-bootstrap interval and a p-value by paired"
        " approximate randomization over documents; then the documents that moved,"
        " those that moved against the corpus difference and those whose mapping"
        " changed (Kehler et al.",
    ),
)
_BY_NAME = {c.name: c for c in COMMANDS}
#: the commands that do not load numpy before their module (every other one does, so that
#: numpy's OpenBLAS gets its memory or the run ends with one line: acescore.model.memory);
#: ``score`` loads it only for the literature metrics of its JSON (cli.inputs.run_products)
WITHOUT_NUMPY = ("validate", "score")


def load_command(entry: CommandEntry) -> click.Command:
    """The click command of ``entry`` (its module imported now)."""
    command = getattr(importlib.import_module(entry.module), entry.attribute)
    assert isinstance(command, click.Command)
    return command


class LazyGroup(OneLineGroup):
    """The command group, whose commands are imported when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [c.name for c in COMMANDS]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = _BY_NAME.get(cmd_name)
        if entry is None:
            return None
        if entry.name not in WITHOUT_NUMPY:  # first, while the address space is there
            load_native("numpy", NUMPY_HEADROOM)
        else:  # what lxml and the first steps take (below it: a library's own failure)
            require_headroom(COMMAND_HEADROOM, f"acescore {entry.name}")
        return load_command(entry)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands of ``acescore --help``, from :data:`COMMANDS` (no command
        imported)."""
        limit = formatter.width - 6 - max(len(c.name) for c in COMMANDS)
        rows = [
            (c.name, click.Command(c.name, help=c.summary).get_short_help_str(limit))
            for c in COMMANDS
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["--help"]})
@click.version_option(__version__, prog_name="acescore", message=VERSION_MESSAGE)
def main() -> None:
    """acescore: score ACE APF system output against a reference, as the NIST ACE
    evaluation tool (ace08-eval-v08.pl) does -- same numbers, same report."""
