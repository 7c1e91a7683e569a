"""DTD validation of APF files and ACE source documents.

acescore ships its own DTDs, kept once in the top-level ``dtd/`` folder of the source tree
and installed as ``acescore/dtd/`` (see setup.py):

* ``apf.v5.1.1.dtd`` -- APF 5.1.1 (ACE 2005), the default;
* ``apf.v5.1.2.dtd`` -- APF 5.1.2 (ACE 2007);
* ``apf.v5.2.0.dtd`` -- APF 5.2.0 (ACE 2008);
* ``ace_source_sgml.dtd`` -- the ACE source documents (``.sgm``).

The DTD for an APF file is the one named by its DOCTYPE system identifier (only the file
name part is looked at, so ``../dtd/apf.v5.2.0.dtd`` or a URL work too), or the one named
with ``--dtd`` (which then applies to every file).  A file without DOCTYPE is validated
against 5.1.1.  DTDs are never fetched from the place a DOCTYPE points to.

Problems are :class:`~acescore.model.errors.AceInputError` lines ``file:line: element ID: message``
where ``element ID`` is the nearest enclosing element that has an ID.
"""

from __future__ import annotations

import io
import os
import re
from functools import cache
from typing import Any

from lxml import etree

from acescore.model.errors import AceInputError, AceUsageError
from acescore.reading.safe_read import read_bytes

DTD_MAX_BYTES = 16 * 1024 * 1024

APF_DTDS = {"5.1.1": "apf.v5.1.1.dtd", "5.1.2": "apf.v5.1.2.dtd", "5.2.0": "apf.v5.2.0.dtd"}
DEFAULT_APF_DTD = APF_DTDS["5.1.1"]
SOURCE_DTD = "ace_source_sgml.dtd"
_ALIASES = {
    "2005": "5.1.1",
    "ace2005": "5.1.1",
    "2007": "5.1.2",
    "ace2007": "5.1.2",
    "2008": "5.2.0",
    "ace2008": "5.2.0",
    "source": SOURCE_DTD,
    "sgml": SOURCE_DTD,
    "sgm": SOURCE_DTD,
}
_VERSION = re.compile(r"(?:^|[^0-9])v?(\d+\.\d+\.\d+)")

# lxml/libxml2 error types that concern ID uniqueness and ID references; the reference
# checks of ``acescore validate`` report these (across files, with better messages) when
# a file could be read.
ID_ERROR_TYPES = frozenset(
    {"DTD_ID_REDEFINED", "DTD_UNKNOWN_ID", "DTD_ID_FIXED", "DTD_ID_SUBSET", "DTD_MULTIPLE_ID"}
)


