"""The results of a run scored in document shards: what each shard sends back
(:class:`ShardResult`, built in its worker by :mod:`acescore.run.shard_worker`) and
:func:`assemble`, which checks that the shards bear out the plan and puts their reports
together into the run's :class:`~acescore.report.results.Results` -- the report byte for
byte the report of one process.

Warnings are put together phase by phase (reading and building each side, the document
check, each pass and the phases within it: :attr:`acescore.scoring.engine.Run.on_phase`),
shard after shard; each pass's section from the shards' records, merged in canonical
order (:mod:`acescore.report.counts.sections`) and rendered (in as many processes as the
run may use, once every shard is in).
"""

from __future__ import annotations

from dataclasses import field
from functools import reduce

from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.model.records import dataclass
from acescore.model.tasks import TASKS
from acescore.report.counts.rows import detection_tables
from acescore.report.counts.sections import (
    SectionData,
    add_counts,
    merged_document_costs,
    merged_tables,
)
from acescore.report.data.json_report import documents_json, pass_json, pass_value, total_value
from acescore.report.nist.header import header
from acescore.report.nist.nist_report import ace05_document_scores_text, document_scores_text
from acescore.report.nist.nist_text import banner, recognition_text
from acescore.report.outputs import PassOutput
from acescore.report.results import Results
from acescore.rules.coverage import Coverage
from acescore.rules.robust import Skip, SkipReport
from acescore.run.inputs import docs_warnings
from acescore.run.parallel import concurrency, map_in_processes
from acescore.run.products import NONE, Products
from acescore.scoring.engine import Run

#: a pass to render: (task, kind, the shards' SectionData of the pass)
PassParts = tuple[str, str, list[SectionData]]

#: the passes in report order, with the kind of element each scores
PASS_KINDS = tuple((t.name, t.kind) for t in TASKS)


@dataclass
class ScoredPass:
    """One pass of one shard: its section's records and where its warnings end."""

    task: str
    data: SectionData | None  # None: scored without its report (``report=False``)
    mark: int  # the shard's warnings up to the end of the pass
    bounds: list  # where the pass's warnings change phase (Run.on_phase)


@dataclass
class ShardResult:
    """What a shard's worker sends back (:func:`acescore.run.shard_worker.score_shard`)."""

    docs: tuple  # (REF DOCIDs, SYS DOCIDs) of the shard
    ids: tuple  # per side: (hashes of its element/mention IDs, the argument IDs it does
    #            not define)
    counts: dict  # (side, kind) -> elements
    sources: set  # the SOURCE of every file read
    n_docs: tuple  # (REF documents, SYS documents)
    dtds: set  # the DOCTYPEs of the files read
    coverage: tuple  # (REF, scored, SYS, SYS without REF) documents
    marks: list  # the warnings up to the end of each building step
    warnings: list  # every warning of the shard, in its order
    passes: list  # ScoredPass of every pass scored, in report order
    found: list | None = None  # --docs: the DOCIDs of every file read, per side
    skips: list | None = None  # --lenient: what was skipped (robust.Skip)
    documents: object | None = None  # -s: listing_records.document_records
    literature: object | None = None  # the JSON's literature metrics' records
    extra: object | None = None  # what ``extra.finish`` returned (the view)

    def scored(self, task: str) -> SectionData | None:
        """The section data of ``task``'s pass in this shard, if it was scored."""
        return next((p.data for p in self.passes if p.task == task), None)


@dataclass
class _Extras:
    """What ``--docs``, ``--lenient``, ``-s`` and the JSON's literature metrics add to a
    run (:func:`_merged_extras`)."""

    warnings: list = field(default_factory=list)
    skipped: SkipReport | None = None
    documents: str = ""
    document_ids: dict | None = None
    literature: dict | None = None


def consistent(outs: list[ShardResult]) -> bool:
    """Whether the shards' reports bear out the plan (see :mod:`acescore.run.shards`; the
    documents are checked as the reports come in)."""
    for side in (0, 1):
        # each shard's IDs are distinct: an ID in two shards is a hash seen twice
        hashes = [o.ids[side][0] for o in outs]
        seen = set().union(*hashes)
        if len(seen) != sum(map(len, hashes)):
            return False
        for o in outs:
            outside = o.ids[side][1]
            if outside and not seen.isdisjoint(map(hash, outside)):
                return False
    for task, kind in PASS_KINDS:
        have = [o.scored(task) for o in outs]
        if all(d is None for d in have):
            continue
        for o, d in zip(outs, have):
            if d is None and (o.counts[("REF", kind)] or o.counts[("SYS", kind)]):
                return False
        b3 = {d.b3 is None for d in have if d is not None}
        if len(b3) > 1:
            return False
    return True


