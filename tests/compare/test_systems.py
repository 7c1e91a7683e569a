"""Several systems against one reference: read and built once (api.prepare_reference,
api.score_systems), each system's results those of a run of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from acescore import api
from acescore.model.errors import AceUsageError

SMALL = Path(__file__).parent.parent / "data" / "golden" / "small"
EXPECTED = SMALL / "expected"


@pytest.mark.slow
def test_prepared_reference_scores_each_system_as_alone():
    ref = api.prepare_reference(str(SMALL / "ref"), "local_2008")
    systems = [str(SMALL / s) for s in ("sys-heavy", "sys-coref", "sys-perfect", "sys-heavy")]
    many = api.score_systems(ref, systems, mentions=True)
    alone_of: dict = {}  # (sys-heavy, given twice, scored alone once)
    for sysdir, res in zip(systems, many):
        if sysdir not in alone_of:
            alone_of[sysdir] = api.score(str(SMALL / "ref"), sysdir, "local_2008", True)
        alone = alone_of[sysdir]
        assert res.to_json() == alone.to_json()
        assert res.to_text() == alone.to_text()
        assert res.warnings == alone.warnings
        name = Path(sysdir).name.split("-", 1)[1]
        expected = (EXPECTED / f"{name}__m.txt").read_text(encoding="utf-8")
        assert res.to_text() == expected.split("\n", 1)[1]
    # rendered as the CLI does, with worker processes: the same
    again = api.score(ref, systems[0], "local_2008", True, jobs=2)
    assert again.to_text() == many[0].to_text()


@pytest.mark.slow
def test_score_systems_from_paths_and_wrong_params():
    out = api.score_systems(str(SMALL / "ref"), [str(SMALL / "sys-coref")], "local_2008", True)
    expected = (EXPECTED / "coref__m.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    assert out[0].to_text() == expected
    ref = api.prepare_reference(str(SMALL / "ref"), "local_2008")
    with pytest.raises(AceUsageError, match="prepared for parameter set 'local_2008'"):
        api.score(ref, str(SMALL / "sys-coref"), "local_2007")
    with pytest.raises(AceUsageError, match="lenient"):
        api.score(ref, str(SMALL / "sys-coref"), "local_2008", lenient=True)


@pytest.mark.slow
def test_prepared_reference_lenient():
    """A reference prepared with lenient=True is built again with each system's skips:
    each system's results those of a lenient run of its own; docs= is refused in the
    API's words."""
    ref = api.prepare_reference(str(SMALL / "ref"), "local_2008", lenient=True)
    systems = [str(SMALL / s) for s in ("sys-heavy", "sys-coref")]
    many = api.score_systems(ref, systems, mentions=True, lenient=True)
    for sysdir, res in zip(systems, many):
        alone = api.score(str(SMALL / "ref"), sysdir, "local_2008", True, lenient=True)
        assert res.to_json() == alone.to_json()
        assert res.warnings == alone.warnings
    with pytest.raises(AceUsageError, match="lenient=True"):
        api.score(ref, systems[0], "local_2008")
    with pytest.raises(AceUsageError, match="docs= restricts both sides"):
        api.score(ref, systems[0], "local_2008", lenient=True, docs=["X"])


@pytest.mark.slow
def test_compare_scores_through_execute(monkeypatch):
    """acescore compare's systems are scored by acescore.run.execute against one prepared
    reference, passes kept and no report made of them; the values are those of the
    system's own report."""
    from acescore.compare import systems as compare_systems
    from acescore.model.options import Options
    from acescore.run import entry

    calls = []

    def spy(ref, sys_, options, **kw):
        res = entry.execute(ref, sys_, options, **kw)
        calls.append((ref, kw, res.outputs))
        return res

    monkeypatch.setattr(compare_systems, "execute", spy)
    paths = [api.discover(str(SMALL / s)) for s in ("sys-heavy", "sys-coref")]
    opts = Options(mentions=True, literature=False, jobs=1)
    scored = compare_systems.score_systems(api.discover(str(SMALL / "ref")), paths, opts)
    assert len(calls) == 2 and calls[0][0] is calls[1][0]
    assert isinstance(calls[0][0], entry.Reference)
    assert all(kw == {"keep_passes": True, "report": False} and out == [] for _, kw, out in calls)
    alone = api.score(str(SMALL / "ref"), str(SMALL / "sys-coref"), "local_2008", True)
    value = next(o.value for o in alone.outputs if o.task == "entity")
    assert scored.systems[1].tasks["edr"].value == value
