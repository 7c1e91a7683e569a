"""The program's entry point (console script ``acescore`` and ``python -m acescore``): exit
130 on Ctrl-C, a quiet exit on a closed pipe."""
from __future__ import annotations

import os
import signal
import sys

import click

EXIT_INTERRUPTED = 130      # 128 + SIGINT, as shells report a Ctrl-C
EXIT_BROKEN_PIPE = 141      # 128 + SIGPIPE, as shells report `acescore ... | head`


def run(argv=None) -> None:
    """The ``acescore`` program (console script and ``python -m acescore``).

    A closed pipe (``acescore score ... | head``) ends the program quietly the way it ends
    other Unix tools, by SIGPIPE (the shell reports status 141); where there is no SIGPIPE,
    the BrokenPipeError is caught instead, with the same status.  Ctrl-C: one line on
    standard error, status 130."""
    from acescore.cli import main
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        code = main.main(args=argv, prog_name="acescore", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        sys.stderr.write("\nacescore: interrupted\n")
        code = EXIT_INTERRUPTED
    except click.exceptions.ClickException as e:
        e.show()
        code = e.exit_code
    except BrokenPipeError:
        _quiet_stdout()
        code = EXIT_BROKEN_PIPE
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        code = EXIT_BROKEN_PIPE
    sys.exit(code if isinstance(code, int) else 0)


def _quiet_stdout() -> None:
    """The reader went away: nothing more can be written, and Python's flush of standard
    output at exit must not complain about it either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
