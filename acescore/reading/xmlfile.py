"""Reading an XML file safely (docs/rules/input.md §2.1), and the DOCIDs of one that cannot be read.

lxml parses without external entities, DTD loading or network access.  The file is read
through :func:`acescore.reading.safe_read.read_bytes` (regular files only, at most
``max_bytes``) and must be UTF-8.  Whether its XML declaration names another encoding is
decided by the parser (the encoding it actually reads the file with), never by a pattern,
so no spelling of a declaration makes a file be read as Latin-1.  Entity declarations and
references to undefined entities are refused -- except inside comments, CDATA sections and
processing instructions, where XML gives them no meaning.  Every problem is a one-line
Text and attribute values come out as written, as the NIST tool reads them
(reading/as_written.py).  Every problem is a one-line
:class:`~acescore.model.errors.AceInputError` naming the file (and line).
"""

from __future__ import annotations

import os
import re
from typing import Any

from lxml import etree

from acescore.model.errors import AceInputError
from acescore.model.limits import DEFAULT_MAX_BYTES
from acescore.model.text import decode_utf8
from acescore.reading.as_written import as_written
from acescore.reading.safe_read import read_bytes

# A reference to a named entity other than the five XML predefined ones.  With an external
# DOCTYPE, libxml2 accepts such a reference without a declaration and silently drops it
# (in attributes) or keeps an unexpanded entity node (cutting a charseq's text short).
_ENTITY_REF = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);)([A-Za-z_:][-A-Za-z0-9._:]*);")
# the DOCIDs of a file that cannot be parsed (lenient mode skips them on both sides)
_DOCID_TAG = re.compile(r"""<document\b[^>]*?\bDOCID\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SCAN_BYTES = 1 << 20


def _parser(encoding: str | None = None) -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        encoding=encoding,
    )


def _first_outside_markup(data: bytes, pattern: bytes) -> re.Match[bytes] | None:
    """The first match of ``pattern`` in ``data`` that is not inside a comment, a CDATA
    section or a processing instruction (where XML gives it no meaning), or None."""
    rx = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|(" + pattern + rb")", re.S)
    for m in rx.finditer(data):
        if m.group(1) is not None:
            return m
    return None


def _utf8_name(encoding: str | None) -> bool:
    return (encoding or "UTF-8").upper().replace("-", "").replace("_", "") in (
        "UTF8",
        "USASCII",
        "ASCII",
    )


def _syntax_message(e: etree.XMLSyntaxError) -> str:
    msg = e.msg or str(e)
    # lxml messages end with "(line N, column M)" -- the line is given separately.
    if ", line " in msg:
        msg = msg.rsplit(", line ", 1)[0]
    return " ".join(msg.split())  # one line (some messages end with a newline)


def parse_xml(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """Parse an XML file safely; returns the lxml tree.  Errors are one-line
    :class:`AceInputError`s (missing file, not a regular file, size limit, encoding,
    malformed XML, entities).

    The file must be UTF-8.  Whether its XML declaration says otherwise is decided by the
    parser itself (the encoding it actually read the file with), never by a pattern: a
    declaration naming another encoding, however it is spaced or padded, is refused rather
    than read as Latin-1 or anything else."""
    data = read_bytes(path, max_bytes, "", "an APF file")
    if not data.isascii():  # (ASCII is UTF-8: no need to decode it to know)
        decode_utf8(data, path, "APF files")
    if b"<!ENTITY" in data:
        m = _first_outside_markup(data, rb"<!ENTITY")
        if m is not None:
            raise AceInputError(
                "entity declarations are not allowed (external/internal"
                " entities are never expanded)",
                path,
                data[: m.start()].count(b"\n") + 1,
            )
    if b"&" in data:
        m = _first_outside_markup(data, _ENTITY_REF.pattern)
        if m is not None:
            name = m.group(2).decode("utf-8", "replace")
            raise AceInputError(
                f"undefined entity reference '&{name};' (only &amp; &lt; &gt;"
                " &quot; &apos; and character references are allowed)",
                path,
                data[: m.start()].count(b"\n") + 1,
            )
    try:
        tree = etree.fromstring(as_written(data), _parser()).getroottree()
    except etree.XMLSyntaxError as e:
        msg = _syntax_message(e)
        if msg.startswith("Unsupported encoding"):
            enc = msg.split(":", 1)[-1].strip()
            raise AceInputError(
                f"declares encoding '{enc}'; only UTF-8 is supported", path, 1
            ) from None
        if e.lineno == 1 and data.lstrip(b"\xef\xbb\xbf").startswith(b"<?xml"):
            # does the file parse when read as UTF-8 whatever its declaration says?
            try:
                etree.fromstring(data, _parser("utf-8"))
            except etree.XMLSyntaxError:
                pass
            else:
                raise AceInputError(
                    "the XML declaration names an encoding the file is not"
                    f" in ({msg}); only UTF-8 is supported",
                    path,
                    1,
                ) from None
        raise AceInputError(f"malformed XML: {msg}", path, e.lineno or None) from None
    if not _utf8_name(tree.docinfo.encoding):
        enc = tree.docinfo.encoding
        raise AceInputError(f"declares encoding '{enc}'; only UTF-8 is supported", path, 1)
    return tree


def guess_docid(path: str) -> str:
    base = os.path.basename(path)
    for suffix in (".apf.xml", ".apf", ".xml"):
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


def scan_docids(path: str) -> tuple[tuple[str, ...], bool]:
    """DOCIDs named in the ``document`` tags of a file that cannot be read properly, and
    whether they were found (False: the DOCID is guessed from the file name)."""
    try:
        data = read_bytes(path, _SCAN_BYTES, head=True)  # a regular file only
    except AceInputError:
        data = b""
    found = []
    for m in _DOCID_TAG.finditer(data.decode("utf-8", "replace")):
        v = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        if v and v not in found:
            found.append(v)
    if found:
        return tuple(found), True
    return (guess_docid(path),), False