def dtd_dirs() -> list[str]:
    """Folders searched for the DTD files: the package's ``dtd`` folder (an installed
    wheel), then the top-level ``dtd`` folder of a source checkout (editable install)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # acescore/
    return [os.path.join(here, "dtd"), os.path.join(os.path.dirname(here), "dtd")]


def dtd_path(filename: str) -> str:
    """The path of a shipped DTD file (or ``filename`` itself when it names an existing
    file)."""
    if os.sep in filename or "/" in filename:
        if os.path.isfile(filename):
            return filename
        raise AceUsageError(f"DTD file '{filename}' not found")
    for d in dtd_dirs():
        p = os.path.join(d, filename)
        if os.path.isfile(p):
            return p
    raise AceUsageError(
        f"DTD '{filename}' is not installed (looked in " + ", ".join(dtd_dirs()) + ")"
    )


def resolve_dtd_name(name: str) -> str:
    """The DTD meant by a ``--dtd`` value: ``5.1.1``, ``v5.2.0``, ``apf.v5.1.2.dtd``,
    ``2005``/``2007``/``2008``, ``source`` (the source-document DTD), or the path of a
    ``.dtd`` file.  Returns a shipped file name or a path; raises
    :class:`~acescore.model.errors.AceUsageError` for anything else."""
    n = name.strip()
    if os.path.isfile(n):
        return n
    low = n.lower()
    low = _ALIASES.get(low, low)
    if low in (SOURCE_DTD, "ace_source_sgml"):
        return SOURCE_DTD
    m = _VERSION.search(low)
    if m and m.group(1) in APF_DTDS and re.fullmatch(r"(apf\.?)?v?\d+\.\d+\.\d+(\.dtd)?", low):
        return APF_DTDS[m.group(1)]
    raise AceUsageError(
        f"unknown DTD '{name}'; choose one of "
        + ", ".join(list(APF_DTDS) + ["source"])
        + " or give a .dtd file"
    )


def dtd_for_doctype(system_url: str | None) -> str | None:
    """The shipped DTD for a DOCTYPE system identifier; ``DEFAULT_APF_DTD`` for none;
    ``None`` when the identifier names an unknown DTD."""
    if not system_url:
        return DEFAULT_APF_DTD
    base = re.split(r"[/\\]", system_url.strip())[-1]
    low = base.lower()
    if low == SOURCE_DTD:
        return SOURCE_DTD
    m = re.fullmatch(r"apf\.v(\d+\.\d+\.\d+)\.dtd", low)
    if m and m.group(1) in APF_DTDS:
        return APF_DTDS[m.group(1)]
    return None


@cache
def load_dtd(name: str) -> etree.DTD:
    """Parse a DTD (a shipped file name or a path); cached."""
    path = dtd_path(name)
    try:
        data = read_bytes(path, DTD_MAX_BYTES, "DTD", "a DTD file")
        return etree.DTD(io.BytesIO(data))
    except AceInputError as e:
        raise AceUsageError(f"cannot load DTD: {e}") from None
    except etree.DTDParseError as e:
        raise AceUsageError(f"cannot load DTD '{path}': {e}") from None


def element_label(el: Any) -> str | None:
    """``tag ID`` of the nearest element (``el`` itself or an ancestor) with an ID,
    ``document DOCID`` for the document, or the tag of ``el``."""
    node = el
    while node is not None:
        if isinstance(node.tag, str):
            v = node.get("ID")
            if v is not None:
                return f"{node.tag} {v}"
            if node.tag == "document" and node.get("DOCID") is not None:
                return f"document {node.get('DOCID')}"
        node = node.getparent()
    return el.tag if isinstance(el.tag, str) else None


class _LineIndex:
    """First element starting on each line of a tree (built on demand)."""

    def __init__(self, tree: Any) -> None:
        self.tree = tree
        self._map: dict | None = None

    def label(self, line: int | None) -> str | None:
        if not line:
            return None
        if self._map is None:
            self._map = {}
            for el in self.tree.getroot().iter():
                ln = el.sourceline
                if ln is not None and ln not in self._map:
                    self._map[ln] = el
        el = self._map.get(line)
        return element_label(el) if el is not None else None


def validate_tree(tree: Any, path: str, dtd_name: str) -> list[AceInputError]:
    """Validate a parsed tree against a DTD.  Each problem is an AceInputError whose
    ``dtd_type`` attribute is the libxml2 error type (e.g. ``DTD_ATTRIBUTE_VALUE``)."""
    dtd = load_dtd(dtd_name)
    if dtd.validate(tree):
        return []
    shown = os.path.basename(dtd_name)
    index = _LineIndex(tree)
    out = []
    for e in dtd.error_log.filter_from_errors():
        msg = (e.message or e.type_name or "invalid").strip()
        err = AceInputError(f"{shown}: {msg}", path, e.line or None, index.label(e.line))
        err.dtd_type = e.type_name
        out.append(err)
    return out


def apf_dtd_choice(
    tree: Any, path: str, forced: str | None = None
) -> tuple[str, AceInputError | None]:
    """The DTD to validate an APF tree with: ``forced`` (a resolved ``--dtd`` value) if
    given, else from the DOCTYPE.  An unknown DOCTYPE gives a problem and falls back to
    the default DTD."""
    if forced:
        return forced, None
    url = tree.docinfo.system_url
    name = dtd_for_doctype(url)
    if name is None:
        return DEFAULT_APF_DTD, AceInputError(
            f"unknown DTD '{url}' in DOCTYPE (known: {', '.join(APF_DTDS.values())});"
            f" validated against {DEFAULT_APF_DTD}, use --dtd to choose",
            path,
        )
    return name, None


def validate_apf_tree(tree: Any, path: str, forced: str | None = None) -> list[AceInputError]:
    """DTD problems of one parsed APF file (see :func:`apf_dtd_choice`)."""
    name, problem = apf_dtd_choice(tree, path, forced)
    out = [problem] if problem is not None else []
    return out + validate_tree(tree, path, name)
