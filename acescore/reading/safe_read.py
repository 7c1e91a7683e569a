"""Reading an input file whole, safely: regular files only, never more than a limit.

Every file acescore reads (APF files, list files, source documents, DTDs named on the
command line) goes through :func:`read_bytes`.  It refuses what is not a regular file -- a
FIFO would block the run forever, a device such as ``/dev/zero`` (whose size is 0) would be
read until memory runs out -- and it stops reading one byte past the limit, so a file that
grows while it is read cannot exceed it either.  The file is opened without blocking and
its type is taken from the open descriptor (no window between a check and the open).
"""

from __future__ import annotations

import os
import stat

from acescore.model.errors import AceInputError

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """``a directory``, ``a FIFO (named pipe)`` ... for a ``st_mode`` that is not a regular
    file."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_text(path: str, what: str, max_bytes: int = 64 * 1024 * 1024) -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_bytes`); ``what`` names
    it in messages (``cannot read the {what}: ...``)."""
    data = read_bytes(path, max_bytes, f"the {what}", f"a {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise AceInputError(
            f"cannot read the {what}: not valid UTF-8 (byte"
            f" 0x{data[e.start]:02x} at offset {e.start})",
            path,
        ) from None


def read_bytes(
    path: str, max_bytes: int, what: str = "file", expected: str = "an APF file", head: bool = False
) -> bytes:
    """The content of the regular file ``path``.

    ``what`` and ``expected`` name the file in messages (``cannot open {what}: ...``, or
    ``cannot open: ...`` when ``what`` is empty; ``is a FIFO (named pipe), not
    {expected}``).  A file larger than ``max_bytes`` is refused, unless ``head``
    is true: then its first ``max_bytes`` bytes are returned.  Every problem is a one-line
    :class:`AceInputError` naming ``path``."""
    what = f" {what}" if what else ""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise AceInputError(f"cannot open{what}: {e.strerror}", path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise AceInputError(f"is {file_kind(st.st_mode)}, not {expected}", path)
        if st.st_size > max_bytes and not head:
            err = AceInputError(
                f"file is larger than the limit of {max_bytes} bytes ({st.st_size} bytes)", path
            )
            err.limit = (max_bytes, st.st_size)
            raise err
        chunks = []
        left = max_bytes + 1
        # requests of the size expected (a larger one allocates, and gives back, a buffer
        # of its size every time): the file and one byte more, then a small read for the
        # end unless the file was found longer than its size said
        want = min(st.st_size + 1, 1 << 20)
        while left > 0:
            b = os.read(fd, min(left, want))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
            want = 1 << 20 if len(b) == want else 4096
        data = b"".join(chunks)
    except OSError as e:
        raise AceInputError(f"cannot read{what}: {e.strerror}", path) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        if head:
            return data[:max_bytes]
        err = AceInputError(
            f"file is larger than the limit of {max_bytes} bytes (it grew while it was read)", path
        )
        err.limit = (max_bytes, len(data))
        raise err
    return data