def assemble(
    reports: list[ShardResult | None],
    options: Options,
    inputs: dict | None = None,
    view: bool = False,
    products: Products = NONE,
) -> Results | None:
    """The :class:`~acescore.report.results.Results` of a run from its document shards'
    :class:`ShardResult` (shard order), or None where they do not bear out the plan or
    cannot tell something the run in one process would say (then it is scored that way).
    ``view``: the passes keep their merged tables (``PassOutput.merged``) for the HTML
    view's index, and no report text is rendered; ``products``: the code of the optional
    products (:mod:`acescore.run.products`)."""
    outs = [o for o in reports if o is not None]
    if len(outs) != len(reports) or not consistent(outs):
        return None
    counts = [sum(x) for x in zip(*(o.coverage for o in outs))]
    if not counts[1]:  # nothing in common: said by the run in one process
        return None
    extras = _merged_extras(outs, options, products)
    if extras is None:
        return None
    warnings = list(extras.warnings) + merged_warnings(outs)
    return _results(
        outs, options, inputs, view, extras, counts, warnings, len(outs), products=products
    )


def merged_warnings(outs: list[ShardResult]) -> list:
    """The warnings of the shards ``outs`` (shard order) in the order of one process: phase
    by phase (each building step, then each pass's phases in report order), shard after
    shard."""
    warnings: list = []
    for phase in range(len(outs[0].marks)):
        for o in outs:
            start = o.marks[phase - 1] if phase else 0
            warnings.extend(o.warnings[start : o.marks[phase]])
    for task, _ in PASS_KINDS:
        pieces: list = []  # per phase of the pass: the shards' warnings
        for o in outs:
            for k, p in enumerate(o.passes):
                if p.task == task:
                    start = o.passes[k - 1].mark if k else o.marks[-1]
                    cuts = [start] + p.bounds + [p.mark]
                    for j in range(len(cuts) - 1):
                        if j == len(pieces):
                            pieces.append([])
                        pieces[j].extend(o.warnings[cuts[j] : cuts[j + 1]])
        for piece in pieces:
            warnings.extend(piece)
    for o in outs:
        end = o.passes[-1].mark if o.passes else o.marks[-1]
        warnings.extend(o.warnings[end:])
    return warnings


def assemble_whole(
    shard: ShardResult,
    options: Options,
    inputs: dict | None,
    skipped: SkipReport | None = None,
    run: Run | None = None,
    products: Products = NONE,
) -> Results:
    """The :class:`~acescore.report.results.Results` of the whole corpus scored as one
    shard in this process (:func:`acescore.run.pipeline.score`), after
    :func:`acescore.run.pipeline.load` has checked and built it: there is no plan to
    check, its warnings are in their order already (``--docs`` ones first), ``skipped``:
    what lenient mode skipped (:func:`acescore.rules.robust.build_corpora`), ``run``: the
    scoring run whose passes were kept (``Results.passes``), if any."""
    counts = list(shard.coverage)
    extras = _merged_extras([shard], options, products, whole=True)
    assert extras is not None, "a whole corpus's extras are always told"
    extras.skipped = skipped
    return _results(
        [shard], options, inputs, False, extras, counts, list(shard.warnings), None, run, products
    )


def _results(
    outs: list[ShardResult],
    options: Options,
    inputs: dict | None,
    view: bool,
    extras: _Extras,
    counts: list,
    warnings: list,
    shards: int | None,
    run: Run | None = None,
    products: Products = NONE,
) -> Results:
    """The Results of the shards ``outs`` (:func:`assemble`, :func:`assemble_whole`):
    every pass's section merged from theirs, and rendered."""
    params = options.parameter_set
    if extras.skipped is not None:
        counts += [extras.skipped.elements, extras.skipped.documents]
    sources = set().union(*(o.sources for o in outs))
    all_sources = sorted(sources)
    source_label = "" if not sources else (next(iter(sources)) if len(sources) == 1 else "MIXED")
    todo: list[PassParts] = []  # each pass with shards, in report order
    for task, kind in PASS_KINDS:
        parts = [p.data for o in outs for p in o.passes if p.task == task and p.data is not None]
        if parts:
            todo.append((task, kind, parts))
    rendered = _render_passes(todo, options, source_label, all_sources, view, products)
    dtds = set().union(*(o.dtds for o in outs))
    return Results(
        options,
        params,
        source_label,
        all_sources,
        header(params) + extras.documents,
        rendered,
        warnings,
        extras.skipped,
        {"ref": sum(o.n_docs[0] for o in outs), "sys": sum(o.n_docs[1] for o in outs)},
        ",".join(sorted(dtds)) or "none",
        extras.literature,
        run,
        inputs=inputs,
        coverage=Coverage(*counts),
        document_ids=extras.document_ids,
        shards=shards,
    )


