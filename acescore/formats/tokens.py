"""The token-level view shared by the JSON formats, the simple tokenizer of the exporters and
the alignment of the importers.

Offsets.  Character offsets are the ACE ones (:mod:`acescore.reading.sgml`: index 0 = the
first character of the source file, tags do not count, a newline counts one); here a span is
inclusive ``(start, end)`` as in APF, and a token is ``(start, end)`` with ``end`` exclusive.

Tokenizer (exporters).  The document text is cut at every mention, anchor and window
boundary, and each piece is split into runs of word characters (``\\w+``) and single other
non-space characters -- so every exported mention is a whole number of tokens.

Windows (exporters).  A window may end after ``.``, ``!`` or ``?`` followed by white space,
or at a newline, but never inside an element: the span from the first to the last character
of an entity mention, an event mention (anchor and arguments) or a relation mention
(arguments).  Windows cover the whole document (OneIE's and TextEE's own preprocessing start
at ``<TEXT>``; DyGIE++'s at the start of the file); windows without tokens are left out.

Alignment (importers).  The tokens of each window are looked up in the source text in order:
the first tokens of a window at the first place at or after the previous window where they
occur separated by white space only; every further token after white space only (after a
misaligned token: at its first occurrence in the next 200 characters).  A token with ``&``,
``<`` or ``>`` also matches the source's ``&amp;``, ``&lt;``, ``&gt;`` (a reference counts
as its characters, as the ACE offsets count it).  A token not found so is *misaligned*
(reported, with every mention that uses it).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import field
from itertools import accumulate, pairwise

from acescore.model.errors import AceInputError
from acescore.model.records import dataclass

_TOKEN = re.compile(r"\w+|[^\w\s]")
_BREAK = re.compile(r"[.!?](?=\s)|\n")
LOOKAHEAD = 200


@dataclass
class TokDoc:
    """One document as token lists: ``windows`` are lists of token strings; every index below
    is a document-level token index, ``end`` exclusive.

    mentions   dicts ``start, end, label, mtype, kind, subtype, id, entity``
    events     dicts ``start, end, type, args: [(mention index, role)], id``
    relations  dicts ``args: (mention index, mention index), type, subtype, id``
    """

    docid: str
    windows: list = field(default_factory=list)
    mentions: list = field(default_factory=list)
    events: list = field(default_factory=list)
    relations: list = field(default_factory=list)
    offsets: list | None = None  # (start, end) char offsets of each token, if known
    path: str | None = None  # the APF file of the document, if known

    def text_size(self) -> int:
        """Characters of the document's tokens, a space after each: what an export's output
        is measured against (:func:`output_budget`)."""
        return sum(len(t) + 1 for w in self.windows for t in w)

    def window_starts(self) -> list:
        out, n = [], 0
        for w in self.windows:
            out.append(n)
            n += len(w)
        return out


#: the most characters an export writes for a document, per character of its tokens (the
#: formats write the tokens twice and every mention's text with every argument naming it:
#: about 18 on densely annotated synthetic data), and at least OUTPUT_FLOOR
OUTPUT_PER_CHAR = 256
OUTPUT_FLOOR = 1 << 16


def output_budget(td: TokDoc) -> int:
    """The most characters an export may write for ``td``."""
    return OUTPUT_PER_CHAR * td.text_size() + OUTPUT_FLOOR


def output_too_large(td: TokDoc, size: int, fmt: str) -> AceInputError:
    """The one-line refusal of an export whose output for ``td`` would exceed its budget."""
    return AceInputError(
        f"the {fmt} output of this document would exceed {output_budget(td)} characters"
        f" ({size} so far; at most {OUTPUT_PER_CHAR} per character of its text): every"
        f" argument and relation repeats its mention's text; hint: --span head writes"
        f" shorter texts, or leave out the elements with very long spans",
        td.path,
        element=f"document {td.docid}",
    )


def tokenize(text: str, start: int, end: int, cuts) -> list:
    """Tokens ``(s, e)`` of ``text[start:end]``, cut at every position in ``cuts`` (a
    sorted list is searched by bisection: the cuts of one window, not all of them)."""
    if isinstance(cuts, list):
        inner = cuts[bisect_right(cuts, start) : bisect_left(cuts, end)]
    else:
        inner = sorted(p for p in cuts if start < p < end)
    points = [start] + inner + [end]
    return [(m.start(), m.end()) for a, b in pairwise(points) for m in _TOKEN.finditer(text, a, b)]


def windows(text: str, elements: list) -> list:
    """Window bounds ``[(s, e)]`` (``e`` exclusive) over all of ``text``; ``elements`` are
    inclusive ``(first, last)`` character spans a window must not cut."""
    # covered[i]: a window may not end before character i (i inside an element); counted
    # by a difference array, in time linear in the text and the elements
    n = len(text)
    diff = [0] * (n + 2)
    for a, b in elements:
        lo, hi = max(a + 1, 0), min(b + 1, n)
        if lo < hi:
            diff[lo] += 1
            diff[hi] -= 1
    covered = list(accumulate(diff))
    out, last = [], 0
    for m in _BREAK.finditer(text):
        cut = m.end()
        if cut <= last or covered[cut]:
            continue
        out.append((last, cut))
        last = cut
    if last < len(text):
        out.append((last, len(text)))
    return [w for w in out if text[w[0] : w[1]].strip()]


def align(text: str, windows_: list, start: int = 0) -> list:
    """Character offsets ``(s, e)`` (or ``None``: misaligned) of every token of ``windows_``
    (lists of token strings), in order."""
    out = []
    pos = start
    for toks in windows_:
        if not toks:
            continue
        first = _find_window(text, toks, pos)
        if first is None:
            out.extend([None] * len(toks))
            continue
        pos = first
        lost = False
        for tok in toks:
            j = _after_space(text, pos)
            form = next((f for f in _forms(tok) if text.startswith(f, j)), None)
            if form is None and lost:
                # after a misaligned token: the next one within the following LOOKAHEAD
                k = text.find(tok, j + 1, j + LOOKAHEAD)
                if k >= 0:
                    j, form = k, tok
            if form is not None:
                out.append((j, j + len(form)))
                pos = j + len(form)
                lost = False
            else:
                out.append(None)
                lost = True
    return out


def _forms(tok: str) -> tuple:
    """A token as it can stand in the source: itself, or with ``&``, ``<``, ``>`` written as
    the references the ACE sources use (the codebases decode them; the offsets count them
    raw)."""
    if not any(c in tok for c in "&<>"):
        return (tok,)
    return (tok, tok.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


def _after_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _find_window(text: str, toks: list, pos: int) -> int | None:
    for k in (min(len(toks), 4), 1):
        pat = r"\s*".join("(?:" + "|".join(re.escape(f) for f in _forms(t)) + ")" for t in toks[:k])
        m = re.compile(pat).search(text, pos)
        if m is not None:
            return m.start()
    return None
