"""JSON formats of the event-extraction codebases, in and out of APF.

* :mod:`acescore.formats.oneie`, :mod:`acescore.formats.textee` (window per line) and
  :mod:`acescore.formats.dygiepp` (document per line): ``write(tokdocs)`` and
  ``read(text, path)``.
* :mod:`acescore.formats.tokens`: tokenizer, windows, alignment (the ACE offset rule);
  :mod:`acescore.formats.convert`: APF documents <-> tokens, what each format carries.

:func:`export_apf` and :func:`import_json` are what ``acescore export`` / ``import`` run.
"""

from __future__ import annotations

import os
import re
from importlib import import_module

from acescore.formats.convert import apf_to_tokdoc, tokdoc_to_document
from acescore.model.apf import ApfFile
from acescore.model.errors import AceInputError, AceUsageError
from acescore.model.options import Options
from acescore.model.params import DEFAULT_PARAMS
from acescore.reading.doclist import restrict
from acescore.reading.safe_read import read_text
from acescore.reading.sgml import read_source
from acescore.reading.writer import DEFAULT_DOCTYPE, apf_bytes
from acescore.run.pipeline import discover, read_corpus
from acescore.writing.names import inside, unique_names
from acescore.writing.output import write_file

FORMATS = ("oneie", "dygiepp", "textee")
_SOURCE = re.compile(r'<DOCTYPE[^>]*SOURCE="([^"]*)"', re.IGNORECASE)


def format_module(name: str):
    if name not in FORMATS:
        raise AceUsageError(f"unknown format '{name}' (one of {', '.join(FORMATS)})")
    return import_module(f"acescore.formats.{name}")


def source_index(source_dir: str) -> dict:
    """``{DOCID or file stem: path}`` of every ``.sgm`` under ``source_dir``."""
    if not os.path.isdir(source_dir):
        raise AceUsageError(f"--source-dir {source_dir}: not a directory")
    out = {}
    for root, _dirs, files in sorted(os.walk(source_dir)):
        for f in sorted(files):
            if f.endswith(".sgm"):
                p = os.path.join(root, f)
                out.setdefault(f[:-4], p)
                st = read_source(p)
                if st.docid:
                    out.setdefault(st.docid, p)
    return out


def _source(index: dict, docid: str, uri: str = ""):
    stem = os.path.basename(uri)[:-4] if uri.endswith(".sgm") else None
    p = index.get(docid) or (index.get(stem) if stem else None)
    if p is None:
        return None
    return read_source(p)


def export_apf(
    apf_spec,
    source_dir: str,
    fmt: str,
    span: str = "head",
    params: str = DEFAULT_PARAMS,
    report=None,
    tokens_as=None,
    options=None,
    skipped: list | None = None,
) -> str:
    """The JSON lines of the APF documents of ``apf_spec`` (file, directory, list) in
    ``fmt``; every document needs its source document in ``source_dir``.  What cannot be
    written is counted in ``report`` (:class:`acescore.formats.convert.ImportReport`).
    ``tokens_as``: other APF (same kind of spec) whose documents' bounds the tokens and
    windows respect too: REF and SYS exported each with the other come out on the same
    tokens and windows.  ``options`` (:class:`acescore.model.options.Options`, else one of
    ``params``): how the files are read (size limit, lenient, the documents of ``docs``);
    ``skipped``: where the reading problems a lenient run skipped are added."""
    mod = format_module(fmt)
    opts = options if options is not None else Options(params=params)
    corpus = read_corpus(discover(apf_spec, lenient=opts.lenient), opts)
    files = corpus.files
    if skipped is not None:
        skipped.extend(corpus.skipped)
    if opts.docs is not None:
        files = restrict(files, opts.docs)
    others: dict = {}
    if tokens_as is not None:
        for f in read_corpus(discover(tokens_as, lenient=opts.lenient), opts).files:
            for doc in f.documents:
                others.setdefault(doc.docid, []).append(doc)
    index = source_index(source_dir)
    tokdocs = []
    for f in files:
        for doc in f.documents:
            st = _source(index, doc.docid, doc.uri)
            if st is None:
                raise AceInputError(
                    f"no source document for DOCID {doc.docid} under"
                    f" {source_dir}; hint: --source-dir names the folder of"
                    f" the .sgm files",
                    f.path,
                )
            tokdocs.append(apf_to_tokdoc(doc, st.text, span, report, others.get(doc.docid, ())))
    return mod.write(tokdocs, report)


def import_json(
    path: str,
    fmt: str,
    source_dir: str,
    out_dir: str,
    report,
    argument_type=None,
    tokens_from=None,
    force: bool = False,
) -> list:
    """Write one APF file per document of the JSON file ``path`` into ``out_dir``; returns
    the paths written.  Everything dropped is counted in ``report``
    (:class:`acescore.formats.convert.ImportReport`); ``argument_type``: see
    :func:`acescore.formats.convert.tokdoc_to_document`; ``tokens_from``: see
    :mod:`acescore.formats.textee`; ``force``: remove the APF files ``out_dir`` holds (else
    they are an error: they would be scored with the new ones)."""
    mod = format_module(fmt)
    old = [
        f
        for f in (os.listdir(out_dir) if os.path.isdir(out_dir) else ())
        if f.endswith((".apf.xml", ".apf"))
    ]
    if old and not force:
        raise AceUsageError(
            f"{out_dir} already holds APF files ({old[0]}, ...); hint: another"
            f" folder, or --force to remove them first"
        )
    text = read_text(path, "prediction file")
    if tokens_from is not None and fmt != "textee":
        raise AceUsageError("--tokens-from goes with --from textee only")
    tokdocs = mod.read(text, path, tokens_from) if tokens_from else mod.read(text, path)
    index = source_index(source_dir)
    outputs = []
    for td in tokdocs:
        st = _source(index, td.docid)
        if st is None:
            report.drop("documents without a source document", td.docid)
            continue
        m = _SOURCE.search(st.raw)
        source = m.group(1) if m else ""
        doc = tokdoc_to_document(
            td, st.text, source, os.path.basename(st.path), report, argument_type
        )
        outputs.append((td.docid, apf_bytes(ApfFile("", (doc,)), DEFAULT_DOCTYPE)))
    os.makedirs(out_dir, exist_ok=True)
    for f in old:
        os.remove(os.path.join(out_dir, f))
    written = []
    names = unique_names([docid for docid, _ in outputs])
    for docid, data in outputs:
        p = inside(out_dir, f"{names[docid]}.apf.xml")
        write_file(p, data)  # whole or not at all
        written.append(p)
    return written
