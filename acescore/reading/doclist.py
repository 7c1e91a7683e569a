"""``--docs FILE``: the DOCIDs a run is restricted to, as the literature's split files give
them (one per line: ``dev.txt``, ``test.txt`` ...).

A line is a DOCID; blank lines and lines starting with ``#`` are ignored, and so is a
leading folder and a ``.sgm``/``.apf.xml``/``.apf`` ending (``nw/NW_DOC_1.sgm`` means
``NW_DOC_1``).  :func:`restrict` keeps the documents of REF and SYS that the list names.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Collection

from acescore.model.errors import AceInputError, AceUsageError
from acescore.model.limits import DEFAULT_MAX_BYTES
from acescore.model.text import decode_utf8
from acescore.reading.safe_read import read_bytes

_ENDING = re.compile(r"\.(sgm|apf\.xml|apf|xml)$", re.IGNORECASE)


def read_docids(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> list[str]:
    """The DOCIDs of a ``--docs`` file, in file order, without repeats.  The file is read
    as every input is (:func:`acescore.reading.safe_read.read_bytes`): a regular file of at
    most ``max_bytes`` -- a FIFO or a device is refused at once."""
    data = read_bytes(path, max_bytes, "the --docs file", "a list of DOCIDs")
    text = decode_utf8(data, path, "document lists")
    out: dict = {}
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if len(s.split()) != 1:
            raise AceInputError(f"not a DOCID: '{s[:60]}' (one DOCID per line)", path, n)
        s = _ENDING.sub("", re.split(r"[/\\]", s)[-1])
        out.setdefault(s, n)
    if not out:
        raise AceUsageError(f"--docs {path}: no DOCID in this file")
    return list(out)


def restrict(files: list, docids: Collection[str]) -> list:
    """The APF files (:class:`acescore.model.apf.ApfFile`) with only the documents whose DOCID is
    in ``docids``; files left without documents are dropped."""
    keep = set(docids)
    out = []
    for f in files:
        docs = tuple(d for d in f.documents if d.docid in keep)
        if len(docs) == len(f.documents):
            out.append(f)
        elif docs:
            out.append(dataclasses.replace(f, documents=docs))
    return out


def missing_note(given: str, docids: list, found: set, side: str) -> str:
    """A warning line for the listed DOCIDs that a side does not have ('' if none);
    ``given``: how the list was given (``--docs FILE``, ``docs=``)."""
    missing = [d for d in docids if d not in found]
    if not missing:
        return ""
    if given.startswith("--docs "):
        given = "--docs " + os.path.basename(given[len("--docs ") :])
    return (
        f"{given}: {len(missing)} of the {len(docids)} listed"
        f" DOCIDs {'is' if len(missing) == 1 else 'are'} not in {side} (e.g."
        f" {missing[0]})"
    )
