"""Dabuhamienai generator: unique puzzles (re-proven by fresh models on both backends), valid
stored solutions, determinism by seed, and the incremental model against a fresh one."""

from __future__ import annotations

import random

import pytest

from generators.dabuhamienai import generate_unique, random_maximal_shading
from solvers.common import Deadline
from solvers.dabuhamienai import rules
from solvers.sat import make_backend

CASES = [(size, seed) for size in (4, 6, 8, 10, 15) for seed in range(3)] + [(30, 0)]


@pytest.mark.parametrize(("size", "seed"), CASES)
def test_generated_puzzle_is_unique_and_solution_valid(size: int, seed: int) -> None:
    result = generate_unique(size, seed, Deadline.after(60))
    puzzle, answer = result.puzzle, result.solution
    assert rules.check(puzzle, answer) == []
    for backend in ("cadical", "z3"):
        if backend == "z3" and size > 15:
            continue  # z3 on 30×30 is slow; cadical re-proves it
        assert rules.other_solution(puzzle.numbers, answer.shaded, Deadline.never(), backend=backend) is None


def test_shading_is_valid_and_maximal() -> None:
    for n, seed in ((5, 1), (8, 2), (12, 3)):
        shaded = random_maximal_shading(n, random.Random(seed))
        assert len(rules.white_regions(shaded)) == 1
        for r in range(n):
            for c in range(n):
                near = [shaded[rr][cc] for rr, cc in rules.neighbours(r, c, n)]
                assert not (shaded[r][c] and any(near))
                if not shaded[r][c] and not any(near):
                    shaded[r][c] = 1
                    assert len(rules.white_regions(shaded)) > 1, "a cell could still be shaded"
                    shaded[r][c] = 0


def fresh_other(numbers: list[list[int]], shaded: list[list[int]]) -> list[list[int]] | None:
    return rules.other_solution(numbers, shaded, Deadline.never(), backend="cadical")


@pytest.mark.parametrize("seed", range(20))
def test_repairable_model_agrees_with_fresh_model(seed: int) -> None:
    """After random set_number calls, the incremental model finds another solution exactly when
    a fresh model does, and what it finds is valid for the current numbers."""
    rng = random.Random(seed)
    n = rng.choice((5, 6, 7))
    shaded = random_maximal_shading(n, rng)
    numbers = [[rng.randint(1, n) for _ in range(n)] for _ in range(n)]
    changeable = {(r, c) for r in range(n) for c in range(n) if shaded[r][c]}
    model = rules.RepairableModel(make_backend("cadical"), numbers, changeable)
    model.exclude(shaded)
    for _ in range(25):
        cell = rng.choice(sorted(changeable))
        numbers[cell[0]][cell[1]] = rng.randint(1, n)
        model.set_number(cell, numbers[cell[0]][cell[1]])
        found = model.other_solution(Deadline.never())
        expected = fresh_other(numbers, shaded)
        assert (found is None) == (expected is None)
        if found is not None:
            assert found != shaded
            puzzle = rules.DabuhamienaiPuzzle(size=n, numbers=numbers)
            assert rules.check(puzzle, rules.DabuhamienaiAnswer(shaded=found)) == []


def test_repairable_model_cuts_match_base_model() -> None:
    rng = random.Random(7)
    n = 6
    numbers = [[rng.randint(1, n) for _ in range(n)] for _ in range(n)]
    model = rules.RepairableModel(make_backend("cadical"), numbers, set())
    base = rules.DabuhamienaiModel(make_backend("cadical"), numbers)
    for _ in range(30):
        chosen = {v for v in model.cells if rng.random() < 0.3}
        assert model.connectivity_cuts(chosen) == base.connectivity_cuts(chosen)