def _merged_extras(
    outs: list[ShardResult], options: Options, products: Products, whole: bool = False
) -> _Extras | None:
    """What ``--docs``, ``--lenient``, ``-c``, ``-s`` and the JSON's literature metrics add
    to a run, from the shards' reports: ``warnings`` (--docs: first), ``skipped`` (--lenient:
    every shard's skips in canonical order), ``documents`` (-s: the document lists) and
    ``document_ids``, ``literature``; None where the shards cannot tell (the run in one
    process says what).  ``whole`` (:func:`assemble_whole`): only ``documents``,
    ``document_ids`` and ``literature``."""
    params = options.parameter_set
    out = _Extras()
    if whole:
        pass
    elif options.check_duplicates and len({tuple(p.task for p in o.passes) for o in outs}) > 1:
        return None  # -c: the phases of every shard's warnings must be the same
    elif options.docs is not None:
        found = [o.found for o in outs if o.found is not None]  # (every shard's: --docs)
        if len(found) != len(outs):
            return None
        try:
            for i, side in enumerate(("REF", "SYS")):
                out.warnings += docs_warnings(options, set().union(*(f[i] for f in found)), side)
        except AceUsageError:  # nothing listed on one side
            return None
    if options.lenient and not whole:
        skips = [o.skips for o in outs if o.skips is not None]  # (every shard's: --lenient)
        if len(skips) != len(outs):
            return None
        out.skipped = SkipReport(sorted((x for sk in skips for x in sk), key=Skip.sort_key))
        if len({x.sort_key() for x in out.skipped.reasons}) != len(out.skipped.reasons):
            return None  # an order the shards cannot tell
    listings, literature = products.listings, products.literature
    if options.summary and listings is not None:
        out.documents, out.document_ids = listings.merged_documents([o.documents for o in outs])
    if options.literature_metrics and literature is not None:
        out.literature = literature.merged_literature([o.literature for o in outs], params)
    return out


def _render_passes(
    todo: list[PassParts],
    options: Options,
    source_label: str,
    all_sources: list,
    keep: bool,
    products: Products = NONE,
) -> list:
    """The PassOutput of every pass of ``todo`` ((task, kind, the shards' SectionData)),
    in order.  With more than one process the passes are rendered in as many (the
    shards are done: the CPUs are free), in groups of about equal work -- records times
    conditions, B-cubed entries times theirs, plus what every pass costs (recognition
    text, JSON): the entity pass alone is two fifths of the rendering.  Not for the view
    (``keep``: its passes keep their merged tables here) nor with listings (their records
    would have to come back through a pipe)."""

    def render(item: PassParts) -> PassOutput:
        task, kind, parts = item
        return render_pass(
            task, kind, parts, options, source_label, all_sources, keep=keep, products=products
        )

    processes = concurrency(options.jobs)
    if keep or options.listings or processes < 2:
        return [render(item) for item in todo]
    return map_in_processes(
        render, todo, [_render_weight(parts) for _, _, parts in todo], processes
    )


def _render_weight(parts: list[SectionData]) -> int:
    """About how much rendering a pass's merged tables costs (see :func:`_render_passes`):
    fitted to the passes of 600 real-sized documents, where a record-and-condition costs
    ~22 ns, a B-cubed entry-and-condition twice as much and a pass ~3 ms besides."""
    first = parts[0]
    records = sum(len(p.doc_labels) + len(p.elem_labels) for p in parts)
    weight = 150_000 + records * len(first.keys)
    if first.b3:
        b3 = sum(len(side[0]) for p in parts if p.b3 for side in p.b3)
        weight += 2 * b3 * len(first.b3[0][2])
    return weight


def render_pass(
    task: str,
    kind: str,
    parts: list[SectionData],
    options: Options,
    source_label: str,
    all_sources: list,
    keep: bool = False,
    products: Products = NONE,
) -> PassOutput:
    """One pass's PassOutput from its shards' SectionData; ``keep`` (the view): only the
    merged PassTables and document costs (``merged``: the view's index reads them), no
    report text or data (the view's shards send no recognition counts); ``products``: the
    listings' code, if the run prints listings (:mod:`acescore.run.products`)."""
    params = options.parameter_set
    printed = any(p.printed for p in parts)
    code = products.listings
    listings, details = (
        code.merged_pass([p.listings for p in parts], options, printed)
        if code is not None
        else ([], {})
    )
    if not printed:
        return PassOutput(task, False, "", listing=listings)
    tables = merged_tables(parts)
    if keep:
        out = PassOutput(task, True, "", listing=listings)
        out.merged = (tables, merged_document_costs(parts))
        return out
    stats: dict = reduce(add_counts, (p.recognition for p in parts))  # (parts: not empty)
    costs = merged_document_costs(parts)
    section = parts[0]  # (its task and kind name the merged section)
    ace05 = options.doc_scores and params.nist == "ace05"  # -d inside the section
    text = [
        banner(task),
        detection_tables(section, params, all_sources, tables),
        ace05_document_scores_text(section, costs) if ace05 else "",
        recognition_text(task, kind, stats, params, source_label),
    ]
    if options.doc_scores and not ace05:
        text.append(document_scores_text(section, costs))
    out = PassOutput(task, True, "".join(text), listing=listings)
    if options.tables_data:
        out.data = dict(pass_json(section, params, all_sources, tables), **details)
        out.value = total_value(out.data)
    else:  # (a text report: its Value alone, for the gates and --score-only)
        out.value = pass_value(section, params, all_sources, tables)
    out.documents = documents_json(section, costs)
    return out
