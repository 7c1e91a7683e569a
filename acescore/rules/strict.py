"""Strict mode's first broken input rule of one reference against several system outputs
(``acescore compare``): :func:`acescore.rules.corpus.corpus_problems` with the REF side's
checks made once.

The problems come in the canonical order (documents of both sides, then the REF side, then
the SYS side): a system's document problems still come first; the REF side's checks do not
depend on the system (in strict mode the first problem is the last one looked for: no
document is removed before them), so their first problem is looked for once."""

from __future__ import annotations

from acescore.model.problems import Problem
from acescore.rules.corpus import document_problems, first_problem, side_documents, side_problems

_UNSET = object()


class StrictChecks:
    """The first problem of ``ref_files`` against each system's files."""

    def __init__(self, ref_files: list) -> None:
        self.ref_files = ref_files
        self._ref_docs = side_documents(ref_files)
        self._eval_docids = {d.docid for d in self._ref_docs}
        self._ref_problem: object = _UNSET

    def first_problem(self, sys_files: list) -> Problem | None:
        """What ``first_problem(corpus_problems(ref_files, sys_files))`` gives."""
        problem = first_problem(document_problems(self.ref_files, sys_files, set()))
        if problem is not None:
            return problem
        if self._ref_problem is _UNSET:
            self._ref_problem = first_problem(side_problems("REF", self._ref_docs, set()))
        if self._ref_problem is not None:
            return self._ref_problem  # type: ignore[return-value]
        sys_docs = side_documents(sys_files, frozenset(), self._eval_docids)
        return first_problem(side_problems("SYS", sys_docs, set()))
