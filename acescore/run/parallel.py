"""``acescore score --jobs N``: the independent chains of one run in separate processes.

A ``-m`` run has three chains of passes (:data:`acescore.model.tasks.CHAINS`): the
document-level passes, the entity mentions (EMD) and the relation/event mentions.  They
share only the element mapping of the entity/value/timex2 passes, which the mention chain
needs at its very end.  With ``--jobs 2`` the document chain runs in this process and the
two mention chains, one after the other, in a forked worker; with ``--jobs 3`` or more each
mention chain has a worker of its own.

A worker inherits the corpus read by this process (fork: nothing is copied up front),
scores its chains, turns each pass into its section's records
(:mod:`acescore.report.counts.sections`, as a document shard does) and sends back only
those, with the warnings its passes raised.  The parent puts everything together
in report order, so the output is identical to a sequential run, byte for byte.

Where ``fork`` is not available (or on platforms where forking a process that has loaded
numpy is unsafe) the run is sequential.  If a worker fails in any way -- or shows no sign
of life for :func:`worker_timeout` seconds (stopped, hung: see :class:`Child`) -- the
parent scores its chains itself: the run never depends on a worker.  (Under a local
parameter set the command line first tries documents in shards: :mod:`acescore.run.shards`.)
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

try:  # CPython's C pickler alone: the pickle module adds 4.9 M instructions of import (its
    # pure-Python Pickler classes, unused here) to every run, 1.3% of a one-document one
    from _pickle import dump, dumps, load, loads
except ImportError:  # (another Python: the same functions)
    from pickle import dump, dumps, load, loads

from acescore.model.tasks import CHAINS
from acescore.report.outputs import ReportContext
from acescore.scoring.engine import run_chain
from acescore.scoring.result import PassResult

_T = TypeVar("_T")
#: pickle's highest protocol (pickle: a negative protocol number selects it)
_PROTOCOL = -1
#: what a worker's chain sends back: (chain, the warnings it raised, ``per_pass`` of its passes)
ChainOutput = tuple[str, list, list]


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def concurrency(jobs: int) -> int:
    """How many processes run at a time: ``jobs``, but no more than the CPUs this process
    may use (more processes than CPUs only take turns on them, each holding its shard in
    memory meanwhile)."""
    return max(1, min(jobs, available_cpus()))


def fork_available() -> bool:
    return hasattr(os, "fork") and sys.platform.startswith("linux")


def plan(jobs: int) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The chains scored in this process and those of each worker.  With two processes the
    worker takes both mention chains: the document chain takes about as long as they do
    together.  (Measured on 1,000 documents: giving the worker only one of them was slower
    and used more memory in total, since a forked worker copies every page it touches.)"""
    documents, *mentions = CHAINS
    if jobs >= 3:
        return (documents,), [(chain,) for chain in mentions]
    if jobs == 2:
        return (documents,), [tuple(mentions)]
    return CHAINS, []


#: seconds between two signs of life of a worker (see :class:`Child`)
HEARTBEAT = 0.25


def worker_timeout() -> float:
    """Seconds without any sign of life after which a worker counts as stopped or hung
    (``ACESCORE_WORKER_TIMEOUT``, default 60: a loaded machine can starve a process for a
    few seconds, a stopped one never comes back)."""
    try:
        return max(0.5, float(os.environ.get("ACESCORE_WORKER_TIMEOUT", "60")))
    except ValueError:
        return 60.0


def _beat(fd: int) -> None:
    """In a worker: a daemon thread writing one byte to ``fd`` every HEARTBEAT seconds."""

    def run() -> None:
        try:
            while True:
                os.write(fd, b".")
                time.sleep(HEARTBEAT)
        except OSError:  # the parent is gone or stopped listening
            pass

    threading.Thread(target=run, daemon=True).start()


#: the signals that end a run (acescore.cli.common): held back while a worker is forked
_HELD = {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}


