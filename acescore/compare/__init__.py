"""``acescore compare``: is system B really better than system A?

* :mod:`.stats` -- bootstrap, paired bootstrap and paired approximate randomization over
  per-document components (numpy, vectorised, seeded);
* :mod:`.components` -- a scored run as per-document components per task, and the groups
  of documents that must be resampled together;
* :mod:`.systems` (and :mod:`.shards`, :mod:`.workers`) -- reading the reference once and
  scoring each system (in document shards: each shard's reference read once and every
  system scored on it);
* :mod:`.analysis` -- the comparison: intervals, differences, p-values, per-document view;
* :mod:`.render` -- text and JSON.

From Python::

    from acescore.compare import compare_systems
    result = compare_systems("ref/", ["sys-a/", "sys-b/"], mentions=True)
    result["comparisons"][0]["tasks"]["edr"]["p_value"]
"""

from __future__ import annotations

from collections.abc import Sequence

from acescore.compare.analysis import check_parameters, compare
from acescore.compare.names import system_names
from acescore.compare.systems import score_systems
from acescore.model.errors import python_errors
from acescore.model.options import Options
from acescore.run.pipeline import discover


@python_errors
def compare_systems(
    ref,
    systems: Sequence,
    params: str = "local_2008",
    mentions: bool = True,
    names: list | None = None,
    bootstrap: int = 1000,
    randomization: int = 10000,
    seed: int = 12345,
    alpha: float = 0.05,
    top: int = 10,
    lenient: bool = False,
    literature: bool = True,
    jobs: int = 1,
) -> dict:
    """What ``acescore compare REF SYS_A SYS_B ... --format json`` prints, as a dict.
    ``ref`` and each system: a path (file, directory, list file) or a sequence of paths;
    ``names``: one per system (default: :func:`acescore.compare.names.system_names`)."""
    check_parameters(bootstrap, randomization, alpha)
    options = Options(
        params=params, mentions=mentions, lenient=lenient, jobs=jobs, literature=literature
    )
    paths = [discover(s, lenient=lenient) for s in systems]
    names = system_names(list(systems), paths, names or ())
    scored = score_systems(discover(ref, lenient=lenient), paths, options, names)
    return compare(scored, bootstrap, randomization, seed, alpha=alpha, top=top)
