"""One rule set, a policy per caller (acescore.rules.corpus, acescore.model.problems): the two defects of
real annotation that the NIST tool cannot score (docs/rules/ldc-sources.md) -- a symmetric relation
whose Arg-1 and Arg-2 are one entity, an event argument declared twice -- stop strict mode
with one actionable line (exit 2), are skipped by lenient mode (the rest scored as strict
mode scores the corpus without them) and are all listed by ``acescore validate``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore import api
from acescore.cli import main
from acescore.model.errors import AceInputError
from acescore.model.params import get_params
from acescore.model.problems import Collect
from acescore.reading.apf import read_apf
from acescore.rules.corpus import corpus_problems, first_problem
from acescore.rules.strict import StrictChecks

DATA = Path(__file__).parent.parent / "data" / "robust"
sys.path.insert(0, str(DATA))
import make_robust  # noqa: E402

SYM, TWICE = "sys_symmetric_relation_same_entity", "sys_event_argument_twice"
D2, D3 = make_robust.D2, make_robust.D3
REL, EV = f"{D3}-S-R2", f"{D2}-S-EV1"
SYM_LINE = (
    f"sys/{D3}.apf.xml:193: relation {REL}: Arg-1 and Arg-2 are the same entity"
    f" ({D3}-S-E4); NIST: symmetric relation '{REL}' must have exactly 2 'Arg'"
    f" arguments, but: Arg arguments: '{D3}-S-E4'"
)
TWICE_LINE = (
    f"sys/{D2}.apf.xml:205: event {EV}: argument {D2}-S-E2 is declared twice in"
    f" event {EV} (role Defendant); NIST: multiple declarations of argument {D2}-S-E2"
    " in role Defendant"
)
HINT = " — use --lenient to skip such elements, or `acescore validate` to list them all"


def both_defects(folder: Path, variant: str) -> None:
    """The local robust corpus with both defects (``broken``) or without the two elements
    (``clean``)."""
    make_robust.write_case(SYM, variant, str(folder))
    edit = make_robust.BY_NAME[TWICE][variant][("sys", D2)]
    p = folder / "sys" / f"{D2}.apf.xml"
    p.write_text(edit(p.read_text(encoding="utf-8")), encoding="utf-8")


def run(args, folder, monkeypatch):
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, args)
    assert "Traceback" not in result.output
    return result


def test_strict_stops_with_cause_and_hint(tmp_path, monkeypatch):
    """Strict mode: one line, the cause in plain words next to the NIST detail and the hint;
    reading comes first (the event argument), then the rules (the relation)."""
    both_defects(tmp_path, "broken")
    r = run(["score", "ref.list", "sys.list", "-m"], tmp_path, monkeypatch)
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == f"acescore: {TWICE_LINE}{HINT}\n"
    make_robust.write_case(SYM, "broken", str(tmp_path / "sym"))
    r = run(["score", "ref.list", "sys.list"], tmp_path / "sym", monkeypatch)
    assert (r.exit_code, r.stderr) == (2, f"acescore: {SYM_LINE}{HINT}\n")


@pytest.mark.slow
def test_lenient_skips_both_and_scores_the_rest(tmp_path, monkeypatch):
    both_defects(tmp_path / "broken", "broken")
    both_defects(tmp_path / "clean", "clean")
    monkeypatch.chdir(tmp_path / "broken")
    got = api.score("ref.list", "sys.list", "local_2008", True, lenient=True)
    monkeypatch.chdir(tmp_path / "clean")
    want = api.score("ref.list", "sys.list", "local_2008", True)
    assert got.to_text() == want.to_text()
    rep = got.skipped
    assert (rep.elements, rep.documents) == (2, 0)
    assert [(s.side, s.element, s.rule) for s in rep.reasons] == [
        ("SYS", f"event {EV}", "reader"),
        ("SYS", f"relation {REL}", "relation-arguments"),
    ]
    assert [s.removed for s in rep.reasons] == [(("event", EV, D2),), (("relation", REL, D3),)]
    # the command line: the report on stdout, what was skipped (with the causes) on stderr
    r = run(["score", "ref.list", "sys.list", "--lenient"], tmp_path / "broken", monkeypatch)
    assert r.exit_code == 0 and r.stdout.startswith("command line")
    lines = r.stderr.splitlines()
    # by default grouped by kind (two kinds of one each: each shown whole)
    assert lines[:3] == [
        "acescore: lenient: skipped 2 elements and 0 documents (2 problems; --verbose lists each):",
        f"acescore:   1 × SYS: {TWICE_LINE} [event {EV} skipped]",
        f"acescore:   1 × SYS: {SYM_LINE} [relation {REL} skipped]",
    ]
    r = run(
        ["score", "ref.list", "sys.list", "--lenient", "--verbose"],
        tmp_path / "broken",
        monkeypatch,
    )
    lines = r.stderr.splitlines()
    assert "acescore: lenient: skipped 2 elements and 0 documents (2 problems)" in lines
    assert f"acescore:   SYS: {TWICE_LINE} [event {EV} skipped]" in lines
    assert f"acescore:   SYS: {SYM_LINE} [relation {REL} skipped]" in lines


def test_validate_lists_both(tmp_path, monkeypatch):
    both_defects(tmp_path, "broken")
    r = run(["validate", "sys"], tmp_path, monkeypatch)
    assert r.exit_code == 1
    assert r.stdout.splitlines()[:-1] == [TWICE_LINE, SYM_LINE]
    assert r.stdout.splitlines()[-1].endswith(": 2 problems in 2 files")


def read_side(side: str, policy=None):
    """The files of ``side`` (a folder of the current directory), in name order."""
    p = get_params("local_2008")
    return [
        read_apf(str(f), p, policy=policy) if policy else read_apf(str(f), p)
        for f in sorted(Path(side).glob("*.apf.xml"))
    ]


def test_reader_policy(tmp_path, monkeypatch):
    """The reader takes an error policy: strict raises the first problem, a collecting
    policy records every problem and leaves out what is broken."""
    both_defects(tmp_path, "broken")
    monkeypatch.chdir(tmp_path)
    try:
        read_side("sys")
        raise AssertionError("no error")
    except AceInputError as e:
        assert str(e) == TWICE_LINE and e.line == 205 and e.scope == "element"
    policy = Collect()
    files = read_side("sys", policy)
    assert [p.element for p in policy.problems] == [f"event {EV}"]
    events = [ev.id for f in files for d in f.documents for ev in d.events]
    assert EV not in events and f"{D2}-S-EV2" in events


def test_rules_canonical_order_and_strict_is_first(tmp_path, monkeypatch):
    """Every problem of the corpus in one order, whatever the order of the files (REF before
    SYS); strict mode's error is the first of them; each problem names rule, side, file,
    line, element and DOCID."""
    make_robust.write_case(SYM, "broken", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    edit = make_robust.BY_NAME["ref_relation_without_arg2"]["broken"][("ref", D2)]
    p = Path("ref") / f"{D2}.apf.xml"
    p.write_text(edit(p.read_text(encoding="utf-8")), encoding="utf-8")
    ref, sys_ = read_side("ref"), read_side("sys")
    problems = list(corpus_problems(ref, sys_))
    assert [(p.rule, p.side, p.path, p.line, p.element, p.docid) for p in problems] == [
        ("relation-arguments", "REF", f"ref/{D2}.apf.xml", 169, f"relation {D2}-R1", D2),
        ("relation-arguments", "SYS", f"sys/{D3}.apf.xml", 193, f"relation {REL}", D3),
    ]
    assert problems[0].cause == "the relation has no Arg-2"
    assert list(corpus_problems(ref[::-1], sys_[::-1])) == problems
    assert first_problem(corpus_problems(ref, sys_)) == problems[0]
    clean = read_side(str(DATA / "local" / "ref"))
    assert first_problem(corpus_problems(clean, clean)) is None


def test_strict_checks_of_one_reference_against_several_systems(tmp_path, monkeypatch):
    """StrictChecks (compare: the REF side checked once for every system) gives the first
    problem of corpus_problems for each system: a broken REF side's (after the system's
    own document problems), else the system's."""
    make_robust.write_case(SYM, "broken", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    sys_ = read_side("sys")
    clean = read_side(str(DATA / "local" / "ref"))
    checks = StrictChecks(clean)
    assert checks.first_problem(clean) is None
    got = checks.first_problem(sys_)
    assert got == first_problem(corpus_problems(clean, sys_))
    assert (got.rule, got.side, got.line) == ("relation-arguments", "SYS", 193)
    assert checks.first_problem(clean) is None  # (the REF side's outcome, kept)
    edit = make_robust.BY_NAME["ref_relation_without_arg2"]["broken"][("ref", D2)]
    p = Path("ref") / f"{D2}.apf.xml"
    p.write_text(edit(p.read_text(encoding="utf-8")), encoding="utf-8")
    broken = StrictChecks(read_side("ref"))
    for system in (sys_, clean):
        got = broken.first_problem(system)
        assert got == first_problem(corpus_problems(read_side("ref"), system))
        assert (got.rule, got.side, got.line) == ("relation-arguments", "REF", 169)
    twice = sys_ + sys_[:1]  # a DOCID defined twice: a document problem, before REF's
    got = broken.first_problem(twice)
    assert (got.rule, got.side) == ("docid-twice", "SYS")
    assert got == first_problem(corpus_problems(read_side("ref"), twice))


def test_json_reasons_name_rule_and_cause(tmp_path, monkeypatch):
    import json

    both_defects(tmp_path, "broken")
    r = run(
        ["score", "ref.list", "sys.list", "--lenient", "--format", "json", "-q"],
        tmp_path,
        monkeypatch,
    )
    reasons = json.loads(r.stdout)["skipped"]["reasons"]
    assert [(x["rule"], x.get("cause")) for x in reasons] == [
        ("reader", f"argument {D2}-S-E2 is declared twice in event {EV} (role Defendant)"),
        ("relation-arguments", f"Arg-1 and Arg-2 are the same entity ({D3}-S-E4)"),
    ]


def test_every_reading_command_hints(tmp_path, monkeypatch):
    """coref and events read APF too: the same line and hint in strict mode, the rest scored
    with --lenient; an error lenient mode cannot help with gets no hint."""
    make_robust.write_case(SYM, "broken", str(tmp_path))
    for command in ("coref", "events"):
        r = run([command, "ref.list", "sys.list"], tmp_path, monkeypatch)
        assert (r.exit_code, r.stderr) == (2, f"acescore: {SYM_LINE}{HINT}\n"), command
        r = run([command, "ref.list", "sys.list", "--lenient", "-q"], tmp_path, monkeypatch)
        assert (r.exit_code, r.stderr) == (0, ""), command
    r = run(["score", "nothing-here", "sys.list"], tmp_path, monkeypatch)
    assert r.exit_code == 2 and " — " not in r.stderr
