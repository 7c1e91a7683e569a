"""Tests for the assignment routine (spec docs/rules/determinism.md section 3)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acescore.model.bgm import bgm

# ---------------------------------------------------------------------------------------
# trivial cases (section 3.2)


def test_empty_input():
    assert bgm({}) == {}


def test_rows_without_entries_are_absent():
    assert bgm({0: {}, 3: {}}) == {}
    # one row with entries plus an empty one: single-row shortcut
    assert bgm({0: {}, 1: {4: -1.0, 2: -1.0}}) == {1: 2}
    assert bgm({0: {0: -1.0, 1: -1.0}, 1: {}}) == {0: 0}


def test_single_row_positive_cost_is_mapped():
    assert bgm({0: {0: 1.0}}) == {0: 0}  # Q1


def test_single_row_tie_takes_lowest_column():
    assert bgm({0: {0: -1.0, 1: -1.0, 2: -1.0}}) == {0: 0}
    # insertion order of the dict must not matter
    assert bgm({0: {2: -1.0, 1: -1.0, 0: -1.0}}) == {0: 0}
    assert bgm({7: {5: -2.0, 3: -1.0, 4: -2.0}}) == {7: 4}


def test_single_row_minimum():
    assert bgm({2: {0: 0.5, 1: -0.25, 2: 3.0}}) == {2: 1}
    assert bgm({0: {0: 2.0, 1: 1.0}}) == {0: 1}


# ---------------------------------------------------------------------------------------
# examples of section 3.9


def test_worked_example_2x2_tie():
    a = -1.0750000257499999
    b = -1.0750000357499998
    table = {0: {0: a, 1: a}, 1: {0: b, 1: b}}
    assert bgm(table) == {0: 1, 1: 0}


def test_3x3_example():
    table = {
        0: {0: -1.3750000387499999, 1: -1.7500000424999997, 2: -1.3750000421450617},
        1: {0: -1.3750000487499998, 1: -1.7500000524999997, 2: -1.3750000387499999},
        2: {0: -1.3750000487499998, 1: -1.7500000524999997, 2: -1.3750000387499999},
    }
    assert bgm(table) == {0: 2, 1: 0, 2: 1}


@pytest.mark.parametrize(
    "table, expected",
    [
        ({0: {0: -1, 1: -1}, 1: {0: -1, 1: -1}}, {0: 0, 1: 1}),
        ({0: {0: -1}, 1: {0: -1}}, {0: 0}),
        ({0: {0: -1, 1: -1}, 1: {0: -1}}, {0: 1, 1: 0}),
        ({0: {0: 1, 1: 2}, 1: {0: 3, 1: 1}}, {1: 1}),
        ({0: {0: 1}}, {0: 0}),
        ({0: {0: -1, 1: -1, 2: -1}}, {0: 0}),
    ],
)
def test_small_cases(table, expected):
    table = {r: {c: float(v) for c, v in cols.items()} for r, cols in table.items()}
    assert bgm(table) == expected


def test_positive_cost_forced_pair():
    # all costs positive, complete table: the padded matrix has too few no-match
    # cells, so one pair is forced (Q2); the greedy start matches nothing (Q3)
    assert bgm({0: {0: 1, 1: 2}, 1: {0: 3, 1: 1}}) == {1: 1}
    assert bgm({0: {0: 1.0, 1: 1.0}, 1: {0: 1.0, 1: 1.0}}) == {1: 1}
    assert bgm({0: {0: 2.0, 1: 1.0}, 1: {0: 1.0, 1: 3.0}, 2: {0: 1.0, 1: 1.0}}) == {2: 1}
    # not complete: enough no-match cells, nothing is returned
    assert bgm({0: {0: 1.0}, 1: {0: 1.0}}) == {}


# ---------------------------------------------------------------------------------------
# reverse search (fewer rows than columns, Q4)


def test_reverse_greedy():
    assert bgm({0: {0: -1.0, 1: -1.0, 2: -1.0}, 1: {0: -1.0, 1: -1.0, 2: -1.0}}) == {0: 0, 1: 1}
    assert bgm({0: {1: -1.0, 2: -1.0}, 1: {0: -1.0, 1: -1.0}}) == {0: 1, 1: 0}
    assert bgm({0: {0: -1.0, 1: -1.0, 2: -1.0}, 1: {0: -1.0}}) == {0: 1, 1: 0}


def test_reverse_with_stage():
    # transposed matrix rows (c0, c1, c2, fa), columns (r0, r1, miss, pad):
    # greedy leaves "fa" free; one stage moves c2 from the padding column to r1
    table = {0: {0: -1.0, 1: -2.0, 2: -1.0}, 1: {1: -2.0, 2: -1.5}}
    assert bgm(table) == {0: 1, 1: 2}


def test_reverse_three_rows():
    table = {0: {0: -1.0, 1: -1.0, 2: -1.0, 3: -1.0}, 1: {0: -1.0, 1: -1.0}, 2: {0: -1.0}}
    assert bgm(table) == {0: 2, 1: 1, 2: 0}


def test_reverse_positive_forced_pair():
    assert bgm({0: {0: 1.0, 1: 2.0, 2: 3.0}, 1: {0: 3.0, 1: 1.0, 2: 2.0}}) == {1: 1}


def test_keys_are_positions_not_consecutive():
    assert bgm({5: {7: -1.0, 3: -1.0}, 2: {3: -1.0}}) == {2: 3, 5: 7}


# ---------------------------------------------------------------------------------------
# m = 0 and mixed signs


def test_min_cost_zero():
    # m = 0: NM = -0.0, zero-cost pairs are still preferred to no match
    assert bgm({0: {0: 0.0, 1: 1.0}, 1: {0: 1.0, 1: 0.0}}) == {0: 0, 1: 1}
    assert bgm({0: {0: 0.0, 1: 0.0}, 1: {0: 0.0, 1: 0.0}}) == {0: 0, 1: 1}
    assert bgm({0: {0: 0.0, 1: 2.0}, 1: {0: 0.0, 1: 1.0}}) == {0: 0}


def test_mixed_signs():
    assert bgm({0: {0: -1.0, 1: 0.5}, 1: {0: 0.5, 1: 0.5}}) == {0: 0}


def test_input_not_modified():
    table = {1: {1: -1.0, 0: -2.0}, 0: {0: -1.0}}
    snapshot = {r: dict(c) for r, c in table.items()}
    bgm(table)
    assert table == snapshot


# ---------------------------------------------------------------------------------------
# property test: optimality for all-negative costs


def _brute_force_best(table):
    rows = sorted(table)

    def best(i, used):
        if i == len(rows):
            return 0.0
        r = rows[i]
        value = best(i + 1, used)  # row unmatched
        for c, cost in table[r].items():
            if c not in used:
                value = min(value, cost + best(i + 1, used | {c}))
        return value

    return best(0, frozenset())


_tie_costs = st.sampled_from([-1.0, -1.5, -1.0000000257, -0.5, -2.0])
_any_costs = st.floats(min_value=-10.0, max_value=-1e-3, allow_nan=False)
_negative_tables = st.dictionaries(
    st.integers(min_value=0, max_value=5),
    st.dictionaries(st.integers(min_value=0, max_value=5), _tie_costs | _any_costs, max_size=6),
    max_size=6,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_negative_tables)
def test_optimal_injective_and_uses_entries(table):
    result = bgm(table)
    # only existing entries, injective
    for r, c in result.items():
        assert r in table and c in table[r]
    assert len(set(result.values())) == len(result)
    # optimal total
    total = sum(table[r][c] for r, c in result.items())
    assert math.isclose(total, _brute_force_best(table), rel_tol=0.0, abs_tol=1e-9)


# ---------------------------------------------------------------------------------------
# the diagonal fast path (every row one entry, distinct columns, negative costs) gives
# what the full routine gives, in the same order


_costs = st.one_of(
    st.floats(min_value=-1e6, max_value=-1e-300, allow_nan=False),
    st.sampled_from([-5e-324, -1e-320, -1.0, -1.0000000000005, 0.0, 1.0]),
)


def _full_routine(table: dict) -> dict:
    import acescore.model.bgm as routine

    real = routine._diagonal
    routine._diagonal = lambda *a: None
    try:
        return bgm(table)
    finally:
        routine._diagonal = real


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=2, max_size=9, unique=True),
    st.lists(st.integers(0, 40), min_size=9, max_size=9, unique=True),
    st.lists(_costs, min_size=9, max_size=9),
)
def test_diagonal_tables_as_the_full_routine(rows, cols, costs):
    table = {r: {c: v} for r, c, v in zip(rows, cols, costs)}
    assert list(bgm(table).items()) == list(_full_routine(table).items())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), _costs), min_size=2, max_size=9))
@pytest.mark.slow
def test_near_diagonal_tables_as_the_full_routine(cells):
    table: dict = {}
    for r, c, v in cells:
        table.setdefault(r, {})[c] = v
    assert list(bgm(table).items()) == list(_full_routine(table).items())


def test_diagonal_table_hand_checked():
    import acescore.model.bgm as routine

    table = {3: {7: -2.0}, 1: {2: -0.5}, 5: {4: -1.0}}
    assert routine._diagonal(table, sorted(table)) == {1: 2, 5: 4, 3: 7}  # column order
    assert list(bgm(table).items()) == [(1, 2), (5, 4), (3, 7)]
    assert routine._diagonal({0: {1: -1.0}, 1: {1: -2.0}}, [0, 1]) is None  # one column
    assert routine._diagonal({0: {1: -1.0}, 1: {2: 0.5}}, [0, 1]) is None  # a cost >= 0
    assert routine._diagonal({0: {1: -1.0, 2: -1.0}, 1: {3: -1.0}}, [0, 1]) is None
