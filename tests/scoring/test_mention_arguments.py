"""The relation/event mention preparation values only the elements that can be arguments
(acescore.scoring.engine._argument_ids): the reports, listings and JSON are those of
valuing every element -- also where the system reuses the reference's IDs, so that the
tool's look-up of SYS arguments on the REF side finds REF elements."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from synth import make_corpus

from acescore import api
from acescore.scoring import engine

KW = dict(all_mappings=True, error_mappings=True, summary=True, literature=True)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = make_corpus(tmp_path_factory.mktemp("mention-args"), 6, "mention-args", "heavy,args")
    # a second system with the reference's own IDs (no "-S-" in them)
    same = out / "sys-same-ids"
    same.mkdir()
    for f in sorted((out / "sys-heavy").iterdir()):
        (same / f.name).write_text(
            f.read_text(encoding="utf-8").replace("-S-", "-"), encoding="utf-8"
        )
    return out


def _all_elements(monkeypatch) -> None:
    monkeypatch.setattr(engine, "_argument_ids", lambda run: None)


@pytest.mark.slow
@pytest.mark.parametrize("system", ["sys-heavy", "sys-same-ids"])
@pytest.mark.parametrize("params", ["local_2008", "global_2008_with_mentions"])
def test_restricted_preparation_changes_nothing(corpus, system, params, monkeypatch):
    ref, sys_ = str(corpus / "ref"), str(corpus / system)
    restricted = api.score(ref, sys_, params, True, **KW)
    text = restricted.to_text()
    assert "======== mention_relation scoring ========" in text
    assert "======== mention_event scoring ========" in text
    _all_elements(monkeypatch)
    full = api.score(ref, sys_, params, True, **KW)
    assert text == full.to_text()
    assert restricted.to_json() == full.to_json()


@pytest.mark.slow
def test_fewer_elements_valued(corpus, monkeypatch):
    """The restriction is real: the entity mention preparation values fewer elements."""
    sizes = []
    real = engine.ElementPass.run

    def run(self):
        sizes.append((self.kind, len(self.ref), len(self.sys)))
        return real(self)

    monkeypatch.setattr(engine.ElementPass, "run", run)
    api.score(str(corpus / "ref"), str(corpus / "sys-heavy"), "local_2008", True)
    restricted = list(sizes)
    sizes.clear()
    _all_elements(monkeypatch)
    api.score(str(corpus / "ref"), str(corpus / "sys-heavy"), "local_2008", True)
    assert len(restricted) == len(sizes)
    assert all(a[1] <= b[1] and a[2] <= b[2] for a, b in zip(restricted, sizes))
    smaller = {a[0] for a, b in zip(restricted, sizes) if a != b}
    assert smaller == {"entity", "value", "timex2"}, (restricted, sizes)


def test_argument_ids_hold_mentions_and_their_hosts(corpus):
    """SYS mention arguments by their mention IDs, REF ones also by their host entities."""
    ref = api.prepare_reference(str(corpus / "ref"), "local_2008")
    run_ids = None

    real = engine._argument_ids

    def spy(run):
        nonlocal run_ids
        run_ids = real(run)
        return run_ids

    engine._argument_ids = spy
    try:
        api.score(ref, str(corpus / "sys-heavy"), "local_2008", True)
    finally:
        engine._argument_ids = real
    assert run_ids
    text = (corpus / "ref").glob("*.apf.xml")
    ref_arg = next(
        m.group(1)
        for f in text
        for m in [
            re.search(r'<relation_mention_argument REFID="([^"]+)"', f.read_text(encoding="utf-8"))
        ]
        if m
    )
    assert ref_arg in run_ids
    host = ref_arg.rsplit("-", 1)[0]  # the entity of mention E..-N
    assert host in run_ids
