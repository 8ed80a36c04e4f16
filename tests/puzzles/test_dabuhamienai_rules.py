"""Dabuhamienai rules checker and solver: hand-made grids for each rule, brute force on small grids."""

from __future__ import annotations

import functools
import random

import pytest

from solvers.common import Deadline, InvalidInput
from solvers.dabuhamienai import rules
from solvers.sat import BACKENDS
from tests.conftest import WHOLE_SETS

NUMBERS_4 = [[1, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]]


def puzzle(numbers: list[list[int]]) -> rules.DabuhamienaiPuzzle:
    return rules.DabuhamienaiPuzzle(size=len(numbers), numbers=numbers)


def codes(numbers, shaded) -> list[str]:
    return sorted(v.rule for v in rules.check(puzzle(numbers), rules.DabuhamienaiAnswer(shaded=shaded)))


def test_valid_answer_has_no_violations() -> None:
    shaded = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    assert codes(NUMBERS_4, shaded) == []


def test_shaded_adjacent_names_both_cells() -> None:
    shaded = [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    found = rules.check(puzzle(NUMBERS_4), rules.DabuhamienaiAnswer(shaded=shaded))
    adjacent = [v for v in found if v.rule == "shaded-adjacent"]
    assert len(adjacent) == 1 and adjacent[0].cells == [[0, 0], [0, 1]]


def test_disconnected_region_is_reported_with_its_cells() -> None:
    # (0,0) is walled in by (0,1) and (1,0); diagonal contact between shaded cells is legal.
    numbers = [[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1]]
    shaded = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    found = rules.check(puzzle(numbers), rules.DabuhamienaiAnswer(shaded=shaded))
    assert [v.rule for v in found] == ["unshaded-disconnected"]
    assert found[0].cells == [[0, 0]]


def test_duplicate_in_run_only_within_one_run() -> None:
    numbers = [[1, 2, 1, 3], [2, 3, 4, 1], [3, 4, 2, 4], [4, 1, 3, 2]]
    # Row 0 has 1 at both ends of a run when nothing is shaded ...
    assert "duplicate-in-run" in codes(numbers, [[0] * 4 for _ in range(4)])
    # ... and a shaded cell between them splits the run, which makes the repeat legal.
    assert codes(numbers, [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]) == []


def test_every_broken_rule_is_reported_at_once() -> None:
    shaded = [[1, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert set(codes(NUMBERS_4, shaded)) == {"shaded-adjacent", "duplicate-in-run"}


@pytest.mark.parametrize(
    ("shaded", "code"),
    [
        ([[0, 0, 0, 0]] * 3, "wrong-dimensions"),
        ([[0, 0, 0]] * 4, "wrong-dimensions"),
        ([[0, 0, 2, 0]] + [[0] * 4] * 3, "bad-value"),
        ([[0, 0, -1, 0]] + [[0] * 4] * 3, "bad-value"),
    ],
)
def test_wrong_shape_raises_invalid_input(shaded, code) -> None:
    with pytest.raises(InvalidInput) as caught:
        rules.check(puzzle(NUMBERS_4), rules.DabuhamienaiAnswer(shaded=shaded))
    assert caught.value.violations[0].rule == code


@pytest.mark.parametrize("numbers", [[[1, 2], [2]], [[1, 3], [2, 1]], [[0, 1], [1, 2]]])
def test_malformed_puzzle_is_refused(numbers) -> None:
    with pytest.raises(ValueError):
        rules.DabuhamienaiPuzzle(size=2, numbers=numbers)


def legal_shadings(n: int):
    """Every shading obeying rule 1 (no two shaded cells touch), by backtracking."""
    shaded = [[0] * n for _ in range(n)]

    def place(i: int):
        if i == n * n:
            yield [row[:] for row in shaded]
            return
        r, c = divmod(i, n)
        yield from place(i + 1)
        if not (r and shaded[r - 1][c]) and not (c and shaded[r][c - 1]):
            shaded[r][c] = 1
            yield from place(i + 1)
            shaded[r][c] = 0

    yield from place(0)


def brute_force_solutions(numbers) -> list[list[list[int]]]:
    p = puzzle(numbers)
    return [s for s in legal_shadings(len(numbers)) if not rules.check(p, rules.DabuhamienaiAnswer(shaded=s))]


@functools.cache
def small_grids_with_all_solutions() -> list[tuple[list[list[int]], list[list[list[int]]]]]:
    """Computed once per test process (both backends' tests run in one: see the xdist group)."""
    rng = random.Random(2026)
    grids = []
    for n in [3] * 8 + [4] * 15 + [5] * (2 if WHOLE_SETS else 1):  # 5×5: ~10^5 legal shadings, checked one by one
        numbers = [[rng.randint(1, n) for _ in range(n)] for _ in range(n)]
        grids.append((numbers, brute_force_solutions(numbers)))
    return grids


@pytest.mark.xdist_group("dabuhamienai-brute-force")
@pytest.mark.parametrize("backend", BACKENDS)
def test_solver_matches_brute_force_on_small_grids(backend: str) -> None:
    statuses = set()
    for numbers, expected in small_grids_with_all_solutions():
        outcome = rules.solve(puzzle(numbers), 1000, Deadline.never(), backend)
        assert outcome.complete
        assert sorted(map(str, (s["shaded"] for s in outcome.solutions))) == sorted(map(str, expected))
        statuses.add(outcome.status)
    assert statuses == {"none", "unique", "multiple"}  # the sample exercises every answer


def test_limit_stops_the_search_and_says_so() -> None:
    outcome = rules.solve(puzzle(NUMBERS_4), 2, Deadline.never())
    assert outcome.status == "multiple" and len(outcome.solutions) == 2 and not outcome.complete


def test_other_solution_excludes_only_the_given_one() -> None:
    solutions = brute_force_solutions(NUMBERS_4)
    assert len(solutions) > 1
    other = rules.other_solution(NUMBERS_4, solutions[0], Deadline.never())
    assert other is not None and other != solutions[0] and other in solutions
