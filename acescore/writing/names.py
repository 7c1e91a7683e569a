"""File names made from data: the one place a DOCID (or any string read from input) becomes
the name of a file acescore writes (``acescore import``'s ``DOCID.apf.xml``, ``acescore
view``'s ``doc/DOCID.html``).

:func:`safe_name` encodes what could leave the output folder or break a file system: path
separators, ``..``, NUL and control characters, a leading dot, names too long for a file
system (cut, made unique by a hash of the whole string).  :func:`unique_names` makes the
names of several strings distinct (two DOCIDs that encode alike, or differ only in case).
:func:`inside` joins a name to its folder and checks that the final path, resolved, is
still in that folder.
"""

from __future__ import annotations

import hashlib
import os
import re

from acescore.writing.output import OutputError

# longest name made (file names have at most 255 bytes; room is left for a suffix such as
# ".apf.xml" or "-N.html" and the temporary name used while writing)
MAX_NAME = 200

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_name(text: str, fallback: str = "doc") -> str:
    """A file name (without an ending) for ``text``: characters other than ASCII letters,
    digits and ``._-`` (so every path separator, NUL and control character) replaced by
    ``_``, leading dots dropped (no ``..``, no hidden file); a name longer than
    :data:`MAX_NAME` is cut and made unique by a hash of the whole of ``text``."""
    s = _UNSAFE.sub("_", text).lstrip(".") or fallback
    if len(s) > MAX_NAME:
        digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        s = f"{s[: MAX_NAME - 17]}-{digest}"
    return s


def unique_names(texts, fallback: str = "doc") -> dict:
    """``{text: name}`` for ``texts`` in their order: :func:`safe_name`, with ``-2``,
    ``-3`` ... added where a name (compared without case: some file systems ignore it) is
    taken already."""
    out: dict = {}
    used: set = set()
    for t in texts:
        name = base = safe_name(t, fallback)
        n = 1
        while name.lower() in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name.lower())
        out[t] = name
    return out


def inside(folder: str, name: str) -> str:
    """``folder/name``, after checking that the path, resolved (symbolic links followed),
    stays in ``folder``; an :class:`OutputError` otherwise."""
    path = os.path.join(folder, name)
    root = os.path.realpath(folder)
    real = os.path.realpath(path)
    if os.path.commonpath([root, real]) != root or real == root:
        raise OutputError(f"{folder}: refused to write '{name}': the path leaves the output folder")
    return path
