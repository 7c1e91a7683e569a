"""``acescore view --jobs N``: the site written in document shards.

Every page of a document depends on that document alone (under a local parameter set; under
a global one on its connected component, which a shard keeps whole), so the view goes with
the document shards of :mod:`acescore.run.shards`: each forked worker reads, builds and scores its
documents, writes their pages itself (it holds their passes) and sends back, besides the
records of every report section, what ``index.html`` needs of its documents (their SOURCE,
the sources missing, the warnings).  This process merges the sections as for ``score``
(the per-document values and the cost components of the index are those of the merged
report) and writes ``index.html`` and the shared assets.

The pages link to their neighbours in the sorted list of every document, so the page names
are fixed before the workers start, from the DOCIDs that planning read (the first bytes
of each REF file).  A worker writes its pages into a hidden folder of the site; they are
moved in place only once every shard has finished and the plan held.  Where it did not --
the shards of :func:`acescore.run.shards.score_paths` did not hold, a DOCID read differently
than planned, or a section printed by the whole run is not printed within a shard that
shows Values for it on its pages -- nothing of the shards is kept and :func:`write_site`
returns None: the caller writes the site in one process, as before.  The files are the same,
byte for byte, for every number of processes.
"""

from __future__ import annotations

import contextlib
import os

from acescore.model.errors import AceUsageError
from acescore.report.counts.sections import section_data
from acescore.report.counts.tables import PassTables
from acescore.run import execute
from acescore.run.assemble import PASS_KINDS
from acescore.run.shards import _docid, _read_head
from acescore.view.common import DocNumbers, TaskNumbers
from acescore.view.index import index_page
from acescore.view.page import ENTITY_LIKE, RELEVE
from acescore.view.site import Pages, Site, page_files, source_index, write_staged, write_view

#: bytes of a DOCID attribute that an XML parser may read differently (references,
#: whitespace it normalises): such a DOCID cannot name a page before the run
_UNSURE = (b"&", b"\t", b"\n", b"\r")


class ViewShard:
    """The ``extra`` of :func:`acescore.run.shards.score_paths` for the view: plans the page
    names (here), keeps what the pages need of every pass and writes them (in a worker)."""

    def __init__(self, params, index, source_dir: str | None, site: Site):
        self.params, self.index, self.source_dir, self.site = params, index, source_dir, site
        self.order: list = []  # every DOCID of the site, sorted
        self.files: dict = {}  # DOCID -> doc/NAME.html
        self.numbers: list = []  # in a worker: DocNumbers of every pass, in order
        self.views: list = []  # here: what finish() returned in every shard
        self.tasks: list = []  # here: TaskNumbers of the index (merge)

    def start(self, plans: list) -> bool:
        planned = []
        for rpaths, _ in plans:
            for p in rpaths:
                raw = _docid(_read_head(p, False))
                if raw is None or any(b in raw for b in _UNSURE):
                    return False
                try:
                    planned.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    return False
        if len(set(planned)) != len(planned):
            return False
        self.order = sorted(planned)
        self.files = page_files(self.order)
        return True

    def section(self, res, params, all_sources):
        """In a worker, for every pass: its section's records (one PassTables for both;
        no recognition counts: the view prints no report text)."""
        tables = PassTables(res)
        data = section_data(res, params, all_sources, True, tables, recognition=False)
        numbers = DocNumbers(res, tables, data.doc_costs)
        if res.task not in ENTITY_LIKE + RELEVE:
            numbers.values_only()
        self.numbers.append(numbers)
        return data

    def finish(self, rside, sside) -> dict | None:
        """In a worker, at the end: write the pages of the shard's documents (into the
        site's staging folder, inherited open); what the index needs of them, or None if a
        DOCID was not planned."""
        rdocs = rside.documents
        docs = sorted(rdocs)
        if any(d not in self.files for d in docs):
            return None
        doc_tasks = {n.task: n for n in self.numbers if n.task in ENTITY_LIKE + RELEVE}
        printed = tuple(n for n in self.numbers if n.printed)
        sources = {d: rdocs[d].source for d in docs}
        pages = Pages(
            self.params, self.index, self.source_dir, self.order, self.files, doc_tasks, printed
        )
        for d in docs:  # the stage is private: no temporary file and rename
            write_staged(self.site.fd, self.files[d], pages.page(d, rdocs[d], sources))
        index = self.index
        return {
            "docs": docs,
            "sources": sources,
            "missing": pages.missing,
            "notes": dict(zip(pages.missing, pages.notes)),
            "asked": list(index.asked) if index is not None else [],
            "found": index.found if index is not None else 0,
            # sections not printed in this shard whose Values its pages would show
            "hidden": [n.task for n in self.numbers if not n.printed and n.doc_values],
        }

    def merge(self, results, finished: list) -> bool:
        """Here, once the run is assembled (``results``): what :meth:`finish` returned in
        every shard.  False where the shards cannot make the site (a DOCID not planned or
        read differently, a section printed by the whole run and not by a shard that
        shows its Values on its pages): the run then goes in one process."""
        if any(v is None for v in finished):
            return False
        docs = sorted(d for v in finished for d in v["docs"])
        if docs != self.order:
            return False
        tasks = _index_numbers(results)
        shown = {t.task for t in tasks}
        if any(t in shown for v in finished for t in v["hidden"]):
            return False
        self.views, self.tasks = finished, tasks
        return True


