"""APF text as the NIST tool reads it, and the warnings it prints while reading arguments.

The NIST tool has no XML parser (docs/rules/input.md §2.2): attribute values and text are taken as
written.  ``&amp;``, ``&lt;``, ``&#38;`` ... stay as they are, in names (and so in name
similarity), in mention texts (and so in language labels and in the displayed texts of the
-a/-e/-s listings) and in IDs; newlines, CRs and tabs inside attribute values are kept
(only the ends of a value are trimmed), so a name written across two lines is normalised
with its line break.  :func:`as_written` rewrites the bytes of an APF file so that an XML
parser returns exactly that text: every ``&`` becomes ``&amp;`` (the parser turns it back
into the ``&`` of the reference as written) and every newline, CR and tab inside a quoted
attribute value becomes a character reference (which the parser's attribute-value
normalisation leaves alone).  Line numbers are unchanged.

While reading relations and events the tool also warns (docs/rules/input.md §5.3):

* ``X appears as a relation_argument multiple times`` (and ``relation_mention_argument``):
  one argument ID in two roles of one relation or relation mention;
* ``M2 and M1 appear to be redundant mentions``: a relation or event mention with the same
  arguments (role and ID) as an earlier mention of the element; an event mention only if
  its extent also overlaps the earlier one's by at least the minimum overlap.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from acescore.model.apf import Argument
from acescore.model.spans import overlap

# A start tag (up to the first ">") with a line break or tab, and the quoted values in it.
_TAG_WITH_BREAK = re.compile(rb"<[A-Za-z_][^<>\t\r\n]*[\t\r\n][^<>]*>")
# Every byte but "<", ">", tab, CR, LF: deleting them leaves the tag structure, in which a
# "<" directly followed by a break means a break inside a tag (fast test, C speed).
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b"<>\t\r\n")
_QUOTED = re.compile(rb"\"[^\"]*\"|'[^']*'")
_BREAKS = {b"\n": b"&#10;", b"\r": b"&#13;", b"\t": b"&#9;"}
_BREAK = re.compile(rb"[\t\r\n]")


def _value_breaks(m: re.Match) -> bytes:
    return _BREAK.sub(lambda b: _BREAKS[b.group(0)], m.group(0))


def _tag_breaks(m: re.Match) -> bytes:
    return _QUOTED.sub(_value_breaks, m.group(0))


def as_written(data: bytes) -> bytes:
    """The bytes of an APF file rewritten so that an XML parser returns its text and
    attribute values as written (see the module text)."""
    if b"&" in data:
        data = data.replace(b"&", b"&amp;")
    skeleton = data.translate(None, _NOT_STRUCTURE)
    if b"<\n" in skeleton or b"<\r" in skeleton or b"<\t" in skeleton:
        data = _TAG_WITH_BREAK.sub(_tag_breaks, data)
    return data


_ESCAPED = re.compile(rb"&(amp|gt|#10|#13|#9);")
_UNESCAPE = {b"amp": b"&", b"gt": b">", b"#10": b"\n", b"#13": b"\r", b"#9": b"\t"}


def written_back(data: bytes) -> bytes:
    """The inverse for a writer: the XML that an XML serializer made of text and values
    read with :func:`as_written`, with the serializer's escapes of ``&``, ``>``, newline,
    CR and tab undone, so that the result reads back to the same text."""
    if b"&" not in data:
        return data
    return _ESCAPED.sub(lambda m: _UNESCAPE[m.group(1)], data)


def written(plain: str) -> str:
    """Plain text as it is written in APF (what the model holds for text read from a file):
    ``&`` and ``<`` escaped.  For text that does not come from an APF file (an import)."""
    if "&" in plain or "<" in plain:
        return plain.replace("&", "&amp;").replace("<", "&lt;")
    return plain


def header(kind: str, eid: str, docid: str, path: str) -> str:
    """The tool's warning header for a relation/event (its fatal header, 'FATAL' replaced)."""
    return (
        f"\n\nWARNING:  INPUT ERROR for {kind} '{eid}'\n\tin document '{docid}'\n"
        f"\tin file '{path}'\n"
    )


def repeated_ids(args: Sequence[Argument], tag: str, head: str) -> list:
    """One warning for each argument whose ID came earlier in another role."""
    out = []
    seen = set()
    for a in args:
        if a.refid in seen:
            out.append(f"{head}    {a.refid} appears as a {tag} multiple times\n")
        seen.add(a.refid)
    return out


def redundant_mentions(mentions: Sequence, head: str, min_overlap: float, event: bool) -> list:
    """For each mention (in file order, arguments as read), a list with the warning naming
    the first earlier mention with the same arguments (for events also an extent overlap
    of at least ``min_overlap``), or an empty list."""
    out = []
    earlier: list = []
    for m in mentions:
        args = {(a.role, a.refid) for a in m.arguments}
        found = []
        for prev, prev_args in earlier:
            if args != prev_args:
                continue
            # the extent overlap of the scorer (docs/rules/entities.md §1)
            if event and overlap(m.extent, prev.extent) < min_overlap:
                continue
            found.append(f"{head}    {m.id} and {prev.id} appear to be redundant mentions\n")
            break
        out.append(found)
        earlier.append((m, args))
    return out


def reading_warnings(
    kind: str,
    eid: str,
    docid: str,
    path: str,
    args: Sequence[Argument],
    mentions: Sequence,
    min_overlap: float,
) -> tuple:
    """The tool's warnings for one relation or event (``kind``), in the tool's order: the
    relation's repeated argument IDs, then for each mention its repeated argument IDs
    (relations) and its redundancy with an earlier mention.  ``args`` and the mentions'
    arguments as read (relation time roles dropped, symmetric roles not yet converted)."""
    head = header(kind, eid, docid, path)
    relation = kind == "relation"
    out = repeated_ids(args, "relation_argument", head) if relation else []
    for m, found in zip(mentions, redundant_mentions(mentions, head, min_overlap, not relation)):
        if relation:
            out += repeated_ids(m.arguments, "relation_mention_argument", head)
        out += found
    return tuple(out)
