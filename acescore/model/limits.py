"""The one limit on scoring work: REF/SYS pairs in one document.

Scoring values every REF/SYS pair of mentions whose spans correspond, and every pair of
relations or events that may correspond, and then matches them.  In real annotation a
document has a few pairs per mention; but mentions (or entities, or relations) that all
share one span pair with every element of the other side, and the work grows with the
square of their number (1,000 entities on one span: a million pairs; the matching of such
a block grows faster still).  No exact shortcut gives the same result, so a document with
more than ``max_pairs`` such pairs is refused with a one-line error naming the document and
the option that raises the limit (``--max-pairs``), as a file over ``--max-file-size`` is.
"""

from __future__ import annotations

from acescore.model.errors import AceInputError
from acescore.model.params import Params

#: the default limit, carried by every parameter set (Params.max_pairs; Options.max_pairs)
DEFAULT_MAX_PAIRS = Params.max_pairs
OPTION = "--max-pairs"

#: the largest input file read by default (``--max-file-size``)
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


def too_many_pairs(docid: str, what: str, count: int, limit: int) -> AceInputError:
    """The error for a document with more than ``limit`` pairs of ``what``."""
    return AceInputError(
        f"more than {limit} REF/SYS {what} pairs to value ({count} so far): elements that share"
        f" one span pair with every element of the other side and the work grows with the"
        f" square; raise the limit with {OPTION} N",
        element=f"document {docid}",
    )


#: ``acescore compare``: the most bootstrap resamples and randomization rounds (the draws
#: are held in memory: resamples x documents numbers, rounds x documents booleans; at the
#: limits, on 600 documents, about 0.4 GB and 0.7 GB)
MAX_BOOTSTRAP = 20_000
MAX_RANDOMIZATION = 1_000_000

#: the most processes ``--jobs`` starts at a time (a value beyond it is refused with this
#: range: 10**18 processes would only end in a MemoryError while planning them)
MAX_JOBS = 1024
