"""Input problems and the error policies that decide what happens to them.

A :class:`Problem` is one broken input rule (docs/rules/input.md §2-3): which rule, where (file, line,
element, DOCID), the NIST tool's wording (``message``) and, for the defects real annotation
has, the cause in plain words (``cause``).  In lenient mode it also says what was skipped
because of it (``scope``, ``docids``, ``removed``, ``note``).

Whoever finds a problem hands it to an error policy:

* :data:`STRICT` (the default, like the NIST tool) raises it as a one-line
  :class:`~acescore.model.errors.AceInputError`;
* a :class:`Collect` policy records it and the finder skips what is broken: lenient mode
  (``score --lenient``) then scores the rest, ``acescore validate`` lists them all.
"""

from __future__ import annotations

from collections.abc import Iterable

from acescore.model.errors import AceInputError
from acescore.model.records import dataclass

SIDE_ORDER = {"REF": 0, "SYS": 1, None: 2}
UNKNOWN_DOCID = "its DOCID is unknown"


@dataclass(frozen=True)
class Problem:
    """One broken input rule and, in lenient mode, what was skipped because of it.

    ``scope`` is ``element`` (``removed`` lists the skipped document elements as
    ``(kind, ID, DOCID)``) or ``document`` (``docids`` are skipped on both sides).
    ``message`` is the NIST wording, ``cause`` (if known) the same in plain words."""

    side: str | None
    scope: str
    message: str
    path: str | None = None
    line: int | None = None
    element: str | None = None
    docids: tuple = ()
    removed: tuple = ()
    note: str | None = None
    rule: str = "reader"
    cause: str | None = None
    subject: str | None = None  # the ID the problem is about (a missing argument)

    @property
    def docid(self) -> str | None:
        return self.docids[0] if len(self.docids) == 1 else None

    def error(self) -> AceInputError:
        """The strict-mode error."""
        return AceInputError(
            self.message,
            self.path,
            self.line,
            self.element,
            self.docid,
            cause=self.cause,
            scope=self.scope,
        )

    def where(self) -> str:
        return str(self.error())

    def what(self) -> str:
        if self.scope == "document":
            what = "document" + ("s " if len(self.docids) > 1 else " ") + ", ".join(self.docids)
            what += " skipped on both sides"
        else:
            els = ", ".join(f"{k} {i}" if i is not None else k for k, i, _d in self.removed)
            what = f"{els or 'element'} skipped"
        if self.note:
            what += f"; {self.note}"
        return what

    def text(self) -> str:
        return f"{self.side or '?'}: {self.where()} [{self.what()}]"

    def as_dict(self) -> dict:
        d: dict[str, object] = {
            "side": self.side,
            "scope": self.scope,
            "file": self.path,
            "line": self.line,
            "element": self.element,
            "rule": self.rule,
            "message": self.message,
        }
        if self.cause:
            d["cause"] = self.cause
        if self.scope == "document":
            d["documents"] = list(self.docids)
        else:
            d["skipped"] = [{"kind": k, "id": i, "document": dd} for k, i, dd in self.removed]
        if self.note:
            d["note"] = self.note
        d["text"] = self.text()
        return d

    def sort_key(self) -> tuple:
        return (
            SIDE_ORDER.get(self.side, 3),
            self.path or "",
            self.line or 0,
            self.element or "",
            self.message,
            self.docids,
            tuple((k, i or "", d or "") for k, i, d in self.removed),
        )


def from_error(
    err: AceInputError,
    scope: str,
    docids: Iterable[str] = (),
    removed: Iterable[tuple] = (),
    note: str | None = None,
    side: str | None = None,
    rule: str = "reader",
) -> Problem:
    """The problem of a reading error ``err``."""
    return Problem(
        side,
        scope,
        err.message,
        err.path,
        err.line,
        err.element,
        tuple(docids),
        tuple(removed),
        note,
        rule,
        err.cause,
    )


class Policy:
    """Strict: the first problem stops the run (raised as an :class:`AceInputError`)."""

    strict = True

    def report(self, problem: Problem) -> None:
        raise problem.error()


class Collect(Policy):
    """Record every problem; the finder skips what is broken and goes on."""

    strict = False

    def __init__(self, problems: list | None = None):
        self.problems = problems if problems is not None else []

    def report(self, problem: Problem) -> None:
        self.problems.append(problem)


STRICT = Policy()


def size_option(size: int) -> str:
    """A ``--max-file-size`` value that admits ``size`` bytes (rounded up to K or M)."""
    if size < 1 << 20:
        return f"{-(-size // 1024)}K"
    return f"{-(-size // (1 << 20))}M"


def hint(err: AceInputError) -> str:
    """What to do about a strict-mode input error (the CLI adds it after the message)."""
    if err.limit is not None:  # a file over --max-file-size: the limit is the cause
        limit, size = err.limit
        return (
            f"the limit is --max-file-size ({limit} bytes); to read it, give a larger one"
            f" (--max-file-size {size_option(size + 1)})"
        )
    what = "documents" if err.scope == "document" else "elements"
    return f"use --lenient to skip such {what}, or `acescore validate` to list them all"