def fork() -> int:
    """:func:`os.fork` with SIGTERM, SIGHUP and SIGINT held back while it runs.  A signal
    arriving during a fork would have its handler run inside the interpreter's at-fork
    callbacks, where the exception it raises is only printed ("Exception ignored") and
    the signal is lost: the run went on to its end.  Held back, it is delivered as soon as
    the fork returns, in the caller's code."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    parent = os.getpid()
    try:
        pid = os.fork()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    if pid == 0:
        _FORKED_BY[:] = [parent]
    return pid


#: in a worker forked by :func:`fork`: the process ID of the process that forked it
_FORKED_BY: list = []


class Child:
    """A forked process computing ``work()``; its pickled result comes back through a pipe.

    While it works, a thread in it writes a byte to a second pipe every HEARTBEAT seconds,
    so that the parent can tell a slow worker from a stopped (SIGSTOP) or hung one:
    :func:`collect` gives up on a worker that shows no sign of life -- neither result data
    nor heartbeat -- for :func:`worker_timeout` seconds, kills it, and the caller does its
    work itself."""

    def __init__(
        self, work: Callable[[], object], before: Callable[[], None] | None = None
    ) -> None:
        out_r, out_w = os.pipe()
        hb_r, hb_w = os.pipe()
        pid = fork()
        if pid == 0:  # the worker
            os.close(out_r)
            os.close(hb_r)

            def beating_work() -> object:
                if before is not None:
                    before()
                _beat(hb_w)
                return work()

            child_exit(out_w, beating_work)
        os.close(out_w)
        os.close(hb_w)
        self.pid = pid
        self.out_r: int | None = out_r
        self.hb_r: int | None = hb_r
        self.buf = bytearray()
        self.done = False

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        self._close()

    def _close(self) -> int:
        """Close the pipes and reap the worker: its wait status (1 if it cannot be had)."""
        for fd in (self.out_r, self.hb_r):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.out_r = self.hb_r = None
        self.done = True
        try:
            return os.waitpid(self.pid, 0)[1]
        except OSError:
            return 1

    def _finish(self) -> object:
        """The worker closed its result pipe: its result, or None if it failed."""
        status = self._close()
        try:
            payload = loads(self.buf)  # (no copy of the buffer)
        except Exception:
            return None
        finally:
            self.buf = bytearray()
        if payload[0] != "ok" or status != 0:
            return None
        return payload[1]


def collect(children: list[Child], timeout: float | None = None) -> list:
    """Wait for every child's result (None for one that failed, died or was given up on
    after ``timeout`` seconds without a sign of life; default :func:`worker_timeout`)."""
    return run_pool([_started(c) for c in children], max(1, len(children)), timeout)


def _started(c: Child) -> Callable[[], Child]:
    """A :func:`run_pool` start for a worker started already."""
    return lambda: c


def balanced_groups(weights: list, n: int) -> list:
    """``range(len(weights))`` in at most ``n`` groups of about equal total weight: the
    heaviest item first, each to the lightest group so far (ties: the first); every
    group's positions in order, empty groups left out."""
    totals = [0.0] * n
    groups: list = [[] for _ in range(n)]
    for i in sorted(range(len(weights)), key=lambda i: -weights[i]):
        g = totals.index(min(totals))
        totals[g] += weights[i]
        groups[g].append(i)
    return [sorted(g) for g in groups if g]


def map_in_processes(
    fn: Callable[[_T], object], items: Sequence[_T], weights: list, processes: int
) -> list:
    """``[fn(x) for x in items]``, computed in up to ``processes`` processes -- this one
    and forked workers, each taking a group of items of about equal total ``weights``
    (:func:`balanced_groups`).  A group whose worker cannot be forked, fails or shows no
    sign of life (:func:`collect`) is computed here afterwards: the result never depends
    on a worker.  ``fn``'s results must pickle."""
    groups = balanced_groups(weights, max(1, min(processes, len(items))))
    if len(groups) < 2 or not fork_available():
        return [fn(x) for x in items]
    sent: list = []  # (group, its worker)
    here: list = []  # the groups to compute here after the first
    for g in groups[1:]:
        try:
            sent.append((g, Child(_group_work(fn, items, g))))
        except OSError:
            here.append(g)
    out: list = [None] * len(items)
    try:
        for i in groups[0]:
            out[i] = fn(items[i])
    except BaseException:  # (Ctrl-C) the workers end with this process
        for _, c in sent:
            c.kill()
        raise
    for (g, _), got in zip(sent, collect([c for _, c in sent])):
        if got is None:
            here.append(g)
        else:
            for i, r in zip(g, got):
                out[i] = r
    for g in here:
        for i in g:
            out[i] = fn(items[i])
    return out


def _group_work(fn: Callable[[_T], object], items: Sequence[_T], group: list) -> Callable[[], list]:
    """A worker's work in :func:`map_in_processes`: ``fn`` of the items of ``group``."""
    return lambda: [fn(items[i]) for i in group]


