"""The program's entry point (console script ``acescore`` and ``python -m acescore``): exit
130 on Ctrl-C, a quiet exit on a closed pipe.

Ctrl-C while the program starts (its imports take a tenth of a second or more) ends it
with one line and exit 130, as later: :func:`run` catches SIGINT before it imports anything
and until the command group takes over."""

from __future__ import annotations

import os
import signal
import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as shells report `acescore ... | head`
EXIT_OUT_OF_MEMORY = 2
#: the line of acescore.cli.common.OUT_OF_MEMORY (here: nothing may be imported for it)
OUT_OF_MEMORY = (
    b"acescore: out of memory: nothing was written; give the run more memory, or score"
    b" fewer documents at a time (--docs, smaller list files)\n"
)


def _interrupted_while_starting(signum: int, frame: object) -> None:
    os.write(2, b"acescore: interrupted\n")
    os._exit(EXIT_INTERRUPTED)


def _out_of_memory():  # (no typing import here: Ctrl-C is not caught before run() starts)
    """Out of memory before the command group could take over: its line, exit 2."""
    os.write(2, OUT_OF_MEMORY)
    os._exit(EXIT_OUT_OF_MEMORY)


def _version():
    """``acescore --version`` without loading the command line (click and the group: 70%
    of the instructions of the command), as the group prints it; returns where standard
    output cannot be written (then the group runs, and says so as for any command)."""
    from acescore.model.version import VERSION_MESSAGE, __version__

    _print_and_exit(VERSION_MESSAGE % {"prog": "acescore", "version": __version__} + "\n")


def _print_and_exit(text: str) -> None:
    """Print ``text`` and end the program (status 0); return where standard output cannot
    take it."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        return
    sys.exit(0)


#: ``acescore --help`` as the command group prints it on a terminal of 80 columns or more
#: (or none: a pipe, a file), printed without loading click and the group (two thirds of
#: the command's instructions); tests/cli/test_lazy_commands.py checks it against the
#: group's own (regenerate it from there when the commands or click change)
GROUP_HELP = """\
Usage: acescore [OPTIONS] COMMAND [ARGS]...

  acescore: score ACE APF system output against a reference, as the NIST ACE
  evaluation tool (ace08-eval-v08.pl) does -- same numbers, same report.

Options:
  --version  Show the version and exit.
  --help     Show this message and exit.

Commands:
  score       Score SYS against REF and print the NIST report.
  crosscheck  Run acescore and the NIST tool (named by $ACE_NIST_SCORER)...
  validate    Check APF files: DTD validity, the scorer's input rules,...
  coref       Entity coreference metrics of SYS against REF: MUC,...
  events      Event-extraction scores of SYS against REF as ACE 2005...
  view        Write an HTML view of REF against SYS into OUT_DIR:...
  import      Turn a JSON prediction file (OneIE, DyGIE++ or TextEE) into...
  export      Write the APF documents of APF (a file, a directory or a...
  compare     Compare systems on the same reference: each system's scores...
"""


def _terminal_columns() -> int:
    """The width click formats the help for: :func:`shutil.get_terminal_size`'s columns
    (``$COLUMNS``, else the terminal of standard output, else 80), without importing
    :mod:`shutil` (with ``bz2``, ``lzma``)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


def _english() -> bool:
    """Whether click's own words (``Usage:``, ``Options:``) stay English: the languages
    :mod:`gettext` looks up (the first of ``$LANGUAGE``, ``$LC_ALL``, ``$LC_MESSAGES``,
    ``$LANG`` set) are C, POSIX or English.  (Another language goes through click, which
    translates where a catalog says so.)"""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return all(
                lang.split(".")[0].split("_")[0] in ("C", "POSIX", "en")
                for lang in value.split(":")
            )
    return True


def _help():
    """``acescore --help`` without loading the command line: :data:`GROUP_HELP`, where
    click would print that (80 columns or more, English); returns where it would not, or
    standard output cannot take it (then the group prints it, or says why)."""
    if _terminal_columns() >= 80 and _english():
        _print_and_exit(GROUP_HELP)


def run(argv=None) -> None:
    """The ``acescore`` program (console script and ``python -m acescore``).

    A closed pipe (``acescore score ... | head``) ends the program quietly with status 141,
    what a shell reports for SIGPIPE.  The signal itself stays ignored (Python's default):
    with its default action a closed *standard error* would end the run at the first
    warning and cost the report.  The command group (:class:`acescore.cli.common.
    OneLineGroup`) ends every run: one-line usage errors, Ctrl-C 130 with one line on
    standard error, a failing output one line (:mod:`acescore.writing.output`)."""
    signal.signal(signal.SIGINT, _interrupted_while_starting)

    # numpy's BLAS would start a thread per CPU at import, spinning: 0.08 s of CPU in every
    # run, for nothing (the only products, compare's bootstrap, are matrix-vector ones: on
    # 600 documents one thread was 4% faster); the user's setting, if any, stands
    for name in _BLAS_THREADS:
        os.environ.setdefault(name, "1")
    args = sys.argv[1:] if argv is None else list(argv)
    if args == ["--version"]:
        _version()  # (returns if standard output cannot take it: the group says why)
    if args == ["--help"]:
        _help()  # (idem; and where click would print another text)
    try:
        from acescore.cli import main
    except MemoryError:  # a limit (ulimit -v) below what the imports need
        _out_of_memory()
    except ImportError as e:  # a library that could not be mapped
        if "map segment" in str(e) or "memory" in str(e).lower():
            _out_of_memory()
        raise

    # the imports are done: Ctrl-C is a KeyboardInterrupt again, which the group turns into
    # the same line once the run's clean-up (workers, temporary files) is done
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        main.main(args=argv, prog_name="acescore")  # ends the process (sys.exit)
    except MemoryError:  # before the group's own handling took over
        _out_of_memory()
    except KeyboardInterrupt:  # (idem)
        _interrupted_while_starting(signal.SIGINT, None)


#: the variables that set how many threads numpy's BLAS starts (OpenBLAS, and builds on MKL
#: or OpenMP)
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")
