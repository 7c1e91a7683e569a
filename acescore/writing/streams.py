"""The standard streams of a command, made safe before it runs (:func:`guard_streams`): a
closed descriptor 0, 1 or 2 opened on /dev/null, a standard error that never raises, a
closed standard output remembered (:func:`acescore.writing.output.write_stdout` says so).
Apart from :mod:`acescore.writing.output` so that ``acescore --help`` and ``--version``,
which need this and nothing of the output files, do not import what those need
(``tempfile``, and with it ``shutil`` and ``random``)."""

from __future__ import annotations

import contextlib
import io
import os
import sys

EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE, what a shell reports for `... | head`


class _TolerantStream(io.TextIOBase):
    """Standard error that never raises: a failed write (closed pipe, full disk, closed
    descriptor) sends everything after it to /dev/null instead of ending the run."""

    def __init__(self, stream):
        super().__init__()
        self._stream = stream

    @property
    def encoding(self):
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self):
        return getattr(self._stream, "errors", None) or "backslashreplace"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (OSError, ValueError, AttributeError):
            return False

    def fileno(self) -> int:
        return self._stream.fileno()

    def _fail(self) -> None:
        try:
            fd = self._stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)  # what is still buffered goes nowhere, at exit too
            os.close(null)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass
        # deliberately left open: the stream lives as long as the process
        self._stream = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115

    def write(self, s: str) -> int:
        try:
            self._stream.write(s)  # buffered as the stream buffers (a terminal: by line)
        except (OSError, ValueError):
            self._fail()
        return len(s)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self._fail()


_STDOUT_CLOSED: list = []  # [True] when standard output was closed at the start


def guard_streams() -> None:
    """Make the standard streams safe for a command: a closed descriptor 0, 1 or 2 is
    opened on /dev/null (so that no file the run opens takes its number and receives what
    was meant for the terminal), and standard error is wrapped so that writing to it never
    fails.  A closed standard output is remembered: :func:`write_stdout` reports it."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    if 1 in closed or sys.stdout is None:
        _STDOUT_CLOSED.append(True)
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the process's stream)
    if 2 in closed or sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the process's stream)
    if not isinstance(sys.stderr, _TolerantStream):
        sys.stderr = _TolerantStream(sys.stderr)
    # a path that is not UTF-8 (os.fsdecode: lone surrogates) printed as the bytes it was
    # given, not a UnicodeEncodeError (a UTF-8 locale's standard output is strict)
    with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
        sys.stdout.reconfigure(errors="surrogateescape")


def _silence_stdout() -> None:
    """After a failed write: later flushes of standard output (at exit) go to /dev/null."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


__all__ = ["EXIT_CLOSED_PIPE", "guard_streams"]
