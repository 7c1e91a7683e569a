"""Errors and exit codes.

Every input problem is an :class:`AceInputError` that knows the file, the line and the
element it concerns and renders as one line: ``file:line: element ID: message``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

EXIT_OK = 0
EXIT_PROBLEMS = 1  # validate: problems found
EXIT_UNUSABLE = 2  # unusable input (strict mode fatal error, missing file, bad option)
EXIT_GATE = 3  # --fail-under threshold not met


class AceError(Exception):
    """Base class of acescore's own errors."""

    exit_code = EXIT_UNUSABLE


# line breaks shown escaped, so that a message is always one line (an attribute value, read
# as written, or a file name can hold a newline)
_LINE_BREAKS = str.maketrans(
    {
        "\n": "\\n",
        "\r": "\\r",
        "\x0b": "\\x0b",
        "\x0c": "\\x0c",
        "\x1c": "\\x1c",
        "\x1d": "\\x1d",
        "\x1e": "\\x1e",
        "\x85": "\\x85",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


def one_line(text: str) -> str:
    """``text`` with every line break escaped (``\\n``)."""
    return text.translate(_LINE_BREAKS)


class AceInputError(AceError):
    """A problem in one input file.  ``element`` is e.g. ``entity DOC-E1`` or ``None``."""

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        element: str | None = None,
        docid: str | None = None,
        cause: str | None = None,
        scope: str | None = None,
    ):
        super().__init__(message)
        self.message = message  # the NIST tool's wording
        self.path = path
        self.line = line
        self.element = element
        self.docid = docid
        self.cause = cause  # the same in plain words (known defects of real data)
        self.hint: str | None = None  # what to do about it (the command line adds it)
        self.dtd_type: str | None = None  # DTD validation errors: lxml's type name
        self.limit: tuple | None = None  # a file over the size limit: (limit, size) in bytes
        # what lenient mode would skip: "element" or "document" (None: the element decides)
        self.scope = scope or (
            "element" if element and not element.startswith("document") else "document"
        )

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = self.path
            if self.line:
                where += f":{self.line}"
            where += ": "
        elem = f"{self.element}: " if self.element else ""
        if self.cause:
            return one_line(f"{where}{elem}{self.cause}; NIST: {self.message}")
        return one_line(f"{where}{elem}{self.message}")


class AceUsageError(AceError):
    """A bad command line (unknown parameter set, missing argument ...)."""


#: the command line's spellings of the options that messages name, and the keywords of the
#: Python API that say the same (:func:`in_python_terms`; compiled when first needed: only
#: the API's errors are worded so, and the command line's start need not compile them)
_PYTHON_SPELLINGS: tuple = (
    (r"--docs \S+?(?=[;:,)]|\s|$)", "docs="),
    (r"--max-pairs N\b", "max_pairs=N"),
    (r"--max-pairs\b", "max_pairs="),
    (
        r"--max-file-size (\d+)([KMG]?)",
        lambda m: f"max_bytes={int(m.group(1)) << {'': 0, 'K': 10, 'M': 20, 'G': 30}[m.group(2)]}",
    ),
    (r"--max-file-size\b", "max_bytes="),
    (r"--lenient\b", "lenient=True"),
    (r"`acescore validate`", "`acescore validate` (the command line)"),
)


def in_python_terms(text: str) -> str:
    """A message of the command line with its option spellings as the Python API's keywords."""
    for pattern, repl in _PYTHON_SPELLINGS:
        text = re.sub(pattern, repl, text)  # (re caches the compiled patterns)
    return text


def for_python(e: AceError) -> AceError:
    """``e`` worded for a caller of the Python API (the same error, its message naming the
    API's keywords instead of the command line's options); raise it ``from None``."""
    if isinstance(e, AceInputError):
        e.message = in_python_terms(e.message)
        e.cause = in_python_terms(e.cause) if e.cause else e.cause
        e.hint = in_python_terms(e.hint) if e.hint else e.hint
        e.args = (e.message,)
    elif e.args:
        e.args = (in_python_terms(str(e.args[0])),) + tuple(e.args[1:])
    return e


F = TypeVar("F", bound=Callable[..., Any])


def python_errors(f: F) -> F:
    """A function of the Python API whose errors are worded for Python (:func:`for_python`)."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kw: Any) -> Any:
        try:
            return f(*args, **kw)
        except AceError as e:
            raise for_python(e) from None

    return cast(F, wrapper)
