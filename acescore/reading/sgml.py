"""Reading ACE source documents (``.sgm``) and computing character offsets the ACE way.

The ACE rule (ACE 2008 evaluation plan, section 3.2): index 0 is the first character of the
file; markup in angle brackets does not count; every other character counts as one,
whitespace included, and a newline (LF or CR/LF) counts as one character.  So the text that
APF offsets index is the file with every ``<...>`` removed and CR/LF turned into LF, and an
APF ``charseq START="s" END="e"`` should equal ``text[s:e + 1]``.

Character references.  The rule counts characters outside tags literally, so ``&amp;`` in a
source file counts as five characters (``entities="raw"``, the default); this is also what
the LDC tools that produced the ACE 2005 offsets do (they remove tags only), and the
``charseq`` of such a span then reads ``&amp;amp;`` in the APF file.  ``entities="decode"``
counts each ``&amp;``, ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;`` and numeric reference as one
character instead, for sources whose offsets were computed on decoded text.  (The synthetic
corpora contain no ``&`` at all, so both give the same offsets there.)
:func:`span_matches` accepts a ``charseq`` whose text is either the raw span or the span
with its references decoded, so both ways of writing the APF text agree with one reading.

A UTF-8 byte-order mark at the start of the file is not a character of the document.
"""

from __future__ import annotations

import re

from acescore.model.limits import DEFAULT_MAX_BYTES
from acescore.model.records import dataclass
from acescore.model.text import decode_utf8
from acescore.reading.safe_read import read_bytes

_TAG = re.compile(r"<[^>]*>")
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_TAGNAME = re.compile(r"<\s*(/?)\s*([A-Za-z_][A-Za-z0-9_.:-]*)")


@dataclass(frozen=True)
class SourceText:
    """One source document.

    ``text`` is the character stream the offsets index (tags removed, CR/LF -> LF).
    ``docid`` is the content of the first ``DOCID`` element (stripped), or ``None``.
    ``text_region`` is ``(start, end)`` of the content of the first ``TEXT`` element as
    Python slice bounds (``text[start:end]`` is that content; the last character of the
    region is ``end - 1``), or ``None`` when there is no ``TEXT`` element.
    ``raw`` is the decoded file (after CR/LF -> LF), for line numbers in messages.
    """

    path: str
    text: str
    docid: str | None
    text_region: tuple[int, int] | None
    raw: str = ""

    def span(self, start: int, end: int) -> str:
        """The text at inclusive offsets ``start..end`` (empty when out of range)."""
        if start < 0 or end < start:
            return ""
        return self.text[start : end + 1]

    def in_text_region(self, start: int, end: int) -> bool:
        if self.text_region is None:
            return False
        return self.text_region[0] <= start and end < self.text_region[1]


def decode_references(s: str) -> str:
    """Decode the XML predefined entities and numeric character references of ``s``."""
    if "&" not in s:
        return s
    return _ENTITY.sub(lambda m: _ref(m.group(0)), s)


def _ref(ent: str) -> str:
    body = ent[1:-1]
    if body[0] == "#":
        try:
            cp = int(body[2:], 16) if body[1] in "xX" else int(body[1:])
            return chr(cp)
        except (ValueError, OverflowError):
            return ent
    return _NAMED.get(body, ent)


def span_matches(charseq_text: str, source_span: str) -> bool:
    """Does the text of a ``charseq`` agree with the source text at its offsets?  Either
    literally, or after decoding character references in the source span (the APF text
    may hold the decoded form of ``AT&amp;T``), in the charseq text (APF text is read as
    written: a source ``AT&amp;T`` is written ``AT&amp;amp;T`` in the APF file), or in both."""
    if charseq_text == source_span:
        return True
    if "&" in charseq_text:
        decoded = decode_references(charseq_text)
        if decoded == source_span or (
            "&" in source_span and decoded == decode_references(source_span)
        ):
            return True
    if "&" in source_span:
        return charseq_text == decode_references(source_span)
    return False


def strip_tags(raw: str, entities: str = "raw") -> tuple[str, str | None, tuple[int, int] | None]:
    """Remove the tags of ``raw`` (CR/LF already normalised); returns ``(text, docid,
    text_region)``."""
    parts = []
    pos = 0  # offset in the output text
    docid_start = None
    docid = None
    region_start = None
    region = None
    last = 0
    decode = entities == "decode"
    for m in _TAG.finditer(raw):
        chunk = raw[last : m.start()]
        if decode:
            chunk = decode_references(chunk)
        parts.append(chunk)
        pos += len(chunk)
        last = m.end()
        if docid is None or region is None:
            nm = _TAGNAME.match(m.group(0))
            if nm is not None:
                closing, name = nm.group(1) == "/", nm.group(2).upper()
                if name == "DOCID" and docid is None:
                    if not closing and docid_start is None:
                        docid_start = pos
                    elif closing and docid_start is not None:
                        docid = "".join(parts)[docid_start:pos].strip()
                elif name == "TEXT" and region is None:
                    if not closing and region_start is None:
                        region_start = pos
                    elif closing and region_start is not None:
                        region = (region_start, pos)
    chunk = raw[last:]
    if decode:
        chunk = decode_references(chunk)
    parts.append(chunk)
    return "".join(parts), docid, region


def read_source(path: str, entities: str = "raw", max_bytes: int = DEFAULT_MAX_BYTES) -> SourceText:
    """Read an ACE source document.  ``entities`` is ``"raw"`` (default: ``&amp;`` counts
    five characters) or ``"decode"`` (it counts one).  Errors are one-line
    :class:`AceInputError`s (missing file, too large, not UTF-8)."""
    if entities not in ("raw", "decode"):
        raise ValueError(f"entities must be 'raw' or 'decode', not {entities!r}")
    data = read_bytes(path, max_bytes, "source document", "a source document")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw = decode_utf8(data, path, "source documents")
    if "\r" in raw:
        raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    text, docid, region = strip_tags(raw, entities)
    return SourceText(path, text, docid, region, raw)
