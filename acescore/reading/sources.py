"""Source documents below a folder (``--source-dir`` of ``validate`` and ``view``).

Documents are found by file name: the file name of the APF ``URI``, then ``DOCID.sgm``, then
``DOCID`` (the LDC folders keep ``DOCID.sgm`` next to ``DOCID.apf.xml``).  A folder that does
not exist, holds no ``.sgm`` file, or holds a source for none of the documents asked for
is a usage error (one line, exit 2): it is the wrong folder, not a problem per document.
"""

from __future__ import annotations

import os

from acescore.model.errors import AceInputError, AceUsageError
from acescore.reading.discovery import walk_files
from acescore.reading.sgml import SourceText, read_source


class SourceIndex:
    """Source documents below a folder, found by file name; read once each."""

    def __init__(self, directory: str, entities: str = "raw"):
        if not os.path.isdir(directory):
            raise AceUsageError(
                f"--source-dir {directory}: "
                + ("no such folder" if not os.path.exists(directory) else "not a folder")
            )
        self.directory = directory
        self.entities = entities
        self.by_name: dict[str, str] = {}
        # links followed, each real folder once (no loop), no depth limit
        for path in walk_files(directory, lambda name: True):
            self.by_name.setdefault(os.path.basename(path), path)
        if not any(n.lower().endswith(".sgm") for n in self.by_name):
            raise AceUsageError(
                f"--source-dir {directory}: no source document (*.sgm) in this folder or below it"
            )
        self._cache: dict[str, SourceText | AceInputError] = {}
        self.dtd_checked: set = set()
        self.asked: list = []  # (DOCID, URI) of every find()
        self.found = 0

    def find(self, docid: str, uri: str | None) -> tuple[str | None, list[str]]:
        self.asked.append((docid, uri))
        tried = []
        for name in ([os.path.basename(uri)] if uri else []) + [docid + ".sgm", docid]:
            if name and name not in tried:
                tried.append(name)
                p = self.by_name.get(name)
                if p is not None:
                    self.found += 1
                    return p, tried
        return None, tried

    def require_some(self) -> None:
        """Raise the usage error of a wrong folder: documents were looked for (find) and
        not one of them has a source document here."""
        if self.asked and not self.found:
            docs = sorted(set(self.asked))
            d, u = docs[0]
            names = [os.path.basename(u)] if u else []
            raise AceUsageError(
                f"--source-dir {self.directory}: no source document for "
                + (
                    "the APF document"
                    if len(docs) == 1
                    else f"any of the {len(docs)} APF documents"
                )
                + " (looked for "
                + ", ".join(dict.fromkeys(names + [d + ".sgm"]))
                + (", ..." if len(docs) > 1 else "")
                + "): is it the wrong folder?"
            )

    def read(self, path: str) -> SourceText | AceInputError:
        """A SourceText, or the AceInputError that reading it gave."""
        r = self._cache.get(path)
        if r is None:
            try:
                r = read_source(path, self.entities)
            except AceInputError as e:
                r = e
            self._cache[path] = r
        return r

    @property
    def count(self) -> int:
        return sum(1 for v in self._cache.values() if isinstance(v, SourceText))