def run_pool(
    starts: Sequence[Callable[[], Child]],
    limit: int,
    timeout: float | None = None,
    on_result: Callable[[int, Any], bool] | None = None,
) -> list:
    """Run the workers that ``starts`` (callables, each forking a :class:`Child`) start, at
    most ``limit`` at a time, the next one as soon as one is done: their results in order
    (None as in :func:`collect`).  ``on_result(i, result)`` is called with each result as
    it comes in (in the order the workers finish, while the others go on; the next worker
    is started before a result is unpickled); where it returns False the pool stops: the
    running workers are killed and the rest are not started (their results None).  An
    OSError of a start, or any exception here or in ``on_result`` (Ctrl-C), kills the
    running workers and is raised."""
    timeout = worker_timeout() if timeout is None else timeout
    results: list = [None] * len(starts)
    running: dict = {}  # position -> Child
    last: dict = {}
    ended: list = []  # (position, Child) of workers whose result is all here
    nxt = 0

    def fill() -> int:
        n = nxt
        while n < len(starts) and len(running) < limit:
            c = starts[n]()
            if not c.done:
                running[n] = c
                last[n] = time.monotonic()
            n += 1
        return n

    try:
        while nxt < len(starts) or running:
            nxt = fill()
            if not running:
                continue
            fds: dict[int, tuple[int, bool]] = {}
            for i, c in running.items():
                if c.out_r is not None:  # (a running worker's always is)
                    fds[c.out_r] = (i, True)
                if c.hb_r is not None:
                    fds[c.hb_r] = (i, False)
            ready, _, _ = select.select(list(fds), [], [], HEARTBEAT * 2)
            now = time.monotonic()
            ended.clear()
            for fd in ready:
                i, is_out = fds[fd]
                c = running.get(i)
                if c is None:  # finished by its other pipe in this round
                    continue
                # (a pipe's capacity: a larger request costs fresh memory every time)
                data = os.read(fd, 1 << 16)
                last[i] = now
                if is_out:
                    if data:
                        c.buf += data
                    else:
                        ended.append((i, running.pop(i)))
                elif not data:  # heartbeat pipe closed: the worker exits; its result follows
                    os.close(fd)
                    c.hb_r = None
            if ended:  # the next workers first: they work while the results unpickle
                nxt = fill()
            for k, (i, c) in enumerate(ended):
                results[i] = c._finish()
                if on_result is not None and on_result(i, results[i]) is False:
                    nxt = _stop(running, len(starts))
                    for _, rest in ended[k + 1 :]:
                        rest._close()
                    break
            for i in [i for i in running if now - last[i] > timeout]:
                if i not in running:  # the pool stopped
                    continue
                running.pop(i).kill()
                if on_result is not None and on_result(i, None) is False:
                    nxt = _stop(running, len(starts))
    except BaseException:
        for c in running.values():
            c.kill()
        for _, c in ended:
            if not c.done:
                c.kill()
        raise
    return results


def _stop(running: dict, end: int) -> int:
    """Kill the running workers of a pool that stops: the position after the last start."""
    for c in running.values():
        c.kill()
    running.clear()
    return end


class _Worker:
    """A forked process (:class:`Child`) running some chains."""

    def __init__(
        self, ctx: ReportContext, chains: tuple[str, ...], per_pass: Callable[[PassResult], object]
    ) -> None:
        self.refs_w: int | None = None
        refs_r = None
        if CHAINS[-1] in chains:  # the relation/event mentions need the element mapping
            refs_r, self.refs_w = os.pipe()
        wait = (lambda: _read_mapped_refs(refs_r)) if refs_r is not None else None
        refs_w = self.refs_w
        self.child = Child(
            lambda: _run_chains(ctx, chains, per_pass, wait),
            before=(lambda: os.close(refs_w)) if refs_w is not None else None,
        )
        if refs_r is not None:
            os.close(refs_r)
        self.sender: threading.Thread | None = None

    def send_mapped_refs(self, mapped_refs: dict) -> None:
        """Hand the mapping to the worker without blocking this process (a pipe holds
        64 KiB; the worker reads when it gets there)."""
        data = dumps(mapped_refs, protocol=_PROTOCOL)
        fd = self.refs_w
        assert fd is not None, "sent once, to the worker of the relation/event mentions"
        self.refs_w = None

        def send() -> None:
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
            except OSError:  # the worker is gone; its chains are scored here instead
                pass

        self.sender = threading.Thread(target=send, daemon=True)
        self.sender.start()

    def result(self) -> list[ChainOutput] | None:
        """The worker's per-chain results, or None if it failed (or stopped showing signs
        of life: then it is killed)."""
        out: list[ChainOutput] | None = collect([self.child])[0]
        if out is None and self.refs_w is not None:
            os.close(self.refs_w)
            self.refs_w = None
        if self.sender is not None:
            self.sender.join(timeout=worker_timeout())
        return out

    def kill(self) -> None:
        self.child.kill()
        if self.refs_w is not None:
            with contextlib.suppress(OSError):
                os.close(self.refs_w)
            self.refs_w = None


