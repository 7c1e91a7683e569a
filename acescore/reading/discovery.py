"""Finding the APF files a command is asked to read, and pairing REF and SYS documents.

A path given on the command line is one of:

* an APF file -> that file;
* a directory -> every file below it whose name ends in ``.apf.xml`` or ``.apf`` (in any
  case: ``.APF.XML`` too), sorted by their path relative to the directory (code-point
  order).  Symbolic links are followed, each real directory is read once (a link back up
  the tree is no loop), and the walk is iterative (no depth limit).  A subdirectory that
  cannot be read is an error naming it: its documents would silently be missing from the
  score otherwise;
* a list file, like the NIST tool's ``-r``/``-t`` argument -> one path per line, in list
  order.  A line is a path with its line end removed and surrounding whitespace ignored
  (the NIST tool also ignores it when opening); blank lines and lines starting with ``#``
  are skipped.  A relative path is taken relative to the list file's folder (so a list
  works from anywhere); if nothing exists there but the path exists relative to the
  current directory (where the NIST tool looks), that one is used.  An entry that names
  nothing is an error ``LIST:LINE: path: cannot open: reason``.

A list file is told from an APF file by its content: an APF file is XML and starts with
``<`` (after an optional byte-order mark and whitespace); a file named ``*.apf.xml``,
``*.apf`` or ``*.xml`` is always taken as an APF file.

REF and SYS documents are paired by DOCID, never by file name (:func:`pair_documents`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from acescore.model.errors import AceInputError, AceUsageError
from acescore.model.problems import hint
from acescore.model.text import decode_utf8
from acescore.reading.safe_read import read_bytes

APF_SUFFIXES = (".apf.xml", ".apf")
_SNIFF = 4096
LIST_MAX_BYTES = 64 * 1024 * 1024


def is_apf_name(name: str) -> bool:
    return name.lower().endswith(APF_SUFFIXES)


def looks_like_list(path: str) -> bool:
    """True when ``path`` is a file that holds a list of paths rather than APF data."""
    if not os.path.isfile(path):
        return False
    low = path.lower()
    if low.endswith(APF_SUFFIXES) or low.endswith(".xml"):
        return False
    try:
        head = read_bytes(path, _SNIFF, head=True)
    except AceInputError:
        return False
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    stripped = head.lstrip()
    if stripped.startswith(b"<"):
        return False
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        # a cut in the middle of a multi-byte character at the end of the sniffed block
        if e.start < len(head) - 3:
            return False
    return True


def walk_files(directory: str, wanted: Callable[[str], bool]) -> list[str]:
    """The files below ``directory`` whose name satisfies ``wanted``, following symbolic
    links; every real directory is read once (so links never loop), without recursion.
    Order: depth first, entries of a directory in code-point order.  A directory that
    cannot be read raises :class:`AceInputError` naming it."""
    found: list[str] = []
    seen: set = set()
    stack = [directory]
    while stack:
        d = stack.pop()
        try:
            st = os.stat(d)
            key = (st.st_dev, st.st_ino)
            if key in seen:
                continue
            seen.add(key)
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            raise AceInputError(
                f"cannot read folder: {e.strerror} (the APF files in it"
                " would be missing from the score)",
                d,
            ) from None
        subdirs = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()  # follows a symbolic link
            except OSError:
                is_dir = False
            if is_dir:
                subdirs.append(entry.path)
            elif wanted(entry.name):
                found.append(entry.path)
        stack.extend(reversed(subdirs))
    return found


def _walk(directory: str) -> list[str]:
    found = walk_files(directory, is_apf_name)
    rel = {p: os.path.relpath(p, directory) for p in found}
    return sorted(found, key=lambda p: rel[p])


def read_list(path: str, keep_missing: bool = False) -> list[str]:
    """The paths named by a list file (see the module documentation).  ``keep_missing``
    (lenient mode): an entry that names nothing is kept (reading it fails later and its
    document is skipped) instead of being an error."""
    data = read_bytes(path, LIST_MAX_BYTES, "file list", "a file list")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = decode_utf8(data, path, "file lists")
    base = os.path.dirname(path)
    out = []
    missing = []  # (line number, entry, error) of the entries that name nothing
    for number, line in enumerate(text.split("\n"), 1):
        p = entry = line.strip()
        if not p or p.startswith("#"):
            continue
        if not os.path.isabs(p):
            alt = os.path.join(base, p)
            if os.path.exists(alt) or not os.path.exists(p):
                p = alt
        try:
            os.stat(p)
        except (OSError, ValueError) as exc:
            missing.append((number, entry, getattr(exc, "strerror", None) or "not a valid path"))
        out.append(p)
    if not out:
        raise AceInputError("file list is empty", path)
    if len(missing) == len(out) and not any(is_apf_name(m[1]) for m in missing):
        raise AceUsageError(
            f"{path}: none of its {len(out)} lines names a file ({missing[0][1]} ...): a list"
            f" of DOCIDs (a split file) restricts a run with --docs {path};"
            " REF and SYS are APF files, folders or lists of APF files"
        )
    if missing and not keep_missing:
        number, entry, reason = missing[0]
        err = AceInputError(f"cannot open: {reason}", path, number, entry, scope="document")
        err.hint = hint(err)  # lenient mode keeps the entry and skips its document
        raise err
    return out


def discover(path: str, lenient: bool = False) -> list[str]:
    """The APF files meant by one command-line path (file, directory or list file).
    Raises :class:`AceInputError` for a missing path, an empty directory or an empty list.
    Paths in the result keep the spelling of ``path`` (no absolutisation).  ``lenient``:
    see :func:`read_list`."""
    if path == "":
        raise AceInputError("empty path", "''")
    if os.path.isdir(path):
        files = _walk(path)
        if not files:
            raise AceInputError("no APF files (*.apf.xml, *.apf) in this directory", path)
        return files
    if not os.path.exists(path):
        raise AceInputError("no such file or directory", path)
    if looks_like_list(path):
        return read_list(path, keep_missing=lenient)
    return [path]


def discover_all(paths: Iterable[str]) -> list[str]:
    """:func:`discover` for several paths, concatenated in order."""
    out: list[str] = []
    for p in paths:
        out.extend(discover(p))
    return out


def pair_documents(
    ref_docs: dict, sys_docs: dict, sys_paths: dict | None = None
) -> tuple[list[tuple[str, object, object | None]], list[str]]:
    """Pair REF and SYS documents by DOCID.

    ``ref_docs`` and ``sys_docs`` map DOCID -> anything (a Document, a path ...);
    ``sys_paths`` maps SYS DOCIDs to the file they were read from (for the messages;
    defaults to the values of ``sys_docs`` when those are strings or have ``.path``).
    Returns ``(pairs, warnings)``: one ``(docid, ref, sys or None)`` per REF document in
    code-point order of DOCID, and the NIST tool's warnings: one per SYS document that is
    not in the REF data (it is ignored) and one per REF document without SYS document (it
    is scored as all missed), in code-point order.
    """
    warnings = []
    for docid in sorted(sys_docs):
        if docid not in ref_docs:
            where = None
            if sys_paths is not None:
                where = sys_paths.get(docid)
            if where is None:
                v = sys_docs[docid]
                where = v if isinstance(v, str) else getattr(v, "path", "")
            warnings.append(
                f"\n\nWARNING:  INPUT ERROR in document '{docid}' in file '{where}'\n"
                "    system output for unevaluated document\n"
            )
    pairs = []
    for docid in sorted(ref_docs):
        s = sys_docs.get(docid)
        if s is None:
            warnings.append(f"\nWARNING:  ref doc '{docid}' has no corresponding tst doc\n")
        pairs.append((docid, ref_docs[docid], s))
    return pairs, warnings
