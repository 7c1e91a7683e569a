"""Conformance of --nist ace07 / ace05 on the golden ``medium`` corpus (150 documents, system
``heavy``): acescore's report and warnings equal those of the deterministic copy of the older
NIST scorer, byte for byte (first line excepted).

The corpus is not kept under tests/data/golden (26 MB): tools/acesynth.py makes its REF and
``sys-heavy`` files again, once per test process.  The expected outputs are
tests/data/versions/<version>/medium/*.txt.xz (tests/data/versions/README.md).  The suite runs
the cases of IN_SUITE, one of each kind of code they reach, at ``--jobs 1``;
``tools/check_versions.py`` runs them all (and any ``--jobs``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_versions_golden import (
    VERSIONS,
    case_name,
    corpus_folder,
    refusal_difference,
    report_difference,
)

pytestmark = pytest.mark.slow  # 150 documents

#: the cases the suite runs (version/SYS__FLAGS): each version's mention level with the
#: -d/-e blocks (the most code of a run), ace05's mention weighting and its refusal; every
#: option of the other cases is run on tiny and small by test_versions_golden.py
IN_SUITE = {
    "ace05/heavy__m_d_e",
    "ace05/heavy__m_W_mention",
    "ace05/heavy__A_geometric",
    "ace07/heavy__m_d_e",
}


def _key(exp: Path) -> str:
    return f"{exp.parent.parent.name}/{case_name(exp)}"


def _medium_files(kind: str) -> list:
    return sorted(
        exp
        for exp in VERSIONS.glob(f"*/medium/*__*{kind}.txt.xz")
        if kind or not exp.name.endswith((".stderr.txt.xz", ".fatal.txt.xz"))
    )


@pytest.fixture(scope="module")
def medium(tmp_path_factory):
    return corpus_folder("medium", tmp_path_factory.mktemp("corpora"))


def test_the_suite_s_cases_are_expected_outputs():
    """IN_SUITE names expected files (a renamed file would drop a case silently)."""
    files = _medium_files("") + _medium_files(".fatal")
    assert {_key(f) for f in files} >= IN_SUITE
    assert len(files) == 17  # ace05: 10 reports and -A's refusal; ace07: 6 reports


@pytest.mark.parametrize("exp", [f for f in _medium_files("") if _key(f) in IN_SUITE], ids=_key)
def test_report_identical_on_medium(exp, medium):
    difference = report_difference(exp, medium, 1)
    assert difference is None, difference


@pytest.mark.parametrize(
    "fatal", [f for f in _medium_files(".fatal") if _key(f) in IN_SUITE], ids=_key
)
def test_refusal_on_medium(fatal, medium):
    difference = refusal_difference(fatal, medium)
    assert difference is None, difference