def _index_numbers(results) -> list:
    """TaskNumbers of every printed section, from the tables and document costs the
    shards' records were merged into (``PassOutput.merged``, in report order)."""
    kinds = dict(PASS_KINDS)
    return [
        TaskNumbers(o.task, kinds[o.task], *o.merged, results.params, results.all_sources)
        for o in results.outputs
        if o.printed
    ]


def write_site(
    ref,
    sys_,
    options,
    source_dir: str | None,
    out_dir: str,
    *,
    entities: str = "raw",
    warnings: list | None = None,
) -> tuple:
    """Score REF ``ref`` against SYS ``sys_`` (paths as on the command line) and write the
    site: (the Results, the paths written).  In document shards where
    :func:`acescore.run.plan_run` finds them (each shard's worker writes its documents'
    pages into a hidden folder, moved in place once the run holds), else in this process
    (:func:`acescore.view.site.write_view`)."""
    created = not os.path.exists(out_dir)
    site = Site(out_dir)  # links in out_dir refused here, before the run
    published = False
    try:
        try:
            index = source_index(source_dir, entities)
        except AceUsageError:  # said after the run has read its input, in one process
            index, extra = None, None
        else:
            extra = ViewShard(options.parameter_set, index, source_dir, site)
        results = execute(ref, sys_, options, keep_passes=True, extra=extra)
        if results.shards is not None:
            files = _write_shards(results, extra, index, site, warnings)
        else:
            for name in os.listdir(site.doc_fd):  # pages of shards whose plan did not hold
                os.unlink(name, dir_fd=site.doc_fd)
            files = write_view(
                results, source_dir, out_dir, entities=entities, warnings=warnings, site=site
            )
        published = True
        return results, files
    finally:
        site.discard()
        if created and not published:
            with contextlib.suppress(OSError):
                os.rmdir(out_dir)


def _write_shards(results, extra: ViewShard, index, site: Site, warnings: list | None) -> list:
    """The site of a run in shards: the pages the workers staged, and ``index.html``,
    moved in place; the paths written."""
    views = extra.views
    docs = extra.order
    if index is not None:  # a wrong folder: a usage error, nothing written
        for v in views:
            index.asked.extend(v["asked"])
            index.found += v["found"]
        index.require_some()
    files = extra.files
    site.written.extend(os.path.join(site.out_dir, files[d]) for d in docs)
    sources, notes, missing = {}, {}, set()
    for v in views:
        sources.update(v["sources"])
        notes.update(v["notes"])
        missing.update(v["missing"])
    if warnings is not None:
        warnings.extend(notes[d] for d in docs if d in notes)
    site.write(
        "index.html",
        index_page(results, extra.tasks, docs, files, sources, [d for d in docs if d in missing]),
    )
    return site.publish()
