"""Test helper: count the shard workers a run forks."""

from __future__ import annotations

from acescore.run import parallel, shards


def count_shard_forks(monkeypatch, wrap=None) -> list:
    """Make every shard worker append to the returned list as it is forked (``wrap(work)``,
    if given, replaces the worker's work)."""
    started: list = []
    real_child = parallel.Child

    def child(work, before=None):
        started.append(1)
        return real_child(wrap(work) if wrap is not None else work, before)

    monkeypatch.setattr(shards, "Child", child)
    return started
