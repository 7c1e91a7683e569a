"""Writing what a command produces: report files, standard output, standard error.

Every command that writes goes through this module, so that

* the destination of ``-o FILE`` is checked *before* the run (a missing or read-only
  folder, a directory, ``/dev/full``, ``/proc``: one line and exit 2, not a traceback after
  minutes of scoring): :class:`ReportFile` creates its temporary file right away;
* a report is written whole or not at all: into a temporary file beside the target, then
  renamed over it (:func:`write_file`), so a failed write never leaves a truncated report
  where the previous one was.  Targets that cannot be replaced by a rename (``/dev/null``,
  a FIFO, a terminal) are written directly;
* a closed or failing standard error never costs the report
  (:func:`acescore.writing.streams.guard_streams`), and
  a failing standard output is one line (exit 2) or, for a closed pipe (``| head``), a
  quiet exit with status 141 (:func:`write_stdout`).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import signal
import stat
import sys

from acescore.model.errors import EXIT_UNUSABLE, AceError
from acescore.writing.scratch import new_file
from acescore.writing.spool import Span, as_text
from acescore.writing.streams import (  # (EXIT_CLOSED_PIPE: also from here)
    _STDOUT_CLOSED,
    EXIT_CLOSED_PIPE,
    _silence_stdout,
)

_DEV_FULL = (1, 7)  # Linux: major/minor device number of /dev/full
#: the signals on which a run ends with its clean-up (acescore.cli.common)
_ENDING_SIGNALS = {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}


class OutputError(AceError):
    """The output cannot be written (exit 2)."""

    exit_code = EXIT_UNUSABLE


def _why(e: OSError) -> str:
    return e.strerror or type(e).__name__


# ---- standard output ------------------------------------------------------------------------


def write_stdout(text) -> None:
    """Write ``text`` (UTF-8; or a list of pieces, as :meth:`ReportFile.write` takes them)
    to standard output, checking every write: a closed pipe ends the process quietly
    (status 141); another failure raises :class:`OutputError`."""
    out = sys.stdout
    if out is None or _STDOUT_CLOSED:
        raise OutputError("standard output is closed: use -o FILE for the report")
    try:
        out.flush()
        try:
            fd = out.fileno()
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            fd = None  # not a real file (e.g. captured by a test runner)
        if fd is None:
            whole = text if isinstance(text, str) else "".join(map(as_text, text))
            buffer = getattr(out, "buffer", None)
            if buffer is not None:  # the bytes, as _encoded makes them (surrogates too)
                for data in _encoded(whole):
                    buffer.write(data)
            else:
                out.write(whole)
            out.flush()
        else:
            # os.write, not the text stream: a pipe closed by the reader part-way through
            # a large write must be noticed, and CPython's buffered writer may miss it
            _write_all(fd, text)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except (OSError, ValueError) as e:
        _silence_stdout()
        why = _why(e) if isinstance(e, OSError) else str(e)
        raise OutputError(f"cannot write to standard output: {why}") from None


# ---- files --------------------------------------------------------------------------------

_UMASK: list = []


def _umask() -> int:
    if not _UMASK:
        mask = os.umask(0o022)
        os.umask(mask)
        _UMASK.append(mask)
    return _UMASK[0]


class ReportFile:
    """The destination of ``-o FILE``, checked when created (before the run).

    A regular file (existing or not) gets a temporary file beside it now; :meth:`write`
    fills it and renames it over the target.  Anything else that exists (``/dev/null``, a
    FIFO, a terminal) is opened for writing now and written directly.  Every problem is
    an :class:`OutputError` naming the path.  If the run ends without :meth:`write`, the
    temporary file is removed."""

    def __init__(self, path: str, what: str = "report", durable: bool = True):
        self.path = path
        self.durable = durable
        self.what = what
        self.tmp: str | None = None
        self.fd: int | None = None
        self.pid = os.getpid()
        if not path:
            raise OutputError(f"empty path for the {what} (-o)")
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        except OSError as e:
            raise OutputError(f"{path}: cannot write the {what} there: {_why(e)}") from None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{path}: is a folder; -o takes a file name")
        if st is not None and not stat.S_ISREG(st.st_mode):
            self._open_special(st)
            return
        target = os.path.realpath(path)  # a link to a file: replace the file, keep the link
        folder = os.path.dirname(target) or "."
        if not os.path.isdir(folder):
            raise OutputError(f"{path}: the folder {os.path.dirname(path) or '.'} does not exist")
        if st is not None and not os.access(target, os.W_OK):
            raise OutputError(f"{path}: the file is read-only")
        # the signals that end a run wait until the temporary file is known and its removal
        # registered: one arriving while it is made would leave a .part file nobody removes
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _ENDING_SIGNALS)
        try:
            self.fd, self.tmp = new_file(
                folder, prefix=f".{os.path.basename(target)[:100]}.", suffix=".part"
            )
            if durable:
                atexit.register(self.discard)
        except OSError as e:
            raise OutputError(
                f"{path}: cannot write in the folder {os.path.dirname(path) or '.'}: {_why(e)}"
            ) from None
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        self.target = target
        self.mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()

    def _open_special(self, st) -> None:
        if stat.S_ISCHR(st.st_mode) and (os.major(st.st_rdev), os.minor(st.st_rdev)) == _DEV_FULL:
            raise OutputError(f"{self.path}: every write to this device fails (/dev/full)")
        try:
            self.fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
            os.set_blocking(self.fd, True)
        except OSError as e:
            reason = (
                "a FIFO with no reader" if stat.S_ISFIFO(st.st_mode) and e.errno == 6 else _why(e)
            )  # ENXIO
            raise OutputError(
                f"{self.path}: cannot write the {self.what} there: {reason}"
            ) from None

    def write(self, text) -> None:
        """Write the whole ``text`` (str, written as UTF-8, bytes, or a list of str
        written one after the other); raises :class:`OutputError` (and leaves whatever
        was at the target untouched) when that fails."""
        fd, self.fd = self.fd, None
        try:
            _write_all(fd, text)
            if self.tmp is not None:
                os.fchmod(fd, self.mode)
                if self.durable:
                    os.fsync(fd)
        except OSError as e:
            self._close(fd)
            self.discard()
            raise OutputError(
                f"{self.path}: cannot write the {self.what}: {_why(e)} (nothing was written there)"
            ) from None
        except BaseException:  # (Ctrl-C, a str that is not UTF-8) part-way: no file
            self._close(fd)
            self.discard()
            raise
        self._close(fd)
        if self.tmp is not None:
            try:
                os.replace(self.tmp, self.target)
            except OSError as e:
                self.discard()
                raise OutputError(
                    f"{self.path}: cannot write the {self.what}: {_why(e)}"
                    " (nothing was written there)"
                ) from None
            self.tmp = None

    @staticmethod
    def _close(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.close(fd)

    def discard(self) -> None:
        """Remove the temporary file (no-op after :meth:`write` or in a forked worker)."""
        if os.getpid() != self.pid:
            return
        if self.fd is not None:
            self._close(self.fd)
            self.fd = None
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)
            self.tmp = None


#: characters encoded and written at a time (a -a report is ~100 MB: no copy of it whole)
_CHUNK = 1 << 22


def _encoded(text):
    """``text`` (str, bytes, or a list of str and :class:`~acescore.writing.spool.Span` written
    one after the other) as UTF-8 bytes, in pieces of at most _CHUNK characters (a str is
    cut between code points, so the pieces are its encoding), and spans as they are."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        yield text
        return
    for piece in [text] if isinstance(text, str) else text:
        if isinstance(piece, Span):
            yield piece
            continue
        for i in range(0, len(piece), _CHUNK):
            # (surrogateescape: the bytes of a text cut inside a character, as the older
            # NIST scripts cut byte strings, go out as they are)
            yield piece[i : i + _CHUNK].encode("utf-8", "surrogateescape")


