"""Which documents a run scores, said once at the end (issue #14, points 3 and 4).

* :func:`coverage` counts the REF documents scored (those with a SYS document), the REF
  documents without one (scored as misses) and the SYS documents without a REF document
  (ignored); :func:`summary_line` is the one line on standard error at the end of a run,
  ``coverage(...).as_dict()`` the same counts in JSON.
* The NIST tool's per-document warning blocks for SYS documents without a REF document
  (:data:`FOLDED`) are folded into that count unless ``--verbose`` (:func:`fold_warnings`).
* Nothing to score is an error (exit 2, one line): an input without any APF document
  (:func:`require_documents`, naming what the input holds instead), or REF and SYS without
  a DOCID in common (:func:`require_common`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence

from lxml import etree

from acescore.model.errors import AceUsageError
from acescore.model.records import dataclass
from acescore.rules.database import Side
from acescore.rules.robust import SkipReport

#: the NIST warnings that the summary line counts (shown with --verbose)
FOLDED = ("system output for unevaluated document", "contains no evaluable documents")


@dataclass(frozen=True)
class Coverage:
    ref: int  # REF documents
    scored: int  # REF documents with a SYS document
    sys: int  # SYS documents read
    sys_without_ref: int  # ignored
    skipped_elements: int | None = None  # lenient mode
    skipped_documents: int | None = None

    @property
    def ref_without_sys(self) -> int:
        return self.ref - self.scored

    def as_dict(self) -> dict:
        """The counts of the summary line (lenient mode's skip counts are the JSON's
        ``skipped``)."""
        return {
            "ref": self.ref,
            "sys": self.sys,
            "scored": self.scored,
            "ref_without_sys": self.ref_without_sys,
            "sys_without_ref": self.sys_without_ref,
        }


def coverage(ref_side: Side, sys_side: Side, skipped: SkipReport | None = None) -> Coverage:
    """The counts of a run from its two sides (:class:`acescore.rules.database.Side`) and, in
    lenient mode, its :class:`acescore.rules.robust.SkipReport`."""
    ref_docs = ref_side.documents
    sys_all = sys_side.all_documents
    scored = sum(1 for d in ref_docs if d in sys_all)
    return Coverage(
        len(ref_docs),
        scored,
        len(sys_all),
        sum(1 for d in sys_all if d not in ref_docs),
        skipped.elements if skipped is not None else None,
        skipped.documents if skipped is not None else None,
    )


def _n(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def summary_line(c: Coverage) -> str:
    """``acescore: scored N of M REF documents; K REF documents have no SYS document (scored
    as misses); J SYS documents have no REF document (ignored)`` [; lenient: ...]."""
    # worded exactly as issue #14 has it, whatever the numbers (scripts match it)
    line = (
        f"acescore: scored {c.scored} of {c.ref} REF documents; {c.ref_without_sys} REF"
        f" documents have no SYS document (scored as misses); {c.sys_without_ref} SYS"
        " documents have no REF document (ignored)"
    )
    if c.skipped_elements is not None:
        line += (
            f"; lenient: skipped {_n(c.skipped_elements, 'element')} and"
            f" {_n(c.skipped_documents or 0, 'document')}"
        )
    return line


def require_scored(c: Coverage, skipped: SkipReport) -> None:
    """Lenient mode that left no REF document with a SYS document to score: nothing to
    score, an error as in strict mode (exit 2, one line), naming the first skip."""
    if c.scored or not skipped:
        return
    first = next((s for s in skipped.reasons if s.scope == "document"), None)
    first = first or (skipped.reasons[0] if skipped.reasons else None)
    raise AceUsageError(
        f"nothing to score: after lenient mode's skips no REF document has a SYS document"
        f" ({_n(c.ref, 'REF document')} and {_n(c.sys, 'SYS document')} left;"
        f" {skipped.summary()[len('lenient: ') :]}"
        + (f"; the first: {first.text()}" if first is not None else "")
        + ")"
    )


def fold_warnings(warnings: list, verbose: bool) -> list:
    """The warnings to print: without the per-document blocks that the summary line counts,
    unless ``verbose``."""
    if verbose:
        return list(warnings)
    return [w for w in warnings if not any(f in w for f in FOLDED)]


# --------------------------------------------------------------------------------------------
# nothing to score


def what_is_there(path: str) -> str:
    """What a file that holds no APF document is, in a few words (for the error line)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    low = head.lstrip().lower()
    if not low:
        return "an empty file"
    if low.startswith((b"<!doctype html", b"<html")):
        return "an HTML file"
    if b"<doc>" in low[:200] and b"<docid>" in low:
        return "an ACE source document (.sgm), not an APF annotation"
    root = None
    try:
        for _event, el in etree.iterparse(
            path,
            events=("start",),
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            huge_tree=False,
        ):
            if root is None:
                root = etree.QName(el)
    except (etree.XMLSyntaxError, OSError, ValueError):
        return "not well-formed XML"
    if root is None:
        return "no element"
    if root.namespace:
        return (
            f"root element <{root.localname}> in namespace {root.namespace} (APF elements"
            " have no namespace)"
        )
    if root.localname == "source_file":
        return "a <source_file> without <document>"
    return f"root element <{root.localname}>, not <source_file>"


def require_documents(label: str, spec: str, files: Sequence) -> None:
    """``files`` (ApfFile) of one side, read from ``spec``: raise the one-line error of an
    input without any APF document."""
    files = list(files)
    if any(f.documents for f in files):
        return
    if not files:  # lenient mode skipped every file
        raise AceUsageError(f"nothing to score: {label} {spec}: no APF file could be read")
    if len(files) == 1:
        what = what_is_there(files[0].path)
        where = (
            spec
            if os.path.abspath(spec) == os.path.abspath(files[0].path)
            else f"{spec} ({files[0].path})"
        )
        raise AceUsageError(f"nothing to score: {label} {where} holds no APF document: {what}")
    raise AceUsageError(
        f"nothing to score: {label} {spec} holds no APF document in its"
        f" {len(files)} files (e.g. {files[0].path}:"
        f" {what_is_there(files[0].path)})"
    )


def require_common(
    ref_docids: Collection[str], sys_docids: Collection[str], ref_spec: str, sys_spec: str
) -> None:
    """Raise the one-line error of REF and SYS (their DOCIDs) without a DOCID in common."""
    rdocs = sorted(set(ref_docids))
    sdocs = sorted(set(sys_docids))
    if not rdocs or not sdocs or set(rdocs) & set(sdocs):
        return
    raise AceUsageError(
        f"nothing to score: REF {ref_spec} ({_n(len(rdocs), 'document')},"
        f" e.g. {rdocs[0]}) and SYS {sys_spec} ({_n(len(sdocs), 'document')},"
        f" e.g. {sdocs[0]}) have no DOCID in common"
    )
