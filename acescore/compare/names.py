"""The names of the systems of a comparison (``acescore compare --name``; by default, from
their paths).

A system given as a directory is named by the directory (``sys-b/`` -> ``sys-b``); as a
list file, by the folder its files are in when they all are in folders of one name (an
ACE release's ``bc/fp1/``, ``nw/fp1/`` ... listed in ``fp1.list`` -> ``fp1``), else by the
list file without its extension; as one APF file, by the file without ``.apf.xml``.
Names that come out equal are numbered by position (``sys#1``, ``sys#2``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from acescore.model.errors import AceUsageError

_APF_SUFFIXES = (".apf.xml", ".apf", ".xml")


def unique(names: list) -> list:
    """``names`` with every name that occurs more than once numbered by its position."""
    out = list(names)
    for n in set(out):
        if out.count(n) > 1:
            out = [f"{x}#{i + 1}" if x == n else x for i, x in enumerate(out)]
    return out


def _strip(name: str) -> str:
    low = name.lower()
    for suffix in _APF_SUFFIXES:
        if low.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def default_name(spec, paths: Sequence[str]) -> str:
    """The name of a system given as ``spec`` (a path, or a sequence of paths) whose APF
    files are ``paths``."""
    if isinstance(spec, (list, tuple)):
        spec = spec[0] if len(spec) == 1 else os.path.commonpath([str(s) for s in spec])
    spec = os.fspath(spec)
    base = os.path.basename(os.path.normpath(spec)) or spec
    if os.path.isdir(spec):
        return base
    if len(paths) == 1 and os.path.abspath(paths[0]) == os.path.abspath(spec):
        return _strip(base)
    folders = {os.path.basename(os.path.dirname(os.path.abspath(p))) for p in paths}
    if len(folders) == 1 and "" not in folders:
        return folders.pop()
    stem = os.path.splitext(base)[0]
    return stem or base


def system_names(specs: Sequence, paths: Sequence[Sequence[str]], given: Sequence = ()) -> list:
    """The systems' names: ``given`` (``--name``, one per system, in order) or their
    default names, made unique."""
    if given:
        if len(given) != len(specs):
            raise AceUsageError(
                f"--name given {len(given)} time(s) for {len(specs)} systems: give one name"
                " per system, in the order of the systems"
            )
        for n in given:
            if not n.strip() or any(c in n for c in "\n\r\t"):
                raise AceUsageError(f"--name {n!r}: a name is a non-empty line of text")
        dup = sorted({n for n in given if list(given).count(n) > 1})
        if dup:
            raise AceUsageError(f"--name {dup[0]!r} names two systems: give each its own name")
        return list(given)
    return unique([default_name(s, p) for s, p in zip(specs, paths, strict=True)])
