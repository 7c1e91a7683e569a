"""Temporary files and folders, made as :mod:`tempfile` makes them, without importing it.

Every run writes through :mod:`acescore.writing.output` and :mod:`acescore.writing.spool`;
:mod:`tempfile` would bring :mod:`shutil`, :mod:`random`, :mod:`bz2`, :mod:`lzma` and
:mod:`fnmatch` into every process: ~8 M instructions of the ~390 M of a one-document run
(bench/README.md, "Small runs"), for three calls.  These are those calls:

* :func:`new_file` -- :func:`tempfile.mkstemp` in a given folder: a new file (``O_EXCL``,
  mode 0600, not inherited by child programs), its descriptor and absolute path;
* :func:`new_folder` -- :func:`tempfile.mkdtemp` in the default temporary folder
  (``$TMPDIR``, ``$TEMP``, ``$TMP``, then ``/tmp``, ``/var/tmp``, ``/usr/tmp``, then the
  current folder: the first where a folder can be made), mode 0700;
* :func:`remove_folder` -- :func:`shutil.rmtree` with ``ignore_errors``, for the folders
  :func:`new_folder` made.
"""

from __future__ import annotations

import contextlib
import errno
import os

#: names tried before giving up (tempfile's TMP_MAX)
_ATTEMPTS = 10000


def _name(prefix: str, suffix: str) -> str:
    return f"{prefix}{os.urandom(6).hex()}{suffix}"


def new_file(folder: str, prefix: str = "tmp", suffix: str = "") -> tuple[int, str]:
    """A new file in ``folder`` named ``prefix``, random characters, ``suffix``, opened for
    reading and writing: (descriptor, absolute path).  OSError where none can be made."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(_ATTEMPTS):
        path = os.path.join(folder, _name(prefix, suffix))
        try:
            return os.open(path, flags, 0o600), os.path.abspath(path)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no usable temporary file name", folder)


def _candidates() -> list[str]:
    """The folders :func:`new_folder` tries, in order (tempfile's list)."""
    named = [os.environ.get(v) for v in ("TMPDIR", "TEMP", "TMP")]
    out = [d for d in named if d] + ["/tmp", "/var/tmp", "/usr/tmp"]
    with contextlib.suppress(OSError):
        out.append(os.getcwd())
    return out


def new_folder(prefix: str = "tmp") -> str:
    """A new folder (mode 0700) in the first of the temporary folders where one can be
    made: its absolute path.  OSError where none can be made."""
    last: OSError = FileNotFoundError(errno.ENOENT, "no usable temporary folder")
    for parent in _candidates():
        for _ in range(_ATTEMPTS):
            path = os.path.join(parent, _name(prefix, ""))
            try:
                os.mkdir(path, 0o700)
                return os.path.abspath(path)
            except FileExistsError:
                continue
            except OSError as e:  # not there, not writable: the next candidate
                last = e
                break
    raise last


def remove_folder(path: str) -> None:
    """Remove the folder ``path`` and everything in it; what cannot be removed stays."""
    for root, folders, files in os.walk(path, topdown=False):
        for name in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(root, name))
        for name in folders:
            full = os.path.join(root, name)
            with contextlib.suppress(OSError):
                if os.path.islink(full):
                    os.unlink(full)
                else:
                    os.rmdir(full)
    with contextlib.suppress(OSError):
        os.rmdir(path)
