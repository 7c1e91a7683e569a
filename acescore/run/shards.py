"""``acescore score --jobs N``: the corpus in document shards, one process each.

Under a local parameter set every document is mapped and valued on its own (its elements'
cohorts never leave it), so the corpus can be split into shards of whole documents -- the
REF and SYS files of a document in the same shard -- each read, built and scored in a
forked process of its own (:mod:`acescore.run.shard_worker`).  A shard sends back, per pass,
the records of its report section (:mod:`acescore.report.counts.sections`); this process merges
them in canonical order and renders the report (its passes in as many processes as the
run may use, once every shard is in), byte for byte the report of one process.
Nothing of the corpus is read here: each process holds its own documents only.  With
``--jobs 1`` the shards are forked one after another (a process scoring a few dozen
documents needs less CPU per document than one holding the corpus).

Planning reads the first bytes of every file for its DOCID (no parsing).  Everything the
plan assumes is checked when the shards report back; where it does not hold the run is
scored in one process as before (:func:`score_paths` returns None), so a sharded run
never differs from a sequential one:

* each file holds the one document the plan saw, no DOCID is in two shards;
* no element or mention ID is used in two shards (the NIST tool merges elements with one
  ID across documents into one element) and no argument refers outside its shard;
* a shard without a pass (a kind without elements on one side) has no elements of that
  kind on either side, and an entity pass has B-cubed data in every shard or none;
* every shard finished: a worker that fails, or stops showing signs of life
  (:func:`acescore.run.parallel.run_pool`), is killed.

Under a global parameter set elements span documents: documents linked by an element ID
(on either side) are one connected component, and shards end only where no component
continues (planning reads the files' element IDs then); where no such place exists the
run is not sharded.  The ``-s``/``-a``/``-e`` listings merge by element ID
(:mod:`acescore.report.listing_records`), the JSON's literature metrics are per-document
counts (:mod:`acescore.metrics.records`); with ``--docs`` every shard reads all its files
and keeps the listed documents, as one process does; with ``--lenient`` every shard
isolates the problems of its documents (:func:`acescore.rules.robust.isolate`) and the skips are
merged in their canonical order; with ``-c`` each valuation's duplicate warnings are a
phase of their own.
Warnings are put together phase by phase (reading and building each side, the document
check, each pass), shard after shard.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import weakref
from bisect import bisect_left
from collections.abc import Callable
from functools import partial
from itertools import accumulate

from acescore.model.errors import AceInputError
from acescore.model.limits import DEFAULT_MAX_BYTES
from acescore.model.options import Options
from acescore.reading.safe_read import read_bytes
from acescore.report.results import Results
from acescore.run.assemble import PASS_KINDS, ShardResult, assemble
from acescore.run.parallel import Child, concurrency, fork_available, run_pool
from acescore.run.products import NONE, Products
from acescore.run.shard_worker import ShardExtra, preload, score_shard
from acescore.writing.spool import Spool

__all__ = [
    "PASS_KINDS",
    "ShardResult",
    "concurrency",
    "plan",
    "run_shards",
    "score_paths",
    "shard_count",
    "shard_plans",
    "shard_shares",
]
# (patterns compiled when first used, by re's cache: only a run that plans shards uses them)
_DOCID = rb'<document\s+DOCID\s*=\s*"([^"]*)"'
_HEAD = 8192


_ELEMENT_ID = rb'<(?:entity|relation|event|value|timex2)\s[^>]*?\bID\s*=\s*"([^"]*)"'


def _read_head(path: str, whole: bool) -> bytes | None:
    """The file's first bytes (``whole``: all of it), or None where it cannot be read --
    not a regular file, too large, ... (the run then goes without shards and reports it)."""
    try:
        if whole:
            return read_bytes(path, DEFAULT_MAX_BYTES)
        return read_bytes(path, _HEAD, head=True)
    except AceInputError:
        return None


def _docid(data: bytes | None) -> bytes | None:
    """The DOCID of the one document a file starts with, or None."""
    if data is None:
        return None
    found = re.findall(_DOCID, data[:_HEAD])
    return found[0] if len(found) == 1 else None


def _reach(rdoc: list, rdata: list, sdata: list) -> list:
    """Global sets: per REF file, the last REF file (position) whose document is linked to
    its own by an element ID used in both (on either side): the connected components of
    cross-document elements.  A shard may end after file i only if no earlier file
    reaches beyond i."""
    pos = {d: i for i, d in enumerate(rdoc)}
    parent = list(range(len(rdoc)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for items in (zip(rdoc, rdata), ((_docid(x), x) for x in sdata)):
        first: dict = {}
        for d, data in items:
            i = pos.get(d)
            if i is None:  # an unevaluated SYS document: not scored at all
                continue
            for eid in re.findall(_ELEMENT_ID, data):
                j = first.setdefault(eid, i)
                if j != i:
                    parent[find(i)] = find(j)
    last: dict = {}
    for i in range(len(rdoc)):
        last[find(i)] = i
    return [last[find(i)] for i in range(len(rdoc))]


#: REF bytes per shard at most (about 35 real-sized documents): a larger corpus gets more
#: shards than processes, run a few at a time.  A process scoring 75 documents needed 18%
#: less CPU per document than one scoring 300 (memory grows with a shard, and with it the
#: cost of every step; 2 MB against 4 MB: 3% less CPU in all at 600 and 2,400 documents),
#: and the last shard, alone at the end, is short; the time then grows with the corpus,
#: not faster.  Smaller shards cost the parent more: each fork copies its page tables, and
#: it grows with the shards' reports (1 MB: 140 forks at 2,400 documents, ~10 ms each;
#: bench/README.md, "Session 5", "Session 6")
SHARD_REF_BYTES = 2 << 20


def shard_count(rpaths: list, processes: int) -> int:
    """How many shards for ``processes`` processes at a time: ``processes``, or where the
    REF files exceed ``processes`` times SHARD_REF_BYTES the least multiple of
    ``processes`` that keeps every shard within SHARD_REF_BYTES.  (Every process then
    has as many shards to score: 7 shards on 2 processes took four rounds, the last one
    with one process alone.)"""
    total = 0
    for p in rpaths:
        with contextlib.suppress(OSError):
            total += os.path.getsize(p)
    return processes * max(1, -(-total // (processes * SHARD_REF_BYTES)))


def shard_shares(n: int, jobs: int, processes: int) -> list:
    """The sizes of the shards of a corpus cut into ``n`` shards (:func:`shard_count` for
    ``jobs``) and scored ``processes`` at a time, relative to a full shard, shard by shard.
    Where the corpus makes several rounds of full shards (``n`` > ``jobs``) the last
    round's bytes go into shards of a half and of a quarter (``processes`` of each size, two
    rounds of quarters): the processes then end together, where with full shards one of
    them scored the last shard alone for half a shard on average (bench/README.md, "Session
    9").  One process at a time, or one round: ``n`` full shards."""
    if processes < 2 or n <= jobs:
        return [1.0] * n
    return [1.0] * (n - processes) + [0.5] * processes + [0.25] * (2 * processes)


def plan(
    rpaths: list, spaths: list, n: int, linked: bool = False, shares: list | None = None
) -> list | None:
    """``n`` shards of consecutive REF files (of about equal size; ``shares``: of these
    relative sizes, one a shard), each with the SYS files of its documents: a list of (REF
    paths, SYS paths), or None.  ``linked`` (global parameter sets): documents linked by
    cross-document elements stay in one shard."""
    rdata = [_read_head(p, linked) for p in rpaths]
    rdoc = [_docid(x) for x in rdata]
    if None in rdoc or len(set(rdoc)) != len(rdoc) or len(rpaths) < 2:
        return None
    sdata = [_read_head(p, linked) for p in spaths]
    sdoc = [_docid(x) for x in sdata]
    if None in sdoc:
        return None
    reach = _reach(rdoc, rdata, sdata) if linked else list(range(len(rpaths)))
    del rdata, sdata
    if shares is not None and len(shares) <= len(rpaths):
        n = len(shares)
    else:
        n = min(n, len(rpaths))
        shares = [1.0] * n
    ends = list(accumulate(shares))
    sizes = []
    for p in rpaths:
        try:
            sizes.append(os.path.getsize(p))
        except OSError:
            return None
    # shards may start at file i if no earlier file reaches beyond i - 1; of those starts,
    # the ones nearest to equal shares of the bytes
    starts, far, acc = [], -1, 0
    for i, sz in enumerate(sizes):
        if i and far < i:
            starts.append((acc, i))
        far = max(far, reach[i])
        acc += sz
    chosen = _cuts(starts, [acc * e / ends[-1] for e in ends[:-1]])
    cut, k = [], 0
    shard_of: dict = {}
    for i, d in enumerate(rdoc):
        if k < len(chosen) and i == chosen[k]:
            k += 1
        shard_of[d] = k
        cut.append(k)
    shards: list[tuple[list, list]] = [([], []) for _ in range(n)]
    for p, k in zip(rpaths, cut):
        shards[k][0].append(p)
    for p, d in zip(spaths, sdoc):
        shards[shard_of.get(d, n - 1)][1].append(p)
    return [s for s in shards if s[0]]


class _Arrivals:
    """What can be checked of each shard's report as it comes in, while the other shards
    are still scored (:func:`acescore.run.parallel.run_pool`'s ``on_result``): that it
    finished, and that no DOCID is in two shards -- on one side, or as one shard's REF
    document and another's SYS document.  False stops the pool (the run then goes in one
    process at once instead of after every shard)."""

    def __init__(self) -> None:
        self.owner: tuple[dict, dict] = ({}, {})  # per side: DOCID -> shard

    def __call__(self, i: int, out: ShardResult | None) -> bool:
        if out is None:
            return False
        ref, sys_ = self.owner
        for side, other, docs in ((ref, sys_, out.docs[0]), (sys_, ref, out.docs[1])):
            for d in docs:
                if side.setdefault(d, i) != i or other.get(d, i) != i:
                    return False
        return True


def documents_distinct(outs: list[ShardResult]) -> bool:
    """Whether no DOCID is in two of these finished shards (:class:`_Arrivals`' check of
    them all at once)."""
    check = _Arrivals()
    return all(check(i, o) for i, o in enumerate(outs))


def _cuts(starts: list, targets: list) -> list:
    """Where the shards start: for each byte target in turn (ascending), the file of
    ``starts`` ((bytes before it, file position), both ascending) after the previous cut
    whose bytes before it are nearest to the target -- on a tie the first.  The bytes are
    ascending, so the nearest is next to where the target would go: found by bisection,
    for each target, not by scanning every start (planning 10,000 files in 300 shards
    scanned millions)."""
    accs = [a for a, _ in starts]
    chosen: list = []
    lo = 0
    for target in targets:
        if lo >= len(accs):
            break
        j = bisect_left(accs, target, lo)
        if j == len(accs) or (j > lo and abs(accs[j - 1] - target) <= abs(accs[j] - target)):
            j = bisect_left(accs, accs[j - 1], lo)  # (equal bytes: the first of them)
        chosen.append(starts[j][1])
        lo = j + 1
    return chosen


def shard_plans(rpaths: list, spaths: list, options: Options) -> list | None:
    """The document shards of a run with :class:`~acescore.model.options.Options`
    ``options`` (see :func:`plan`): at least two (REF paths, SYS paths), or None where the
    corpus makes one shard or cannot be planned (then it is scored in one process).
    :func:`acescore.run.entry.plan_run` decides whether a run is planned at all."""
    if not fork_available() or not spaths:
        return None
    params = options.parameter_set
    # global sets (name similarity: the NIST tool's global mode) link documents
    n = shard_count(rpaths, options.jobs)
    plans = plan(
        list(rpaths),
        list(spaths),
        n,
        linked=bool(params.use_name_similarity),
        shares=shard_shares(n, options.jobs, concurrency(options.jobs)),
    )
    return plans if plans and len(plans) >= 2 else None


def score_paths(
    rpaths: list,
    spaths: list,
    options: Options,
    inputs: dict | None = None,
    extra: ShardExtra | None = None,
    products: Products = NONE,
) -> Results | None:
    """:func:`shard_plans` then :func:`run_shards`: the Results of the run in shards, or
    None where shards are not possible."""
    plans = shard_plans(rpaths, spaths, options)
    if plans is None or (extra is not None and not extra.start(plans)):
        return None
    return run_shards(plans, options, inputs, extra, products)


def _shard_start(work: Callable[[], ShardResult]) -> Callable[[], Child]:
    """A :func:`acescore.run.parallel.run_pool` start: a worker forked to do ``work``."""
    return lambda: Child(work)


def run_shards(
    plans: list,
    options: Options,
    inputs: dict | None = None,
    extra: ShardExtra | None = None,
    products: Products = NONE,
) -> Results | None:
    """Score with :class:`~acescore.model.options.Options` ``options`` the document shards
    ``plans`` (:func:`shard_plans`), ``options.jobs`` at a time: the
    :class:`~acescore.report.results.Results` of the run, or None where the shards did not
    bear out the plan (then the run goes in one process).  ``inputs``: the REF and SYS
    inputs as given (``{"ref": ..., "sys": ...}``, for messages and the JSON).

    ``extra`` (the HTML view: :mod:`acescore.view.shards`) does more in each shard:
    ``extra.start(plans)`` (before this is called; False: no shards),
    ``extra.section(res, params, all_sources)`` in place of
    :func:`~acescore.report.counts.sections.section_data` and ``extra.finish(rside, sside)`` at
    the end of a shard (in its worker); once the run is assembled,
    ``extra.merge(results, finished)`` here with what ``finish`` returned in every shard, in
    shard order (False: the shards cannot be used, the run goes in one process).
    ``products``: the code of the run's optional products (:mod:`acescore.run.products`)."""
    at_once = concurrency(options.jobs)
    if len(plans) > at_once:
        preload(options)
    sys.stdout.flush()
    sys.stderr.flush()
    spool = Spool.make() if options.listings else None
    try:  # at_once processes at a time; a worker that cannot be forked: no shards
        outs: list[ShardResult | None] | None = run_pool(
            [
                _shard_start(partial(score_shard, rp, sp, options, extra, spool, products))
                for rp, sp in plans
            ],
            at_once,
            on_result=_Arrivals(),
        )
    except OSError:
        outs = None
    results = None
    if outs is not None:
        results = assemble(outs, options, inputs, view=extra is not None, products=products)
    if (
        results is not None
        and extra is not None
        and outs is not None
        and not extra.merge(results, [o.extra for o in outs if o is not None])
    ):
        results = None
    if spool is not None:  # the listings' spans: as long as the results
        if results is None:
            spool.remove()
        else:
            weakref.finalize(results, spool.remove)
    return results
