"""Checking the markup of ACE source documents (``.sgm``) as SGML, the way the LDC wrote them.

The official files are SGML, not XML (docs/rules/ldc-sources.md): a bare ``&`` is text, ``<QUOTE
PREVIOUSPOST="...">`` is never closed (its attribute value may span lines), a ``<POST>`` may be
left open until the next one or the end of ``TEXT``, and broadcast news has ``<ENDTIME>``
after ``</BODY>``.  An XML parser rejects all of these, so the structure is checked here
instead, against the element declarations of the bundled ``ace_source_sgml.dtd`` (which
elements may contain which, which are required) plus the SGML minimisation the files use:

* elements declared ``EMPTY`` (QUOTE) have no end tag;
* the end tag of an element in :data:`END_TAG_OMISSIBLE` may be left out: the element ends
  where its parent ends or where a tag it cannot contain begins.

A tag is everything from ``<`` to the next ``>`` (across lines), as for offsets
(:mod:`acescore.reading.sgml`); ``<!...>`` and ``<?...>`` are skipped.  Problems are
one-line :class:`~acescore.model.errors.AceInputError` s ``file:line: element: message``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from acescore.model.errors import AceInputError
from acescore.reading.dtd import SOURCE_DTD, load_dtd

#: elements whose end tag the LDC files leave out
END_TAG_OMISSIBLE = frozenset({"POST", "P"})

_TAG = re.compile(r"<([^>]*)>")
_NAME = re.compile(r"\s*(/?)\s*([A-Za-z_][A-Za-z0-9_.:-]*)")


@cache
def declarations() -> dict:
    """``{element: (allowed children, required children, empty)}`` from the source DTD."""
    out = {}
    for el in load_dtd(SOURCE_DTD).elements():
        allowed, required = set(), set()

        def walk(c: Any, under_choice: bool) -> None:
            if c is None:
                return
            if c.type == "element":
                allowed.add(c.name)  # noqa: B023 (called in this iteration)
                if not under_choice and c.occur in ("once", "plus"):
                    required.add(c.name)  # noqa: B023 (called in this iteration)
            choice = under_choice or c.type == "or" or c.occur in ("opt", "mult")
            walk(c.left, choice)
            walk(c.right, choice)

        walk(el.content, False)
        out[el.name] = (frozenset(allowed), frozenset(required), el.type == "empty")
    return out


def check_markup(raw: str, path: str, root: str = "DOC") -> list[AceInputError]:
    """The markup problems of the source document text ``raw`` (CR/LF already LF)."""
    decl = declarations()
    problems: list[AceInputError] = []
    stack: list = []  # [name, line, children seen]

    def line_of(pos: int) -> int:
        return raw.count("\n", 0, pos) + 1

    def problem(pos: int, element: str | None, message: str) -> None:
        problems.append(AceInputError(message, path, line_of(pos), element))

    def close(pos: int) -> None:
        name, _line, seen = stack.pop()
        missing = sorted(decl[name][1] - seen)
        if missing:
            problem(pos, name, "missing " + ", ".join(f"<{m}>" for m in missing))

    seen_root = False
    for m in _TAG.finditer(raw):
        body = m.group(1)
        if body[:1] in ("!", "?"):
            continue
        nm = _NAME.match(body)
        if nm is None:
            problem(m.start(), None, f"not a tag: <{body[:30]}>")
            continue
        closing, name = nm.group(1) == "/", nm.group(2).upper()
        if not seen_root and name != root:
            problem(
                m.start(),
                name,
                f"not an ACE source document: it starts with <{name}>, not <{root}>",
            )
            return problems
        if name not in decl:
            problem(m.start(), name, f"unknown element <{'/' if closing else ''}{name}>")
            continue
        if closing:
            if decl[name][2]:
                continue  # </QUOTE> after an EMPTY QUOTE: harmless
            names = [s[0] for s in stack]
            if name not in names:
                problem(m.start(), name, f"end tag </{name}> without a start tag")
                continue
            while stack[-1][0] != name:
                inner = stack[-1][0]
                if inner not in END_TAG_OMISSIBLE:
                    problem(
                        m.start(),
                        inner,
                        f"<{inner}> (line {stack[-1][1]}) is not closed before </{name}>",
                    )
                close(m.start())
            close(m.start())
            continue
        # a start tag: end the open elements with omissible end tags that cannot hold it
        while stack and name not in decl[stack[-1][0]][0] and stack[-1][0] in END_TAG_OMISSIBLE:
            close(m.start())
        if not stack:
            if seen_root:
                problem(m.start(), name, f"<{name}> outside <{root}>")
            seen_root = True
        elif name not in decl[stack[-1][0]][0]:
            problem(m.start(), name, f"<{name}> is not allowed inside <{stack[-1][0]}>")
        if stack:
            stack[-1][2].add(name)
        if not decl[name][2]:
            stack.append([name, line_of(m.start()), set()])
    while stack:
        name, line = stack[-1][0], stack[-1][1]
        if name not in END_TAG_OMISSIBLE:
            problems.append(AceInputError(f"<{name}> is never closed", path, line, name))
        close(len(raw))
    if not seen_root:
        problem(0, None, f"no <{root}> element: not an ACE source document")
    return problems
