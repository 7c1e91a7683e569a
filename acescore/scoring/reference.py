"""What the scoring runs of several systems against one REF side compute of that side
alone, computed by the first run and taken by the others (``acescore compare``: a
document shard's reference scored against every system, :mod:`acescore.run.shard_worker`).

A :class:`SharedReference` belongs to one REF side and one parameter set; a run
(:func:`acescore.scoring.engine.new_run`) given one that serves it (the same side, the same
parameters) takes what an earlier run put there and puts there what it computes first:

* the REF entity mentions promoted to elements (the EMD pass), with the warnings the
  promotion gives (older versions), said again by every run in the same phase;
* the REF relation and event mentions promoted to elements (the mention-level relation and
  event passes), with their warnings;
* the REF side's self values of each entity, value and timex2 valuation of the document
  chain and of EMD (:meth:`acescore.scoring.elements.ElementPass.run`).

Each of these depends on the REF side and the parameters only, and the runs read them
without changing them: the results are those of runs without it, bit for bit.  Nothing is
kept between processes or commands: the object lives as long as its caller keeps it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from acescore.model.params import Params
from acescore.rules.database import Side

_T = TypeVar("_T")


class SharedReference:
    """The REF-only results of the runs against ``side`` under ``params``, by key."""

    def __init__(self, side: Side, params: Params) -> None:
        self.side = side
        self.params = params
        self._kept: dict = {}

    def serves(self, ref: Side, params: Params) -> bool:
        """Whether a run of ``ref`` under ``params`` can take from it."""
        return ref is self.side and (params is self.params or params == self.params)

    def get(self, key: tuple, make: Callable[..., _T], *args: object) -> _T:
        """The result kept under ``key``, made by ``make(*args)`` the first time."""
        kept = self._kept
        if key in kept:
            found: _T = kept[key]
            return found
        made = kept[key] = make(*args)
        return made

    def replayed(self, key: tuple, make: Callable[[list | None], _T], warnings: list | None) -> _T:
        """``make(w)``, made once and kept under ``key``: ``w`` collects the warnings it
        gives (None where ``warnings`` is None: none are asked for, and the result is kept
        apart), and each run gets them added to ``warnings`` as the first run did."""
        made: _T
        said: list
        made, said = self.get((*key, warnings is not None), _collecting, make, warnings is not None)
        if warnings is not None:
            warnings.extend(said)
        return made


def _collecting(make: Callable[[list | None], _T], asked: bool) -> tuple[_T, list]:
    """``make``'s result and the warnings it gave (``asked``: give it a list for them)."""
    said: list = []
    return make(said if asked else None), said


class RefSelfValues:
    """The REF side's part of one valuation's self values
    (:meth:`acescore.scoring.elements.ElementPass.run`): the dicts it fills for REF, as
    they are when the REF side is done (before any SYS entry)."""

    def __init__(self) -> None:
        self.parts: tuple | None = None
