"""The inputs of a run: finding the APF files (:func:`discover`), reading them (a
:class:`Corpus` per side), ``--docs`` and a document shard's files (:func:`read_shard`),
and how messages name an input (:func:`spec_label`)."""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import field
from typing import TypeAlias

from acescore.model.errors import AceInputError, AceUsageError
from acescore.model.options import Options
from acescore.model.problems import Collect
from acescore.model.records import dataclass
from acescore.reading import discovery
from acescore.reading.apf import read_apf
from acescore.reading.doclist import missing_note, restrict
from acescore.rules.coverage import what_is_there
from acescore.rules.robust import isolate, with_side

PathLike: TypeAlias = str | os.PathLike[str]
Progress: TypeAlias = Callable[[int, int], None] | None
#: an input given as paths (:func:`discover`): a path, or a list or tuple of paths
Paths: TypeAlias = PathLike | list[PathLike] | tuple[PathLike, ...]


@contextlib.contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Scoring builds millions of small acyclic objects; Python's cyclic collector would
    rescan them over and over (a third of the run time) and frees nothing.  Reference
    counting still frees everything as usual."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def discover(spec: Paths, list_file: bool = False, lenient: bool = False) -> list[str]:
    """APF paths from a file, a directory (recursive ``*.apf.xml``/``*.apf``), a list file
    (one path per line; ``list_file`` says it is one whatever it looks like) or a sequence
    of those.  ``lenient``: a list entry (or an item of the sequence) that names nothing is
    kept (and skipped, with a warning, when read) instead of being an error: the one
    policy of every command and of the API."""
    if isinstance(spec, (list, tuple)):
        out = []
        for s in spec:
            if lenient and not os.path.lexists(s):  # as a list file's entry
                out.append(os.fspath(s))
                continue
            out.extend(discover(s, list_file, lenient))
        return out
    path = os.fspath(spec)
    return (
        discovery.read_list(path, keep_missing=lenient)
        if list_file
        else discovery.discover(path, lenient)
    )


@dataclass
class Corpus:
    """The APF files of one side, read.  ``skipped``: the reading problems isolated in
    lenient mode (:class:`acescore.rules.robust.Skip`)."""

    files: list
    skipped: list = field(default_factory=list)

    @property
    def sources_in_order(self) -> list[str]:
        out = []
        for f in self.files:
            out.extend(f.sources)
        return out


def read_corpus(
    paths: Sequence[str], options: Options, progress: Progress = None, errors: list | None = None
) -> Corpus:
    """Read APF files.  ``progress(done, total)`` is called after each file if given.
    Lenient: broken elements/documents are skipped (acescore.rules.robust); ``errors``: collect
    each file's fatal error there instead of stopping at the first."""
    params = options.parameter_set
    files: list = []
    skipped: list = []
    paths = list(paths)
    for k, p in enumerate(paths, 1):
        if progress is not None:
            progress(k, len(paths))
        if options.lenient:
            f = read_apf(p, params, options.max_bytes, Collect(skipped))
            if f is not None:
                files.append(f)
            continue
        try:
            files.append(read_apf(p, params, options.max_bytes))
        except AceInputError as e:
            if errors is None:
                raise
            errors.append(e)
    return Corpus(files, skipped)


def raise_if_not_apf(e: AceInputError, side: str, spec: Paths | Corpus) -> None:
    """A file that cannot be read because it is no APF at all (an HTML page, a source
    document) means nothing to score, and says so."""
    if e.path and os.path.isfile(e.path):
        what = what_is_there(e.path)
        if what.startswith(("an HTML", "an ACE source")):
            where = spec_label(spec)
            if os.path.abspath(where) != os.path.abspath(e.path):
                where += f" ({e.path})"
            raise AceUsageError(
                f"nothing to score: {side} {where} holds no APF document: {what}"
            ) from None


def spec_label(spec: Paths | Corpus) -> str:
    """An input as messages and the JSON ``inputs`` name it."""
    if isinstance(spec, (str, os.PathLike)):
        return os.fspath(spec)
    if isinstance(spec, Corpus):
        return f"{len(spec.files)} APF files read"
    names = sorted(os.fspath(s) for s in spec)
    return names[0] if len(names) == 1 else f"{len(names)} paths ({names[0]}, ...)"


def restrict_corpus(corpus: Corpus, options: Options, side: str, warnings: list) -> Corpus:
    """``--docs``: the documents of ``corpus`` that the list names (a warning line for the
    listed DOCIDs the side does not have)."""
    warnings.extend(
        docs_warnings(options, {d.docid for f in corpus.files for d in f.documents}, side)
    )
    return Corpus(restrict(corpus.files, _listed(options)), corpus.skipped)


def docs_warnings(options: Options, found: set, side: str) -> list:
    """``--docs``: the warning line (if any) for the listed DOCIDs that a side with the
    documents ``found`` does not have; none of them there is an error."""
    docs = _listed(options)
    # named as it was given: --docs FILE on the command line, docs= in Python
    given = f"--docs {options.docs_file}" if options.docs_file else "docs="
    if found and not found & set(docs):
        raise AceUsageError(
            f"nothing to score: none of the {len(docs)} DOCIDs of"
            f" {given} is in {side} (e.g. {docs[0]} is"
            f" not; {side} has {sorted(found)[0]}, ...)"
        )
    note = missing_note(given, list(docs), found, side)
    return [f"acescore: warning: {note}\n"] if note else []


def _listed(options: Options) -> tuple:
    """The ``--docs`` DOCIDs (what is called with ``--docs`` only reads them)."""
    assert options.docs is not None, "called with --docs only"
    return options.docs


def read_shard(rpaths: list, spaths: list, options: Options) -> tuple:
    """The files of a document shard (:mod:`acescore.run.shards`) read as :func:`load` reads a
    corpus: (REF files, SYS files, with ``--docs`` the DOCIDs of every file read per side
    (else None), with ``--lenient`` every skip (else None)); with ``--docs`` only the
    listed documents are kept, with ``--lenient`` what the reading problems and the input
    rules find broken is left out (:func:`acescore.rules.robust.isolate`)."""
    skips: list | None = None
    if options.lenient:
        rc, sc = read_corpus(rpaths, options), read_corpus(spaths, options)
        rfiles, sfiles = rc.files, sc.files
        skips = with_side(rc.skipped, "REF") + with_side(sc.skipped, "SYS")
    else:
        params = options.parameter_set
        rfiles = [read_apf(p, params, options.max_bytes) for p in rpaths]
        sfiles = [read_apf(p, params, options.max_bytes) for p in spaths]
    found = None
    if options.docs is not None:
        found = [{d.docid for f in files for d in f.documents} for files in (rfiles, sfiles)]
        rfiles, sfiles = restrict(rfiles, options.docs), restrict(sfiles, options.docs)
    if skips is not None:
        rfiles, sfiles, skips = isolate(rfiles, sfiles, skips)
    return rfiles, sfiles, found, skips
