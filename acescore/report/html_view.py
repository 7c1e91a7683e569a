"""A static HTML site for error analysis: reference against system output, document by
document (``acescore view``).

:func:`write_view` writes into ``out_dir``:

* ``index.html`` -- per task the total Value, per document the Value of every task (the
  numbers of the NIST ``-d`` output, :func:`~acescore.report.nist_report.document_costs`),
  sortable; and bar charts (inline SVG) of the unconditioned cost components by TYPE, LEVEL
  or SOURCE, each with its numbers in a table.
* ``doc/<DOCID>.html`` -- one page per evaluated document: the source text (ACE offsets,
  :func:`~acescore.reading.sgml.read_source`) with REF mentions underlined and SYS mentions
  overlined (thick with a tint: the head), one colour per mapped pair; misses, false alarms
  and attribute errors marked and explained on hover; tables of the document's entities,
  values, timex2, relations and events with mapping, value and cost components, each row
  linked to its mentions in the text.
* ``assets/view.css`` and ``assets/view.js`` -- plain CSS and a little vanilla JavaScript.

The site needs no server and no network: open ``index.html`` from disk.

Every number is taken from the code that writes the text report, never recomputed: the
per-document values from :func:`document_costs`, the table numbers by formatting the
report's own cells (:class:`~acescore.report.tables.PassTables`) with
:func:`~acescore.report.tables.format_row` and reading the formatted fields back, so the
strings on the page are the strings of the report.  (Only the columns that do not depend on
the B-cubed scores are shown: counts, costs and Value.)
"""
from __future__ import annotations

import os
from typing import Optional

from acescore.errors import AceInputError
from acescore.output import write_file
from acescore.report.view_common import TaskNumbers, safe_name
from acescore.report.view_index import index_page
from acescore.report.view_page import ENTITY_LIKE, RELEVE, DocPage

# ---- the site ------------------------------------------------------------------------------

#: the static files (package data under acescore/report/static/)
ASSETS = ("view.css", "view.js")


def asset_text(name: str) -> str:
    from importlib import resources
    return resources.files("acescore.report").joinpath("static", name).read_text("utf-8")


def write_view(results, source_dir: Optional[str], out_dir: str, *, entities: str = "raw",
               warnings: Optional[list] = None) -> list[str]:
    """Write the site for ``results`` (an :class:`acescore.api.Results`) into ``out_dir``;
    source documents are looked up below ``source_dir`` (by the file name of the APF
    ``URI``, then ``DOCID.sgm``, then ``DOCID``).  Returns the paths written.  Problems
    with source documents (missing, unreadable) do not stop the run: they are shown on the
    pages and appended to ``warnings``, if given."""
    rdocs0 = results.run.ref.documents
    index = None
    if source_dir:              # a wrong folder is a usage error, before anything is written
        from acescore.reading.sources import SourceIndex
        index = SourceIndex(source_dir, entities)
        for d in sorted(rdocs0):
            if rdocs0[d].data_type == "text":
                index.find(d, rdocs0[d].uri)
        index.require_some()
    os.makedirs(os.path.join(out_dir, "doc"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "assets"), exist_ok=True)
    written = []

    def write(rel: str, text: str) -> None:
        path = os.path.join(out_dir, rel)
        write_file(path, text)        # whole or not at all
        written.append(path)

    for name in ASSETS:
        write(f"assets/{name}", asset_text(name))

    params = results.params
    tasks = [TaskNumbers(res, params, results.all_sources) for res in results.passes
             if res.printed]
    by_name = {t.task: t for t in tasks}
    # every pass (also those not printed) is used for the document pages
    doc_tasks = {}
    for res in results.passes:
        if res.task in ENTITY_LIKE + RELEVE:
            doc_tasks[res.task] = by_name.get(res.task) or TaskNumbers(res, params,
                                                                       results.all_sources)
    rdocs = results.run.ref.documents
    docs = sorted(rdocs)
    sources = {d: rdocs[d].source for d in docs}
    files: dict = {}
    used: set = set()
    for d in docs:
        name = safe_name(d)
        base, n = name, 1
        while name.lower() in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name.lower())
        files[d] = f"doc/{name}.html"

    missing = []
    for pos, d in enumerate(docs):
        doc = rdocs[d]
        source, note = None, ""
        if doc.data_type != "text":
            note = f"{doc.data_type} document: no text to show"
        elif index is None:
            note = "no --source-dir given: no text to show"
        else:
            path, tried = index.find(d, doc.uri)
            if path is None:
                note = (f"source document not found below {source_dir} (looked for "
                        + ", ".join(tried) + ")")
                missing.append(d)
            else:
                r = index.read(path)
                if isinstance(r, AceInputError):
                    note = f"cannot read source document: {r}"
                    missing.append(d)
                else:
                    source = r
                    if r.docid is not None and r.docid != d:
                        note = f"the source document {path} has DOCID {r.docid}"
        if note and warnings is not None and d in missing:
            warnings.append(f"view: {d}: {note}\n")
        prev_f = os.path.basename(files[docs[pos - 1]]) if pos > 0 else None
        next_f = os.path.basename(files[docs[pos + 1]]) if pos + 1 < len(docs) else None
        dp = DocPage(d, results, doc_tasks, source, note, (prev_f, next_f), tuple(tasks))
        write(files[d], dp.render(sources))
    write("index.html", index_page(results, tasks, docs, files, sources, missing))
    return written
