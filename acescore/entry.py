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

    line = VERSION_MESSAGE % {"prog": "acescore", "version": __version__} + "\n"
    try:
        sys.stdout.write(line)
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        return
    sys.exit(0)


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
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:
        _version()  # (returns if standard output cannot take it: the group says why)
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
