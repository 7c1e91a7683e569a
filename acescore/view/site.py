"""A static HTML site for error analysis: reference against system output, document by
document (``acescore view``).

:func:`write_view` writes into ``out_dir``:

* ``index.html`` -- per task the total Value, per document the Value of every task (the
  numbers of the NIST ``-d`` output, :func:`~acescore.report.counts.tables.document_costs`),
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
report's own cells (:class:`~acescore.report.counts.tables.PassTables`) with
:func:`~acescore.report.counts.rows.format_row` and reading the formatted fields back, so the
strings on the page are the strings of the report.  (Only the columns that do not depend on
the B-cubed scores are shown: counts, costs and Value.)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from importlib import resources

from acescore.model.errors import AceInputError
from acescore.reading.sources import SourceIndex
from acescore.report.counts.tables import PassTables, document_costs
from acescore.view.common import DocNumbers, TaskNumbers, safe_name
from acescore.view.index import index_page
from acescore.view.page import ENTITY_LIKE, RELEVE, DocPage
from acescore.writing.output import OutputError

# ---- the site ------------------------------------------------------------------------------

#: the static files (package data under acescore/view/static/)
ASSETS = ("view.css", "view.js")


def asset_text(name: str) -> str:
    return resources.files("acescore.view").joinpath("static", name).read_text("utf-8")


def page_files(docs: list) -> dict:
    """DOCID -> the page of each document (``doc/NAME.html``), for ``docs`` sorted; names
    that differ only in case are made unique in that order."""
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
    return files


def source_of(index, source_dir: str | None, d: str, doc) -> tuple:
    """(the SourceText of document ``d`` or None, the note shown on its page, whether its
    source is missing)."""
    if doc.data_type != "text":
        return None, f"{doc.data_type} document: no text to show", False
    if index is None:
        return None, "no --source-dir given: no text to show", False
    path, tried = index.find(d, doc.uri)
    if path is None:
        return (
            None,
            (f"source document not found below {source_dir} (looked for " + ", ".join(tried) + ")"),
            True,
        )
    r = index.read(path)
    if isinstance(r, AceInputError):
        return None, f"cannot read source document: {r}", True
    if r.docid is not None and r.docid != d:
        return r, f"the source document {path} has DOCID {r.docid}", False
    return r, "", False


class Pages:
    """Writes the pages of some documents of the site: ``order`` is every document of the
    site, sorted, ``files`` their pages (:func:`page_files`); ``printed`` the
    :class:`DocNumbers` of the report's sections, ``doc_tasks`` those of the element passes
    (by kind).  Collects the documents whose source is missing and the notes to warn of."""

    def __init__(
        self,
        params,
        index,
        source_dir: str | None,
        order: list,
        files: dict,
        doc_tasks: dict,
        printed: tuple,
    ):
        self.params, self.index, self.source_dir = params, index, source_dir
        self.order, self.files = order, files
        self.pos = {d: i for i, d in enumerate(order)}
        self.doc_tasks, self.printed = doc_tasks, printed
        self.missing: list = []
        self.notes: list = []  # the warnings, in document order

    def page(self, d: str, doc, sources: dict) -> bytes:
        """The page of document ``d`` (UTF-8)."""
        source, note, missing = source_of(self.index, self.source_dir, d, doc)
        if missing:
            self.missing.append(d)
            self.notes.append(f"view: {d}: {note}\n")
        pos, order = self.pos[d], self.order
        prev_f = os.path.basename(self.files[order[pos - 1]]) if pos > 0 else None
        next_f = os.path.basename(self.files[order[pos + 1]]) if pos + 1 < len(order) else None
        dp = DocPage(d, self.params, self.doc_tasks, source, note, (prev_f, next_f), self.printed)
        return dp.render(sources)


def pass_numbers(passes: list, params, all_sources) -> tuple[list, dict, tuple]:
    """(TaskNumbers of the printed passes, DocNumbers of the element passes by kind,
    DocNumbers of the printed passes) of the PassResults of one process."""
    tasks, doc_tasks, printed = [], {}, []
    for res in passes:
        if not (res.printed or res.task in ENTITY_LIKE + RELEVE):
            continue
        tables = PassTables(res)
        costs = document_costs(res, tables)
        dn = DocNumbers(res, tables, costs)
        if res.printed:
            tasks.append(TaskNumbers(res.task, res.kind, tables, costs, params, all_sources))
            printed.append(dn)
        if res.task in ENTITY_LIKE + RELEVE:
            doc_tasks[res.task] = dn
    return tasks, doc_tasks, tuple(printed)


def source_index(source_dir: str | None, entities: str):
    """The SourceIndex of ``--source-dir`` (None without it); a usage error for a folder
    that is no folder or holds no source document."""
    if not source_dir:
        return None
    return SourceIndex(source_dir, entities)


class Site:
    """The files of the site, built in a private staging folder and moved into ``out_dir``
    at the end (:meth:`publish`); never written through a symbolic link.

    The staging folder is made inside ``out_dir`` (the same file system, so the files move
    by rename) by :func:`tempfile.mkdtemp` (a fresh name, mode 0700: nobody else can put a
    link in it) and held open: every file is created relative to that descriptor with
    ``O_NOFOLLOW``.  :meth:`publish` renames each file over its place (a rename replaces a
    link, it never writes to the link's target) and opens the folders ``doc`` and
    ``assets`` of ``out_dir`` with ``O_NOFOLLOW``.  A link at ``index.html``, ``doc`` or
    ``assets`` of ``out_dir`` (a folder prepared by someone else, e.g. in a shared
    temporary folder) is refused before anything is written (:func:`refuse_links`).
    :meth:`discard` removes what is left of the staging folder."""

    def __init__(self, out_dir: str):
        self.out_dir = out_dir
        self.written: list = []  # the final paths, in the order written
        refuse_links(out_dir)
        os.makedirs(out_dir, exist_ok=True)
        self.stage = tempfile.mkdtemp(prefix=".acescore-view.", dir=out_dir)
        self.fd = os.open(self.stage, _DIR_FLAGS)
        self.doc_fd = -1
        try:
            for sub in SUBFOLDERS:
                os.mkdir(sub, dir_fd=self.fd)
            self.doc_fd = os.open("doc", _DIR_FLAGS, dir_fd=self.fd)
            for name in ASSETS:
                self.write(f"assets/{name}", asset_text(name))
        except BaseException:
            self.discard()
            raise

    def write(self, rel: str, text) -> None:
        """Stage ``rel`` (``index.html``, ``doc/NAME.html``, ``assets/NAME``)."""
        write_staged(self.fd, rel, text)
        self.written.append(os.path.join(self.out_dir, rel))

    def publish(self) -> list:
        """Move the staged files into ``out_dir`` (the pages and assets first, then
        ``index.html``); the paths written.  Both folders of ``out_dir`` are opened (never
        through a link) before anything moves."""
        out_fd = os.open(self.out_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        dests: list = []
        try:
            for sub in SUBFOLDERS:
                dests.append(_open_folder(out_fd, sub, self.out_dir))
            for sub, dst in zip(SUBFOLDERS, dests):
                _move_folder(self.fd, out_fd, sub, dst)
            if "index.html" in os.listdir(self.fd):
                os.rename("index.html", "index.html", src_dir_fd=self.fd, dst_dir_fd=out_fd)
        finally:
            for fd in (out_fd, *dests):
                if fd is not None:
                    os.close(fd)
        self.discard()
        return self.written

    def discard(self) -> None:
        """Remove the staging folder and whatever is still in it."""
        for fd in (self.doc_fd, self.fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.fd = self.doc_fd = -1
        shutil.rmtree(self.stage, ignore_errors=True)


#: the folders of the site
SUBFOLDERS = ("assets", "doc")
#: a folder opened to create files in it: never through a link
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


def write_staged(folder_fd: int, rel: str, text) -> None:
    """Write ``text`` (str, as UTF-8, or bytes) to ``rel`` below the folder open as
    ``folder_fd`` (a staging folder of :class:`Site`), following no link."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    sub, name = os.path.split(rel)
    dfd = os.open(sub, _DIR_FLAGS, dir_fd=folder_fd) if sub else folder_fd
    try:
        fd = os.open(name, _FILE_FLAGS, 0o666, dir_fd=dfd)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
    finally:
        if sub:
            os.close(dfd)


def refuse_links(out_dir: str) -> None:
    """An :class:`OutputError` if ``index.html``, ``doc`` or ``assets`` of ``out_dir`` is a
    symbolic link (or ``doc``/``assets`` anything but a folder): the view writes nothing
    through a link."""
    for name in ("index.html", *SUBFOLDERS):
        path = os.path.join(out_dir, name)
        if os.path.islink(path):
            raise OutputError(
                f"{path}: is a symbolic link; acescore view writes nothing through a link"
                " (remove it, or choose another folder)"
            )
        if name in SUBFOLDERS and os.path.lexists(path) and not os.path.isdir(path):
            raise OutputError(f"{path}: exists and is not a folder")


def _open_folder(out_fd: int, sub: str, out_dir: str) -> int | None:
    """The folder ``sub`` of ``out_dir`` opened without following a link; None if there
    is none; an :class:`OutputError` for a link or a file (put there during the run)."""
    try:
        return os.open(sub, _DIR_FLAGS, dir_fd=out_fd)
    except FileNotFoundError:
        return None
    except OSError as e:  # a link (ELOOP) or not a folder (ENOTDIR)
        raise OutputError(
            f"{os.path.join(out_dir, sub)}: not a folder or a symbolic link ({e.strerror});"
            " acescore view writes nothing through a link"
        ) from None


def _move_folder(stage_fd: int, out_fd: int, sub: str, dst: int | None) -> None:
    """The staged folder ``sub`` into ``out_dir`` (open as ``out_fd``): renamed into place
    if ``out_dir`` has none (``dst`` None; a link put there meanwhile: ENOTDIR, not
    followed), else its files renamed one by one into the folder open as ``dst``."""
    if dst is None:
        os.rename(sub, sub, src_dir_fd=stage_fd, dst_dir_fd=out_fd)
        return
    src = os.open(sub, _DIR_FLAGS, dir_fd=stage_fd)
    try:
        for name in sorted(os.listdir(src)):
            os.rename(name, name, src_dir_fd=src, dst_dir_fd=dst)
    finally:
        os.close(src)


def write_view(
    results,
    source_dir: str | None,
    out_dir: str,
    *,
    entities: str = "raw",
    warnings: list | None = None,
    site: Site | None = None,
) -> list[str]:
    """Write the site for ``results`` (an :class:`acescore.api.Results`) into ``out_dir``;
    source documents are looked up below ``source_dir`` (by the file name of the APF
    ``URI``, then ``DOCID.sgm``, then ``DOCID``).  Returns the paths written.  Problems
    with source documents (missing, unreadable) do not stop the run: they are shown on the
    pages and appended to ``warnings``, if given.  ``site``: the :class:`Site` to stage
    the files in (made here if None; published and discarded here in either case)."""
    rdocs = results.run.ref.documents
    docs = sorted(rdocs)
    index = source_index(source_dir, entities)
    if index is not None:  # a wrong folder is a usage error, before anything is written
        for d in docs:
            if rdocs[d].data_type == "text":
                index.find(d, rdocs[d].uri)
        index.require_some()
    site = Site(out_dir) if site is None else site
    try:
        _write_pages(results, site, index, source_dir, docs, warnings)
        return site.publish()
    finally:
        site.discard()


def _write_pages(results, site: Site, index, source_dir, docs: list, warnings) -> None:
    """Stage every page of the site and ``index.html``."""
    rdocs = results.run.ref.documents
    params = results.params
    tasks, doc_tasks, printed = pass_numbers(results.passes, params, results.all_sources)
    sources = {d: rdocs[d].source for d in docs}
    files = page_files(docs)
    pages = Pages(params, index, source_dir, docs, files, doc_tasks, printed)
    for d in docs:
        site.write(files[d], pages.page(d, rdocs[d], sources))
    if warnings is not None:
        warnings.extend(pages.notes)
    site.write("index.html", index_page(results, tasks, docs, files, sources, pages.missing))