def _write_all(fd: int, text) -> None:
    """Write ``text`` (as :func:`_encoded` takes it) to descriptor ``fd``."""
    for data in _encoded(text):
        if isinstance(data, Span):
            data.send(fd)
            continue
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]


def write_file(path: str, text) -> None:
    """Write ``text`` (str or bytes) to ``path`` whole or not at all (temporary file and
    rename; one of many files, so not synced to disk one by one)."""
    f = ReportFile(path, "file", durable=False)
    try:
        f.write(text)
    finally:
        f.discard()


def check_folder(path: str) -> None:
    """Make sure the folder ``path`` can be written: it exists and files can be created in
    it, or it does not exist and can be created (its nearest existing ancestor is a folder
    that files can be created in).  Nothing is left behind: the folder itself is created
    by the writer, after the run.  Raises :class:`OutputError` otherwise."""
    if not path:
        raise OutputError("empty folder name (-o)")
    if os.path.exists(path) and not os.path.isdir(path):
        raise OutputError(f"{path}: exists and is not a folder")
    probe_in = os.path.abspath(path)
    while not os.path.exists(probe_in):
        parent = os.path.dirname(probe_in)
        if parent == probe_in:
            break
        probe_in = parent
    try:
        if not os.path.isdir(probe_in):
            raise NotADirectoryError(20, "Not a directory")
        fd, probe = new_file(probe_in, prefix=".acescore-check.")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise OutputError(f"{path}: cannot write in this folder: {_why(e)}") from None


class Emitter:
    """Where a command's output goes: ``ReportFile(path)`` or standard output.  Create it
    before the run (the check), call :meth:`emit` at the end."""

    def __init__(self, path: str | None):
        self.file = ReportFile(path) if path is not None else None
        if path is None and _STDOUT_CLOSED:
            raise OutputError("standard output is closed: use -o FILE for the report")

    def emit(self, text) -> None:
        """Write ``text``: a str, or a list of str (and :class:`~acescore.writing.spool.Span`)
        written one after the other."""
        if self.file is not None:
            self.file.write(text)
        else:
            write_stdout(text)
