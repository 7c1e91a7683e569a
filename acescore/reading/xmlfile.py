"""Reading an XML file safely (01-input.md §2.1), and the DOCIDs of one that cannot be read.

lxml parses without external entities, DTD loading or network access; files are checked
for size, UTF-8, entity declarations and undefined entity references first.  Text and
attribute values come out as written, as the NIST tool reads them (reading/as_written.py).  Every problem
is a one-line :class:`~acescore.errors.AceInputError` naming the file (and line).
"""
from __future__ import annotations

import os
import re

from lxml import etree

from acescore.errors import AceInputError
from acescore.reading.as_written import as_written
from acescore.reading.text import decode_utf8

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
# A reference to a named entity other than the five XML predefined ones.  With an external
# DOCTYPE, libxml2 accepts such a reference without a declaration and silently drops it
# (in attributes) or keeps an unexpanded entity node (cutting a charseq's text short).
_ENTITY_REF = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);)([A-Za-z_:][-A-Za-z0-9._:]*);")
# the DOCIDs of a file that cannot be parsed (lenient mode skips them on both sides)
_DOCID_TAG = re.compile(r"""<document\b[^>]*?\bDOCID\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SCAN_BYTES = 1 << 20


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_comments=True,
                           remove_pis=True)


def parse_xml(path: str, max_bytes: int = DEFAULT_MAX_BYTES):
    """Parse an XML file safely; returns the lxml tree.  Errors are one-line
    :class:`AceInputError`s (missing file, size limit, encoding, malformed XML, entities)."""
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise AceInputError(f"cannot open file: {e.strerror}", path) from None
    if os.path.isdir(path):
        raise AceInputError("is a directory, not an APF file", path)
    if size > max_bytes:
        raise AceInputError(f"file is larger than the limit of {max_bytes} bytes ({size} bytes)",
                            path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise AceInputError(f"cannot read file: {e.strerror}", path) from None
    decode_utf8(data, path, "APF files")
    head = data[:200].lower()
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml") and \
            b"encoding=" in head.split(b"?>")[0]:
        decl = head.split(b"?>")[0]
        enc = decl.split(b"encoding=")[1][1:].split(decl.split(b"encoding=")[1][:1])[0]
        if enc.replace(b"-", b"").replace(b"_", b"") not in (b"utf8", b"usascii", b"ascii"):
            raise AceInputError(f"declares encoding '{enc.decode('ascii', 'replace')}';"
                                " only UTF-8 is supported", path, 1)
    if b"<!ENTITY" in data:
        idx = data.index(b"<!ENTITY")
        raise AceInputError("entity declarations are not allowed (external/internal entities"
                            " are never expanded)", path, data[:idx].count(b"\n") + 1)
    if b"&" in data:
        m = _ENTITY_REF.search(data)
        if m is not None:
            name = m.group(1).decode("utf-8", "replace")
            raise AceInputError(f"undefined entity reference '&{name};' (only &amp; &lt; &gt;"
                                " &quot; &apos; and character references are allowed)", path,
                                data[:m.start()].count(b"\n") + 1)
    try:
        return etree.fromstring(as_written(data), _parser()).getroottree()
    except etree.XMLSyntaxError as e:
        line = e.lineno if e.lineno else None
        msg = e.msg or str(e)
        # lxml messages end with "(line N, column M)" -- the line is given separately.
        if ", line " in msg:
            msg = msg.rsplit(", line ", 1)[0]
        msg = " ".join(msg.split())     # one line (some messages end with a newline)
        raise AceInputError(f"malformed XML: {msg}", path, line) from None


def guess_docid(path: str) -> str:
    base = os.path.basename(path)
    for suffix in (".apf.xml", ".apf", ".xml"):
        if base.endswith(suffix):
            return base[:-len(suffix)]
    return base


def scan_docids(path: str) -> tuple[tuple[str, ...], bool]:
    """DOCIDs named in the ``document`` tags of a file that cannot be read properly, and
    whether they were found (False: the DOCID is guessed from the file name)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_SCAN_BYTES)
    except OSError:
        data = b""
    found = []
    for m in _DOCID_TAG.finditer(data.decode("utf-8", "replace")):
        v = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        if v and v not in found:
            found.append(v)
    if found:
        return tuple(found), True
    return (guess_docid(path),), False
