"""What a run is asked to do: one typed, immutable options object for every command and for
the Python API (:func:`acescore.score`).  The command line's shared options
(:mod:`acescore.cli.common`) build one of these; so does the API from its keywords."""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any

from acescore.model.errors import AceUsageError
from acescore.model.limits import DEFAULT_MAX_BYTES, DEFAULT_MAX_PAIRS
from acescore.model.params import Params
from acescore.model.records import dataclass
from acescore.model.versions import (
    DEFAULT_VERSION,
    VERSION_OPTIONS,
    NistVersion,
    version,
    version_params,
)


@dataclass(frozen=True, kw_only=True)
class Options:
    params: str = ""  # parameter set name (NIST -P; empty: the version's default)
    nist: str = DEFAULT_VERSION  # the NIST scorer reproduced: ace08, ace07, ace05
    # the older versions' options as typed (None: the version's default; docs/rules/versions.md)
    weighting: str | None = None  # -W
    mapping: str | None = None  # -M
    nargs: str | None = None  # -N
    arg_scoring: str | None = None  # -S
    averaging: str | None = None  # -A (ace05)
    arg_valuation: str | None = None  # -V (ace07)
    mentions: bool = False  # -m: also the mention-level tasks
    doc_scores: bool = False  # -d
    all_mappings: bool = False  # -a
    error_mappings: bool = False  # -e
    summary: bool = False  # -s
    check_duplicates: bool = False  # -c
    lenient: bool = False  # skip broken elements/documents instead of stopping
    max_bytes: int = DEFAULT_MAX_BYTES  # largest APF file read
    jobs: int = 1  # processes for scoring
    literature: bool = True  # also the literature metrics (JSON ``coref``/``events``)
    listing_data: bool = True  # -a/-e/-s also as data (JSON ``mappings``/``listing``)
    # each pass's tables also as data (PassOutput.data: JSON, CSV, Results.table); the text
    # report needs only each pass's total Value (PassOutput.value)
    tables_data: bool = True
    docs: tuple | None = None  # --docs: only these DOCIDs (REF and SYS)
    docs_file: str | None = None  # the --docs file they were read from (for messages)
    max_pairs: int = DEFAULT_MAX_PAIRS  # REF/SYS pairs valued in one document (scoring/limits)

    def __post_init__(self) -> None:
        v = version(self.nist)  # an unknown version or parameter set is a usage error, here
        if not self.params:
            object.__setattr__(self, "params", v.default_params)
        self._version_params()
        if not (isinstance(self.max_bytes, int) and self.max_bytes > 0):
            raise AceUsageError(
                f"the largest file size must be a positive number of bytes, not {self.max_bytes!r}"
            )
        if not (isinstance(self.max_pairs, int) and self.max_pairs >= 1):
            raise AceUsageError(
                f"the pair limit must be a whole number >= 1, not {self.max_pairs!r}"
            )
        if not (isinstance(self.jobs, int) and self.jobs >= 1):
            raise AceUsageError(f"jobs must be a whole number >= 1, not {self.jobs!r}")

    @property
    def version(self) -> NistVersion:
        """The NIST scorer this run reproduces (:mod:`acescore.model.versions`)."""
        return version(self.nist)

    def _version_params(self) -> Params:
        given = {k: getattr(self, k) for k in VERSION_OPTIONS}
        return version_params(self.version, self.params, given)

    @cached_property
    def parameter_set(self) -> Params:
        """The parameter set (with this run's ``max_pairs`` and the older versions' options),
        made once per Options."""
        p = self._version_params()
        return p if p.max_pairs == self.max_pairs else replace(p, max_pairs=self.max_pairs)

    @property
    def scores_mentions(self) -> bool:
        """The mention-level tasks are scored: asked for (-m) and the parameter set uses
        mentions."""
        return self.mentions and bool(self.parameter_set.use_mentions)

    @property
    def ignored_mentions(self) -> str | None:
        """What to say when ``-m`` is asked for and the parameter set has no mention-level
        tasks (None otherwise)."""
        if not self.mentions or self.scores_mentions:
            return None
        return (
            f"-m is ignored: parameter set {self.params} scores no mention-level tasks (as the"
            " NIST tool does; global_2008_with_mentions scores them)"
        )

    @property
    def literature_metrics(self) -> bool:
        """Whether the run makes the literature metrics of the JSON (asked for, and a
        parameter set that scores mentions)."""
        return bool(self.literature and self.parameter_set.use_mentions)

    @property
    def listings(self) -> bool:
        """Whether the run prints listings (``-s``, ``-a``, ``-e``)."""
        return bool(self.summary or self.all_mappings or self.error_mappings)

    @property
    def nist_label(self) -> str:
        """The version for the signature, with the older versions' options given:
        ``ace08``, ``ace05(W=mention,M=both)``."""
        given = [
            f"{o.letter}={getattr(self, k)}"
            for k, o in VERSION_OPTIONS.items()
            if getattr(self, k) is not None
        ]
        return self.nist + (f"({','.join(given)})" if given else "")

    @property
    def flags(self) -> str:
        """The NIST flags of the run, as the signature writes them (``mdaes``): ``m`` only
        where mention-level tasks are scored (``-P global_2008`` ignores ``-m``, as the NIST
        tool does: :attr:`ignored_mentions`)."""
        return "".join(
            f
            for f, on in (
                ("m", self.scores_mentions),
                ("d", self.doc_scores),
                ("a", self.all_mappings),
                ("e", self.error_mappings),
                ("s", self.summary),
            )
            if on
        )

    def but(self, **changes: Any) -> Options:
        """A copy with some options changed."""
        return replace(self, **changes)
