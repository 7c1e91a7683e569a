"""Standard error a person can read: a run's warnings grouped by kind.

A whole release writes hundreds of the NIST tool's warning blocks and, in lenient mode, one
line per skipped element; printed one by one they bury the summary line.  By default every
command prints them grouped (:func:`grouped_lines`): per kind its count and its first
examples, the kinds in order of their counts, at most :data:`KINDS` of them; ``--verbose``
prints every warning as the NIST tool does and every skip (:func:`verbose_lines`), ``-q``
nothing.

A *kind* is a message with what varies from one occurrence to the next left out
(:func:`kind_of`): quoted values, identifiers (words holding a digit: IDs, DOCIDs, paths,
line numbers) and parenthesised details.  ``Arg-1``/``Arg-2`` are words of the message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import field

from acescore.model.records import dataclass
from acescore.rules.coverage import fold_warnings
from acescore.rules.robust import Skip, SkipReport

#: the most kinds listed per group (the others are counted in one line)
KINDS = 6
#: the examples shown of a kind (a kind seen once is shown whole instead)
EXAMPLES = 2
ELIDED = "…"

_QUOTED = re.compile(r"'[^'\n]*'")
_PARENS = re.compile(r"\s*\([^()]*\)")
_ID = re.compile(r"(?<![\w.:/-])(?!Arg-\d\b)[\w.:/-]*\d[\w.:/-]*")


def kind_of(text: str) -> str:
    """``text`` without what varies between occurrences of the same message."""
    text = _QUOTED.sub(f"'{ELIDED}'", text)
    text = _PARENS.sub("", text)
    return _ID.sub(ELIDED, text)


_TAG = re.compile(r"^WARNING(?: \(([^)]*)\))?:\s*")


def warning_text(block: str) -> tuple[str, str]:
    """A NIST warning block on one line, without its ``WARNING:`` tag: (kind, the text;
    ``compare``'s tag naming the systems of a warning kept in front of it)."""
    text = " ".join(block.split())
    m = _TAG.match(text)
    if m is None:
        return kind_of(text), text
    rest = text[m.end() :]
    return kind_of(rest), f"({m.group(1)}) {rest}" if m.group(1) else rest


@dataclass
class Group:
    kind: str
    examples: list = field(default_factory=list)
    count: int = 0

    def add(self, example: str) -> None:
        self.count += 1
        if len(self.examples) < EXAMPLES:
            self.examples.append(example)


def group(items: Iterable[tuple[str, str]]) -> list[Group]:
    """``(kind, example)`` pairs as groups: the most frequent kind first (ties: the kind
    seen first)."""
    groups: dict[str, Group] = {}
    for kind, example in items:
        groups.setdefault(kind, Group(kind)).add(example)
    return sorted(groups.values(), key=lambda g: -g.count)  # stable: first seen first


def _group_lines(groups: list[Group], what: str) -> list[str]:
    out = []
    for g in groups[:KINDS]:
        if g.count == 1:
            out.append(f"  1 × {g.examples[0]}")
            continue
        out.append(f"  {g.count} × {g.kind}, e.g.")
        out.extend(f"      {e}" for e in g.examples)
    rest = groups[KINDS:]
    if rest:
        n = sum(g.count for g in rest)
        out.append(f"  and {n} {what} of {len(rest)} other kind{'s' if len(rest) > 1 else ''}")
    return out


def skip_kind(s: Skip) -> str:
    """The kind of a lenient skip: its side, the kind of element, the message's kind."""
    element = (s.element or s.scope).split()[0]
    return f"{s.side or '?'} {element}: {kind_of(s.cause or s.message)}"


def grouped_lines(warnings: list, skipped: SkipReport | None) -> list[str]:
    """The lines (each to be prefixed ``acescore: ``) of the default standard error: the
    NIST tool's warnings grouped by kind (the per-document warnings that the summary line
    counts left out), acescore's own warning lines as they are, then what lenient mode
    skipped, grouped by kind."""
    out: list[str] = []
    blocks = []
    for w in fold_warnings(warnings, False):
        if w.startswith("acescore: "):  # acescore's own (--docs): few, each said once
            out.append(w[len("acescore: ") :].rstrip("\n"))
        elif w.strip():
            blocks.append(warning_text(w))
    if blocks:
        n = len(blocks)
        out.append(
            f"{n} warning{'s' if n != 1 else ''} of the NIST tool"
            " (--verbose prints each as the tool does):"
        )
        out += _group_lines(group(blocks), "warnings")
    if skipped:
        out.append(f"{skipped.summary()[:-1]}; --verbose lists each):")
        out += _group_lines(group((skip_kind(s), s.text()) for s in skipped.reasons), "problems")
    return out


def verbose_lines(skipped: SkipReport | None) -> list[str]:
    """``--verbose``: every skip, one line each (after the warnings, printed as the NIST
    tool prints them)."""
    return skipped.lines() if skipped else []
