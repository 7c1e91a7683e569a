"""Lenient mode: skip what is broken, score the rest, say exactly what was skipped.

In strict mode (the default, like the NIST tool) the first fatal input problem stops the run.
In lenient mode every such problem is *isolated*:

* **element level** -- an entity, relation, event, value or timex2 that cannot be read
  (bad attribute, bad locator, no mentions ...) is skipped; so is the later of two elements
  with the same ID in one document;
* **document level** -- a file that cannot be read at all (missing, too large, not UTF-8,
  entity declarations, malformed XML), a ``source_file`` with bad attributes, a ``document``
  without DOCID, a DOCID defined more than once on one side, a SYS document whose SOURCE or
  data type differs from the REF document: the document(s) concerned are skipped **on both
  sides**, so that REF and SYS stay comparable.  The DOCIDs of an unreadable file are taken
  from its ``<document DOCID=...>`` tags, or, when none can be found, from the file name.
  A file left without documents is dropped altogether (its SOURCE no longer counts);
* **whole-side checks** (docs/rules/input.md §3) are isolated too, in canonical order (DOCIDs, kinds and IDs
  in code-point order, so the outcome does not depend on the order of the input files):
  an element that conflicts with the same global element in an earlier document (attributes,
  external links, relation arguments) is skipped in the later document; a relation whose
  merged arguments are still incomplete is skipped; of two elements or mentions sharing an
  ID the later one in registry order (docs/rules/input.md §3.3) is skipped; a relation or event whose
  argument (or argument mention) is missing, skipped, or not in its document is skipped --
  and so on, until nothing changes (cascade).

The rules are those of strict mode, written once: the reader's element checks report to
its error policy (:mod:`acescore.model.problems`), the whole-side checks are
:mod:`acescore.rules.corpus`; strict mode raises the first problem, lenient mode skips them all.
The result is therefore by construction the strict result on the corpus without the skipped
elements and documents, and a corpus that strict mode accepts is scored identically in
lenient mode, with nothing skipped.

Every skip is a :class:`~acescore.model.problems.Problem` (``Skip``: side, file, line, element,
message -- the strict mode message -- and what was skipped); :class:`SkipReport` counts them
for the JSON report (``"skipped"``) and standard error.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import field, replace
from typing import Any

from acescore.model.apf import KINDS, PLURAL
from acescore.model.params import Params
from acescore.model.problems import UNKNOWN_DOCID, Problem
from acescore.model.records import dataclass
from acescore.rules.corpus import corpus_problems
from acescore.rules.database import Side, build_sides

#: one isolated input problem and what was skipped because of it
Skip = Problem


@dataclass
class SkipReport:
    """What a lenient run skipped: counts and the reasons, in a canonical order."""

    reasons: list = field(default_factory=list)

    @property
    def elements(self) -> int:
        return sum(len(s.removed) for s in self.reasons if s.scope == "element")

    @property
    def documents(self) -> int:
        out = set()
        unknown = 0
        for s in self.reasons:
            if s.scope == "document":
                out.update(s.docids)
                unknown += s.note == UNKNOWN_DOCID
        return len(out) + unknown

    def as_dict(self) -> dict:
        return {
            "elements": self.elements,
            "documents": self.documents,
            "reasons": [s.as_dict() for s in self.reasons],
        }

    def summary(self) -> str:
        e, d = self.elements, self.documents
        return (
            f"lenient: skipped {e} element{'s' if e != 1 else ''} and {d}"
            f" document{'s' if d != 1 else ''} ({len(self.reasons)}"
            f" problem{'s' if len(self.reasons) != 1 else ''})"
        )

    def lines(self) -> list[str]:
        return [self.summary()] + ["  " + s.text() for s in self.reasons]

    def __bool__(self) -> bool:
        return bool(self.reasons)


# ---- removing documents and elements ----------------------------------------------------------


def materialize(files: list, removed_docs: set, removed: set) -> list:
    """The files without the removed documents and document elements ``(kind, ID, DOCID)``;
    a file that loses all its documents is dropped (with its SOURCEs)."""
    out = []
    for f in files:
        docs = []
        changed = False
        for d in f.documents:
            if d.docid in removed_docs:
                changed = True
                continue
            if removed:
                parts = {}
                for kind in KINDS:
                    els = d.elements(kind)
                    keep = tuple(e for e in els if (kind, e.id, d.docid) not in removed)
                    if len(keep) != len(els):
                        parts[PLURAL[kind]] = keep
                if parts:
                    d = replace(d, **parts)
                    changed = True
            docs.append(d)
        if not changed:
            out.append(f)
            continue
        if f.documents and not docs:
            continue
        before = {d.source for d in f.documents}
        after = {d.source for d in docs}
        sources = tuple(s for s in f.sources if s not in before or s in after)
        out.append(replace(f, documents=tuple(docs), sources=sources))
    return out


@dataclass
class LenientBuild:
    ref_files: list
    sys_files: list
    ref: Side
    sys: Side
    report: SkipReport


def build_lenient(
    ref_files: list,
    sys_files: list,
    params: Params,
    warnings: list,
    read_skips: Iterable[Skip] = (),
) -> LenientBuild:
    """Build both sides in lenient mode from files read (leniently or not).  ``read_skips``
    are the reading problems (their side set); documents they name are skipped on both
    sides, and so is everything the input rules (:mod:`acescore.rules.corpus`) find broken.  NIST
    warnings of the build are appended to ``warnings``."""
    rfiles, sfiles, log = isolate(ref_files, sys_files, read_skips)
    rside, sside = build_sides(rfiles, sfiles, params, warnings)
    report = SkipReport(sorted(log, key=Skip.sort_key))
    return LenientBuild(rfiles, sfiles, rside, sside, report)


def isolate(
    ref_files: list, sys_files: list, read_skips: Iterable[Skip] = ()
) -> tuple[list, list, list]:
    """The REF and SYS files without what the reading problems ``read_skips`` and the input
    rules find broken, and every skip (reading problems first; not yet sorted)."""
    log = list(read_skips)
    removed_docs: set = set()
    for s in log:
        if s.scope == "document":
            removed_docs.update(s.docids)
    removed_ref: set = set()
    removed_sys: set = set()
    log.extend(corpus_problems(ref_files, sys_files, removed_docs, removed_ref, removed_sys))
    return (
        materialize(ref_files, removed_docs, removed_ref),
        materialize(sys_files, removed_docs, removed_sys),
        log,
    )


def with_side(skips: Iterable[Skip], side: str) -> list:
    return [replace(s, side=side) if s.side is None else s for s in skips]


def build_corpora(ref: Any, sys: Any, params: Params, warnings: list) -> LenientBuild:
    """:func:`build_lenient` for two :class:`acescore.api.Corpus` objects (their reading
    problems, ``Corpus.skipped``, included)."""
    return build_lenient(
        ref.files,
        sys.files,
        params,
        warnings,
        with_side(getattr(ref, "skipped", ()), "REF")
        + with_side(getattr(sys, "skipped", ()), "SYS"),
    )
