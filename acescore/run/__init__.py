"""A run: the pipeline, document shards and worker processes.  Its entry point is
:func:`execute` (:mod:`acescore.run.entry`); whether a run goes in shards, :func:`plan_run`."""

from acescore.run.entry import Reference, execute, plan_run, prepare_reference

__all__ = ["Reference", "execute", "plan_run", "prepare_reference"]
