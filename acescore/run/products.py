"""What a run makes besides the NIST report's sections, and the code that makes it, handed
to the run by the layer that asks for it: the command line imports that code only when an
option asks for it (a one-document run's time is mostly imports), the Python API always.

* ``literature`` -- the JSON's literature metrics, per shard and merged
  (:mod:`acescore.metrics.records`; ``Options.literature``);
* ``listings`` -- the ``-s``/``-a``/``-e`` listings, per shard and merged
  (:mod:`acescore.report.listing_records`; ``Options.listings``).

Each is given as a module (or any object) with the functions of its protocol below.  A run
asked for a product whose code it was not given stops with a usage error
(:meth:`Products.check`): nothing is left out silently.
"""

from __future__ import annotations

from typing import Any, Protocol

from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.model.params import Params
from acescore.model.records import dataclass
from acescore.rules.database import Side


class LiteratureCode(Protocol):
    """:mod:`acescore.metrics.records`."""

    def literature_records(
        self, ref_side: Side, sys_side: Side, params: Params, b3: Any = None
    ) -> dict: ...

    def merged_literature(self, records: list, params: Params) -> dict | None: ...


class ListingCode(Protocol):
    """:mod:`acescore.report.listing_records`."""

    def pass_records(self, ctx: Any, res: Any, tables: Any = None) -> dict | None: ...

    def spooled(self, records: dict | None, writer: Any) -> dict | None: ...

    def document_records(self, rside: Side, sside: Side) -> tuple: ...

    def merged_pass(self, records: list, options: Any, printed: bool) -> tuple[list, dict]: ...

    def merged_documents(self, records: list) -> tuple[str, dict]: ...


@dataclass(frozen=True)
class Products:
    """The code of a run's optional products (None: not given)."""

    literature: LiteratureCode | None = None
    listings: ListingCode | None = None

    def check(self, options: Options) -> None:
        """Raise :class:`AceUsageError` where ``options`` ask for a product whose code is
        not given."""
        for name, asked in (
            ("literature", options.literature_metrics),
            ("listings", options.listings),
        ):
            if asked and getattr(self, name) is None:
                raise AceUsageError(
                    f"the run is asked for its {name} but was not given their code"
                    " (acescore.run.products)"
                )


#: no optional product (a run whose options ask for none)
NONE = Products()