def _die_with_parent() -> None:
    """In a forked worker: a daemon thread that ends the worker (status 1) as soon as its
    parent has ended, however it ended (killed, hung up), so that no worker runs on alone:
    the worker is then a child of another process (its parent process ID changes), which
    the thread looks at every HEARTBEAT seconds.  (The kernel's own way, prctl
    PR_SET_PDEATHSIG, needs ctypes: 1.5% more instructions in every run.)"""
    parent = _FORKED_BY[0] if _FORKED_BY else os.getppid()  # (it may be gone already)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(HEARTBEAT)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def child_exit(fd: int, work: Callable[[], object]) -> NoReturn:
    """In a forked worker: send ``("ok", work())`` -- or ``("error", "Type: message")``
    if it raised -- through ``fd``, and end the process (status 0, or 1 on error)."""
    code = 0
    payload: tuple[str, object]
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a worker just ends (see cli.common)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with_parent()
    try:
        payload = ("ok", work())
    except BaseException as e:
        payload = ("error", f"{type(e).__name__}: {e}")
        code = 1
    try:
        with os.fdopen(fd, "wb") as fh:
            dump(payload, fh, protocol=_PROTOCOL)
    finally:
        os._exit(code)


def _read_object(fd: int) -> object:
    """The object pickled into ``fd`` (read to its end, then closed)."""
    with os.fdopen(fd, "rb") as fh:
        return load(fh)


def _read_mapped_refs(fd: int) -> dict:
    """The element mapping :meth:`_Worker.send_mapped_refs` sent through ``fd``."""
    mapped_refs = _read_object(fd)
    assert isinstance(mapped_refs, dict)
    return mapped_refs


def _run_chains(
    ctx: ReportContext,
    chains: tuple[str, ...],
    per_pass: Callable[[PassResult], object],
    wait_mapped_refs: Callable[[], dict] | None = None,
    on_mapped_refs: Callable[[dict], None] | None = None,
) -> list[ChainOutput]:
    """Score ``chains`` on ``ctx.run``, turning each pass into ``per_pass(res)`` as soon as
    it is complete (its data is then freed before the next one is scored): a list of
    (chain, warnings raised, what ``per_pass`` made of its passes)."""
    run = ctx.run
    opts = ctx.options
    outputs: list = []
    run.on_pass = lambda res: outputs.append(per_pass(res))
    run.promotion_elsewhere = CHAINS[1] not in chains
    out: list[ChainOutput] = []
    try:
        for chain in chains:
            n_warnings = len(run.warnings)
            run_chain(
                run,
                chain,
                opts.mentions,
                opts.check_duplicates,
                wait_mapped_refs=wait_mapped_refs if chain == CHAINS[-1] else None,
                on_mapped_refs=on_mapped_refs if chain == CHAINS[0] else None,
            )
            out.append((chain, run.warnings[n_warnings:], outputs[:]))
            outputs.clear()
    finally:
        run.on_pass = None  # (the callback refers to ctx, which refers to the run)
    return out


def score_chains(ctx: ReportContext, jobs: int, per_pass: Callable[[PassResult], object]) -> list:
    """Score every chain of ``ctx.run`` (a fresh run) over ``jobs`` processes:
    ``per_pass(res)`` of every pass in report order (it must pickle: a worker sends it
    back); the warnings are appended to ``ctx.run.warnings`` in the order of a sequential
    run."""
    run = ctx.run
    own: tuple[str, ...] = CHAINS
    shares: list[tuple[str, ...]] = []
    workers: list[_Worker] = []
    if jobs > 1 and fork_available() and ctx.options.scores_mentions:
        own, shares = plan(jobs)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            for chains in shares:
                workers.append(_Worker(ctx, chains, per_pass))
        except OSError:  # no fork possible (limits): what was started still works
            pass
    n_warnings = len(run.warnings)
    parts: dict = {}  # chain -> (warnings it raised, its rendered passes)
    try:
        refs_worker = next((w for w in workers if w.refs_w is not None), None)
        on_refs = refs_worker.send_mapped_refs if refs_worker is not None else None
        for chain, warnings, outputs in _run_chains(ctx, own, per_pass, on_mapped_refs=on_refs):
            parts[chain] = (warnings, outputs)
        for w in workers:
            for chain, warnings, outputs in w.result() or ():
                parts[chain] = (warnings, outputs)
        workers = []
    except BaseException:
        for w in workers:
            w.kill()
        raise
    for chain in CHAINS:
        if chain not in parts:  # its worker failed (or could not start): score it here
            ((_, warnings, outputs),) = _run_chains(ctx, (chain,), per_pass)
            parts[chain] = (warnings, outputs)
    # warnings and sections in the order of a sequential run
    del run.warnings[n_warnings:]
    rendered: list = []
    for chain in CHAINS:
        warnings, outputs = parts[chain]
        run.warnings.extend(warnings)
        rendered.extend(outputs)
    return rendered
