"""``acescore compare --jobs N``: the systems scored in forked processes, N at a time.

Each worker inherits the reference read and built by this process (fork: nothing is copied
up front), reads, builds and scores its system and sends back only the per-document
components (:class:`acescore.compare.components.SystemScores` and friends, pickled).  The
result does not depend on the number of processes.  Where ``fork`` is not available the
systems are scored one after the other; if a worker fails in any other way than on its
input, this process scores its system itself.  An input error in a worker is raised here
with the worker's message and exit status.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Sequence

from acescore.model.errors import AceError
from acescore.run.parallel import _read_object, child_exit, fork, fork_available


class WorkerInputError(AceError):
    """An :class:`~acescore.model.errors.AceError` raised in a worker: its message and status."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code


def _guarded(fn: Callable, item):
    """In a worker: ("value", fn(item)), or ("input", message, status) on an input error."""
    try:
        return ("value", fn(item))
    except AceError as e:
        return ("input", str(e), e.exit_code)


def _collect(pid: int, fd: int):
    try:
        payload = _read_object(fd)
    except Exception:  # died, killed, ...
        payload = None
    os.waitpid(pid, 0)
    return payload[1] if payload is not None and payload[0] == "ok" else None


def fork_map(fn: Callable, items: Sequence, jobs: int) -> list:
    """``[fn(x) for x in items]``, with up to ``jobs`` calls at once in forked processes."""
    if jobs <= 1 or len(items) <= 1 or not fork_available():
        return [fn(x) for x in items]
    results: list = [None] * len(items)
    failed: list = []
    running: list = []  # (index, pid, read end), in start order
    pending = list(range(len(items)))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        while pending or running:
            while pending and len(running) < jobs:
                i = pending.pop(0)
                r, w = os.pipe()
                try:
                    pid = fork()
                except OSError:  # no fork possible (limits): score it here
                    os.close(r)
                    os.close(w)
                    failed.append(i)
                    continue
                if pid == 0:
                    os.close(r)
                    child_exit(w, lambda: _guarded(fn, items[i]))  # noqa: B023 (called in this iteration)
                os.close(w)
                running.append((i, pid, r))
            if not running:
                continue
            i, pid, r = running.pop(0)
            outcome = _collect(pid, r)
            if outcome is None:
                failed.append(i)
            elif outcome[0] == "input":
                raise WorkerInputError(outcome[1], outcome[2])
            else:
                results[i] = outcome[1]
    except BaseException:
        for _, pid, r in running:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(r)
            except OSError:
                pass
        raise
    for i in failed:
        results[i] = fn(items[i])
    return results
