"""Report text kept in files until it is written: the ``-s``/``-a``/``-e`` listings of
document shards (:mod:`acescore.run.shards`).

A listing of a real-sized corpus is ~50-100 MB of text.  Sent through a pipe it is
pickled by the worker, read, unpickled, joined and encoded again by the parent -- half a
second of the parent's time, while the workers wait for a CPU.  Instead each worker writes
its listing text, encoded, to a file of a :class:`Spool` (a temporary folder the parent
made before forking) and sends a :class:`Span` (file, byte range) in its place; the merge
cuts spans at block boundaries like strings, and the report writer copies them into the
report in the kernel (:meth:`Span.send`).  :meth:`Span.text` reads a span back for whoever
wants the report as one string.

A spool is removed when the :class:`~acescore.report.results.Results` holding its spans
is, at the latest when the process exits (:func:`remove_all`, called by the CLI's fast
exit too).  Where a spool cannot be made or written (no temporary folder, a full disk),
the text goes through the pipe as before.
"""

from __future__ import annotations

import atexit
import errno
import os
from itertools import accumulate

from acescore.writing.scratch import new_file, new_folder, remove_folder

_LIVE: list = []  # the spools of this process, removed at exit


class Span:
    """Bytes ``start`` to ``end`` of a spool file: UTF-8 text of whole listing blocks.
    Sliced like the text it stands for, with byte offsets (``span[a:b]`` is a Span)."""

    __slots__ = ("end", "path", "start")

    def __init__(self, path: str, start: int, end: int):
        self.path, self.start, self.end = path, start, end

    def __len__(self) -> int:
        return self.end - self.start

    def __getitem__(self, cut: slice) -> Span:
        a, b, _ = cut.indices(self.end - self.start)
        return Span(self.path, self.start + a, self.start + max(a, b))

    def __repr__(self) -> str:
        return f"Span({self.path!r}, {self.start}, {self.end})"

    def data(self) -> bytes:
        with open(self.path, "rb") as f:
            f.seek(self.start)
            return f.read(self.end - self.start)

    def text(self) -> str:
        return self.data().decode("utf-8")

    def send(self, fd: int) -> None:
        """Write the span to descriptor ``fd`` (a file, a pipe, a terminal): copied by the
        kernel where it can; an OSError of the destination is raised as it is."""
        with open(self.path, "rb") as f:
            src, pos, end = f.fileno(), self.start, self.end
            try:
                while pos < end:
                    n = os.sendfile(fd, src, pos, end - pos)
                    if n == 0:
                        raise OSError(errno.EIO, "the spool file is shorter than its span")
                    pos += n
                return
            except OSError as e:
                if e.errno not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                    raise
            while pos < end:  # sendfile refused this pair of descriptors
                chunk = os.pread(src, min(end - pos, 1 << 22), pos)
                if not chunk:
                    raise OSError(errno.EIO, "the spool file is shorter than its span")
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view) :]
                pos += len(chunk)


def coalesced(pieces: list) -> list:
    """``pieces`` (str and Span) with each run of adjacent spans of one file as one."""
    out: list = []
    for p in pieces:
        if (
            isinstance(p, Span)
            and out
            and isinstance(out[-1], Span)
            and out[-1].path == p.path
            and out[-1].end == p.start
        ):
            out[-1] = Span(p.path, out[-1].start, p.end)
        else:
            out.append(p)
    return out


def as_text(piece) -> str:
    return piece if isinstance(piece, str) else piece.text()


class Spool:
    """A temporary folder for the listing text of a run's workers."""

    def __init__(self, folder: str):
        self.folder = folder
        self.pid = os.getpid()

    @classmethod
    def make(cls) -> Spool | None:
        """A new spool, or None where no temporary folder can be made."""
        try:
            spool = cls(new_folder("acescore-spool-"))
        except OSError:
            return None
        if not _LIVE:
            atexit.register(remove_all)
        _LIVE.append(spool)
        return spool

    def remove(self) -> None:
        """Remove the folder (in the process that made it; a worker leaves it)."""
        if os.getpid() == self.pid:
            remove_folder(self.folder)
            if self in _LIVE:
                _LIVE.remove(self)

    def writer(self) -> SpoolWriter:
        return SpoolWriter(self.folder)


class SpoolWriter:
    """A worker's file in a spool, appended to by :meth:`put`."""

    def __init__(self, folder: str):
        self.folder = folder
        self.path: str | None = None
        self.size = 0
        self.failed = False

    def put(self, pieces: list, firsts: list):
        """Write the text of blocks made of ``pieces`` (``firsts``: the index of each
        block's first piece): (its Span, the blocks' byte offsets), or None where it
        cannot be written (then send the text).  Each piece is encoded on its own (a
        listing joined first would be as wide as its widest character, and its block
        offsets counted again in bytes)."""
        if self.failed or not pieces:
            return None
        parts = list(map(str.encode, pieces))
        before = [0, *accumulate(map(len, parts))]  # [i]: the bytes of i pieces
        size = before[-1]
        if not size:
            return None
        offsets = [before[i] for i in firsts]
        try:
            if self.path is None:
                fd, self.path = new_file(self.folder, suffix=".txt")
            else:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            try:
                _write_parts(fd, parts)
            finally:
                os.close(fd)
        except OSError:
            self.failed = True
            return None
        start, self.size = self.size, self.size + size
        return Span(self.path, start, self.size), offsets


_IOV = 1024  # buffers per writev (the least IOV_MAX of POSIX systems)


def _write_parts(fd: int, parts: list) -> None:
    """Write the bytes ``parts`` one after the other (no copy of them joined)."""
    for i in range(0, len(parts), _IOV):
        chunk = parts[i : i + _IOV]
        done, want = os.writev(fd, chunk), sum(map(len, chunk))
        if done < want:  # a short write: the rest one by one
            view = memoryview(b"".join(chunk))[done:]
            while view:
                view = view[os.write(fd, view) :]


def remove_all() -> None:
    """Remove every spool of this process (at exit)."""
    for spool in list(_LIVE):
        spool.remove()
